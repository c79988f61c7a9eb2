"""Read-only views of a store for retrieval: the facts graph, labels, edge sources, chunks.

Every read is a template under ``queries/retrieve/`` (never SPARQL assembled from strings). Facts
are read from the facts graph only — the default graph, or a configured named graph such as
``urn:graph:facts`` for stores whose default graph is the union of all graphs — never from the
provenance graphs. Labels are resolved for the language model and the reader, but everything the
trace records keeps the original IRIs and typed literals.

:class:`EntityIndex` and :class:`ChunkIndex` are the lexical (BM25) indexes that seed GraphRAG and
DocRAG; they are built once per reader and reused.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Sequence

from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from ..llm.text import BM25, content_tokens
from ..namespaces import DC, DCTERMS, OWL, PROV, RDF, RDFS, TG, Namespace
from ..record.events import Source
from ..sparql.templates import Catalog, catalog as default_catalog

__all__ = ["FactsSchema", "FactsReader", "EntityIndex", "EntityMatch", "ChunkIndex", "ChunkRecord", "EdgeSource", "local_name", "term_text"]

SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
SCHEMA = Namespace("http://schema.org/")
_VALUES_BATCH = 200


@dataclasses.dataclass(frozen=True)
class FactsSchema:
    """How entities are named and described, and which predicates are schema, not facts.

    Predicates in ``excluded_namespaces`` (rdf:, rdfs:, owl:, prov: and tg: — vocabulary and
    index structure such as GraphRAG community membership, never domain facts) and in
    ``excluded_predicates`` are never explored; members of ``excluded_types`` never seed.
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
        parts = [self.title or (local_name(self.document.value) if self.document else local_name(self.chunk.value))]
        if self.page is not None:
            parts.append(f"p. {self.page}")
        if self.index is not None:
            parts.append(f"chunk {self.index}")
        return ", ".join(parts) + f" <{self.chunk.value}>"

    def source(self) -> Source:
        return Source(self.document or self.chunk, self.title, self.page, self.chunk)


@dataclasses.dataclass(frozen=True)
class EdgeSource:
    """One place an edge was extracted from: statement, chunk (if any), page, document."""

    statement: NamedNode
    document: NamedNode
    chunk: NamedNode | None = None
    title: str | None = None
    page: int | None = None
    index: int | None = None

    def citation(self) -> str:
        parts = [self.title or local_name(self.document.value)]
        if self.page is not None:
            parts.append(f"p. {self.page}")
        if self.index is not None:
            parts.append(f"chunk {self.index}")
        where = self.chunk or self.document
        return ", ".join(parts) + f" <{where.value}>"

    def source(self) -> Source:
        return Source(self.document, self.title, self.page, self.chunk)


def _int(term) -> int | None:
    if isinstance(term, Literal):
        try:
            return int(term.value)
        except ValueError:
            return None
    return None


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
        self._labels: dict[NamedNode, str] = {}
        self._entity_index: EntityIndex | None = None
        self._chunk_index: ChunkIndex | None = None

    def _select(self, name: str, **params):
        return self.store.select(self.catalog.render(name, self.store.dialect, **params))

    # -- entities ------------------------------------------------------------------------------
    def entity_index(self) -> "EntityIndex":
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
        """Labels for ``nodes`` (cached); nodes without one are absent."""
        wanted = [n for n in dict.fromkeys(nodes) if isinstance(n, NamedNode) and n not in self._labels]
        preference = {p: i for i, p in enumerate(self.schema.label_predicates)}
        for batch in _batches(wanted):
            rows = self._select("retrieve/labels", facts_graph=self.facts_graph, nodes=list(batch), label_predicates=list(self.schema.label_predicates))
            best: dict[NamedNode, tuple[int, str]] = {}
            for row in rows:
                rank = (preference.get(row["lp"], 99), row["label"].value)
                if row["node"] not in best or rank < best[row["node"]]:
                    best[row["node"]] = rank
            for node, (_, label) in best.items():
                self._labels[node] = label
        return {n: self._labels[n] for n in dict.fromkeys(nodes) if n in self._labels}

    # -- edges ---------------------------------------------------------------------------------
    def _edge_rows(self, template: str, edges: Sequence[Triple], **params) -> list[tuple[Triple, dict]]:
        """Rows of an edge look-up, each matched back to its edge (in any dialect)."""
        from ..sparql.dialect import Dialect, statement_iri

        reified = self.store.dialect is Dialect.REIFICATION
        out: list[tuple[Triple, dict]] = []
        for batch in _batches(list(dict.fromkeys(edges))):
            keys = {(statement_iri(e) if reified else e): e for e in batch}
            for row in self._select(template, edges=list(batch), **params):
                edge = keys.get(row["edge"])
                if edge is not None:
                    out.append((edge, row))
        return out

    def edge_sources(self, edges: Sequence[Triple]) -> dict[Triple, list[EdgeSource]]:
        """Where each edge came from (statement → chunk → page → document), deterministic order."""
        found: dict[Triple, dict[tuple, EdgeSource]] = {}
        for edge, row in self._edge_rows("retrieve/edge-sources", edges):
            src = EdgeSource(
                statement=row["statement"],
                document=row["document"],
                chunk=row.get("chunk"),
                title=row["title"].value if "title" in row else None,
                page=_int(row.get("page")),
                index=_int(row.get("index")),
            )
            key = (src.chunk.value if src.chunk else "", src.document.value)
            current = found.setdefault(edge, {}).get(key)
            if current is None or (src.page is not None and current.page is None):
                found[edge][key] = src
        return {
            e: sorted(v.values(), key=lambda s: (s.index if s.index is not None else 1 << 30, s.chunk.value if s.chunk else "", s.document.value))
            for e, v in found.items()
        }

    # -- chunks --------------------------------------------------------------------------------
    def chunk_index(self) -> "ChunkIndex":
        if self._chunk_index is None:
            records: dict[NamedNode, ChunkRecord] = {}
            for row in self._select("retrieve/chunks", limit=None):
                chunk = row["chunk"]
                rec = ChunkRecord(
                    chunk=chunk,
                    text=row["text"].value,
                    document=row.get("document"),
                    title=row["title"].value if "title" in row else None,
                    page=_int(row.get("page")),
                    index=_int(row.get("index")),
                )
                old = records.get(chunk)
                if old is None or (rec.page is not None and old.page is None) or (rec.title and not old.title):
                    records[chunk] = rec
            self._chunk_index = ChunkIndex(sorted(records.values(), key=lambda r: r.chunk.value))
        return self._chunk_index


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
