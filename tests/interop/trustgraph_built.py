"""Traces and extraction provenance built by TrustGraph's OWN builder functions (trustgraph-base 2.11.1).

Nothing here writes a triple by hand: every triple comes from ``trustgraph.provenance``'s builders
(``question_triples``, ``focus_triples``, ``agent_iteration_triples``, ``subgraph_provenance_triples``
…), called the way TrustGraph's services call them, and is put in the named graph TrustGraph puts it
in (``set_graph``). The only ragprov-side step is turning TrustGraph's schema terms into pyoxigraph
quads, with :func:`tests.interop.trustgraph_flow.from_trustgraph`, to serialise them for
``ragprov import``.

What TrustGraph writes, and ragprov must read as it is: plain (untyped) literals for times, scores
and counts; the question itself carries ``prov:startedAtTime``; every stage derives from the one
before, back to the question, and nothing is ``prov:wasGeneratedBy`` a session; no ``tg:rank``
(the order is the index at the end of a selection's IRI); DocRAG chunk selections name their chunk
with ``tg:document``; a sub-trace's question derives from the agent iteration that ran it, and the
next observation derives from the sub-trace's synthesis; extracted facts are contained in a
subgraph (``?subgraph tg:contains <<s p o>>``) derived from their chunk.
"""

from __future__ import annotations

import dataclasses

import pyoxigraph as ox
from trustgraph import provenance as tgp
from trustgraph.schema import IRI, LITERAL, Term, Triple

from .trustgraph_flow import from_trustgraph

GRAPH_SID = "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0a01"
DOC_SID = "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0a02"
AGENT_SID = "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0a03"
SUB_SID = "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0a04"

DOCUMENT = "https://trustgraph.ai/doc/christmas-carol"
PAGE = "urn:page:7f1d0000-0000-4000-8000-000000000001"
CHUNKS = [f"urn:chunk:7f1d0000-0000-4000-8000-00000000001{i}" for i in range(4)]
SUBGRAPH = "https://trustgraph.ai/subgraph/7f1d0000-0000-4000-8000-000000000020"

SCROOGE, MARLEY = "http://trustgraph.ai/e/scrooge", "http://trustgraph.ai/e/marley"
PARTNER, NAME, DEAD = "http://trustgraph.ai/r/partner-of", "http://www.w3.org/2000/01/rdf-schema#label", "http://trustgraph.ai/r/dead-years"


def _iri(v: str) -> Term:
    return Term(type=IRI, iri=v)


def _lit(v: str) -> Term:
    return Term(type=LITERAL, value=v)


FACTS = [
    Triple(s=_iri(SCROOGE), p=_iri(PARTNER), o=_iri(MARLEY)),
    Triple(s=_iri(MARLEY), p=_iri(NAME), o=_lit("Jacob Marley")),
    Triple(s=_iri(MARLEY), p=_iri(DEAD), o=_lit("7")),
]
"""The extracted facts (TrustGraph's knowledge extraction writes them to the default graph)."""

EDGES = [
    {"edge": (FACTS[0].s, FACTS[0].p, FACTS[0].o), "reasoning": "names the partner", "score": 0.93, "concept": "partner"},
    {"edge": (FACTS[2].s, FACTS[2].p, FACTS[2].o), "reasoning": "says how long he was dead", "score": 0.5, "concept": "Marley"},
    {"edge": (FACTS[1].s, FACTS[1].p, FACTS[1].o), "reasoning": "gives the full name", "score": 0.25, "concept": "Marley"},
]
"""Selected edges, in the order TrustGraph's focus stage kept them (its selection IRIs end in 0, 1, 2)."""


@dataclasses.dataclass(frozen=True)
class Built:
    """What was built: the question IRIs and every quad, ready to serialise."""

    graph_rag: str
    doc_rag: str
    agent: str
    sub_trace: str
    quads: list[ox.Quad]

    def nquads(self) -> bytes:
        """The quads as N-Quads with RDF 1.2 triple terms (what ``ragprov import`` reads)."""
        return ox.serialize(self.quads, format=ox.RdfFormat.N_QUADS)


