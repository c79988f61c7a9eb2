"""Load Microsoft GraphRAG index output (``output/*.parquet``, v0.3 to v3) with extraction provenance.

>>> from ragprov.store import open_store
>>> from ragprov.resources import data_dir
>>> store = open_store("memory:")
>>> report = load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
>>> report.version, report.rows["entities"], report.rows["relationships"]
('3', 529, 978)
>>> load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False).skipped
True

API: ``load_graphrag(store, output_dir, *, facts_graph=None, namespace="urn:graphrag:",
unknown_entities="placeholder", batch_size=50_000, show_progress=None) -> GraphRagReport``.
Every table is read and checked before anything is written (missing tables or columns, wrong
column types, null ids, relationships naming unknown text units, text units naming unknown
documents, reports naming unknown communities…): a :class:`~ragprov.errors.LoadError` names the
file, table, row and column, and the store is left exactly as it was. Then the tables are streamed
in record batches and written in batches of ``batch_size`` quads, so memory stays flat as the
output grows (only the id indexes are kept). Loading the same output twice adds nothing: IRIs come
from GraphRAG's ids, and the load activity (written last) is named by a hash of the input.

Speed: the check runs on whole Arrow columns (the row-by-row check takes over, from the start,
for older layouts and for anything doubtful, and names the first bad row); the big tables are
spelled a column at a time with ``pyarrow.compute`` (:mod:`ragprov.loaders._columns`, the same
text as the row-wise spelling) and each batch is handed to the store as one N-Quads buffer on a
writer thread, so the store's parsing and inserting (GIL released) overlaps the next batch.

What is written (``F`` = the facts graph: the default graph, or ``facts_graph`` on stores whose
default graph is the union of all graphs; ``S`` = ``urn:graph:source``; ``L`` = ``urn:graph:library``;
``ns`` = ``namespace``)::

    F  <ns:entity:{id}>  a tg:Entity ; rdfs:label "SCROOGE" (the title) ;
                         dcterms:description "…" ; tg:entityType "PERSON" ;
                         tg:graphragId ; tg:humanReadableId ; [tg:degree ; tg:frequency]
    F  <ns:entity:{id}>  <ns:relationship:{id}>  <ns:entity:{id}> .          # the relationship fact
    F  <ns:relationship:{id}> a tg:Relationship, rdf:Property ; rdfs:subPropertyOf tg:relatedTo ;
                         rdfs:label "…the description…" ; dcterms:description "…" ;
                         tg:source <entity> ; tg:target <entity> ; tg:weight ; tg:combinedDegree ;
                         tg:graphragId ; tg:humanReadableId
    F  <ns:community:{n}> a tg:Community ; rdfs:label ; tg:level ; [tg:parent <community>] ;
                         tg:child <community>* ; tg:hasMember <entity>* ; tg:hasRelationship <rel>* ;
                         tg:humanReadableId ; [tg:graphragId ; tg:size ; tg:period]
    F  <ns:community_report:{id}> a tg:CommunityReport ; tg:community <community> ; rdfs:label, dc:title ;
                         tg:summary ; tg:content (full content) ; tg:rating (the rank column) ;
                         tg:ratingExplanation ; tg:level ; tg:finding <…/finding/{i}>* ; tg:graphragId ; tg:humanReadableId
    F  <…/finding/{i}>   a tg:ReportFinding ; tg:findingIndex i ; tg:summary ; tg:explanation
    F  <ns:claim:{id}>   a tg:Claim ; tg:claimType ; tg:covariateType ; dcterms:description ;
                         tg:subject "NAME" ; [tg:subjectEntity <entity>] ; [tg:object ; tg:objectEntity] ;
                         [tg:status ; tg:startDate ; tg:endDate ; tg:sourceText] ; tg:graphragId ; tg:humanReadableId
    S  <ns:document:{id}> a prov:Entity, tg:Document ; rdfs:label, dc:title ; tg:mimeType "text/plain" ; tg:graphragId
    L  <ns:document:{id}> tg:content "the document text"
    S  <ns:text_unit:{id}> a prov:Entity, tg:Chunk, tg:TextUnit ; tg:chunkIndex ; tg:charLength ;
                         prov:wasDerivedFrom <document>+ ; prov:wasGeneratedBy <activity> ;
                         tg:nTokens ; tg:graphragId ; tg:humanReadableId
    L  <ns:text_unit:{id}> tg:mimeType "text/plain" ; tg:content "the text unit's text"
    S  <ns:relationship:{id}/statement> a prov:Entity, tg:Statement ;
                         tg:reifies <<( <entity> <ns:relationship:{id}> <entity> )>> ;
                         tg:contains <<( <entity> <ns:relationship:{id}> <entity> )>> ;
                         prov:wasDerivedFrom <text_unit>+ ; prov:wasGeneratedBy <activity>
    S  <ns:entity:{id}> prov:wasDerivedFrom <text_unit>*    ;  <ns:claim:{id}> prov:wasDerivedFrom <text_unit>
    S  <urn:ragprov:graphrag-load:{hash}> a prov:Activity ; prov:used <document>* ; … (extract/activity)

Choices, for the retrieval pipelines that read this:

- **Relationships are singleton properties.** GraphRAG relationships have no type, only a
  description, so each relationship is its own predicate IRI, a sub-property of ``tg:relatedTo``,
  labelled with its description. A traversal over ``F`` sees ``?s ?p ?o`` between two
  ``tg:Entity`` nodes, can show ``(label(s), label(p), label(o))`` — e.g. ``(SCROOGE, "Scrooge
  was Marley's partner…", MARLEY)`` — to an LLM or a lexical scorer, and the selected edge keeps
  the original IRIs, so its Statement (and through it the text units and documents) is found by
  binding the whole triple. ``?p rdfs:subPropertyOf tg:relatedTo`` selects all relationships.
- **Text units are Chunks of their documents**: GraphRAG output has no pages, so the chain is
  Statement → text unit (Chunk) → Document (``tg:chunkIndex`` is the unit's position in its
  document; no ``tg:charOffset``, since GraphRAG text units may carry a metadata prefix).
- **Relationships naming unknown entities** (real v2/v3 outputs have them: the entity was pruned)
  get a placeholder entity ``<ns:entity-title:{title}> a tg:Entity, tg:UnresolvedEntity ;
  rdfs:label title`` (``unknown_entities="placeholder"``, the default), or are refused
  (``"error"``) or left out (``"skip"``).
- ``human_readable_id`` is stored as GraphRAG wrote it (0-based in some tables and versions,
  1-based in others: answers cite these numbers, so they are never renumbered); where an old
  output has none, it is the 1-based row number, as GraphRAG's own migration does.
- Missing ``parent`` (0.9 and older) is computed from membership (a level-L community's parent is
  the level L-1 community holding its members); missing ``children`` from ``parent``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import math
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyoxigraph import NamedNode

from ragprov import __version__
from ragprov.clock import utcnow
from ragprov.errors import InvalidValueError, LoadError
from ragprov.sparql.escape import sparql_iri
from ragprov.sparql.templates import render

from . import _columns as C
from . import provenance as P
from ._rdf import LIBRARY, SOURCE, QuadWriter, V, double, graph_term, integer, mint, progress, string
from .graphrag_schema import REQUIRED_TABLES, SCHEMAS, TABLES, detect_version, kind_matches

__all__ = ["UNKNOWN_ENTITY_POLICIES", "GraphRagOutput", "GraphRagReport", "load_graphrag", "open_output"]

UNKNOWN_ENTITY_POLICIES = ("placeholder", "error", "skip")
_BATCH_ROWS = {"documents": 4, "text_units": 256, "community_reports": 256, "communities": 128}
AGENT = "urn:ragprov:component:graphrag-loader"


@dataclasses.dataclass
class GraphRagReport:
    """What :func:`load_graphrag` did: the detected version, rows per table, quads written."""

    path: Path
    version: str
    rows: dict[str, int]
    quads: int
    activity: str
    placeholders: int = 0
    skipped_relationships: int = 0
    skipped: bool = False


@dataclasses.dataclass
class Table:
    """One GraphRAG table: its file, canonical columns (canonical name → source column), row count."""

    name: str
    path: Path
    columns: dict[str, str]
    rows: int

    def where(self, row: int, column: str | None = None) -> str:
        col = f", column {self.columns.get(column, column)!r}" if column else ""
        return f"{self.path}: table {self.name!r}, row {row}{col}"

    def batches(self, batch_size: int | None = None, *, skip: tuple[str, ...] = ()) -> Iterator[list[tuple[int, dict[str, Any]]]]:
        """Record batches as ``[(row number, {canonical column: value})]``, streamed from the file
        (canonical columns in ``skip`` are not read: pass 1 leaves out the long texts)."""
        if batch_size is None:  # rows of long text or long id lists in small batches: flat memory
            batch_size = _BATCH_ROWS.get(self.name, 2048)
        wanted = {c: s for c, s in self.columns.items() if c not in skip}
        sources = list(dict.fromkeys(wanted.values()))
        first = {src: next(c for c, s in wanted.items() if s == src) for src in sources}
        keys = [first[src] for src in sources]
        aliases = [(c, first[s]) for c, s in wanted.items() if first[s] != c]
        pf = _parquet(self.path, self.name)
        n = 0
        try:
            for batch in pf.iter_batches(batch_size=batch_size, columns=sources):
                cols = [batch.column(src).to_pylist() for src in sources]
                rows = [dict(zip(keys, values, strict=False)) for values in zip(*cols, strict=False)]
                for row in rows if aliases else ():
                    for alias, key in aliases:
                        row[alias] = row[key]
                yield list(zip(range(n, n + batch.num_rows), rows, strict=False))
                n += batch.num_rows
        except (OSError, pa.ArrowException) as e:
            raise LoadError(f"{self.path}: table {self.name!r}: cannot read row {n} onwards ({e})") from None

    def columns_of(
        self, batch_size: int | None = None, *, skip: tuple[str, ...] = ()
    ) -> Iterator[tuple[int, int, dict[str, pa.Array]]]:
        """Record batches as ``(first row number, rows, {canonical column: Arrow array})``, streamed
        from the file with no Python object per value (the column-wise write path)."""
        if batch_size is None:
            batch_size = _BATCH_ROWS.get(self.name, 4096)
        wanted = {c: s for c, s in self.columns.items() if c not in skip}
        sources = list(dict.fromkeys(wanted.values()))
        pf = _parquet(self.path, self.name)
        n = 0
        try:
            for batch in pf.iter_batches(batch_size=batch_size, columns=sources):
                arrays = {src: batch.column(src) for src in sources}
                yield n, batch.num_rows, {c: arrays[s] for c, s in wanted.items()}
                n += batch.num_rows
        except (OSError, pa.ArrowException) as e:
            raise LoadError(f"{self.path}: table {self.name!r}: cannot read row {n} onwards ({e})") from None

    def nulls(self, column: str) -> int | None:
        """The first row where ``column`` is null, or None (read column by column, no row objects)."""
        src = self.columns[column]
        pf = _parquet(self.path, self.name)
        meta, index = pf.metadata, pf.schema_arrow.get_field_index(src)
        if index >= 0 and meta.num_columns == len(pf.schema_arrow) and all(
            (stats := meta.row_group(i).column(index).statistics) is not None and stats.has_null_count and stats.null_count == 0
            for i in range(meta.num_row_groups)
        ):
            return None  # the file's statistics say no row group has a null there
        n = 0
        for batch in _parquet(self.path, self.name).iter_batches(batch_size=65536, columns=[src]):
            col = batch.column(0)
            if col.null_count:
                return n + col.to_pylist().index(None)
            n += batch.num_rows
        return None


@dataclasses.dataclass
class GraphRagOutput:
    """An opened output folder: its schema version and its tables (optional ones may be absent)."""

    path: Path
    version: str
    tables: dict[str, Table]

    def fingerprint(self) -> str:
        h = hashlib.sha256(self.version.encode())
        for name in sorted(self.tables):
            t = self.tables[name]
            h.update(name.encode())
            with open(t.path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
        return h.hexdigest()[:32]


def _parquet(path: Path, table: str) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as e:
        raise LoadError(f"{path}: table {table!r} is not a readable Parquet file ({e})") from None


def open_output(path: str | Path) -> GraphRagOutput:
    """Find the tables of a GraphRAG output folder, detect its version, and check columns and types."""
    root = Path(path)
    if not root.is_dir():
        raise LoadError(f"{root}: no such GraphRAG output folder")
    plain = any((root / f"{t}.parquet").is_file() for t in REQUIRED_TABLES)
    prefix = "" if plain else "create_final_"
    files = {t: root / f"{prefix}{t}.parquet" for t in TABLES}
    missing = [t for t in REQUIRED_TABLES if not files[t].is_file()]
    if missing:
        names = ", ".join(f"{prefix}{t}.parquet" for t in missing)
        if not plain and not any(files[t].is_file() for t in REQUIRED_TABLES):
            names = ", ".join(f"{t}.parquet (or create_final_{t}.parquet)" for t in REQUIRED_TABLES)
        raise LoadError(f"{root}: not a complete GraphRAG output: missing table {names}")
    schemas = {t: _parquet(f, t).schema_arrow for t, f in files.items() if f.is_file()}
    version = detect_version({t: s.names for t, s in schemas.items()}, plain=plain)
    schema = SCHEMAS[version]
    tables: dict[str, Table] = {}
    for name, arrow in schemas.items():
        twice = sorted({n for n in arrow.names if arrow.names.count(n) > 1})
        if twice:
            raise LoadError(f"{files[name]}: table {name!r} has more than one column named {', '.join(map(repr, twice))}; "
                            "keep one of each (the table was not written by GraphRAG as is)")
        columns: dict[str, str] = {}
        for canon, col in schema.columns[name].items():
            source = next((n for n in col.names if n in arrow.names), None)
            if source is None:
                if col.required:
                    raise LoadError(
                        f"{files[name]}: table {name!r} has no column {col.names[0]!r}"
                        + (f" (nor {', '.join(map(repr, col.names[1:]))})" if len(col.names) > 1 else "")
                        + f"; columns are {', '.join(arrow.names)}"
                    )
                continue
            t = arrow.field(source).type
            if not kind_matches(col.kind, t):
                raise LoadError(
                    f"{files[name]}: table {name!r}, column {source!r} has type {t}, expected {col.kind}"
                )
            columns[canon] = source
        tables[name] = Table(name, files[name], columns, _parquet(files[name], name).metadata.num_rows)
    return GraphRagOutput(root, version, tables)


# -- value checks ---------------------------------------------------------------------------------
def _number(table: Table, n: int, column: str, value: Any) -> None:
    """A finite number or nothing (NaN and infinities cannot be written as xsd:double facts)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LoadError(f"{table.where(n, column)}: expected a number, got {value!r}")
    if not math.isfinite(value):
        raise LoadError(f"{table.where(n, column)}: expected a finite number, got {value!r}; fix or drop the row")


