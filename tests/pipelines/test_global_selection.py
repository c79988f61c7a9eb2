"""Microsoft GraphRAG global search as the original behaves, over the bundled Christmas Carol index:
``--community-level`` picks the reports, dynamic community selection rates them from the root level
down (a recorded stage with every rating), and the answer's sources (reports, text units) are
recorded, so ``lineage document`` finds the trace."""

from __future__ import annotations

import json
import re

import pytest
from pyoxigraph import NamedNode

import ragprov.loaders.graphrag as graphrag_loader
from ragprov.namespaces import PROV, RDF, TG
from ragprov.navigate.traces import Navigator
from ragprov.pipelines import GlobalSearch, GlobalSearchParams, LocalSearch, LocalSearchParams, pipeline
from ragprov.pipelines.community_selection import select_communities
from ragprov.record import EndOfSession, ExplainEvent

from .conftest import FACTS, carol_index, llm_engine, validate
from .openai_stub import OpenAIStub, Reply, system_text, user_text
from .test_graphrag import one, values

PARTNER = "Who was Scrooge's business partner?"


@pytest.fixture(scope="module")
def index():
    return carol_index()


def report_levels(store) -> dict[NamedNode, int]:
    """Every community report's level, read straight from the loaded facts."""
    reports = {q.subject for q in store.raw.quads_for_pattern(None, RDF.type, TG.CommunityReport, FACTS)}
    return {q.subject: int(q.object.value) for q in store.raw.quads_for_pattern(None, TG.level, None, FACTS) if q.subject in reports}


def report_children(store) -> dict[NamedNode, set[NamedNode]]:
    """report → the reports of its community's child communities, straight from the facts."""
    raw = store.raw
    report_of = {q.object: q.subject for q in raw.quads_for_pattern(None, TG.community, None, FACTS)}
    out: dict[NamedNode, set[NamedNode]] = {}
    for community, report in report_of.items():
        out[report] = {report_of[q.object] for q in raw.quads_for_pattern(community, TG.child, None, FACTS) if q.object in report_of}
    return out


def stages_of(events) -> dict[str, list[NamedNode]]:
    out: dict[str, list[NamedNode]] = {}
    for e in events:
        if isinstance(e, ExplainEvent):
            out.setdefault(e.stage, []).append(e.explain_id)
    return out


# -- community level -------------------------------------------------------------------------------
@pytest.mark.parametrize("level", [0, 1, 2, None])
def test_community_level_picks_the_reports_of_that_level_or_coarser(index, level):
    levels = report_levels(index)
    assert sorted(set(levels.values())) == [0, 1, 2, 3]
    pipe = GlobalSearch(index, facts_graph=FACTS, params=GlobalSearchParams(max_level=level))
    events = list(pipe.run("What are the main themes of the story?"))
    exploration = stages_of(events)["exploration"][0]
    candidates = set(values(index, exploration, TG.candidate))
    expected = {r for r, n in levels.items() if level is None or n <= level}
    assert candidates == expected


def test_the_default_community_level_is_microsofts(index):
    assert GlobalSearchParams().max_level == 2 and LocalSearchParams().max_level == 2
    assert pipeline("drift", index).params.max_level == 2
    p = pipeline("drift", index, community_level=1).params
    assert (p.max_level, p.local.max_level) == (1, 1)
    with pytest.raises(Exception, match="global search"):
        pipeline("local", index, dynamic_selection=True)
    assert pipeline("local", index, dynamic_selection=False).params == pipeline("local", index).params  # off: nothing to turn off
    assert pipeline("global", index, dynamic_selection=True).params.dynamic_selection
    with pytest.raises(Exception, match="local, global and drift"):
        pipeline("doc-rag", index, community_level=1)


def test_local_search_candidate_reports_respect_the_community_level(index):
    levels = report_levels(index)

    def candidate_reports(max_level):
        pipe = LocalSearch(index, facts_graph=FACTS, params=LocalSearchParams(max_level=max_level))
        exploration = stages_of(pipe.run("Who is Tiny Tim?"))["exploration"][0]
        return [c for c in values(index, exploration, TG.candidate) if c in levels]

    everything, coarse = candidate_reports(None), candidate_reports(0)
    assert {levels[r] for r in everything} > {0}  # Tiny Tim's communities go deeper than level 0
    assert coarse and {levels[r] for r in coarse} == {0}
    assert set(coarse) == {r for r in everything if levels[r] == 0}


