"""Plain RDF: the reification form of any input (RDF 1.2 triple terms, RDF-star ``<< >>``
reifiers, or data already in that form), which rdflib, pyshacl and owlready2 can read."""


from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from pyoxigraph import (
    BlankNode,
    Quad,
    RdfFormat,
    Triple,
    parse,
)

from ..errors import InvalidValueError

if TYPE_CHECKING:  # pragma: no cover
    import rdflib
from ._common import _RDF_REIFIES

TraceData = Union[str, bytes, "os.PathLike[str]", Iterable[Quad | Triple], "rdflib.Graph"]
"""What :func:`validate_trace`, :func:`check_consistency` and :func:`plain_rdf` accept: RDF text
(TriG, which includes Turtle, unless ``format`` says otherwise), a file path (format from its
suffix; a one-line string naming an existing file counts as a path), pyoxigraph quads or triples
(a ``Store`` too), or an rdflib graph or dataset."""



_FORMATS = {
    "ttl": RdfFormat.TURTLE, "turtle": RdfFormat.TURTLE,
    "trig": RdfFormat.TRIG,
    "nt": RdfFormat.N_TRIPLES, "ntriples": RdfFormat.N_TRIPLES, "n-triples": RdfFormat.N_TRIPLES,
    "nq": RdfFormat.N_QUADS, "nquads": RdfFormat.N_QUADS, "n-quads": RdfFormat.N_QUADS,
    "rdf": RdfFormat.RDF_XML, "xml": RdfFormat.RDF_XML, "owl": RdfFormat.RDF_XML,
    "rdfxml": RdfFormat.RDF_XML, "n3": RdfFormat.N3,
}


def _format_for(name: str | None) -> RdfFormat | None:
    if not name:
        return None
    try:
        return _FORMATS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_FORMATS))
        raise InvalidValueError(f"unknown RDF format {name!r}: use one of {known}") from None


def _parsed(data: Any, format: str | None) -> Iterator[Triple | Quad]:
    fmt = _format_for(format)
    try:
        if isinstance(data, os.PathLike):
            path = Path(data)
            fmt = fmt or _FORMATS.get(path.suffix.lstrip(".").lower(), RdfFormat.TRIG)
            yield from parse(path=str(path), format=fmt)
        elif isinstance(data, str) and "\n" not in data and len(data) < 4096 and Path(data).is_file():
            yield from _parsed(Path(data), format)  # a one-line string naming a file: read the file
        elif isinstance(data, (str, bytes)):
            yield from parse(input=data, format=fmt or RdfFormat.TRIG)
        elif hasattr(data, "serialize") and hasattr(data, "triples"):  # an rdflib graph or dataset
            quads = hasattr(data, "quads") and hasattr(data, "contexts")
            text = data.serialize(format="nquads" if quads else "nt", encoding="utf-8")
            yield from parse(input=text, format=RdfFormat.N_QUADS if quads else RdfFormat.N_TRIPLES)
        else:
            for item in data:
                if not isinstance(item, (Triple, Quad)):
                    kind = type(item).__name__
                    raise InvalidValueError(f"expected pyoxigraph triples or quads, got {kind}")
                yield item
    except (OSError, SyntaxError) as exc:
        raise InvalidValueError(f"cannot read the RDF data: {exc}") from exc
    except TypeError as exc:
        raise InvalidValueError(f"cannot read RDF from a {type(data).__name__}: {exc}") from exc


def plain_rdf(data: TraceData, *, format: str | None = None) -> list[Triple]:
    """The triples of ``data`` with every graph merged and every quoted triple in reification form.

    A triple term becomes its ``urn:ragprov:stmt:<hash>`` IRI (the same one the ``reification``
    dialect writes) described with ``rdf:type rdf:Statement`` and ``rdf:subject``/``rdf:predicate``/
    ``rdf:object``; a blank-node reifier ``_:r rdf:reifies <<( s p o )>>`` (how RDF 1.2 reads the
    RDF-star ``<< s p o >>`` syntax) is replaced by that IRI. Data already in reification form is
    unchanged. Duplicates are dropped; order is kept.

    >>> from pyoxigraph import NamedNode as N
    >>> edge = Triple(N("urn:x:s"), N("urn:x:p"), N("urn:x:o"))
    >>> out = plain_rdf([Triple(N("urn:sel"), N("https://trustgraph.ai/ns/edge"), edge)])
    >>> len(out), out[-1].object.value.startswith("urn:ragprov:stmt:")
    (5, True)
    """
    from ..sparql.dialect import Dialect, statement_iri

    triples = [item.triple if isinstance(item, Quad) else item for item in _parsed(data, format)]
    reifier_of: dict[BlankNode, Triple] = {}
    for t in triples:
        if t.predicate == _RDF_REIFIES and isinstance(t.subject, BlankNode) and isinstance(t.object, Triple):
            reifier_of.setdefault(t.subject, t.object)

    out: dict[Triple, None] = {}

    def node(term: Any) -> Any:
        if isinstance(term, BlankNode) and term in reifier_of:
            term = reifier_of[term]
        if isinstance(term, Triple):
            inner = Triple(node(term.subject), term.predicate, node(term.object))
            for r in Dialect.REIFICATION.reification_triples(inner):
                out.setdefault(r)
            return statement_iri(inner)
        return term

    for t in triples:
        if t.predicate == _RDF_REIFIES and t.subject in reifier_of:
            node(t.object)  # described by the statement IRI that replaces the reifier
            continue
        s, o = node(t.subject), node(t.object)
        out.setdefault(Triple(s, t.predicate, o))
    return list(out)
