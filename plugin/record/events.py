"""The live stream of a retrieval session (§6): explain, chunk and end-of-session events.

An :class:`ExplainEvent` carries the stage IRI, its graph, and the stage's triples inline (so a
client needs no follow-up query): ``explain_triples`` in ``urn:graph:retrieval`` and
``library_triples``, the stage's large content (answer, thought, observation) in
``urn:graph:library``. They are always given in the RDF 1.2 form, whatever the store's dialect: a
selected edge is a :class:`~pyoxigraph.Triple` term. They are computed only when first read, so
recording stays as cheap as the update itself.

Every event round-trips through JSON (:func:`event_to_json`, :func:`event_from_json`) in
TrustGraph's wire form, so TrustGraph's own stream parser (``trustgraph-base``) reads it: each
message names its ``message_type`` (``explain``; ``chunk`` for answer text of a RAG session;
``thought``, ``observation`` or ``answer`` for an agent, with the ``message_id`` of the entity
being built), the last one says ``end_of_session`` (and ``end_of_dialog``) with the token totals
and ``sources``. Terms use TrustGraph's tagged form::

    {"t": "i", "i": "https://…"}                          IRI
    {"t": "b", "d": "id"}                                 blank node
    {"t": "l", "v": "text", "dt": "xsd IRI", "ln": "en"}  literal (dt / ln when not xsd:string)
    {"t": "t", "tr": {"s": {…}, "p": {…}, "o": {…}}}      quoted triple

Lines written before this form (``type`` instead of ``message_type``, quoted triples without
``tr``, blank nodes under ``b``) are still read.

>>> from pyoxigraph import NamedNode, Literal, Triple
>>> t = Triple(NamedNode("urn:s"), NamedNode("urn:p"), Literal("5", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")))
>>> term_from_wire(term_to_wire(t)) == t
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any, Union

import pyoxigraph as ox
from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from ..errors import InvalidValueError
from ..namespaces import LIBRARY_GRAPH, RETRIEVAL_GRAPH, XSD

__all__ = [
    "ChunkEvent",
    "EndOfSession",
    "Event",
    "ExplainEvent",
    "Source",
    "event_from_json",
    "event_to_json",
    "term_from_wire",
    "term_to_wire",
    "triples_by_graph",
    "triples_of_update",
]

_XSD_STRING = XSD.string.value


def triples_of_update(update: str, graph: NamedNode = RETRIEVAL_GRAPH) -> list[Triple]:
    """The triples an ``INSERT DATA`` (rdf12 dialect) writes into ``graph``, in written order."""
    return triples_by_graph(update).get(graph.value, [])


def _prologue_end(update: str) -> int:
    r"""Where the prologue (``PREFIX`` lines, blank lines) that opens ``update`` ends.

    >>> _prologue_end("\nPREFIX a: <urn:a#>\nPREFIX b: <urn:b#>\nINSERT DATA { }")
    39
    """
    position = 0
    while position < len(update):
        end = update.find("\n", position)
        end = len(update) if end < 0 else end + 1
        line = update[position:end].strip()
        if line and not line.startswith("PREFIX"):
            break
        position = end
    return position


def triples_by_graph(update: str) -> dict[str, list[Triple]]:
    """The triples an ``INSERT DATA`` (rdf12 dialect) writes, by graph IRI, in written order (a
    stage's document links, an ``INSERT … WHERE`` before it in the same request, are the store's
    to compute and are not among them)."""
    start = update.index("INSERT DATA")
    prologue = update[: _prologue_end(update)]
    body = update[update.index("{", start) + 1 : update.rindex("}")]
    out: dict[str, list[Triple]] = {}
    for q in ox.parse(prologue + body, format=ox.RdfFormat.TRIG):
        out.setdefault(getattr(q.graph_name, "value", ""), []).append(q.triple)
    return out


@dataclasses.dataclass(eq=False)
class ExplainEvent:
    """A stage was recorded: its IRI, graph, kind, and (computed on first read) its triples."""

    explain_id: NamedNode
    explain_graph: NamedNode
    stage: str
    _triples: list[Triple] | None = dataclasses.field(default=None, repr=False)
    _source: Callable[[], dict[str, list[Triple]]] | None = dataclasses.field(default=None, repr=False)
    _library: list[Triple] | None = dataclasses.field(default=None, repr=False)
    type: str = dataclasses.field(default="explain", init=False)

    def _load(self) -> None:
        by_graph = self._source() if self._source is not None else {}
        self._source = None
        if self._triples is None:
            self._triples = by_graph.get(self.explain_graph.value, [])
        if self._library is None:
            self._library = by_graph.get(LIBRARY_GRAPH.value, [])

    @property
    def explain_triples(self) -> list[Triple]:
        """The stage's triples in its graph (``urn:graph:retrieval``)."""
        if self._triples is None:
            self._load()
        return self._triples  # type: ignore[return-value]

    @property
    def library_triples(self) -> list[Triple]:
        """The stage's content in ``urn:graph:library`` (answer text, thought, observation), if any."""
        if self._library is None:
            self._load()
        return self._library  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ExplainEvent)
            and (self.explain_id, self.explain_graph, self.stage) == (other.explain_id, other.explain_graph, other.stage)
            and self.explain_triples == other.explain_triples
            and self.library_triples == other.library_triples
        )


