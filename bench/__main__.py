"""Run every benchmark and write the figures they print as JSON (``bench/out/figures.json``).

    python -m bench [--quick] [--only record,navigate] [--out bench/out/figures.json]

Each benchmark alternates its sides run by run and measures its floor in the same run; ``--quick``
runs them at small sizes (a smoke run: the figures are not the issue's sizes). Then
``python bench/readme_table.py`` rewrites the README's benchmark table from the JSON.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

#: benchmark → (arguments at full size, arguments of a quick run)
BENCHES = {
    "record": (["--traces", "200", "--runs", "5"], ["--traces", "50", "--runs", "3"]),
    # full: the 10,000 traces + 1M facts (built once, ~3 min, then cached); 30 samples keep a run usable
    "navigate": (["--samples", "30"], ["--traces", "300", "--copies", "2", "--samples", "10"]),
    "load": (["--disk"], ["--copies", "2", "--repeat", "2", "--disk"]),
    "remote": ([], ["--traces", "30", "--warmup", "5"]),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--only", default=None, help="comma-separated benchmarks (default: all)")
    parser.add_argument("--out", type=Path, default=HERE / "out" / "figures.json")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(BENCHES)
    import _common

    runs = {}
    for name in names:
        full, quick = BENCHES[name]
        print(f"\n=== bench/{name}.py {' '.join(quick if args.quick else full)}", flush=True)
        t = time.perf_counter()
        code = importlib.import_module(name).main(quick if args.quick else full)
        runs[name] = {"seconds": round(time.perf_counter() - t, 1), "exit": code, "args": quick if args.quick else full}
    out = {
        "when": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load_average": os.getloadavg()[0]},
        "quick": args.quick,
        "runs": runs,
        "figures": _common.FIGURES,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(f"\nfigures written to {args.out}")
    return 0 if all(r["exit"] == 0 for r in runs.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
