"""Quality control of the ontology and of recorded traces.

Three questions, three functions:

- :func:`run_checks` — is the ontology documented and anchored? Runs the ROBOT-style SPARQL checks
  of ``ontology/checks/*.rq`` over the ontology with pyoxigraph; each returns one row per problem,
  with the severity ``ontology/checks/profile.tsv`` gives it.
- :func:`validate_trace` — is a recorded trace well-formed? Validates it against
  ``ontology/shapes.ttl`` with pyshacl (the ``ontology`` extra).
- :func:`check_consistency` — is the ontology, with PROV-O and optionally a trace, logically
  consistent? Runs the HermiT reasoner through owlready2 (the ``ontology`` extra, and Java),
  entirely offline: ``owl:imports`` are resolved through ``catalog-v001.xml`` to vendored files.
- :func:`owl2_dl_violations` — does the ontology stay in OWL 2 DL? Runs the OWL API's profile
  checker (shipped inside owlready2's HermiT jar) and returns what the ontology adds to the
  violations of its imports (PROV-O puns a few properties).

rdflib (hence pyshacl and owlready2) cannot read triple terms, so traces are validated and reasoned
over in their plain-RDF form, where a quoted triple is the ``rdf:Statement`` IRI of the
``reification`` dialect. :func:`plain_rdf` makes that form from any input: RDF 1.2 triple terms,
RDF-star ``<< >>`` reifiers, or data already in the reification form.

>>> [p for p in run_checks() if p.severity is Severity.ERROR]
[]
"""

from __future__ import annotations

import contextlib
import enum
import io
import os
import re
import shutil
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from pyoxigraph import (
    BlankNode,
    Literal,
    NamedNode,
    Quad,
    RdfFormat,
    Store,
    Triple,
    parse,
    serialize,
)

from .errors import ConfigurationError, InvalidValueError, RagprovError

if TYPE_CHECKING:  # pragma: no cover
    import rdflib

__all__ = [
    "Check",
    "ConsistencyReport",
    "Problem",
    "Severity",
    "ValidationReport",
    "ValidationResult",
    "check_consistency",
    "list_checks",
    "owl2_dl_violations",
    "plain_rdf",
    "run_checks",
    "validate_trace",
]

TraceData = Union[str, bytes, "os.PathLike[str]", Iterable[Quad | Triple], "rdflib.Graph"]
"""What :func:`validate_trace`, :func:`check_consistency` and :func:`plain_rdf` accept: RDF text
(TriG, which includes Turtle, unless ``format`` says otherwise), a file path (format from its
suffix; a one-line string naming an existing file counts as a path), pyoxigraph quads or triples
(a ``Store`` too), or an rdflib graph or dataset."""

_INSTALL_HINT = "pip install 'ragprov[ontology]'"
_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_RDFS = "http://www.w3.org/2000/01/rdf-schema#"
_OWL = "http://www.w3.org/2002/07/owl#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_PROV = "http://www.w3.org/ns/prov#"
_TG = "https://trustgraph.ai/ns/"
_RDF_TYPE = NamedNode(_RDF + "type")
_RDF_REIFIES = NamedNode(_RDF + "reifies")
_OWL_IMPORTS = NamedNode(_OWL + "imports")


def _ontology_dir() -> Path:
    from .resources import ontology_dir

    return ontology_dir()


def _short(iri: str) -> str:
    for prefix, ns in (("tg:", _TG), ("prov:", _PROV), ("rdf:", _RDF), ("rdfs:", _RDFS),
                       ("owl:", _OWL), ("xsd:", _XSD)):
        if iri.startswith(ns) and re.fullmatch(r"[A-Za-z_][\w.-]*", iri[len(ns):]):
            return prefix + iri[len(ns):]
    return f"<{iri}>"


def _text(term: Any) -> str | None:
    """A term as a plain string: IRIs without brackets, literals by their lexical form."""
    if term is None:
        return None
    if isinstance(term, (NamedNode, Literal)):
        return term.value
    if isinstance(term, BlankNode):
        return f"_:{term.value}"
    return str(term)


# ------------------------------------------------------------------------------------------------
# QC checks
# ------------------------------------------------------------------------------------------------


class Severity(str, enum.Enum):
    """How bad a QC problem is. ``ERROR`` fails ``ragprov ontology check`` and the tests."""

    ERROR = "ERROR"
    WARN = "WARN"
    INFO = "INFO"

    @property
    def rank(self) -> int:
        """0 for ERROR, 1 for WARN, 2 for INFO (sorting order)."""
        return ("ERROR", "WARN", "INFO").index(self.value)


@dataclass(frozen=True)
class Check:
    """One QC query of ``ontology/checks``, with the metadata of its header."""

    name: str
    path: Path
    title: str
    description: str
    solution: str
    severity: Severity
    query: str


