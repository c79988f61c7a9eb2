"""Text vectors for vector search (Microsoft GraphRAG's basic search over text units): the
embedders and the vectors of an index's text units, kept where retrieval reads them.

Two embedders, one interface (:class:`Embedder`: ``ref``, ``embed(texts)`` → L2-normalised
float32 rows):

- :class:`HashedEmbedder`, the offline one: a *hashed term-frequency vector* — each text's
  content words (:func:`~.lexical.content_tokens`: folded, light-stemmed, stopwords out) and the
  character trigrams of those words (so ``nephew`` still meets ``nephews'``), each feature hashed
  (BLAKE2b) to one of ``dim`` buckets with a sign bit (the "hashing trick": collisions cancel out on
  average instead of piling up), each word weighted ``1 + log(tf)`` (its trigrams at
  :attr:`HashedEmbedder.TRIGRAM_WEIGHT` of that), then L2-normalised.
  Deterministic: the same text gives the same vector on every machine. The trace names it
  ``hashed-tf-embedding@1`` (``ragprov explain`` shows it as the grounding's prompt).
- :class:`ragprov.llm.embeddings.APIEmbedder`: an OpenAI-compatible ``POST /embeddings`` (the
  LLM package owns it: retrieval never imports the LLM client). The trace names it
  ``embeddings:{model}@api``.

Where the vectors live (:func:`text_unit_vectors`): in the persistent text index
(:mod:`.textindex`, table ``vector``: one float32 blob per text unit and embedder, with the hash
of the text it was computed from, so a changed text is embedded again); the offline embedder's are
computed when the index is synchronised at load time, an API embedder's the first time a search
needs them (and kept). Stores without a persistent index keep them in the reader, once per process.
numpy is imported when vectors are first made or searched, not when the module is: every
``ragprov ask`` imports the pipelines, and only basic search needs it.

>>> e = HashedEmbedder(dim=64)
>>> v = e.embed(["Marley was dead: to begin with.", "Marley was dead, to begin with!"])
>>> v.shape, round(float(v[0] @ v[1]), 6), round(float((v[0] ** 2).sum()), 6)
((2, 64), 1.0, 1.0)
>>> bool(e.embed(["Scrooge's nephew Fred"])[0] @ e.embed(["the nephew of Scrooge"])[0] > 0.5)
True
"""

from __future__ import annotations

import hashlib
import heapq
import math
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from .lexical import content_tokens

if TYPE_CHECKING:
    import numpy as np


__all__ = [
    "ENTITY_INDEX_VECTORS",
    "INDEX_VECTORS",
    "SHIPPED",
    "Embedder",
    "HashedEmbedder",
    "VectorIndex",
    "entity_text",
    "normalise",
    "text_digest",
]

#: what the names of the vector sets an index output shipped begin with
SHIPPED = "graphrag-output:"
#: the name of the text-unit vectors a GraphRAG output ships (:mod:`ragprov.loaders.graphrag_embeddings`)
INDEX_VECTORS = SHIPPED + "text_unit_text"
#: the name of the entity-description vectors a GraphRAG output ships (``embeddings.entity_description.parquet``)
ENTITY_INDEX_VECTORS = SHIPPED + "entity_description"


