"""DocRAG: concepts → chunk retrieval (BM25 over chunk text) → optional reranking → synthesis
citing chunks and pages, every stage recorded as it happens and yielded as an event.

Chunks are the ones the document loaders write (``tg:Chunk`` / ``tg:TextUnit`` in
``urn:graph:source``, text as ``tg:content`` in ``urn:graph:library``).

>>> from ragprov.store import open_store
>>> from ragprov.loaders.documents import load_documents
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "carol.txt").write_text("Marley was dead, to begin with. Scrooge signed the register of his burial.")
>>> store = open_store("memory:")
>>> _ = load_documents(store, [folder / "carol.txt"], chunk_size=200, chunk_overlap=0)
>>> pipeline = DocRag(store)
>>> [e.stage for e in pipeline.run("Who signed Marley's burial register?") if e.type == "explain"]
['question', 'grounding', 'exploration', 'focus', 'synthesis']
>>> print(pipeline.result.answer.splitlines()[0])
The answer is Scrooge [1].
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from pyoxigraph import NamedNode

from ..errors import ConfigurationError
from ..llm.engine import Passage
from ..record import ChunkSelection
from ..record.events import Event, Source
from .base import Pipeline
from .evidence import body_texts

__all__ = ["DocRag", "DocRagParams"]


@dataclasses.dataclass(frozen=True)
class DocRagParams:
    """How many chunks to retrieve, whether to rerank, and how many to keep after reranking.

    The answer reads the ten best of twenty: it weighs each name by how many kept chunks support
    it, and five GraphRAG text units (1,200 tokens each) held the answer less often than ten
    (``bench/answers.py``: 51 → 56 of 91 questions right, held-out 25 → 27 of 45)."""

    chunk_limit: int = 20
    rerank: bool = True
    keep: int = 10

    def __post_init__(self) -> None:
        if self.chunk_limit < 1 or self.keep < 1:
            raise ConfigurationError("DocRAG chunk limit and keep must be at least 1")


class DocRag(Pipeline):
    """The DocRAG pipeline over one store; ``run(question)`` yields one session's events and sets
    :attr:`result`."""

    kind = "doc-rag"

    params_type = DocRagParams

    def _open(self, question: str, used: NamedNode | None):
        return self.recorder.doc_rag(question, model=self.engine.model, used=used)

    def run(self, question: str, *, used: NamedNode | None = None) -> Iterator[Event]:
        trace, concepts = yield from self._begin(question, used)
        result = self.result
        timings, tokens = result.timings, result.tokens
        engine, params = self.engine, self.params

        with timings.measure("index"):
            index = self.reader.chunk_index()
        with timings.measure("retrieve"):
            found = index.search(concepts, limit=params.chunk_limit)
        with timings.measure("record"):
            event = trace.exploration([rec.chunk for rec, _ in found])
        result.last = trace.last
        yield event

        kept = [(rec, score) for rec, score in found][: params.keep]
        if params.rerank and found:
            with timings.measure("rerank"):
                step = engine.rerank(question, concepts, [Passage(rec.text, rec.citation()) for rec, _ in found], keep=params.keep)
            tokens.add(step.in_token, step.out_token)
            kept = [(found[c.index][0], c.score) for c in step.value]
            with timings.measure("record"):
                event = trace.focus([ChunkSelection(rec.chunk, score) for rec, score in kept], prompt=step.prompt)
            result.last = trace.last
            yield event
        result.selected = len(kept)

        sources: list[Source] = []
        for rec, _ in kept:
            if rec.source() not in sources:
                sources.append(rec.source())
        result.sources = tuple(sources)
        items = getattr(trace, "selection_iris", None) if params.rerank and found else None
        # an e-book's licence (its back matter) is left out unless it bears on the question (.evidence)
        with timings.measure("matter"):
            texts = body_texts(self.reader, question, [rec for rec, _ in kept])
        evidence = [(n, text) for n, text in enumerate(texts) if text is not None]
        named = self._named_in([text for _, text in evidence])
        passages = [
            Passage(
                text,
                kept[n][0].citation(),
                kind="chunk",
                item=(items[n].value if items and n < len(items) else kept[n][0].chunk.value),
                mentions=named[k],
            )
            for k, (n, text) in enumerate(evidence)
        ]
        yield from self._synthesize(trace, question, passages, kind="passages")
