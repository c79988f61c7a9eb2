"""Microsoft GraphRAG's basic search: vector search over the text units, with its provenance.

The question is embedded (:mod:`ragprov.llm.embeddings`: an OpenAI-compatible ``/embeddings``
API with an LLM configured, else the offline hashed term-frequency vector), the ``k`` text units
whose vectors are most similar to it (cosine) are found, and, as Microsoft GraphRAG does, they
are put in a ``Sources`` table (``id|text``, the text unit's human-readable id) in the index's
order while they fit ``max_tokens``; the answer is written from that table (with an LLM,
Microsoft's basic-search prompt structure and ``response_type``, citing ``[Data: Sources (…)]``;
offline, the offline engine's answer extraction over the kept text units).

Recorded (``urn:ragprov:basic:{id}`` and ``…/{stage}``, a ``tg:BasicSearchQuestion``):

- **Grounding**: the text embedded (the question) and the embedder as the stage's ``tg:prompt``
  (``hashed-tf-embedding@1`` offline, ``embeddings:{model}@api`` with an API) — which vectors the
  similarities are;
- **Exploration**: the ``k`` nearest text units, nearest first;
- **Focus**: the text units kept in the context, each a ``tg:ItemSelection`` with its cosine
  similarity as ``tg:score``, its place in the context as ``tg:rank`` and its tokens; the stage's
  ``tg:prompt`` names the text units' vectors the similarities were computed against (the
  embedder's own, or ``graphrag-output:text_unit_text@{dim}d``: the vectors the GraphRAG output
  shipped, :mod:`ragprov.loaders.graphrag_embeddings`);
- **Synthesis**: the answer, the kept text units it rests on, and its sources (document, chunk).

>>> from ragprov.store import open_store
>>> from ragprov.loaders.documents import load_documents
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "carol.txt").write_text("Marley was dead, to begin with. Scrooge signed the register of his burial.")
>>> store = open_store("memory:")
>>> _ = load_documents(store, [folder / "carol.txt"], chunk_size=200, chunk_overlap=0)
>>> pipe = BasicSearch(store)
>>> [e.stage for e in pipe.run("Who signed Marley's burial register?") if e.type == "explain"]
['question', 'grounding', 'exploration', 'focus', 'synthesis']
>>> print(pipe.result.answer.splitlines()[0])
The answer is Scrooge [1].
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from pyoxigraph import NamedNode

from ..errors import ConfigurationError
from ..llm.embeddings import APIEmbedder, embedder_for
from ..llm.engine import Passage
from ..llm.history import ConversationTurn
from ..llm.microsoft import DEFAULT_RESPONSE_TYPE, basic_answer
from ..llm.tables import ContextTables, Table, fit_rows
from ..record.events import Event, Source
from ..retrieve.table_fields import table_fields
from ..retrieve.vectors import INDEX_VECTORS
from .base import RunResult
from .evidence import body_texts
from .microsoft import llm_of, token_counter
from .msgraphrag import _Mode

__all__ = ["BasicSearch", "BasicSearchParams"]


@dataclasses.dataclass(frozen=True)
class BasicSearchParams:
    """Basic search's settings, Microsoft GraphRAG's defaults (``basic_search.k``,
    ``basic_search.max_context_tokens``)."""

    k: int = 10
    max_tokens: int = 12_000

    def __post_init__(self) -> None:
        if self.k < 1 or self.max_tokens < 1:
            raise ConfigurationError("basic search needs k and max_tokens of at least 1")


class BasicSearch(_Mode):
    """Microsoft GraphRAG basic search (see the module docstring)."""

    kind, params_type = "basic", BasicSearchParams

    def run(self, question: str, *, used: NamedNode | None = None, history: Sequence[ConversationTurn] = ()) -> Iterator[Event]:
        """``history``: the earlier turns of a conversation (linked in the trace; Microsoft's basic
        search does not put them in its context)."""
        self.history = tuple(history)
        result = self.result = RunResult()
        timings, tokens, p = result.timings, result.tokens, self.params
        with timings.measure("record"):
            session = self._open(question, used)
        result.question = session.question
        yield session.started_event

        embedder = embedder_for(self.engine)
        if isinstance(embedder, APIEmbedder):
            # the question first: the index output's own vectors serve when they have its dimension
            with timings.measure("embed"):
                query = embedder.embed([question])[0]
            with timings.measure("vectors"):
                vectors = self.reader.imported_vectors(INDEX_VECTORS, len(query)) or self.reader.text_unit_vectors(embedder)
        else:
            with timings.measure("vectors"):
                vectors = self.reader.text_unit_vectors(embedder)
            with timings.measure("embed"):
                query = embedder.embed([question])[0]
        spent = embedder.count(question) if isinstance(embedder, APIEmbedder) else None
        tokens.add(spent, None)
        with timings.measure("record"):
            event = session.grounding([question], in_token=spent, prompt=embedder.ref)
        result.last = session.last
        yield event

        with timings.measure("retrieve"):
            hits = vectors.search(query, k=p.k)
        found = [NamedNode(iri) for iri, _ in hits]
        similarity = dict(zip(found, (score for _, score in hits), strict=True))
        with timings.measure("record"):
            event = session.exploration([], found)
        exploration = event.explain_id
        yield event

        with timings.measure("context"):
            records = self.reader.chunk_records(found)
            ids = {unit: f.get("id") for unit, f in table_fields(self.reader, found).items()}
            # Microsoft fills its Sources table in the index's order of the text units, not by similarity
            ordered = sorted((u for u in found if u in records), key=lambda u: _place(records[u], u))
            table = Table("Sources", ("id", "text"))
            for n, unit in enumerate(ordered, start=1):
                table.add(ids.get(unit) or f"x{n}", [records[unit].text], item=unit.value,
                          selection=f"{session.question.value}/item/{n}")
            count = token_counter(self.engine)
            kept = fit_rows(table, count, p.max_tokens)
        units = [NamedNode(row.item) for row in kept.rows if row.item is not None]
        picks = [NamedNode(row.selection) for row in kept.rows if row.selection is not None]
        selections = [
            {"iri": pick, "item": unit, "kind": "text_unit", "rank": n, "score": similarity[unit], "tokens": count(row.line() + "\n"),
             "edge": None}
            for n, (pick, unit, row) in enumerate(zip(picks, units, kept.rows, strict=True), start=1)
        ]
        with timings.measure("record"):
            event = session.focus(selections, derived_from=[exploration], prompt=vectors.ref)
        yield event
        result.selected = len(selections)

        with timings.measure("lineage"):
            places = self.reader.chunk_sources(units)
        sources: list[Source] = []
        for unit in units:
            where = places.get(unit)
            if where is not None and where not in sources:
                sources.append(where)
        result.sources = tuple(sources)
        llm = llm_of(self.engine)
        if llm is None:  # the offline answer reads the kept text units without an e-book's licence (.evidence)
            with timings.measure("matter"):
                bodies = body_texts(self.reader, question, [records[u] for u in units])
        else:
            bodies = [records[u].text for u in units]
        rows = [(u, " ".join(body.split()), pick) for u, body, pick in zip(units, bodies, picks, strict=True) if body is not None]
        named = self._named_in([text for _, text, _ in rows])
        passages = [
            Passage(text, self.reader.citation(places[u]) if u in places else records[u].citation(), kind="text_unit",
                    item=pick.value, mentions=named[n])
            for n, (u, text, pick) in enumerate(rows)
        ]
        if llm is None:  # the offline answer reads the kept text units nearest first
            nearest = sorted(zip([u for u, _, _ in rows], passages, strict=True), key=lambda pair: (-similarity[pair[0]], pair[0].value))
            passages = [passage for _, passage in nearest]
        else:
            stream = basic_answer(llm, question, ContextTables([kept]), response_type=getattr(llm, "response_type", DEFAULT_RESPONSE_TYPE))
            yield from self._synthesize(session, question, passages, kind="passages", stream=stream)
            return
        yield from self._synthesize(session, question, passages, kind="passages")


def _place(record, unit: NamedNode) -> tuple:
    """A text unit's place in the index: its document, then its position there."""
    return (record.document.value if record.document is not None else "", record.index if record.index is not None else 1 << 30, unit.value)
