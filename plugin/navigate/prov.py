"""Traces as W3C PROV documents (PROV-JSON, PROV-N), built with the W3C ``prov`` package itself.

Every node the ``trace/show`` rows describe becomes a PROV element (``prov:Activity`` →
activity, ``prov:Agent`` → agent, anything else → entity), every PROV-O property between nodes
a PROV relation, activity and generation times the PROV times, and every other property an
attribute (IRIs as qualified names, quoted triples as their N-Triples text).

Every identifier is a QName PROV-N accepts: an IRI is split into a namespace and the longest
suffix that is a valid local part (``urn:ragprov:software:ragprov:0.1.0`` →
``ragprov_software_ragprov:0.1.0``), so the namespace plus the local part is the IRI again.

>>> qualified_parts("urn:ragprov:software:ragprov:0.1.0")
('urn:ragprov:software:ragprov:', '0.1.0')
>>> qualified_parts("https://trustgraph.ai/ns/Grounding")
('https://trustgraph.ai/ns/', 'Grounding')
>>> is_qname_local("0.1.0"), is_qname_local("a:b"), is_qname_local("x."), is_qname_local("SCROOGE'S%20FRIENDS")
(True, False, False, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pyoxigraph import Literal, NamedNode, Triple

from ..errors import ConfigurationError
from ..namespaces import PREFIXES, PROV, RDF, RDFS
from .model import Node, describe

if TYPE_CHECKING:  # pragma: no cover
    from prov.model import ProvDocument, ProvRecord

__all__ = ["FORMATS", "every_question", "is_qname_local", "qualified_parts", "serialize", "trace_document", "traces_document"]

FORMATS = {"prov-json": "json", "prov-n": "provn"}
INSTALL_HINT = "PROV export needs the W3C prov package: pip install 'ragprov[prov]'"

# PROV-N's PN_LOCAL in ASCII, without the separators a split is made at (# / :): letters, digits,
# _ - . and the PN_CHARS_OTHERS ~ @ ! $ * + & ? with %HH escapes, and the characters the prov
# package writes escaped (PN_CHARS_ESC: ' ( ) , ; =); not starting with - or ., not ending with .
_CHAR = r"(?:[A-Za-z0-9_~@!$*+&?'(),;=]|%[0-9A-Fa-f]{2})"
_LOCAL = re.compile(rf"^{_CHAR}(?:(?:{_CHAR}|[.\-])*(?:{_CHAR}|-))?$")
_PREFIX_CHARS = re.compile(r"[^A-Za-z0-9_\-]+")
_KNOWN_PREFIXES = {str(namespace): prefix for prefix, namespace in PREFIXES.items()}
_RELATIONS = {  # PROV-O property → (prov package method, subject kind, object kind)
    PROV.used.value: "used",
    PROV.wasGeneratedBy.value: "wasGeneratedBy",
    PROV.wasDerivedFrom.value: "wasDerivedFrom",
    PROV.wasAssociatedWith.value: "wasAssociatedWith",
    PROV.wasInformedBy.value: "wasInformedBy",
    PROV.wasAttributedTo.value: "wasAttributedTo",
    PROV.actedOnBehalfOf.value: "actedOnBehalfOf",
}
_TIMES = {PROV.startedAtTime.value, PROV.endedAtTime.value, PROV.generatedAtTime.value}
_CLASSES = {PROV.Entity.value, PROV.Activity.value, PROV.Agent.value}


def _prov():
    try:
        import prov.model
    except ImportError:
        raise ConfigurationError(INSTALL_HINT) from None
    return prov.model


def is_qname_local(local: str) -> bool:
    """Whether ``local`` is a PROV-N local part needing no escapes."""
    return bool(_LOCAL.match(local))


def qualified_parts(iri: str) -> tuple[str, str]:
    """``iri`` as (namespace, local part): the longest valid local part that starts after a
    ``#``, ``/`` or ``:`` (or ``(iri, "")`` when no suffix is valid)."""
    for i, ch in enumerate(iri):
        if ch in "#/:" and is_qname_local(iri[i + 1 :]):
            return iri[: i + 1], iri[i + 1 :]
    return iri, ""


class _Names:
    """IRI → qualified name in one document, registering a prefix per namespace."""

    def __init__(self, doc: ProvDocument):
        self.doc = doc
        self.prefixes: dict[str, str] = {}
        self.used: set[str] = {"prov", "xsd"}

    def __call__(self, iri: str):
        namespace, local = qualified_parts(iri)
        if not local:
            raise ConfigurationError(f"cannot write {iri} as a PROV qualified name")
        prefix = self.prefixes.get(namespace)
        if prefix is None:
            prefix = self._prefix(namespace)
            self.prefixes[namespace] = prefix
            if prefix not in ("prov", "xsd"):
                self.doc.add_namespace(prefix, namespace)
        if prefix == "prov":
            from prov.constants import PROV as PROV_NS

            return PROV_NS[local]
        if prefix == "xsd":
            from prov.constants import XSD

            return XSD[local]
        return self.doc.valid_qualified_name(f"{prefix}:{local}")

    def _prefix(self, namespace: str) -> str:
        known = _KNOWN_PREFIXES.get(namespace)
        if known in ("prov", "xsd"):
            return known
        base = known or _PREFIX_CHARS.sub("_", re.sub(r"^[a-z]+:(//)?", "", namespace)).strip("_-") or "ns"
        if not base[0].isalpha():
            base = "ns_" + base
        if base.startswith("urn_"):
            base = base[4:]
        prefix, n = base, 1
        while prefix in self.used:
            n += 1
            prefix = f"{base}{n}"
        self.used.add(prefix)
        return prefix


