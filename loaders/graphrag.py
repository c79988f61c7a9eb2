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
from pathlib import Path
from typing import Any, Callable, Iterator

import pyarrow as pa
import pyarrow.parquet as pq
from pyoxigraph import NamedNode

from ragprov import __version__
from ragprov.errors import InvalidValueError, LoadError
from ragprov.sparql.escape import sparql_iri
from ragprov.sparql.templates import render

from . import provenance as P
from ._rdf import LIBRARY, SOURCE, V, QuadWriter, double, graph_term, integer, mint, progress, string
from .graphrag_schema import REQUIRED_TABLES, SCHEMAS, TABLES, detect_version, kind_matches

__all__ = ["load_graphrag", "GraphRagReport", "open_output", "GraphRagOutput", "UNKNOWN_ENTITY_POLICIES"]

UNKNOWN_ENTITY_POLICIES = ("placeholder", "error", "skip")
_BATCH_ROWS = {"documents": 4, "text_units": 256, "community_reports": 256, "communities": 128}
AGENT = "urn:ragprov:component:graphrag-loader"
_NONE_WORDS = {"", "none", "null", "nan"}


def _utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


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
                rows = [dict(zip(keys, values)) for values in zip(*cols)]
                for row in rows if aliases else ():
                    for alias, key in aliases:
                        row[alias] = row[key]
                yield list(zip(range(n, n + batch.num_rows), rows))
                n += batch.num_rows
        except (OSError, pa.ArrowException) as e:
            raise LoadError(f"{self.path}: table {self.name!r}: cannot read row {n} onwards ({e})") from None

    def nulls(self, column: str) -> int | None:
        """The first row where ``column`` is null, or None (read column by column, no row objects)."""
        src = self.columns[column]
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
def _id(table: Table, n: int, column: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LoadError(f"{table.where(n, column)}: expected a non-empty id, got {value!r}")
    return value


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


def _text(value: Any) -> str | None:
    """``value`` as text, or None for GraphRAG's spellings of nothing ("", "NONE", "None", "nan")."""
    if value is None:
        return None
    if type(value) is not str:
        value = str(value)
    if len(value) > 6:
        return value
    return None if value.strip().lower() in _NONE_WORDS else value


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
    """Pass 1: read every table and check every value and link; nothing is written."""
    ix = _Index()
    t = out.tables
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
            if row.get("weight") is not None and not isinstance(row["weight"], (int, float)):
                raise LoadError(f"{rels.where(n, 'weight')}: expected a number, got {row['weight']!r}")
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
                c = _int(comms, n, "community", row["community"], optional=False)
                level = _int(comms, n, "level", row["level"], optional=False)
                if c in ix.communities:
                    raise LoadError(f"{comms.where(n, 'community')}: duplicate community {c}")
                ix.communities[c] = level  # type: ignore[assignment]
                if has_parent:
                    p = _int(comms, n, "parent", row.get("parent"))
                    ix.parent[c] = None if p is None or p < 0 else p  # type: ignore[index]
                for e in _ids(comms, n, "entity_ids", row.get("entity_ids")):
                    if e not in ix.entities:
                        raise LoadError(f"{comms.where(n, 'entity_ids')}: unknown entity {e!r}")
                    if has_entities:
                        membership.setdefault((level, e), c)  # type: ignore[arg-type]
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
                    c = _int(comms, n, "community", row["community"], optional=False)
                    level = ix.communities[c]  # type: ignore[index]
                    keys = _ids(comms, n, "entity_ids", row.get("entity_ids")) or ix.members.get(c, [])  # type: ignore[arg-type]
                    parent = None
                    if level and level > 0:
                        parent = next((membership[(level - 1, k)] for k in keys if (level - 1, k) in membership), None)
                    ix.parent[c] = parent  # type: ignore[index]
        for c, p in ix.parent.items():
            if p is not None:
                if p not in ix.communities:
                    raise LoadError(f"{comms.path}: table 'communities': community {c} has unknown parent {p}")
                ix.children.setdefault(p, []).append(c)
    reports = t.get("community_reports")
    if reports is not None:
        for batch in reports.batches(skip=("full_content", "summary", "rank_explanation")):
            for n, row in batch:
                c = _int(reports, n, "community", row["community"], optional=False)
                if comms is not None and c not in ix.communities:
                    raise LoadError(f"{reports.where(n, 'community')}: unknown community {c}")
                if not isinstance(row["title"], str):
                    raise LoadError(f"{reports.where(n, 'title')}: expected a title, got {row['title']!r}")
                _findings(reports, n, row.get("findings"))
                if row.get("rank") is not None and not isinstance(row["rank"], (int, float)):
                    raise LoadError(f"{reports.where(n, 'rank')}: expected a number")
    cov = t.get("covariates")
    if cov is not None:
        for batch in cov.batches(skip=("description", "source_text")):
            for n, row in batch:
                _id(cov, n, "id", row["id"])
                u = _id(cov, n, "text_unit_id", row["text_unit_id"])
                if u not in ix.text_units:
                    raise LoadError(f"{cov.where(n, 'text_unit_id')}: unknown text unit {u!r}")
    return ix


def load_graphrag(
    store,
    path: str | Path,
    *,
    facts_graph: NamedNode | None = None,
    namespace: str = "urn:graphrag:",
    unknown_entities: str = "placeholder",
    batch_size: int = 50_000,
    clock: Callable[[], _dt.datetime] = _utcnow,
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
    activity_iri = "urn:ragprov:graphrag-load:" + hashlib.sha256(
        "\x1f".join([out.fingerprint(), namespace, g, unknown_entities]).encode()
    ).hexdigest()[:32]
    ix = _check(out, unknown_entities)
    report = GraphRagReport(
        out.path, out.version, rows, 0, activity_iri, len(ix.placeholders), len(ix.skipped_relationships)
    )
    if store.ask(render("extract/exists", store.dialect, node=activity_iri)):
        report.skipped = True
        return report
    total = sum(rows.values())
    with progress(f"loading {out.path.name}", total=total, enabled=show_progress) as advance:
        w = QuadWriter(store, batch_size=batch_size)
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
    """Pass 2: stream every table again and write its quads."""
    t = out.tables
    S, L = SOURCE, LIBRARY
    typ, label = V.type, V.label
    derived = V.prov("wasDerivedFrom")
    gid, hrid = V.tg("graphragId"), V.tg("humanReadableId")
    desc = V.dcterms("description")
    ENTITY = V.tg("Entity")

    def doc_iri(d: str) -> str:
        return mint(ns + "document:", d)

    unit_iris: dict[str, str] = {}

    def unit_iri(u: str) -> str:
        spelled = unit_iris.get(u)
        if spelled is None:
            spelled = unit_iris[u] = mint(ns + "text_unit:", u)
        return spelled

    entity_iris: dict[str, str] = {}

    def entity_iri(title: str) -> str:
        spelled = entity_iris.get(title)
        if spelled is None:
            e = ix.entity_by_title.get(title)
            spelled = mint(ns + "entity:", e) if e is not None else mint(ns + "entity-title:", title)
            entity_iris[title] = spelled
        return spelled

    def community_iri(c: int) -> str:
        return mint(ns + "community:", str(c))

    def hr(table, n: int, row: dict) -> str:
        value = row.get("human_readable_id")
        return _number_literal(value if value is not None else n + 1)

    docs = t["documents"]
    doc_iris: list[str] = []
    for batch in docs.batches():
        for n, row in batch:
            d = doc_iri(row["id"])
            doc_iris.append(d)
            P.document_quads(w, d, title=row.get("title") or row["id"], mime_type="text/plain")
            w.node(d, S, [(gid, string(row["id"])), (hrid, hr(docs, n, row))])
            if row.get("text") is not None:
                w.add(d, V.tg("content"), string(row["text"]), L)
        advance(len(batch))
    units = t["text_units"]
    text_unit_type = V.tg("TextUnit")
    n_tokens = V.tg("nTokens")
    for batch in units.batches():
        for n, row in batch:
            u = unit_iri(row["id"])
            doc_ids = _ids(units, n, "document_ids", row["document_ids"])
            text = row["text"]
            extra = [(typ, text_unit_type), (gid, string(row["id"])), (hrid, hr(units, n, row))]
            extra.extend((derived, doc_iri(d)) for d in doc_ids[1:])
            if row.get("n_tokens") is not None:
                extra.append((n_tokens, integer(row["n_tokens"])))
            P.chunk_quads(
                w,
                u,
                parent=doc_iri(doc_ids[0]),
                index=ix.unit_index[row["id"]],
                length=len(text),
                activity=act,
                text=text,
                extra=extra,
            )
        advance(len(batch))
    ents = t["entities"]
    entity_type, degree, frequency = V.tg("entityType"), V.tg("degree"), V.tg("frequency")
    for batch in ents.batches():
        for n, row in batch:
            e = entity_iri(row["title"])
            text = (
                f"{e} {typ} {ENTITY} {g} .\n{e} {label} {string(row['title'])} {g} .\n"
                f"{e} {gid} {string(row['id'])} {g} .\n{e} {hrid} {hr(ents, n, row)} {g} .\n"
            )
            count = 4
            if _text(row.get("description")):
                text += f"{e} {desc} {string(row['description'])} {g} .\n"
                count += 1
            if _text(row.get("type")):
                text += f"{e} {entity_type} {string(row['type'])} {g} .\n"
                count += 1
            if row.get("degree") is not None:
                text += f"{e} {degree} {integer(row['degree'])} {g} .\n"
                count += 1
            if row.get("frequency") is not None:
                text += f"{e} {frequency} {integer(row['frequency'])} {g} .\n"
                count += 1
            units_of = _ids(ents, n, "text_unit_ids", row.get("text_unit_ids"))
            if units_of:
                text += "".join([f"{e} {derived} {unit_iri(u)} {S} .\n" for u in units_of])
                count += len(units_of)
            w.lines(text, count)
        advance(len(batch))
    for title in sorted(ix.placeholders):
        w.node(entity_iri(title), g, [(typ, ENTITY), (typ, V.tg("UnresolvedEntity")), (label, string(title))])
    rels = t["relationships"]
    source_p, target_p, weight_p, degree_p = V.tg("source"), V.tg("target"), V.tg("weight"), V.tg("combinedDegree")
    rel_types = f"{typ} {V.tg('Relationship')}", f"{typ} {V.rdf('Property')}", f"{V.rdfs('subPropertyOf')} {V.tg('relatedTo')}"
    stmt_types = f"{typ} {V.prov('Entity')}", f"{typ} {V.tg('Statement')}"
    generated, reifies = V.prov("wasGeneratedBy"), V.tg("reifies")
    for batch in rels.batches():
        for n, row in batch:
            if row["id"] in ix.skipped_relationships:
                continue
            r = mint(ns + "relationship:", row["id"])
            st = mint(ns + "relationship:", row["id"], "/statement")
            s, o = entity_iri(row["source"]), entity_iri(row["target"])
            description = _text(row.get("description"))
            lab = string(description or f"{row['source']} related to {row['target']}")
            text = (
                f"{s} {r} {o} {g} .\n"
                f"{r} {rel_types[0]} {g} .\n{r} {rel_types[1]} {g} .\n{r} {rel_types[2]} {g} .\n"
                f"{r} {label} {lab} {g} .\n{r} {source_p} {s} {g} .\n{r} {target_p} {o} {g} .\n"
                f"{r} {gid} {string(row['id'])} {g} .\n{r} {hrid} {hr(rels, n, row)} {g} .\n"
            )
            count = 9
            if description:
                text += f"{r} {desc} {lab} {g} .\n"
                count += 1
            if row.get("weight") is not None:
                text += f"{r} {weight_p} {double(row['weight'])} {g} .\n"
                count += 1
            cd = row.get("combined_degree")
            if cd is not None:
                text += f"{r} {degree_p} {integer(int(cd)) if float(cd).is_integer() else double(cd)} {g} .\n"
                count += 1
            # the Statement, exactly as extract/statement spells it
            units_of = _ids(rels, n, "text_unit_ids", row["text_unit_ids"])
            text += (
                f"{st} {stmt_types[0]} {S} .\n{st} {stmt_types[1]} {S} .\n"
                + "".join([f"{st} {derived} {unit_iri(u)} {S} .\n" for u in units_of])
                + f"{st} {generated} {act} {S} .\n{st} {reifies} <<( {s} {r} {o} )>> {S} .\n"
            )
            w.lines(text, count + 4 + len(units_of))
        advance(len(batch))
    comms = t.get("communities")
    if comms is not None:
        for batch in comms.batches():
            for n, row in batch:
                c = _int(comms, n, "community", row["community"], optional=False)
                ci = community_iri(c)  # type: ignore[arg-type]
                pairs = [
                    (typ, V.tg("Community")),
                    (label, string(_text(row.get("title")) or f"Community {c}")),
                    (V.tg("level"), integer(ix.communities[c])),  # type: ignore[index]
                    (hrid, _number_literal(row.get("human_readable_id") if row.get("human_readable_id") is not None else c)),
                ]
                parent = ix.parent.get(c)  # type: ignore[arg-type]
                if parent is not None:
                    pairs.append((V.tg("parent"), community_iri(parent)))
                if "children" in comms.columns and row.get("children") is not None:
                    kids = [k for k in row["children"] if k is not None]
                else:
                    kids = ix.children.get(c, [])  # type: ignore[arg-type]
                pairs.extend((V.tg("child"), community_iri(int(k))) for k in kids)
                members = _ids(comms, n, "entity_ids", row.get("entity_ids")) or ix.members.get(c, [])  # type: ignore[arg-type]
                pairs.extend((V.tg("hasMember"), mint(ns + "entity:", e)) for e in members)
                pairs.extend(
                    (V.tg("hasRelationship"), mint(ns + "relationship:", r))
                    for r in _ids(comms, n, "relationship_ids", row.get("relationship_ids"))
                    if r not in ix.skipped_relationships
                )
                if row.get("id") is not None:
                    pairs.append((gid, string(str(row["id"]))))
                if row.get("size") is not None:
                    pairs.append((V.tg("size"), integer(row["size"])))
                if _text(row.get("period")):
                    pairs.append((V.tg("period"), string(str(row["period"]))))
                w.node(ci, g, pairs)
            advance(len(batch))
    reports = t.get("community_reports")
    if reports is not None:
        for batch in reports.batches():
            for n, row in batch:
                c = _int(reports, n, "community", row["community"], optional=False)
                key = row.get("id") or f"community-{c}"
                rp = mint(ns + "community_report:", key)
                title = string(row["title"])
                pairs = [
                    (typ, V.tg("CommunityReport")),
                    (V.tg("community"), community_iri(c)),  # type: ignore[arg-type]
                    (label, title),
                    (V.dc("title"), title),
                    (hrid, _number_literal(row.get("human_readable_id") if row.get("human_readable_id") is not None else c)),
                ]
                for col, pred in (("summary", "summary"), ("full_content", "content"), ("rank_explanation", "ratingExplanation")):
                    if _text(row.get(col)):
                        pairs.append((V.tg(pred), string(row[col])))
                if row.get("rank") is not None:
                    pairs.append((V.tg("rating"), double(row["rank"])))
                level = _int(reports, n, "level", row.get("level"))
                if level is not None:
                    pairs.append((V.tg("level"), integer(level)))
                if row.get("id") is not None:
                    pairs.append((gid, string(str(row["id"]))))
                for i, (summary, explanation) in enumerate(_findings(reports, n, row.get("findings"))):
                    f = mint(ns + "community_report:", key, f"/finding/{i}")
                    pairs.append((V.tg("finding"), f))
                    finding = [(typ, V.tg("ReportFinding")), (V.tg("findingIndex"), integer(i))]
                    if summary:
                        finding.append((V.tg("summary"), string(summary)))
                    if explanation:
                        finding.append((V.tg("explanation"), string(explanation)))
                    w.node(f, g, finding)
                w.node(rp, g, pairs)
            advance(len(batch))
    cov = t.get("covariates")
    if cov is not None:
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
        for batch in cov.batches():
            for n, row in batch:
                cl = mint(ns + "claim:", row["id"])
                text = f"{cl} {typ} {claim_type} {g} .\n{cl} {gid} {string(row['id'])} {g} .\n{cl} {hrid} {hr(cov, n, row)} {g} .\n"
                count = 3
                for col, pred in claim_columns:
                    value = _text(row.get(col))
                    if value:
                        text += f"{cl} {pred} {string(value)} {g} .\n"
                        count += 1
                if _text(row.get("description")):
                    d = string(row["description"])
                    text += f"{cl} {desc} {d} {g} .\n{cl} {label} {d} {g} .\n"
                    count += 2
                for col, (name_p, entity_p) in (("subject_id", subject_p), ("object_id", object_p)):
                    name = _text(row.get(col))
                    if name:
                        text += f"{cl} {name_p} {string(name)} {g} .\n"
                        count += 1
                        if name in ix.entity_by_title:
                            text += f"{cl} {entity_p} {entity_iri(name)} {g} .\n"
                            count += 1
                text += f"{cl} {derived} {unit_iri(row['text_unit_id'])} {S} .\n"
                w.lines(text, count + 1)
            advance(len(batch))
    # Written last: its presence tells a later load that this output is complete.
    P.activity_quads(
        w,
        act,
        label="graphrag-loader extraction",
        used=doc_iris,
        agent=f"<{AGENT}>",
        agent_label="graphrag-loader",
        version=f"{__version__} (GraphRAG output v{out.version})",
        started=started,
    )