@dataclasses.dataclass(frozen=True)
class ChunkEvent:
    """A piece of streamed text; ``message_id`` names the entity being built (agents), ``kind`` what
    the text is: ``answer``, or an agent's ``thought`` or ``observation``."""

    content: str
    message_id: NamedNode | None = None
    kind: str = "answer"
    type: str = dataclasses.field(default="chunk", init=False)


@dataclasses.dataclass(frozen=True)
class Source:
    """A place the answer rests on: a document, and where known its title, page and chunk."""

    document: NamedNode
    title: str | None = None
    page: int | None = None
    chunk: NamedNode | None = None


@dataclasses.dataclass(frozen=True)
class EndOfSession:
    """The session is over: the trace's question IRI, token totals, and the answer's sources."""

    trace: NamedNode
    in_token: int = 0
    out_token: int = 0
    sources: tuple[Source, ...] = ()
    type: str = dataclasses.field(default="end_of_session", init=False)


Event = Union[ExplainEvent, ChunkEvent, EndOfSession]  # noqa: UP007 (a runtime alias: X | Y of classes needs Python 3.10 at import)


def term_to_wire(term: Any) -> dict[str, Any]:
    """A term in the tagged JSON form (see the module docstring)."""
    if isinstance(term, NamedNode):
        return {"t": "i", "i": term.value}
    if isinstance(term, BlankNode):
        return {"t": "b", "d": term.value}
    if isinstance(term, Literal):
        out: dict[str, Any] = {"t": "l", "v": term.value}
        if term.language:
            out["ln"] = term.language
        elif term.datatype.value != _XSD_STRING:
            out["dt"] = term.datatype.value
        return out
    if isinstance(term, Triple):
        return {"t": "t", "tr": _triple_to_wire(term)}
    raise InvalidValueError(f"not an RDF term: {term!r}")


def term_from_wire(data: dict[str, Any]) -> Any:
    """The term a tagged JSON object stands for."""
    try:
        tag = data["t"]
        if tag == "i":
            return NamedNode(data["i"])
        if tag == "b":
            return BlankNode(data["d"] if "d" in data else data["b"])
        if tag == "l":
            if "ln" in data:
                return Literal(data["v"], language=data["ln"])
            if "dt" in data:
                return Literal(data["v"], datatype=NamedNode(data["dt"]))
            return Literal(data["v"])
        if tag == "t":
            parts = data.get("tr", data)
            return Triple(term_from_wire(parts["s"]), term_from_wire(parts["p"]), term_from_wire(parts["o"]))
    except (KeyError, TypeError, ValueError) as e:
        raise InvalidValueError(f"not a wire term: {data!r} ({e})") from None
    raise InvalidValueError(f"not a wire term: {data!r}")


