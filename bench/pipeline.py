"""Non-LLM time of a GraphRAG query (offline engine), split by stage, with the share spent
recording provenance — on the bundled Christmas Carol graph and on the same graph grown to ≥ 1M facts.

Per stage (mean over the questions of each question's median run, after one warm-up): concepts, seed search over the entity
index, subgraph expansion (SPARQL), label/description look-ups, edge scoring, lineage of the
selected edges, synthesis, and recording (the five stage updates). Building the entity index (one
SPARQL read of every label and description, then BM25) is reported apart: a long-lived process pays
it once per store, but every ``ragprov ask`` is a new process and pays it before its first
question — the line "one `ragprov ask` process" adds it to a query. Ratios against the raw store in
the same run, each question's runs alternated run by run with the floors' (``--rounds``):

- recording ÷ inserting the same trace quads directly (``Store.extend``, no SPARQL);
- expansion ÷ the raw floor of the same look-ups (pyoxigraph ``quads_for_pattern`` per frontier
  entity, subject and object side).

    python bench/pipeline.py [--facts 1000000] [--questions 5] [--rounds 3] [--disk]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox
from _common import interleaved, percentiles

ROOT = Path(__file__).resolve().parents[1]

from ragprov.loaders.graphrag import load_graphrag  # noqa: E402
from ragprov.namespaces import DCTERMS, FACTS_GRAPH, LIBRARY_GRAPH, RDFS, RETRIEVAL_GRAPH, TG  # noqa: E402
from ragprov.pipelines import GraphRag  # noqa: E402
from ragprov.record import Recorder  # noqa: E402
from ragprov.resources import data_dir  # noqa: E402
from ragprov.store import EmbeddedStore  # noqa: E402

QUESTIONS = [
    "Who is Scrooge's nephew?",
    "What happens to Tiny Tim?",
    "Who was Jacob Marley?",
    "What does the Ghost of Christmas Past show Scrooge?",
    "Who is Bob Cratchit's employer?",
    "What happens at Fezziwig's Christmas ball?",
    "Where does Scrooge live?",
]
STAGES = ("concepts", "seeds", "expand", "labels", "scoring", "lineage", "synthesis", "record")
WORDS = (
    "merchant counting house ledger candle winter frost fog chain ghost spirit bell clock church"
    " street market goose pudding turkey shop clerk debt coal fire window door stair bed curtain"
    " grave stone yard snow wind knocker mourner charity school party dance fiddle game uncle niece"
    " partner lawyer banker miser poor rich family child crutch shilling wage christmas eve morning"
).split()


def load_carol(store) -> None:
    load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS_GRAPH, show_progress=False)


def grow(store, target_facts: int, seed: int = 7) -> int:
    """Add synthetic entities (label + description) and relationships to the facts graph until it
    holds ``target_facts`` facts; a share of the relationships attach to the story's entities so
    hubs grow too. Returns the facts graph size."""
    rng = random.Random(seed)
    existing = [q.subject for q in store.raw.quads_for_pattern(None, RDFS.label, None, FACTS_GRAPH)
                if q.subject.value.startswith("urn:graphrag:entity:")]
    start = store.count(FACTS_GRAPH)
    need = max(0, target_facts - start)
    n_entities = need // 5  # 2 facts each, plus 3 relationships per entity
    entities = [ox.NamedNode(f"urn:bench:entity:{i}") for i in range(n_entities)]
    predicates = [ox.NamedNode(f"urn:bench:rel:{w}") for w in WORDS]
    batch: list[ox.Quad] = []

    def flush(force: bool = False) -> None:
        if batch and (force or len(batch) >= 200_000):
            store.bulk_extend(batch)
            batch.clear()

    for p, w in zip(predicates, WORDS, strict=False):
        batch.append(ox.Quad(p, RDFS.label, ox.Literal(f"{w} of"), FACTS_GRAPH))
    for i, e in enumerate(entities):
        words = rng.sample(WORDS, 3)
        batch.append(ox.Quad(e, RDFS.label, ox.Literal(f"{words[0].upper()} {words[1].upper()} {i}"), FACTS_GRAPH))
        batch.append(ox.Quad(e, DCTERMS.description, ox.Literal(" ".join(rng.sample(WORDS, 12))), FACTS_GRAPH))
        for _ in range(3):
            other = existing[rng.randrange(len(existing))] if rng.random() < 0.05 else entities[rng.randrange(n_entities)]
            batch.append(ox.Quad(e, predicates[rng.randrange(len(predicates))], other, FACTS_GRAPH))
        flush()
    flush(force=True)
    return store.count(FACTS_GRAPH)


def trace_quads(store, question: ox.NamedNode) -> list[ox.Quad]:
    """The quads recorded for one trace (retrieval graph nodes of its id, and its answer)."""
    session = question.value.rsplit(":", 1)[-1]
    out = [q for q in store.raw.quads_for_pattern(None, None, None, RETRIEVAL_GRAPH) if session in q.subject.value]
    out += [q for q in store.raw.quads_for_pattern(None, None, None, LIBRARY_GRAPH) if session in q.subject.value]
    return out


def raw_expansion_floor(store, entities) -> float:
    raw = store.raw
    t = time.perf_counter()
    for e in entities:
        for _ in zip(range(30), raw.quads_for_pattern(e, None, None, FACTS_GRAPH), strict=False):
            pass
        for _ in zip(range(30), raw.quads_for_pattern(None, None, e, FACTS_GRAPH), strict=False):
            pass
    return time.perf_counter() - t


def measure(label: str, store, questions: list[str], rounds: int = 3) -> None:
    pipe = GraphRag(store, recorder=Recorder(store), facts_graph=FACTS_GRAPH)
    t = time.perf_counter()
    index = pipe.reader.entity_index()
    build = time.perf_counter() - t
    list(pipe.run(questions[0]))  # warm-up (caches, query plans)
    per_stage: dict[str, list[float]] = {s: [] for s in STAGES}
    totals, record_ratio, expand_ratio, edges, selected = [], [], [], [], []
    for q in questions:
        # one run gives the floors' inputs: the trace's quads and the seed entities it expanded
        events = list(pipe.run(q))
        quads = trace_quads(store, pipe.result.question)
        exploration = next(e for e in events if getattr(e, "stage", None) == "exploration")
        seeds = [x.object for x in exploration.explain_triples if x.predicate == TG.entity]
        edges.append(int(next(x.object.value for x in exploration.explain_triples if x.predicate == TG.edgeCount)))
        selected.append(pipe.result.selected)
        runs: list[dict[str, float]] = []

        def query(_i, q=q, runs=runs):
            list(pipe.run(q))
            runs.append(pipe.result.timings.stages)

        def raw_insert(_i, quads=quads):
            EmbeddedStore().extend(quads)

        def raw_expand(_i, seeds=seeds):
            raw_expansion_floor(store, seeds)

        # the query and the raw floors of the same work alternate run by run (``interleaved``)
        timed = interleaved({"query": query, "raw insert": raw_insert, "raw expand": raw_expand}, rounds, warmup=0)
        for s in STAGES:
            per_stage[s].append(statistics.median(st.get(s, 0.0) for st in runs))
        totals.append(statistics.median(sum(st.get(s, 0.0) for s in STAGES) for st in runs))
        record = statistics.median(st.get("record", 0.0) for st in runs)
        expand = statistics.median(st.get("expand", 0.0) for st in runs)
        insert_floor, expand_floor = percentiles(timed["raw insert"])[0], percentiles(timed["raw expand"])[0]
        record_ratio.append(record / insert_floor if insert_floor else float("nan"))
        expand_ratio.append(expand / expand_floor if expand_floor else float("nan"))
    med = {s: statistics.mean(v) * 1000 for s, v in per_stage.items()}
    total = statistics.mean(totals) * 1000
    print(f"\n== {label}: {store.count(FACTS_GRAPH):,} facts, {len(index):,} indexed entities; {len(questions)} questions "
          f"(median {statistics.median(edges):.0f} edges explored, {statistics.median(selected):.0f} selected)")
    print(f"   entity index build: {build * 1000:9.1f} ms  (per process: every `ragprov ask` pays it once, before its question)")
    for s in STAGES:
        print(f"   {s:<10} {med[s]:9.2f} ms  {100 * med[s] / total:5.1f} %")
    print(f"   {'total':<10} {total:9.2f} ms  (non-LLM time per query, mean; median {statistics.median(totals) * 1000:.2f} ms)")
    print(f"   recording provenance: {100 * med['record'] / total:.1f} % of the query; "
          f"{statistics.median(record_ratio):.2f}x the raw insert of the same quads")
    print(f"   expansion: {statistics.median(expand_ratio):.2f}x the raw quad-pattern floor of the same look-ups")
    print(f"   one `ragprov ask` process (index build + one query): {build * 1000 + total:9.1f} ms; "
          f"the index build is {100 * build * 1000 / (build * 1000 + total):.0f} % of it")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=1_000_000, help="grow the graph to this many facts (default 1,000,000)")
    ap.add_argument("--questions", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="runs per question, each alternated with the raw floors")
    ap.add_argument("--disk", action="store_true", help="use an on-disk store instead of memory")
    args = ap.parse_args(argv)
    questions = QUESTIONS[: max(1, args.questions)]
    with tempfile.TemporaryDirectory() as tmp:
        store = EmbeddedStore(Path(tmp) / "store") if args.disk else EmbeddedStore()
        load_carol(store)
        measure("Christmas Carol", store, questions, args.rounds)
        t = time.perf_counter()
        size = grow(store, args.facts)
        print(f"\n(grown to {size:,} facts in {time.perf_counter() - t:.1f} s)")
        measure(f"Christmas Carol grown to {size:,} facts", store, questions, args.rounds)
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
