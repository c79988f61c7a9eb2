"""DocRAG end to end with a scripted LLM (rerank + streamed synthesis) and offline."""

from __future__ import annotations

from pyoxigraph import Literal

from ragprov.namespaces import PROV, TG
from ragprov.pipelines import DocRag, DocRagParams
from ragprov.record import ChunkEvent, EndOfSession, ExplainEvent, event_from_json, event_to_json

from . import graphs
from .conftest import llm_engine, validate
from .test_graphrag import one, values


def test_docrag_with_llm_reranks_and_cites(carol_store, recorder_for, llm):
    pipe = DocRag(carol_store, engine=llm_engine(llm), recorder=recorder_for(carol_store))
    events = list(pipe.run("What did Scrooge's nephew Fred wish his uncle?"))
    explains = [e for e in events if isinstance(e, ExplainEvent)]
    assert [e.stage for e in explains] == ["question", "grounding", "exploration", "focus", "synthesis"]
    assert "".join(e.content for e in events if isinstance(e, ChunkEvent)) == "Fred came into the counting-house [1]."
    question, grounding, exploration, focus, synthesis = (e.explain_id for e in explains)
    s = carol_store
    assert one(s, grounding, PROV.wasGeneratedBy) == question
    assert one(s, exploration, PROV.wasDerivedFrom) == grounding
    assert one(s, focus, PROV.wasDerivedFrom) == exploration
    assert one(s, synthesis, PROV.wasDerivedFrom) == focus
    retrieved = values(s, exploration, TG.selectedChunk)
    assert graphs.chunk_iri("c1") in retrieved
    assert int(one(s, exploration, TG.chunkCount).value) == len(retrieved)
    kept = values(s, focus, TG.selectedChunk)
    assert len(kept) == 2  # the scripted reranker keeps two
    assert one(s, focus, TG.prompt) == Literal("docrag-rerank@1")
    assert one(s, synthesis, TG.prompt) == Literal("docrag-synthesis@1")
    end = events[-1]
    assert isinstance(end, EndOfSession) and (end.in_token, end.out_token) == (30 + 90 + 80, 6 + 12 + 8)
    # the first retrieved chunk (best BM25) is the nephew's, and it is cited with its page
    assert end.sources[0].chunk == graphs.chunk_iri("c1") and end.sources[0].page == 1
    validate(s)
    for e in events:
        assert event_from_json(event_to_json(e)) == e


def test_offline_docrag_without_reranking_has_no_focus(carol_store, recorder_for):
    pipe = DocRag(carol_store, recorder=recorder_for(carol_store), params=DocRagParams(rerank=False, keep=1))
    events = list(pipe.run("Who was ill?"))
    assert [e.stage for e in events if isinstance(e, ExplainEvent)] == ["question", "grounding", "exploration", "synthesis"]
    assert pipe.result.answer.startswith("The answer is Tiny Tim [1].\n")
    assert "- His son Tiny Tim was ill. [1]" in pipe.result.answer
    assert "A Christmas Carol, p. 1, chunk 2" in pipe.result.answer
    validate(carol_store)
