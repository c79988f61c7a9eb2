"""Load knowledge triples (N-Triples, Turtle or JSON facts), each attributed to a chunk or document.

>>> from ragprov.store import open_store
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "facts.nt"
>>> _ = path.write_text('<urn:e:scrooge> <urn:r:partner> <urn:e:marley> .\\n')
>>> store = open_store("memory:")
>>> report = load_triples(store, path, source="urn:ragprov:doc:carol", require_source=False)
>>> report.facts, report.skipped
(1, False)
>>> load_triples(store, path, source="urn:ragprov:doc:carol", require_source=False).skipped
True

For every fact ``s p o``:

- the fact itself, in the facts graph (the default graph, or ``facts_graph``);
- in ``urn:graph:source``, a Statement (``extract/statement``)::

      <urn:ragprov:statement:{hash of the fact and its sources}> a prov:Entity, tg:Statement ;
          tg:reifies <<( s p o )>> ; tg:contains <<( s p o )>> ; prov:wasDerivedFrom <chunk-or-document> ;
          prov:wasGeneratedBy <urn:ragprov:load:{hash of the input and options}> .

- one shared load Activity per run (``extract/activity``): ``prov:used`` the sources, the
  ``triples-loader`` agent, ``tg:llmModel`` and ``tg:ontology`` when given.

The statement and activity IRIs come from the content, so loading the same file again adds nothing
(the activity is found and the load is skipped). The whole file is parsed and checked before
anything is written: a syntax error, a blank node (it could not be named again on a reload) or a
malformed JSON fact is a :class:`LoadError` naming the file and the fact, and the store is unchanged.

JSON facts: a list (or ``{"triples": [...]}``) of objects ``{"s": IRI, "p": IRI, "o": value}``
where ``value`` is ``{"iri": IRI}``, ``{"value": "...", "datatype": IRI}`` or
``{"value": "...", "language": "en"}``, a string, a number or a boolean. A fact may carry its own
``"source": IRI`` (a chunk), overriding the load's ``source``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from ragprov import __version__
from ragprov.clock import utcnow
from ragprov.errors import InvalidValueError, LoadError
from ragprov.sparql.escape import to_literal, to_named_node
from ragprov.sparql.templates import render

from . import provenance as P
from ._rdf import QuadWriter, check_iri, content_hash, graph_term, progress

__all__ = ["FORMATS", "TriplesReport", "load_triples", "statement_iri_for"]

FORMATS = {"ntriples": ox.RdfFormat.N_TRIPLES, "turtle": ox.RdfFormat.TURTLE, "json": None}
_SUFFIX = {".nt": "ntriples", ".ntriples": "ntriples", ".ttl": "turtle", ".turtle": "turtle", ".json": "json"}
AGENT = "urn:ragprov:component:triples-loader"


@dataclasses.dataclass
class TriplesReport:
    """What a :func:`load_triples` call did."""

    activity: str
    facts: int
    quads: int
    skipped: bool = False


def statement_iri_for(fact: Triple, sources: list[str]) -> str:
    """The extraction Statement IRI of a fact from these sources (deterministic)."""
    return "urn:ragprov:statement:" + content_hash(str(fact), *sorted(sources))


def _format_of(path: Path, fmt: str | None) -> str:
    if fmt is None:
        fmt = _SUFFIX.get(path.suffix.lower())
        if fmt is None:
            raise LoadError(f"{path}: cannot tell the format from the file name; pass --format ntriples, turtle or json")
    if fmt not in FORMATS:
        raise LoadError(f"unknown triples format {fmt!r}: use one of {', '.join(FORMATS)}")
    return fmt


def _check_term(path: Path, n: int, fact: Triple) -> None:
    for role, term in (("subject", fact.subject), ("predicate", fact.predicate), ("object", fact.object)):
        if isinstance(term, BlankNode):
            raise LoadError(
                f"{path}: fact {n}: the {role} is a blank node ({term}); give it an IRI so that the fact "
                "can be named again on a reload"
            )
        if isinstance(term, Triple):
            raise LoadError(f"{path}: fact {n}: the {role} is a triple term; load flat facts only")


def _json_term(path: Path, n: int, key: str, value: Any, *, object_position: bool):
    where = f"{path}: fact {n}: {key!r}"
    try:
        if not object_position:
            if not isinstance(value, str):
                raise LoadError(f"{where} must be an IRI string, got {type(value).__name__}")
            return to_named_node(value)
        if isinstance(value, dict):
            if "iri" in value:
                return to_named_node(value["iri"])
            if "value" not in value:
                raise LoadError(f"{where} must have 'iri' or 'value'")
            text = value["value"]
            if not isinstance(text, str):
                text = str(to_literal(text).value)
            if value.get("language"):
                return Literal(text, language=value["language"])
            if value.get("datatype"):
                return Literal(text, datatype=to_named_node(value["datatype"]))
            return Literal(text)
        if value is None:
            raise LoadError(f"{where} is null")
        return to_literal(value)
    except (InvalidValueError, ValueError) as e:
        if isinstance(e, LoadError):
            raise
        raise LoadError(f"{where}: {e}") from None


def _facts(path: Path, fmt: str, data: bytes, source: str | None) -> Iterator[tuple[int, Triple, list[str]]]:
    """``(n, fact, sources)`` for each fact of the file (n from 1), checked."""
    default = [source] if source else []
    if fmt == "json":
        try:
            doc = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise LoadError(f"{path}: not UTF-8 (byte offset {e.start})") from None
        except json.JSONDecodeError as e:
            raise LoadError(f"{path}: not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        items = doc.get("triples") if isinstance(doc, dict) else doc
        if not isinstance(items, list):
            raise LoadError(f"{path}: expected a JSON list of facts (or an object with a 'triples' list)")
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                raise LoadError(f"{path}: fact {n}: expected an object with s, p, o; got {type(item).__name__}")
            for key in ("s", "p", "o"):
                if key not in item:
                    raise LoadError(f"{path}: fact {n}: missing {key!r}")
            fact = Triple(
                _json_term(path, n, "s", item["s"], object_position=False),
                _json_term(path, n, "p", item["p"], object_position=False),
                _json_term(path, n, "o", item["o"], object_position=True),
            )
            sources = default
            if item.get("source") is not None:
                if not isinstance(item["source"], str):
                    raise LoadError(f"{path}: fact {n}: 'source' must be an IRI string")
                check_iri(item["source"], f"{path}: fact {n}: 'source'")
                sources = [item["source"]]
            if not sources:
                raise LoadError(f"{path}: fact {n}: no source: pass --source CHUNK_OR_DOC or give the fact a 'source'")
            yield n, fact, sources
        return
    if not default:
        raise LoadError(f"{path}: no source: pass --source CHUNK_OR_DOC")
    try:
        for n, fact in enumerate(ox.parse(data, format=FORMATS[fmt]), start=1):
            if not isinstance(fact, Triple):  # pragma: no cover - triple formats give triples
                fact = fact.triple
            _check_term(path, n, fact)
            yield n, fact, default
    except SyntaxError as e:
        raise LoadError(f"{path}: not valid {fmt}: {e}") from None


def load_triples(
    store,
    path: str | Path,
    *,
    source: str | NamedNode | None,
    format: str | None = None,
    facts_graph: NamedNode | None = None,
    llm_model: str | None = None,
    ontology: str | NamedNode | None = None,
    require_source: bool = True,
    clock: Callable[[], _dt.datetime] = utcnow,
    show_progress: bool | None = None,
) -> TriplesReport:
    """Load the facts of ``path`` into ``store``, each with a Statement derived from ``source``.

    ``require_source``: the source (and every per-fact source) must already be a node of
    ``urn:graph:source`` (a loaded document, page or chunk); a typo then fails instead of
    attributing facts to nothing.
    """
    path = Path(path)
    fmt = _format_of(path, format)
    src = source.value if isinstance(source, NamedNode) else source
    if src is not None:
        check_iri(src, "the source")
    onto = ontology.value if isinstance(ontology, NamedNode) else ontology
    if onto is not None:
        check_iri(onto, "the ontology")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise LoadError(f"{path}: cannot read the file ({e.strerror or e})") from None
    # Pass 1: parse and check everything before writing anything.
    sources: set[str] = set()
    count = 0
    for _n, _fact, fact_sources in _facts(path, fmt, data, src):
        sources.update(fact_sources)
        count += 1
    if not count:
        raise LoadError(f"{path}: the file holds no triples; nothing was loaded")
    if require_source:
        for s in sorted(sources):
            if not store.ask(render("extract/exists", store.dialect, node=s)):
                raise LoadError(
                    f"{path}: the source <{s}> is not a document, page or chunk in urn:graph:source; "
                    "load the document first (ragprov load documents) or check the IRI"
                )
    graph = graph_term(facts_graph)
    activity = "urn:ragprov:load:" + content_hash(
        data, fmt, src or "", llm_model or "", onto or "", graph
    )
    if store.ask(render("extract/exists", store.dialect, node=activity)):
        return TriplesReport(activity, count, 0, skipped=True)
    act = f"<{activity}>"
    writer = QuadWriter(store)
    with progress(f"loading {path.name}", total=count, enabled=show_progress) as advance:
        writer.on_batch = None
        done = 0
        for _n, fact, fact_sources in _facts(path, fmt, data, src):
            s, p, o = str(fact.subject), str(fact.predicate), str(fact.object)
            writer.add(s, p, o, graph)
            P.statement_quads(
                writer,
                f"<{statement_iri_for(fact, fact_sources)}>",
                fact=(s, p, o),
                derived_from=[f"<{x}>" for x in fact_sources],
                activity=act,
            )
            done += 1
            if done % 1000 == 0:
                advance(1000)
        P.activity_quads(
            writer,
            act,
            label="triples-loader extraction",
            used=[f"<{x}>" for x in sorted(sources)],
            agent=f"<{AGENT}>",
            agent_label="triples-loader",
            version=__version__,
            started=clock(),
            llm_model=llm_model,
            ontology=f"<{onto}>" if onto else None,
        )
        writer.flush()
        advance(done % 1000)
    return TriplesReport(activity, count, writer.written)
