"""TrustGraph's own stream parser (``trustgraph-base`` 2.11.1: ``SocketClient._parse_chunk``, the
code its Python client runs on every streamed response) decodes every event ragprov streams."""

from __future__ import annotations

import json

import pytest
from pyoxigraph import Literal, NamedNode, Triple

pytest.importorskip("trustgraph.api.socket_client", reason="pip install 'ragprov[test]' (trustgraph-base)")

from trustgraph.api.explainability import wire_triples_to_tuples
from trustgraph.api.socket_client import SocketClient
from trustgraph.api.types import AgentAnswer, AgentObservation, AgentThought, ProvenanceEvent, RAGChunk
from trustgraph.messaging.translators.primitives import TripleTranslator

from ragprov.namespaces import XSD
from ragprov.record import ChunkEvent, EdgeSelection, EndOfSession, Recorder, event_from_json, event_to_json
from ragprov.record.events import Source
from ragprov.store import open_store


def _parser() -> SocketClient:
    """TrustGraph's client, without a connection: only its parser runs."""
    return object.__new__(SocketClient)


def _wire(event) -> dict:
    return json.loads(event_to_json(event))


def _graph_rag_events():
    t = Recorder(open_store("memory:")).graph_rag("Who was Marley?")
    t.grounding(["Marley"])
    t.exploration([NamedNode("urn:e:marley")], edge_count=3)
    t.focus(
        [
            EdgeSelection(
                Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partnerOf"), NamedNode("urn:e:marley")),
                reasoning="partner",
                score=0.9,
            ),
            EdgeSelection(
                Triple(NamedNode("urn:e:marley"), NamedNode("urn:r:deadYears"), Literal("7", datatype=XSD.integer)),
                score=0.4,
            ),
            EdgeSelection(
                Triple(NamedNode("urn:e:marley"), NamedNode("urn:r:name"), Literal("Jacob", language="en")), score=0.2
            ),
        ]
    )
    t.synthesis("Scrooge's partner.")
    return t.events


def test_every_explain_event_is_decoded_by_trustgraph():
    parser = _parser()
    for event in _graph_rag_events():
        wire = _wire(event)
        parsed = parser._parse_chunk(wire, include_provenance=True)
        assert isinstance(parsed, ProvenanceEvent)
        assert (parsed.explain_id, parsed.explain_graph) == (event.explain_id.value, "urn:graph:retrieval")
        if event.stage != "question":
            assert parsed.entity is not None and parsed.entity.entity_type == event.stage
        # every triple, quoted edges included, decodes through TrustGraph's own translator, unchanged
        decoded = [TripleTranslator().decode(t) for t in wire["explain_triples"]]
        assert len(decoded) == len(event.explain_triples)
        tuples = wire_triples_to_tuples(wire["explain_triples"])
        for (s, p, o), ours in zip(tuples, event.explain_triples, strict=False):
            assert (s, p) == (ours.subject.value, ours.predicate.value)
            if isinstance(ours.object, Triple):
                assert o == {"s": ours.object.subject.value, "p": ours.object.predicate.value, "o": ours.object.object.value}
        assert event_from_json(event_to_json(event)) == event


def test_quoted_triples_and_literals_use_trustgraphs_term_form():
    focus = next(e for e in _graph_rag_events() if e.stage == "focus")
    edges = [t["o"] for t in _wire(focus)["explain_triples"] if t["p"]["i"].endswith("/edge")]
    assert len(edges) == 3 and all(e["t"] == "t" and set(e["tr"]) == {"s", "p", "o"} for e in edges)
    objects = {e["tr"]["p"]["i"]: e["tr"]["o"] for e in edges}
    assert objects["urn:r:deadYears"] == {"t": "l", "v": "7", "dt": str(XSD.integer.value)}
    assert objects["urn:r:name"] == {"t": "l", "v": "Jacob", "ln": "en"}


def test_answer_chunks_and_end_of_session_are_decoded_by_trustgraph():
    parser = _parser()
    chunk = parser._parse_chunk(_wire(ChunkEvent("Scrooge's ")))
    assert isinstance(chunk, RAGChunk) and chunk.content == "Scrooge's " and not chunk.end_of_stream
    end = EndOfSession(NamedNode("urn:trustgraph:question:1"), 12, 5, (Source(NamedNode("urn:doc:carol"), "A Christmas Carol", 3),))
    wire = _wire(end)
    parsed = parser._parse_chunk(wire)
    assert isinstance(parsed, RAGChunk) and parsed.end_of_stream
    assert (parsed.in_token, parsed.out_token) == (12, 5)
    assert parsed.sources[0]["uri"] == "urn:doc:carol" and parsed.sources[0]["title"] == "A Christmas Carol"
    assert wire["end_of_session"] is True  # TrustGraph's client stops reading here
    assert event_from_json(event_to_json(end)) == end


def test_agent_thought_observation_and_answer_are_told_apart_by_trustgraph():
    parser = _parser()
    analysis = "urn:trustgraph:agent:1/i1"
    cases = [
        (ChunkEvent("Look it up.", NamedNode(f"{analysis}/thought"), "thought"), AgentThought),
        (ChunkEvent("Marley was his partner.", NamedNode(f"{analysis}/observation"), "observation"), AgentObservation),
        (ChunkEvent("Jacob Marley.", NamedNode("urn:trustgraph:agent:1/final"), "answer"), AgentAnswer),
    ]
    for event, cls in cases:
        parsed = parser._parse_chunk(_wire(event))
        assert type(parsed) is cls
        assert (parsed.content, parsed.message_id) == (event.content, event.message_id.value)
        assert event_from_json(event_to_json(event)) == event


def test_lines_written_before_the_trustgraph_form_are_still_read():
    old = '{"type": "chunk", "content": "x", "message_id": null}'
    assert event_from_json(old) == ChunkEvent("x")
    quoted = {"t": "t", "s": {"t": "i", "i": "urn:s"}, "p": {"t": "i", "i": "urn:p"}, "o": {"t": "b", "b": "b0"}}
    from ragprov.record.events import term_from_wire

    assert term_from_wire(quoted).subject == NamedNode("urn:s")
