"""What the recorder actually writes is what the ontology and the shapes describe.

Traces of every kind are recorded through the public :class:`ragprov.record.Recorder` into an
embedded store (RDF 1.2 triple terms), dumped, and checked: SHACL-valid, and HermiT-consistent
with the ontology.
"""

from __future__ import annotations

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from ragprov.qc import check_consistency, validate_trace
from ragprov.record import ChunkSelection, EdgeSelection, HopStats, Recorder
from ragprov.store import open_store

XSD_INTEGER = NamedNode("http://www.w3.org/2001/XMLSchema#integer")


def _graph_rag(recorder: Recorder, *, used=None, query="Who was Marley?"):
    t = recorder.graph_rag(query, model="offline-lexical/1", used=used)
    t.grounding(["Marley", "partner"], in_token=40, out_token=6, prompt="extract-concepts@1")
    t.exploration([NamedNode("urn:e:marley"), NamedNode("urn:e:scrooge")], edge_count=12,
                  hops=[HopStats(1, 8, 8), HopStats(2, 30, 4)])
    t.focus([
        EdgeSelection(Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partnerOf"), NamedNode("urn:e:marley")),
                      reasoning="names the partner", score=0.9, concept="partner"),
        EdgeSelection(Triple(NamedNode("urn:e:marley"), NamedNode("urn:r:deadYears"), Literal("7", datatype=XSD_INTEGER)),
                      score=0.5),
    ], prompt="kg-edge-scoring@1")
    t.synthesis("Marley was Scrooge's partner, dead seven years.", in_token=90, out_token=12)
    return t


@pytest.fixture(scope="module")
def recorded() -> bytes:
    store = open_store("memory:")
    recorder = Recorder(store)
    _graph_rag(recorder)

    reranked = recorder.doc_rag("How long had Marley been dead?", model="offline-lexical/1")
    reranked.grounding(["Marley", "dead"])
    chunks = [NamedNode(f"urn:doc:carol/c{i}") for i in range(4)]
    reranked.exploration(chunks)
    reranked.focus([ChunkSelection(chunks[2], score=3.5), ChunkSelection(chunks[0])], prompt="bm25-rerank@1")
    reranked.synthesis("Seven years.")

    plain = recorder.doc_rag("Where did Scrooge live?")
    plain.grounding(["Scrooge"])
    plain.exploration(chunks[:1])
    plain.synthesis("In Marley's old chambers.")

    agent = recorder.agent("Who was Marley?", model="offline-lexical/1")
    agent.analysis("Ask the knowledge graph.", "knowledge-query", '{"question": "Who was Marley?"}')
    sub = _graph_rag(recorder, used=agent.last)
    agent.observation("Marley was Scrooge's partner.", duration=0.3, sub_trace_last=sub.last)
    agent.analysis("Check the documents too.", "document-query", '{"question": "Marley"}')
    agent.observation("document store unavailable", duration=0.01, tool_error="connection refused")
    agent.conclusion("Marley was Scrooge's late partner.", termination_reason="final-answer")

    unfinished = recorder.graph_rag("Unfinished question")
    unfinished.grounding(["unfinished"])
    return store.dump(format="nquads")


def test_recorded_traces_are_valid(recorded):
    report = validate_trace(recorded, format="nquads")
    assert report.conforms, str(report)
    assert report.results == ()


@pytest.mark.slow
def test_recorded_traces_are_consistent_with_the_ontology(recorded):
    report = check_consistency(recorded, format="nquads")
    assert report.ok, report.explanation


@pytest.fixture(scope="module")
def searched() -> list:
    """Traces of Microsoft GraphRAG local, global and DRIFT search (and GraphRAG, agent) over the bundled index."""
    from pyoxigraph import RdfFormat, parse

    from ragprov.loaders.graphrag import load_graphrag
    from ragprov.pipelines import pipeline
    from ragprov.resources import data_dir

    facts = NamedNode("urn:graph:facts")
    store = open_store("memory:")
    load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=facts, show_progress=False)
    for kind, question in (("local", "Who is Tiny Tim?"), ("global", "What are the main themes?"),
                           ("drift", "How does Scrooge change?"), ("graph-rag", "Who is Scrooge?"),
                           ("agent", "Who was Marley?"), ("basic", "Who was Scrooge's business partner?")):
        list(pipeline(kind, store, facts_graph=facts).run(question))
    # global search with dynamic community selection: a CommunitySelection stage of ReportRatings
    list(pipeline("global", store, facts_graph=facts, dynamic_selection=True).run("Who was Scrooge's business partner?"))
    keep = {"urn:graph:retrieval", "urn:graph:library"}
    quads = [q for q in parse(store.dump(format="nquads"), format=RdfFormat.N_QUADS)
             if getattr(q.graph_name, "value", None) in keep]
    kinds = {q.object.value.rsplit("/", 1)[-1] for q in quads
             if q.predicate.value.endswith("#type") and q.object.value.endswith("Question")}
    assert {"LocalSearchQuestion", "GlobalSearchQuestion", "DriftSearchQuestion", "GraphRagQuestion", "AgentQuestion",
            "BasicSearchQuestion"} <= kinds
    assert any(q.predicate.value.endswith("#type") and q.object.value.endswith("/ReportRating") for q in quads)
    return quads


def test_search_pipeline_traces_are_valid(searched):
    report = validate_trace(searched)
    assert report.conforms, str(report)


@pytest.mark.slow
def test_search_pipeline_traces_are_consistent_with_the_ontology(searched):
    report = check_consistency(searched)
    assert report.ok, report.explanation
