"""Microsoft GraphRAG's own local and global context builders against ragprov's, on the same index.

Both sides read the bundled Christmas Carol index (``plugin/data/graphrag/christmas-carol-v3``):
Microsoft's builders from its parquet tables through its own ``indexer_adapters`` (done once,
outside the timing, as a GraphRAG query service holds them in memory), ragprov from an on-disk
pyoxigraph store the same tables were loaded into, with the persistent index ``ragprov load
graphrag`` builds beside it (:mod:`ragprov.retrieve.textindex`: postings, community reports,
local search's candidate rows and item texts; built once, outside the timing, as the load does); a
fresh :class:`~ragprov.retrieve.FactsReader` per run, so nothing read in one run is reused by the
next (opening the index and checking the store's load stamp, as a process does once, is timed
apart with the seed search for local; inside the timing for global).
Runs alternate side by side, question by question; p50/p95 and the ratio are printed.

How the two setups were made equivalent:

- **Local** (``LocalSearchMixedContext.build_context`` vs ragprov's ``retrieve.context`` reads,
  candidate ranking and token budgets): the same seed entities — ragprov's offline entity mapping
  for the question (the hashed text vector fused with the lexical search,
  :mod:`ragprov.retrieve.entity_search`, as ``ragprov ask local`` maps it; timed on ragprov's side only) is handed to Microsoft's builder as
  ``include_entity_names`` with ``top_k_mapped_entities=0`` and an empty query, so no embedding
  model is involved; ``max_context_tokens`` 12,000, ``community_prop`` 0.25, ``text_unit_prop``
  0.5, ``top_k_relationships`` 10 on both; Microsoft's tokenizer is replaced by the same
  four-characters-per-token count ragprov uses (``approx_tokens``), so the budgets cut alike
  (Microsoft counts each candidate at query time; ragprov's index holds each item's count from
  when it was written, and ragprov reads the kept items' texts inside the timing).
- **Global** (``GlobalCommunityContext.build_context`` vs reading the community reports and
  cutting them into shuffled batches): reports of levels 0–2 on both sides (Microsoft's
  ``read_indexer_reports(..., community_level=2, dynamic_community_selection=True)`` keeps every
  report up to the level, as ragprov does), 8,000-token batches, shuffled with seed 86.

Without Microsoft GraphRAG installed (``pip install .[bench]``) the bench prints "skipped".

    python bench/context.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import percentiles  # noqa: E402

INDEX = ROOT / "plugin" / "data" / "graphrag" / "christmas-carol-v3"
QUESTIONS = ["Who is Tiny Tim?", "How does Scrooge treat Bob Cratchit?", "What does the Ghost of Christmas Past show Scrooge?",
             "Who was Jacob Marley?", "What happens at Fezziwig's ball?"]
MAX_TOKENS, COMMUNITY_PROP, TEXT_UNIT_PROP, TOP_K_REL = 12_000, 0.25, 0.5, 10
LEVEL, BATCH_TOKENS, SEED = 2, 8_000, 86


def microsoft():
    """Microsoft's builders over its own adapters, or ``None`` when graphrag is not installed."""
    try:
        import pandas as pd
        from graphrag.query.indexer_adapters import (
            read_indexer_communities,
            read_indexer_covariates,
            read_indexer_entities,
            read_indexer_relationships,
            read_indexer_reports,
            read_indexer_text_units,
        )
        from graphrag.query.structured_search.global_search.community_context import GlobalCommunityContext
        from graphrag.query.structured_search.local_search.mixed_context import LocalSearchMixedContext
        from graphrag_llm.tokenizer import Tokenizer
    except ImportError as e:
        print(f"skipped: Microsoft GraphRAG is not installed ({e}); pip install '.[bench]'")
        return None

    class QuarterTokenizer(Tokenizer):
        """ragprov's token estimate (one token per four characters) in Microsoft's interface."""

        def __init__(self, **kwargs):
            pass

        def encode(self, text: str) -> list[int]:
            return [0] * max(1, math.ceil(len(text) / 4))

        def decode(self, tokens: list[int]) -> str:
            return ""

    t = {name: pd.read_parquet(INDEX / f"{name}.parquet") for name in
         ("entities", "communities", "community_reports", "relationships", "text_units", "covariates")}
    entities = read_indexer_entities(t["entities"], t["communities"], None)
    tokenizer = QuarterTokenizer()
    local = LocalSearchMixedContext(
        entities=entities, entity_text_embeddings=None, text_embedder=None,
        text_units=read_indexer_text_units(t["text_units"]),
        community_reports=read_indexer_reports(t["community_reports"], t["communities"], None, dynamic_community_selection=True),
        relationships=read_indexer_relationships(t["relationships"]),
        covariates={"claims": read_indexer_covariates(t["covariates"])}, tokenizer=tokenizer)
    reports = read_indexer_reports(t["community_reports"], t["communities"], LEVEL, dynamic_community_selection=True)
    glob = GlobalCommunityContext(community_reports=reports, communities=read_indexer_communities(t["communities"], t["community_reports"]),
                                  entities=entities, tokenizer=tokenizer, random_state=SEED)
    names = {e.id: e.title for e in entities}
    return local, glob, names, len(reports)