# -- dynamic community selection ----------------------------------------------------------------
def test_selection_descends_only_into_relevant_reports_and_falls_back_a_level():
    tree = {"a": (0, ["a1"]), "b": (0, ["b1"]), "a1": (1, ["a11"]), "b1": (1, []), "a11": (2, []), "c2": (2, [])}
    reports = [{"report": r} for r in tree]

    def rate(scores):
        return lambda batch: [(scores[r["report"]], None) for r in batch]

    kept, ratings = select_communities(reports, tree, rate({"a": 0, "b": 0, "a1": 2, "b1": 0, "a11": 0, "c2": 3}), threshold=1)
    # nothing relevant at level 0: level 1 is rated whole, then a1's child
    assert [(r.report, r.level) for r in ratings] == [("a", 0), ("b", 0), ("a1", 1), ("b1", 1), ("a11", 2)]
    assert [r["report"] for r in kept] == ["a1"]
    # with nothing relevant anywhere, the fall-back stops at max_level
    kept, ratings = select_communities(reports, tree, rate(dict.fromkeys(tree, 0)), threshold=1, max_level=1)
    assert kept == [] and {r.level for r in ratings} == {0, 1}
    # keep_parent: a relevant parent stays with its relevant child
    kept, _ = select_communities(reports, tree, rate({"a": 4, "b": 0, "a1": 4, "b1": 0, "a11": 0, "c2": 0}), threshold=1,
                                 keep_parent=True)
    assert [r["report"] for r in kept] == ["a", "a1"]


def test_dynamic_selection_records_every_rating_and_drops_irrelevant_reports(index):
    levels, children = report_levels(index), report_children(index)
    params = GlobalSearchParams(dynamic_selection=True)
    pipe = GlobalSearch(index, facts_graph=FACTS, params=params)
    events = list(pipe.run(PARTNER))
    kinds = [e.stage for e in events if isinstance(e, ExplainEvent)]
    assert kinds[:4] == ["question", "grounding", "community-selection", "exploration"]
    stages = stages_of(events)
    selection, exploration = stages["community-selection"][0], stages["exploration"][0]
    assert one(index, selection, PROV.wasDerivedFrom) == stages["grounding"][0]
    assert one(index, exploration, PROV.wasDerivedFrom) == selection

    # the ratings, as `ragprov trace show --format json` gives them
    trace = json.loads(json.dumps(Navigator(index).trace(pipe.result.question).to_dict()))
    shown = next(s for s in trace["stages"] if s["kind"] == "CommunitySelection")
    assert Navigator(index).stage(selection).value(TG.threshold) == 1
    ratings = shown["selections"]
    by_report = {NamedNode(r["item"]): r for r in ratings}
    assert len(by_report) == len(ratings) and all(0 <= r["score"] <= 5 and r["item_kind"] == "report" for r in ratings)
    assert [r["rank"] for r in ratings] == list(range(1, len(ratings) + 1))
    assert all(r["level"] == levels[NamedNode(r["item"])] for r in ratings)
    # from the root level down: every level-0 report is rated, and a deeper one only when its parent was relevant
    assert {r for r, n in levels.items() if n == 0} <= set(by_report)
    parent = {child: p for p, kids in children.items() for child in kids}
    for report, r in by_report.items():
        if r["level"] > 0:
            assert by_report[parent[report]]["score"] >= 1, r
    assert all(levels[r] <= 2 for r in by_report)  # the community level bounds the descent
    # kept: the relevant reports whose children were not relevant; they are what the map steps read
    kept = {report for report, r in by_report.items() if r["kept"]}
    assert kept == set(values(index, exploration, TG.candidate))
    for report in kept:
        assert by_report[report]["score"] >= 1
        assert not any(by_report.get(c, {}).get("score", 0) >= 1 for c in children[report])
    dropped = [r for r in ratings if r["score"] < 1]
    assert dropped and not any(r["kept"] for r in dropped)
    # a report that shares no word with the question is rated 0 and dropped; the partner's is kept
    texts = {r["report"]: r for r in pipe.reader.community_reports(None)}
    words = re.compile(r"\b(scrooge|business|partner)", re.I)
    unrelated = [report for report in by_report if not words.search(texts[report]["text"])]
    assert unrelated and all(by_report[r]["score"] == 0 and not by_report[r]["kept"] for r in unrelated)
    assert any("Jacob Marley" in texts[r]["title"] for r in kept)
    # fewer reports mapped than without the selection, and the answer still names the partner
    full = GlobalSearch(index, facts_graph=FACTS, params=GlobalSearchParams())
    assert len(kept) < len([r for r, n in levels.items() if n <= 2])
    assert len(stages["map"]) < len(stages_of(full.run(PARTNER))["map"])
    assert "Marley" in pipe.result.answer.splitlines()[0]
    validate(index)


