"""Helpers of the fault suite: run ``ragprov`` in a child process, stop it, look at the store."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyoxigraph

SEED = int(os.environ.get("RAGPROV_FAULT_SEED", "13"))
"""The seed of every random stopping point (set it to replay a failure)."""


def ragprov(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ragprov.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def run_ragprov(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ragprov.cli", *args], capture_output=True, text=True, timeout=timeout)


def timed_run(*args: str) -> float:
    """How long a full run of ``ragprov args`` takes here (the range stopping points are drawn from)."""
    start = time.monotonic()
    done = run_ragprov(*args)
    assert done.returncode == 0, done.stderr
    return time.monotonic() - start


def stopped_run(args: list[str], *, after: float, sig: signal.Signals) -> subprocess.CompletedProcess:
    """Start ``ragprov args``, send ``sig`` after ``after`` seconds (if it still runs), wait for it."""
    child = ragprov(*args)
    try:
        child.wait(timeout=after)
    except subprocess.TimeoutExpired:
        child.send_signal(sig)
    out, err = child.communicate(timeout=120)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def stopping_points(n: int, duration: float, *, salt: str) -> list[float]:
    """``n`` seeded points spread over a run of ``duration`` seconds (one per slice, so that start-up,
    writing and the end are all hit)."""
    rng = random.Random(f"{SEED}:{salt}")
    return [duration * (i + rng.random()) / n for i in range(n)]


def quad_count(path: Path) -> int | None:
    """The quads of the store at ``path`` (None when there is no store), read as a reader does
    (pyoxigraph's read-only open, beside any writer)."""
    if not path.exists():
        return None
    return len(pyoxigraph.Store.read_only(str(path)))


def leftovers(path: Path) -> list[str]:
    """Staging directories of the store at ``path`` still on disk."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(f".{path.name}.staging-"))
