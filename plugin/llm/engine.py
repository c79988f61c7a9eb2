"""What a retrieval pipeline asks of a language model, and the LLM-backed implementation.

An :class:`Engine` does the judgement steps of the pipelines: extract concepts, score candidate
edges, rerank passages, write the answer (streamed) and take a ReAct step. Two engines exist: the
:class:`LLMEngine` (prompts from package data, an OpenAI-compatible server) and the offline engine
(:mod:`ragprov.llm.offline`, a deterministic lexical algorithm). Every step reports the tokens it
spent and the prompt (or algorithm) it used as ``id@version``, which the trace records.

>>> parse_react("Thought: look it up\\nAction: knowledge-query\\nAction Input: {\\"question\\": \\"q\\"}")
ReactStep(thought='look it up', action='knowledge-query', arguments={'question': 'q'}, final_answer=None)
>>> parse_react("Thought: done\\nFinal Answer: 42").final_answer
'42'
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..errors import LLMError, PipelineError
from .prompt import Prompt, load_prompt

if TYPE_CHECKING:  # the HTTP client (requests) loads only when an LLM is configured
    from ..retrieve.lexical import BM25
    from .client import LLMClient, StreamedCompletion

__all__ = [
    "AnswerStream",
    "Choice",
    "EdgeText",
    "Engine",
    "LLMEngine",
    "MapPoint",
    "Mention",
    "Passage",
    "ReactStep",
    "Step",
    "Tool",
    "Turn",
    "parse_json_list",
    "parse_json_object",
    "parse_react",
    "turns_evidence",
]

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Step(Generic[T]):
    """A step's result with what it cost and which prompt (or algorithm) produced it."""

    value: T
    in_token: int | None = None
    out_token: int | None = None
    prompt: str | None = None
    #: what supports the value, when the step extracted an answer itself (the offline ReAct step's
    #: final answer over its tools' evidence: an :class:`~ragprov.llm.answer.Extraction`)
    support: Any = None


@dataclasses.dataclass(frozen=True)
class EdgeText:
    """A candidate edge as the engine sees it: labels, not IRIs (the pipeline keeps the IRIs)."""

    subject: str
    predicate: str
    object: str
    description: str = ""

    def line(self) -> str:
        return " | ".join(x.replace("\n", " ") for x in (self.subject, self.predicate, self.object, self.description))


@dataclasses.dataclass(frozen=True)
class Choice:
    """A kept item: its index in the candidates, a score, and why."""

    index: int
    score: float
    concept: str | None = None
    reasoning: str | None = None


@dataclasses.dataclass(frozen=True)
class Mention:
    """An entity a piece of evidence is about: its name, its type as the index types it
    (GraphRAG: ``PERSON``, ``ORGANIZATION``, ``GEO``, ``EVENT``; ``None`` when unknown) and its IRI."""

    name: str
    type: str | None = None
    iri: str | None = None


@dataclasses.dataclass(frozen=True)
class Passage:
    """A numbered piece of context (a fact or a chunk) and a citation label for where it came from.

    The structured part, which an LLM engine may ignore: ``kind`` (``fact``, ``relationship``,
    ``entity``, ``chunk``, ``text_unit``, ``report``, ``claim``, ``point``, ``answer``), ``item``
    (the IRI the trace knows it by: an edge selection, a chunk, a report…) and ``mentions`` (the
    entities it is about, with their types)."""

    text: str
    source: str | None = None
    kind: str = "text"
    item: str | None = None
    mentions: tuple[Mention, ...] = ()


@dataclasses.dataclass(frozen=True)
class MapPoint:
    """A point of a global-search map step: its text, importance (0–100) and the passages it rests on."""

    text: str
    score: float
    sources: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class Tool:
    """A tool an agent can call: its name, what it does, and its JSON arguments (name → meaning)."""

    name: str
    description: str
    arguments: dict[str, str]

    def line(self) -> str:
        args = ", ".join(f'"{k}": {v}' for k, v in self.arguments.items())
        return f"- {self.name}: {self.description} Arguments: {{{args}}}"


@dataclasses.dataclass(frozen=True)
class Turn:
    """One finished agent iteration: what it thought and called, and what came back."""

    thought: str
    action: str
    arguments: dict[str, Any]
    observation: str
    error: str | None = None
    useful: bool = True
    #: how much of the question the best evidence the tool's answer rests on states (0–1; None: unknown)
    cover: float | None = None
    #: the evidence the tool's run selected (its sub-trace records each passage), answered or not
    passages: tuple[Passage, ...] = ()


