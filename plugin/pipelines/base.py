"""What every pipeline shares: construction (engine, recorder, facts reader), the run result,
stage timings, token bookkeeping, and the grounding and streamed-synthesis steps."""

from __future__ import annotations

import contextlib
import dataclasses
import re
import time
from collections.abc import Generator, Iterator, Sequence
from typing import Any

from pyoxigraph import NamedNode

from ..llm.engine import AnswerStream, Engine, Mention, Passage
from ..llm.offline import OfflineEngine
from ..record import ChunkEvent, EndOfSession, Recorder
from ..record.answer import answer_support
from ..record.events import Event, Source
from ..retrieve import FactsReader, FactsSchema

__all__ = ["Pipeline", "RunResult", "Timings", "Tokens"]


class Timings:
    """Wall time per stage (seconds), with the part spent recording provenance kept apart."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}

    @contextlib.contextmanager
    def measure(self, stage: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stages[stage] = self.stages.get(stage, 0.0) + time.perf_counter() - start

    def total(self) -> float:
        return sum(self.stages.values())

    def recording(self) -> float:
        return self.stages.get("record", 0.0)


@dataclasses.dataclass
class Tokens:
    """Running token totals (``None`` parts — unreported by the model — count as 0)."""

    in_token: int = 0
    out_token: int = 0
    reported: bool = False

    def add(self, in_token: int | None, out_token: int | None) -> None:
        self.in_token += in_token or 0
        self.out_token += out_token or 0


@dataclasses.dataclass
class RunResult:
    """What a finished (or failed) run produced, for callers that do not read the event stream."""

    question: NamedNode | None = None
    answer: str = ""
    last: NamedNode | None = None
    selected: int = 0
    sources: tuple[Source, ...] = ()
    tokens: Tokens = dataclasses.field(default_factory=Tokens)
    timings: Timings = dataclasses.field(default_factory=Timings)
    termination_reason: str | None = None
    #: whether the stated answer was found in the evidence (``None``: the engine does not say)
    answered: bool | None = None
    #: the evidence the synthesis was written from, in the order the engine saw it
    passages: tuple[Passage, ...] = ()
    #: how the engine chose the answer (:class:`~ragprov.llm.answer.Extraction`), when it says
    support: Any = None


class Pipeline:
    """The common part of every pipeline: an engine (offline by default), a recorder, the
    :class:`~ragprov.retrieve.FactsReader` all its reads go through (pipelines never query
    a store themselves), and its ``params``. ``run(question)`` is the subclass's; afterwards
    :attr:`result` holds what the run produced."""

    kind = ""
    #: the pipeline's settings class (a frozen dataclass); ``params=None`` means its defaults
    params_type: type | None = None

    def __init__(
        self,
        store,
        *,
        engine: Engine | None = None,
        recorder: Recorder | None = None,
        facts_graph: NamedNode | None = None,
        schema: FactsSchema | None = None,
        reader: FactsReader | None = None,
        params: Any = None,
    ):
        self.engine = engine or OfflineEngine()
        self.recorder = recorder or Recorder(store)
        self.reader = reader or FactsReader(store, facts_graph=facts_graph, schema=schema)
        self.params = params if params is not None or self.params_type is None else self.params_type()
        self.result = RunResult()

    def _named_in(self, texts: Sequence[str], *, name_parts: bool = True) -> list[tuple[Mention, ...]]:
        """The known entities (labels of the entity index, typed where the graph types them) whose
        every word occurs in each of ``texts``: the names the answer step may find there; and,
        with ``name_parts``, for a person the graph names in full, the part of that name a text
        writes on its own (:func:`_name_parts`: "Bob" for BOB CRATCHIT), a mention of the same
        entity — for plain text, where no structured evidence names the person in full."""
        with self.result.timings.measure("labels"):
            found = self.reader.entity_index().named_in(texts)
            types = self.reader.entity_types({node for names in found for node, _ in names})
            mentions = [[Mention(label, types.get(node), node.value) for node, label in names] for names in found]
            if name_parts:
                parts = _name_parts([m for ms in mentions for m in ms if m.type == "PERSON"])
                for text, ms in zip(texts, mentions, strict=True):
                    ms += _parts_in(text, ms, parts)
        return [tuple(ms) for ms in mentions]

    def _open(self, question: str, used: NamedNode | None) -> Any:
        """Record the Question; returns the trace the stages are written to (the subclass's)."""
        raise NotImplementedError

    def _begin(self, question: str, used: NamedNode | None) -> Generator[Event, None, tuple[Any, list[str]]]:
        """Reset :attr:`result`, record the Question and the Grounding (yielding their events);
        returns ``(trace, concepts)``."""
        result = self.result = RunResult()
        with result.timings.measure("record"):
            trace = self._open(question, used)
        result.question = trace.question
        yield trace.started_event
        concepts = yield from self._ground(trace, question)
        return trace, concepts

    def _ground(self, trace: Any, question: str) -> Generator[Event, None, list[str]]:
        """Concepts of the question, recorded as the Grounding; yields its event, returns the concepts."""
        result = self.result
        with result.timings.measure("concepts"):
            step = self.engine.concepts(question)
        result.tokens.add(step.in_token, step.out_token)
        with result.timings.measure("record"):
            event = trace.grounding(step.value, in_token=step.in_token, out_token=step.out_token, prompt=step.prompt)
        result.last = trace.last
        yield event
        return list(step.value)

    def _synthesize(
        self, trace: Any, question: str, passages: Sequence[Passage], *, kind: str, stream: AnswerStream | None = None,
    ) -> Iterator[Event]:
        """Stream the answer from ``passages`` (a chunk event per piece), record the Synthesis, and
        end the session with :attr:`RunResult.sources` as the sources. ``stream``: an answer already
        asked for another way (Microsoft's prompts over its context tables) instead of the engine's."""
        result = self.result
        timings, tokens = result.timings, result.tokens
        with timings.measure("synthesis"):
            if stream is None:
                stream = self.engine.answer(question, list(passages), kind=kind)
            pieces = iter(stream)
        while True:
            with timings.measure("synthesis"):
                piece = next(pieces, None)
            if piece is None:
                break
            yield ChunkEvent(piece)
        tokens.add(stream.in_token, stream.out_token)
        result.answer = stream.text
        result.passages = tuple(passages)
        result.support = getattr(stream, "support", None)
        result.answered = getattr(result.support, "answered", None)
        with timings.measure("record"):
            event = trace.synthesis(
                stream.text, in_token=stream.in_token, out_token=stream.out_token, prompt=stream.prompt,
                support=answer_support(result.support, passages),
            )
        result.last = trace.last
        yield event
        yield EndOfSession(trace.question, tokens.in_token, tokens.out_token, result.sources)


#: words of a person's name that are no name by themselves (titles, articles, epithets)
_NOT_NAMES = frozenset(
    "mr mrs miss ms dr doctor sir lady lord madam master agent captain professor old young little tiny the a an of and "
    "father mother uncle aunt brother sister saint st".split()
)
_NAME_WORD = re.compile(r"[A-Za-z][a-z]+")


def _name_parts(persons: Sequence[Mention]) -> dict[str, Mention]:
    """The first and last names of ``persons`` (full names of two or three words, titles and
    epithets aside) that only one of them has ("bob" → BOB CRATCHIT; not "cratchit", which BOB
    CRATCHIT and MRS. CRATCHIT share, nor "peter" when PETER CRATCHIT and MASTER PETER are both known)."""
    owners: dict[str, dict[str, Mention]] = {}
    for m in persons:
        if re.search(r"['’(),]", m.name):
            continue  # "Scrooge's nephew", "Scrooge's nephew (Fred)": descriptions, not names
        words = re.findall(r"[\w.]+", m.name)
        core = [w for w in words if w.lower().strip(".") not in _NOT_NAMES]
        for w in {core[0], core[-1]} if 2 <= len(words) <= 3 and 1 <= len(core) <= 2 else ():
            if _NAME_WORD.fullmatch(w.capitalize()):
                owners.setdefault(w.lower(), {})[m.iri or m.name] = m
    return {w: next(iter(ms.values())) for w, ms in owners.items() if len(ms) == 1}


def _parts_in(text: str, mentions: Sequence[Mention], parts: dict[str, Mention]) -> list[Mention]:
    """The :func:`_name_parts` of the persons ``mentions`` holds that ``text`` writes as a name —
    capitalised after a lower-case word, never in lower case — and no known name of its own
    ("Bob" in "said Bob"), each a mention of its person.

    >>> bob, mrs = Mention("BOB CRATCHIT", "PERSON", "urn:e:bob"), Mention("MRS. CRATCHIT", "PERSON", "urn:e:mrs")
    >>> parts = _name_parts([bob, mrs, Mention("TINY TIM", "PERSON", "urn:e:tim")])
    >>> sorted(parts)  # "Cratchit" is two people's; "Tiny" is an epithet
    ['bob', 'tim']
    >>> _parts_in("'I know,' said Bob. Tiny Tim sat by Mrs. Cratchit.", [bob, mrs], parts)
    [Mention(name='Bob', type='PERSON', iri='urn:e:bob')]
    >>> _parts_in("Bob came in; a bob of the head.", [bob], parts)  # written in lower case too: no name
    []
    """
    known = {m.name.lower() for m in mentions}
    iris = {m.iri for m in mentions}
    out: list[Mention] = []
    for word, owner in sorted(parts.items()):
        if owner.iri not in iris or word in known:
            continue
        name = word.capitalize()
        if re.search(rf"(?<![\w'’-]){word}(?![\w'’-])", text) or not re.search(rf"(?<=[a-z,;] ){name}(?![\w-])", text):
            continue
        out.append(Mention(name, owner.type, owner.iri))
    return out