def ragprov_store(folder: Path):
    from pyoxigraph import NamedNode

    from ragprov.loaders.graphrag import load_graphrag
    from ragprov.retrieve.reader import update_text_index
    from ragprov.store import EmbeddedStore

    store = EmbeddedStore(folder / "store")
    facts = NamedNode("urn:graph:facts")
    load_graphrag(store, INDEX, facts_graph=facts, show_progress=False)
    update_text_index(store, facts_graph=facts)  # what `ragprov load graphrag` does last
    return store, facts


def ragprov_local(store, facts, question: str):
    """ragprov's local context: seeds, then candidates, texts, ranking and budgets."""
    from ragprov.retrieve import FactsReader
    from ragprov.retrieve import context as ctx
    from ragprov.retrieve.entity_search import map_query_to_entities
    from ragprov.retrieve.lexical import extract_concepts
    from ragprov.retrieve.vectors import HashedEmbedder

    t = time.perf_counter()
    reader = FactsReader(store, facts_graph=facts)
    reader.text_index()  # open the index, check the load stamp (a process does it once)
    opened = time.perf_counter() - t
    t = time.perf_counter()
    ranking = map_query_to_entities(reader, question, extract_concepts(question), limit=10, embedder=HashedEmbedder())
    seeds = time.perf_counter() - t
    t = time.perf_counter()
    entities = ranking.entities
    candidates = reader.local_context(entities)
    items = [c["item"] for kind in ("report", "entity", "relationship", "claim", "text_unit") for c in candidates[kind]]
    texts = reader.item_texts(items)
    kept = ctx.select_local(candidates, texts, entity_scores=ranking.scores, max_tokens=MAX_TOKENS,
                            community_prop=COMMUNITY_PROP, text_unit_prop=TEXT_UNIT_PROP, top_k_relationships=TOP_K_REL)
    ctx.unit_sources(reader, [k["item"] for k in kept if k["kind"] == "text_unit"])
    elapsed = time.perf_counter() - t
    labels = reader.labels(entities)  # Microsoft's builder takes the seeds by title (not timed)
    return elapsed, seeds + opened, [labels[e] for e in entities if e in labels], len(kept)


def ragprov_global(store, facts):
    from ragprov.retrieve import FactsReader
    from ragprov.retrieve import context as ctx

    t = time.perf_counter()
    reports = FactsReader(store, facts_graph=facts).community_reports(LEVEL)
    shuffled = list(reports)
    random.Random(SEED).shuffle(shuffled)
    batches, used = [], 0
    for rep in shuffled:
        n = ctx.approx_tokens(ctx.report_text(rep))
        if not batches or used + n > BATCH_TOKENS:
            batches.append([])
            used = 0
        batches[-1].append(rep)
        used += n
    return time.perf_counter() - t, len(reports), len(batches)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args(argv)
    ms = microsoft()
    if ms is None:
        return 0
    local, glob, _, ms_reports = ms
    import tempfile

    folder = tempfile.TemporaryDirectory(prefix="ragprov-context-")
    store, facts = ragprov_store(Path(folder.name))
    ours_local, theirs_local, ours_global, theirs_global, seed_times = [], [], [], [], []
    for r in range(args.rounds + 1):  # round 0 warms both up
        for q in QUESTIONS:
            t, seeds, names, _ = ragprov_local(store, facts, q)
            t0 = time.perf_counter()
            local.build_context(query="", include_entity_names=names, top_k_mapped_entities=0, max_context_tokens=MAX_TOKENS,
                                community_prop=COMMUNITY_PROP, text_unit_prop=TEXT_UNIT_PROP, top_k_relationships=TOP_K_REL)
            theirs = time.perf_counter() - t0
            if r:
                ours_local.append(t)
                seed_times.append(seeds)
                theirs_local.append(theirs)
        t, n_reports, n_batches = ragprov_global(store, facts)
        t0 = time.perf_counter()
        asyncio.run(glob.build_context(query="", use_community_summary=False, shuffle_data=True, max_context_tokens=BATCH_TOKENS))
        theirs = time.perf_counter() - t0
        if r:
            ours_global.append(t)
            theirs_global.append(theirs)
    print(f"Christmas Carol index, {args.rounds} rounds × {len(QUESTIONS)} questions, interleaved")
    for name, ours, theirs in (("local", ours_local, theirs_local), ("global", ours_global, theirs_global)):
        o50, o95 = percentiles(ours)
        t50, t95 = percentiles(theirs)
        print(f"{name:6}  ragprov p50 {o50 * 1000:7.2f} ms p95 {o95 * 1000:7.2f} ms | Microsoft p50 {t50 * 1000:7.2f} ms "
              f"p95 {t95 * 1000:7.2f} ms | ragprov {t50 / o50:.1f}× faster")
    print(f"(ragprov's index open, load-stamp check and seed search, not counted above: p50 {percentiles(seed_times)[0] * 1000:.2f} ms; "
          f"global reports: ragprov {n_reports}, Microsoft {ms_reports}; ragprov batches {n_batches})")
    store.close()
    folder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