def turns_evidence(history: Sequence[Turn]) -> list[Passage]:
    """The evidence every tool call of ``history`` selected, as one list: the later calls' first
    (the text tool, asked after the knowledge graph, quotes the source sentences the graph's
    facts summarise), each text once (a chunk both tools selected: the later call's passage of it).

    >>> fact, chunk = Passage("Scrooge was Marley's partner."), Passage("Marley was dead.")
    >>> turns = [Turn("", "knowledge-query", {}, "", passages=(fact,)), Turn("", "document-query", {}, "", passages=(chunk, fact))]
    >>> [p.text for p in turns_evidence(turns)]
    ['Marley was dead.', "Scrooge was Marley's partner."]
    >>> turns_evidence([Turn("", "knowledge-query", {}, "", error="boom")])
    []
    """
    out: dict[str, Passage] = {}
    for turn in reversed(history):
        for p in turn.passages:
            out.setdefault(p.text, p)
    return list(out.values())


@dataclasses.dataclass(frozen=True)
class ReactStep:
    """A parsed ReAct reply: a thought and either a tool call or a final answer."""

    thought: str
    action: str | None
    arguments: dict[str, Any] | None
    final_answer: str | None


class AnswerStream:
    """An answer being written: iterate for text pieces; ``in_token``/``out_token`` are set once
    it is exhausted; ``prompt`` names the prompt or algorithm."""

    def __init__(self, pieces: Iterator[str], *, prompt: str | None, completion: StreamedCompletion | None = None, support: Any = None):
        self._pieces = pieces
        self.prompt = prompt
        self._completion = completion
        self.parts: list[str] = []
        #: how the stated answer was chosen (an :class:`~ragprov.llm.answer.Extraction`), when the
        #: engine knows: which passages support it and which candidates it rejected
        self.support = support

    def __iter__(self) -> Iterator[str]:
        for piece in self._pieces:
            self.parts.append(piece)
            yield piece

    @property
    def text(self) -> str:
        return "".join(self.parts)

    @property
    def in_token(self) -> int | None:
        return self._completion.in_token if self._completion else None

    @property
    def out_token(self) -> int | None:
        return self._completion.out_token if self._completion else None


class Engine(Protocol):
    """The judgement steps of the pipelines (see the module docstring)."""

    model: str

    def concepts(self, question: str) -> Step[list[str]]: ...

    def score_edges(self, question: str, concepts: Sequence[str], edges: Sequence[EdgeText], *, keep: int) -> Step[list[Choice]]: ...

    def rerank(self, question: str, concepts: Sequence[str], passages: Sequence[Passage], *, keep: int) -> Step[list[Choice]]: ...

    def answer(self, question: str, passages: Sequence[Passage], *, kind: str) -> AnswerStream: ...

    def map_points(self, question: str, concepts: Sequence[str], passages: Sequence[Passage], *, keep: int,
                   rarity: BM25 | None = None) -> Step[list[MapPoint]]: ...

    def follow_ups(self, question: str, answer: str, *, keep: int) -> Step[list[str]]: ...

    def react(self, question: str, tools: Sequence[Tool], history: Sequence[Turn]) -> Step[str]: ...


# -- parsing replies ---------------------------------------------------------------------------
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def _json_in(text: str, brackets: str, kind: type) -> Any:
    """The first JSON value of type ``kind`` found between ``brackets`` in a reply (in a code
    fence first, then the whole text), or ``None``."""
    for cand in [m.group(1) for m in _FENCE.finditer(text)] + [text]:
        start, end = cand.find(brackets[0]), cand.rfind(brackets[1])
        if start < 0 or end <= start:
            continue
        try:
            value = json.loads(cand[start : end + 1])
        except ValueError:
            continue
        if isinstance(value, kind):
            return value
    return None


def parse_json_list(text: str, *, what: str) -> list[Any]:
    """The JSON array in an LLM reply (code fences and chatter around it tolerated)."""
    value = _json_in(text, "[]", list)
    if value is None:
        raise LLMError(f"the LLM's {what} reply is not a JSON array: {text[:160]!r}")
    return value


