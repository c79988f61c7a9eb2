"""The LLM steps of Microsoft GraphRAG's query modes, with ragprov's own prompts (``prompts/ms-*.md``).

Like Microsoft GraphRAG 3.x, each step puts its context tables (:mod:`.tables`) in the system
message with the ``response_type`` and sends the user's question as the user message:

- :func:`table_answer`: local search's answer (and DRIFT's follow-up answers), streamed, citing
  ``[Data: Entities (…); Relationships (…); Sources (…); Reports (…)]``;
- :func:`map_batch`: global search's map step over one batch of reports, a JSON list of points,
  each with an importance score and ``[Data: Reports (…)]`` references;
- :func:`reduce_points`: global search's reduce step: the points as ``----Analyst n----`` /
  ``Importance Score: s`` blocks, best first while they fit the budget, then the answer, streamed;
- :func:`drift_primer`, :func:`hyde` and :func:`drift_reduce`: DRIFT's primer (intermediate
  answer, score, follow-up queries as JSON), its HyDE query expansion and its final answer;
- :func:`basic_answer`: basic search's answer from its ``Sources`` table (the text units nearest
  the question by vector similarity), streamed, citing ``[Data: Sources (…)]``.
- :func:`rate_relevancy`: global search's dynamic community selection, one community report
  rated 0–5 for relevance to the question (JSON with a reason).

Tokens are what the server reports; when it reports none, they are counted with tiktoken for the
configured model (:mod:`.tokens`), as Microsoft counts them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import LLMError
from .citations import Resolved, resolve_citations
from .engine import AnswerStream, MapPoint, Step, parse_json_object
from .prompt import load_prompt
from .tables import ContextTables
from .tokens import tokenizer_for

if TYPE_CHECKING:
    from .client import StreamedCompletion
    from .engine import LLMEngine

__all__ = [
    "DEFAULT_RESPONSE_TYPE",
    "UNREADABLE_RATING",
    "CitedAnswer",
    "DriftPrimer",
    "Rating",
    "analyst_points",
    "basic_answer",
    "drift_primer",
    "drift_reduce",
    "hyde",
    "map_batch",
    "rate_relevancy",
    "reduce_points",
    "table_answer",
]

#: Microsoft GraphRAG's default ``response_type``
DEFAULT_RESPONSE_TYPE = "multiple paragraphs"


def _count(engine: LLMEngine, text: str) -> int:
    return tokenizer_for(engine.model).count(text)


def _prompt_tokens(engine: LLMEngine, messages: Sequence[Mapping[str, str]]) -> int:
    return sum(_count(engine, m["content"]) for m in messages)


class CitedAnswer(AnswerStream):
    """A streamed answer whose ``support`` is what its ``[Data: …]`` citations name in the tables
    sent (:class:`~ragprov.llm.citations.Resolved`), resolved once the text is complete. Token
    counts fall back to tiktoken's when the server reports none."""

    def __init__(
        self, completion: StreamedCompletion, *, prompt: str, engine: LLMEngine, messages: Sequence[Mapping[str, str]],
        tables: Sequence[ContextTables], supported_by: Callable[[Resolved], Sequence[str]] | None = None,
    ):
        super().__init__(iter(completion), prompt=prompt, completion=completion)
        self._supported_by = supported_by
        self._engine = engine
        self._messages = list(messages)
        self._tables = list(tables)
        self._resolved: Resolved | None = None

    @property
    def support(self) -> Resolved:
        if self._resolved is None:
            resolved = resolve_citations(self.text, self._tables)
            if self._supported_by is not None:
                resolved = dataclasses.replace(resolved, supported=tuple(self._supported_by(resolved)))
            self._resolved = resolved
        return self._resolved

    @support.setter
    def support(self, value: Any) -> None:  # AnswerStream.__init__ assigns None
        self._resolved = value

    @property
    def in_token(self) -> int | None:
        reported = super().in_token
        return reported if reported is not None else _prompt_tokens(self._engine, self._messages)

    @property
    def out_token(self) -> int | None:
        reported = super().out_token
        return reported if reported is not None else _count(self._engine, self.text)