def _finite_numbers(column: pa.ChunkedArray | pa.Array | None) -> bool:
    """Whether a column holds only numbers that are finite (or null), checked column-wise."""
    if column is None or pa.types.is_null(column.type) or pa.types.is_integer(column.type):
        return True
    if not pa.types.is_floating(column.type):
        return False
    return not pc.any(pc.invert(pc.is_finite(column))).as_py()


def _id(table: Table, n: int, column: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LoadError(f"{table.where(n, column)}: expected a non-empty id, got {value!r}")
    return value


def _required_int(table: Table, n: int, column: str, value: Any) -> int:
    """``value`` as an integer; a clear error naming the row when it is missing or no integer."""
    number = _int(table, n, column, value, optional=False)
    assert number is not None  # _int refuses a missing value that is not optional
    return number


def _int(table: Table, n: int, column: str, value: Any, *, optional: bool = True) -> int | None:
    if value is None:
        if optional:
            return None
        raise LoadError(f"{table.where(n, column)}: expected an integer, got null")
    if isinstance(value, bool):
        raise LoadError(f"{table.where(n, column)}: expected an integer, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value:  # NaN: a missing value in pandas-written files
            return None if optional else _int(table, n, column, None, optional=False)
        if value.is_integer():
            return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise LoadError(f"{table.where(n, column)}: expected an integer, got {value!r}")


def _ids(table: Table, n: int, column: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    out = []
    for v in value:
        out.append(_id(table, n, column, v))
    return out


_text = C.text


def _findings(table: Table, n: int, value: Any) -> list[tuple[str | None, str | None]]:
    if value is None:
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise LoadError(f"{table.where(n, 'findings')}: not a JSON list of findings") from None
    if not isinstance(value, list):
        raise LoadError(f"{table.where(n, 'findings')}: expected a list of findings, got {type(value).__name__}")
    out = []
    for f in value:
        if not isinstance(f, dict):
            raise LoadError(f"{table.where(n, 'findings')}: a finding is {type(f).__name__}, expected {{summary, explanation}}")
        out.append((_text(f.get("summary")), _text(f.get("explanation"))))
    return out


def _number_literal(value: Any) -> str:
    """An xsd:integer for integral ids, else a plain string (old outputs store numbers as text)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return integer(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return integer(int(value))
    return string(str(value))


@dataclasses.dataclass
class _Index:
    documents: set[str] = dataclasses.field(default_factory=set)
    text_units: set[str] = dataclasses.field(default_factory=set)
    unit_index: dict[str, int] = dataclasses.field(default_factory=dict)
    doc_units: dict[str, int] = dataclasses.field(default_factory=dict)
    entity_by_title: dict[str, str] = dataclasses.field(default_factory=dict)
    entities: set[str] = dataclasses.field(default_factory=set)
    placeholders: set[str] = dataclasses.field(default_factory=set)
    skipped_relationships: set[str] = dataclasses.field(default_factory=set)
    relationships: set[str] = dataclasses.field(default_factory=set)
    communities: dict[int, int] = dataclasses.field(default_factory=dict)  # community -> level
    parent: dict[int, int | None] = dataclasses.field(default_factory=dict)
    children: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    members: dict[int, list[str]] = dataclasses.field(default_factory=dict)  # from nodes, when needed


def _check(out: GraphRagOutput, policy: str) -> _Index:
    """Pass 1: read every table and check every value and link; nothing is written.

    The column-wise check runs first (whole columns, no Python object per row); anything it does
    not judge itself — an unusual layout or type, or any doubtful value — sends the load to the
    row-wise check, from the start, which names the file, table, row and column of the first error.
    """
    try:
        return _check_columns(out, policy)
    except _Suspect:
        return _check_rows(out, policy)


class _Suspect(Exception):
    """The column-wise check saw something it does not judge: the row-wise check decides."""


def _check_sources(ix: _Index, t: dict[str, Table]) -> None:
    """Documents and text units (few rows: row by row)."""
    docs = t["documents"]
    for batch in docs.batches(skip=("text",)):
        for n, row in batch:
            d = _id(docs, n, "id", row["id"])
            if d in ix.documents:
                raise LoadError(f"{docs.where(n, 'id')}: duplicate document id {d!r}")
            ix.documents.add(d)
            for i, u in enumerate(_ids(docs, n, "text_unit_ids", row.get("text_unit_ids"))):
                ix.unit_index.setdefault(u, i)
    units = t["text_units"]
    missing_text = units.nulls("text")  # the column is a string column (checked); no row may lack its text
    if missing_text is not None:
        raise LoadError(f"{units.where(missing_text, 'text')}: expected the text unit's text, got None")
    for batch in units.batches(skip=("text",)):
        for n, row in batch:
            u = _id(units, n, "id", row["id"])
            if u in ix.text_units:
                raise LoadError(f"{units.where(n, 'id')}: duplicate text unit id {u!r}")
            ix.text_units.add(u)
            doc_ids = _ids(units, n, "document_ids", row["document_ids"])
            if not doc_ids:
                raise LoadError(f"{units.where(n, 'document_ids')}: the text unit names no document")
            for d in doc_ids:
                if d not in ix.documents:
                    raise LoadError(f"{units.where(n, 'document_ids')}: unknown document {d!r} (not in {docs.path.name})")
            if u not in ix.unit_index:
                ix.unit_index[u] = ix.doc_units.get(doc_ids[0], 0)
            ix.doc_units[doc_ids[0]] = ix.doc_units.get(doc_ids[0], 0) + 1
            _int(units, n, "n_tokens", row.get("n_tokens"))


def _check_rows(out: GraphRagOutput, policy: str) -> _Index:
    """Pass 1, row by row (every layout and type; the first error, with its row)."""
    ix = _Index()
    t = out.tables
    _check_sources(ix, t)
    ents = t["entities"]
    first_row: dict[str, int] = {}
    for batch in ents.batches(skip=("description",)):
        for n, row in batch:
            e = _id(ents, n, "id", row["id"])
            title = row["title"]
            if not isinstance(title, str) or not title.strip():
                raise LoadError(f"{ents.where(n, 'title')}: expected the entity's name, got {title!r}")
            if e in ix.entities:
                raise LoadError(f"{ents.where(n, 'id')}: duplicate entity id {e!r}")
            if title in ix.entity_by_title:
                raise LoadError(
                    f"{ents.where(n, 'title')}: duplicate entity title {title!r} (also row {first_row[title]}); "
                    "relationships name entities by title, so titles must be unique"
                )
            ix.entities.add(e)
            ix.entity_by_title[title] = e
            first_row[title] = n
            for u in _ids(ents, n, "text_unit_ids", row.get("text_unit_ids")):
                if u not in ix.text_units:
                    raise LoadError(f"{ents.where(n, 'text_unit_ids')}: unknown text unit {u!r}")
    rels = t["relationships"]
    for batch in rels.batches(skip=("description",)):
        for n, row in batch:
            r = _id(rels, n, "id", row["id"])
            if r in ix.relationships:
                raise LoadError(f"{rels.where(n, 'id')}: duplicate relationship id {r!r}")
            ix.relationships.add(r)
            for col in ("source", "target"):
                name = row[col]
                if not isinstance(name, str) or not name:
                    raise LoadError(f"{rels.where(n, col)}: expected an entity title, got {name!r}")
                if name not in ix.entity_by_title:
                    if policy == "error":
                        raise LoadError(
                            f"{rels.where(n, col)}: unknown entity {name!r} (no entity has this title); "
                            "pass unknown_entities='placeholder' to load it as a placeholder entity"
                        )
                    if policy == "skip":
                        ix.skipped_relationships.add(r)
                    else:
                        ix.placeholders.add(name)
            units_of = _ids(rels, n, "text_unit_ids", row["text_unit_ids"])
            if not units_of:
                raise LoadError(f"{rels.where(n, 'text_unit_ids')}: the relationship names no text unit, so it has no source")
            for u in units_of:
                if u not in ix.text_units:
                    raise LoadError(f"{rels.where(n, 'text_unit_ids')}: unknown text unit {u!r}")
            _number(rels, n, "weight", row.get("weight"))
    nodes = t.get("nodes")
    membership: dict[tuple[int, str], int] = {}  # (level, entity id) -> community
    if nodes is not None:
        for batch in nodes.batches():
            for n, row in batch:
                level = _int(nodes, n, "level", row["level"], optional=False)
                community = _int(nodes, n, "community", row.get("community"))
                key = row.get("id") or ix.entity_by_title.get(row["title"])
                if community is None or community < 0 or key is None:
                    continue
                membership[(level, key)] = community  # type: ignore[index]
                ix.members.setdefault(community, []).append(key)
    comms = t.get("communities")
    if comms is not None:
        has_parent = "parent" in comms.columns
        has_entities = "entity_ids" in comms.columns
        for batch in comms.batches():
            for n, row in batch:
                c = _required_int(comms, n, "community", row["community"])
                level = _required_int(comms, n, "level", row["level"])
                if c in ix.communities:
                    raise LoadError(f"{comms.where(n, 'community')}: duplicate community {c}")
                ix.communities[c] = level
                if has_parent:
                    p = _int(comms, n, "parent", row.get("parent"))
                    ix.parent[c] = None if p is None or p < 0 else p
                for e in _ids(comms, n, "entity_ids", row.get("entity_ids")):
                    if e not in ix.entities:
                        raise LoadError(f"{comms.where(n, 'entity_ids')}: unknown entity {e!r}")
                    if has_entities:
                        membership.setdefault((level, e), c)
                for r in _ids(comms, n, "relationship_ids", row.get("relationship_ids")):
                    if r not in ix.relationships:
                        raise LoadError(f"{comms.where(n, 'relationship_ids')}: unknown relationship {r!r}")
                if not has_entities and c not in ix.members:
                    ix.members[c] = []
        if has_entities:
            ix.members = {}  # communities carry their own members
        if not has_parent:
            for batch in comms.batches():
                for n, row in batch:
                    c = _required_int(comms, n, "community", row["community"])
                    level = ix.communities[c]
                    keys = _ids(comms, n, "entity_ids", row.get("entity_ids")) or ix.members.get(c, [])
                    parent = None
                    if level and level > 0:
                        parent = next((membership[(level - 1, k)] for k in keys if (level - 1, k) in membership), None)
                    ix.parent[c] = parent
        for c, p in ix.parent.items():
            if p is not None:
                if p not in ix.communities:
                    raise LoadError(f"{comms.path}: table 'communities': community {c} has unknown parent {p}")
                ix.children.setdefault(p, []).append(c)
    reports = t.get("community_reports")
    if reports is not None:
        for batch in reports.batches(skip=("full_content", "summary", "rank_explanation")):
            for n, row in batch:
                c = _required_int(reports, n, "community", row["community"])
                if comms is not None and c not in ix.communities:
                    raise LoadError(f"{reports.where(n, 'community')}: unknown community {c}")
                if not isinstance(row["title"], str):
                    raise LoadError(f"{reports.where(n, 'title')}: expected a title, got {row['title']!r}")
                _findings(reports, n, row.get("findings"))
                _number(reports, n, "rank", row.get("rank"))
    cov = t.get("covariates")
    if cov is not None:
        for batch in cov.batches(skip=("description", "source_text")):
            for n, row in batch:
                _id(cov, n, "id", row["id"])
                u = _id(cov, n, "text_unit_id", row["text_unit_id"])
                if u not in ix.text_units:
                    raise LoadError(f"{cov.where(n, 'text_unit_id')}: unknown text unit {u!r}")
    return ix


def _strs(arr: pa.Array, *, blank: bool = False) -> list[str]:
    """A string column with no null (and, unless ``blank``, no blank value) as a list, or _Suspect."""
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)) or arr.null_count:
        raise _Suspect
    values = arr.to_pylist()
    if not all(values) if blank else not all(map(str.strip, values)):
        raise _Suspect
    return values


def _id_values(arr: pa.Array, *, nonempty: bool = False) -> list[str]:
    """Every id of a ``list[str]`` column (no null, no blank id; ``nonempty``: no empty list)."""
    t = arr.type
    if not (pa.types.is_list(t) or pa.types.is_large_list(t)) or not (
        pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)
    ):
        raise _Suspect
    if nonempty and (arr.null_count or (len(arr) and pc.min(pc.list_value_length(arr)).as_py() == 0)):
        raise _Suspect
    return _strs(pc.list_flatten(arr))


def _ints(arr: pa.Array, *, nulls: bool = False) -> list[int | None]:
    if not pa.types.is_integer(arr.type) or (arr.null_count and not nulls):
        raise _Suspect
    return arr.to_pylist()


def _check_columns(out: GraphRagOutput, policy: str) -> _Index:
    """Pass 1, column by column, for the current layout (no ``nodes`` table; communities with
    ``parent`` and ``entity_ids``; integer community numbers). Raises _Suspect on anything else."""
    t = out.tables
    comms = t.get("communities")
    if "nodes" in t or (comms is not None and not {"parent", "entity_ids"} <= comms.columns.keys()):
        raise _Suspect
    ix = _Index()
    _check_sources(ix, t)
    for _, size, cols in t["entities"].columns_of(8192, skip=("description", "type", "degree", "frequency", "human_readable_id")):
        ids, titles = _strs(cols["id"]), _strs(cols["title"])
        if len(set(ids)) != size or not ix.entities.isdisjoint(ids):
            raise _Suspect
        if len(set(titles)) != size or not ix.entity_by_title.keys().isdisjoint(titles):
            raise _Suspect
        ix.entities.update(ids)
        ix.entity_by_title.update(zip(titles, ids, strict=False))
        if "text_unit_ids" in cols and not ix.text_units.issuperset(_id_values(cols["text_unit_ids"])):
            raise _Suspect
    for _, size, cols in t["relationships"].columns_of(8192, skip=("description", "combined_degree", "human_readable_id")):
        ids = _strs(cols["id"])
        if len(set(ids)) != size or not ix.relationships.isdisjoint(ids):
            raise _Suspect
        ix.relationships.update(ids)
        for col in ("source", "target"):
            names = _strs(cols[col], blank=True)
            unknown = set(names).difference(ix.entity_by_title)
            if unknown:
                if policy == "error":
                    raise _Suspect
                if policy == "skip":
                    ix.skipped_relationships.update(r for r, name in zip(ids, names, strict=False) if name in unknown)
                else:
                    ix.placeholders.update(unknown)
        if not ix.text_units.issuperset(_id_values(cols["text_unit_ids"], nonempty=True)):
            raise _Suspect
        if not _finite_numbers(cols.get("weight")):
            raise _Suspect
    if comms is not None:
        for _, size, cols in comms.columns_of(8192, skip=("title", "id", "human_readable_id", "size", "period", "children")):
            numbers, levels, parents = _ints(cols["community"]), _ints(cols["level"]), _ints(cols["parent"], nulls=True)
            if len(set(numbers)) != size or not ix.communities.keys().isdisjoint(numbers):
                raise _Suspect
            ix.communities.update(zip(numbers, levels, strict=False))  # type: ignore[arg-type]
            ix.parent.update((c, None if p is None or p < 0 else p) for c, p in zip(numbers, parents, strict=False))  # type: ignore[misc]
            if not ix.entities.issuperset(_id_values(cols["entity_ids"])):
                raise _Suspect
            if "relationship_ids" in cols and not ix.relationships.issuperset(_id_values(cols["relationship_ids"])):
                raise _Suspect
        for c, p in ix.parent.items():
            if p is not None:
                if p not in ix.communities:
                    raise _Suspect
                ix.children.setdefault(p, []).append(c)
    reports = t.get("community_reports")
    if reports is not None:
        for _, _size, cols in reports.columns_of(
            8192, skip=("full_content", "summary", "rank_explanation", "id", "level", "human_readable_id")
        ):
            numbers = _ints(cols["community"])
            if comms is not None and not ix.communities.keys() >= set(numbers):
                raise _Suspect
            _strs(cols["title"], blank=True)  # a title each (an empty one: the row-wise check judges)
            findings = cols.get("findings")
            if findings is not None and not pa.types.is_null(findings.type):
                ft = findings.type
                if not (pa.types.is_list(ft) and pa.types.is_struct(ft.value_type)) or pc.list_flatten(findings).null_count:
                    raise _Suspect
            if not _finite_numbers(cols.get("rank")):
                raise _Suspect
    cov = t.get("covariates")
    if cov is not None:
        wanted = ("id", "text_unit_id")
        for _, _size, cols in cov.columns_of(8192, skip=tuple(c for c in cov.columns if c not in wanted)):
            _strs(cols["id"])
            if not ix.text_units.issuperset(_strs(cols["text_unit_id"])):
                raise _Suspect
    return ix


def load_graphrag(
    store,
    path: str | Path,
    *,
    facts_graph: NamedNode | None = None,
    namespace: str = "urn:graphrag:",
    unknown_entities: str = "placeholder",
    batch_size: int = 50_000,
    clock: Callable[[], _dt.datetime] = utcnow,
    show_progress: bool | None = None,
) -> GraphRagReport:
    """Load one GraphRAG output folder into ``store`` (see the module docstring for the model)."""
    if unknown_entities not in UNKNOWN_ENTITY_POLICIES:
        raise LoadError(f"unknown_entities must be one of {', '.join(UNKNOWN_ENTITY_POLICIES)}, got {unknown_entities!r}")
    try:
        sparql_iri(namespace + "x")
    except InvalidValueError as e:
        raise LoadError(f"the namespace {namespace!r} does not make IRIs: {e}") from None
    out = open_output(path)
    rows = {name: table.rows for name, table in out.tables.items()}
    g = graph_term(facts_graph)
    # The input's hash (read and hashed with the GIL released) runs beside the check.
    with ThreadPoolExecutor(1, thread_name_prefix="ragprov-fingerprint") as pool:
        fingerprint = pool.submit(out.fingerprint)
        ix = _check(out, unknown_entities)
        activity_iri = "urn:ragprov:graphrag-load:" + hashlib.sha256(
            "\x1f".join([fingerprint.result(), namespace, g, unknown_entities]).encode()
        ).hexdigest()[:32]
    report = GraphRagReport(
        out.path, out.version, rows, 0, activity_iri, len(ix.placeholders), len(ix.skipped_relationships)
    )
    if store.ask(render("extract/exists", store.dialect, node=activity_iri)):
        report.skipped = True
        return report
    total = sum(rows.values())
    with progress(f"loading {out.path.name}", total=total, enabled=show_progress) as advance:
        w = QuadWriter(store, batch_size=batch_size, background=True, trusted=True)
        try:
            _write(w, out, ix, g, namespace, f"<{activity_iri}>", advance, clock())
        finally:
            w.close()
    report.quads = w.written
    return report


def _write(
    w: QuadWriter,
    out: GraphRagOutput,
    ix: _Index,
    g: str,
    ns: str,
    act: str,
    advance: Callable[[int], None],
    started: _dt.datetime,
) -> None:
    """Pass 2: stream every table again and write its quads, table by table."""
    tables = _TableWriter(w, out, ix, g, ns, act, advance, started)
    for step in (tables.documents, tables.text_units, tables.entities, tables.relationships, tables.communities,
                 tables.community_reports, tables.covariates, tables.activity):
        step()


_PREDICATES = {
    "typ": V.type, "label": V.label, "derived": V.prov("wasDerivedFrom"), "gid": V.tg("graphragId"),
    "hrid": V.tg("humanReadableId"), "desc": V.dcterms("description"), "ENTITY": V.tg("Entity"), "S": SOURCE, "L": LIBRARY,
}


def _predicates(*names: str) -> tuple[str, ...]:
    """The spelled terms every table writes, by their short names here (``typ``, ``S``…)."""
    return tuple(_PREDICATES[n] for n in names)


class _TableWriter:
    """Writes the quads of each table of one checked output (one method a table), with the IRI
    helpers they share: minted under the namespace ``ns``, facts into graph ``g``."""

    def __init__(self, w: QuadWriter, out: GraphRagOutput, ix: _Index, g: str, ns: str, act: str,
                 advance: Callable[[int], None], started: _dt.datetime):
        self.w, self.out, self.t, self.ix, self.g, self.ns, self.act = w, out, out.tables, ix, g, ns, act
        self.advance, self.started = advance, started
        self.doc_iris: list[str] = []
        self.skipped = pa.array(sorted(ix.skipped_relationships), pa.string()) if ix.skipped_relationships else None
        self.known_titles = pa.array(list(ix.entity_by_title), pa.string())
        self.known_iris = C.iris(ns + "entity:", pa.array(list(ix.entity_by_title.values()), pa.string()))
        self.placeholder_titles = pa.array(sorted(ix.placeholders), pa.string())
        self.placeholder_iris = C.iris(ns + "entity-title:", self.placeholder_titles)

    # -- IRIs and columns ----------------------------------------------------------------------
    def doc_iri(self, d: str) -> str:
        return mint(self.ns + "document:", d)

    def unit_iri(self, u: str) -> str:
        return mint(self.ns + "text_unit:", u)

    def entity_iri(self, title: str) -> str:
        e = self.ix.entity_by_title.get(title)
        return mint(self.ns + "entity:", e) if e is not None else mint(self.ns + "entity-title:", title)

    def community_iri(self, c: int) -> str:
        return mint(self.ns + "community:", str(c))

    @staticmethod
    def hr_col(cols: dict[str, pa.Array], n0: int, size: int) -> pa.Array:
        """The human_readable_id as written (an integer literal for integral ids), else the
        1-based row number, for a whole batch."""
        arr = cols.get("human_readable_id")
        if arr is None or arr.null_count == len(arr):
            return C.integers(C.rows(n0 + 1, size))
        if pa.types.is_integer(arr.type):
            return C.integers(pc.fill_null(arr.cast(pa.int64()), C.rows(n0 + 1, size)))
        return pa.array([_number_literal(v if v is not None else n0 + i + 1) for i, v in enumerate(arr.to_pylist())], pa.string())

    def entity_iri_col(self, names: pa.Array, *, placeholders: bool = True) -> pa.Array:
        """``entity_iri`` for a column of titles (``placeholders=False``: null for unknown titles)."""
        names = names.cast(pa.string())
        found = pc.take(self.known_iris, pc.index_in(names, value_set=self.known_titles))
        if placeholders and found.null_count > names.null_count:
            found = pc.coalesce(found, pc.take(self.placeholder_iris, pc.index_in(names, value_set=self.placeholder_titles)))
        return found

    @staticmethod
    def column(cols: dict[str, pa.Array], name: str, size: int) -> pa.Array:
        arr = cols.get(name)
        return C.nulls(size) if arr is None else arr

    @classmethod
    def values(cls, cols: dict[str, pa.Array], size: int, *names: str) -> list[list[Any]]:
        """The named columns of a batch as Python lists (all nulls where a column is absent)."""
        return [cls.column(cols, name, size).to_pylist() for name in names]

    def unit_iri_col(self, arr: pa.Array) -> pa.Array:
        return C.iris(self.ns + "text_unit:", arr)

    # -- tables --------------------------------------------------------------------------------
    def documents(self) -> None:
        """Documents: their nodes in the source graph, their text in the library."""
        w, advance = self.w, self.advance
        gid, hrid, S, L = _predicates("gid", "hrid", "S", "L")
        doc_iri, hr_col, column = self.doc_iri, self.hr_col, self.column
        docs = self.t["documents"]
        content = V.tg("content")
        for n0, size, cols in docs.columns_of():
            ids = cols["id"].to_pylist()
            titles = column(cols, "title", size).to_pylist()
            hrs = hr_col(cols, n0, size).to_pylist()
            subjects = []
            for i, key in enumerate(ids):
                d = doc_iri(key)
                subjects.append(d)
                P.document_quads(w, d, title=titles[i] or key, mime_type="text/plain")
                w.node(d, S, [(gid, string(key)), (hrid, hrs[i])])
            self.doc_iris.extend(subjects)
            if "text" in cols:
                lines = C.Lines()
                lines.add(pa.array(subjects, pa.string()), content, C.literals(cols["text"]), L)
                w.buffers(lines.buffers())
            advance(size)

    def text_units(self) -> None:
        """Text units, as chunks of their first document (their text in the library)."""
        w, ix, act, advance = self.w, self.ix, self.act, self.advance
        typ, derived, gid, hrid, L = _predicates("typ", "derived", "gid", "hrid", "L")
        doc_iri, unit_iri, hr_col, column = self.doc_iri, self.unit_iri, self.hr_col, self.column
        content, mime = V.tg("content"), V.tg("mimeType")
        units = self.t["text_units"]
        text_unit_type = V.tg("TextUnit")
        n_tokens = V.tg("nTokens")
        text_plain = string("text/plain")
        for n0, size, cols in units.columns_of():
            ids = cols["id"].to_pylist()
            doc_lists = cols["document_ids"].to_pylist()
            lengths = pc.utf8_length(cols["text"]).to_pylist()
            hrs = hr_col(cols, n0, size).to_pylist()
            tokens = column(cols, "n_tokens", size).to_pylist()
            subjects = []
            for i, key in enumerate(ids):
                u = unit_iri(key)
                subjects.append(u)
                doc_ids = _ids(units, n0 + i, "document_ids", doc_lists[i])
                extra = [(typ, text_unit_type), (gid, string(key)), (hrid, hrs[i])]
                extra.extend((derived, doc_iri(d)) for d in doc_ids[1:])
                if tokens[i] is not None:
                    extra.append((n_tokens, integer(tokens[i])))
                P.chunk_quads(
                    w,
                    u,
                    parent=doc_iri(doc_ids[0]),
                    index=ix.unit_index[key],
                    length=lengths[i],
                    activity=act,
                    text=None,  # the library quads: below, a column at a time
                    extra=extra,
                )
            lines = C.Lines()
            u_col = pa.array(subjects, pa.string())
            lines.add(u_col, mime, text_plain, L)
            lines.add(u_col, content, C.literals(cols["text"]), L)
            w.buffers(lines.buffers())
            advance(size)

    def entities(self) -> None:
        """Entities, and a placeholder for each title a relationship names but no entity has."""
        w, ix, g, ns, advance = self.w, self.ix, self.g, self.ns, self.advance
        typ, label, derived, gid, hrid, desc, ENTITY, S = _predicates("typ", "label", "derived", "gid", "hrid", "desc", "ENTITY", "S")
        entity_iri, hr_col, unit_iri_col = self.entity_iri, self.hr_col, self.unit_iri_col
        ents = self.t["entities"]
        entity_type, degree, frequency = V.tg("entityType"), V.tg("degree"), V.tg("frequency")
        for n0, size, cols in ents.columns_of():
            lines = C.Lines()
            e = C.iris(ns + "entity:", cols["id"])
            lines.add(e, typ, ENTITY, g)
            lines.add(e, label, C.literals(cols["title"]), g)
            lines.add(e, gid, C.literals(cols["id"]), g)
            lines.add(e, hrid, hr_col(cols, n0, size), g)
            for col, pred in (("description", desc), ("type", entity_type)):
                if col in cols:
                    lines.add(e, pred, C.text_literals(cols[col]), g)
            for col, pred in (("degree", degree), ("frequency", frequency)):
                if col in cols:
                    lines.add(e, pred, C.integers(cols[col]), g)
            if "text_unit_ids" in cols:
                parents, units_of = C.id_lists(cols["text_unit_ids"])
                lines.add(pc.take(e, parents), derived, unit_iri_col(units_of), S)
            w.buffers(lines.buffers())
            advance(size)
        for title in sorted(ix.placeholders):
            w.node(entity_iri(title), g, [(typ, ENTITY), (typ, V.tg("UnresolvedEntity")), (label, string(title))])

    def relationships(self) -> None:
        """Relationships: the fact, its description, and its Statement derived from its text units."""
        w, g, ns, act, advance = self.w, self.g, self.ns, self.act, self.advance
        typ, label, derived, gid, hrid, desc, S = _predicates("typ", "label", "derived", "gid", "hrid", "desc", "S")
        hr_col, entity_iri_col, column, unit_iri_col = self.hr_col, self.entity_iri_col, self.column, self.unit_iri_col
        skipped = self.skipped
        rels = self.t["relationships"]
        source_p, target_p, weight_p, degree_p = V.tg("source"), V.tg("target"), V.tg("weight"), V.tg("combinedDegree")
        rel_types = (typ, V.tg("Relationship")), (typ, V.rdf("Property")), (V.rdfs("subPropertyOf"), V.tg("relatedTo"))
        stmt_types = (typ, V.prov("Entity")), (typ, V.tg("Statement"))
        generated, reifies, contains = V.prov("wasGeneratedBy"), V.tg("reifies"), V.tg("contains")
        for n0, size, cols in rels.columns_of():
            advance_by = size
            hrs = hr_col(cols, n0, size)
            if skipped is not None:
                keep = pc.invert(pc.is_in(cols["id"], value_set=skipped))
                cols = {k: pc.filter(v, keep) for k, v in cols.items()}
                hrs = pc.filter(hrs, keep)
                size = len(cols["id"])
            lines = C.Lines()
            r = C.iris(ns + "relationship:", cols["id"])
            st = C.iris(ns + "relationship:", cols["id"], "/statement")
            s, o = entity_iri_col(cols["source"]), entity_iri_col(cols["target"])
            description = C.text_values(column(cols, "description", size))
            has_description = pc.is_valid(description)
            related = pc.binary_join_element_wise(cols["source"].cast(pa.string()), " related to ", cols["target"].cast(pa.string()), "")
            lab = C.literals(pc.if_else(has_description, description.cast(pa.string()), related))
            lines.add_spo(s, r, o, g)
            for p, obj in rel_types:
                lines.add(r, p, obj, g)
            lines.add(r, label, lab, g)
            lines.add(r, source_p, s, g)
            lines.add(r, target_p, o, g)
            lines.add(r, gid, C.literals(cols["id"]), g)
            lines.add(r, hrid, hrs, g)
            lines.add(r, desc, pc.if_else(has_description, lab, pa.scalar(None, pa.string())), g)
            if "weight" in cols:
                lines.add(r, weight_p, C.pymap(cols["weight"].to_pylist(), double), g)
            if "combined_degree" in cols:
                cd = cols["combined_degree"]
                if pa.types.is_integer(cd.type):
                    lines.add(r, degree_p, C.integers(cd), g)
                else:
                    lines.add(r, degree_p, C.pymap(cd.to_pylist(), lambda v: integer(int(v)) if float(v).is_integer() else double(v)), g)
            # the Statement, exactly as extract/statement spells it
            for p, obj in stmt_types:
                lines.add(st, p, obj, S)
            parents, units_of = C.id_lists(cols["text_unit_ids"])
            lines.add(pc.take(st, parents), derived, unit_iri_col(units_of), S)
            lines.add(st, generated, act, S)
            fact = pc.binary_join_element_wise("<<( ", s, " ", r, " ", o, " )>>", "")
            lines.add(st, reifies, fact, S)
            lines.add(st, contains, fact, S)  # the subgraph of this one fact: TrustGraph's edge -> source link
            w.buffers(lines.buffers())
            advance(advance_by)

    def communities(self) -> None:
        """Communities: level, parent and children, members and relationships."""
        comms = self.t.get("communities")
        if comms is None:
            return
        g, ns, skipped = self.g, self.ns, self.skipped
        member_p, rel_p = V.tg("hasMember"), V.tg("hasRelationship")
        for n0, size, cols in comms.columns_of():
            text, count, subjects = self._community_rows(comms, n0, size, cols)
            lines = C.Lines()
            ci_col = pa.array(subjects, pa.string())
            entity_lists = cols.get("entity_ids")
            if entity_lists is not None:
                parents, members = C.id_lists(entity_lists)
                lines.add(pc.take(ci_col, parents), member_p, C.iris(ns + "entity:", members), g)
            if "relationship_ids" in cols:
                parents, rel_ids = C.id_lists(cols["relationship_ids"])
                if skipped is not None:
                    keep = pc.invert(pc.is_in(rel_ids, value_set=skipped))
                    parents, rel_ids = pc.filter(parents, keep), pc.filter(rel_ids, keep)
                lines.add(pc.take(ci_col, parents), rel_p, C.iris(ns + "relationship:", rel_ids), g)
            self.w.lines("".join(text), count)
            self.w.buffers(lines.buffers())
            self.advance(size)

    def _community_rows(self, comms: Table, n0: int, size: int, cols: dict[str, pa.Array]) -> tuple[list[str], int, list[str]]:
        """One batch of communities row by row: their N-Quads lines, how many, and their IRIs."""
        ix, g, ns, community_iri = self.ix, self.g, self.ns, self.community_iri
        typ, label, gid, hrid = _predicates("typ", "label", "gid", "hrid")
        member_p, child_p, parent_p = V.tg("hasMember"), V.tg("child"), V.tg("parent")
        community_type, level_p, size_p, period_p = V.tg("Community"), V.tg("level"), V.tg("size"), V.tg("period")
        has_children = "children" in comms.columns
        text: list[str] = []
        count = 0
        numbers = cols["community"].to_pylist()
        titles, hrids, ids, sizes, periods = self.values(cols, size, "title", "human_readable_id", "id", "size", "period")
        children = cols["children"].to_pylist() if has_children else [None] * size
        entity_lists = cols.get("entity_ids")
        member_counts = pc.list_value_length(entity_lists).to_pylist() if entity_lists is not None else [None] * size
        subjects = []
        for i, value in enumerate(numbers):
            n = n0 + i
            c = _int(comms, n, "community", value, optional=False)
            ci = community_iri(c)  # type: ignore[arg-type]
            subjects.append(ci)
            pairs = [
                (typ, community_type),
                (label, string(_text(titles[i]) or f"Community {c}")),
                (level_p, integer(ix.communities[c])),  # type: ignore[index]
                (hrid, _number_literal(hrids[i] if hrids[i] is not None else c)),
            ]
            parent = ix.parent.get(c)  # type: ignore[arg-type]
            if parent is not None:
                pairs.append((parent_p, community_iri(parent)))
            listed = children[i] if has_children else None
            kids = [k for k in listed if k is not None] if listed is not None else ix.children.get(c, [])  # type: ignore[arg-type]
            pairs.extend((child_p, community_iri(int(k))) for k in kids)
            if not member_counts[i]:  # no entity_ids here: members from the nodes table
                pairs.extend((member_p, mint(ns + "entity:", e)) for e in ix.members.get(c, []))  # type: ignore[arg-type]
            if ids[i] is not None:
                pairs.append((gid, string(str(ids[i]))))
            if sizes[i] is not None:
                pairs.append((size_p, integer(sizes[i])))
            if _text(periods[i]):
                pairs.append((period_p, string(str(periods[i]))))
            text.extend(f"{ci} {p} {o} {g} .\n" for p, o in pairs)
            count += len(pairs)
        return text, count, subjects

    def community_reports(self) -> None:
        """Community reports and their findings (a list of structs: column-wise; else row by row)."""
        reports = self.t.get("community_reports")
        if reports is None:
            return
        g, label, title_p = self.g, V.label, V.dc("title")
        texts = (("summary", V.tg("summary")), ("full_content", V.tg("content")), ("rank_explanation", V.tg("ratingExplanation")))
        for n0, size, cols in reports.columns_of():
            findings = cols.get("findings")
            columnwise = findings is not None and pa.types.is_list(findings.type) and pa.types.is_struct(findings.type.value_type)
            text, count, subjects, bases = self._report_rows(reports, n0, size, cols, columnwise=columnwise)
            lines = C.Lines()
            rp_col = pa.array(subjects, pa.string())
            title = C.literals(cols["title"])
            lines.add(rp_col, label, title, g)
            lines.add(rp_col, title_p, title, g)
            for col, pred in texts:
                if col in cols:
                    lines.add(rp_col, pred, C.text_literals(cols[col]), g)
            if columnwise:
                self._struct_findings(lines, reports, n0, findings, rp_col, bases)
            self.w.lines("".join(text), count)
            self.w.buffers(lines.buffers())
            self.advance(size)

    def _report_rows(self, reports: Table, n0: int, size: int, cols: dict[str, pa.Array], *,
                     columnwise: bool) -> tuple[list[str], int, list[str], list[str]]:
        """One batch of reports row by row: their N-Quads lines and count, their IRIs, and (for
        findings written column-wise) each report's finding IRI base."""
        g, ns = self.g, self.ns
        typ, gid, hrid = _predicates("typ", "gid", "hrid")
        report_type, community_p, level_p, rating_p = V.tg("CommunityReport"), V.tg("community"), V.tg("level"), V.tg("rating")
        finding_p = V.tg("finding")
        text: list[str] = []
        count = 0
        numbers = cols["community"].to_pylist()
        ids, hrids, ranks, levels = self.values(cols, size, "id", "human_readable_id", "rank", "level")
        findings = cols.get("findings")
        subjects, bases = [], []
        for i, value in enumerate(numbers):
            n = n0 + i
            c = _int(reports, n, "community", value, optional=False)
            key = ids[i] or f"community-{c}"
            rp = mint(ns + "community_report:", key)
            subjects.append(rp)
            pairs = [
                (typ, report_type),
                (community_p, self.community_iri(c)),  # type: ignore[arg-type]
                (hrid, _number_literal(hrids[i] if hrids[i] is not None else c)),
            ]
            if ranks[i] is not None:
                pairs.append((rating_p, double(ranks[i])))
            level = _int(reports, n, "level", levels[i])
            if level is not None:
                pairs.append((level_p, integer(level)))
            if ids[i] is not None:
                pairs.append((gid, string(str(ids[i]))))
            if columnwise:
                bases.append(mint(ns + "community_report:", key, "/finding/")[:-1])
            elif findings is not None:
                for j, finding in enumerate(_findings(reports, n, findings[i].as_py())):
                    f = mint(ns + "community_report:", key, f"/finding/{j}")
                    pairs.append((finding_p, f))
                    quads = self._finding_pairs(j, *finding)
                    text.extend(f"{f} {p} {o} {g} .\n" for p, o in quads)
                    count += len(quads)
            text.extend(f"{rp} {p} {o} {g} .\n" for p, o in pairs)
            count += len(pairs)
        return text, count, subjects, bases

    @staticmethod
    def _finding_pairs(index: int, summary: str | None, explanation: str | None) -> list[tuple[str, str]]:
        typ, = _predicates("typ")
        pairs = [(typ, V.tg("ReportFinding")), (V.tg("findingIndex"), integer(index))]
        if summary:
            pairs.append((V.tg("summary"), string(summary)))
        if explanation:
            pairs.append((V.tg("explanation"), string(explanation)))
        return pairs

    def _struct_findings(self, lines: C.Lines, reports: Table, n0: int, findings: pa.Array, rp_col: pa.Array,
                         bases: list[str]) -> None:
        """Findings given as a list of structs, a whole batch column-wise: ``{base}{index}``."""
        g = self.g
        typ, = _predicates("typ")
        parents = pc.list_parent_indices(findings)
        lengths = pc.fill_null(pc.list_value_length(findings), 0).to_pylist()
        starts, total = [], 0
        for length in lengths:
            starts.append(total)
            total += length
        index = pc.subtract(C.rows(0, len(parents)), pc.take(pa.array(starts, pa.int64()), parents))
        flat = pc.list_flatten(findings)
        f = pc.binary_join_element_wise(pc.take(pa.array(bases, pa.string()), parents), pc.cast(index, pa.string()), ">", "")
        if flat.null_count:  # a null finding: LoadError from the row-wise check, as pass 1 does
            bad = pc.indices_nonzero(pc.is_null(flat))[0].as_py()
            row = parents[bad].as_py()
            _findings(reports, n0 + row, findings[row].as_py())
        lines.add(pc.take(rp_col, parents), V.tg("finding"), f, g)
        lines.add(f, typ, V.tg("ReportFinding"), g)
        lines.add(f, V.tg("findingIndex"), C.integers(index), g)
        names = {field.name for field in flat.type}
        for field, pred in (("summary", V.tg("summary")), ("explanation", V.tg("explanation"))):
            if field in names:
                lines.add(f, pred, C.text_literals(pc.struct_field(flat, field)), g)

    def covariates(self) -> None:
        """Claims (the covariates table)."""
        w, g, ns, advance = self.w, self.g, self.ns, self.advance
        typ, label, derived, gid, hrid, desc, S = _predicates("typ", "label", "derived", "gid", "hrid", "desc", "S")
        hr_col, entity_iri_col, unit_iri_col = self.hr_col, self.entity_iri_col, self.unit_iri_col
        cov = self.t.get("covariates")
        if cov is None:
            return
        claim_columns = [
            ("type", V.tg("claimType")),
            ("covariate_type", V.tg("covariateType")),
            ("status", V.tg("status")),
            ("start_date", V.tg("startDate")),
            ("end_date", V.tg("endDate")),
            ("source_text", V.tg("sourceText")),
        ]
        claim_type = V.tg("Claim")
        subject_p, object_p = (V.tg("subject"), V.tg("subjectEntity")), (V.tg("object"), V.tg("objectEntity"))
        for n0, size, cols in cov.columns_of():
            lines = C.Lines()
            cl = C.iris(ns + "claim:", cols["id"])
            lines.add(cl, typ, claim_type, g)
            lines.add(cl, gid, C.literals(cols["id"]), g)
            lines.add(cl, hrid, hr_col(cols, n0, size), g)
            for col, pred in claim_columns:
                if col in cols:
                    lines.add(cl, pred, C.text_literals(cols[col]), g)
            if "description" in cols:
                d = C.text_literals(cols["description"])
                lines.add(cl, desc, d, g)
                lines.add(cl, label, d, g)
            for col, (name_p, entity_p) in (("subject_id", subject_p), ("object_id", object_p)):
                if col in cols:
                    names = C.text_values(cols[col])
                    lines.add(cl, name_p, C.literals(names), g)
                    lines.add(cl, entity_p, entity_iri_col(names, placeholders=False), g)
            lines.add(cl, derived, unit_iri_col(cols["text_unit_id"]), S)
            w.buffers(lines.buffers())
            advance(size)

    def activity(self) -> None:
        """The load activity: written last, its presence tells a later load that this output is complete."""
        w, act = self.w, self.act
        P.activity_quads(
            w,
            act,
            label="graphrag-loader extraction",
            used=self.doc_iris,
            agent=f"<{AGENT}>",
            agent_label="graphrag-loader",
            version=f"{__version__} (GraphRAG output v{self.out.version})",
            started=self.started,
        )