class Embedder(Protocol):
    """Turns texts into unit vectors; ``ref`` names it in traces and in the stored vectors."""

    ref: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def normalise(rows: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (rows / norms).astype(np.float32)


class HashedEmbedder:
    """The offline text vector (see the module docstring): each distinct content word of a text
    adds ``1 + log(tf)`` times its own vector — its hashed, signed unigram feature plus its
    character trigrams at :attr:`TRIGRAM_WEIGHT` — and the sum is L2-normalised. A word's vector
    is worked out once per embedder (a corpus repeats its few thousand words)."""

    TRIGRAM_WEIGHT = 0.25

    def __init__(self, dim: int = 1024):
        if dim < 8:
            raise ValueError("a hashed vector needs at least 8 dimensions")
        self.dim = dim
        self.ref = "hashed-tf-embedding@1" if dim == 1024 else f"hashed-tf-embedding-{dim}@1"
        self._words: dict[str, tuple[list[int], list[float]]] = {}

    def _bucket(self, feature: str) -> tuple[int, float]:
        h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
        return h % self.dim, (1.0 if (h >> 63) & 1 else -1.0)

    @staticmethod
    def features(word: str) -> list[tuple[str, float]]:
        """A word's weighted features: ``w:`` the word, ``c:`` its character trigrams.

        >>> HashedEmbedder.features("ghost")
        [('w:ghost', 1.0), ('c:<gh', 0.25), ('c:gho', 0.25), ('c:hos', 0.25), ('c:ost', 0.25), ('c:st>', 0.25)]
        """
        padded = f"<{word}>"
        return [("w:" + word, 1.0)] + [("c:" + padded[i : i + 3], HashedEmbedder.TRIGRAM_WEIGHT) for i in range(len(padded) - 2)]

    def _word(self, word: str) -> tuple[list[int], list[float]]:
        found = self._words.get(word)
        if found is None:
            buckets, values = [], []
            for feature, weight in self.features(word):
                bucket, sign = self._bucket(feature)
                buckets.append(bucket)
                values.append(sign * weight)
            found = self._words[word] = (buckets, values)
        return found

    def sparse(self, text: str) -> dict[int, float]:
        """``text``'s vector as ``{bucket: value}``, its non-zero entries: the row :meth:`embed`
        computes (the same sums in the same order), without numpy — a question's few words touch a
        few dozen buckets, and searching stored vectors with it needs no numpy either
        (:meth:`VectorIndex.search`).

        >>> e = HashedEmbedder(dim=64)
        >>> row, found = e.embed(["Scrooge's nephew Fred"])[0], e.sparse("Scrooge's nephew Fred")
        >>> all(abs(float(row[b]) - x) < 1e-7 for b, x in found.items()) and int((row != 0).sum()) == len(found)
        True
        """
        sums: dict[int, float] = {}
        for word, tf in Counter(content_tokens(text)).items():
            weight = 1.0 + math.log(tf)
            for bucket, x in zip(*self._word(word), strict=True):
                sums[bucket] = sums.get(bucket, 0.0) + (x * weight if tf > 1 else x)
        norm = math.sqrt(sum(x * x for x in sums.values()))
        return {b: x / norm for b, x in sums.items() if x} if norm else {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        rows = np.zeros((len(texts), self.dim), dtype=np.float64)
        for n, text in enumerate(texts):
            buckets: list[int] = []
            values: list[float] = []
            for word, tf in Counter(content_tokens(text)).items():
                b, v = self._word(word)
                weight = 1.0 + math.log(tf)
                buckets += b
                values += [x * weight for x in v] if tf > 1 else v
            if buckets:
                rows[n] = np.bincount(buckets, weights=values, minlength=self.dim)
        return normalise(rows)


def entity_text(title: str | None, description: str | None) -> str:
    """What an entity's vector is computed from: ``title:description``, the text Microsoft
    GraphRAG embeds for its ``entity_description`` vectors.

    >>> entity_text("Jacob Marley", "Scrooge's late business partner")
    "Jacob Marley:Scrooge's late business partner"
    """
    return f"{title or ''}:{description or ''}"


def text_digest(text: str) -> str:
    """What a stored vector remembers of the text it was computed from."""
    return hashlib.sha1(text.encode()).hexdigest()


class VectorIndex:
    """Unit vectors of items (rows of ``matrix``, in the order of ``iris``), searched by cosine
    similarity (a dot product: every row is normalised). A query is a vector, or a sparse one
    (``{dimension: value}``, :meth:`HashedEmbedder.sparse`); the rows may be kept packed
    (:meth:`packed`: float32 bytes, as the text index stores them), and then a sparse query reads
    the columns it touches without numpy, which is imported only for a dense query or :attr:`matrix`.

    >>> e = HashedEmbedder(dim=64)
    >>> index = VectorIndex(["urn:a", "urn:b"], e.embed(["Tiny Tim is ill", "Fezziwig's ball"]), e.ref)
    >>> [iri for iri, _ in index.search(e.embed(["Is Tim ill?"])[0], k=1)]
    ['urn:a']
    >>> index.search(e.embed(["Who is it?"])[0], k=1)
    []
    >>> packed = VectorIndex.packed(index.iris, index.matrix.tobytes(), 64, e.ref)
    >>> packed.search(e.sparse("Is Tim ill?"), k=2) == index.search(e.embed(["Is Tim ill?"])[0], k=2)
    True
    """

    def __init__(self, iris: Sequence[str], matrix: np.ndarray | None, ref: str):
        self.iris = list(iris)
        self._matrix = matrix
        self.dim = int(matrix.shape[1]) if matrix is not None else 0
        self.ref = ref
        self._row: dict[str, int] | None = None
        self._packed: bytes | None = None
        self._floats: array[float] | None = None

    @classmethod
    def packed(cls, iris: Sequence[str], rows: bytes, dim: int, ref: str) -> VectorIndex:
        """The index of ``iris`` whose vectors are ``rows``: ``len(iris) × dim`` float32, packed."""
        if len(rows) != 4 * dim * len(iris):
            raise ValueError(f"{len(rows)} bytes are not {len(iris)} vectors of {dim} float32")
        index = cls(iris, None, ref)
        index._packed, index.dim = rows, dim
        return index

    @property
    def matrix(self) -> np.ndarray:
        if self._matrix is None:
            import numpy as np

            self._matrix = np.frombuffer(self._packed or b"", dtype=np.float32).reshape(len(self.iris), self.dim)
        return self._matrix

    def __len__(self) -> int:
        return len(self.iris)

    def search(self, query: np.ndarray | Mapping[int, float], *, k: int) -> list[tuple[str, float]]:
        """The ``k`` most similar items, best first (ties by IRI): ``(iri, cosine similarity)``;
        none for a zero query vector (a question of stopwords only: nothing is similar to it)."""
        if not self.iris or k < 1 or not (query if isinstance(query, Mapping) else query.any()):
            return []
        self._check(query)
        scores: Sequence[float]
        if isinstance(query, Mapping):
            scores = self._sparse_scores(query)
            cut = heapq.nlargest(k, scores)[-1]
            candidates: Iterable[int] = [i for i, score in enumerate(scores) if score >= cut]
        else:
            import numpy as np

            dense = _dot(self.matrix, query)
            if len(self.iris) > 4 * k:  # the k best, and every item tied with the k-th, sorted (not all of them)
                cut = np.partition(dense, len(dense) - k)[len(dense) - k]
                candidates = np.flatnonzero(dense >= cut).tolist()
            else:
                candidates = range(len(self.iris))
            scores = dense.tolist()
        order = sorted(candidates, key=lambda i: (-scores[i], self.iris[i]))[:k]
        return [(self.iris[i], round(float(scores[i]), 6)) for i in order]

    def similarity(self, query: np.ndarray | Mapping[int, float], iris: Sequence[str]) -> dict[str, float]:
        """The cosine similarity of each of ``iris`` that has a vector here to ``query``.

        >>> e = HashedEmbedder(dim=64)
        >>> index = VectorIndex(["urn:a"], e.embed(["Tiny Tim is ill"]), e.ref)
        >>> index.similarity(e.embed(["Tiny Tim is ill"])[0], ["urn:a", "urn:z"]), index.similarity(e.sparse("Tiny Tim is ill"), ["urn:a"])
        ({'urn:a': 1.0}, {'urn:a': 1.0})
        """
        row = self._rows()
        found = [(iri, row[iri]) for iri in iris if iri in row]
        if not found:
            return {}
        self._check(query)
        rows = [n for _, n in found]
        scores = self._sparse_scores(query, rows) if isinstance(query, Mapping) else _dot(self.matrix[rows], query).tolist()
        return {iri: round(float(s), 6) for (iri, _), s in zip(found, scores, strict=True)}

    def _check(self, query: np.ndarray | Mapping[int, float]) -> None:
        dim = (max(query) + 1 if query else 0) if isinstance(query, Mapping) else query.shape[-1]
        if dim > self.dim or (not isinstance(query, Mapping) and dim != self.dim):
            from ..errors import ConfigurationError

            raise ConfigurationError(f"the query vector has {dim} dimensions, the vectors ({self.ref}) {self.dim}")

    def _sparse_scores(self, query: Mapping[int, float], rows: Sequence[int] | None = None) -> list[float]:
        """Each row's (or each of ``rows``') product with a sparse query: from the packed floats,
        one strided column per query dimension, when they are not a numpy matrix already."""
        if self._matrix is None:
            if self._floats is None:
                self._floats = array("f")
                self._floats.frombytes(self._packed or b"")
            floats, dim = self._floats, self.dim
            if rows is not None:
                return [sum(w * floats[r * dim + b] for b, w in query.items()) for r in rows]
            scores = [0.0] * len(self.iris)
            for b, w in query.items():
                scores = [s + w * x for s, x in zip(scores, floats[b::dim], strict=True)]
            return scores
        import numpy as np

        buckets = list(query)
        matrix = self.matrix if rows is None else self.matrix[rows]
        return np.einsum("ij,j->i", matrix[:, buckets].astype(np.float64), np.array([query[b] for b in buckets])).tolist()

    def _rows(self) -> dict[str, int]:
        if self._row is None:
            self._row = {iri: n for n, iri in enumerate(self.iris)}
        return self._row


def _dot(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row of ``matrix`` · ``query``, in one thread: ``einsum``'s own loop, not BLAS, whose
    threads cost a hundredfold on a busy machine for a product this small (a few thousand rows)."""
    import numpy as np

    return np.einsum("ij,j->i", matrix, query.astype(matrix.dtype))
