"""CPU of each document-link derivation (queries/record/_document_link.j2) of one DRIFT ask.

Runs ``ragprov ask drift`` in-process on ``--store`` (it records a trace there: pass a copy of a
bench cache, e.g. ``cp -r /work/bench-cache/retrieve-ask-1000000 /tmp/x``), keeps the one update
it sends at the end, then times each stage's INSERT … WHERE as ``SELECT (COUNT(*) …)`` over its
WHERE (the derivation alone, nothing written; this process's CPU time, best of ``--reps``), and the
whole final update's CPU as the ask sent it.

    python bench/document_links.py --store DIR [--question Q] [--reps 8] [--keep FILE]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: a stage's document link in the joined update: INSERT { … } WHERE { … } ;
DERIVATION = re.compile(r"^INSERT \{.*?\nWHERE \{\n(.*?)\n\} ;$", re.S | re.M)


def final_update(store_dir: str, question: str, facts: str) -> tuple[str, float]:
    """The update ``ragprov ask drift`` sends last, and its CPU seconds."""
    from ragprov.cli import main
    from ragprov.store import embedded

    sent: list[tuple[str, float]] = []
    update = embedded.EmbeddedStore._update

    def timed(self: embedded.EmbeddedStore, sparql: str) -> None:
        t = time.process_time()
        update(self, sparql)
        sent.append((sparql, time.process_time() - t))

    embedded.EmbeddedStore._update = timed  # type: ignore[method-assign]
    argv, sys.argv = sys.argv, ["ragprov", "ask", "drift", question, "--facts-graph", facts, "--store", store_dir]
    try:
        main()
    except SystemExit:
        pass
    finally:
        sys.argv = argv
        embedded.EmbeddedStore._update = update  # type: ignore[method-assign]
    if not sent:
        raise SystemExit("the ask sent no update")
    return sent[-1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, help="a store directory (a copy: the ask records a trace in it)")
    ap.add_argument("--question", default="Who is Scrooge's nephew?")
    ap.add_argument("--facts-graph", default="urn:graph:facts")
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--keep", type=Path, default=None, help="write the final update here")
    args = ap.parse_args(argv)
    text, cpu = final_update(args.store, args.question, args.facts_graph)
    if args.keep:
        args.keep.write_text(text, encoding="utf-8")
    from ragprov.store import EmbeddedStore
    from ragprov.store.base import Rows

    prologue = "".join(line + "\n" for line in text.splitlines() if line.startswith("PREFIX"))
    store = EmbeddedStore(args.store, read_only=True)
    total = 0.0
    for n, where in enumerate(DERIVATION.findall(text)):
        query = f"{prologue}SELECT (COUNT(DISTINCT ?document) AS ?n) WHERE {{\n{where}\n}}"
        best, documents = float("inf"), 0
        for _ in range(args.reps):
            t = time.process_time()
            rows = store.query(query)
            best = min(best, time.process_time() - t)
            documents = int(rows[0]["n"].value) if isinstance(rows, Rows) and rows else 0
        total += best
        print(f"stage {n:2}: {best * 1000:6.2f} ms CPU, {documents} document(s)")
    store.close(flush=False)
    print(f"derivations: {total * 1000:.1f} ms CPU in all; the final update as the ask sent it: {cpu * 1000:.1f} ms CPU "
          f"({len(text) / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
