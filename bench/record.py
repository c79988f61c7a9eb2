"""Recording cost: the Recorder vs. the raw store, measured in one run, in memory and on disk.

Four ways to write the same N realistic GraphRAG traces (5 concepts, 50 seeds, 25 selected edges;
five stages each, one request per stage), alternated run by run (each run a fresh store):

* ``extend``   — each stage's quads, already built, handed straight to ``Store.extend`` (no SPARQL
  at all): the floor, measured in the same run;
* ``update``   — each stage's update text, already rendered, run as SPARQL UPDATE (``update-floor``:
  what writing the same quads by SPARQL UPDATE costs, whoever renders the text);
* ``recorder`` — ``Recorder`` end to end: building parameters, rendering + escaping, the update;
* ``render``   — the recorder's rendering alone (a store that runs nothing).

Prints p50 / p95 milliseconds per trace of each and the p50 ratios to ``extend`` and to ``update``,
then the p50 / p95 over the rounds of recorder / extend, update-floor / extend and recorder / update:
``update`` is the floor of writing by SPARQL UPDATE, one request per stage (the store parsing the
same text), so ``recorder / update`` is what the recorder itself adds.
Target (issue 10): recorder / extend ≤ 1.5, in memory and on disk.

In memory the target is below the floor the mission allows (writes are SPARQL UPDATE, one request
per stage): pyoxigraph's UPDATE of the same quads costs 1.8-2.0x ``extend`` (CPU time), about 1 µs
more per quad to parse, whatever the spelling — measured on the Focus's INSERT DATA (185 quads):
prefixed names for xsd, bare integers, no indentation change it by 3 % at most; an ``INSERT {…}
WHERE {}`` costs 15-20 % more; only object lists (``,``: subject and predicate given once) cost
less per quad, and the templates write one wherever a subject and predicate repeat. A request
costs about 7 µs whatever it writes (an empty ``INSERT DATA``, in a fresh store); a ``PREFIX`` line
adds 0.3-0.4 µs, each prefixed name about 0.12 µs over its IRI written out and a blank line about
0.3 µs, which is why a record/ template is sent with neither its header's lines nor its PREFIX
lines, its names written out (the update floor / extend fell from 1.95 to 1.85); the Focus's
document link (``INSERT … WHERE``, evaluated even on an empty source graph) about 80 µs, a tenth
of the floor. So the bench measures that floor and the
recorder's own cost above it (``recorder / update``); ``--breakdown`` shows where a trace's time
goes, stage by stage, and what is left above the floor: rendering, the recorder's own code, and
the cost of interleaving them with the store's work (each evicts the other's code and data from
the CPU's caches: the Python side runs slower after an update than back to back, and more so as
the store grows: with a store of 10 traces instead of 200 that cost halves). It is not per request:
rendering all 200 traces and then running their updates costs render + update, while alternating
trace by trace costs about as much more as stage by stage (rendering ~0.1 ms per trace slower, the
updates ~0.08 ms slower: each side finds its working set evicted), and it is not the allocator
(glibc's malloc settings and PYTHONMALLOC=malloc change nothing). Only less Python work per stage
lowers it.

By default each trace keeps entities and edges of its own (``--entities distinct``: what a store
answering questions over a large graph sees, no kept edge quoted by an earlier trace); ``shared``
gives the 97 groups of entities the test suite's traces share, where every edge's quoting is
cached from the second round on (rendering about 0.07 ms per trace cheaper).

    python bench/record.py [--traces 200] [--runs 7] [--clock cpu] [--stores memory] [--entities distinct|shared|both] [--breakdown]
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

ENTITIES = {"distinct": None, "shared": 97}
"""``--entities``: the entity groups of the traces (see ``graph_rag_inputs``): ``distinct``, every
trace keeps entities and edges of its own, as a store answering questions over a large graph sees
(no kept edge was quoted before: a cache of quoted triples helps only within a trace); ``shared``,
200 traces over 97 groups of entities (from the second round on, every edge was quoted before)."""


def _inputs(n: int, entities: str) -> list[dict]:
    """What pipelines hand over for ``n`` traces: built outside the timings."""
    return [graph_rag_inputs(i, entity_groups=ENTITIES[entities]) for i in range(n)]


def measure(kind: str, n: int, runs: int, clock: str = "wall", entities: str = "distinct") -> dict[str, list[float]]:
    inputs = _inputs(n, entities)
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


STAGES = ("question", "grounding", "exploration", "focus", "synthesis")


def breakdown(n: int, runs: int, clock: str = "cpu", entities: str = "distinct") -> None:
    """Where a trace's time goes, in memory, by stage: the quads, ``Store.extend`` of them, the
    stage's update (a Focus's split into its document link, an ``INSERT … WHERE`` the store
    evaluates, and its ``INSERT DATA``), the part of it any request costs whatever it writes (the
    stage's own prologue and an empty ``INSERT DATA``), and the template's rendering alone
    (``Catalog.render`` of the parameters the recorder gave); then the recorder's own code (rows,
    events, clock, ids) with rendering taken out, the recorder end to end, and what is left of it
    once the update, the rendering and its own code are taken out: the cost of interleaving them
    (each evicts the other's code and data from the CPU's caches; a pure computation in its place
    costs nothing more). Every side alternates with the others round by round."""
    inputs = _inputs(n, entities)
    sides, quads = _stage_sides(inputs)
    sides.update(_recorder_sides(inputs))
    m = interleaved(sides, runs, clock=CLOCKS[clock])
    print(f"where a GraphRAG trace's time goes, in memory, {clock} time, {n} traces ({entities} entities), {runs} interleaved runs"
          " (p50 ms per trace)")
    _print_breakdown(m, quads, 1000 / n)


def _stage_sides(inputs: list[dict]) -> tuple[dict, dict[str, int]]:
    """The breakdown's sides of every stage (:func:`_sides_of_stage`), from the updates and the
    template parameters the recorder gave for ``inputs``; and each stage's quads per trace."""
    from ragprov.sparql.templates import Catalog

    calls: list[tuple[str, dict]] = []

    class Spy(Catalog):
        def render(self, name, dialect, /, **params):
            calls.append((name, params))
            return super().render(name, dialect, **params)

    capture, spy = CapturingStore(Dialect.RDF12), Spy()
    recorder = Recorder(capture, catalog=spy, clock=fixed_clock(), new_id=ids())
    for item in inputs:
        record_graph_rag(recorder, item)
    catalog = Catalog()
    sides: dict = {}
    quads: dict[str, int] = {}
    for k, stage in enumerate(STAGES):
        params = [p for _, p in calls[k :: len(STAGES)]]
        stage_sides, quads[stage] = _sides_of_stage(stage, capture.updates[k :: len(STAGES)], calls[k][0], params, catalog)
        sides.update(stage_sides)
    return sides, quads