def _graph_rag(sid: str, query: str, *, when: str, parent: str | None = None) -> list[Triple]:
    q = tgp.question_uri(sid)
    return [
        *tgp.question_triples(q, query, timestamp=when, parent_uri=parent),
        *tgp.grounding_triples(tgp.grounding_uri(sid), q, ["Scrooge", "partner"], in_token=10, out_token=3, model="tg-llm"),
        *tgp.exploration_triples(tgp.exploration_uri(sid), tgp.grounding_uri(sid), 17, entities=[SCROOGE, MARLEY]),
        *tgp.focus_triples(tgp.focus_uri(sid), tgp.exploration_uri(sid), EDGES, session_id=sid, in_token=50, out_token=9),
        *tgp.synthesis_triples(tgp.synthesis_uri(sid), tgp.focus_uri(sid), document_id=f"urn:trustgraph:answer:{sid}"),
    ]


def _doc_rag(sid: str, query: str, *, when: str) -> list[Triple]:
    q, g, e = tgp.docrag_question_uri(sid), tgp.docrag_grounding_uri(sid), tgp.docrag_exploration_uri(sid)
    return [
        *tgp.docrag_question_triples(q, query, timestamp=when),
        *tgp.grounding_triples(g, q, ["Marley", "dead"]),
        *tgp.docrag_exploration_triples(e, g, len(CHUNKS), chunk_ids=CHUNKS),
        *tgp.docrag_chunk_selection_triples(
            tgp.docrag_focus_uri(sid), e, [{"chunk_id": CHUNKS[2], "score": 3.5}, {"chunk_id": CHUNKS[0], "score": 1.0}], sid
        ),
        *tgp.docrag_synthesis_triples(tgp.docrag_synthesis_uri(sid), e, document_id=f"urn:trustgraph:answer:{sid}"),
    ]


def _agent(sid: str, sub_sid: str, *, when: str) -> list[Triple]:
    """A ReAct agent: a knowledge query whose GraphRAG sub-trace is embedded, then a failing tool, then the answer."""
    q = tgp.agent_session_uri(sid)
    i1, i2 = tgp.agent_iteration_uri(sid, 1), tgp.agent_iteration_uri(sid, 2)
    o1, o2 = tgp.agent_observation_uri(sid, 1), tgp.agent_observation_uri(sid, 2)
    return [
        *tgp.agent_session_triples(q, "Who was Marley?", timestamp=when),
        *tgp.agent_iteration_triples(
            i1, question_uri=q, action="knowledge-query", arguments={"question": "Who was Marley?"},
            thought_uri=tgp.agent_thought_uri(sid, 1), thought_document_id=f"urn:trustgraph:agent:{sid}/i1/thought/doc",
            tool_candidates=["knowledge-query", "document-query"], step_number=1, llm_duration_ms=420,
        ),
        # the tool ran a GraphRAG session: its question derives from the iteration (parent_uri) ...
        *_graph_rag(sub_sid, "Who was Marley?", when=when, parent=i1),
        # ... and the observation derives from that session's synthesis (TrustGraph's reader continues there)
        *tgp.agent_observation_triples(o1, tgp.synthesis_uri(sub_sid), document_id=f"{o1}/doc", tool_duration_ms=300),
        *tgp.agent_iteration_triples(
            i2, previous_uri=o1, action="document-query", arguments={"question": "Marley"},
            thought_uri=tgp.agent_thought_uri(sid, 2), step_number=2,
        ),
        *tgp.agent_observation_triples(o2, i2, tool_duration_ms=10, tool_error="connection refused"),
        *tgp.agent_final_triples(tgp.agent_final_uri(sid), previous_uri=o2, document_id=f"urn:trustgraph:agent:{sid}/final/doc",
                                 termination_reason="final-answer"),
    ]