@dataclass(frozen=True)
class Problem:
    """One row returned by a QC check: the offending term, and the property and value at fault."""

    check: str
    severity: Severity
    entity: str
    property: str | None
    value: str | None
    title: str

    def to_dict(self) -> dict[str, str | None]:
        """The problem as JSON-ready values."""
        return {"check": self.check, "severity": self.severity.value, "entity": self.entity,
                "property": self.property, "value": self.value, "title": self.title}

    def __str__(self) -> str:
        parts = [f"{self.severity.value} {self.check}: {_short(self.entity)}"]
        if self.property:
            parts.append(_short(self.property))
        if self.value is not None:
            parts.append(_short(self.value) if _IRI_LIKE.match(self.value) else repr(self.value))
        return " ".join(parts) + f" — {self.title}"


_IRI_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s\"<>]+$")


_HEADER_LINE = re.compile(r"^#\s*(title|severity|description|solution):\s*(.*)$")


def _parse_header(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = _HEADER_LINE.match(line)
        if m:
            key = m.group(1)
            fields[key] = m.group(2).strip()
        elif key and line.startswith("#   "):
            fields[key] += " " + line[1:].strip()
        else:
            key = None
    return fields


def _read_profile(path: Path) -> dict[str, Severity]:
    profile: dict[str, Severity] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if cells[0] == "check":
            continue
        if len(cells) != 2 or cells[1].strip() not in Severity.__members__:
            raise ConfigurationError(f"{path}:{n}: expected 'check<TAB>ERROR|WARN|INFO', got {line!r}")
        profile[cells[0].strip()] = Severity(cells[1].strip())
    return profile


def list_checks(checks_dir: Path | None = None) -> list[Check]:
    """The QC checks, in profile order; severities come from ``profile.tsv``.

    A check missing from the profile keeps the severity of its header; a profile entry without a
    query file is a configuration error.
    """
    folder = Path(checks_dir) if checks_dir else _ontology_dir() / "checks"
    files = {p.stem: p for p in sorted(folder.glob("*.rq"))}
    profile_path = folder / "profile.tsv"
    profile = _read_profile(profile_path) if profile_path.exists() else {}
    missing = sorted(set(profile) - set(files))
    if missing:
        raise ConfigurationError(f"{profile_path} lists checks with no query file: {', '.join(missing)}")
    checks = []
    for name in [*profile, *sorted(set(files) - set(profile))]:
        text = files[name].read_text(encoding="utf-8")
        head = _parse_header(text)
        try:
            severity = profile.get(name) or Severity(head.get("severity", "ERROR"))
        except ValueError:
            raise ConfigurationError(f"{files[name]}: unknown severity {head.get('severity')!r}") from None
        checks.append(
            Check(name, files[name], head.get("title", name), head.get("description", ""),
                  head.get("solution", ""), severity, text)
        )
    return checks


def _load_store(path: Path) -> Store:
    store = Store()
    try:
        store.load(path=str(path), format=_FORMATS.get(path.suffix.lstrip(".").lower(), RdfFormat.TURTLE))
    except (OSError, SyntaxError, ValueError) as exc:
        raise ConfigurationError(f"cannot read {path}: {exc}") from exc
    return store


def run_checks(ontology_path: Path | str | None = None, *, checks: Iterable[str] | None = None,
               checks_dir: Path | None = None) -> list[Problem]:
    """Run the QC checks over an ontology file (default: the packaged ``ragprov.ttl``).

    ``checks`` restricts the run to the named checks. Problems come sorted by severity, check and
    term; an empty list means the ontology passes.
    """
    path = Path(ontology_path) if ontology_path else _ontology_dir() / "ragprov.ttl"
    store = _load_store(path)
    selected = list_checks(checks_dir)
    if checks is not None:
        wanted = set(checks)
        unknown = wanted - {c.name for c in selected}
        if unknown:
            raise ConfigurationError(f"unknown QC check(s): {', '.join(sorted(unknown))}")
        selected = [c for c in selected if c.name in wanted]
    problems: list[Problem] = []
    for check in selected:
        try:
            rows = store.query(check.query)
        except SyntaxError as exc:
            raise ConfigurationError(f"QC check {check.path} is not valid SPARQL: {exc}") from exc
        for row in rows:
            entity = _text(row["entity"]) or ""
            problems.append(Problem(check.name, check.severity, entity, _text(row["property"]),
                                    _text(row["value"]), check.title))
    problems.sort(key=lambda p: (p.severity.rank, p.check, p.entity, p.property or "", p.value or ""))
    return problems


# ------------------------------------------------------------------------------------------------
# Plain RDF: the reification form of any input
# ------------------------------------------------------------------------------------------------

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
    from .sparql.dialect import Dialect, statement_iri

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


# ------------------------------------------------------------------------------------------------
# SHACL validation of traces
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValidationResult:
    """One SHACL result: which node broke which rule, and how."""

    focus: str
    path: str | None
    value: str | None
    message: str
    severity: str
    """``Violation``, ``Warning`` or ``Info``."""
    shape: str
    constraint: str

    def __str__(self) -> str:
        focus = _short(self.focus) if ":" in self.focus else f"_:{self.focus}"
        parts = [f"{self.severity}: {focus}"]
        if self.path:
            parts.append(self.path)
        if self.value is not None:
            parts.append(f"= {self.value!r}")
        return " ".join(parts) + f" — {self.message}"


@dataclass(frozen=True)
class ValidationReport:
    """The outcome of :func:`validate_trace`. True when the trace conforms."""

    conforms: bool
    results: tuple[ValidationResult, ...]
    text: str = field(repr=False, default="")

    @property
    def violations(self) -> list[ValidationResult]:
        """The results that make the trace invalid."""
        return [r for r in self.results if r.severity == "Violation"]

    @property
    def warnings(self) -> list[ValidationResult]:
        """The results reported without invalidating the trace."""
        return [r for r in self.results if r.severity != "Violation"]

    def __bool__(self) -> bool:
        return self.conforms

    def __str__(self) -> str:
        n = len(self.violations)
        head = "trace conforms" if self.conforms else f"trace does not conform: {n} violation(s)"
        return "\n".join([head, *(f"  {r}" for r in self.results)])


def _require(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        raise ConfigurationError(f"{module} is not installed: {_INSTALL_HINT}") from None


def _hierarchy(folder: Path) -> list[Triple]:
    """The named ``rdfs:subClassOf`` links of the ontology and of its imports."""
    sub = NamedNode(_RDFS + "subClassOf")
    files = [folder / "ragprov.ttl", *_resolve_imports(folder / "ragprov.ttl").values()]
    out = []
    for f in files:
        for t in parse(path=str(f), format=RdfFormat.TURTLE):
            if t.predicate == sub and isinstance(t.subject, NamedNode) and isinstance(t.object, NamedNode):
                out.append(t)
    return out


@lru_cache(maxsize=4)
def _shacl_inputs(folder: Path, shapes_path: Path) -> tuple[Any, tuple[Any, ...]]:
    rdflib = _require("rdflib")
    shapes = rdflib.Graph()
    shapes.parse(str(shapes_path), format="turtle")
    hierarchy = tuple((rdflib.URIRef(t.subject.value), rdflib.RDFS.subClassOf, rdflib.URIRef(t.object.value))
                      for t in _hierarchy(folder))
    return shapes, hierarchy


def _to_rdflib(term: Any, rdflib: Any) -> Any:
    if isinstance(term, NamedNode):
        return rdflib.URIRef(term.value)
    if isinstance(term, BlankNode):
        return rdflib.BNode(term.value)
    if isinstance(term, Literal):
        if term.language:
            return rdflib.Literal(term.value, lang=term.language)
        if term.datatype.value == _XSD + "string":
            return rdflib.Literal(term.value)
        return rdflib.Literal(term.value, datatype=rdflib.URIRef(term.datatype.value))
    raise InvalidValueError(f"cannot convert {term!r} to plain RDF")


def _render_path(graph: Any, node: Any, rdflib: Any) -> str:
    sh = rdflib.Namespace("http://www.w3.org/ns/shacl#")
    if isinstance(node, rdflib.URIRef):
        return _short(str(node))
    inverse = graph.value(node, sh.inversePath)
    if inverse is not None:
        return "^" + _render_path(graph, inverse, rdflib)
    for key, mark in ((sh.zeroOrMorePath, "*"), (sh.oneOrMorePath, "+"), (sh.zeroOrOnePath, "?")):
        inner = graph.value(node, key)
        if inner is not None:
            return f"({_render_path(graph, inner, rdflib)}){mark}"
    items = list(rdflib.collection.Collection(graph, node)) if graph.value(node, rdflib.RDF.first) else []
    if items:
        return "/".join(_render_path(graph, i, rdflib) for i in items)
    return str(node)


def validate_trace(data: TraceData, *, format: str | None = None,
                   shapes_path: Path | str | None = None) -> ValidationReport:
    """Validate a trace against the SHACL shapes of ``ontology/shapes.ttl``.

    ``data`` is anything :func:`plain_rdf` reads — include the library graph (``tg:document``
    targets) as well as the retrieval graph, or the missing documents are reported as warnings.
    Warnings never make a trace invalid. Needs pyshacl (``pip install 'ragprov[ontology]'``).
    """
    rdflib = _require("rdflib")
    pyshacl = _require("pyshacl")
    folder = _ontology_dir()
    shapes, hierarchy = _shacl_inputs(folder, Path(shapes_path) if shapes_path else folder / "shapes.ttl")

    graph = rdflib.Graph()
    cache: dict[Any, Any] = {}
    for t in plain_rdf(data, format=format):
        terms = []
        for term in (t.subject, t.predicate, t.object):
            converted = cache.get(term)
            if converted is None:
                converted = cache[term] = _to_rdflib(term, rdflib)
            terms.append(converted)
        graph.add(tuple(terms))
    for t in hierarchy:
        graph.add(t)

    conforms, results_graph, text = pyshacl.validate(
        graph, shacl_graph=shapes, inference="none", allow_warnings=True, abort_on_first=False,
        meta_shacl=False, advanced=False, debug=False,
    )
    sh = rdflib.Namespace("http://www.w3.org/ns/shacl#")
    results = []
    for r in results_graph.subjects(rdflib.RDF.type, sh.ValidationResult):
        path = results_graph.value(r, sh.resultPath)
        value = results_graph.value(r, sh.value)
        messages = sorted(str(m) for m in results_graph.objects(r, sh.resultMessage))
        results.append(ValidationResult(
            focus=str(results_graph.value(r, sh.focusNode)),
            path=_render_path(results_graph, path, rdflib) if path is not None else None,
            value=str(value) if value is not None else None,
            message="; ".join(messages),
            severity=str(results_graph.value(r, sh.resultSeverity)).rsplit("#", 1)[-1],
            shape=_render_path(results_graph, results_graph.value(r, sh.sourceShape), rdflib),
            constraint=str(results_graph.value(r, sh.sourceConstraintComponent)).rsplit("#", 1)[-1],
        ))
    results.sort(key=lambda r: (r.severity != "Violation", r.focus, r.path or "", r.message))
    return ValidationReport(bool(conforms), tuple(results), text)


# ------------------------------------------------------------------------------------------------
# Consistency (HermiT through owlready2, offline)
# ------------------------------------------------------------------------------------------------


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
                if isinstance(first[head], NamedNode):
                    members.append(first[head].value)
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

    document = serialize(_for_hermit([*ontology, *data]), format=RdfFormat.N_TRIPLES)
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


_DL_CHECKER = r"""
import org.semanticweb.owlapi.apibinding.OWLManager;
import org.semanticweb.owlapi.model.*;
import org.semanticweb.owlapi.profiles.*;
public class RagprovDlProfile {
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < args.length; i++) {
      OWLOntologyManager m = OWLManager.createOWLOntologyManager();
      OWLOntology o = m.loadOntologyFromOntologyDocument(new java.io.File(args[i]));
      for (OWLProfileViolation v : new OWL2DLProfile().checkOntology(o).getViolations()) {
        String what = v.getClass().getSimpleName() + ": " + v.getAxiom();
        System.out.println(i + "\t" + what.replace('\n', ' '));
      }
    }
  }
}
"""


def owl2_dl_violations(ontology_path: Path | str | None = None) -> list[str]:
    """The OWL 2 DL profile violations of the ontology merged with its imports, minus those the
    imports have on their own. An empty list means the ontology adds no violation of its own.

    Uses the OWL API bundled in owlready2's HermiT jar (a Java 11+ runtime runs the checker from
    source; nothing is downloaded).
    """
    import subprocess
    import tempfile

    owlready2 = _require("owlready2")
    java = getattr(owlready2, "JAVA_EXE", "java")
    jar = Path(owlready2.__file__).parent / "hermit" / "HermiT.jar"
    if not (shutil.which(java) or Path(java).is_file()) or not jar.is_file():
        raise ConfigurationError(f"the OWL 2 DL check needs Java and {jar}: install a Java runtime (11 or later)")
    path = Path(ontology_path) if ontology_path else _ontology_dir() / "ragprov.ttl"
    own = [t for t in parse(path=str(path), format=RdfFormat.TURTLE) if t.predicate != _OWL_IMPORTS]
    imports = [t for f in _resolve_imports(path).values() for t in parse(path=str(f), format=RdfFormat.TURTLE)]
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "RagprovDlProfile.java"
        source.write_text(_DL_CHECKER, encoding="utf-8")
        merged, alone = Path(tmp) / "merged.nt", Path(tmp) / "imports.nt"
        merged.write_bytes(serialize([*own, *imports], format=RdfFormat.N_TRIPLES))
        alone.write_bytes(serialize(imports, format=RdfFormat.N_TRIPLES))
        run = subprocess.run([java, "-cp", str(jar), str(source), str(merged), str(alone)],
                             capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RagprovError(f"the OWL 2 DL check failed: {_java_error(Exception(run.stderr))}")
    found: dict[str, set[str]] = {"0": set(), "1": set()}
    for line in run.stdout.splitlines():
        which, _, what = line.partition("\t")
        found.setdefault(which, set()).add(what)
    return sorted(found["0"] - found["1"])