def _sides_of_stage(stage: str, texts: list[str], name: str, params: list[dict], catalog) -> tuple[dict, int]:
    """One stage's sides — ``extend`` of its quads, its whole ``update``, the ``empty`` request,
    a Focus's ``link`` and ``data`` halves, the template's ``render`` — and its quads per trace."""
    from ragprov.record.events import _prologue_end

    sides: dict = {}
    stage_quads = [quads_of_update(t) for t in texts]
    sides[f"{stage} extend"] = lambda _, q=stage_quads: _extends(q)
    sides[f"{stage} update"] = lambda _, ts=texts: _updates(ts)
    empty = [t[: _prologue_end(t)] + "INSERT DATA { }" for t in texts]
    sides[f"{stage} empty"] = lambda _, ts=empty: _updates(ts)
    if "INSERT DATA" in texts[0] and texts[0].index("INSERT DATA") > texts[0].index("INSERT"):
        cut = [(t[: t.index("INSERT DATA")].rstrip().rstrip(";"), t[: t.index("INSERT")] + t[t.index("INSERT DATA") :]) for t in texts]
        sides[f"{stage} link"] = lambda _, ts=[a for a, _b in cut]: _updates(ts)
        sides[f"{stage} data"] = lambda _, ts=[b for _a, b in cut]: _updates(ts)
    sides[f"{stage} render"] = lambda _, name=name, ps=params: [catalog.render(name, Dialect.RDF12, **p) for p in ps] and None
    return sides, len(stage_quads[0])


