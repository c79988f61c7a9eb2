"""Navigation latency on a large store: show-trace and list-traces over 10,000 stored traces.

The traces are realistic GraphRAG traces (5 concepts, 50 seeds, 25 selected edges), written with
the recorder's own requests, then bulk-loaded. Prints p50 / p95 per view, in memory and on disk,
beside the raw floor of the same store (a single indexed quad-pattern look-up) measured in the same
run: a view must stay fast as the store grows because it binds whole triples and never scans.

    python bench/navigate.py [--traces 10000] [--samples 200]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time

from _common import CapturingStore, fixed_clock, graph_rag_inputs, ids, percentiles, quads_of_update, record_graph_rag

from pyoxigraph import NamedNode

from ragprov.navigate import Navigator
from ragprov.record import Recorder
from ragprov.sparql import Dialect
from ragprov.store import EmbeddedStore


def build_quads(n: int):
    capture = CapturingStore(Dialect.RDF12)
    recorder = Recorder(capture, clock=fixed_clock(), new_id=ids())
    questions = []
    for i in range(n):
        questions.append(record_graph_rag(recorder, graph_rag_inputs(i)).question)
    quads = [q for text in capture.updates for q in quads_of_update(text)]
    return quads, questions


def timed(fn, samples: int) -> list[float]:
    out = []
    for _ in range(samples):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    t = time.perf_counter()
    quads, questions = build_quads(args.traces)
    print(f"{args.traces} traces, {len(quads)} quads (built in {time.perf_counter() - t:.1f} s)")
    rng = random.Random(7)
    print(f"{'store':7} {'view':14} {'p50 ms':>8} {'p95 ms':>8} {'p50 / raw trace read':>21}")
    for kind in ("memory", "disk"):
        store = EmbeddedStore(tempfile.mkdtemp(prefix="ragprov-nav-")) if kind == "disk" else EmbeddedStore()
        store.bulk_extend(quads)
        nav = Navigator(store)
        raw = store.raw
        picks = [rng.choice(questions) for _ in range(args.samples)]

        def raw_trace(q):
            """The same trace read with bare index look-ups of every node it has (IRIs known in advance)."""
            tid = q.value.rsplit(":", 1)[1]
            nodes = [q] + [NamedNode(f"urn:trustgraph:prov:{s}:{tid}") for s in ("grounding", "exploration", "focus", "synthesis")]
            nodes += [NamedNode(f"urn:trustgraph:prov:edge:{tid}:{n}") for n in range(1, 26)]
            nodes += [NamedNode(f"urn:trustgraph:prov:hop:{tid}:{n}") for n in (1, 2)]
            out = [quad for node in nodes for quad in raw.quads_for_pattern(node, None, None, None)]
            out += list(raw.quads_for_pattern(NamedNode(f"urn:trustgraph:answer:{tid}"), None, None, None))
            return out

        it = iter(picks)
        floor = percentiles(timed(lambda: raw_trace(next(it)), args.samples))[0]
        it = iter(picks)
        show = percentiles(timed(lambda: nav.trace(next(it)), args.samples))
        listing = percentiles(timed(lambda: nav.list_traces(limit=20), max(20, args.samples // 10)))
        it = iter(picks)
        stage = percentiles(timed(lambda: nav.stage(next(it).value.replace("question:", "prov:focus:")), args.samples))
        for name, (p50, p95) in (("show-trace", show), ("stage (focus)", stage), ("list-traces", listing)):
            print(f"{kind:7} {name:14} {p50:>8.2f} {p95:>8.2f} {p50 / floor:>20.1f}x")
        store.close()
    print("raw look-up: the same trace's quads read by quads_for_pattern on each of its 33 node IRIs (known in advance)")


if __name__ == "__main__":
    main()