def _extraction(*, when: str) -> list[Triple]:
    """Document → page → chunk, and the facts of chunk 2 contained in one extraction subgraph."""
    return [
        *tgp.document_triples(DOCUMENT, title="A Christmas Carol", mime_type="application/pdf", page_count=1),
        *tgp.derived_entity_triples(PAGE, DOCUMENT, "pdf-extractor", "2.11.1", page_number=1, timestamp=when),
        *(
            t
            for i, chunk in enumerate(CHUNKS)
            for t in tgp.derived_entity_triples(chunk, PAGE, "chunker", "2.11.1", chunk_index=i, char_offset=i * 100,
                                                char_length=100, timestamp=when)
        ),
        *tgp.subgraph_provenance_triples(SUBGRAPH, FACTS, CHUNKS[2], "kg-extract-definitions", "2.11.1",
                                         llm_model="tg-llm", timestamp=when),
    ]


def _quads(triples: list[Triple], graph: str | None) -> list[ox.Quad]:
    placed = tgp.set_graph(triples, graph) if graph else triples
    out = []
    for t in placed:
        g = ox.NamedNode(t.g) if t.g else ox.DefaultGraph()
        out.append(ox.Quad(from_trustgraph(t.s), from_trustgraph(t.p), from_trustgraph(t.o), g))
    return out


def build() -> Built:
    """A GraphRAG, a DocRAG and an agent session (with a GraphRAG sub-trace), the extraction
    provenance of the document their facts and chunks come from, and the facts themselves."""
    retrieval = [
        *_graph_rag(GRAPH_SID, "Who was Scrooge's partner?", when="2026-11-20T10:00:00.123456Z"),
        *_doc_rag(DOC_SID, "How long had Marley been dead?", when="2026-11-20T10:05:00Z"),
        *_agent(AGENT_SID, SUB_SID, when="2026-11-20T10:10:00.5Z"),
    ]
    quads = [
        *_quads(retrieval, tgp.GRAPH_RETRIEVAL),
        *_quads(_extraction(when="2026-11-19T09:00:00Z"), tgp.GRAPH_SOURCE),
        *_quads(FACTS, None),
    ]
    return Built(
        graph_rag=tgp.question_uri(GRAPH_SID),
        doc_rag=tgp.docrag_question_uri(DOC_SID),
        agent=tgp.agent_session_uri(AGENT_SID),
        sub_trace=tgp.question_uri(SUB_SID),
        quads=quads,
    )


UNFINISHED_SIDS = {
    "graph_rag": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b01",
    "doc_rag": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b02",
    "agent": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b03",
    "agent_sub": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b04",
    "supervisor": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b05",
    "supervisor_sub": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b06",
    "supervised": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b07",
    "supervisor_rag": "0b6c3c52-1d55-4cfa-9d0e-6a4c1f0f0b08",
}


@dataclasses.dataclass(frozen=True)
class Unfinished:
    """Traces TrustGraph's builders left at a given point (a service stopped there), and one that ended."""

    complete: list[str]
    """the questions whose trace reached its end stage"""
    incomplete: list[str]
    """the questions whose trace did not"""
    quads: list[ox.Quad]

    def nquads(self) -> bytes:
        return ox.serialize(self.quads, format=ox.RdfFormat.N_QUADS)


