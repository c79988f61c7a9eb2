"""A full disk during a load: a clear error, the existing store as it was, no new store directory,
no staging directory left (issue 13, items 3 and 10). The disk is a 3 MB tmpfs mounted in a mount
namespace of the test's own (``unshare``); where none can be made, the same load meets an injected
``OSError(ENOSPC)`` instead."""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pyoxigraph
import pytest

from ragprov.cli import cli, run
from tests.faults.faults import quad_count

ROOT = Path(__file__).resolve().parents[2]
GRAPHRAG = ROOT / "plugin" / "data" / "graphrag" / "christmas-carol-v3"
README = ROOT / "README.md"

# Runs inside the namespace, on the tmpfs at argv[1]; prints what it saw as JSON.
SCENARIO = """
import json, os, subprocess, sys
disk, graphrag, readme = sys.argv[1:4]
from tests.faults.faults import quad_count, leftovers
from pathlib import Path
def ragprov(*args):
    return subprocess.run([sys.executable, "-m", "ragprov.cli", *args], capture_output=True, text=True)
small = Path(disk) / "store"
first = ragprov("load", "documents", readme, "--store", str(small))
before = quad_count(small)
full = ragprov("load", "graphrag", graphrag, "--store", str(small))
new = Path(disk) / "new"
full_new = ragprov("load", "graphrag", graphrag, "--store", str(new))
print(json.dumps({
    "first": first.returncode, "before": before, "after": quad_count(small),
    "code": full.returncode, "error": full.stderr, "code_new": full_new.returncode, "error_new": full_new.stderr,
    "new_exists": new.exists(), "leftovers": os.listdir(disk),
}))
"""


def _namespaced(disk: Path, command: list[str]) -> list[str] | None:
    """``command`` in a mount namespace with a 3 MB tmpfs at ``disk``, if one can be made."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    script = 'mount -t tmpfs -o size=3m tmpfs "$1" && shift && exec "$@"'
    for flags in (["-m"], ["-r", "-m"]):
        probe = subprocess.run([unshare, *flags, "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt 2>/dev/null || "
                                "mount -t tmpfs -o size=1m tmpfs /tmp"], capture_output=True)
        if probe.returncode == 0:
            return [unshare, *flags, "sh", "-c", script, "sh", str(disk), *command]
    return None


def test_a_load_that_fills_the_disk_changes_nothing_and_says_so(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    command = _namespaced(disk, [sys.executable, "-c", SCENARIO, str(disk), str(GRAPHRAG), str(README)])
    if command is None:
        pytest.skip("no mount namespace here: test_injected_disk_full covers this")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["first"] == 0 and seen["before"] > 0
    assert seen["code"] == 1 and seen["after"] == seen["before"], seen
    assert "disk holding the store" in seen["error"] and "is full" in seen["error"] and "internal error" not in seen["error"]
    assert seen["code_new"] == 1 and not seen["new_exists"], seen
    # no staging directory, no new store: only the store and its own text index (a sidecar file)
    assert sorted(seen["leftovers"]) == ["store", "store.ragprov-index.sqlite"], seen


def test_injected_disk_full(tmp_path, monkeypatch, capsys):
    path = tmp_path / "store"
    assert run(cli, ["load", "documents", str(README), "--store", str(path)]) == 0
    before = quad_count(path)
    real = pyoxigraph.Store.bulk_load

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "IO error: No space left on device")

    monkeypatch.setattr(pyoxigraph.Store, "bulk_load", full)
    monkeypatch.setattr(pyoxigraph.Store, "load", full)
    capsys.readouterr()
    assert run(cli, ["load", "graphrag", str(GRAPHRAG), "--store", str(path)]) == 1
    assert "is full" in capsys.readouterr().err
    assert run(cli, ["load", "graphrag", str(GRAPHRAG), "--store", str(tmp_path / "new")]) == 1
    monkeypatch.setattr(pyoxigraph.Store, "bulk_load", real)
    assert quad_count(path) == before and not (tmp_path / "new").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store", "store.ragprov-index.sqlite"]