def _stream(engine: LLMEngine, prompt_id: str, tables: Sequence[ContextTables], supported_by=None, **values: Any) -> CitedAnswer:
    prompt = load_prompt(prompt_id)
    messages = prompt.messages(**values)
    completion = engine.client.chat_stream(messages, temperature=engine.temperature)
    return CitedAnswer(completion, prompt=prompt.ref, engine=engine, messages=messages, tables=tables, supported_by=supported_by)


def _chat(engine: LLMEngine, prompt_id: str, *, extra: Mapping[str, Any] | None = None, **values: Any) -> tuple[str, int, int, str]:
    """One whole reply: ``(text, in_token, out_token, prompt ref)``, tokens counted when unreported;
    ``extra``: more request fields (e.g. ``response_format``)."""
    prompt = load_prompt(prompt_id)
    messages = prompt.messages(**values)
    reply = engine.client.chat(messages, temperature=engine.temperature, extra=extra)
    in_token = reply.in_token if reply.in_token is not None else _prompt_tokens(engine, messages)
    out_token = reply.out_token if reply.out_token is not None else _count(engine, reply.text)
    return reply.text, in_token, out_token, prompt.ref


def table_answer(engine: LLMEngine, question: str, tables: ContextTables, *, response_type: str = DEFAULT_RESPONSE_TYPE) -> CitedAnswer:
    """Local search's answer from ``tables`` (streamed; citations resolved against them)."""
    return _stream(engine, "ms-local-search", [tables], response_type=response_type, context_data=tables.text(), question=question)