def parse_json_object(text: str, *, what: str) -> dict[str, Any]:
    """The JSON object in an LLM reply (code fences and chatter around it tolerated).

    >>> parse_json_object('Sure! {"score": 60} Hope that helps.', what="t")
    {'score': 60}
    """
    value = _json_in(text, "{}", dict)
    if value is None:
        raise LLMError(f"the LLM's {what} reply is not a JSON object: {text[:160]!r}")
    return value


_REACT = re.compile(
    r"^\s*(Thought|Action Input|Action|Final Answer)\s*:\s*", re.M | re.I
)


def parse_react(text: str) -> ReactStep:
    """Parse ``Thought/Action/Action Input`` or ``Thought/Final Answer``; a clear error otherwise."""
    parts: dict[str, str] = {}
    marks = list(_REACT.finditer(text))
    for i, m in enumerate(marks):
        key = m.group(1).lower()
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        parts.setdefault(key, text[m.end() : end].strip())
    thought = parts.get("thought", "")
    if "final answer" in parts:
        return ReactStep(thought, None, None, parts["final answer"])
    if "action" not in parts:
        raise PipelineError(f"the agent's reply has neither 'Action:' nor 'Final Answer:': {text[:160]!r}")
    action = parts["action"].splitlines()[0].strip().strip("`")
    raw = parts.get("action input", "{}").strip()
    raw = _FENCE.sub(lambda m: m.group(1), raw).strip()
    try:
        arguments = json.loads(raw) if raw else {}
    except ValueError:
        raise PipelineError(f"the agent's Action Input is not JSON: {raw[:160]!r}") from None
    if not isinstance(arguments, dict):
        raise PipelineError(f"the agent's Action Input must be a JSON object, got {raw[:80]!r}")
    return ReactStep(thought, action, arguments, None)


def _json_choices(text: str, count: int, *, what: str) -> list[tuple[int, dict]]:
    """The ``{"id": i, …}`` objects of a JSON-array reply that name one of ``count`` candidates,
    first mention kept: hallucinated, repeated or malformed ids are dropped.

    >>> _json_choices('[{"id": 1, "score": 9}, {"id": 7}, {"id": 1}, "x", {"id": "0"}]', 3, what="t")
    [(1, {'id': 1, 'score': 9}), (0, {'id': '0'})]
    """
    out: list[tuple[int, dict]] = []
    seen: set[int] = set()
    for item in parse_json_list(text, what=what):
        if not isinstance(item, dict):
            continue
        try:
            index = int(item["id"])
        except (KeyError, TypeError, ValueError):
            continue
        if 0 <= index < count and index not in seen:
            seen.add(index)
            out.append((index, item))
    return out


