"""The one adapter between TrustGraph's published client code and a ragprov store.

TrustGraph's readers (``trustgraph.api.explainability.ExplainabilityClient``, the edge-source walk
of ``trustgraph.cli.show_explain_trace``) talk to a TrustGraph *flow*: they call
``flow.triples_query(s=…, p=…, o=…, g=…, collection=…, limit=…)`` and read back a list of wire-form
triples ``{"s": term, "p": term, "o": term}``; answer texts come from ``api.library()
.get_document_content(id=…)``. This module answers those two calls from a ragprov store and does
nothing else: pattern terms are built and decoded with TrustGraph's own ``build_term`` and
``TermTranslator``, the store's quads are matched with pyoxigraph's ``quads_for_pattern`` and encoded
back with ``TermTranslator`` — so what the reader sees is exactly what the store holds, in
TrustGraph's own encoding. No trace logic lives here: walking, typing and parsing are TrustGraph's.
"""

from __future__ import annotations

from typing import Any

import pyoxigraph as ox
from trustgraph.api.socket_client import build_term
from trustgraph.messaging.translators.primitives import TermTranslator
from trustgraph.schema import BLANK, IRI, LITERAL, TRIPLE, Term, Triple

_TERMS = TermTranslator()
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def to_trustgraph(term) -> Term:
    """A pyoxigraph term as TrustGraph's schema Term."""
    if isinstance(term, ox.NamedNode):
        return Term(type=IRI, iri=term.value)
    if isinstance(term, ox.BlankNode):
        return Term(type=BLANK, id=term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Term(type=LITERAL, value=term.value, language=term.language)
        datatype = term.datatype.value
        return Term(type=LITERAL, value=term.value, datatype="" if datatype == _XSD_STRING else datatype)
    if isinstance(term, ox.Triple):
        return Term(
            type=TRIPLE,
            triple=Triple(s=to_trustgraph(term.subject), p=to_trustgraph(term.predicate), o=to_trustgraph(term.object)),
        )
    raise TypeError(f"not an RDF term: {term!r}")


def from_trustgraph(term: Term):
    """TrustGraph's schema Term as a pyoxigraph term."""
    if term.type == IRI:
        return ox.NamedNode(term.iri)
    if term.type == BLANK:
        return ox.BlankNode(term.id)
    if term.type == LITERAL:
        if term.language:
            return ox.Literal(term.value, language=term.language)
        return ox.Literal(term.value, datatype=ox.NamedNode(term.datatype)) if term.datatype else ox.Literal(term.value)
    if term.type == TRIPLE:
        t = term.triple
        return ox.Triple(from_trustgraph(t.s), from_trustgraph(t.p), from_trustgraph(t.o))
    raise ValueError(f"unknown TrustGraph term type {term.type!r}")


def _pattern(value: Any):
    wire = build_term(value)  # TrustGraph's own rule: a str starting http(s):// or urn: is an IRI
    return None if wire is None else from_trustgraph(_TERMS.decode(wire))


class StoreFlow:
    """``flow.triples_query`` answered by an embedded ragprov store (:class:`ragprov.store.EmbeddedStore`)."""

    def __init__(self, store):
        self.store = store
        self.calls = 0

    def triples_query(self, s=None, p=None, o=None, g=None, collection=None, limit=100, **kwargs) -> list[dict]:
        self.calls += 1
        graph = ox.NamedNode(g) if g else ox.DefaultGraph()
        out = []
        for quad in self.store.raw.quads_for_pattern(_pattern(s), _pattern(p), _pattern(o), graph):
            out.append({k: _TERMS.encode(to_trustgraph(v)) for k, v in (("s", quad.subject), ("p", quad.predicate), ("o", quad.object))})
            if len(out) >= limit:
                break
        return out


class StoreLibrary:
    """``api.library().get_document_content(id=…)``: a library document's ``tg:content`` as bytes."""

    def __init__(self, store):
        self.store = store

    def get_document_content(self, id):
        quads = self.store.raw.quads_for_pattern(
            ox.NamedNode(id), ox.NamedNode("https://trustgraph.ai/ns/content"), None, ox.NamedNode("urn:graph:library")
        )
        for quad in quads:
            return quad.object.value.encode("utf-8")
        raise KeyError(f"no library document {id}")


class StoreApi:
    """The ``api`` object TrustGraph's readers take, for its ``library()`` only."""

    def __init__(self, store):
        self._library = StoreLibrary(store)

    def library(self):
        return self._library