def test_trace_show_text_lists_the_ratings(index):
    from ragprov.navigate.render import trace_text

    pipe = GlobalSearch(index, facts_graph=FACTS, params=GlobalSearchParams(dynamic_selection=True))
    list(pipe.run("What happens to Tiny Tim?"))
    text = trace_text(Navigator(index).trace(pipe.result.question))
    block = text.split("CommunitySelection", 1)[1].split("\n3. ", 1)[0]
    assert re.search(r"rated \d+ community reports, kept \d+ \(relevant: rating at least 1\)", block)
    assert re.search(r"#1 report \S.* level 0 +rating \d", block)
    assert " kept" in block and "dropped" in block
    # the diagram draws the kept reports only, saying how many were rated
    from ragprov.navigate.render import trace_mermaid

    trace = Navigator(index).trace(pipe.result.question)
    ratings = next(st for st in trace.stages if st.kind == "CommunitySelection").selections
    kept = sum(1 for r in ratings if r.kept)
    diagram = trace_mermaid(trace)
    assert f"kept by CommunitySelection ({kept} of {len(ratings)} rated)" in diagram and kept < len(ratings)
    assert diagram.count("report, rating ") == kept


# -- sources ---------------------------------------------------------------------------------------
def test_global_search_records_its_sources_and_lineage_finds_the_trace(index):
    from ragprov.navigate.lineage import Lineage

    pipe = GlobalSearch(index, facts_graph=FACTS)
    events = list(pipe.run(PARTNER))
    end = events[-1]
    assert isinstance(end, EndOfSession) and end.sources
    units = {q.subject for q in index.raw.quads_for_pattern(None, RDF.type, TG.TextUnit, None)}
    assert all(src.chunk in units and src.title == "a-christmas-carol.txt" for src in end.sources)
    assert len(end.sources) <= GlobalSearchParams().source_units
    # the Focus keeps the reports the kept points rest on, then their text units (the sources)
    focus = stages_of(events)["focus"][0]
    items = sorted(values(index, focus, TG.selectedItem), key=lambda s: int(one(index, s, TG.rank).value))
    kinds = [one(index, s, TG.itemKind).value for s in items]
    assert kinds == sorted(kinds) and {"report", "text_unit"} == set(kinds)  # reports first
    kept_reports = {r for p in values(index, focus, TG.selectedPoint) for r in values(index, p, TG.report)}
    assert {one(index, s, TG.item) for s in items if one(index, s, TG.itemKind).value == "report"} == kept_reports
    assert [one(index, s, TG.item) for s in items if one(index, s, TG.itemKind).value == "text_unit"] == [s.chunk for s in end.sources]
    # offline, a text unit's recorded score is the BM25 of the question in it, by which they are ordered
    unit_scores = [float(one(index, s, TG.score).value) for s in items if one(index, s, TG.itemKind).value == "text_unit"]
    assert unit_scores[0] > 0 and unit_scores == sorted(unit_scores, reverse=True)
    # each source text unit holds a member entity of a kept report's community
    derived = {(q.subject, q.object) for q in index.raw.quads_for_pattern(None, PROV.wasDerivedFrom, None, None)}
    members = {q.object for r in kept_reports for c in values(index, r, TG.community)
               for q in index.raw.quads_for_pattern(c, TG.hasMember, None, FACTS)}
    for src in end.sources:
        assert any((m, src.chunk) in derived for m in members)
    # lineage document finds the global trace through them
    document = end.sources[0].document
    found = Lineage(index).document_answers(document, items=True)
    mine = [a for a in found if a.question == pipe.result.question]
    assert mine and mine[0].kind == "global"
    assert {s.chunk for s in end.sources} & {NamedNode(i) if isinstance(i, str) else i for i in mine[0].items}
    validate(index)


