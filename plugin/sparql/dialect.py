"""The three spellings of a quoted triple (§7), and the deterministic statement IRI.

The provenance model is the same in every dialect; only how a triple is put in object position
differs:

========================  ==========================  ==========================================
dialect                   spelling                    stores
========================  ==========================  ==========================================
``rdf12``                 ``<<( s p o )>>``           pyoxigraph ≥ 0.5, Jena ≥ 5.4, RDF4J 6
``rdfstar``               ``<< s p o >>``             Jena ≤ 5.3, GraphDB, pyoxigraph 0.4
``reification``           ``<urn:ragprov:stmt:…>``    Virtuoso 7, QLever, Neptune, rdflib
                          + ``rdf:Statement`` triples
========================  ==========================  ==========================================

In the ``reification`` dialect a triple is named by a hash of its canonical N-Triples form, so the
same triple always gets the same statement IRI, in every graph and from every writer: a look-up
binds the whole triple by naming that IRI, and extraction statements and trace selections of the
same edge join on it.

>>> t = Triple(NamedNode("urn:x:s"), NamedNode("urn:x:p"), Literal("o"))
>>> Dialect.RDF12.quote(t)
'<<( <urn:x:s> <urn:x:p> "o" )>>'
>>> Dialect.RDFSTAR.quote(t)
'<< <urn:x:s> <urn:x:p> "o" >>'
>>> Dialect.REIFICATION.quote(t)
'<urn:ragprov:stmt:073ba2dc338ae1b791f5243f400658cb>'
"""

from __future__ import annotations

import enum
import hashlib

from pyoxigraph import Literal, NamedNode, Triple  # noqa: F401 (Literal: the doctests use it)

from ..errors import ConfigurationError, InvalidValueError
from .escape import sparql_term

__all__ = ["RDF_OBJECT", "RDF_PREDICATE", "RDF_STATEMENT", "RDF_SUBJECT", "Dialect", "statement_iri"]

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDF_STATEMENT = NamedNode(_RDF + "Statement")
RDF_SUBJECT = NamedNode(_RDF + "subject")
RDF_PREDICATE = NamedNode(_RDF + "predicate")
RDF_OBJECT = NamedNode(_RDF + "object")
STATEMENT_PREFIX = "urn:ragprov:stmt:"


#: spellings of recently quoted triples, by dialect: a stage quotes each kept edge twice (its
#: document link and its INSERT DATA), and a pipeline quotes the edges it keeps again when it
#: cites them. Bounded; cleared when full.
_QUOTED: dict[tuple[Dialect, Triple], str] = {}
_QUOTED_KEPT = 4096


def statement_iri(triple: Triple) -> NamedNode:
    """The deterministic ``rdf:Statement`` IRI of a triple (128 bits of SHA-256 of its N-Triples)."""
    digest = hashlib.sha256(str(triple).encode("utf-8")).hexdigest()[:32]
    return NamedNode(STATEMENT_PREFIX + digest)


class Dialect(str, enum.Enum):
    """How a store spells a triple in object position."""

    RDF12 = "rdf12"
    RDFSTAR = "rdfstar"
    REIFICATION = "reification"

    @classmethod
    def parse(cls, value: str | Dialect) -> Dialect:
        """The dialect named ``value``; a clear error for anything else."""
        if isinstance(value, Dialect):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            names = ", ".join(d.value for d in cls)
            raise ConfigurationError(f"unknown SPARQL dialect {value!r}: use one of {names}") from None

    @property
    def has_quoted_triples(self) -> bool:
        return self is not Dialect.REIFICATION

    def quote(self, triple: Triple) -> str:
        """The object-position spelling of ``triple`` (subject and object must not be triples)."""
        key = (self, triple) if type(triple) is Triple else None
        text = _QUOTED.get(key) if key is not None else None
        if text is None:
            text = self._quote(triple)
            if key is not None:
                if len(_QUOTED) >= _QUOTED_KEPT:
                    _QUOTED.clear()
                _QUOTED[key] = text
        return text

    def _quote(self, triple: Triple) -> str:
        if not isinstance(triple, Triple):
            raise InvalidValueError(f"expected a triple, got {type(triple).__name__}: {triple!r}")
        # each part read once: pyoxigraph builds a new Python object per attribute read
        subject, obj = triple.subject, triple.object
        if isinstance(subject, Triple) or isinstance(obj, Triple):
            raise InvalidValueError("nested quoted triples are not portable between stores")
        if self is Dialect.REIFICATION:
            return f"<{statement_iri(triple).value}>"
        s, p, o = sparql_term(subject), sparql_term(triple.predicate), sparql_term(obj)
        if self is Dialect.RDF12:
            return f"<<( {s} {p} {o} )>>"
        return f"<< {s} {p} {o} >>"

    def reification_triples(self, triple: Triple) -> list[Triple]:
        """The ``rdf:Statement`` description of ``triple`` (empty unless this is ``reification``)."""
        if self is not Dialect.REIFICATION:
            return []
        st = statement_iri(triple)
        return [
            Triple(st, NamedNode(_RDF + "type"), RDF_STATEMENT),
            Triple(st, RDF_SUBJECT, triple.subject),
            Triple(st, RDF_PREDICATE, triple.predicate),
            Triple(st, RDF_OBJECT, triple.object),
        ]

