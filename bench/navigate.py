"""Navigation latency on a store that has served for months: show-trace, lineage document and
list-traces over 10,000 stored traces of every kind and a GraphRAG index of about 1M facts.

The store: the bundled Christmas Carol GraphRAG output replicated ``--copies`` times (each copy its
own document, text units, entities, relationships, communities and reports; ``bench/load.py``'s
replication), loaded with ``load_graphrag``; then ``--traces`` traces, the kinds in turn —
GraphRAG (25 edges), DocRAG (6 chunks, 3 kept), agent (a GraphRAG sub-trace), local search (entities,
relationships, text units and reports in the context), global search (two map results of three
points each) and DRIFT (a primer and one follow-up answered by a local-search sub-trace) — each
keeping items of one copy's document, written with the recorder's own requests. The stores are
kept under ``bench-cache/navigate-…`` (``RAGPROV_BENCH_CACHE``) and rebuilt only when absent.

Each view is timed beside the floor of the same store, in the same run and alternated with it
sample by sample: one SELECT of one bound triple through the same store API (what any query costs
here). A view must stay near it as the store grows: it binds what it looks up and never walks or
scans. Prints p50 / p95 in milliseconds, in memory and on disk. ``lineage document`` is what
``ragprov lineage document`` shows by default (the newest ``--page`` traces and how many in all),
``lineage document --all`` every trace. list-traces, which reads every trace's start, is timed in a
group of its own (alternated with the bound look-ups, it evicted their blocks before each of them).

    python bench/navigate.py [--traces 10000] [--copies 28] [--samples 200] [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from pathlib import Path

import pyoxigraph as ox
from _common import CLOCKS, cache_dir, figure, fixed_clock, ids, interleaved, percentiles
from pyoxigraph import NamedNode, Triple

from ragprov.navigate import Navigator
from ragprov.navigate.lineage import Lineage
from ragprov.record import ChunkSelection, EdgeSelection, HopStats, Recorder
from ragprov.record.microsoft import MicrosoftTrace
from ragprov.store import EmbeddedStore

KINDS = ("graph-rag", "doc-rag", "agent", "local", "global", "drift")
#: the cached stores' name carries this: bump it when the recorded trace shape or the build changes (2: the question
#: an Entity, a tg:RetrievalSession generating the stages, tg:forQuestion on selections — docs/trace-shape.md;
#: 3: the stages that keep items link their documents, tg:restsOn; 4: the disk store compacted after its bulk load, as
#: `ragprov load` leaves a store and as RocksDB keeps one that has served: bound look-ups cost about half; 5: their
#: sessions too, tg:traceRestsOn)
STORE_VERSION = 5
_POOLS = """
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX tg: <https://trustgraph.ai/ns/>
SELECT ?doc ?kind ?item ?s ?p ?o WHERE {
  {
    GRAPH <urn:graph:source> { ?item tg:reifies ?e ; prov:wasDerivedFrom ?unit . ?unit prov:wasDerivedFrom ?doc .
      BIND(SUBJECT(?e) AS ?s) BIND(PREDICATE(?e) AS ?p) BIND(OBJECT(?e) AS ?o) }
    BIND("edge" AS ?kind)
  } UNION {
    GRAPH <urn:graph:source> { ?item a tg:TextUnit ; prov:wasDerivedFrom ?doc . }
    BIND("text_unit" AS ?kind)
  } UNION {
    ?item a tg:Entity .
    GRAPH <urn:graph:source> { ?item prov:wasDerivedFrom ?unit . ?unit prov:wasDerivedFrom ?doc . }
    BIND("entity" AS ?kind)
  } UNION {
    ?item a tg:CommunityReport ; tg:community ?c . ?c tg:hasMember ?m .
    GRAPH <urn:graph:source> { ?m prov:wasDerivedFrom ?unit . ?unit prov:wasDerivedFrom ?doc . }
    BIND("report" AS ?kind)
  }
}
"""


def pools(store: EmbeddedStore) -> dict[str, dict[str, list]]:
    """Per document, the index items a trace can keep: edges (as triples), text units, entities, reports."""
    out: dict[str, dict[str, list]] = {}
    seen: set[tuple[str, str]] = set()
    for row in store.select(_POOLS):
        doc, kind, item = row["doc"].value, row["kind"].value, row["item"]
        if (kind, item.value) in seen:
            continue
        seen.add((kind, item.value))
        value = Triple(row["s"], row["p"], row["o"]) if kind == "edge" else item
        out.setdefault(doc, {"edge": [], "text_unit": [], "entity": [], "report": []})[kind].append(value)
    return out


class TraceWriter:
    """Records traces of every kind, each keeping items of one document (the recorder's own requests)."""

    def __init__(self, recorder: Recorder, pools: dict[str, dict[str, list]], seed: int = 7):
        self.recorder, self.pools, self.rng = recorder, pools, random.Random(seed)

    def pick(self, pool: dict[str, list], kind: str, k: int) -> list:
        items = pool[kind]
        return self.rng.sample(items, min(k, len(items)))

    def graph_rag(self, n: int, pool, *, edges: int = 25, used=None):
        t = self.recorder.graph_rag(f"GraphRAG question {n}", model="bench/1", used=used)
        t.grounding([f"concept {n}-{i}" for i in range(5)], in_token=120, out_token=30, prompt="extract-concepts@1")
        picked = self.pick(pool, "edge", edges)
        t.exploration([e.subject for e in picked] * 2, edge_count=300, hops=[HopStats(1, 350, 120), HopStats(2, 350, 180)])
        t.focus([EdgeSelection(e, reasoning=f"edge {i}", score=1 - i / 100, concept=f"concept {n}") for i, e in enumerate(picked)],
                in_token=800, out_token=200, prompt="select-edges@1")
        t.synthesis(f"Answer {n}.", in_token=600, out_token=80, prompt="synthesize@1")
        return t

    def doc_rag(self, n: int, pool):
        t = self.recorder.doc_rag(f"DocRAG question {n}", model="bench/1")
        t.grounding(["ghost", "christmas"])
        chunks = self.pick(pool, "text_unit", 6)
        t.exploration(chunks)
        t.focus([ChunkSelection(c, score=5.0 - i) for i, c in enumerate(chunks[:3])], prompt="bm25-rerank@1")
        t.synthesis(f"DocRAG answer {n}.")
        return t

    def agent(self, n: int, pool):
        a = self.recorder.agent(f"Agent question {n}", model="bench/1")
        a.analysis("I should query the knowledge graph.", "knowledge-query", '{"question": "who is Marley"}')
        sub = self.graph_rag(n, pool, edges=3, used=a.last)
        a.observation("Marley was Scrooge's partner.", duration=0.2, sub_trace_last=sub.last)
        a.conclusion(f"Agent answer {n}.", termination_reason="final-answer")
        return a

    def local(self, n: int, pool, *, used=None) -> MicrosoftTrace:
        s = self.recorder.microsoft("local", f"Local question {n}", model="bench/1", used=used)
        s.grounding(["scrooge", "marley"])
        entities = self.pick(pool, "entity", 5)
        items = [("entity", e, None) for e in entities] + [("relationship", e.predicate, e) for e in self.pick(pool, "edge", 8)]
        items += [("text_unit", u, None) for u in self.pick(pool, "text_unit", 4)]
        items += [("report", r, None) for r in self.pick(pool, "report", 2)]
        s.exploration(entities, [i for _, i, _ in items])
        s.focus([{"iri": NamedNode(f"{s.question.value}/item/{k}"), "item": item, "kind": kind, "rank": k, "score": 1.0,
            "tokens": 40, "edge": edge}
                 for k, (kind, item, edge) in enumerate(items, start=1)], derived_from=[s.last], prompt="graphrag-local-context@1")
        s.synthesis(f"Local answer {n}.")
        return s

    def global_(self, n: int, pool):
        s = self.recorder.microsoft("global", f"Global question {n}", model="bench/1")
        s.grounding(["christmas"])
        reports = self.pick(pool, "report", 6)
        batches = [{"iri": NamedNode(f"{s.question.value}/batch/{b}"), "number": b,
            "reports": reports[b * 3:(b + 1) * 3]} for b in range(2)]
        s.exploration([], reports, batches)
        exploration = s.last
        maps, kept = [], []
        for b, batch in enumerate(batches):
            points = [{"iri": NamedNode(f"{s.question.value}/map/{b}/point/{k}"), "content": f"point {k}", "score": 50.0 - k,
                "reports": [r]}
                      for k, r in enumerate(batch["reports"])]
            s.map_result(b, batch["iri"], points, exploration=exploration, prompt="global-map@1")
            maps.append(s.stage_iri(f"map/{b}"))
            kept += [p["iri"] for p in points[:2]]
        s.focus([], derived_from=maps, points=kept, prompt="graphrag-global-reduce@1")
        s.synthesis(f"Global answer {n}.")
        return s

    def drift(self, n: int, pool):
        s = self.recorder.microsoft("drift", f"DRIFT question {n}", model="bench/1")
        s.grounding(["tiny tim"])
        s.exploration([], self.pick(pool, "report", 3))
        primer = s.stage_iri("action/0")
        s.drift_action(0, derived_from=[s.last], query=f"DRIFT question {n}", depth=0, score=40.0, follow_ups=["who is Tiny Tim"],
                       answer="primer", sub_trace=None, prompt="drift-primer@1")
        action = s.action_iri(1)
        sub = self.local(n, pool, used=action)
        s.drift_action(1, derived_from=[primer, sub.last], query="who is Tiny Tim", depth=1, score=60.0, follow_ups=[],
                       answer="follow-up", sub_trace=sub.question, prompt="drift-rate@1")
        s.focus([{"iri": NamedNode(f"{s.question.value}/item/{k}"), "item": a, "kind": "drift-action", "rank": k, "score": 1.0,
            "tokens": 10, "edge": None}
                 for k, a in enumerate((action, primer), start=1)], derived_from=[action, primer], prompt="drift-reduce@1")
        s.synthesis(f"DRIFT answer {n}.")
        return s

    def write(self, n: int) -> tuple[str, NamedNode, str]:
        """Trace ``n``: its kind (the kinds in turn), its question, the document its items come from."""
        doc = self.rng.choice(sorted(self.pools))
        pool = self.pools[doc]
        kind = KINDS[n % len(KINDS)]
        made = {"graph-rag": self.graph_rag, "doc-rag": self.doc_rag, "agent": self.agent, "local": self.local,
                "global": self.global_, "drift": self.drift}[kind](n, pool)
        return kind, made.question, doc


def build(folder: Path, traces: int, copies: int) -> dict:
    """The index and the traces, as an on-disk store and an N-Quads file (for the memory store)."""
    from load import replicate

    from ragprov.loaders.graphrag import load_graphrag

    t = time.perf_counter()
    staging = folder / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    index = EmbeddedStore()
    load_graphrag(index, replicate(staging, copies), show_progress=False)
    facts = len(index.raw)
    # the recorder's own requests, into the store holding the index: a stage that keeps items links
    # them to their documents (tg:restsOn) from the extraction provenance the store holds
    writer = TraceWriter(Recorder(index, clock=fixed_clock(), new_id=ids()), pools(index))
    made = [writer.write(n) for n in range(traces)]
    (folder / "store.nq").write_bytes(index.dump())
    disk = EmbeddedStore(folder / "disk")
    disk.raw.bulk_load(path=str(folder / "store.nq"), format=ox.RdfFormat.N_QUADS)
    disk.optimize()  # as `ragprov load` leaves it: the bulk loader's files compacted
    disk.close()
    shutil.rmtree(staging, ignore_errors=True)
    meta = {"traces": [[k, q.value, d] for k, q, d in made], "facts": facts, "quads": len(index.raw),
            "built_s": round(time.perf_counter() - t, 1), "store_version": STORE_VERSION}
    (folder / "meta.json").write_text(json.dumps(meta))
    return meta


def cached_version(folder: Path, meta: dict) -> int | None:
    """The store version a cached store was built for: its ``meta.json``'s, else (built before
    ``meta.json`` said) the one its folder's name carries, ``navigate<version>-<traces>-x<copies>``;
    None when neither says.

    >>> cached_version(Path("navigate5-10000-x28"), {}), cached_version(Path("x"), {"store_version": 4}), cached_version(Path("x"), {})
    (5, 4, None)
    """
    if isinstance(meta.get("store_version"), int):
        return meta["store_version"]
    named = re.fullmatch(r"navigate(\d+)-\d+-x\d+(?:-.*)?", folder.name)
    return int(named[1]) if named else None


def check_cache(folder: Path, meta: dict) -> str | None:
    """Why the cached store in ``folder`` cannot be used (its version is not :data:`STORE_VERSION`:
    the traces' shape, or how the store was built, differ from what the views read), or None."""
    version = cached_version(folder, meta)
    if version == STORE_VERSION:
        return None
    found = f"version {version}" if version is not None else "no store version (neither its meta.json nor its folder's name says)"
    return (f"{folder}: a cached store of {found}, and this bench needs version {STORE_VERSION}: pass --cache a folder "
            f"of version {STORE_VERSION}, or a new folder to build one there (the default is "
            f"navigate{STORE_VERSION}-<traces>-x<copies> under the bench cache)")


def _values(terms) -> str:
    return " ".join(f"<{t.value if isinstance(t, NamedNode) else t}>" for t in terms)


def measure(store: EmbeddedStore, meta: dict, samples: int, label: str, *, page: int, clock: str = "wall") -> None:
    nav, lineage = Navigator(store), Lineage(store)
    rng = random.Random(11)
    picks = [rng.choice(meta["traces"]) for _ in range(samples)]
    docs = sorted({d for _, _, d in meta["traces"]})
    doc_picks = [rng.choice(docs) for _ in range(samples)]
    # The floors, from the same store: one bound triple (what any query costs here); the trace's own
    # triples read by their bound subjects (what a view of the trace must at least read); and one bound
    # triple per trace a document lists (what listing all of them, or a page of them, must at least read).
    one_triple = "SELECT ?t WHERE { GRAPH <urn:graph:retrieval> { <%s> a ?t } }"
    by_rows = "SELECT ?node ?p ?o WHERE { VALUES ?node { %s } GRAPH <urn:graph:retrieval> { ?node ?p ?o } }"
    per_trace = "SELECT ?q ?x WHERE { VALUES ?q { %s } GRAPH <urn:graph:retrieval> { ?q tg:query ?x } }"
    trace_nodes = {q: _values(dict.fromkeys(r["node"] for r in nav.trace_rows(NamedNode(q)))) for _, q, _ in picks}
    listed = {d: [a.question for a in lineage.document_answers(NamedNode(d))] for d in set(doc_picks)}
    answers = [float(len(listed[d])) for d in doc_picks]
    prefix = "PREFIX tg: <https://trustgraph.ai/ns/>\n"
    sides = {
        "floor: 1 bound triple": lambda i: store.select(one_triple % picks[i % samples][1]),
        "floor: trace rows": lambda i: store.select(by_rows % trace_nodes[picks[i % samples][1]]),
        "show-trace": lambda i: nav.trace(NamedNode(picks[i % samples][1])),
        "floor: 1 row per trace": lambda i: store.select(prefix + per_trace % _values(listed[doc_picks[i % samples]])),
        "lineage document --all": lambda i: lineage.document_answers(NamedNode(doc_picks[i % samples])),
        f"floor: {page} rows": lambda i: store.select(prefix + per_trace % _values(listed[doc_picks[i % samples]][:page])),
        # what `ragprov lineage document` shows by default: the newest page, and how many traces in all
        "lineage document": lambda i: lineage.document_page(NamedNode(doc_picks[i % samples]), limit=page),
    }
    tick = CLOCKS[clock]
    out = interleaved(sides, samples, clock=tick)
    floor = percentiles(out["floor: 1 bound triple"])[0]
    for name in sides:
        p50, p95 = percentiles(out[name])
        print(f"{label:7} {name:22} {p50 * 1000:>8.2f} {p95 * 1000:>8.2f} {p50 / floor:>10.1f}x")
        figure("navigate", f"{label} {name}", p50_ms=p50 * 1000, p95_ms=p95 * 1000, ratio_to_floor=p50 / floor,
               traces=len(meta["traces"]), quads=meta["quads"], clock=clock)
    # the default lineage view orders every trace of the document (one start each) and details a page:
    # beside both floors
    for view, own in (("show-trace", "floor: trace rows"), ("lineage document --all", "floor: 1 row per trace"),
        ("lineage document", "floor: 1 row per trace"), ("lineage document", f"floor: {page} rows")):
        ratio = percentiles(out[view])[0] / percentiles(out[own])[0]
        print(f"{label:7} {view} / {own}: {ratio:.1f}x")
        figure("navigate", f"{label} {view} / {own}", ratio=ratio)
    by_kind: dict[str, list[float]] = {}
    for i in range(samples):  # show-trace per kind, for the record (not interleaved: a breakdown)
        kind, q, _ = picks[i]
        t = tick()
        nav.trace(NamedNode(q))
        by_kind.setdefault(kind, []).append(tick() - t)
    print(f"{label:7} show-trace by kind (p50 ms): " + ", ".join(f"{k} {percentiles(v)[0] * 1000:.2f}" for k, v in sorted(by_kind.items())))
    # list-traces sorts every trace by its start (a read of the whole set, ~0.5 s at 10,000 traces): alternated
    # with the bound look-ups above it would evict the store's block cache before each of them, and charge the
    # views its own reads; timed on its own, beside the bound-triple floor, with fewer samples
    few = max(3, samples // 10)
    listing = interleaved({"floor: 1 bound triple": sides["floor: 1 bound triple"],
                           "list-traces": lambda i: nav.list_traces(limit=20)}, few, clock=tick)
    p50, p95 = percentiles(listing["list-traces"])
    p50_floor = percentiles(listing["floor: 1 bound triple"])[0]
    print(f"{label:7} {'list-traces':22} {p50 * 1000:>8.2f} {p95 * 1000:>8.2f} {p50 / p50_floor:>10.1f}x  ({few} samples, "
          f"on its own: floor {p50_floor * 1000:.2f} ms)")
    figure("navigate", f"{label} list-traces", p50_ms=p50 * 1000, p95_ms=p95 * 1000, ratio_to_floor=p50 / p50_floor, samples=few,
           traces=len(meta["traces"]), quads=meta["quads"], clock=clock)
    # the tying items too (a drill-down: one more query from the listed traces), fewer samples
    with_items = lambda i: lineage.document_answers(NamedNode(doc_picks[i % samples]), items=True)  # noqa: E731
    drill = interleaved({"lineage document --all": sides["lineage document --all"], "lineage document + items": with_items}, few,
                        clock=tick)
    p50, p95 = percentiles(drill["lineage document + items"])
    print(f"{label:7} {'lineage doc + items':22} {p50 * 1000:>8.2f} {p95 * 1000:>8.2f} {p50 / floor:>10.1f}x  ({few} samples)")
    figure("navigate", f"{label} lineage document + items", p50_ms=p50 * 1000, p95_ms=p95 * 1000, ratio_to_floor=p50 / floor, samples=few)
    print(f"{label:7} lineage document: {percentiles(answers)[0]:.0f} traces per document (p50)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=10_000)
    parser.add_argument("--copies", type=int, default=28)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--page", type=int, default=50, help="the lineage page size (`ragprov lineage document`'s default) timed "
                        "beside the whole listing")
    parser.add_argument("--stores", default="memory,disk", help="which stores to time (memory, disk)")
    parser.add_argument("--build-only", action="store_true", help="build (or find) the cached stores and stop")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time by elapsed time (default) or by this process's CPU time (a busy shared machine)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="the folder of the cached stores (built there when absent); default: navigate<version>-<traces>-x<copies> "
                        "under the bench cache")
    args = parser.parse_args(argv)
    folder = args.cache or cache_dir(f"navigate{STORE_VERSION}-{args.traces}-x{args.copies}")
    folder.mkdir(parents=True, exist_ok=True)
    meta_path = folder / "meta.json"
    if meta_path.exists() and (folder / "disk").is_dir():
        meta = json.loads(meta_path.read_text())
        refused = check_cache(folder, meta)
        if refused:
            print(refused, file=sys.stderr)
            return 2
    else:
        meta = build(folder, args.traces, args.copies)
    print(f"{len(meta['traces'])} traces of {len(KINDS)} kinds + {meta['facts']:,} index quads = {meta['quads']:,} quads "
          f"(cached in {folder}; built in {meta['built_s']} s)")
    if args.build_only:
        return 0
    print(f"{'store':7} {'view':22} {'p50 ms':>8} {'p95 ms':>8} {'p50/floor':>11}   ({args.clock} time)")
    for label in args.stores.split(","):
        if label == "memory":
            store = EmbeddedStore()
            store.raw.bulk_load(path=str(folder / "store.nq"), format=ox.RdfFormat.N_QUADS)
        else:
            store = EmbeddedStore(folder / "disk", read_only=True)
        measure(store, meta, args.samples, label, page=args.page, clock=args.clock)
        store.close()
    print("floors: through the same store API, alternated with the views sample by sample: one bound triple; the trace's own\n"
          "triples read by their bound subjects; one bound triple per trace the document lists (all of them, or a page)")
    print("targets (issue 10): show-trace p50 <= 2 ms on disk; lineage document p50 <= 10 ms (the default view: the newest page)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
