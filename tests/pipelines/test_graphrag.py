"""GraphRAG end to end: with a scripted LLM over HTTP (streaming included) and with the offline
engine, checking the events and the recorded trace (stages, derivations, model, tokens, prompts)."""

from __future__ import annotations

import json

import pytest
from pyoxigraph import Literal, NamedNode

from ragprov.errors import ConfigurationError, LLMError
from ragprov.namespaces import PROV, TG
from ragprov.pipelines import GraphRag, GraphRagParams
from ragprov.record import ChunkEvent, EndOfSession, ExplainEvent, event_from_json, event_to_json

from . import graphs
from .conftest import FACTS, llm_engine, validate

Q = "Who is Scrooge's nephew?"


def values(store, s: NamedNode, p: NamedNode) -> list:
    return [q.object for q in store.raw.quads_for_pattern(s, p, None, None)]


def one(store, s, p):
    found = values(store, s, p)
    assert len(found) == 1, (s, p, found)
    return found[0]


def test_graphrag_with_a_streaming_llm_records_every_stage(carol_store, recorder_for, llm):
    pipe = GraphRag(carol_store, engine=llm_engine(llm), recorder=recorder_for(carol_store), facts_graph=FACTS)
    events = list(pipe.run(Q))

    explains = [e for e in events if isinstance(e, ExplainEvent)]
    assert [e.stage for e in explains] == ["question", "grounding", "exploration", "focus", "synthesis"]
    chunks = [e.content for e in events if isinstance(e, ChunkEvent)]
    assert len(chunks) > 1 and "".join(chunks) == "Fred is Scrooge's nephew [1]."
    end = events[-1]
    assert isinstance(end, EndOfSession)
    # tokens: concepts 30/6 + one scoring call per hop that had candidates 200/40 + synthesis 120/9
    scoring_calls = [r for r in llm.chat_requests() if "select the knowledge-graph edges" in r["json"]["messages"][0]["content"]]
    assert (end.in_token, end.out_token) == (30 + 200 * len(scoring_calls) + 120, 6 + 40 * len(scoring_calls) + 9)
    assert [s.chunk for s in end.sources] == [graphs.chunk_iri("c1")]
    assert end.sources[0].title == "A Christmas Carol" and end.sources[0].page == 1
    # streaming was used for the answer only
    streamed = [r["json"].get("stream", False) for r in llm.chat_requests()]
    assert streamed[-1] is True and not any(streamed[:-1])

    question, grounding, exploration, focus, synthesis = (e.explain_id for e in explains)
    s = carol_store
    assert one(s, question, TG.llmModel) == Literal("stub-model")
    assert one(s, grounding, PROV.wasGeneratedBy) == question
    assert one(s, exploration, PROV.wasDerivedFrom) == grounding
    assert one(s, focus, PROV.wasDerivedFrom) == exploration
    assert one(s, synthesis, PROV.wasDerivedFrom) == focus
    assert one(s, grounding, TG.prompt).value == "graphrag-concepts@1"
    assert one(s, focus, TG.prompt).value == "graphrag-edge-scoring@1"
    assert one(s, synthesis, TG.prompt).value == "graphrag-synthesis@1"
    assert (one(s, grounding, TG.inToken).value, one(s, grounding, TG.outToken).value) == ("30", "6")
    assert (one(s, synthesis, TG.inToken).value, one(s, synthesis, TG.outToken).value) == ("120", "9")
    assert sorted(c.value for c in values(s, grounding, TG.concept)) == ["Scrooge", "nephew"]
    # the kept edge is the original triple, with reasoning/score/concept from the model
    selections = values(s, focus, TG.selectedEdge)
    assert len(selections) == 1
    assert one(s, selections[0], TG.edge) == graphs.fact("fred", "nephew", "scrooge")
    assert one(s, selections[0], TG.concept).value == "nephew"
    assert float(one(s, selections[0], TG.score).value) == 0.9
    assert one(s, selections[0], TG.reasoning).value.startswith("names the nephew")
    # the key is sent to the server, never recorded
    dump = s.dump(format="nquads").decode()
    assert "sk-never-recorded" not in dump
    assert all(r["headers"]["Authorization"] == "Bearer sk-never-recorded" for r in llm.chat_requests())
    # the model saw labels, not IRIs
    scoring_prompt = scoring_calls[0]["json"]["messages"][1]["content"]
    assert "Fred | nephew of | Ebenezer Scrooge" in scoring_prompt and "urn:test:" not in scoring_prompt
    validate(s)
    # every event round-trips through the JSON wire form
    for e in events:
        assert event_from_json(event_to_json(e)) == e