def _value(term, names: _Names):
    """An RDF object as a PROV attribute value."""
    model = _prov()
    if isinstance(term, NamedNode):
        return names(term.value)
    if isinstance(term, Triple):
        return str(term)
    if isinstance(term, Literal):
        dt = term.datatype.value
        if dt.endswith("#string"):
            return term.value
        if term.language:
            return model.Literal(term.value, langtag=term.language)
        return model.Literal(term.value, names(dt))
    return str(term)


def _kind(node: Node) -> str:
    types = node.types()
    if PROV.Activity.value in types:
        return "activity"
    if PROV.Agent.value in types or any(t.endswith("Agent") for t in types if t.startswith(str(PROV))):
        return "agent"
    return "entity"


def _time(term):
    from .model import _literal_value

    return _literal_value(term)


def add_nodes(doc: ProvDocument, nodes: dict[str, Node], names: _Names) -> None:
    """The PROV elements and relations of ``nodes`` (one trace's description) added to ``doc``."""
    kinds = {key: _kind(node) for key, node in nodes.items()}
    records: dict[str, ProvRecord] = {}
    for key, node in nodes.items():
        attributes: list = []
        for prop, values in node.props.items():
            if prop in _RELATIONS or prop in _TIMES:
                continue
            for value in values:
                if prop == RDF.type.value:
                    if value.value not in _CLASSES:
                        attributes.append(("prov:type", names(value.value)))
                elif prop == RDFS.label.value:
                    attributes.append(("prov:label", _value(value, names)))
                else:
                    attributes.append((names(prop), _value(value, names)))
        ident = names(key)
        if doc.get_record(ident):
            continue  # a node shared by two traces of one export
        if kinds[key] == "activity":
            records[key] = doc.activity(
                ident, _time(node.first(PROV.startedAtTime)), _time(node.first(PROV.endedAtTime)), attributes
            )
        elif kinds[key] == "agent":
            records[key] = doc.agent(ident, attributes)
        else:
            records[key] = doc.entity(ident, attributes)
    for key, node in nodes.items():
        generated = _time(node.first(PROV.generatedAtTime))
        generators = [v for v in node.values(PROV.wasGeneratedBy) if isinstance(v, NamedNode)]
        for prop, method in _RELATIONS.items():
            for target in node.values(NamedNode(prop)):
                if not isinstance(target, NamedNode):
                    continue
                if method == "wasGeneratedBy":
                    doc.wasGeneratedBy(names(key), names(target.value), generated)
                else:
                    getattr(doc, method)(names(key), names(target.value))
        if generated is not None and not generators:
            doc.wasGeneratedBy(names(key), None, generated)


def _trace_nodes(navigator, question) -> dict[str, Node]:
    """The nodes ``trace/show`` describes for ``question`` (what :meth:`Navigator.trace` reads)."""
    from ..errors import NotFoundError

    q = navigator.resolve(question)
    nodes = describe(navigator.trace_rows(q))
    if q.value not in nodes:
        raise NotFoundError(f"no trace with question {q.value}; see `ragprov traces`")
    return nodes


def traces_document(navigator, questions: Iterable) -> ProvDocument:
    """One PROV document holding the traces of ``questions`` (IRIs or session ids)."""
    model = _prov()
    doc = model.ProvDocument()
    names = _Names(doc)
    for question in questions:
        add_nodes(doc, _trace_nodes(navigator, question), names)
    return doc


def every_question(navigator) -> list[NamedNode]:
    """Every trace of the store, each top-level trace followed by the sub-traces it ran."""
    out: list[NamedNode] = []
    todo = [s.question for s in navigator.list_traces(limit=2**31 - 1)]
    while todo:
        question = todo.pop(0)
        if question in out:
            continue
        out.append(question)
        todo[:0] = [sub.question for stage in navigator.trace(question).stages for sub in stage.subtraces]
    return out


def trace_document(navigator, question) -> ProvDocument:
    """The PROV document of one trace (an IRI or a bare session id)."""
    return traces_document(navigator, [question])


def serialize(doc: ProvDocument, fmt: str) -> str:
    """``doc`` as ``prov-json`` or ``prov-n`` text."""
    try:
        text = doc.serialize(format=FORMATS[fmt], indent=2) if fmt == "prov-json" else doc.serialize(format=FORMATS[fmt])
    except KeyError:
        raise ConfigurationError(f"unknown PROV format {fmt!r}: use one of {', '.join(FORMATS)}") from None
    return text or ""
