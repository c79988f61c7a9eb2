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
>>> pipeline.result.answer.startswith("- Scrooge signed the register of his burial. [1]")
True
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

from pyoxigraph import NamedNode

from ..errors import ConfigurationError
from ..llm.engine import Engine, Passage
from ..llm.offline import OfflineEngine
from ..record import ChunkEvent, ChunkSelection, EndOfSession, Recorder
from ..record.events import Event, Source
from .base import RunResult
from .facts import FactsReader

__all__ = ["DocRag", "DocRagParams"]


@dataclasses.dataclass(frozen=True)
class DocRagParams:
    """How many chunks to retrieve, whether to rerank, and how many to keep after reranking."""

    chunk_limit: int = 10
    rerank: bool = True
    keep: int = 5

    def __post_init__(self) -> None:
        if self.chunk_limit < 1 or self.keep < 1:
            raise ConfigurationError("DocRAG chunk limit and keep must be at least 1")


class DocRag:
    """The DocRAG pipeline over one store; ``run(question)`` yields one session's events and sets
    :attr:`result`."""

    kind = "doc-rag"

    def __init__(self, store, *, engine: Engine | None = None, recorder: Recorder | None = None, params: DocRagParams | None = None, reader: FactsReader | None = None):
        self.store = store
        self.engine = engine or OfflineEngine()
        self.recorder = recorder or Recorder(store)
        self.reader = reader or FactsReader(store)
        self.params = params or DocRagParams()
        self.result = RunResult()

    def run(self, question: str, *, used: NamedNode | None = None) -> Iterator[Event]:
        result = self.result = RunResult()
        timings, tokens = result.timings, result.tokens
        engine, params = self.engine, self.params

        with timings.measure("record"):
            trace = self.recorder.doc_rag(question, model=engine.model, used=used)
        result.question = trace.question
        yield trace.started_event

        with timings.measure("concepts"):
            step = engine.concepts(question)
        tokens.add(step.in_token, step.out_token)
        concepts = step.value
        with timings.measure("record"):
            event = trace.grounding(concepts, in_token=step.in_token, out_token=step.out_token, prompt=step.prompt)
        result.last = trace.last
        yield event

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
        passages = [Passage(rec.text, rec.citation()) for rec, _ in kept]
        with timings.measure("synthesis"):
            stream = engine.answer(question, passages, kind="passages")
            pieces = iter(stream)
        while True:
            with timings.measure("synthesis"):
                piece = next(pieces, None)
            if piece is None:
                break
            yield ChunkEvent(piece)
        tokens.add(stream.in_token, stream.out_token)
        result.answer = stream.text
        with timings.measure("record"):
            event = trace.synthesis(stream.text, in_token=stream.in_token, out_token=stream.out_token, prompt=stream.prompt)
        result.last = trace.last
        yield event
        yield EndOfSession(trace.question, tokens.in_token, tokens.out_token, result.sources)
