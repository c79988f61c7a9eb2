"""Microsoft GraphRAG local and global search over the bundled Christmas Carol index: what was a
candidate, what was kept, the map points and scores, and the reduce step are all recorded."""

from __future__ import annotations

import json
import re

import pytest
from pyoxigraph import NamedNode

from ragprov.namespaces import PROV, RDF, TG
from ragprov.pipelines import GlobalSearch, GlobalSearchParams, LocalSearch, LocalSearchParams
from ragprov.record import EndOfSession, ExplainEvent, event_from_json, event_to_json
from ragprov.store import EmbeddedStore

from .conftest import FACTS, llm_engine, validate
from .openai_stub import OpenAIStub, Reply, system_text, user_text
from .test_graphrag import one, values

import ragprov.loaders.graphrag as graphrag_loader  # noqa: E402  (ragprov's own: never skipped)


@pytest.fixture(scope="module")
def index():
    from ragprov.resources import data_dir

    store = EmbeddedStore()
    graphrag_loader.load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS, show_progress=False)
    return store


def explains(events):
    return [e for e in events if isinstance(e, ExplainEvent)]


def test_local_search_records_candidates_and_kept_context(index):
    pipe = LocalSearch(index, facts_graph=FACTS, params=LocalSearchParams(max_tokens=4000))
    events = list(pipe.run("Who is Tiny Tim?"))
    stages = explains(events)
    assert [e.stage for e in stages] == ["question", "grounding", "exploration", "focus", "synthesis"]
    question, grounding, exploration, focus, synthesis = (e.explain_id for e in stages)
    s = index
    assert TG.LocalSearchQuestion in values(s, question, RDF.type)
    assert one(s, grounding, PROV.wasGeneratedBy) == question
    assert one(s, exploration, PROV.wasDerivedFrom) == grounding
    assert one(s, focus, PROV.wasDerivedFrom) == exploration
    assert one(s, synthesis, PROV.wasDerivedFrom) == focus
    entities = values(s, exploration, TG.entity)
    labels = pipe.reader.labels(entities)
    assert "TINY TIM" in labels.values()
    candidates = set(values(s, exploration, TG.candidate))
    assert int(one(s, exploration, TG.candidateCount).value) == len(candidates)
    kept = values(s, focus, TG.selectedItem)
    items = {one(s, k, TG.item): one(s, k, TG.itemKind).value for k in kept}
    assert set(items) <= candidates and len(items) < len(candidates)  # the budget dropped some
    assert {"report", "entity", "relationship", "text_unit"} <= set(items.values())
    assert sum(int(one(s, k, TG.tokenCount).value) for k in kept) <= 4000
    # kept relationships carry the fact, so lineage reaches the text
    rel = next(k for k in kept if one(s, k, TG.itemKind).value == "relationship")
    edge = one(s, rel, TG.edge)
    assert edge.predicate == one(s, rel, TG.item)
    from ragprov.navigate.lineage import Lineage

    chains = Lineage(s).edge_sources(edge)
    assert chains and chains[0].document.title == "a-christmas-carol.txt"
    # the answer is extracted from the kept context and cites text units
    assert re.search(r"\bTim\b", pipe.result.answer)
    end = events[-1]
    assert isinstance(end, EndOfSession) and end.sources and all(src.chunk is not None for src in end.sources)
    for e in events:
        assert event_from_json(event_to_json(e)) == e
    validate(s)


def test_global_search_batches_map_points_and_reduce(index):
    params = GlobalSearchParams(max_level=1, batch_tokens=2500, reduce_tokens=600, points_per_batch=3)
    pipe = GlobalSearch(index, facts_graph=FACTS, params=params)
    events = list(pipe.run("What are the main themes of the story?"))
    stages = explains(events)
    kinds = [e.stage for e in stages]
    assert kinds[:3] == ["question", "grounding", "exploration"] and kinds[-2:] == ["focus", "synthesis"]
    maps = [e.explain_id for e in stages if e.stage == "map"]
    s = index
    exploration = stages[2].explain_id
    batches = values(s, exploration, TG.batch)
    assert len(maps) == len(batches) > 1
    reports = set(values(s, exploration, TG.candidate))
    batched = [r for b in batches for r in values(s, b, TG.report)]
    assert sorted(batched, key=str) == sorted(reports, key=str)  # every candidate report in exactly one batch
    for m in maps:
        assert one(s, m, PROV.wasDerivedFrom) == exploration
        assert one(s, m, TG.batch) in batches
        for point in values(s, m, TG.point):
            assert values(s, point, TG.report)[0] in reports
            assert 0 < float(one(s, point, TG.score).value) <= 100
    focus = stages[-2].explain_id
    assert set(values(s, focus, PROV.wasDerivedFrom)) == set(maps)
    kept = values(s, focus, TG.selectedPoint)
    all_points = {p for m in maps for p in values(s, m, TG.point)}
    assert kept and set(kept) <= all_points and len(kept) < len(all_points)
    best = max(all_points, key=lambda p: float(one(s, p, TG.score).value))
    assert best in kept
    # scores discriminate (none pinned at the cap) and the reduce step keeps the best points
    score = {p: float(one(s, p, TG.score).value) for p in all_points}
    assert len(set(score.values())) > len(all_points) // 2 and max(score.values()) < 100
    assert min(score[p] for p in kept) >= max(score[p] for p in all_points - set(kept))
    assert "theme" in pipe.result.answer.lower()
    # deterministic: same batches and answer again
    again = GlobalSearch(index, facts_graph=FACTS, params=params)
    list(again.run("What are the main themes of the story?"))
    assert again.result.answer == pipe.result.answer
    validate(s)


