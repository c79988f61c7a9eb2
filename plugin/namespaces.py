"""IRIs ragprov writes and reads: vocabularies, named graphs and the identifiers of §4.

``TG`` is the closed vocabulary generated from ``ontology/ragprov.ttl``: a term the ontology does
not define is an error where it is written.

>>> TG.query
<NamedNode value=https://trustgraph.ai/ns/query>
>>> str(TG)
'https://trustgraph.ai/ns/'
>>> question_iri("1234")
<NamedNode value=urn:trustgraph:question:1234>
>>> prefixed_name("http://www.w3.org/ns/prov#wasDerivedFrom"), prefixed_name("urn:x:y")
('prov:wasDerivedFrom', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from pyoxigraph import NamedNode

from .vocab import TG  # the closed namespace generated from the ontology

__all__ = [
    "DC",
    "DCTERMS",
    "FACTS_GRAPH",
    "LIBRARY_GRAPH",
    "OWL",
    "PREFIXES",
    "PROV",
    "RDF",
    "RDFS",
    "RETRIEVAL_GRAPH",
    "SOURCE_GRAPH",
    "TG",
    "XSD",
    "Namespace",
    "prefixed_name",
    "question_iri",
]


class Namespace(str):
    """An IRI prefix; attribute or item access gives the :class:`NamedNode` of a local name."""

    def __getattr__(self, name: str) -> NamedNode:
        if name.startswith("__"):
            raise AttributeError(name)
        term = NamedNode(self + name)
        # kept on the instance: the next access finds it without calling __getattr__ (the views
        # name a few dozen terms thousands of times per trace)
        self.__dict__[name] = term
        return term

    def __getitem__(self, name: str) -> NamedNode:  # type: ignore[override]
        return NamedNode(self + name)


PROV = Namespace("http://www.w3.org/ns/prov#")
RDF = Namespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
DC = Namespace("http://purl.org/dc/elements/1.1/")
DCTERMS = Namespace("http://purl.org/dc/terms/")
OWL = Namespace("http://www.w3.org/2002/07/owl#")

PREFIXES: Mapping[str, Namespace] = MappingProxyType({
    "tg": Namespace(str(TG)),
    "prov": PROV,
    "rdf": RDF,
    "rdfs": RDFS,
    "owl": OWL,
    "xsd": XSD,
    "dcterms": DCTERMS,
    "dc": DC,
})
"""The one prefix table: prefix → namespace, for prefixed names in messages and documents."""

_LOCAL_NAME = re.compile(r"[A-Za-z_][\w.-]*")


def prefixed_name(iri: str) -> str | None:
    """``prefix:local`` for an IRI under a namespace of :data:`PREFIXES` whose local part is a
    plain name, else ``None``."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and _LOCAL_NAME.fullmatch(iri[len(namespace):]):
            return f"{prefix}:{iri[len(namespace):]}"
    return None


RETRIEVAL_GRAPH = NamedNode("urn:graph:retrieval")
"""Query-time traces (§4)."""
SOURCE_GRAPH = NamedNode("urn:graph:source")
"""Extraction-time provenance (§4)."""
LIBRARY_GRAPH = NamedNode("urn:graph:library")
"""Large content: answer text, thoughts, observations, chunk text (§4)."""
FACTS_GRAPH = NamedNode("urn:graph:facts")
"""The facts graph to use on stores whose default graph is the union of all graphs (§4)."""


def question_iri(session_id: str) -> NamedNode:
    """The IRI of a GraphRAG question activity for a session id (§4)."""
    return NamedNode(f"urn:trustgraph:question:{session_id}")