def _recorder_sides(inputs: list[dict]) -> dict:
    """The recorder's sides: its own code (every template rendered as a constant, written to a
    store that only keeps the text) and the recorder end to end (into an embedded store)."""
    from ragprov.sparql.templates import Catalog

    class Constant(Catalog):
        def render(self, name, dialect, /, **params):
            return "INSERT DATA { }"

    constant = Constant()

    def own_code(_):
        rec = Recorder(CapturingStore(Dialect.RDF12), catalog=constant, clock=fixed_clock(), new_id=ids())
        for item in inputs:
            record_graph_rag(rec, item)

    def recorder_side(_):
        rec = Recorder(EmbeddedStore(), clock=fixed_clock(), new_id=ids())
        for item in inputs:
            record_graph_rag(rec, item)

    return {"recorder code": own_code, "recorder": recorder_side}


_PARTS = ("extend", "update", "empty", "link", "data", "render")


def _print_breakdown(m: dict[str, list[float]], quads: dict[str, int], per: float) -> None:
    """The breakdown's table (p50 of each side in ``m``, times ``per``: ms per trace) and its sum,
    printed and kept as figures."""
    print(f"{'stage':12} {'quads':>6} " + " ".join(f"{p:>8}" for p in _PARTS))
    totals = dict.fromkeys(_PARTS, 0.0)
    for stage in STAGES:
        row = {part: percentiles(m[f"{stage} {part}"])[0] * per if f"{stage} {part}" in m else None for part in _PARTS}
        for part in totals:
            totals[part] += row[part] or 0.0
        cells = " ".join(f"{v:8.3f}" if v is not None else f"{'':8}" for v in row.values())
        print(f"{stage:12} {quads[stage]:6} {cells}")
        figure("record-breakdown", stage, quads=quads[stage], **{f"{k}_ms_per_trace": v for k, v in row.items() if v is not None})
    own = percentiles(m["recorder code"])[0] * per
    whole = percentiles(m["recorder"])[0] * per
    print(f"{'trace':12} {sum(quads.values()):6} " + " ".join(f"{totals[p]:8.3f}" for p in _PARTS))
    print("(update: the stage's whole request; empty: its prologue and an empty INSERT DATA, what any request costs;\n"
          " link / data: a Focus's document link, INSERT ... WHERE, and its INSERT DATA, each sent alone)")
    interleaving = whole - totals["update"] - totals["render"] - own
    print(f"recorder end to end {whole:.3f} ms per trace = update {totals['update']:.3f} + rendering {totals['render']:.3f}"
          f" + its own code (rows, events, clock, ids) {own:.3f} + interleaving them {interleaving:.3f}")
    figure("record-breakdown", "trace", extend_ms_per_trace=totals["extend"], update_ms_per_trace=totals["update"],
           empty_ms_per_trace=totals["empty"], link_ms_per_trace=totals["link"], render_ms_per_trace=totals["render"],
           recorder_code_ms_per_trace=own, recorder_ms_per_trace=whole, interleaving_ms_per_trace=interleaving)


def _updates(texts: list[str]) -> None:
    store = EmbeddedStore()
    for t in texts:
        store.update(t)


def _extends(stage_quads: list) -> None:
    store = EmbeddedStore()
    for q in stage_quads:
        store.extend(q)


