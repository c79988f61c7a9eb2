"""TrustGraph's own published reader (trustgraph-base 2.11.1) over traces ragprov recorded.

The judge is TrustGraph's code: ``ExplainabilityClient`` lists the sessions, walks each trace and
parses every entity; ``show_explain_trace.trace_to_dict`` shapes what its CLI prints. The only
ragprov-side code between them and the store is ``tests/interop/trustgraph_flow.py``: TrustGraph's
``flow.triples_query`` and ``library.get_document_content`` answered from the store, terms encoded
with TrustGraph's own ``TermTranslator``.

What TrustGraph's reader cannot recover from any trace (its own traces included) is said where it
matters: the order of concepts and of selected edges (it reads them in store order and keeps no
rank), and a session's start time (it reads ``prov:startedAtTime`` on the question, which PROV-O
keeps for activities; ragprov puts it on the session that used the question).
"""

from __future__ import annotations

import json

import pytest
from pyoxigraph import Literal, NamedNode, Triple

pytest.importorskip("trustgraph.api.explainability", reason="pip install 'ragprov[test]' (trustgraph-base)")

from trustgraph.api.explainability import (
    Conclusion,
    ExplainabilityClient,
    Observation,
    Question,
    Reflection,
    Synthesis,
)
from trustgraph.cli.show_explain_trace import print_agent_text, trace_to_dict

from ragprov.namespaces import XSD
from ragprov.record import ChunkSelection, EdgeSelection, Recorder
from ragprov.store import open_store

from .trustgraph_flow import StoreApi, StoreFlow

EDGES = [
    EdgeSelection(Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partnerOf"), NamedNode("urn:e:marley")),
                  reasoning="names the partner", score=0.93, concept="partner"),
    EdgeSelection(Triple(NamedNode("urn:e:marley"), NamedNode("urn:r:deadYears"), Literal("7", datatype=XSD.integer)),
                  reasoning="says how long he was dead", score=0.5, concept="Marley"),
    EdgeSelection(Triple(NamedNode("urn:e:marley"), NamedNode("urn:r:name"), Literal("Jacob \"old\" Marley")),
                  reasoning="gives the full name", score=0.25, concept="Marley"),
]


def _edge_dict(sel: EdgeSelection) -> dict:
    return {"s": sel.edge.subject.value, "p": sel.edge.predicate.value, "o": sel.edge.object.value}


def _graph_rag(recorder: Recorder, query="Who was Scrooge's partner?", used=None):
    t = recorder.graph_rag(query, model="offline", used=used)
    t.grounding(["Scrooge", "partner"], in_token=10, out_token=3)
    t.exploration([NamedNode("urn:e:scrooge"), NamedNode("urn:e:marley")], edge_count=17)
    t.focus(EDGES, in_token=50, out_token=9)
    t.synthesis("Jacob Marley, dead seven years.", in_token=80, out_token=12)
    return t


@pytest.fixture
def store():
    return open_store("memory:")


@pytest.fixture
def client(store):
    return ExplainabilityClient(StoreFlow(store), retry_delay=0, max_retries=2)


def _text(client, api, document):
    return client.fetch_document_content(document, api)


def test_graph_rag_trace_read_by_trustgraph(store, client):
    t = _graph_rag(Recorder(store))
    trace = client.fetch_graphrag_trace(t.question.value)

    question = trace["question"]
    assert isinstance(question, Question)
    assert (question.query, question.question_type) == ("Who was Scrooge's partner?", "graph-rag")
    # every stage, in order: each one is reached from the one before (TrustGraph's walk)
    assert trace["grounding"].uri == f"urn:trustgraph:prov:grounding:{t.id}"
    assert sorted(trace["grounding"].concepts) == ["Scrooge", "partner"]
    assert trace["exploration"].edge_count == 17
    assert sorted(trace["exploration"].entities) == ["urn:e:marley", "urn:e:scrooge"]
    focus = trace["focus"]
    got = {json.dumps(s.edge, sort_keys=True): (s.reasoning, s.score, s.concept) for s in focus.edge_selections}
    want = {json.dumps(_edge_dict(s), sort_keys=True): (s.reasoning, s.score, s.concept) for s in EDGES}
    assert got == want
    assert isinstance(trace["synthesis"], Synthesis)
    assert _text(client, StoreApi(store), trace["synthesis"].document) == "Jacob Marley, dead seven years."

    # TrustGraph's CLI JSON form of the same trace
    as_cli = trace_to_dict(trace, "graphrag")
    assert (as_cli["question_id"], as_cli["question"]) == (t.question.value, "Who was Scrooge's partner?")
    assert as_cli["exploration"]["edge_count"] == 17
    assert len(as_cli["focus"]["selected_edges"]) == len(EDGES)
    assert as_cli["synthesis"]["document"] == trace["synthesis"].document