# -- with an LLM -----------------------------------------------------------------------------------
def test_offline_the_answer_reads_the_reports_its_points_were_cut_from(index):
    """Offline, global search's evidence is one passage per report the kept points rest on (best
    point first): what the report states, without its [Data: …] references, named by the
    recorded point; then the text units of those reports that say the most of the question, each
    named by the Focus's selection of it; the answer rests on those points and units."""
    pipe = GlobalSearch(index, facts_graph=FACTS)
    events = list(pipe.run(PARTNER))
    focus = stages_of(events)["focus"][0]
    points = values(index, focus, TG.selectedPoint)
    units = [p for p in pipe.result.passages if p.kind == "chunk"]
    assert units and {NamedNode(p.item) for p in units} <= set(values(index, focus, TG.selectedItem))
    passages = [p for p in pipe.result.passages if p.kind != "chunk"]
    assert passages and all(p.kind == "report" for p in passages)
    assert pipe.result.passages[: len(passages)] == tuple(passages)  # the reports first
    assert {NamedNode(p.item) for p in passages} <= set(points)
    statements = {r["report"]: r["statements"] for r in pipe.reader.community_reports(pipe.params.max_level)}
    named = [one(index, NamedNode(p.item), TG.report) for p in passages]
    assert len(set(named)) == len(named)  # one passage per report
    for p, report in zip(passages, named, strict=True):
        assert "[Data:" not in p.text and "Data:" in statements[report]
        assert p.text.split(". ")[0] in " ".join(statements[report].split())
    assert pipe.result.support.support and "Marley" in pipe.result.answer.splitlines()[0]


def test_with_an_llm_each_report_is_rated_with_the_rating_prompt(index):
    """The rating prompt is sent once per rated report (its full content, the question, a JSON
    object asked for); the replies' ratings and reasons are what the trace records."""
    contents: list[str] = []

    def reply(request):
        system = system_text(request)
        if "extract search concepts" in system:
            return Reply('["Marley", "partner"]', prompt_tokens=10, completion_tokens=3)
        if "---Information---" in system:
            info = system.split("---Information---", 1)[1].split("---Question---", 1)[0]
            contents.append(info.strip())
            if "Project Gutenberg" in info:
                return Reply("no JSON here", prompt_tokens=20, completion_tokens=2)  # unreadable: counts as 1
            rating = 4 if "Marley" in info else 0
            return Reply(json.dumps({"reason": f"mentions Marley: {rating > 0}", "rating": rating}), prompt_tokens=20, completion_tokens=9)
        if "one batch of community reports" in system:
            return Reply(json.dumps({"points": [{"description": "Jacob Marley was Scrooge's partner [Data: Reports (1)]", "score": 80}]}),
                         prompt_tokens=100, completion_tokens=20)
        if "---Analyst points---" in system:
            return Reply("Jacob Marley.", prompt_tokens=50, completion_tokens=3)
        return Reply(status=400)

    with OpenAIStub(reply) as stub:
        pipe = GlobalSearch(index, engine=llm_engine(stub), facts_graph=FACTS,
                            params=GlobalSearchParams(dynamic_selection=True, max_level=1, batch_tokens=12_000))
        events = list(pipe.run(PARTNER))
        requests = [r["json"] for r in stub.requests]
    rating_requests = [r for r in requests if "---Information---" in system_text(r)]
    selection = stages_of(events)["community-selection"][0]
    recorded = values(index, selection, TG.rated)
    assert len(rating_requests) == len(recorded) == len(contents) > 20
    for r in rating_requests:
        assert r["response_format"] == {"type": "json_object"} and user_text(r) == PARTNER
        assert PARTNER in system_text(r)
    assert all(c.startswith("#") for c in contents)  # the report's full content, as Microsoft rates it
    assert one(index, selection, TG.prompt).value == "ms-rate-relevancy@1"
    assert (int(one(index, selection, TG.inToken).value), int(one(index, selection, TG.outToken).value)) == (
        20 * len(recorded), sum(2 if "Project Gutenberg" in c else 9 for c in contents))
    by_report = {one(index, r, TG.report): r for r in recorded}
    for rating in recorded:
        score, reasons = float(one(index, rating, TG.score).value), values(index, rating, TG.reasoning)
        assert score in (0, 1, 4)
        assert (not reasons) == (score == 1)  # an unreadable reply: rating 1 and no reason
        assert all(r.value == f"mentions Marley: {score > 0}" for r in reasons)
    kept = [r for r, node in by_report.items() if one(index, node, TG.kept).value == "true"]
    assert kept and set(kept) == set(values(index, stages_of(events)["exploration"][0], TG.candidate))
    assert pipe.result.answer == "Jacob Marley."
    end = events[-1]
    assert end.in_token == 10 + 20 * len(recorded) + 100 * len(stages_of(events)["map"]) + 50
    validate(index)


