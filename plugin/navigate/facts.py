"""The read side of the facts graph for retrieval: entities, neighbourhoods, labels, chunks,
edge sources and the Microsoft GraphRAG index — the only place retrieval pipelines read a store.

Every read is a template (``queries/retrieve/*``, ``trace/labels``, and ``lineage/edge-sources``
through :class:`~ragprov.navigate.lineage.Lineage`), never SPARQL assembled from strings. Facts are
read from the facts graph only — the default graph, or a configured named graph such as
``urn:graph:facts`` for stores whose default graph is the union of all graphs — never from the
provenance graphs. Labels are resolved for the language model and the reader, but everything the
trace records keeps the original IRIs and typed literals.

:class:`EntityIndex` and :class:`ChunkIndex` are the lexical (BM25) indexes that seed GraphRAG and
DocRAG; they are built once per reader and reused.

>>> from ragprov.store import open_store
>>> store = open_store("memory:")
>>> store.update('INSERT DATA { <urn:e:scrooge> <http://www.w3.org/2000/01/rdf-schema#label> "Ebenezer Scrooge" }')
>>> reader = FactsReader(store)
>>> [m.label for m in reader.entity_index().search(["scrooge"], limit=3)]
['Ebenezer Scrooge']
>>> source_citation(Source(NamedNode("urn:doc:carol"), "a-christmas-carol.txt", None, NamedNode("urn:chunk:x")), 33)
'a-christmas-carol.txt, chunk 33'
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable, Sequence

from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from ..llm.text import BM25, content_tokens
from ..namespaces import DC, DCTERMS, OWL, PROV, RDF, RDFS, TG, Namespace
from ..record.events import Source
from ..sparql.templates import Catalog, catalog as default_catalog
from ._terms import float_value as _num, int_value, str_value
from .lineage import Lineage, SourceChain

__all__ = [
    "FactsSchema",
    "FactsReader",
    "EntityIndex",
    "EntityMatch",
    "ChunkIndex",
    "ChunkRecord",
    "local_name",
    "term_text",
    "source_citation",
    "EdgeOrigin",
]

SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
SCHEMA = Namespace("http://schema.org/")
_VALUES_BATCH = 200


@dataclasses.dataclass(frozen=True)
class FactsSchema:
    """How entities are named and described, and which predicates are schema, not facts.

    Predicates in ``excluded_namespaces`` (rdf:, rdfs:, owl:, prov: and tg: — vocabulary and
    index structure such as GraphRAG community membership, never domain facts) and in
    ``excluded_predicates`` are never explored; members of ``excluded_types`` never seed.
    ``label_predicates`` and ``description_predicates`` feed the entity index; labels of other
    terms (predicates, objects) are their ``rdfs:label``.
    """

    label_predicates: tuple[NamedNode, ...] = (RDFS.label, SKOS.prefLabel, SCHEMA.name, DC["title"])
    description_predicates: tuple[NamedNode, ...] = (DCTERMS.description, RDFS.comment, SCHEMA.description, SKOS.definition)
    excluded_predicates: tuple[NamedNode, ...] = (
        TG.entityType, TG.degree, TG.humanReadableId, TG.frequency, TG.mimeType,
        SKOS.prefLabel, SKOS.altLabel, SKOS.definition, SCHEMA.name, SCHEMA.description,
        DC["title"], DCTERMS["title"], DCTERMS.description,
    )
    excluded_namespaces: tuple[str, ...] = (str(RDF), str(RDFS), str(OWL), str(PROV), str(TG))
    excluded_types: tuple[NamedNode, ...] = (
        RDF.Property, OWL.ObjectProperty, OWL.DatatypeProperty, TG.Relationship, TG.Community,
        TG.CommunityReport, TG.ReportFinding, TG.Claim, TG.Document, TG.Chunk, TG.Statement,
    )

    def is_schema(self, predicate: NamedNode) -> bool:
        return predicate in self.excluded_predicates or predicate.value.startswith(self.excluded_namespaces)


def local_name(iri: str) -> str:
    """A readable name from an IRI's last segment: ``https://x/ns#relatedTo`` → ``related to``.

    >>> local_name("https://example.org/ns#hasBusinessPartner")
    'has business partner'
    >>> local_name("urn:graphrag:entity:EBENEZER%20SCROOGE")
    'EBENEZER SCROOGE'
    """
    from urllib.parse import unquote

    tail = re.split(r"[#/:]", iri.rstrip("/#"))[-1] or iri
    tail = unquote(tail)
    if tail.isupper() or " " in tail:
        return tail
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", tail).replace("_", " ").replace("-", " ")
    return words.lower() if words != tail or tail.islower() else tail


def term_text(term, labels: dict) -> str:
    """What to show for a term: its label, a literal's value, or the IRI's local name."""
    if isinstance(term, Literal):
        return term.value
    if isinstance(term, NamedNode):
        return labels.get(term) or local_name(term.value)
    if isinstance(term, BlankNode):
        return f"_:{term.value}"
    return str(term)


def source_citation(source: Source, chunk_index: int | None = None) -> str:
    """How a source is named to a reader: ``title, p. N, chunk K`` (IRIs only in JSON output)."""
    parts = [source.title or local_name(source.document.value)]
    if source.page is not None:
        parts.append(f"p. {source.page}")
    if chunk_index is not None:
        parts.append(f"chunk {chunk_index}")
    return ", ".join(parts)


@dataclasses.dataclass(frozen=True)
class EdgeOrigin:
    """Where an edge was extracted from, as a reader cites it: the :class:`Source` (document,
    title, page, chunk) and the chunk's index when known."""

    source: Source
    chunk_index: int | None = None

    @classmethod
    def from_chain(cls, chain: SourceChain) -> "EdgeOrigin":
        """The origin an extraction chain (:meth:`Lineage.edges_sources`) ends in."""
        document, page, chunk = chain.document, chain.page, chain.chunk
        doc_iri = document.iri if document is not None else chain.statement
        title = (document.title or document.label) if document is not None else None
        page_number = page.page_number if page is not None else (chunk.page_number if chunk is not None else None)
        return cls(Source(doc_iri, title, page_number, chunk.iri if chunk is not None else None), chunk.chunk_index if chunk is not None else None)

    @property
    def chunk(self) -> NamedNode | None:
        return self.source.chunk

    @property
    def document(self) -> NamedNode:
        return self.source.document

    def citation(self) -> str:
        return source_citation(self.source, self.chunk_index)


