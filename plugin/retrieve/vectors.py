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
import math
from collections import Counter
from collections.abc import Sequence
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
    similarity (a dot product: every row is normalised).

    >>> e = HashedEmbedder(dim=64)
    >>> index = VectorIndex(["urn:a", "urn:b"], e.embed(["Tiny Tim is ill", "Fezziwig's ball"]), e.ref)
    >>> [iri for iri, _ in index.search(e.embed(["Is Tim ill?"])[0], k=1)]
    ['urn:a']
    >>> index.search(e.embed(["Who is it?"])[0], k=1)
    []
    """

    def __init__(self, iris: Sequence[str], matrix: np.ndarray, ref: str):
        self.iris = list(iris)
        self.matrix = matrix
        self.ref = ref
        self._row: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.iris)

    def search(self, query: np.ndarray, *, k: int) -> list[tuple[str, float]]:
        """The ``k`` most similar items, best first (ties by IRI): ``(iri, cosine similarity)``;
        none for a zero query vector (a question of stopwords only: nothing is similar to it)."""
        if not self.iris or k < 1 or not query.any():
            return []
        if query.shape[-1] != self.matrix.shape[1]:
            from ..errors import ConfigurationError

            raise ConfigurationError(
                f"the query vector has {query.shape[-1]} dimensions, the text units' vectors ({self.ref}) {self.matrix.shape[1]}")
        import numpy as np

        scores = _dot(self.matrix, query)
        if len(self.iris) > 4 * k:  # the k best, and every item tied with the k-th, sorted (not all of them)
            cut = np.partition(scores, len(scores) - k)[len(scores) - k]
            candidates = np.flatnonzero(scores >= cut).tolist()
        else:
            candidates = range(len(self.iris))
        order = sorted(candidates, key=lambda i: (-float(scores[i]), self.iris[i]))[:k]
        return [(self.iris[i], round(float(scores[i]), 6)) for i in order]

    def similarity(self, query: np.ndarray, iris: Sequence[str]) -> dict[str, float]:
        """The cosine similarity of each of ``iris`` that has a vector here to ``query``.

        >>> e = HashedEmbedder(dim=64)
        >>> index = VectorIndex(["urn:a"], e.embed(["Tiny Tim is ill"]), e.ref)
        >>> index.similarity(e.embed(["Tiny Tim is ill"])[0], ["urn:a", "urn:z"])
        {'urn:a': 1.0}
        """
        row = self._rows()
        found = [(iri, row[iri]) for iri in iris if iri in row]
        if not found or query.shape[-1] != self.matrix.shape[1]:
            return {}
        scores = _dot(self.matrix[[n for _, n in found]], query)
        return {iri: round(float(s), 6) for (iri, _), s in zip(found, scores, strict=True)}

    def _rows(self) -> dict[str, int]:
        if self._row is None:
            self._row = {iri: n for n, iri in enumerate(self.iris)}
        return self._row


def _dot(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Each row of ``matrix`` · ``query``, in one thread: ``einsum``'s own loop, not BLAS, whose
    threads cost a hundredfold on a busy machine for a product this small (a few thousand rows)."""
    import numpy as np

    return np.einsum("ij,j->i", matrix, query.astype(matrix.dtype))
