"""Rewrite the README's benchmark table from ``bench/out/figures.json`` (what ``python -m bench`` wrote).

    python bench/readme_table.py [--figures bench/out/figures.json] [--readme README.md]

The table sits between ``<!-- bench:begin -->`` and ``<!-- bench:end -->``; one row per figure line,
its p50 / p95 and its ratio to the floor measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def _fmt(value) -> str:
    return f"{value:,.2f}" if isinstance(value, float) else str(value)


def table(data: dict) -> str:
    """The markdown table of every figure line.

    >>> figures = {"record": {"memory extend": {"p50_ms_per_trace": 1.5, "ratio_to_extend": 1.0}}}
    >>> print(table({"when": "t", "quick": False, "figures": figures}))
    | bench | line | figures |
    |---|---|---|
    | record | memory extend | p50_ms_per_trace 1.50, ratio_to_extend 1.00 |
    <BLANKLINE>
    Measured t by `python -m bench`.
    """
    rows = ["| bench | line | figures |", "|---|---|---|"]
    for bench, lines in data["figures"].items():
        for line, values in lines.items():
            rows.append(f"| {bench} | {line} | " + ", ".join(f"{k} {_fmt(v)}" for k, v in values.items()) + " |")
    runs = data.get("runs") or {}
    only = f" --only {','.join(runs)}" if runs else ""
    sizes = "; ".join(f"{name} {' '.join(r['args']) or '(defaults)'}" for name, r in runs.items())
    quick = " --quick" if data.get("quick") else ""
    note = f"Measured {data['when']} by `python -m bench{quick}{only}`" + (f" ({sizes})." if sizes else ".")
    return "\n".join(rows) + "\n\n" + note


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--figures", type=Path, default=ROOT / "bench" / "out" / "figures.json")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = parser.parse_args(argv)
    data = json.loads(args.figures.read_text())
    text = args.readme.read_text()
    block = f"{BEGIN}\n{table(data)}\n{END}"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text = text.replace("Each prints ratios against the raw store measured in the same run; none is a timed assertion.",
                            "Each prints ratios against the raw store measured in the same run; none is a timed assertion.\n\n" + block, 1)
    args.readme.write_text(text)
    print(f"{args.readme}: benchmark table from {args.figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
