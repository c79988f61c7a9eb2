"""Moving a whole store between engines that spell quoted triples differently (``export``/``import``).

Inside ragprov a store's content is a list of pyoxigraph quads whose objects may be triple terms.
On the way out it is written in one of three forms:

``neutral`` (the default)
    N-Quads with no quoted triples at all: every triple term in object position becomes the
    deterministic ``rdf:Statement`` IRI of the ``reification`` dialect (``urn:ragprov:stmt:<hash>``),
    described by ``rdf:type``/``rdf:subject``/``rdf:predicate``/``rdf:object`` in the same graph.
    Every RDF engine reads it (Virtuoso, QLever, rdflib, Jena, Oxigraph).
``rdf12``
    N-Quads 1.2 with ``<<( s p o )>>`` triple terms (pyoxigraph ≥ 0.5, Jena ≥ 5.4).
``rdfstar``
    N-Quads-star with ``<< s p o >>`` (Jena ≤ 5.3, GraphDB, pyoxigraph 0.4).

On the way in, any of the three is accepted (detected), ragprov's statement IRIs are turned back
into triple terms, and the store spells them in its own dialect again (a ``reification`` store gets
the statements back). So Jena 4 → Oxigraph 0.5 → Virtuoso → Jena 4 keeps every quad.

>>> from pyoxigraph import NamedNode, Literal, Quad, Triple
>>> edge = Triple(NamedNode("urn:s"), NamedNode("urn:p"), Literal("o"))
>>> quads = [Quad(NamedNode("urn:sel"), NamedNode("urn:edge"), edge, NamedNode("urn:g"))]
>>> neutral = to_reification(quads)
>>> len(neutral), any(isinstance(q.object, Triple) for q in neutral)
(5, False)
>>> to_triple_terms(neutral) == quads
True
>>> print(serialize(quads, "rdfstar").decode().strip())
<urn:sel> <urn:edge> << <urn:s> <urn:p> "o" >> <urn:g> .
>>> parse(serialize(quads, "rdfstar")) == quads
True
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

import pyoxigraph as ox
from pyoxigraph import BlankNode, DefaultGraph, NamedNode, Quad, Triple

from ..errors import ConfigurationError, InvalidValueError, LoadError
from ..sparql.dialect import (
    RDF_OBJECT,
    RDF_PREDICATE,
    RDF_STATEMENT,
    RDF_SUBJECT,
    STATEMENT_PREFIX,
    Dialect,
    statement_iri,
)

__all__ = [
    "FORMS",
    "clear_store",
    "export_store",
    "import_store",
    "parse",
    "serialize",
    "store_quads",
    "to_reification",
    "to_triple_terms",
]

FORMS = ("neutral", "rdf12", "rdfstar")
_RDF_TYPE = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")


# -- conversions ---------------------------------------------------------------------------------
def to_reification(quads: Iterable[Quad]) -> list[Quad]:
    """Triple terms in object position replaced by their statement IRI and its description."""
    out: list[Quad] = []
    described: set[tuple[str, object]] = set()
    for q in quads:
        if isinstance(q.subject, Triple):
            raise InvalidValueError(f"a quoted triple in subject position is not portable: {q}")
        obj = q.object
        if not isinstance(obj, Triple):
            out.append(q)
            continue
        if isinstance(obj.subject, Triple) or isinstance(obj.object, Triple):
            raise InvalidValueError(f"a nested quoted triple is not portable: {q}")
        st = statement_iri(obj)
        out.append(Quad(q.subject, q.predicate, st, q.graph_name))
        key = (st.value, q.graph_name)
        if key not in described:
            described.add(key)
            for t in Dialect.REIFICATION.reification_triples(obj):
                out.append(Quad(t.subject, t.predicate, t.object, q.graph_name))
    return out


def to_triple_terms(quads: Iterable[Quad]) -> list[Quad]:
    """ragprov statement IRIs (``urn:ragprov:stmt:…``, fully described in the same graph) turned
    back into triple terms, their four description quads dropped. Anything else is kept as is."""
    quads = list(quads)
    parts: dict[tuple[str, object], dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for q in quads:
        s = q.subject
        if isinstance(s, NamedNode) and s.value.startswith(STATEMENT_PREFIX):
            p = q.predicate
            if p in (RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT) or (p == _RDF_TYPE and q.object == RDF_STATEMENT):
                parts[(s.value, q.graph_name)][p.value].append(q.object)
    triples: dict[tuple[str, object], Triple] = {}
    for key, d in parts.items():
        subj, pred, obj = d.get(RDF_SUBJECT.value, []), d.get(RDF_PREDICATE.value, []), d.get(RDF_OBJECT.value, [])
        complete = len(subj) == len(pred) == len(obj) == 1 and d.get(_RDF_TYPE.value)
        if complete and isinstance(pred[0], NamedNode) and isinstance(subj[0], (NamedNode, BlankNode)) and not isinstance(obj[0], Triple):
            triples[key] = Triple(subj[0], pred[0], obj[0])
    out: list[Quad] = []
    for q in quads:
        s, o = q.subject, q.object
        if isinstance(s, NamedNode) and (s.value, q.graph_name) in triples:
            p = q.predicate
            if p in (RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT) or (p == _RDF_TYPE and o == RDF_STATEMENT):
                continue
        if isinstance(o, NamedNode) and (o.value, q.graph_name) in triples:
            out.append(Quad(s, q.predicate, triples[(o.value, q.graph_name)], q.graph_name))
        else:
            out.append(q)
    return out


# -- N-Quads forms --------------------------------------------------------------------------------
def _star_term(term) -> str:
    if isinstance(term, Triple):
        return f"<< {_star_term(term.subject)} {_star_term(term.predicate)} {_star_term(term.object)} >>"
    return str(term)


def serialize(quads: Iterable[Quad], form: str = "neutral") -> bytes:
    """``quads`` as N-Quads in ``form`` (``neutral``, ``rdf12`` or ``rdfstar``)."""
    if form not in FORMS:
        raise ConfigurationError(f"unknown form {form!r}: use one of {', '.join(FORMS)}")
    quads = list(quads)
    if form == "neutral":
        return ox.serialize(to_reification(quads), format=ox.RdfFormat.N_QUADS) or b""
    if form == "rdf12":
        return ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""
    lines = []
    for q in quads:
        graph = "" if isinstance(q.graph_name, DefaultGraph) else f" {q.graph_name}"
        lines.append(f"{_star_term(q.subject)} {_star_term(q.predicate)} {_star_term(q.object)}{graph} .\n")
    return "".join(lines).encode("utf-8")


# N-Quads-star → N-Quads 1.2: << >> become <<( )>> outside strings and IRIs.
_STAR_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|<<\(|\)>>|<<|>>|<[^<>\s]*>|[^"<>)]+|.', re.S)


def _star_to_rdf12(text: str) -> str:
    out = []
    for m in _STAR_TOKENS.finditer(text):
        tok = m.group(0)
        out.append("<<( " if tok == "<<" else " )>>" if tok == ">>" else tok)
    return "".join(out)


def parse(data: bytes | str, form: str | None = None) -> list[Quad]:
    """Quads from N-Quads in any form (``form=None`` detects it), ragprov statements as triple terms."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if form is not None and form not in FORMS:
        raise ConfigurationError(f"unknown form {form!r}: use one of {', '.join(FORMS)}")
    if form == "rdfstar":
        text = _star_to_rdf12(text)
    try:
        quads = list(ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_QUADS))
    except SyntaxError as first:
        if form is not None or "<<" not in text:
            raise LoadError(f"not N-Quads: {first}") from None
        try:
            quads = list(ox.parse(_star_to_rdf12(text).encode("utf-8"), format=ox.RdfFormat.N_QUADS))
        except SyntaxError:
            raise LoadError(f"not N-Quads (neither RDF 1.2 nor RDF-star): {first}") from None
    return to_triple_terms(quads)