RATIOS = (("recorder", "extend"), ("update", "extend"), ("recorder", "update"))
"""The ratios the bench states, each of two sides timed in the same rounds: the recorder against
the raw store, the floor of writing by SPARQL UPDATE against the raw store (what pyoxigraph's UPDATE
costs over ``extend``, whoever writes it), and the recorder against that floor (what it adds)."""


def ratio_percentiles(m: dict[str, list[float]], side: str, base: str) -> tuple[float, float]:
    """p50 and p95 of ``side / base`` over the rounds (the sides alternate run by run, so round i of
    each side ran side by side with the others' round i).

    >>> ratio_percentiles({"a": [2.0, 3.0, 4.0], "b": [1.0, 1.0, 1.0]}, "a", "b")
    (3.0, 4.0)
    """
    return percentiles([a / b for a, b in zip(m[side], m[base], strict=True)])


def _label(side: str) -> str:
    return "update-floor" if side == "update" else side


def report(kinds: list[str], entities: str, traces: int, runs: int, clock: str) -> None:
    """Measure and print every side and ratio, store by store (figures ``record``: a line per store
    and side; with shared entities, the line's name says so)."""
    print(f"recording {traces} GraphRAG traces (5 concepts, 50 seeds, 25 edges; {entities} entities), {runs} interleaved runs"
          f" per side, {clock} time")
    print(f"{'store':7} {'side':12} {'p50 ms/trace':>13} {'p95 ms/trace':>13} {'p50 / extend':>13} {'p50 / update':>13}")
    suffix = "" if entities == "distinct" else f", {entities} entities"
    for kind in kinds:
        m = measure(kind, traces, runs, clock, entities)
        per = 1000 / traces
        floor, sparql_floor = percentiles(m["extend"])[0], percentiles(m["update"])[0]
        for side in ("extend", "update", "recorder", "render"):
            p50, p95 = percentiles(m[side])
            print(f"{kind:7} {_label(side):12} {p50 * per:>13.3f} {p95 * per:>13.3f} {p50 / floor:>13.2f} {p50 / sparql_floor:>13.2f}")
            figure("record", f"{kind} {side}{suffix}", p50_ms_per_trace=p50 * per, p95_ms_per_trace=p95 * per,
                   ratio_to_extend=p50 / floor, ratio_to_update=p50 / sparql_floor, traces=traces)
        for side, base in RATIOS:
            p50, p95 = ratio_percentiles(m, side, base)
            name = f"{_label(side)} / {_label(base)}"
            print(f"{kind:7} {name:27} p50 {p50:5.2f}  p95 {p95:5.2f}  (per round)")
            figure("record", f"{kind} {name}{suffix}", p50=p50, p95=p95, traces=traces)
        print(f"{kind:7} {m['_quads'][0]} quads in {m['_requests'][0]} requests")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time by elapsed time (default) or by this process's CPU time (a busy shared machine)")
    parser.add_argument("--stores", default="memory,disk", help="which stores to measure: memory, disk or both (default)")
    parser.add_argument("--entities", choices=[*ENTITIES, "both"], default="distinct",
                        help="each trace keeps entities of its own (distinct, default: what a store sees), traces share"
                             " 97 groups of them (shared: every kept edge quoted before), or both, one after the other")
    parser.add_argument("--breakdown", action="store_true",
                        help="instead: where a trace's time goes in memory, stage by stage (extend, update, rendering)")
    args = parser.parse_args(argv)
    choices = list(ENTITIES) if args.entities == "both" else [args.entities]
    if args.breakdown:
        for entities in choices:
            breakdown(args.traces, args.runs, args.clock, entities)
        return 0
    kinds = [k for k in ("memory", "disk") if k in args.stores.split(",")]
    for entities in choices:
        report(kinds, entities, args.traces, args.runs, args.clock)
    print("floors: Store.extend of the same quads, and SPARQL UPDATE of the same rendered text (update-floor), measured in\n"
          "the same run; target recorder / extend <= 1.5")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
