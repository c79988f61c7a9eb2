#!/usr/bin/env bash
# Install the RDF engines ragprov's test matrix runs on (Debian/Ubuntu). Idempotent: installs only
# what is missing, runs `apt-get update` at most once. Called by .ci/run; locally: sudo .ci/install-engines.sh
#   - Apache Jena 4.5 jars (libapache-jena-java) + a JDK (javac compiles scripts/engines/JenaSparqlServer.java)
#   - Virtuoso 7 (virtuoso-opensource; it is not started here: the tests start their own on 127.0.0.1)
#   - unzip (scripts/engines/jenacp.sh)
#   - the Oxigraph server (pip package `oxigraph`, the `oxigraph serve` command)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -E"; else
    echo "install-engines: not root and no sudo: cannot apt-get install" >&2; exit 1; fi
fi

need=()
dpkg -s libapache-jena-java >/dev/null 2>&1 || need+=(libapache-jena-java)
dpkg -s virtuoso-opensource >/dev/null 2>&1 || need+=(virtuoso-opensource)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)

if [ "${#need[@]}" -gt 0 ]; then
  echo "install-engines: apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
  # Debian's package starts nothing here, but make sure no system Virtuoso holds 1111/8890 anyway.
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet virtuoso-opensource-7 2>/dev/null; then
    $SUDO systemctl stop virtuoso-opensource-7 || true
  fi
else
  echo "install-engines: Debian packages already installed"
fi

PY="${PYTHON:-python3}"
if ! command -v oxigraph >/dev/null 2>&1; then
  echo "install-engines: pip install oxigraph"
  "$PY" -m pip install -q 'oxigraph>=0.5,<0.6'
fi

# Check: every engine is installed (a one-line reason and the install command otherwise).
"$PY" "$(dirname "$0")/../scripts/engines/servers.py" check
