"""Consistency of the ontology (with PROV-O and optionally a trace): HermiT through owlready2,
offline (``owl:imports`` resolved through ``catalog-v001.xml`` to vendored files)."""


from __future__ import annotations

import contextlib
import io
import re
import shutil
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyoxigraph import (
    Literal,
    NamedNode,
    RdfFormat,
    Triple,
    parse,
)

from ..errors import ConfigurationError, InvalidValueError, RagprovError

if TYPE_CHECKING:  # pragma: no cover
    pass
from ._common import _OWL, _OWL_IMPORTS, _RDF, _RDFS, _XSD, _ntriples, _ontology_dir, _require, _short, _text
from .plain import TraceData, plain_rdf


def _resolve_imports(ontology_path: Path) -> dict[str, Path]:
    """Map every ``owl:imports`` of the ontology to a local file through ``catalog-v001.xml``."""
    catalog_path = ontology_path.parent / "catalog-v001.xml"
    mapping: dict[str, Path] = {}
    if catalog_path.exists():
        root = ET.parse(catalog_path).getroot()
        for uri in root.iter("{urn:oasis:names:tc:entity:xmlns:xml:catalog}uri"):
            mapping[uri.get("name", "")] = catalog_path.parent / uri.get("uri", "")
    resolved = {}
    for t in parse(path=str(ontology_path), format=RdfFormat.TURTLE):
        if t.predicate == _OWL_IMPORTS and isinstance(t.object, NamedNode):
            target = mapping.get(t.object.value)
            if target is None or not target.is_file():
                raise ConfigurationError(
                    f"owl:imports <{t.object.value}> is not mapped to a local file in {catalog_path}; "
                    "ragprov never fetches imports from the network"
                )
            resolved[t.object.value] = target
    return resolved