# -- the command line ------------------------------------------------------------------------------
def test_ask_global_with_community_options_then_trace_show_and_lineage(tmp_path, capsys, monkeypatch):
    from ragprov.cli import cli, run
    from ragprov.resources import data_dir
    from ragprov.store import EmbeddedStore

    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    path = tmp_path / "store"
    s = EmbeddedStore(path)
    graphrag_loader.load_graphrag(s, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
    s.close()
    store = ["--store", str(path)]
    assert run(cli, ["ask", "global", PARTNER, "-x", "--format", "json", "--community-level", "1", "--dynamic-community-selection",
                     *store]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert "[community-selection]" in err and re.search(r"rated \d+ reports, kept \d+ \(threshold 1", err)
    assert "level 0:" in err and "level 1:" in err and "level 2:" not in err  # --community-level 1
    assert summary["sources"] and all(src["chunk"] for src in summary["sources"])
    assert "Marley" in summary["answer"]
    assert run(cli, ["trace", "show", summary["trace"], "--format", "json", *store]) == 0
    trace = json.loads(capsys.readouterr().out)
    ratings = next(st for st in trace["stages"] if st["kind"] == "CommunitySelection")["selections"]
    assert ratings and {r["level"] for r in ratings} == {0, 1} and any(r["kept"] for r in ratings)
    assert all(set(r) >= {"item", "score", "kept", "level", "rank"} for r in ratings)
    assert run(cli, ["lineage", "document", summary["sources"][0]["document"], "--format", "json", *store]) == 0
    found = json.loads(capsys.readouterr().out)
    assert summary["trace"] in [t["question"] for t in found]
    # the options are Microsoft's modes' own
    assert run(cli, ["ask", "graph-rag", PARTNER, "--community-level", "1", *store]) == 2
    assert "--community-level" in capsys.readouterr().err
    assert run(cli, ["ask", "local", PARTNER, "--dynamic-community-selection", *store]) == 2


# -- concurrent LLM requests ------------------------------------------------------------------------
class _InFlight:
    """Counts the requests a server is answering at once; answers later ones sooner (so replies
    come back out of order) by sleeping less for a larger report id."""

    def __init__(self):
        import threading

        self.lock = threading.Lock()
        self.now = self.most = 0

    def __call__(self, first_id: int, reply):
        import time

        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(0.02 + 0.1 / (1 + first_id % 7))
            return reply
        finally:
            with self.lock:
                self.now -= 1


def _global_run(index, *, concurrency: int, rating_concurrency: int):
    """A dynamic-selection global search whose map and rating replies are made from the request
    alone; what it recorded, in order: the batches' points and the ratings."""
    flight = _InFlight()

    def reply(request):
        system = system_text(request)
        if "extract search concepts" in system:
            return Reply('["Marley", "partner"]')
        if "---Information---" in system:
            info = system.split("---Information---", 1)[1].split("---Question---", 1)[0]
            rating = 3 if "Marley" in info or "Scrooge" in info else 0
            return flight(len(info), Reply(json.dumps({"reason": f"length {len(info)}", "rating": rating})))
        if "one batch of community reports" in system:
            ids = [int(x) for x in re.findall(r"^(\d+)\|", system.split("-----Reports-----", 1)[1], re.M)]
            points = [{"description": f"Reports {ids[0]} and {ids[-1]} [Data: Reports ({ids[0]})]", "score": 10 + ids[0] % 50}]
            return flight(ids[0], Reply(json.dumps({"points": points})))
        if "---Analyst points---" in system:
            return Reply("Jacob Marley.")
        return Reply(status=400)

    params = GlobalSearchParams(dynamic_selection=True, max_level=1, batch_tokens=1_500,
                                concurrency=concurrency, rating_concurrency=rating_concurrency)
    with OpenAIStub(reply) as stub:
        events = list(GlobalSearch(index, engine=llm_engine(stub), facts_graph=FACTS, params=params).run(PARTNER))
    stages = stages_of(events)
    maps = [[(one(index, pt, TG.content).value, one(index, pt, TG.score).value, values(index, pt, TG.report))
             for pt in sorted(values(index, m, TG.point), key=lambda p: p.value)] for m in stages["map"]]
    assert [m.value.rsplit("/", 1)[-1] for m in stages["map"]] == [str(n) for n in range(1, len(maps) + 1)]
    selection = stages["community-selection"][0]
    ratings = sorted((int(one(index, r, TG.rank).value), one(index, r, TG.report).value, one(index, r, TG.score).value)
                      for r in values(index, selection, TG.rated))
    return maps, ratings, flight.most


def test_with_an_llm_map_and_rating_requests_run_concurrently_and_record_in_order(index):
    """Microsoft sends the map and rating requests concurrently; ragprov too, and what it records
    (the MapResults in batch order with their own batch's points, the ratings in report order) is
    exactly what one request at a time records, though the replies come back out of order."""
    one_by_one = _global_run(index, concurrency=1, rating_concurrency=1)
    at_once = _global_run(index, concurrency=4, rating_concurrency=4)
    assert one_by_one[2] == 1 and at_once[2] > 1
    assert len(one_by_one[0]) > 2 and len(one_by_one[1]) > 20
    assert at_once[:2] == one_by_one[:2]


def test_a_failed_map_request_stops_the_run_before_later_batches_are_recorded(index):
    """Requests run ahead, but a batch's failure is raised where its result is taken: the batches
    before it are recorded, the one that failed and every later one are not."""
    from ragprov.errors import LLMError

    def reply(request):
        system = system_text(request)
        if "extract search concepts" in system:
            return Reply('["Marley"]')
        if "one batch of community reports" in system:
            ids = [int(x) for x in re.findall(r"^(\d+)\|", system.split("-----Reports-----", 1)[1], re.M)]
            if 3 in ids:  # the batch holding the report whose human-readable id (its id in the table) is 3 fails
                return Reply(status=400, text="refused")
            return Reply(json.dumps({"points": [{"description": f"Report {ids[0]} [Data: Reports ({ids[0]})]", "score": 50}]}))
        return Reply(status=400)

    events = []
    with OpenAIStub(reply) as stub:
        pipe = GlobalSearch(index, engine=llm_engine(stub), facts_graph=FACTS,
                            params=GlobalSearchParams(max_level=1, batch_tokens=1_500, concurrency=3))
        with pytest.raises(LLMError, match="refused"):
            for event in pipe.run(PARTNER):
                events.append(event)
    stages = stages_of(events)
    failing = next(b for b in values(index, stages["exploration"][0], TG.batch)
                   if any(one(index, r, TG.humanReadableId).value == "3" for r in values(index, b, TG.report)))
    number = int(one(index, failing, TG.batchNumber).value)
    assert number > 1 or "map" not in stages
    assert [m.value.rsplit("/", 1)[-1] for m in stages.get("map", [])] == [str(n) for n in range(1, number)]
