"""Recording cost: the Recorder vs. the raw store, measured in one run, in memory and on disk.

Three ways to write the same N realistic GraphRAG traces (5 concepts, 50 seeds, 25 selected edges;
five stages each, one request per stage):

* ``extend``  — the stage's quads handed straight to ``Store.extend`` (no SPARQL at all): the floor;
* ``update``  — the stage's ``INSERT DATA`` text, already rendered, run as SPARQL UPDATE;
* ``recorder`` — ``Recorder`` end to end: building parameters, rendering + escaping, the update.

Targets (issue 2): recorder ≤ 1.5 × extend; rendering + escaping ≤ 10 % on top of the bare update.

    python bench/record.py [--traces 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import tempfile

from _common import CapturingStore, best_of, fixed_clock, graph_rag_inputs, ids, quads_of_update, record_graph_rag

from ragprov.record import Recorder
from ragprov.sparql import Dialect
from ragprov.store import EmbeddedStore


def measure(kind: str, n: int, repeat: int) -> dict[str, float]:
    inputs = [graph_rag_inputs(i) for i in range(n)]  # what pipelines hand over: built outside the timings
    capture = CapturingStore(Dialect.RDF12)
    recorder = Recorder(capture, clock=fixed_clock(), new_id=ids())
    for item in inputs:
        record_graph_rag(recorder, item)
    texts = capture.updates
    stage_quads = [quads_of_update(t) for t in texts]
    quads = sum(len(q) for q in stage_quads)

    def fresh() -> EmbeddedStore:
        return EmbeddedStore(tempfile.mkdtemp(prefix="ragprov-bench-")) if kind == "disk" else EmbeddedStore()

    def run_extend():
        store = fresh()
        for q in stage_quads:
            store.extend(q)
        store.close()

    def run_update():
        store = fresh()
        for t in texts:
            store.update(t)
        store.close()

    def run_recorder():
        store = fresh()
        rec = Recorder(store, clock=fixed_clock(), new_id=ids())
        for item in inputs:
            record_graph_rag(rec, item)
        store.close()

    def run_render_only():
        rec = Recorder(CapturingStore(Dialect.RDF12), clock=fixed_clock(), new_id=ids())
        for item in inputs:
            record_graph_rag(rec, item)

    return {
        "quads": quads,
        "requests": len(texts),
        "extend": best_of(run_extend, repeat),
        "update": best_of(run_update, repeat),
        "recorder": best_of(run_recorder, repeat),
        "render": best_of(run_render_only, repeat),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"recording {args.traces} GraphRAG traces (5 concepts, 50 seeds, 25 edges), best of {args.repeat}")
    print(f"{'store':7} {'quads':>7} {'extend ms/trace':>16} {'update/extend':>14} {'recorder/extend':>16} {'render/update':>14}")
    for kind in ("memory", "disk"):
        m = measure(kind, args.traces, args.repeat)
        per = 1000 / args.traces
        print(
            f"{kind:7} {m['quads']:>7} {m['extend'] * per:>16.3f} {m['update'] / m['extend']:>14.2f} "
            f"{m['recorder'] / m['extend']:>16.2f} {m['render'] / m['update']:>13.1%}"
        )
    print("targets: recorder/extend <= 1.5; render/update <= 10% (update/extend floor about 1.35 here)")


if __name__ == "__main__":
    main()
