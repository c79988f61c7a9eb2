"""The persistent text index's share of ``ragprov load``: build time against the whole load, and
its size on disk.

A synthetic knowledge graph of ``--facts`` facts (entities with a label and a twelve-word
description, three relationships each, as ``bench/pipeline.py`` grows the Christmas Carol graph) is
written once as N-Triples under ``--cache``; each round loads it into a fresh on-disk store with
the real command, ``ragprov load triples … --facts-graph urn:graph:facts`` (one process, timed
whole). The load's last step brings the store's text index up to date and prints its own time
(``text index: … (N s)``): that time divided by the whole command's is the index's share. Then a
second ``ragprov load`` of ten new facts into the same store shows the incremental update.

    python bench/textindex.py [--facts 1000000] [--rounds 1] [--cache DIR]
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import percentiles  # noqa: E402
from bench.pipeline import WORDS  # noqa: E402

FACTS = "urn:graph:facts"
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
DESCRIPTION = "<http://purl.org/dc/terms/description>"
_INDEX_LINE = re.compile(r"text index: (\d+) document\(s\) written, (\d+) removed, (\d+) unchanged \(([\d.]+) s\)")


def write_graph(path: Path, facts: int, *, seed: int = 7, start: int = 0) -> None:
    """``facts`` facts as N-Triples: per entity a label, a description and three relationships."""
    rng = random.Random(seed)
    n = max(1, facts // 5)
    with path.open("w", encoding="utf-8") as out:
        for i in range(start, start + n):
            words = rng.sample(WORDS, 3)
            out.write(f'<urn:bench:entity:{i}> {LABEL} "{words[0].upper()} {words[1].upper()} {i}" .\n')
            out.write(f'<urn:bench:entity:{i}> {DESCRIPTION} "{" ".join(rng.sample(WORDS, 12))}" .\n')
            for _ in range(3):
                out.write(f"<urn:bench:entity:{i}> <urn:bench:rel:{rng.choice(WORDS)}> <urn:bench:entity:{start + rng.randrange(n)}> .\n")


def load(store: Path, graph: Path) -> tuple[float, float, str]:
    """Whole-process wall seconds of one ``ragprov load triples``, the text index's own seconds, and its report line."""
    argv = [sys.executable, "-m", "ragprov.cli", "load", "triples", str(graph), "--allow-unknown-source", "--source", "urn:bench:source",
            "--facts-graph", FACTS, "--store", str(store)]
    t = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode:
        raise SystemExit(f"ragprov load failed: {proc.stderr.strip()[-400:]}")
    found = _INDEX_LINE.search(proc.stderr)
    if found is None:
        raise SystemExit(f"ragprov load printed no text-index line: {proc.stderr.strip()[-400:]}")
    return wall, float(found.group(4)), found.group(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args(argv)
    cache = args.cache or Path(f"/work/bench-cache/retrieve-textindex-{args.facts}")
    cache.mkdir(parents=True, exist_ok=True)
    graph = cache / "graph.nt"
    if not graph.exists():
        write_graph(graph, args.facts)
    more = cache / "more.nt"
    write_graph(more, 50, seed=11, start=10 ** 9)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "plugin")], check=True, stdout=subprocess.DEVNULL)
    walls, indexes, shares, updates = [], [], [], []
    size, line = 0, ""
    for _ in range(args.rounds):
        store = cache / "store"
        shutil.rmtree(store, ignore_errors=True)
        sidecar = cache / "store.ragprov-index.sqlite"
        for leftover in cache.glob("store.ragprov-index.sqlite*"):
            leftover.unlink()
        wall, index, line = load(store, graph)
        walls.append(wall)
        indexes.append(index)
        shares.append(index / wall)
        size = sidecar.stat().st_size
        updates.append(load(store, more))
    w50, w95 = percentiles(walls)
    i50, i95 = percentiles(indexes)
    print(f"{args.facts:,} facts ({graph.stat().st_size / 2**20:.0f} MiB of N-Triples), {args.rounds} round(s)")
    print(f"ragprov load triples (whole process): p50 {w50:.1f} s p95 {w95:.1f} s; its text index step: p50 {i50:.1f} s p95 {i95:.1f} s")
    print(f"text index share of the load: p50 {100 * percentiles(shares)[0]:.1f} %  ({line})")
    print(f"text index on disk: {size / 2**20:.0f} MiB ({size / max(1, graph.stat().st_size):.2f}× the N-Triples)")
    wall, index, line = updates[-1]
    print(f"a second load of 10 facts: {wall:.1f} s whole, text index {index:.1f} s ({line})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
