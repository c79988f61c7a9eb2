"""Recording cost: the Recorder vs. the raw store, measured in one run, in memory and on disk.

Four ways to write the same N realistic GraphRAG traces (5 concepts, 50 seeds, 25 selected edges;
five stages each, one request per stage), alternated run by run (each run a fresh store):

* ``extend``   — each stage's quads, already built, handed straight to ``Store.extend`` (no SPARQL
  at all): the floor, measured in the same run;
* ``update``   — each stage's ``INSERT DATA`` text, already rendered, run as SPARQL UPDATE;
* ``recorder`` — ``Recorder`` end to end: building parameters, rendering + escaping, the update;
* ``render``   — the recorder's rendering alone (a store that runs nothing).

Prints p50 / p95 milliseconds per trace of each and the p50 ratios to ``extend`` and to ``update``:
``update`` is the floor of writing by SPARQL UPDATE, one request per stage (the store parsing the
same text), so ``recorder / update`` is what the recorder itself adds.
Target (issue 10): recorder / extend ≤ 1.5, in memory and on disk.

    python bench/record.py [--traces 200] [--runs 7]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile

from _common import (
    CLOCKS,
    CapturingStore,
    figure,
    fixed_clock,
    graph_rag_inputs,
    ids,
    interleaved,
    percentiles,
    quads_of_update,
    record_graph_rag,
)

from ragprov.record import Recorder
from ragprov.sparql import Dialect
from ragprov.store import EmbeddedStore


def measure(kind: str, n: int, runs: int, clock: str = "wall") -> dict[str, list[float]]:
    inputs = [graph_rag_inputs(i) for i in range(n)]  # what pipelines hand over: built outside the timings
    capture = CapturingStore(Dialect.RDF12)
    recorder = Recorder(capture, clock=fixed_clock(), new_id=ids())
    for item in inputs:
        record_graph_rag(recorder, item)
    texts = capture.updates
    stage_quads = [quads_of_update(t) for t in texts]
    folders: list[str] = []

    def fresh() -> EmbeddedStore:
        if kind == "memory":
            return EmbeddedStore()
        folders.append(tempfile.mkdtemp(prefix="ragprov-bench-"))
        return EmbeddedStore(folders[-1])

    def extend(_):
        store = fresh()
        for q in stage_quads:
            store.extend(q)
        store.close()

    def update(_):
        store = fresh()
        for t in texts:
            store.update(t)
        store.close()

    def recorder_side(_):
        store = fresh()
        rec = Recorder(store, clock=fixed_clock(), new_id=ids())
        for item in inputs:
            record_graph_rag(rec, item)
        store.close()

    def render(_):
        rec = Recorder(CapturingStore(Dialect.RDF12), clock=fixed_clock(), new_id=ids())
        for item in inputs:
            record_graph_rag(rec, item)

    try:
        out = interleaved({"extend": extend, "update": update, "recorder": recorder_side, "render": render}, runs, clock=CLOCKS[clock])
    finally:
        for f in folders:
            shutil.rmtree(f, ignore_errors=True)
    out["_quads"] = [sum(len(q) for q in stage_quads)]
    out["_requests"] = [len(texts)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time by elapsed time (default) or by this process's CPU time (a busy shared machine)")
    args = parser.parse_args(argv)
    print(f"recording {args.traces} GraphRAG traces (5 concepts, 50 seeds, 25 edges), {args.runs} interleaved runs per side, "
          f"{args.clock} time")
    print(f"{'store':7} {'side':9} {'p50 ms/trace':>13} {'p95 ms/trace':>13} {'p50 / extend':>13} {'p50 / update':>13}")
    for kind in ("memory", "disk"):
        m = measure(kind, args.traces, args.runs, args.clock)
        per = 1000 / args.traces
        floor, sparql_floor = percentiles(m["extend"])[0], percentiles(m["update"])[0]
        for side in ("extend", "update", "recorder", "render"):
            p50, p95 = percentiles(m[side])
            print(f"{kind:7} {side:9} {p50 * per:>13.3f} {p95 * per:>13.3f} {p50 / floor:>13.2f} {p50 / sparql_floor:>13.2f}")
            figure("record", f"{kind} {side}", p50_ms_per_trace=p50 * per, p95_ms_per_trace=p95 * per, ratio_to_extend=p50 / floor,
                   ratio_to_update=p50 / sparql_floor, traces=args.traces)
        print(f"{kind:7} {m['_quads'][0]} quads in {m['_requests'][0]} requests")
    print("floors: Store.extend of the same quads, and SPARQL UPDATE of the same rendered text, measured in the same run;\n"
          "target recorder / extend <= 1.5")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