@dataclasses.dataclass(frozen=True)
class EntityMatch:
    """A seed entity: its IRI, label, lexical score, and the concept that matched it best."""

    iri: NamedNode
    label: str
    score: float
    concept: str


@dataclasses.dataclass(frozen=True)
class ChunkRecord:
    """A document chunk with its text and location."""

    chunk: NamedNode
    text: str
    document: NamedNode | None = None
    title: str | None = None
    page: int | None = None
    index: int | None = None

    def citation(self) -> str:
        return source_citation(self.source(), self.index)

    def source(self) -> Source:
        return Source(self.document or self.chunk, self.title, self.page, self.chunk)


def _batches(items: Sequence, size: int = _VALUES_BATCH) -> Iterable[Sequence]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class FactsReader:
    """The read-only queries retrieval runs, against one store and one facts graph."""

    def __init__(self, store, *, facts_graph: NamedNode | None = None, schema: FactsSchema | None = None, catalog: Catalog | None = None):
        self.store = store
        self.facts_graph = facts_graph
        self.schema = schema or FactsSchema()
        self.catalog = catalog or default_catalog()
        self.lineage = Lineage(store, catalog=self.catalog)
        self._labels: dict[NamedNode, str] = {}
        self._chunk_positions: dict[NamedNode, int] = {}
        self._chunk_sources: dict[NamedNode, Source] = {}
        self._entity_index: EntityIndex | None = None
        self._chunk_index: ChunkIndex | None = None

    def _select(self, name: str, **params):
        return self.store.select(self.catalog.render(name, self.store.dialect, **params))

    # -- entities ------------------------------------------------------------------------------
    def entity_index(self) -> "EntityIndex":
        """The BM25 index over every entity's labels and descriptions (one query, built once)."""
        if self._entity_index is None:
            rows = self._select(
                "retrieve/entity-index",
                facts_graph=self.facts_graph,
                label_predicates=list(self.schema.label_predicates),
                description_predicates=list(self.schema.description_predicates),
                excluded_types=list(self.schema.excluded_types),
            )
            labels: dict[NamedNode, list[str]] = {}
            descriptions: dict[NamedNode, list[str]] = {}
            for row in rows:
                entity = row["entity"]
                if "label" in row:
                    labels.setdefault(entity, [])
                    if row["label"].value not in labels[entity]:
                        labels[entity].append(row["label"].value)
                if "description" in row:
                    descriptions.setdefault(entity, []).append(row["description"].value)
            self._entity_index = EntityIndex(labels, descriptions)
            for entity, names in labels.items():
                self._labels.setdefault(entity, names[0])
        return self._entity_index

    def neighbourhood(self, entities: Sequence[NamedNode], *, limit: int) -> list[tuple[NamedNode, Triple]]:
        """``(frontier entity, fact)`` pairs, entity order kept, at most ``limit`` facts per entity."""
        out: list[tuple[NamedNode, Triple]] = []
        for batch in _batches(list(entities), 25):
            rows = self._select(
                "retrieve/neighbourhood",
                facts_graph=self.facts_graph,
                entities=list(batch),
                limit=limit,
                excluded_predicates=list(self.schema.excluded_predicates),
                excluded_namespaces=list(self.schema.excluded_namespaces),
            )
            by_node: dict[NamedNode, list[Triple]] = {}
            for row in rows:
                by_node.setdefault(row["node"], []).append(Triple(row["s"], row["p"], row["o"]))
            for entity in batch:
                out.extend((entity, t) for t in by_node.get(entity, ()))
        return out

    def labels(self, nodes: Iterable[NamedNode]) -> dict[NamedNode, str]:
        """Labels for ``nodes`` (cached; ``trace/labels``, one query per 200 IRIs); nodes without
        one are absent. Entities already named by the entity index keep that name."""
        nodes = [n for n in dict.fromkeys(nodes) if isinstance(n, NamedNode)]
        wanted = [n for n in nodes if n not in self._labels]
        for batch in _batches(wanted):
            for row in self._select("trace/labels", terms=list(batch), facts_graph=self.facts_graph):
                if "label" in row:
                    self._labels[row["term"]] = row["label"].value
        return {n: self._labels[n] for n in nodes if n in self._labels}

    def entity_types(self, nodes: Iterable[NamedNode]) -> dict[NamedNode, str]:
        """The entity type (``tg:entityType``: PERSON, ORGANIZATION, GEO, EVENT…) of each of
        ``nodes`` that has one (cached; ``retrieve/entity-types``, one query per 200 IRIs)."""
        if not hasattr(self, "_types"):
            self._types: dict[NamedNode, str | None] = {}
        nodes = [n for n in dict.fromkeys(nodes) if isinstance(n, NamedNode)]
        wanted = [n for n in nodes if n not in self._types]
        for batch in _batches(wanted):
            for n in batch:
                self._types[n] = None
            for row in self._select("retrieve/entity-types", entities=list(batch), facts_graph=self.facts_graph):
                if "type" in row:
                    self._types[row["entity"]] = row["type"].value
        return {n: t for n in nodes if (t := self._types.get(n)) is not None}

    # -- edges ---------------------------------------------------------------------------------
    def edge_sources(self, edges: Sequence[Triple]) -> dict[Triple, list[EdgeOrigin]]:
        """Where each edge came from, one :class:`EdgeOrigin` per distinct chunk (or document),
        ordered by chunk index (:meth:`Lineage.edges_sources`: one query per 200 edges); edges
        nothing reifies are absent."""
        out: dict[Triple, list[EdgeOrigin]] = {}
        for batch in _batches(list(dict.fromkeys(edges))):
            for edge, chains in self.lineage.edges_sources(batch).items():
                found: dict[tuple[str, str], EdgeOrigin] = {}
                for chain in chains:
                    origin = EdgeOrigin.from_chain(chain)
                    key = (origin.chunk.value if origin.chunk else "", origin.document.value)
                    current = found.get(key)
                    if current is None or (origin.source.page is not None and current.source.page is None):
                        found[key] = origin
                    if origin.chunk is not None:
                        self._chunk_sources.setdefault(origin.chunk, origin.source)
                        if origin.chunk_index is not None:
                            self._chunk_positions[origin.chunk] = origin.chunk_index
                if found:
                    out[edge] = sorted(found.values(), key=lambda o: (o.chunk_index if o.chunk_index is not None else 1 << 30, o.chunk.value if o.chunk else "", o.document.value))
        return out

    # -- chunks --------------------------------------------------------------------------------
    def chunk_index(self) -> "ChunkIndex":
        """The BM25 index over every chunk's text (one query, built once)."""
        if self._chunk_index is None:
            records: dict[NamedNode, ChunkRecord] = {}
            for row in self._select("retrieve/chunks", limit=None):
                chunk = row["chunk"]
                rec = ChunkRecord(
                    chunk=chunk,
                    text=row["text"].value,
                    document=row.get("document"),
                    title=row["title"].value if "title" in row else None,
                    page=int_value(row.get("page")),
                    index=int_value(row.get("index")),
                )
                old = records.get(chunk)
                if old is None or (rec.page is not None and old.page is None) or (rec.title and not old.title):
                    records[chunk] = rec
            self._chunk_index = ChunkIndex(sorted(records.values(), key=lambda r: r.chunk.value))
            for rec in self._chunk_index.records:
                if rec.index is not None:
                    self._chunk_positions.setdefault(rec.chunk, rec.index)
        return self._chunk_index

    def chunk_names(self, nodes: Iterable[NamedNode]) -> dict[NamedNode, str]:
        """``title, p. N, chunk K`` for the chunks among ``nodes`` this reader has already met
        (in the chunk index or an edge-source look-up; no query)."""
        out: dict[NamedNode, str] = {}
        records = {r.chunk: r for r in self._chunk_index.records} if self._chunk_index is not None else {}
        for node in nodes:
            if node in records:
                out[node] = records[node].citation()
            elif node in self._chunk_sources:
                out[node] = source_citation(self._chunk_sources[node], self._chunk_positions.get(node))
        return out

    def citation(self, source: Source) -> str:
        """``title, p. N, chunk K`` for a source this reader has seen (the chunk number from the
        chunk or lineage look-ups already made; no query)."""
        return source_citation(source, self._chunk_positions.get(source.chunk) if source.chunk is not None else None)

    # -- Microsoft GraphRAG index (templates retrieve/graphrag-*) -------------------------------
    def entity_context(self, entities: Sequence[NamedNode]) -> list[dict]:
        """Reports, relationships, claims and text units of ``entities`` (local search's candidates)."""
        if not entities:
            return []
        return list(self._select("retrieve/graphrag-entity-context", facts_graph=self.facts_graph, entities=list(entities)))

    def item_texts(self, items: Sequence[NamedNode]) -> dict[NamedNode, tuple[str | None, str | None]]:
        """``item → (label, text)`` for index items (entities, reports, relationships, claims, text units)."""
        out: dict[NamedNode, tuple[str | None, str | None]] = {}
        for batch in _batches(list(dict.fromkeys(items))):
            for row in self._select("retrieve/graphrag-texts", facts_graph=self.facts_graph, items=list(batch)):
                label, text = out.get(row["item"], (None, None))
                label = label or str_value(row.get("label"))
                text = text or str_value(row.get("text"))
                out[row["item"]] = (label, text)
        return out

    def community_reports(self, max_level: int | None) -> list[dict[str, Any]]:
        """Community reports up to ``max_level`` with their findings, ordered by IRI."""
        reports: dict[NamedNode, dict[str, Any]] = {}
        for row in self._select("retrieve/graphrag-reports", facts_graph=self.facts_graph, max_level=max_level):
            rep = reports.setdefault(row["report"], {
                "report": row["report"],
                "title": str_value(row.get("title")),
                "summary": str_value(row.get("summary")) or "",
                "rank": _num(row.get("rank")),
                "level": int(_num(row.get("level"))),
                "findings": {},
            })
            if "finding" in row:
                rep["findings"][row["finding"]] = (
                    int(_num(row.get("index"))),
                    str_value(row.get("findingSummary")) or "",
                    str_value(row.get("explanation")) or "",
                )
        out = []
        for rep in sorted(reports.values(), key=lambda r: r["report"].value):
            rep["findings"] = [v for _, v in sorted(rep["findings"].items(), key=lambda kv: (kv[1][0], kv[0].value))]
            out.append(rep)
        return out


