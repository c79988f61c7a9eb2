"""The read side of the facts graph for retrieval: entities, neighbourhoods, labels, chunks and
edge sources — the only place retrieval pipelines read a store (with :mod:`.context` for the
Microsoft GraphRAG index).

Every read is a template (``queries/retrieve/*``, ``trace/labels``, and ``lineage/edge-sources``
through :class:`~ragprov.navigate.lineage.Lineage`), never SPARQL assembled from strings. Facts are
read from the facts graph only — the default graph, or a configured named graph such as
``urn:graph:facts`` for stores whose default graph is the union of all graphs — never from the
provenance graphs. Labels are resolved for the language model and the reader, but everything the
trace records keeps the original IRIs and typed literals.

:class:`~.indexes.EntityIndex` and :class:`~.indexes.ChunkIndex` are the lexical (BM25) indexes
that seed GraphRAG and DocRAG; they are built once per reader and reused.

>>> from ragprov.store import open_store
>>> store = open_store("memory:")
>>> store.update('INSERT DATA { <urn:e:scrooge> <http://www.w3.org/2000/01/rdf-schema#label> "Ebenezer Scrooge" }')
>>> reader = FactsReader(store)
>>> [m.label for m in reader.entity_index().search(["scrooge"], limit=3)]
['Ebenezer Scrooge']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pyoxigraph import Literal, NamedNode, Triple

from ..errors import StoreError
from ..record.events import Source
from ..sparql.templates import Catalog
from ..sparql.templates import catalog as default_catalog
from . import context
from ._batch import batches as _batches
from .indexes import ChunkIndex, ChunkRecord, EntityIndex
from .schema import FactsSchema
from .terms import EdgeOrigin, source_citation

if TYPE_CHECKING:
    from ..navigate.lineage import Lineage
    from .textindex import StoredChunkIndex, StoredEntityIndex, TextIndex
    from .vectors import Embedder, VectorIndex

__all__ = ["FactsReader", "update_text_index"]


class FactsReader:
    """The read-only queries retrieval runs, against one store and one facts graph."""

    def __init__(self, store, *, facts_graph: NamedNode | None = None, schema: FactsSchema | None = None, catalog: Catalog | None = None):
        self.store = store
        self.facts_graph = facts_graph
        self.schema = schema or FactsSchema()
        self.catalog = catalog or default_catalog()
        self._labels: dict[NamedNode, str] = {}
        self._types: dict[NamedNode, str | None] = {}
        self._chunk_positions: dict[NamedNode, int] = {}
        self._chunk_sources: dict[NamedNode, Source] = {}
        self._entity_index: EntityIndex | None = None
        self._chunk_index: ChunkIndex | None = None
        self._chunk_records: dict[NamedNode, ChunkRecord] = {}
        self._text_index: Any = False  # not looked for yet
        self._memo: dict[Any, Any] = {}  # what one reader reads once (community reports, their BM25)

    @functools.cached_property
    def lineage(self) -> Lineage:
        """Trace navigation's lineage queries (edge → statement → chunk → page → document), made
        when first needed: the modes that never cite an edge's origin do not load navigation."""
        from ..navigate.lineage import Lineage

        return Lineage(self.store, catalog=self.catalog)

    def _select(self, name: str, **params):
        return self.store.select(self.catalog.render(name, self.store.dialect, **params))

    # -- entities ------------------------------------------------------------------------------
    def entity_index(self) -> EntityIndex | StoredEntityIndex:
        """The BM25 index over every entity's labels and descriptions: the persistent
        :mod:`.textindex` where the store has one, else built here once per reader."""
        stored = self.text_index()
        if stored is not None:
            return stored.entities()
        if self._entity_index is None:
            labels, descriptions = self.read_entities()
            self._entity_index = EntityIndex(labels, descriptions)
        return self._entity_index

    def read_entities(self) -> tuple[dict[NamedNode, list[str]], dict[NamedNode, list[str]]]:
        """Every entity's labels and descriptions (``retrieve/entity-index``, then
        ``retrieve/not-entities`` per 200 candidates to drop predicates and excluded types)."""
        rows = self._select(
            "retrieve/entity-index",
            facts_graph=self.facts_graph,
            label_predicates=list(self.schema.label_predicates),
            description_predicates=list(self.schema.description_predicates),
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
        candidates = sorted(set(labels) | set(descriptions), key=lambda n: n.value)
        for batch in _batches(candidates):
            for row in self._select(
                "retrieve/not-entities",
                facts_graph=self.facts_graph,
                terms=list(batch),
                excluded_types=list(self.schema.excluded_types),
            ):
                labels.pop(row["term"], None)
                descriptions.pop(row["term"], None)
        for entity, names in labels.items():
            self._labels.setdefault(entity, names[0])
        return labels, descriptions

    # -- the persistent text index ---------------------------------------------------------------
    def text_index(self) -> TextIndex | None:
        """The store's persistent :class:`~.textindex.TextIndex`, brought up to date when the
        store's load stamp moved since it was built (a message on stderr says so); ``None`` for
        stores without one (memory, endpoints without ``$RAGPROV_INDEX``)."""
        if self._text_index is False:
            import sqlite3
            import sys

            from .textindex import TextIndex, index_location

            location = index_location(self.store)
            try:
                self._text_index = None if location is None else TextIndex.open(location)
                if self._text_index is not None and self._text_index.stamp != self.load_stamp():
                    print(
                        f"ragprov: the store changed since its text index was built ({location}); bringing it up to date…",
                        file=sys.stderr,
                    )
                    self.sync_text_index(self._text_index)
            except (StoreError, sqlite3.Error) as e:  # e.g. a read-only folder: search in memory instead
                print(f"ragprov: the text index at {location} cannot be used ({e}); searching an in-memory index", file=sys.stderr)
                self._text_index = None
        return self._text_index

    def load_stamp(self) -> str:
        """What identifies the loads this store has seen, and the facts graph read
        (``retrieve/load-stamp``): the persistent index is current while this is unchanged."""
        row = self._select("retrieve/load-stamp")[0]
        latest = row["latest"].value if "latest" in row else ""
        return f"{self.facts_graph.value if self.facts_graph else ''}|{row['loads'].value}|{latest}"

    def sync_text_index(self, index: TextIndex):
        """Make ``index`` hold this store's entities, chunks and community reports (only
        documents whose text changed are rewritten) and stamp it; returns the :class:`~.textindex.SyncReport`."""
        import itertools

        from .textindex import LocalContext, chunk_documents, entity_documents, report_documents

        stamp = self.load_stamp()
        labels, descriptions = self.read_entities()
        documents = itertools.chain(
            entity_documents(labels, descriptions),
            chunk_documents(self.read_chunks()),
            report_documents(context.community_reports(self, None), context.report_text),
        )
        rows = context.all_entity_context(self)
        items = [n for row in rows for n in (row[0], row[2])]
        texts = context.store_item_texts(self, items)
        kinds = {item: kind for _, kind, item, *_ in rows} | {row[0]: "entity" for row in rows}
        local = LocalContext(
            [(e.value, kind, item.value, rank, weight, s.value if s else None, t.value if t else None)
             for e, kind, item, rank, weight, s, t in rows],
            {item.value: texts.get(item, (None, None)) for item in dict.fromkeys(items)},
            {item.value: context.approx_tokens(context.item_text({"kind": kind, "item": item}, *texts.get(item, (None, None))))
             for item, kind in kinds.items()},
        )
        report = index.apply(documents, stamp=stamp, context=local)
        from .vectors import HashedEmbedder

        embedder = HashedEmbedder()
        index.vectors(embedder)  # the offline text vectors of the text units, computed at load time
        index.refresh_entity_vectors(embedder)  # and of local search's entities (title:description)
        return report

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

    def descriptions(self, entities: Sequence[NamedNode]) -> dict[NamedNode, list[Triple]]:
        """The description facts of ``entities`` (``entity description-predicate "literal"``, the
        schema's ``description_predicates``), in a stable order (predicate, then text); one
        ``retrieve/descriptions`` query per 200 IRIs. Entities without a description are absent.
        The chunks to cite a description by are read apart, for the few an answer keeps
        (:meth:`description_origins`)."""
        facts: dict[NamedNode, list[Triple]] = {}
        for batch in _batches(list(dict.fromkeys(entities))):
            rows = self._select("retrieve/descriptions", entities=list(batch), facts_graph=self.facts_graph,
                                description_predicates=list(self.schema.description_predicates))
            for row in rows:
                if isinstance(row.get("o"), Literal):
                    facts.setdefault(row["entity"], []).append(Triple(row["entity"], row["p"], row["o"]))
        return {e: sorted(ts, key=lambda t: (t.predicate.value, str(t.object))) for e, ts in facts.items()}

    def description_origins(self, entities: Sequence[NamedNode], *, limit: int) -> dict[NamedNode, list[EdgeOrigin]]:
        """The first ``limit`` chunks (text units) each of ``entities`` was derived from
        (``urn:graph:source``), by chunk index then IRI, as origins to cite (:meth:`chunk_origins`);
        one ``retrieve/description-units`` query per 25 entities, each entity's rows bounded by
        ``limit`` in the store (a hub entity found in thousands of units reads ``limit``).
        Entities found in no chunk are absent."""
        units: dict[NamedNode, list[NamedNode]] = {}
        for batch in _batches([e for e in dict.fromkeys(entities) if isinstance(e, NamedNode)], 25):
            for row in self._select("retrieve/description-units", entities=list(batch), limit=limit):
                if isinstance(row.get("unit"), NamedNode):
                    units.setdefault(row["entity"], []).append(row["unit"])
        if not units:
            return {}
        chunks = self.chunk_origins({c for us in units.values() for c in us})
        return {
            e: sorted((chunks[c] for c in us if c in chunks),
                      key=lambda o: (o.chunk_index is None, o.chunk_index or 0, o.source.document.value,
                                     o.chunk.value if o.chunk else ""))
            for e, us in units.items()
        }

    def chunk_origins(self, chunks: Iterable[NamedNode]) -> dict[NamedNode, EdgeOrigin]:
        """Each of ``chunks`` as an origin to cite (:meth:`chunk_sources`, with the chunk's number)."""
        return {c: EdgeOrigin(s, self._chunk_positions.get(c)) for c, s in self.chunk_sources(chunks).items()}

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
                    out[edge] = sorted(
                        found.values(),
                        key=lambda o: (
                            o.chunk_index if o.chunk_index is not None else 1 << 30,
                            o.chunk.value if o.chunk else "",
                            o.document.value,
                        ),
                    )
        return out

    # -- chunks --------------------------------------------------------------------------------
    def chunk_index(self) -> ChunkIndex | StoredChunkIndex:
        """The BM25 index over every chunk's text: the persistent :mod:`.textindex` where the
        store has one, else built here once per reader."""
        stored = self.text_index()
        if stored is not None:
            return stored.chunks(seen=self._chunk_records)
        if self._chunk_index is None:
            self._chunk_index = ChunkIndex(self.read_chunks())
        return self._chunk_index

    def read_chunks(self, chunks: Sequence[NamedNode] | None = None) -> list[ChunkRecord]:
        """Every chunk (or those of ``chunks``) with its text and location (``retrieve/chunks``), ordered by IRI."""
        from ..navigate._terms import int_value

        records: dict[NamedNode, ChunkRecord] = {}
        for row in self._select("retrieve/chunks", limit=None, chunks=list(chunks) if chunks is not None else None):
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
        return sorted(records.values(), key=lambda r: r.chunk.value)

    def chunk_records(self, chunks: Iterable[NamedNode]) -> dict[NamedNode, ChunkRecord]:
        """The records of the chunks among ``chunks`` (from the chunk index), remembered for citations."""
        chunks = list(chunks)
        stored = self.text_index()
        if stored is not None:
            found = {NamedNode(iri): rec for iri, rec in stored.chunk_records(c.value for c in chunks).items()}
        elif self._chunk_index is not None:
            records = {r.chunk: r for r in self._chunk_index.records}
            found = {c: records[c] for c in chunks if c in records}
        else:
            found = {}
            for batch in _batches(list(dict.fromkeys(chunks))):
                found.update((r.chunk, r) for r in self.read_chunks(batch))
        for rec in found.values():
            self._chunk_records[rec.chunk] = rec
            if rec.index is not None:
                self._chunk_positions.setdefault(rec.chunk, rec.index)
        return found

    def chunk_sources(self, chunks: Iterable[NamedNode]) -> dict[NamedNode, Source]:
        """Where each of the chunks among ``chunks`` sits (document, title, page), remembered
        for citations: from the persistent index without reading the chunks' text where the
        store has one, else from :meth:`chunk_records`."""
        stored = self.text_index()
        if stored is None:
            return {c: rec.source() for c, rec in self.chunk_records(chunks).items()}
        out: dict[NamedNode, Source] = {}
        for iri, document, title, page, index in stored.chunk_places([c.value for c in chunks]):
            chunk = NamedNode(iri)
            source = out[chunk] = Source(NamedNode(document) if document else chunk, title, page, chunk)
            self._chunk_sources[chunk] = source
            if index is not None:
                self._chunk_positions.setdefault(chunk, index)
        return out

    def text_unit_vectors(self, embedder: Embedder) -> VectorIndex:
        """The vectors of every chunk (text unit) by ``embedder``, for vector search: kept in the
        persistent index where the store has one (:meth:`.textindex.TextIndex.vectors`: computed
        at load time for the offline embedder, on first use for an API's, then kept), else
        computed here once per reader."""
        key = ("vectors", embedder.ref)
        if key not in self._memo:
            stored = self.text_index()
            if stored is not None:
                self._memo[key] = stored.vectors(embedder)
            else:
                from .vectors import VectorIndex

                records = self._chunk_index.records if self._chunk_index is not None else self.read_chunks()
                for rec in records:
                    self._chunk_records.setdefault(rec.chunk, rec)
                matrix = embedder.embed([r.text for r in records])
                self._memo[key] = VectorIndex([r.chunk.value for r in records], matrix, embedder.ref)
        return self._memo[key]

    def imported_vectors(self, prefix: str, dim: int) -> VectorIndex | None:
        """The text units' vectors an index output shipped (a set named ``prefix…``, kept in the
        persistent index at load: :mod:`ragprov.loaders.graphrag_embeddings`) of ``dim``
        dimensions, or ``None`` (none shipped, another dimension, or no persistent index)."""
        stored = self.text_index()
        return stored.imported(prefix, dim) if stored is not None else None

    def entity_vectors(self, embedder: Embedder) -> VectorIndex:
        """The vectors of local search's entities (the loaded index's entities: those of the
        entity index with candidate rows) by ``embedder``, computed from each one's ``title:description``
        (:func:`.vectors.entity_text`): kept in the persistent index where the store has one
        (:meth:`.textindex.TextIndex.entity_vectors`: the offline embedder's computed at load
        time, an API's on first use, then kept), else computed here once per reader."""
        key = ("entity-vectors", embedder.ref)
        if key not in self._memo:
            stored = self.text_index()
            if stored is not None:
                self._memo[key] = stored.entity_vectors(embedder)
            else:
                from .vectors import VectorIndex, entity_text

                index = self.entity_index()
                known = set(index.entities) if isinstance(index, EntityIndex) else set()
                # the entities of the entity index with candidate rows (claims and relationships have some too)
                entities = sorted({row[0] for row in context.all_entity_context(self)} & known, key=lambda n: n.value)
                texts = context.store_item_texts(self, entities) if entities else {}
                matrix = embedder.embed([entity_text(*texts.get(e, (None, None))) for e in entities])
                self._memo[key] = VectorIndex([e.value for e in entities], matrix, embedder.ref)
        return self._memo[key]

    def entity_vectors_of(self, embedder: Embedder, iris: Sequence[str]) -> VectorIndex:
        """The vectors by ``embedder`` of (at least) those of ``iris`` that are local-search entities:
        read by key from the persistent index where the store has one, else every entity's
        (:meth:`entity_vectors`, computed once per reader)."""
        stored = self.text_index()
        if stored is not None:
            return stored.entity_vectors_of(embedder, iris)
        return self.entity_vectors(embedder)

    def imported_entity_vectors(self, prefix: str, dim: int) -> VectorIndex | None:
        """The entity vectors an index output shipped (``embeddings.entity_description.parquet``,
        kept in the persistent index at load) of ``dim`` dimensions, or ``None``."""
        stored = self.text_index()
        return stored.imported(prefix, dim, kind="entity") if stored is not None else None

    def chunk_names(self, nodes: Iterable[NamedNode]) -> dict[NamedNode, str]:
        """``title, p. N, chunk K`` for the chunks among ``nodes`` this reader has already met
        (in a chunk search or look-up, or an edge-source look-up; no query)."""
        out: dict[NamedNode, str] = {}
        records = {r.chunk: r for r in self._chunk_index.records} if self._chunk_index is not None else {}
        records.update(self._chunk_records)
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

    # -- Microsoft GraphRAG index (templates retrieve/graphrag-*, :mod:`.context`) ---------------
    def entity_context(self, entities: Sequence[NamedNode]) -> list[context.ContextRow]:
        """Reports, relationships, claims and text units of ``entities`` (local search's candidates)."""
        return context.entity_context(self, entities)

    def local_context(self, entities: Sequence[NamedNode], *, max_level: int | None = None) -> dict[str, list[dict]]:
        """Local search's ranked candidates of ``entities``, by kind, community reports up to
        ``max_level`` (:func:`.context.local_context`)."""
        return context.local_context(self, entities, max_level=max_level)

    def item_texts(self, items: Sequence[NamedNode]) -> Mapping[NamedNode, tuple[str | None, str | None]]:
        """``item → (label, text)`` for index items (entities, reports, relationships, claims, text
        units), read as they are asked for where the store has a persistent index (:func:`.context.item_texts`)."""
        return context.item_texts(self, items)

    def community_reports(self, max_level: int | None) -> list[dict[str, Any]]:
        """Community reports up to ``max_level`` (title, summary, rank, level, and their findings in
        one ``text``), ordered by IRI: from the persistent index where the store has one (read once per reader)."""
        key = ("reports", max_level)
        if key not in self._memo:
            stored = self.text_index()
            self._memo[key] = stored.community_reports(max_level) if stored is not None else context.community_reports(self, max_level)
        return self._memo[key]

    def report_tree(self) -> dict[NamedNode, tuple[int, list[NamedNode]]]:
        """``report → (level, child reports)`` for every community report (read once per reader; :func:`.context.report_tree`)."""
        if "report-tree" not in self._memo:
            self._memo["report-tree"] = context.report_tree(self)
        return self._memo["report-tree"]

    def report_levels(self) -> dict[NamedNode, int]:
        """``report → community level`` for every community report (read once per reader): from the
        persistent index where the store has one, else from :meth:`report_tree`."""
        if "report-levels" not in self._memo:
            stored = self.text_index()
            self._memo["report-levels"] = (
                {r["report"]: r["level"] for r in self.community_reports(None)} if stored is not None
                else {report: level for report, (level, _) in self.report_tree().items()}
            )
        return self._memo["report-levels"]

    def report_units(self, reports: Sequence[NamedNode]) -> dict[NamedNode, list[tuple[NamedNode, int]]]:
        """The text units each of ``reports`` rests on, with their member counts (:func:`.context.report_units`)."""
        return context.report_units(self, reports)


def update_text_index(store, *, facts_graph: NamedNode | None = None, schema: FactsSchema | None = None):
    """Bring ``store``'s persistent text index up to date after a load (what ``ragprov load``
    does last); returns the :class:`~.textindex.SyncReport`, or ``None`` for a store without one."""
    from .textindex import TextIndex, index_location

    location = index_location(store)
    if location is None:
        return None
    reader = FactsReader(store, facts_graph=facts_graph, schema=schema)
    index = TextIndex.open(location)
    try:
        return reader.sync_text_index(index)
    finally:
        index.close()

