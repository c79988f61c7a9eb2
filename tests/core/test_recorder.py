"""The recorder: one update per stage, the IRIs of §4, PROV-O links, events that match the store."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from pyoxigraph import NamedNode

from ragprov.errors import RecordingError
from ragprov.namespaces import PROV, RETRIEVAL_GRAPH, TG
from ragprov.record import EdgeSelection, Recorder, event_from_json, event_to_json
from ragprov.store import EmbeddedStore

from .builders import agent_trace, doc_rag_trace, graph_rag_trace


class CountingStore(EmbeddedStore):
    def __init__(self):
        super().__init__()
        self.updates: list[str] = []

    def update(self, sparql):
        self.updates.append(sparql)
        super().update(sparql)


def _ids():
    n = iter(range(10**6))
    return lambda: f"id{next(n)}"


def test_one_update_per_stage(clock):
    store = CountingStore()
    t = graph_rag_trace(Recorder(store, clock=clock, new_id=_ids()))
    assert len(store.updates) == 5 == len(t.events)
    assert all(u.lstrip().startswith(("PREFIX", "INSERT")) for u in store.updates)


def test_graphrag_iris_and_links(clock):
    store = EmbeddedStore()
    t = graph_rag_trace(Recorder(store, clock=clock, new_id=_ids()))
    assert t.question == NamedNode("urn:trustgraph:question:id0")
    ids = [e.explain_id.value for e in t.events]
    assert ids == [
        "urn:trustgraph:question:id0",
        "urn:trustgraph:prov:grounding:id0",
        "urn:trustgraph:prov:exploration:id0",
        "urn:trustgraph:prov:focus:id0",
        "urn:trustgraph:prov:synthesis:id0",
    ]
    g = RETRIEVAL_GRAPH
    has = lambda s, p, o: any(store.raw.quads_for_pattern(NamedNode(s), p, o, g))  # noqa: E731
    assert has(ids[1], PROV.wasGeneratedBy, t.question)
    assert not has(ids[2], PROV.wasGeneratedBy, t.question)
    assert has(ids[2], PROV.wasDerivedFrom, NamedNode(ids[1]))
    assert has(ids[4], PROV.wasDerivedFrom, NamedNode(ids[3]))
    # No entity is ever derived from the question activity (Activity and Entity are disjoint).
    assert not any(store.raw.quads_for_pattern(None, PROV.wasDerivedFrom, t.question, g))
    assert has(t.question.value, PROV.endedAtTime, None)
    sel = NamedNode("urn:trustgraph:prov:edge:id0:1")
    assert has(ids[3], TG.selectedEdge, sel)
    edge = next(store.raw.quads_for_pattern(sel, TG.edge, None, g)).object
    assert isinstance(edge, ox.Triple) and edge.subject == NamedNode("urn:e:0:0")


def test_edge_keeps_typed_literals_not_labels(clock):
    store = EmbeddedStore()
    t = graph_rag_trace(Recorder(store, clock=clock, new_id=_ids()))
    focus = t.events[3]
    edges = [tr.object for tr in focus.explain_triples if tr.predicate == TG.edge]
    literal_edges = [e for e in edges if isinstance(e.object, ox.Literal)]
    assert literal_edges and literal_edges[0].object.datatype.value.endswith("#integer")


@pytest.mark.parametrize("builder", [graph_rag_trace, doc_rag_trace, lambda r: agent_trace(r)[0]])
def test_explain_triples_are_what_the_store_holds(store, builder, clock):
    recorder = Recorder(store, clock=clock, new_id=_ids())
    trace = builder(recorder)
    for event in trace.events:
        assert event.explain_graph == RETRIEVAL_GRAPH
        assert event.explain_triples, event.stage
        # every explain triple about the stage itself is in the store
        own = [t for t in event.explain_triples if t.subject == event.explain_id and not isinstance(t.object, ox.Triple)]
        rows = store.select(
            recorder.catalog.render("trace/stage", store.dialect, stage=event.explain_id)
        ) if event.stage != "question" else None
        if rows is not None:
            stored = {(r["p"], _value(r["o"])) for r in rows if r["node"] == event.explain_id}
            assert {(t.predicate, _value(t.object)) for t in own} <= stored


def _value(term):
    """Stores may rewrite a number's lexical form (Jena: 0.2 -> 0.2e0): compare numbers by value."""
    if isinstance(term, ox.Literal) and term.datatype.value.endswith(("#double", "#integer", "#decimal")):
        return (term.datatype, float(term.value))
    return term


