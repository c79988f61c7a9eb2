"""Recording realistic traces of every kind, for tests and benchmarks."""

from __future__ import annotations

from pyoxigraph import Literal, NamedNode, Triple

from ragprov.namespaces import XSD
from ragprov.record import ChunkSelection, EdgeSelection, HopStats, Recorder


def graph_rag_inputs(n: int = 0, *, concepts: int = 5, seeds: int = 50, edges: int = 25, query: str | None = None,
                     entity_groups: int | None = 97) -> dict:
    """What a GraphRAG pipeline hands the recorder for one realistic trace (built, not recorded).

    Trace ``n`` keeps the entities and edges of group ``n % entity_groups`` (97 groups: traces
    share them, as questions about the same few entities do); ``entity_groups=None`` gives every
    trace entities and edges of its own (what a store answering questions about a large graph
    sees: no kept edge was quoted by an earlier trace).
    """
    group = n if entity_groups is None else n % entity_groups
    selections = []
    for i in range(edges):
        obj = Literal(str(i), datatype=XSD.integer) if i % 5 == 4 else NamedNode(f"urn:e:{group}:{i + 1}")
        edge = Triple(NamedNode(f"urn:e:{group}:{i}"), NamedNode(f"urn:r:rel{i % 7}"), obj)
        selections.append(
            EdgeSelection(
                edge,
                reasoning=f"edge {i} mentions concept {i % concepts}",
                score=1.0 - i / 100,
                concept=f"concept {n}-{i % concepts}",
            )
        )
    return {
        "query": query or f"Question {n}: who knew Scrooge?",
        "concepts": [f"concept {n}-{i}" for i in range(concepts)],
        "entities": [NamedNode(f"urn:e:{group}:{i}") for i in range(seeds)],
        "edge_count": seeds * 6,
        "hops": [HopStats(1, 350, 120), HopStats(2, 350, 180)],
        "selections": selections,
        "answer": f"Answer {n}: Scrooge knew Marley.",
    }


def record_graph_rag(recorder: Recorder, inputs: dict, *, used=None):
    """Record one GraphRAG trace from :func:`graph_rag_inputs`: the five stage calls a pipeline makes."""
    t = recorder.graph_rag(inputs["query"], model="test-model/1", used=used)
    t.grounding(inputs["concepts"], in_token=120, out_token=30, prompt="extract-concepts@1")
    t.exploration(inputs["entities"], edge_count=inputs["edge_count"], hops=inputs["hops"])
    t.focus(inputs["selections"], in_token=800, out_token=200, prompt="select-edges@1")
    t.synthesis(inputs["answer"], in_token=600, out_token=80, prompt="synthesize@1")
    return t


def graph_rag_trace(
    recorder: Recorder,
    n: int = 0,
    *,
    concepts: int = 5,
    seeds: int = 50,
    edges: int = 25,
    query: str | None = None,
    used=None,
):
    """A GraphRAG trace of realistic size: 5 concepts, 50 seed entities, 25 selected edges."""
    return record_graph_rag(recorder, graph_rag_inputs(n, concepts=concepts, seeds=seeds, edges=edges, query=query), used=used)


def doc_rag_trace(recorder: Recorder, n: int = 0):
    t = recorder.doc_rag(f"DocRAG question {n}", model="test-model/1")
    t.grounding(["ghost", "christmas"])
    chunks = [NamedNode(f"urn:doc:{n}/c{i}") for i in range(6)]
    t.exploration(chunks)
    t.focus([ChunkSelection(c, score=5.0 - i) for i, c in enumerate(chunks[:3])], prompt="bm25-rerank@1")
    t.synthesis("The ghosts visit at Christmas.")
    return t


def agent_trace(recorder: Recorder, n: int = 0, *, fail_tool: bool = False):
    """An agent that calls knowledge-query (a GraphRAG sub-trace), then concludes."""
    a = recorder.agent(f"Agent question {n}", model="test-model/1")
    a.analysis("I should query the knowledge graph.", "knowledge-query", '{"question": "who is Marley"}')
    sub = graph_rag_trace(recorder, n + 1000, concepts=2, seeds=3, edges=2, query="who is Marley", used=a.last)
    if fail_tool:
        a.observation("tool failed: timeout", duration=1.5, tool_error="timeout after 1.5 s")
    else:
        a.observation("Marley was Scrooge's partner.", duration=0.2, sub_trace_last=sub.last)
    a.conclusion("Marley was Scrooge's partner.", termination_reason="final-answer")
    return a, sub