def test_global_search_with_an_llm_map_step(index):
    def reply(req):
        system, user = system_text(req), user_text(req)
        if "extract search concepts" in system:
            return Reply('["themes"]', prompt_tokens=10, completion_tokens=3)
        if "community reports of a knowledge graph" in system:
            first = re.search(r"^\[(\d+)\] (.{0,60})", user, re.M)
            points = [{"description": f"Point from {first.group(2)}", "score": 70, "reports": [int(first.group(1))]}] if first else []
            return Reply(json.dumps({"points": points}), prompt_tokens=100, completion_tokens=20)
        if "numbered facts" in system:
            return Reply("Redemption and generosity [1].", prompt_tokens=50, completion_tokens=6)
        return Reply(status=400)

    with OpenAIStub(reply) as stub:
        pipe = GlobalSearch(index, engine=llm_engine(stub), facts_graph=FACTS, params=GlobalSearchParams(max_level=0, batch_tokens=4000))
        events = list(pipe.run("What are the main themes?"))
    maps = [e.explain_id for e in explains(events) if e.stage == "map"]
    assert maps
    s = index
    assert one(s, maps[0], TG.prompt).value == "global-map@1"
    assert (one(s, maps[0], TG.inToken).value, one(s, maps[0], TG.outToken).value) == ("100", "20")
    end = events[-1]
    assert (end.in_token, end.out_token) == (10 + 100 * len(maps) + 50, 3 + 20 * len(maps) + 6)
    assert pipe.result.answer == "Redemption and generosity [1]."


def test_drift_search_records_the_action_dag(index):
    from ragprov.pipelines import DriftSearch, DriftSearchParams

    params = DriftSearchParams(k_followups=2, depth=2, reduce_answers=3)
    pipe = DriftSearch(index, facts_graph=FACTS, params=params)
    events = list(pipe.run("What happens to Tiny Tim?"))
    s = index
    stages = explains(events)
    top = [e for e in stages if e.explain_id.value.startswith(pipe.result.question.value)]
    actions = [e.explain_id for e in top if e.stage == "drift-action"]
    assert top[0].stage == "question" and top[-2].stage == "focus" and top[-1].stage == "synthesis"
    assert TG.DriftSearchQuestion in values(s, pipe.result.question, RDF.type)
    primer = actions[0]
    assert int(one(s, primer, TG.depth).value) == 0
    exploration = next(e.explain_id for e in top if e.stage == "exploration")
    assert one(s, primer, PROV.wasDerivedFrom) == exploration
    follow_ups = [v.value for v in values(s, primer, TG.followUp)]
    assert 1 <= len(follow_ups) <= 2
    depths = {}
    for a in actions[1:]:
        depth = int(one(s, a, TG.depth).value)
        depths[a] = depth
        sub = one(s, a, TG.subTrace)
        assert one(s, sub, PROV.used) == a  # the local-search sub-trace ran for this action
        assert TG.LocalSearchQuestion in values(s, sub, RDF.type)
        parents = values(s, a, PROV.wasDerivedFrom)
        parent_actions = [p for p in parents if p in actions]
        assert len(parent_actions) == 1 and int(one(s, parent_actions[0], TG.depth).value) == depth - 1
        if depth >= 2:  # derived from the parent's local-search answer too
            assert any(p.value.endswith("/synthesis") for p in parents)
        asked = one(s, a, TG.query).value
        assert asked in [v.value for p in parent_actions for v in values(s, p, TG.followUp)]
    assert set(depths.values()) == {1, 2}
    queries = [one(s, a, TG.query).value.lower() for a in actions]
    assert len(queries) == len(set(queries))  # no query asked twice
    focus = top[-2].explain_id
    assert set(values(s, focus, PROV.wasDerivedFrom)) == set(actions)
    assert len(values(s, focus, TG.selectedItem)) == 3
    assert re.search(r"\bTim\b", pipe.result.answer)
    again = DriftSearch(index, facts_graph=FACTS, params=params)
    list(again.run("What happens to Tiny Tim?"))
    assert again.result.answer == pipe.result.answer
    validate(s)


def test_report_ratings_come_through(index):
    """Global search ranks community reports by GraphRAG's rank, which the loader writes as tg:rating."""
    import pyarrow.parquet as pq

    from ragprov.resources import data_dir
    from ragprov.sparql import catalog

    reports = {r["report"].value for r in index.select(catalog().render("retrieve/graphrag-reports", index.dialect, facts_graph=FACTS, max_level=None))}
    rows = index.select(catalog().render("retrieve/graphrag-report-texts", index.dialect, facts_graph=FACTS, reports=sorted(reports)))
    ranks = {r["report"].value: float(r["rank"].value) for r in rows if "rank" in r}
    assert reports and set(ranks) == reports, "every report has its rating"
    table = pq.read_table(data_dir() / "graphrag" / "christmas-carol-v3" / "community_reports.parquet")
    assert sorted(ranks.values()) == sorted(float(x) for x in table.column("rank").to_pylist())