def _supervisor(sid: str, sub_sid: str, *, when: str, finished: bool, rag_sid: str | None = None) -> list[Triple]:
    """TrustGraph's supervisor pattern: a decomposition, a sub-agent session derived from it that
    concluded (with ``rag_sid``, after a knowledge query whose GraphRAG sub-trace it ran), a finding;
    the supervisor's Synthesis (from its findings) only when ``finished``."""
    q, decomposition, sub = tgp.agent_session_uri(sid), tgp.agent_decomposition_uri(sid), tgp.agent_session_uri(sub_sid)
    finding, sub_i1 = tgp.agent_finding_uri(sid, 0), tgp.agent_iteration_uri(sub_sid, 1)
    if rag_sid is None:
        sub_steps = [*tgp.agent_iteration_triples(sub_i1, question_uri=sub, action="final-answer", step_number=1)]
        last = sub_i1
    else:
        last = tgp.agent_observation_uri(sub_sid, 1)
        sub_steps = [
            *tgp.agent_iteration_triples(sub_i1, question_uri=sub, action="knowledge-query", arguments={"question": "Marley"},
                                         step_number=1),
            *_graph_rag(rag_sid, "Marley", when=when, parent=sub_i1),
            *tgp.agent_observation_triples(last, tgp.synthesis_uri(rag_sid), document_id=f"{last}/doc"),
        ]
    out = [
        *tgp.agent_session_triples(q, "Who were Scrooge's partners?", timestamp=when),
        *tgp.agent_decomposition_triples(decomposition, q, ["Marley"]),
        *tgp.agent_session_triples(sub, "Marley", timestamp=when, parent_uri=decomposition),
        *sub_steps,
        *tgp.agent_final_triples(tgp.agent_final_uri(sub_sid), previous_uri=last,
                                 document_id=f"urn:trustgraph:agent:{sub_sid}/final/doc"),
        *tgp.agent_finding_triples(finding, decomposition, "Marley", document_id=f"{finding}/doc"),
    ]
    if finished:
        out += tgp.agent_synthesis_triples(tgp.agent_synthesis_uri(sid), [finding], document_id=f"urn:trustgraph:agent:{sid}/synthesis/doc")
    return out


def build_unfinished() -> Unfinished:
    """Traces cut short, as TrustGraph's builders leave them when its service stops midway: a
    GraphRAG trace after its Focus, a DocRAG trace after its Exploration, a ReAct agent right after
    the Synthesis of the GraphRAG sub-trace its tool ran (the sub-trace itself ended), a supervisor
    whose sub-agent concluded (after a GraphRAG sub-trace of its own) but which never synthesised;
    and a supervisor that did."""
    s = UNFINISHED_SIDS
    graph_rag = _graph_rag(s["graph_rag"], "Who was Fezziwig?", when="2026-11-21T08:00:00Z")[:-len(
        tgp.synthesis_triples(tgp.synthesis_uri(s["graph_rag"]), tgp.focus_uri(s["graph_rag"]), document_id="x"))]
    doc_q, doc_g, doc_e = (tgp.docrag_question_uri(s["doc_rag"]), tgp.docrag_grounding_uri(s["doc_rag"]),
                           tgp.docrag_exploration_uri(s["doc_rag"]))
    doc_rag = [
        *tgp.docrag_question_triples(doc_q, "Where did Scrooge work?", timestamp="2026-11-21T08:01:00Z"),
        *tgp.grounding_triples(doc_g, doc_q, ["Scrooge"]),
        *tgp.docrag_exploration_triples(doc_e, doc_g, 2, chunk_ids=CHUNKS[:2]),
    ]
    agent_q, i1 = tgp.agent_session_uri(s["agent"]), tgp.agent_iteration_uri(s["agent"], 1)
    agent = [
        *tgp.agent_session_triples(agent_q, "Who was Fezziwig?", timestamp="2026-11-21T08:02:00Z"),
        *tgp.agent_iteration_triples(i1, question_uri=agent_q, action="knowledge-query", arguments={"question": "Fezziwig"},
                                     step_number=1),
        *_graph_rag(s["agent_sub"], "Fezziwig", when="2026-11-21T08:02:00Z", parent=i1),
    ]
    retrieval = [
        *graph_rag, *doc_rag, *agent,
        *_supervisor(s["supervisor"], s["supervisor_sub"], when="2026-11-21T08:03:00Z", finished=False,
                     rag_sid=s["supervisor_rag"]),
        *_supervisor(s["supervised"], s["supervised"] + "-sub", when="2026-11-21T08:04:00Z", finished=True),
    ]
    return Unfinished(
        complete=[tgp.agent_session_uri(s["supervised"]), tgp.question_uri(s["agent_sub"]), tgp.question_uri(s["supervisor_rag"]),
                  tgp.agent_session_uri(s["supervisor_sub"])],
        incomplete=[tgp.question_uri(s["graph_rag"]), doc_q, agent_q, tgp.agent_session_uri(s["supervisor"])],
        quads=_quads(retrieval, tgp.GRAPH_RETRIEVAL),
    )
