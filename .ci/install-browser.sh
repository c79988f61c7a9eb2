#!/usr/bin/env bash
# Install the headless browser the explorer's browser tests drive (tests/serve/test_browser.py):
# Debian's chromium and its chromedriver (/usr/bin/chromium, /usr/bin/chromedriver), and Graphviz,
# which lays out `trace show --format dot` to check it stays readable (tests/serve/test_page.py). Idempotent:
# installs only what is missing. Called by .ci/run; locally: sudo .ci/install-browser.sh
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -E"; else
    echo "install-browser: not root and no sudo: cannot apt-get install" >&2; exit 1; fi
fi

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
command -v dot >/dev/null 2>&1 || need+=(graphviz)

if [ "${#need[@]}" -gt 0 ]; then
  echo "install-browser: apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
chromium --version 2>/dev/null || true
chromedriver --version
dot -V
