"""Navigation views: the right stages, in order, in a constant number of queries, on every engine."""

from __future__ import annotations

import datetime as dt

import pyoxigraph as ox
import pytest
from pyoxigraph import NamedNode

from ragprov.errors import InvalidValueError, NotFoundError
from ragprov.namespaces import TG
from ragprov.navigate import Navigator
from ragprov.record import Recorder

from .builders import agent_trace, doc_rag_trace, graph_rag_trace


@pytest.fixture
def traces(store, clock):
    recorder = Recorder(store, clock=clock)
    g = graph_rag_trace(recorder, 1, edges=5)
    d = doc_rag_trace(recorder, 2)
    a, sub = agent_trace(recorder, 3)
    incomplete = recorder.graph_rag("never finished")
    incomplete.grounding(["x"])
    return store, {"graph": g, "doc": d, "agent": a, "sub": sub, "incomplete": incomplete}


def test_list_is_top_level_newest_first(traces):
    store, t = traces
    rows = Navigator(store).list_traces()
    assert [r.question for r in rows] == [t["incomplete"].question, t["agent"].question, t["doc"].question, t["graph"].question]
    assert t["sub"].question not in [r.question for r in rows]  # a sub-trace is not top-level
    assert [r.complete for r in rows] == [False, True, True, True]
    assert rows[1].kind == "AgentQuestion" and rows[3].model == "test-model/1"


def test_list_filters(traces):
    store, t = traces
    nav = Navigator(store)
    assert [r.question for r in nav.list_traces(kind="doc-rag")] == [t["doc"].question]
    assert len(nav.list_traces(limit=2)) == 2
    since = nav.list_traces()[1].started
    assert {r.question for r in nav.list_traces(since=since)} == {t["incomplete"].question, t["agent"].question}
    with pytest.raises(InvalidValueError, match="unknown trace type"):
        nav.list_traces(kind="nonsense")


