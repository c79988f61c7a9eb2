"""SHACL validation of recorded traces against ``ontology/shapes.ttl`` (pyshacl, the ``ontology`` extra)."""


from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyoxigraph import (
    BlankNode,
    Literal,
    NamedNode,
    RdfFormat,
    Triple,
    parse,
)

from ..errors import InvalidValueError

if TYPE_CHECKING:  # pragma: no cover
    pass
from ._common import _RDFS, _XSD, _ontology_dir, _require, _short, _text
from .plain import TraceData, plain_rdf
from .reasoner import _resolve_imports


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
    hierarchy = tuple((rdflib.URIRef(_text(t.subject)), rdflib.RDFS.subClassOf, rdflib.URIRef(_text(t.object)))
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