def _triple_to_wire(t: Triple) -> dict[str, Any]:
    return {"s": term_to_wire(t.subject), "p": term_to_wire(t.predicate), "o": term_to_wire(t.object)}


def _triple_from_wire(data: dict[str, Any]) -> Triple:
    try:
        return Triple(term_from_wire(data["s"]), term_from_wire(data["p"]), term_from_wire(data["o"]))
    except (KeyError, TypeError) as e:
        raise InvalidValueError(f"not a wire triple: {data!r} ({e})") from None


def _opt_iri(value: NamedNode | None) -> str | None:
    return value.value if value is not None else None


_AGENT_KINDS = ("thought", "observation", "answer")


def event_to_dict(event: Event) -> dict[str, Any]:
    """One event as a TrustGraph response message (see the module docstring)."""
    if isinstance(event, ExplainEvent):
        return {
            "message_type": "explain",
            "explain_id": event.explain_id.value,
            "explain_graph": event.explain_graph.value,
            "explain_triples": [_triple_to_wire(t) for t in event.explain_triples],
            "end_of_stream": False,
            "end_of_session": False,
            # ragprov's additions: the stage kind and its library content
            "stage": event.stage,
            "library_graph": LIBRARY_GRAPH.value,
            "library_triples": [_triple_to_wire(t) for t in event.library_triples],
        }
    if isinstance(event, ChunkEvent):
        if event.message_id is None:  # answer text of a RAG session
            return {"message_type": "chunk", "response": event.content, "end_of_stream": False, "end_of_session": False}
        return {
            "message_type": event.kind,
            "content": event.content,
            "message_id": event.message_id.value,
            "end_of_message": True,
            "end_of_dialog": False,
        }
    if isinstance(event, EndOfSession):
        return {
            "message_type": "chunk",
            "response": "",
            "end_of_stream": True,
            "end_of_session": True,
            "end_of_dialog": True,
            "in_token": event.in_token,
            "out_token": event.out_token,
            "sources": [
                {"uri": s.document.value, "title": s.title or "", "page": s.page, "chunk": _opt_iri(s.chunk)}
                for s in event.sources
            ],
            "trace": event.trace.value,  # ragprov's addition: the question IRI
        }
    raise InvalidValueError(f"not an event: {event!r}")


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event a message from :func:`event_to_dict` (or an older ``type``-tagged line) stands for."""
    try:
        return _event_from_dict(data)
    except (KeyError, TypeError, ValueError) as e:
        raise InvalidValueError(f"not an event: {data!r} ({e})") from None


def _event_from_dict(data: dict[str, Any]) -> Event:
    kind = data.get("message_type", data.get("type"))
    if data.get("end_of_session") or kind == "end_of_session":
        return EndOfSession(
            NamedNode(data["trace"]),
            int(data.get("in_token") or 0),
            int(data.get("out_token") or 0),
            tuple(
                Source(
                    NamedNode(s.get("uri") or s["document"]),
                    s.get("title") or None,
                    s.get("page"),
                    NamedNode(s["chunk"]) if s.get("chunk") else None,
                )
                for s in data.get("sources", [])
            ),
        )
    if kind == "explain":
        return ExplainEvent(
            NamedNode(data["explain_id"]),
            NamedNode(data["explain_graph"]),
            data.get("stage", ""),
            _triples=[_triple_from_wire(t) for t in data["explain_triples"]],
            _library=[_triple_from_wire(t) for t in data.get("library_triples", [])],
        )
    if kind == "chunk":
        mid = data.get("message_id")
        return ChunkEvent(data["response"] if "response" in data else data["content"], NamedNode(mid) if mid else None)
    if kind in _AGENT_KINDS:
        return ChunkEvent(data["content"], NamedNode(data["message_id"]), kind)
    raise InvalidValueError(f"not an event: message_type {kind!r}")


def event_to_json(event: Event) -> str:
    """One event as a JSON line."""
    return json.dumps(event_to_dict(event), ensure_ascii=False)


def event_from_json(text: str) -> Event:
    """The event a JSON line (from :func:`event_to_json`) stands for."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidValueError(f"not a JSON event: {e}") from None
    return event_from_dict(data)