def test_offline_graphrag_reads_the_facts_graph_only(carol_store, recorder_for):
    pipe = GraphRag(carol_store, recorder=recorder_for(carol_store), facts_graph=FACTS)
    events = list(pipe.run("Who was Scrooge's business partner?"))
    focus = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "focus")
    edges = [t.object for t in focus.explain_triples if t.predicate == TG.edge]
    assert edges[0] == graphs.fact("scrooge", "partner", "marley")
    # the decoy fact in urn:graph:source is never explored, and schema predicates are dropped
    assert all("secret" not in e.predicate.value for e in edges)
    assert all(e.predicate.value.startswith(graphs.R) or e.predicate.value == "urn:test:age" for e in edges)
    exploration = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "exploration")
    assert NamedNode("urn:test:decoy") not in [t.object for t in exploration.explain_triples]
    assert pipe.result.answer.startswith("The answer is Jacob Marley [1].\n")
    assert "Sources:\n[1] A Christmas Carol, p. 1, chunk 0" in pipe.result.answer
    assert pipe.engine.model == "ragprov-offline-bm25/1"
    validate(carol_store)


def test_without_the_facts_graph_setting_nothing_is_found(carol_store, recorder_for):
    # facts live in urn:graph:facts: the default graph is empty, and provenance is never read as facts
    pipe = GraphRag(carol_store, recorder=recorder_for(carol_store))
    list(pipe.run(Q))
    assert pipe.result.selected == 0
    assert pipe.result.answer.startswith("The data does not answer the question")
    assert pipe.result.answered is False


def test_hops_limits_and_counts(recorder_for, ids):
    from ragprov.store import EmbeddedStore

    store = EmbeddedStore()
    graphs.build(store)  # facts in the default graph
    params = GraphRagParams(entity_limit=1, triple_limit=2, max_hops=2, edges_per_hop=1, max_candidates=2)
    pipe = GraphRag(store, recorder=recorder_for(store), params=params)
    events = list(pipe.run("Who visits Scrooge?"))
    exploration = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "exploration")
    hops = {}
    for t in exploration.explain_triples:
        if t.predicate in (TG.hopNumber, TG.candidateCount, TG.keptCount):
            hops.setdefault(t.subject, {})[t.predicate] = int(t.object.value)
    by_number = sorted((h[TG.hopNumber], h[TG.candidateCount], h[TG.keptCount]) for h in hops.values())
    assert by_number[0][0] == 1 and by_number[0][1] <= 2 and by_number[0][2] <= 1
    assert all(c <= 2 and k <= 1 for _, c, k in by_number)
    entities = [t.object for t in exploration.explain_triples if t.predicate == TG.entity]
    assert len(entities) == 1
    with pytest.raises(ConfigurationError, match="triple limit must be at least 1"):
        GraphRagParams(triple_limit=0)


def test_llm_failure_mid_run_leaves_an_incomplete_trace_and_a_clear_error(carol_store, recorder_for):
    from .openai_stub import OpenAIStub, Reply

    def reply(req):
        if "extract search concepts" in req["messages"][0]["content"]:
            return Reply('["Scrooge"]')
        return Reply("nope", status=400)

    with OpenAIStub(reply) as stub:
        pipe = GraphRag(carol_store, engine=llm_engine(stub), recorder=recorder_for(carol_store), facts_graph=FACTS)
        seen = []
        with pytest.raises(LLMError, match="HTTP 400"):
            for e in pipe.run(Q):
                seen.append(e)
    assert [e.stage for e in seen if isinstance(e, ExplainEvent)] == ["question", "grounding"]


def test_same_question_twice_same_answer_and_edges(carol_store, recorder_for):
    runs = []
    for _ in range(2):
        pipe = GraphRag(carol_store, recorder=recorder_for(carol_store), facts_graph=FACTS)
        events = list(pipe.run(Q))
        focus = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "focus")
        runs.append((pipe.result.answer, [t.object for t in focus.explain_triples if t.predicate == TG.edge]))
    assert runs[0] == runs[1] and runs[0][1]