def test_events_round_trip_through_json(clock):
    t = graph_rag_trace(Recorder(EmbeddedStore(), clock=clock, new_id=_ids()))
    for event in t.events:
        back = event_from_json(event_to_json(event))
        assert back == event


def test_explain_triples_are_rdf12_in_every_dialect(clock):
    store = EmbeddedStore()
    from ragprov.sparql import Dialect

    store.dialect = Dialect.REIFICATION
    t = graph_rag_trace(Recorder(store, clock=clock, new_id=_ids()), edges=3)
    edges = [tr.object for tr in t.events[3].explain_triples if tr.predicate == TG.edge]
    assert len(edges) == 3 and all(isinstance(e, ox.Triple) for e in edges)


def test_stage_order_is_enforced(clock):
    r = Recorder(EmbeddedStore(), clock=clock)
    t = r.graph_rag("q")
    with pytest.raises(RecordingError, match="focus cannot be recorded first"):
        t.focus([])
    t.grounding(["a"])
    with pytest.raises(RecordingError):
        t.synthesis("too early")
    t.exploration([], edge_count=0)
    t.synthesis("done")
    with pytest.raises(RecordingError, match="has ended"):
        t.synthesis("again")


def test_agent_order_is_enforced(clock):
    a = Recorder(EmbeddedStore(), clock=clock).agent("q")
    with pytest.raises(RecordingError, match="needs the analysis"):
        a.observation("x", duration=0.1)
    a.analysis("t", "tool", "{}")
    with pytest.raises(RecordingError, match="waiting for its observation"):
        a.analysis("t", "tool", "{}")


def test_agent_sub_trace_links(clock):
    store = EmbeddedStore()
    a, sub = agent_trace(Recorder(store, clock=clock, new_id=_ids()))
    analysis = NamedNode(f"{a.question.value}/i1")
    observation = NamedNode(f"{a.question.value}/i1/observation")
    g = RETRIEVAL_GRAPH
    assert any(store.raw.quads_for_pattern(sub.question, PROV.used, analysis, g))
    assert any(store.raw.quads_for_pattern(observation, PROV.wasDerivedFrom, analysis, g))
    assert any(store.raw.quads_for_pattern(observation, PROV.wasDerivedFrom, sub.last, g))
    assert any(store.raw.quads_for_pattern(analysis, PROV.wasGeneratedBy, a.question, g))


def test_failed_tool_records_an_error_observation(clock):
    store = EmbeddedStore()
    a, _ = agent_trace(Recorder(store, clock=clock, new_id=_ids()), fail_tool=True)
    obs = NamedNode(f"{a.question.value}/i1/observation")
    assert any(store.raw.quads_for_pattern(obs, ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), TG.Error, RETRIEVAL_GRAPH))
    assert any(store.raw.quads_for_pattern(obs, TG.toolError, None, RETRIEVAL_GRAPH))


def test_explain_events_carry_their_library_content(clock):
    t = graph_rag_trace(Recorder(EmbeddedStore(), clock=clock, new_id=_ids()))
    synthesis = t.events[4]
    assert [(tr.predicate, tr.object.value) for tr in synthesis.library_triples if tr.predicate == TG.content] == [
        (TG.content, "Answer 0: Scrooge knew Marley.")
    ]
    assert t.events[1].library_triples == []  # a grounding has no large content
    back = event_from_json(event_to_json(synthesis))
    assert back.library_triples == synthesis.library_triples


def test_large_text_goes_to_the_library_graph(clock):
    store = EmbeddedStore()
    t = graph_rag_trace(Recorder(store, clock=clock, new_id=_ids()))
    answers = list(store.raw.quads_for_pattern(None, TG.content, None, NamedNode("urn:graph:library")))
    assert [q.object.value for q in answers] == ["Answer 0: Scrooge knew Marley."]
    assert not any(store.raw.quads_for_pattern(None, TG.content, None, RETRIEVAL_GRAPH))


def test_a_failed_write_records_nothing_of_the_stage(clock):
    class Failing(EmbeddedStore):
        def update(self, sparql):
            if "tg:Focus" in sparql:
                from ragprov.errors import StoreUnavailableError

                raise StoreUnavailableError("down")
            super().update(sparql)

    store = Failing()
    from ragprov.errors import StoreUnavailableError

    t = Recorder(store, clock=clock).graph_rag("q")
    t.grounding(["a"])
    t.exploration([], edge_count=0)
    with pytest.raises(StoreUnavailableError):
        t.focus([EdgeSelection(ox.Triple(NamedNode("urn:a"), NamedNode("urn:b"), NamedNode("urn:c")))])
    assert not any(store.raw.quads_for_pattern(None, TG.selectedEdge, None, None))
