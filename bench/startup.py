"""Start-up of the ``ragprov`` command: ``ragprov --help`` and ``ragprov traces`` on a small store,
whole-process, beside a bare ``python -c pass`` (the floor), interleaved run by run.

Wall time and CPU time (user + system, from ``wait4``) per command, p50/p95; CPU time is the
steadier one on a shared machine. The small store is the Christmas Carol demo index with one
trace, made once in a temporary folder.

    python bench/startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import percentiles  # noqa: E402


def measure(argv: list[str]) -> tuple[float, float]:
    t = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(argv)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args(argv)
    ragprov = [sys.executable, "-m", "ragprov.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "store")
        subprocess.run([*ragprov, "load", "graphrag", str(ROOT / "plugin/data/graphrag/christmas-carol-v3"), "--store", store],
                       check=True, capture_output=True)
        subprocess.run([*ragprov, "ask", "local", "Who is Tiny Tim?", "--store", store], check=True, capture_output=True)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "ragprov --help": [*ragprov, "--help"],
            "ragprov traces": [*ragprov, "traces", "--store", store],
        }
        for argv_ in commands.values():  # warm-up: bytecode and template caches
            measure(argv_)
        walls: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.runs):
            for name, argv_ in commands.items():
                wall, cpu = measure(argv_)
                walls[name].append(wall)
                cpus[name].append(cpu)
    print(f"{args.runs} runs, interleaved")
    print(f"{'command':16} {'wall p50':>9} {'wall p95':>9} {'cpu p50':>8} {'cpu p95':>8}")
    for name in commands:
        w50, w95 = percentiles(walls[name])
        c50, c95 = percentiles(cpus[name])
        print(f"{name:16} {w50 * 1000:7.0f}ms {w95 * 1000:7.0f}ms {c50 * 1000:6.0f}ms {c95 * 1000:6.0f}ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
