"""Vectors from an OpenAI-compatible ``/embeddings`` API (Microsoft GraphRAG's ``embed_text``),
through the LLM client and so through ragprov's one HTTP client, batched as Microsoft batches:
:data:`BATCH_SIZE` texts and at most :data:`BATCH_MAX_TOKENS` tokens per request. It is an
:class:`~ragprov.retrieve.vectors.Embedder` like the offline hashed vector, which retrieval owns.

>>> embedder_for(None).ref  # no LLM configured: the offline vector
'hashed-tf-embedding@1'
>>> api = APIEmbedder(None, model="text-embedding-3-small", batch_size=2, batch_max_tokens=5, count=len)
>>> api.ref, api.batches(["ab", "cd", "ef", "toolong", "g"])
('embeddings:text-embedding-3-small@api', [[0, 1], [2], [3], [4]])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import LLMError
from ..retrieve.vectors import Embedder, HashedEmbedder, normalise

if TYPE_CHECKING:
    import numpy as np

    from .client import LLMClient

__all__ = ["BATCH_MAX_TOKENS", "BATCH_SIZE", "APIEmbedder", "embedder_for"]

#: texts per ``/embeddings`` request (Microsoft GraphRAG's ``embed_text.batch_size``)
BATCH_SIZE = 16
#: tokens per ``/embeddings`` request (Microsoft GraphRAG's ``embed_text.batch_max_tokens``)
BATCH_MAX_TOKENS = 8191


class APIEmbedder:
    """Vectors from an OpenAI-compatible ``/embeddings`` API, :data:`BATCH_SIZE` texts (and at
    most :data:`BATCH_MAX_TOKENS` tokens) per request; ``requests`` counts the requests sent."""

    def __init__(self, client: LLMClient, *, model: str | None = None, batch_size: int = BATCH_SIZE,
                 batch_max_tokens: int = BATCH_MAX_TOKENS, count: Callable[[str], int] | None = None):
        from .tokens import tokenizer_for

        self.client = client
        self.model = model or client.config.embedding_model or client.config.model
        self.batch_size = batch_size
        self.batch_max_tokens = batch_max_tokens
        self.count = count or tokenizer_for(self.model).count
        self.ref = "embeddings:" + "".join("_" if c.isspace() or c == "@" else c for c in self.model) + "@api"
        self.requests = 0

    def batches(self, texts: Sequence[str]) -> list[list[int]]:
        """The positions of ``texts`` sent together: in order, a new batch when the count or the
        token budget would be exceeded (a text longer than the budget goes alone)."""
        out: list[list[int]] = []
        used = 0
        for n, text in enumerate(texts):
            tokens = self.count(text)
            if not out or len(out[-1]) >= self.batch_size or used + tokens > self.batch_max_tokens:
                out.append([])
                used = 0
            out[-1].append(n)
            used += tokens
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors: list[list[float]] = [[] for _ in texts]
        for batch in self.batches(texts):
            self.requests += 1
            for n, vector in zip(batch, self.client.embed([texts[i] for i in batch], model=self.model), strict=True):
                vectors[n] = vector
        dims = {len(v) for v in vectors}
        if len(dims) != 1:
            raise LLMError(f"the embeddings API returned vectors of different lengths ({sorted(dims)})")
        return normalise(np.asarray(vectors, dtype=np.float64))


def embedder_for(engine: Any) -> Embedder:
    """The embedder a mode uses with ``engine``: the embeddings API of an LLM engine's server,
    else the offline :class:`~ragprov.retrieve.vectors.HashedEmbedder`."""
    from .engine import LLMEngine

    if isinstance(engine, LLMEngine):
        return APIEmbedder(engine.client)
    return HashedEmbedder()