@pytest.mark.parametrize("reranked", [True, False], ids=["reranked", "plain"])
def test_doc_rag_trace_read_by_trustgraph(store, client, reranked):
    recorder = Recorder(store)
    t = recorder.doc_rag("How long had Marley been dead?")
    t.grounding(["Marley", "dead"])
    chunks = [NamedNode(f"urn:doc:carol/c{i}") for i in range(4)]
    t.exploration(chunks)
    if reranked:
        t.focus([ChunkSelection(chunks[2], score=3.5), ChunkSelection(chunks[0], score=1.0)])
    t.synthesis("Seven years.")

    trace = client.fetch_docrag_trace(t.question.value)
    assert trace["question"].question_type == "document-rag"
    assert trace["question"].query == "How long had Marley been dead?"
    assert sorted(trace["grounding"].concepts) == ["Marley", "dead"]
    assert trace["exploration"].chunk_count == 4
    assert trace["synthesis"] is not None, "TrustGraph reaches a DocRAG answer from its exploration"
    assert _text(client, StoreApi(store), trace["synthesis"].document) == "Seven years."


def _agent(store):
    recorder = Recorder(store)
    a = recorder.agent("Who was Marley?", model="offline")
    a.analysis("Ask the knowledge graph.", "knowledge-query", '{"question": "Who was Marley?"}')
    sub = _graph_rag(recorder, query="Who was Marley?", used=a.last)
    a.observation("Marley was Scrooge's partner.", duration=0.3, sub_trace_last=sub.last)
    a.analysis("Check the documents too.", "document-query", '{"question": "Marley"}')
    a.observation("document store unavailable", duration=0.01, tool_error="connection refused")
    a.conclusion("Marley was Scrooge's late partner.")
    return a, sub


def test_agent_trace_read_by_trustgraph(store, client):
    a, sub = _agent(store)
    api = StoreApi(store)
    trace = client.fetch_agent_trace(a.question.value)
    assert trace["question"].question_type == "agent"
    assert trace["question"].query == "Who was Marley?"

    steps = trace["steps"]
    kinds = [s["type"] if isinstance(s, dict) else type(s).__name__ for s in steps]
    assert kinds == ["Analysis", "sub-trace", "Observation", "Analysis", "Observation", "Conclusion"]

    first, embedded, obs1, second, obs2, conclusion = steps
    assert (first.action, json.loads(first.arguments)) == ("knowledge-query", {"question": "Who was Marley?"})
    assert (second.action, json.loads(second.arguments)) == ("document-query", {"question": "Marley"})
    # the thought: an entity TrustGraph parses as a Reflection whose document holds the text
    thought = client.fetch_entity(first.thought, "urn:graph:retrieval")
    assert isinstance(thought, Reflection) and thought.reflection_type == "thought"
    assert _text(client, api, thought.document) == "Ask the knowledge graph."

    # the sub-trace is embedded, whole, where the tool ran it
    assert embedded["question"].uri == sub.question.value
    inner = embedded["trace"]
    assert inner["grounding"] is not None and inner["exploration"] is not None
    assert len(inner["focus"].edge_selections) == len(EDGES)
    assert _text(client, api, inner["synthesis"].document) == "Jacob Marley, dead seven years."

    assert isinstance(obs1, Observation) and _text(client, api, obs1.document) == "Marley was Scrooge's partner."
    assert isinstance(obs2, Observation) and _text(client, api, obs2.document) == "document store unavailable"
    assert isinstance(conclusion, Conclusion)
    assert _text(client, api, conclusion.document) == "Marley was Scrooge's late partner."


def test_trustgraph_lists_top_level_sessions_only(store, client):
    a, _sub = _agent(store)
    g = _graph_rag(Recorder(store), query="Another question")
    listed = {q.uri: q.question_type for q in client.list_sessions()}
    assert listed == {a.question.value: "agent", g.question.value: "graph-rag"}
    assert client.detect_session_type(a.question.value) == "agent"


def test_trustgraph_cli_text_of_an_agent_trace(store, client, capsys):
    """TrustGraph's CLI text form (``print_agent_text``). Its JSON form (``trace_to_dict``) cannot
    be used on any agent trace with a sub-trace, TrustGraph's own included: in 2.11.1 it reads
    ``entity_type`` off the sub-trace step, a dict."""
    a, _sub = _agent(store)
    print_agent_text(client.fetch_agent_trace(a.question.value), client, StoreApi(store))
    out = capsys.readouterr().out
    assert "Question: Who was Marley?" in out
    assert out.count("--- Analysis ---") == 2 and out.count("--- Observation ---") == 2
    for text in ("knowledge-query", "document-query", "Marley was Scrooge's partner.", "document store unavailable",
                 "Marley was Scrooge's late partner."):
        assert text in out
