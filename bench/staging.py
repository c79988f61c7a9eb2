"""What an all-or-nothing write costs: a staged write (checkpoint, write, swap) vs. writing in place.

Both sides open an existing on-disk store, add one small trace-sized update, and close; the staged
side first checkpoints the store beside it (hard links) and swaps the copy in at the end. Sizes: the
bundled GraphRAG output loaded 1, 4 and 16 times under different namespaces (~36k, ~146k, ~583k
quads). Runs alternate the two sides; the floor (open + close, no write) is measured in the same run.

    python bench/staging.py [--runs 10] [--sizes 1,4,16] [--cache /work/bench-cache/reliability-staging]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

from ragprov.loaders.graphrag import load_graphrag
from ragprov.resources import data_dir
from ragprov.store import EmbeddedStore
from ragprov.store.staging import staged

UPDATE = 'INSERT DATA { GRAPH <urn:graph:retrieval> { <urn:x:%d> <urn:x:p> "one more fact" } }'


def build(path: Path, copies: int) -> int:
    if not (path / "CURRENT").is_file():
        shutil.rmtree(path, ignore_errors=True)
        store = EmbeddedStore(path)
        for i in range(copies):
            load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", namespace=f"urn:graphrag:{i}:", show_progress=False)
        store.close()
    store = EmbeddedStore(path, read_only=True)
    n = store.count()
    store.close()
    return n


def in_place(path: Path, i: int) -> None:
    store = EmbeddedStore(path)
    store.update(UPDATE % i)
    store.close()


def staged_write(path: Path, i: int) -> None:
    with staged(path) as store:
        store.update(UPDATE % i)


def floor(path: Path, i: int) -> None:
    EmbeddedStore(path).close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--sizes", default="1,4,16")
    ap.add_argument("--cache", default="/work/bench-cache/reliability-staging")
    args = ap.parse_args()
    print("store quads   floor p50   in-place p50/p95   staged p50/p95   staged/in-place (p50)")
    for copies in map(int, args.sizes.split(",")):
        path = Path(args.cache) / f"x{copies}"
        n = build(path, copies)
        times: dict[str, list[float]] = {"floor": [], "in_place": [], "staged": []}
        for run in range(args.runs):
            for name, fn in (("floor", floor), ("in_place", in_place), ("staged", staged_write)):
                start = time.perf_counter()
                fn(path, run)
                times[name].append((time.perf_counter() - start) * 1000)
        q = {k: (statistics.median(v), sorted(v)[int(0.95 * (len(v) - 1))]) for k, v in times.items()}
        print(f"{n:>11,}   {q['floor'][0]:7.1f} ms   {q['in_place'][0]:7.1f} / {q['in_place'][1]:7.1f} ms   "
              f"{q['staged'][0]:7.1f} / {q['staged'][1]:7.1f} ms   {q['staged'][0] / q['in_place'][0]:.2f}")


if __name__ == "__main__":
    main()