def _score(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def map_batch(engine: LLMEngine, question: str, batch: ContextTables, *, max_length: int) -> Step[list[MapPoint]]:
    """Global search's map step over one batch of reports (a ``Reports`` table). Each point's
    ``sources`` are the positions, in the batch table, of the reports its description cites. A
    reply that is not JSON gives no points, as in Microsoft's implementation (the batch is skipped)."""
    text, in_token, out_token, ref = _chat(engine, "ms-global-map", context_data=batch.text(), max_length=max_length, question=question)
    try:
        data = parse_json_object(text, what="global-search map")
    except LLMError:
        return Step([], in_token, out_token, ref)
    rows = [row for _, row in batch.rows()]
    points = []
    for item in data.get("points") or []:
        if not isinstance(item, dict) or not str(item.get("description", "")).strip():
            continue
        description = str(item["description"]).strip()
        cited = resolve_citations(description, batch).rows
        points.append(MapPoint(description, _score(item.get("score")), tuple(rows.index(r) for r in cited)))
    points.sort(key=lambda p: -p.score)
    return Step(points, in_token, out_token, ref)


def analyst_points(points: Sequence[tuple[int, float, str]], *, max_tokens: int, count) -> str:
    """The reduce step's data: ``(analyst, score, text)`` points with a score above 0, best first,
    each as ``----Analyst n----`` / ``Importance Score: s`` / text, while they fit ``max_tokens``.

    >>> print(analyst_points([(0, 40, "b"), (1, 90, "a"), (0, 0, "z")], max_tokens=100, count=len))
    ----Analyst 2----
    Importance Score: 90
    a
    <BLANKLINE>
    ----Analyst 1----
    Importance Score: 40
    b
    """
    kept, used = [], 0
    for analyst, score, text in sorted((p for p in points if p[1] > 0), key=lambda p: -p[1]):
        block = f"----Analyst {analyst + 1}----\nImportance Score: {score:g}\n{text}"
        tokens = count(block)
        if used + tokens > max_tokens:
            break
        used += tokens
        kept.append(block)
    return "\n\n".join(kept)


def reduce_points(
    engine: LLMEngine, question: str, report_data: str, batches: Sequence[ContextTables], *, response_type: str = DEFAULT_RESPONSE_TYPE,
    max_length: int, supported_by: Callable[[Resolved], Sequence[str]] | None = None,
) -> CitedAnswer:
    """Global search's answer from the analysts' points (streamed); its ``[Data: Reports (…)]``
    citations resolve against the batch tables the points came from (``supported_by`` picks the
    trace items they stand for)."""
    return _stream(engine, "ms-global-reduce", batches, supported_by, report_data=report_data, response_type=response_type,
                   max_length=max_length, question=question)


@dataclasses.dataclass(frozen=True)
class DriftPrimer:
    """DRIFT's primer reply: the intermediate answer, its score and the follow-up queries."""

    answer: str
    score: float
    follow_ups: tuple[str, ...]


def drift_primer(engine: LLMEngine, question: str, reports: ContextTables, *, followups: int) -> Step[DriftPrimer]:
    """DRIFT's primer over the reports closest to the question."""
    text, in_token, out_token, ref = _chat(
        engine, "ms-drift-primer", question=question, community_reports=reports.text(), followups=followups,
    )
    data = parse_json_object(text, what="DRIFT primer")
    queries = [str(q).strip() for q in data.get("follow_up_queries") or [] if str(q).strip()]
    answer = str(data.get("intermediate_answer") or "").strip()
    primer = DriftPrimer(answer, _score(data.get("score")), tuple(dict.fromkeys(queries))[:followups])
    return Step(primer, in_token, out_token, ref)


def hyde(engine: LLMEngine, question: str, template: str) -> Step[str]:
    """DRIFT's HyDE expansion: a hypothetical answer shaped like ``template`` (a community
    report); the question itself when the model returns nothing."""
    text, in_token, out_token, ref = _chat(engine, "ms-hyde", question=question, template=template)
    return Step(text.strip() or question, in_token, out_token, ref)


def drift_reduce(
    engine: LLMEngine, question: str, answers: Sequence[str], tables: Sequence[ContextTables], *,
    response_type: str = DEFAULT_RESPONSE_TYPE,
) -> CitedAnswer:
    """DRIFT's final answer from the intermediate answers (streamed); citations resolve against
    the tables the intermediate answers were written from."""
    data = "\n\n".join(f"----Answer {n}----\n{a}" for n, a in enumerate(answers, start=1))
    return _stream(engine, "ms-drift-reduce", tables, context_data=data, response_type=response_type, question=question)


def basic_answer(engine: LLMEngine, question: str, sources: ContextTables, *, response_type: str = DEFAULT_RESPONSE_TYPE) -> CitedAnswer:
    """Basic search's answer from its ``Sources`` table (streamed; citations resolved against it)."""
    return _stream(engine, "ms-basic-search", [sources], response_type=response_type, context_data=sources.text(), question=question)


@dataclasses.dataclass(frozen=True)
class Rating:
    """One relevance rating of dynamic community selection: the rating (0–5; the most frequent of
    ``votes``, the lowest on a tie) and the reason the model gave for it."""

    rating: int
    reason: str | None
    votes: tuple[int, ...] = ()


#: the rating a reply that cannot be read counts as (Microsoft keeps such a report: rating 1)
UNREADABLE_RATING = 1


def rate_relevancy(engine: LLMEngine, question: str, description: str, *, repeats: int = 1) -> Step[Rating]:
    """Dynamic community selection's rating of one community report (``description``: its full
    content) for ``question``, asked ``repeats`` times (a JSON object reply, ``response_format``
    ``json_object`` as Microsoft asks); a reply without a readable ``rating`` counts as
    :data:`UNREADABLE_RATING`, as in Microsoft's implementation."""
    votes: list[int] = []
    reasons: list[str | None] = []
    in_total = out_total = 0
    ref = ""
    for _ in range(max(1, repeats)):
        text, in_token, out_token, ref = _chat(engine, "ms-rate-relevancy", extra={"response_format": {"type": "json_object"}},
                                               description=description, question=question)
        in_total += in_token
        out_total += out_token
        try:
            data = parse_json_object(text, what="relevance rating")
            votes.append(int(float(data["rating"])))
            reasons.append(str(data["reason"]).strip() if data.get("reason") is not None else None)
        except (LLMError, KeyError, TypeError, ValueError):
            votes.append(UNREADABLE_RATING)
            reasons.append(None)
    best = max(sorted(set(votes)), key=votes.count)  # the most votes; ties: the lowest rating
    reason = next((r for v, r in zip(votes, reasons, strict=True) if v == best and r), None)
    return Step(Rating(best, reason, tuple(votes)), in_total, out_total, ref)
