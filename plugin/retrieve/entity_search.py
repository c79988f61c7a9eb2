"""Local search's entity mapping: the question → the entities whose context local search builds
(Microsoft GraphRAG's ``map_query_to_entities``).

Microsoft embeds the query (with the earlier user questions of a conversation) and searches its
``entity_description`` vector store — one vector per entity, computed from ``title:description``
— for the ``k × oversample`` nearest entities (:data:`OVERSAMPLE`). ragprov does the same over
the vectors :meth:`~.reader.FactsReader.entity_vectors` keeps (:mod:`.vectors`):

- with an embeddings API (:class:`ragprov.llm.embeddings.APIEmbedder`), the question is embedded
  by the API and searched among the vectors the index output shipped when they have its
  dimension (``embeddings.entity_description.parquet``, as Microsoft's query engine searches the
  index's vectors), else among the API's own vectors of the entities (computed on first use,
  then kept); the ranking is the vectors' alone (:data:`VECTOR`), as Microsoft's, and as
  Microsoft's it keeps all ``k × oversample`` nearest entities (``top_k_entities`` 10: 20);
- offline, the vectors are the deterministic hashed term-frequency text vector
  (``hashed-tf-embedding@1``, computed at load time): a bag of words and character trigrams, not a
  language model's embedding. On its own it ranks entities worse than the lexical (BM25) entity
  search over labels and descriptions (``bench/answers.py``: local search's first-line accuracy),
  so offline it ranks again the lexical search's best :data:`POOL` entities (their vectors read by
  key: the cost does not grow with the index), and the two rankings (the ``k × oversample`` best
  of each) are fused by reciprocal rank fusion (:data:`FUSED`: each entity scores
  ``Σ 1 / (RRF_K + rank)`` over the rankings it appears in) and the best ``k`` kept;
- without entity vectors (a store with no loaded index entities) the lexical search alone ranks
  them (:data:`LEXICAL`).

:class:`EntityRanking` says which of these ranked the entities (``method``, recorded as the
Exploration's ``tg:prompt``) with which vectors (``embedder``: ``tg:embeddingModel``), each
entity's score, and each one's cosine similarity to the question (``tg:similarity`` of the kept
entities).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pyoxigraph import NamedNode

from .vectors import ENTITY_INDEX_VECTORS, SHIPPED, HashedEmbedder

if TYPE_CHECKING:
    from .vectors import Embedder

__all__ = [
    "FUSED",
    "LEXICAL",
    "OVERSAMPLE",
    "POOL",
    "RRF_K",
    "VECTOR",
    "EntityRanking",
    "describe_ranking",
    "map_query_to_entities",
    "reciprocal_rank_fusion",
]

#: Microsoft's ``oversample_scaler``: the vector search returns ``k ×`` this many entities
OVERSAMPLE = 2
#: offline, how many of the lexical search's best entities the hashed vectors rank again
POOL = 50
#: reciprocal rank fusion's constant (Cormack et al., 2009)
RRF_K = 60
#: the rankings, as the trace names them (``{…}`` is the vectors' name)
LEXICAL = "entity-bm25@1"
VECTOR = "entity-similarity:{}"
FUSED = "entity-rrf-bm25+{}"


@dataclasses.dataclass(frozen=True)
class EntityRanking:
    """The entities a question was mapped to, best first, with their scores (cosine similarity,
    RRF score, or BM25, after ``method``), the cosine similarity of those that have a vector, the
    ranking's name (``method``, ``id@version``) and the vectors' (``embedder``; ``None``: lexical)."""

    entities: list[NamedNode]
    scores: dict[NamedNode, float]
    similarity: dict[NamedNode, float]
    method: str
    embedder: str | None = None
    #: what embedding the question cost with an API (tokens), else ``None``
    in_token: int | None = None


def map_query_to_entities(reader, query: str, concepts: Sequence[str], *, limit: int,
                          embedder: Embedder | None = None) -> EntityRanking:
    """Map ``query`` (the question, with the earlier user questions of a conversation) to
    entities (see the module docstring): with an API's vectors, the ``limit × OVERSAMPLE``
    nearest (Microsoft's ``k × oversample_scaler``: it drops none of them when no entity is
    excluded); offline (:func:`_fused_pool`) or without vectors, the best ``limit``. ``concepts``
    feed the lexical search."""
    if embedder is None:
        return _lexical(reader, concepts, limit)
    if isinstance(embedder, HashedEmbedder):
        return _fused_pool(reader, embedder, query, concepts, limit)
    vector = embedder.embed([query])[0]
    vectors = reader.imported_entity_vectors(ENTITY_INDEX_VECTORS, len(vector))
    if vectors is None or not len(vectors):
        vectors = reader.entity_vectors(embedder)
    count = getattr(embedder, "count", None)
    spent = count(query) if count is not None else None
    hits = vectors.search(vector, k=limit * OVERSAMPLE) if len(vectors) else []
    if not hits:  # no entity vectors, or a question of stopwords only: the lexical search
        return dataclasses.replace(_lexical(reader, concepts, limit), in_token=spent)
    entities = [NamedNode(iri) for iri, _ in hits]  # Microsoft keeps every one of the k × oversample nearest
    scores = {NamedNode(iri): score for iri, score in hits}
    return EntityRanking(entities, scores, dict(scores), VECTOR.format(vectors.ref), vectors.ref, spent)


def _fused_pool(reader, embedder: HashedEmbedder, query: str, concepts: Sequence[str], limit: int) -> EntityRanking:
    """Offline: the lexical search's best :data:`POOL` entities, ranked again by their hashed
    vectors' similarity to the question (read by key: a pool's vectors, not every entity's — on an
    index of 100,000 entities those are 400 MB), and the two rankings' best ``limit × OVERSAMPLE``
    fused by reciprocal rank."""
    pool = reader.entity_index().search(concepts, limit=max(POOL, limit * OVERSAMPLE))
    if not pool:
        return _lexical(reader, concepts, limit)
    vector = embedder.sparse(query)
    iris = [m.iri.value for m in pool]
    vectors = reader.entity_vectors_of(embedder, iris)
    similarity = vectors.similarity(vector, iris) if vector and len(vectors) else {}
    if not similarity:
        return _lexical(reader, concepts, limit)
    nearest = sorted(similarity, key=lambda iri: (-similarity[iri], iri))[: limit * OVERSAMPLE]
    fused = reciprocal_rank_fusion([iris[: limit * OVERSAMPLE], nearest], limit=limit)
    entities = [NamedNode(iri) for iri, _ in fused]
    return EntityRanking(entities, {NamedNode(iri): score for iri, score in fused},
                         {e: similarity[e.value] for e in entities if e.value in similarity}, FUSED.format(vectors.ref), vectors.ref)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], *, limit: int, k: int = RRF_K) -> list[tuple[str, float]]:
    """The best ``limit`` items of several rankings (best first each): each item scores
    ``Σ 1 / (k + rank)`` over the rankings it appears in; ties by IRI.

    >>> reciprocal_rank_fusion([["urn:a", "urn:b"], ["urn:b", "urn:c"]], limit=2)
    [('urn:b', 0.032522), ('urn:a', 0.016393)]
    """
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, iri in enumerate(ranking, start=1):
            fused[iri] = fused.get(iri, 0.0) + 1.0 / (k + rank)
    return [(iri, round(fused[iri], 6)) for iri in sorted(fused, key=lambda iri: (-fused[iri], iri))[:limit]]


def _lexical(reader, concepts: Sequence[str], limit: int) -> EntityRanking:
    matches = reader.entity_index().search(concepts, limit=limit)
    return EntityRanking([m.iri for m in matches], {m.iri: m.score for m in matches}, {}, LEXICAL)


def describe_ranking(method: str | None, embedder: str | None) -> str:
    """How a trace's entities were ranked, in words (``ragprov explain``, ``trace show``), from the
    Exploration's ``tg:prompt`` and ``tg:embeddingModel``.

    >>> print(describe_ranking("entity-rrf-bm25+hashed-tf-embedding@1", "hashed-tf-embedding@1"))
    BM25 and vector similarity fused by reciprocal rank; vectors: hashed-tf-embedding@1, a deterministic
    hashed term-frequency text vector (offline, no model)
    >>> print(describe_ranking("entity-similarity:embeddings:text-embedding-3-small@api", "embeddings:text-embedding-3-small@api"))
    vector similarity; vectors: embeddings:text-embedding-3-small@api, the embeddings API model text-embedding-3-small
    """
    if embedder is None:
        return "BM25 over labels and descriptions" if method == LEXICAL else (method or "unknown")
    how = "BM25 and vector similarity fused by reciprocal rank" if (method or "").startswith(FUSED.format("")) else "vector similarity"
    if embedder.startswith("hashed-tf-embedding"):
        what = "a deterministic hashed term-frequency text vector (offline, no model)"
    elif embedder.startswith("embeddings:") and embedder.endswith("@api"):
        what = f"the embeddings API model {embedder[len('embeddings:'):-len('@api')]}"
    elif embedder.startswith(SHIPPED):
        what = "the vectors the GraphRAG index output shipped"
    else:
        what = "vectors"
    return f"{how}; vectors: {embedder}, {what}"