def test_show_graph_rag(traces):
    store, t = traces
    trace = Navigator(store).trace(t["graph"].question)
    assert [s.kind for s in trace.stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    assert [s.iri for s in trace.stages] == [e.explain_id for e in t["graph"].events[1:]]
    focus = trace.stage("Focus")
    assert [s.rank for s in focus.selections] == [1, 2, 3, 4, 5]
    assert all(isinstance(s.edge, ox.Triple) for s in focus.selections)
    assert focus.selections[0].edge == ox.Triple(NamedNode("urn:e:1:0"), NamedNode("urn:r:rel0"), NamedNode("urn:e:1:1"))
    assert focus.selections[4].edge.object.datatype.value.endswith("#integer")
    assert focus.selections[0].reasoning == "edge 0 mentions concept 0"
    assert trace.answer == "Answer 1: Scrooge knew Marley."
    # RDF keeps no order among a property's values: compare the concepts as a set.
    assert sorted(trace.stage("Grounding").values(TG.concept)) == [f"concept 1-{i}" for i in range(5)]


def test_show_doc_rag(traces):
    store, t = traces
    trace = Navigator(store).trace(t["doc"].question)
    assert [s.kind for s in trace.stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    focus = trace.stage("Focus")
    assert [s.chunk.value for s in focus.selections] == ["urn:doc:2/c0", "urn:doc:2/c1", "urn:doc:2/c2"]
    assert [s.score for s in focus.selections] == [5.0, 4.0, 3.0]


def test_show_agent_with_sub_trace(traces):
    store, t = traces
    nav = Navigator(store)
    trace = nav.trace(t["agent"].question)
    assert [s.kind for s in trace.stages] == ["Analysis", "Observation", "Conclusion"]
    assert [sub.question for sub in trace.stages[0].subtraces] == [t["sub"].question]
    assert trace.stages[0].content == "I should query the knowledge graph."
    # The sub-trace holds its own stages only: the agent's observation derives from its last stage,
    # but does not belong to it.
    sub = nav.trace(t["sub"].question)
    assert [s.kind for s in sub.stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]


def test_stage_view(traces):
    store, t = traces
    stage = Navigator(store).stage(t["graph"].events[3].explain_id)
    assert stage.kind == "Focus" and len(stage.selections) == 5
    with pytest.raises(NotFoundError):
        Navigator(store).stage(NamedNode("urn:trustgraph:prov:focus:missing"))


def test_incomplete(traces):
    store, t = traces
    rows = Navigator(store).incomplete()
    assert [(s.question, n) for s, n in rows] == [(t["incomplete"].question, 1)]


def test_unknown_trace_is_not_found(traces):
    store, _ = traces
    with pytest.raises(NotFoundError, match="ragprov traces"):
        Navigator(store).trace("urn:trustgraph:question:nope")


def test_delete_one_trace_leaves_the_others(traces):
    store, t = traces
    nav = Navigator(store)
    nav.delete(t["agent"].question)
    remaining = {r.question for r in nav.list_traces()}
    assert remaining == {t["graph"].question, t["doc"].question, t["incomplete"].question}
    with pytest.raises(NotFoundError):
        nav.trace(t["sub"].question)  # the agent's sub-trace went with it
    assert [s.kind for s in nav.trace(t["graph"].question).stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    with pytest.raises(NotFoundError, match="nothing deleted"):
        nav.delete(t["agent"].question)


def test_delete_before_is_retention(traces):
    store, t = traces
    nav = Navigator(store)
    cutoff = nav.list_traces()[1].started  # the agent trace's start: keep it and the newer one
    nav.delete_before(cutoff)
    assert {r.question for r in nav.list_traces()} == {t["agent"].question, t["incomplete"].question}
    assert [s.kind for s in nav.trace(t["agent"].question).stages] == ["Analysis", "Observation", "Conclusion"]
    nav.delete_before(dt.datetime(2100, 1, 1, tzinfo=dt.timezone.utc))
    assert nav.list_traces() == []
    library = store.select("SELECT ?s ?p ?o WHERE { GRAPH <urn:graph:library> { ?s ?p ?o } }")
    names = {v.id: k for k, v in t.items()}
    left = sorted({next((n for i, n in names.items() if i in r["s"].value), r["s"].value) for r in library})
    assert left == [], f"library content outlived its traces: {left}"


class _Counting:
    def __init__(self, store):
        self.store, self.queries = store, 0
        self.dialect = store.dialect

    def select(self, sparql):
        self.queries += 1
        return self.store.select(sparql)

    def ask(self, sparql):
        self.queries += 1
        return self.store.ask(sparql)


@pytest.mark.parametrize("edges", [2, 25])
def test_views_cost_a_constant_number_of_queries(memory_store, clock, edges):
    recorder = Recorder(memory_store, clock=clock)
    t = graph_rag_trace(recorder, edges=edges)
    counting = _Counting(memory_store)
    nav = Navigator(counting)
    nav.trace(t.question)
    nav.stage(t.events[3].explain_id)
    nav.list_traces()
    nav.labels([e for e in t.events[3].explain_triples])
    assert counting.queries == 4


def test_a_bare_session_id_names_its_trace(traces):
    store, t = traces
    nav = Navigator(store)
    for key in ("graph", "doc", "agent"):
        assert nav.trace(t[key].id).question == t[key].question
    with pytest.raises(NotFoundError, match="no trace with session id"):
        nav.trace("0000-no-such-session")
    with pytest.raises(InvalidValueError):
        nav.trace("not an id!")


def test_a_stage_iri_is_not_a_trace(traces):
    store, t = traces
    with pytest.raises(NotFoundError, match="a stage IRI"):
        Navigator(store).trace(t["graph"].events[3].explain_id)


def test_a_sub_trace_is_deleted_with_its_caller_only(traces):
    store, t = traces
    nav = Navigator(store)
    assert nav.caller(t["sub"].question) == t["agent"].question
    assert nav.caller(t["agent"].question) is None
    with pytest.raises(InvalidValueError, match="sub-trace run by"):
        nav.delete(t["sub"].question)
    assert [s.kind for s in nav.trace(t["sub"].question).stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]


def test_an_empty_question_is_refused(memory_store):
    from ragprov.record import Recorder

    for text in ("", "   \n"):
        with pytest.raises(InvalidValueError, match="empty question"):
            Recorder(memory_store).graph_rag(text)
    assert memory_store.count() == 0