# -- stores --------------------------------------------------------------------------------------
def store_quads(store) -> list[Quad]:
    """Every quad of ``store``, quoted triples as triple terms whatever its dialect."""
    inner = getattr(store, "store", None)
    if inner is not None and hasattr(store, "spool"):  # a SpoolingStore
        store = inner
    if hasattr(store, "quads"):
        quads = store.quads()
    elif hasattr(store, "raw"):
        quads = list(store.raw)
    else:
        quads = list(ox.parse(store.dump(format="nquads"), format=ox.RdfFormat.N_QUADS))
    return to_triple_terms(quads) if store.dialect is Dialect.REIFICATION else list(quads)


def export_store(store, *, form: str = "neutral") -> bytes:
    """The whole store as N-Quads in ``form``."""
    return serialize(store_quads(store), form)


def clear_store(store) -> None:
    """Remove every quad of user data from ``store``."""
    if hasattr(store, "raw"):
        store.raw.clear()
    elif hasattr(store, "clear"):
        store.clear()
    else:
        store.update("DROP ALL")


def import_store(store, data: bytes | str, *, form: str | None = None, replace: bool = False) -> int:
    """Add the quads of ``data`` (any form) to ``store`` in its dialect; ``replace`` empties it first.

    Parses everything before touching the store, so bad input changes nothing. Returns the number of
    quads imported (triple terms counted once, however the store spells them).
    """
    quads = parse(data, form)
    for q in quads:
        if isinstance(q.subject, Triple) or (isinstance(q.object, Triple) and (
            isinstance(q.object.subject, Triple) or isinstance(q.object.object, Triple))):
            raise InvalidValueError(f"quoted triples in subject position or nested are not portable: {q}")
    if replace:
        clear_store(store)
    store.bulk_extend(quads)
    return len(quads)