@dataclass(frozen=True)
class ConsistencyReport:
    """The outcome of :func:`check_consistency`. True when consistent with no unsatisfiable class."""

    consistent: bool
    """HermiT found a model and every literal fits the datatype its property declares."""
    unsatisfiable: tuple[str, ...]
    """Classes that can have no instance (equivalent to owl:Nothing)."""
    causes: tuple[str, ...]
    """Likely causes found by a direct check of the data: individuals that fall into disjoint
    classes (through their types, domains and ranges), literals outside their property's datatype,
    functional properties with several values."""
    reasoner_output: str = field(default="", repr=False)

    @property
    def ok(self) -> bool:
        """Consistent, and every class satisfiable."""
        return self.consistent and not self.unsatisfiable

    @property
    def explanation(self) -> str:
        """A readable account of the outcome."""
        if self.ok:
            return "consistent: HermiT found a model and no class is unsatisfiable"
        lines = ["inconsistent" if not self.consistent else "consistent, but some classes are unsatisfiable"]
        lines += [f"  unsatisfiable class: {_short(c)}" for c in self.unsatisfiable]
        lines += [f"  {c}" for c in self.causes]
        if not self.consistent and not self.causes:
            lines.append("  (no direct cause found; the contradiction needs OWL reasoning beyond "
                         "types, domains, ranges and disjointness)")
        return "\n".join(lines)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.explanation

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready values."""
        return {"consistent": self.consistent, "ok": self.ok, "unsatisfiable": list(self.unsatisfiable),
                "causes": list(self.causes)}


_INTEGER_TYPES = {_XSD + n for n in (
    "integer", "long", "int", "short", "byte", "nonNegativeInteger", "positiveInteger",
    "nonPositiveInteger", "negativeInteger", "unsignedLong", "unsignedInt", "unsignedShort",
    "unsignedByte")}
_COMPATIBLE = {
    _XSD + "integer": _INTEGER_TYPES,
    _XSD + "decimal": _INTEGER_TYPES | {_XSD + "decimal"},
    _XSD + "double": {_XSD + "double"},
    _XSD + "float": {_XSD + "float"},
    _XSD + "string": {_XSD + "string"},
    _XSD + "dateTime": {_XSD + "dateTime", _XSD + "dateTimeStamp"},
    _XSD + "boolean": {_XSD + "boolean"},
}
_LEXICAL = {
    _XSD + "integer": re.compile(r"[+-]?\d+"),
    _XSD + "decimal": re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)"),
    _XSD + "double": re.compile(r"[+-]?((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF)|-INF|NaN"),
    _XSD + "dateTime": re.compile(r"-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?"),
    _XSD + "boolean": re.compile(r"true|false|1|0"),
}


class _Axioms:
    """The parts of the ontology (and its imports) a direct check of instance data needs."""

    def __init__(self, triples: Sequence[Triple]) -> None:
        self.supers: dict[str, set[str]] = defaultdict(set)
        self.superprops: dict[str, set[str]] = defaultdict(set)
        self.domains: dict[str, set[str]] = defaultdict(set)
        self.ranges: dict[str, set[str]] = defaultdict(set)
        self.functional: set[str] = set()
        self.disjoint: set[frozenset[str]] = set()
        first, rest = {}, {}
        lists: list[Any] = []
        for t in triples:
            s, p, o = t.subject, t.predicate.value, t.object
            if p == _RDF + "first":
                first[s] = o
            elif p == _RDF + "rest":
                rest[s] = o
            if not isinstance(s, NamedNode):
                if p == _OWL + "members":
                    lists.append(o)
                continue
            if not isinstance(o, NamedNode):
                continue
            if p == _RDFS + "subClassOf":
                self.supers[s.value].add(o.value)
            elif p == _RDFS + "subPropertyOf":
                self.superprops[s.value].add(o.value)
            elif p == _RDFS + "domain":
                self.domains[s.value].add(o.value)
            elif p == _RDFS + "range":
                self.ranges[s.value].add(o.value)
            elif p == _OWL + "disjointWith":
                self.disjoint.add(frozenset((s.value, o.value)))
            elif p == _RDF + "type" and o.value == _OWL + "FunctionalProperty":
                self.functional.add(s.value)
        for head in lists:
            members = []
            while head in first:
                member = first[head]
                if isinstance(member, NamedNode):
                    members.append(member.value)
                head = rest.get(head)
            self.disjoint.update(frozenset((a, b)) for i, a in enumerate(members) for b in members[i + 1:])

    def closure(self, start: str, graph: dict[str, set[str]]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen


def _likely_causes(axioms: _Axioms, data: Sequence[Triple]) -> tuple[list[str], list[str]]:
    """(disjointness and cardinality causes, datatype clashes) in ``data``."""
    reasons: dict[Any, dict[str, str]] = defaultdict(dict)   # node -> class -> why
    literal_values: dict[tuple[Any, str], set[Literal]] = defaultdict(set)
    clashes: list[str] = []

    def typed(node: Any, cls: str, why: str) -> None:
        for sup in axioms.closure(cls, axioms.supers):
            because = why if sup == cls else f"{why}, and {_short(cls)} ⊑ {_short(sup)}"
            reasons[node].setdefault(sup, because)

    for t in data:
        s, p, o = t.subject, t.predicate.value, t.object
        if p == _RDF + "type" and isinstance(o, NamedNode):
            typed(s, o.value, f"asserted type {_short(o.value)}")
            continue
        for prop in axioms.closure(p, axioms.superprops):
            for d in axioms.domains.get(prop, ()):
                typed(s, d, f"subject of {_short(p)} (domain {_short(d)})")
            for r in axioms.ranges.get(prop, ()):
                if isinstance(o, Literal):
                    allowed = _COMPATIBLE.get(r)
                    if allowed is not None and o.datatype.value not in allowed:
                        clashes.append(f"{_text(s)} {_short(p)} {o} — the range of {_short(prop)} is "
                                       f"{_short(r)}, not {_short(o.datatype.value)}")
                    elif r in _LEXICAL and not _LEXICAL[r].fullmatch(o.value.strip()):
                        clashes.append(f"{_text(s)} {_short(p)} {o} — not a valid {_short(r)} value")
                elif not r.startswith(_XSD) and r != _RDFS + "Literal":
                    typed(o, r, f"object of {_short(p)} from {_text(s)} (range {_short(r)})")
            if prop in axioms.functional and isinstance(o, Literal):
                literal_values[(s, prop)].add(o)

    causes = []
    for node, classes in reasons.items():
        for pair in axioms.disjoint:
            a, b = sorted(pair)
            if a in classes and b in classes:
                causes.append(f"{_text(node)} is both a {_short(a)} ({classes[a]}) and a {_short(b)} "
                              f"({classes[b]}), which are disjoint")
    for (node, prop), values in literal_values.items():
        if len(values) > 1:
            causes.append(f"{_text(node)} has {len(values)} values of the functional property "
                          f"{_short(prop)}: {', '.join(sorted(str(v) for v in values))}")
    return sorted(set(causes)), list(dict.fromkeys(clashes))


_LONG_FRACTION = re.compile(r"^(.*T\d\d:\d\d:\d\d\.\d{3})\d+(.*)$")


def _for_hermit(triples: Sequence[Triple]) -> list[Triple]:
    """Work around HermiT's literal parser, which rejects xsd:dateTime values with more than three
    fractional digits (valid XSD, and what Python writes): keep the milliseconds. No axiom of the
    ontology compares times, so the outcome is the same."""
    out = []
    for t in triples:
        o = t.object
        if isinstance(o, Literal) and o.datatype.value == _XSD + "dateTime":
            m = _LONG_FRACTION.match(o.value)
            if m:
                t = Triple(t.subject, t.predicate, Literal(m.group(1) + m.group(2), datatype=o.datatype))
        out.append(t)
    return out


def _java_error(exc: Exception) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    for ln in lines:
        if "Exception" in ln and not ln.startswith("at "):
            return ln.split("Exception:", 1)[-1].strip() or ln
    return lines[-1] if lines else "no message"


def check_consistency(extra: TraceData | None = None, *, format: str | None = None,
                      ontology_path: Path | str | None = None) -> ConsistencyReport:
    """Reason with HermiT over the ontology, its imports (PROV-O, from the vendored copy) and
    optionally ``extra`` data such as a sample trace (anything :func:`plain_rdf` reads).

    Nothing is fetched from the network: every ``owl:imports`` must be mapped to a local file by
    ``catalog-v001.xml``. HermiT as bundled with owlready2 does not check literal datatypes, so
    literals are also checked against the ranges of their properties, and a clash makes the report
    inconsistent, as OWL 2 semantics would. Needs owlready2 (``pip install 'ragprov[ontology]'``)
    and a Java runtime.
    """
    owlready2 = _require("owlready2")
    java = getattr(owlready2, "JAVA_EXE", "java")
    if not (shutil.which(java) or Path(java).is_file()):
        raise ConfigurationError(f"the HermiT reasoner needs Java, and {java!r} is not on PATH: "
                                 "install a Java runtime (11 or later) or set owlready2.JAVA_EXE")
    path = Path(ontology_path) if ontology_path else _ontology_dir() / "ragprov.ttl"
    ontology = [t for f in (path, *_resolve_imports(path).values())
                for t in parse(path=str(f), format=RdfFormat.TURTLE) if t.predicate != _OWL_IMPORTS]
    data = plain_rdf(extra, format=format) if extra is not None else []
    axioms = _Axioms(ontology)
    causes, clashes = _likely_causes(axioms, data)

    document = _ntriples(_for_hermit([*ontology, *data]))
    world = owlready2.World()
    chatter = io.StringIO()
    consistent, unsatisfiable, output = True, (), ""
    try:
        with contextlib.redirect_stderr(chatter), contextlib.redirect_stdout(chatter):
            world.get_ontology("urn:ragprov:consistency-check").load(
                fileobj=io.BytesIO(document), format="ntriples")
            try:
                owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=0)
            except owlready2.OwlReadyInconsistentOntologyError:
                consistent = False
            else:
                unsatisfiable = tuple(sorted(c.iri for c in world.inconsistent_classes()
                                             if not c.iri.startswith(_OWL)))
    except owlready2.OwlReadyJavaError as exc:
        raise RagprovError(f"HermiT failed: {_java_error(exc)}") from exc
    except owlready2.OwlReadyOntologyParsingError as exc:
        raise InvalidValueError(f"owlready2 cannot read the ontology and data: {exc}") from exc
    finally:
        output = chatter.getvalue()
        world.close()
    return ConsistencyReport(
        consistent=consistent and not clashes,
        unsatisfiable=unsatisfiable,
        causes=tuple(causes + clashes),
        reasoner_output=output,
    )