class EntityIndex:
    """BM25 over entity labels (weighted) and descriptions: concepts → seed entities."""

    LABEL_WEIGHT = 3.0

    def __init__(self, labels: dict[NamedNode, list[str]], descriptions: dict[NamedNode, list[str]]):
        self.entities = sorted(set(labels) | set(descriptions), key=lambda n: n.value)
        self.label = {e: (labels.get(e) or [local_name(e.value)])[0] for e in self.entities}
        self.label_tokens = [content_tokens(" ".join(labels.get(e) or [local_name(e.value)])) for e in self.entities]
        self.description_tokens = [content_tokens(" ".join(descriptions.get(e, []))) for e in self.entities]
        self.by_label = BM25(self.label_tokens)
        self.by_description = BM25(self.description_tokens)

    def __len__(self) -> int:
        return len(self.entities)

    def search(self, concepts: Sequence[str], *, limit: int) -> list[EntityMatch]:
        """The best ``limit`` entities for the concepts: sum over concepts of weighted label BM25 +
        description BM25, an exact label match counting double; ties broken by IRI."""
        totals: dict[int, float] = {}
        best: dict[int, tuple[float, str]] = {}
        for concept in concepts:
            query = content_tokens(concept)
            if not query:
                continue
            by_label = self.by_label.sparse_scores(query)
            by_desc = self.by_description.sparse_scores(query)
            for i in set(by_label) | set(by_desc):
                s = self.LABEL_WEIGHT * by_label.get(i, 0.0) + by_desc.get(i, 0.0)
                if s <= 0:
                    continue
                if i in by_label and self.label_tokens[i] == query:
                    s *= 2.0
                totals[i] = totals.get(i, 0.0) + s
                if s > best.get(i, (0.0, ""))[0]:
                    best[i] = (s, concept)
        ranked = sorted(totals, key=lambda i: (-totals[i], self.entities[i].value))
        return [EntityMatch(self.entities[i], self.label[self.entities[i]], round(totals[i], 6), best[i][1]) for i in ranked[:limit]]


class ChunkIndex:
    """BM25 over chunk texts: concepts → candidate chunks."""

    def __init__(self, records: Sequence[ChunkRecord]):
        self.records = list(records)
        self.bm25 = BM25([content_tokens(r.text) for r in self.records])

    def __len__(self) -> int:
        return len(self.records)

    def search(self, concepts: Sequence[str], *, limit: int) -> list[tuple[ChunkRecord, float]]:
        query = [t for c in concepts for t in content_tokens(c)]
        return [(self.records[i], round(s, 6)) for i, s in self.bm25.top(query, limit)]