def _number(value: Any, default: float = 0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


class LLMEngine:
    """The engine backed by an OpenAI-compatible LLM, with the bundled prompts."""

    def __init__(self, client: LLMClient, *, temperature: float = 0.0, response_type: str = "multiple paragraphs"):
        self.client = client
        self.temperature = temperature
        self.model = client.model
        #: the answer's length and format for Microsoft GraphRAG's modes (its ``response_type``)
        self.response_type = response_type

    def __repr__(self) -> str:
        return f"LLMEngine({self.client!r})"

    def _chat(self, prompt: Prompt, **values: Any):
        return self.client.chat(prompt.messages(**values), temperature=self.temperature)

    def concepts(self, question: str) -> Step[list[str]]:
        prompt = load_prompt("graphrag-concepts")
        reply = self._chat(prompt, question=question)
        try:
            items = parse_json_list(reply.text, what="concepts")
        except LLMError:
            # One concept per line is an acceptable answer too.
            items = [re.sub(r"^[\s\-*\d.)]+", "", line).strip().strip('"') for line in reply.text.splitlines()]
        concepts: list[str] = []
        for item in items:
            text = str(item).strip()
            if text and text not in concepts:
                concepts.append(text)
        if not concepts:
            raise LLMError(f"the LLM found no concepts in the question (reply {reply.text[:120]!r})")
        return Step(concepts[:10], reply.in_token, reply.out_token, prompt.ref)

    def score_edges(self, question: str, concepts: Sequence[str], edges: Sequence[EdgeText], *, keep: int) -> Step[list[Choice]]:
        prompt = load_prompt("graphrag-edge-scoring")
        if not edges:
            return Step([], 0, 0, prompt.ref)
        lines = "\n".join(f"{i} | {e.line()}" for i, e in enumerate(edges))
        reply = self._chat(prompt, question=question, concepts=json.dumps(list(concepts), ensure_ascii=False), edges=lines, keep=keep)
        choices = [
            Choice(index, _number(item.get("score")), _str(item.get("concept")), _str(item.get("reasoning")))
            for index, item in _json_choices(reply.text, len(edges), what="edge-scoring")
        ]
        choices.sort(key=lambda c: -c.score)
        return Step(choices[:keep], reply.in_token, reply.out_token, prompt.ref)

    def rerank(self, question: str, concepts: Sequence[str], passages: Sequence[Passage], *, keep: int) -> Step[list[Choice]]:
        prompt = load_prompt("docrag-rerank")
        if not passages:
            return Step([], 0, 0, prompt.ref)
        text = "\n\n".join(f"[{i}] {p.text}" for i, p in enumerate(passages))
        reply = self._chat(prompt, question=question, passages=text, keep=keep)
        choices = [Choice(index, _number(item.get("score"))) for index, item in _json_choices(reply.text, len(passages), what="rerank")]
        choices.sort(key=lambda c: -c.score)
        return Step(choices[:keep], reply.in_token, reply.out_token, prompt.ref)

    def answer(self, question: str, passages: Sequence[Passage], *, kind: str) -> AnswerStream:
        numbered = "\n".join(
            f"[{i}] {p.text}" + (f" (source: {p.source})" if p.source else "") for i, p in enumerate(passages, start=1)
        )
        if kind == "facts":
            prompt = load_prompt("graphrag-synthesis")
            messages = prompt.messages(question=question, facts=numbered or "(no facts were found)")
        else:
            prompt = load_prompt("docrag-synthesis")
            messages = prompt.messages(question=question, passages=numbered or "(no passages were found)")
        stream = self.client.chat_stream(messages, temperature=self.temperature)
        return AnswerStream(iter(stream), prompt=prompt.ref, completion=stream)

    def map_points(self, question: str, concepts: Sequence[str], passages: Sequence[Passage], *, keep: int,
                   rarity: BM25 | None = None) -> Step[list[MapPoint]]:
        """Microsoft's map prompt over the passages (``rarity``, the offline engine's term weights, is not read)."""
        prompt = load_prompt("global-map")
        if not passages:
            return Step([], 0, 0, prompt.ref)
        text = "\n\n".join(f"[{i}] {p.text}" for i, p in enumerate(passages))
        reply = self._chat(prompt, question=question, reports=text, keep=keep)
        data = _json_in(reply.text, "{}", dict)
        if not isinstance(data, dict) or not isinstance(data.get("points"), list):
            raise LLMError(f"the LLM's global-map reply is not a JSON object with 'points': {reply.text[:160]!r}")
        points = []
        for item in data["points"]:
            if not isinstance(item, dict) or not str(item.get("description", "")).strip():
                continue
            refs = []
            for r in item.get("reports") or []:
                try:
                    refs.append(int(r))
                except (TypeError, ValueError):
                    continue
            points.append(
                MapPoint(
                    str(item["description"]).strip(),
                    _number(item.get("score")),
                    tuple(i for i in refs if 0 <= i < len(passages)),
                )
            )
        points.sort(key=lambda p: -p.score)
        return Step(points[:keep], reply.in_token, reply.out_token, prompt.ref)

    def follow_ups(self, question: str, answer: str, *, keep: int) -> Step[list[str]]:
        prompt = load_prompt("drift-followups")
        reply = self._chat(prompt, question=question, answer=answer or "(nothing found)", keep=keep)
        queries: list[str] = []
        for item in parse_json_list(reply.text, what="drift-followups"):
            text = str(item).strip()
            if text and text not in queries:
                queries.append(text)
        return Step(queries[:keep], reply.in_token, reply.out_token, prompt.ref)

    def react(self, question: str, tools: Sequence[Tool], history: Sequence[Turn]) -> Step[str]:
        prompt = load_prompt("agent-react")
        lines = []
        for turn in history:
            lines.append(f"Thought: {turn.thought}\nAction: {turn.action}\nAction Input: {json.dumps(turn.arguments, ensure_ascii=False)}")
            lines.append(f"Observation: {'ERROR: ' + turn.error if turn.error else turn.observation}")
        reply = self._chat(prompt, question=question, tools="\n".join(t.line() for t in tools), history="\n".join(lines))
        return Step(reply.text, reply.in_token, reply.out_token, prompt.ref)


def _str(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None
