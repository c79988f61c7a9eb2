"""Microsoft GraphRAG's modes with an LLM configured: its context tables, prompts, citations,
token counting and default parameters, wired into ragprov's local, global and DRIFT search.

The retrieval and the recorded stages stay ragprov's (:mod:`.msgraphrag`); what changes with an
LLM is what the model is sent and how its reply is read:

- the kept context is rendered as Microsoft's tables (:mod:`ragprov.llm.tables`) with the items'
  human-readable ids, fitted to Microsoft's token budgets counted with tiktoken;
- the answer is asked for with Microsoft's prompt structure and ``response_type``
  (:mod:`ragprov.llm.microsoft`), and its ``[Data: …]`` citations become the Synthesis's
  ``tg:supportedBy`` (the kept items or map points) and ``tg:cites`` (the index items), with a
  ``tg:citationNote`` for every id that names nothing sent;
- earlier turns of a conversation (``history``) go into the entity search and the prompt's
  ``Conversation History`` table.

The offline engine keeps its own deterministic path; :func:`llm_of` tells them apart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..llm.engine import LLMEngine, MapPoint, Passage, Step
from ..llm.history import ConversationTurn, history_table, previous_questions
from ..llm.microsoft import (
    DEFAULT_RESPONSE_TYPE,
    Rating,
    analyst_points,
    drift_primer,
    drift_reduce,
    hyde,
    map_batch,
    rate_relevancy,
    reduce_points,
    table_answer,
)
from ..llm.parallel import in_order
from ..llm.prompt import load_prompt
from ..llm.tables import ContextTables, Table, fit_rows
from ..llm.tokens import tokenizer_for
from ..record.events import Event
from ..retrieve.context import approx_tokens, report_ratings, report_statements
from ..retrieve.context import report_text as _report_text
from ..retrieve.lexical import BM25, content_tokens, extract_concepts
from ..retrieve.table_fields import table_fields
from ..retrieve.terms import local_name

__all__ = [
    "MAP_MAX_LENGTH",
    "REDUCE_MAX_LENGTH",
    "Primer",
    "ReportRater",
    "drift_answer",
    "drift_hyde",
    "drift_primer_step",
    "global_answer",
    "global_map",
    "history_concepts",
    "llm_of",
    "local_answer",
    "local_tables",
    "report_rater",
    "report_table",
    "token_counter",
]


#: global search: words the map step's reply may use (Microsoft's ``map_max_length``)
MAP_MAX_LENGTH = 1000
#: global search: words the reduce step's answer may use (Microsoft's ``reduce_max_length``)
REDUCE_MAX_LENGTH = 2000


def llm_of(engine: Any) -> LLMEngine | None:
    """The engine when it is an LLM (Microsoft's prompts apply), else ``None``."""
    return engine if isinstance(engine, LLMEngine) else None


def token_counter(engine: Any) -> Callable[[str], int]:
    """How the mode counts tokens: tiktoken for the configured model with an LLM, else the
    model-independent estimate the offline engine's budgets use."""
    llm = llm_of(engine)
    return tokenizer_for(llm.model).count if llm is not None else approx_tokens


def history_concepts(history: Sequence[ConversationTurn]) -> list[str]:
    """The concepts of the earlier user questions (latest first), which Microsoft adds to the
    query it maps to entities; found by ragprov's deterministic concept extraction (no model call)."""
    out: list[str] = []
    for q in previous_questions(history):
        out.extend(c for c in extract_concepts(q) if c not in out)
    return out


def _id(fields: dict[str, str], n: int) -> str:
    """The row id: the item's human_readable_id; an item without one (a placeholder entity for a
    relationship end the index did not list) gets ``x{n}``, which no human_readable_id can be."""
    return fields.get("id") or f"x{n}"


def local_tables(
    reader, kept: Sequence[dict], selections: Sequence[dict], texts: Mapping, *, count: Callable[[str], int],
    max_tokens: int, community_prop: float, text_unit_prop: float, history: Sequence[ConversationTurn] = (),
) -> ContextTables:
    """Local search's context as Microsoft builds it: Conversation History, Reports, Entities,
    Relationships, Claims, Sources, each filled in rank order within its share of ``max_tokens``
    (the history first, then ``community_prop`` for reports, ``text_unit_prop`` for sources and
    the rest for entities, relationships and claims)."""
    fields = table_fields(reader, [k["item"] for k in kept])
    ends = [n for k in kept if k["kind"] == "relationship" for n in (k["source"], k["target"])]
    labels = reader.labels(ends)
    tables = {
        "report": Table("Reports", ("id", "title", "content")),
        "entity": Table("Entities", ("id", "entity", "description", "number of relationships")),
        "relationship": Table("Relationships", ("id", "source", "target", "description", "weight")),
        "claim": Table("Claims", ("id", "entity", "type", "status", "description")),
        "text_unit": Table("Sources", ("id", "text")),
    }
    for n, (k, sel) in enumerate(zip(kept, selections, strict=True), start=1):
        f = fields.get(k["item"], {})
        label, text = texts.get(k["item"], (None, None))
        name = label or local_name(k["item"].value)
        kind = k["kind"]
        cells: list[object]
        if kind == "report":
            cells = [name, f.get("content") or text]
        elif kind == "entity":
            cells = [name, text, f.get("degree", "")]
        elif kind == "relationship":
            cells = [labels.get(k["source"], local_name(k["source"].value)), labels.get(k["target"], local_name(k["target"].value)),
                     text or label, f.get("weight", "")]
        elif kind == "claim":
            cells = [f.get("subject", ""), f.get("type", ""), f.get("status", ""), text]
        elif kind == "text_unit":
            cells = [text]
        else:
            continue
        tables[kind].add(_id(f, n), cells, item=k["item"].value, selection=sel["iri"].value)

    conversation = history_table(history, max_tokens=max_tokens, count=count) if history else ""
    budget = max_tokens - (count(conversation) if conversation else 0)
    local_budget = int(budget * (1 - community_prop - text_unit_prop))
    entities = fit_rows(tables["entity"], count, local_budget)
    rest = local_budget - (count(entities.render()) if entities.rows else 0)
    relationships = fit_rows(tables["relationship"], count, rest)
    rest -= count(relationships.render()) if relationships.rows else 0
    out = [
        fit_rows(tables["report"], count, int(budget * community_prop)),
        entities,
        relationships,
        fit_rows(tables["claim"], count, rest),
        fit_rows(tables["text_unit"], count, int(budget * text_unit_prop)),
    ]
    if conversation:
        out.insert(0, _Verbatim("Conversation History", conversation))
    return ContextTables(out)


class _Verbatim(Table):
    """A table already written out (the conversation history, which Microsoft writes as CSV); it
    holds no citable rows."""

    def __init__(self, name: str, text: str):
        super().__init__(name, ())
        self.text = text

    def render(self, delimiter: str = "|") -> str:
        return self.text


def local_answer(pipe, session, question: str, kept: Sequence[dict], selections: Sequence[dict], texts: Mapping,
                 passages: Sequence[Passage], history: Sequence[ConversationTurn] = ()) -> Iterator[Event]:
    """Local search's Synthesis with an LLM: Microsoft's tables and prompt, the answer streamed,
    its citations recorded."""
    llm = llm_of(pipe.engine)
    assert llm is not None
    p = pipe.params
    tables = local_tables(
        pipe.reader, kept, selections, texts, count=token_counter(llm), max_tokens=p.max_tokens,
        community_prop=p.community_prop, text_unit_prop=p.text_unit_prop, history=history,
    )
    pipe.context_tables = tables  # DRIFT resolves its final answer's citations against its follow-ups' tables
    stream = table_answer(llm, question, tables, response_type=getattr(llm, "response_type", DEFAULT_RESPONSE_TYPE))
    yield from pipe._synthesize(session, question, passages, kind="passages", stream=stream)


def report_table(reader, reports: Sequence[dict], *, name: str = "Reports") -> ContextTables:
    """Global search's table of one batch of community reports: id, title, content, rank."""
    fields = table_fields(reader, [r["report"] for r in reports])
    table = Table(name, ("id", "title", "content", "rank"))
    for n, r in enumerate(reports, start=1):
        f = fields.get(r["report"], {})
        title = r["title"] or local_name(r["report"].value)
        table.add(_id(f, n), [title, f.get("content") or _report_text(r), f.get("rank", r.get("rank", ""))], item=r["report"].value)
    return ContextTables([table])


def global_map(
    pipe, question: str, concepts: Sequence[str], batch: Sequence[dict], *, keep: int, max_length: int = MAP_MAX_LENGTH,
    history: Sequence[ConversationTurn] = (), rarity: BM25 | None = None,
) -> tuple[Step[list[MapPoint]], ContextTables | None]:
    """One map step: with an LLM, Microsoft's map prompt over the batch's Reports table (every
    point it returns, sources = the reports each cites); offline, the engine's own map step
    (``rarity``: the term weights of every batch's sentences, :meth:`OfflineEngine.map_points`)."""
    llm = llm_of(pipe.engine)
    if llm is None:
        passages = [Passage(report_statements(r), r["title"]) for r in batch]
        return pipe.engine.map_points(question, concepts, passages, keep=keep, rarity=rarity), None
    tables = report_table(pipe.reader, batch)
    if history:  # Microsoft puts the conversation history before each batch's reports
        tables.tables.insert(0, _Verbatim("Conversation History", history_table(history)))
    return map_batch(llm, question, tables, max_length=max_length), tables


def global_answer(pipe, session, question: str, kept: Sequence[dict], batches: Sequence[ContextTables], passages: Sequence[Passage],
                  *, max_length: int = REDUCE_MAX_LENGTH) -> Iterator[Event]:
    """Global search's Synthesis with an LLM: the kept points as Microsoft's analyst blocks, the
    reduce prompt, the answer streamed; it rests on the kept points that cite a report it cites."""
    llm = llm_of(pipe.engine)
    assert llm is not None
    count = token_counter(llm)
    data = analyst_points([(pt["batch"] - 1, pt["score"], pt["content"]) for pt in kept], max_tokens=pipe.params.reduce_tokens, count=count)

    def supported_by(resolved) -> list[str]:
        cited = set(resolved.items)
        return [pt["iri"].value for pt in kept if any(rep.value in cited for rep in pt["reports"])]

    stream = reduce_points(llm, question, data, batches, response_type=getattr(llm, "response_type", DEFAULT_RESPONSE_TYPE),
                           max_length=max_length, supported_by=supported_by)
    yield from pipe._synthesize(session, question, passages, kind="facts", stream=stream)


@dataclasses.dataclass(frozen=True)
class Primer:
    """DRIFT's primer result, whichever engine wrote it: the intermediate answer, its score, the
    follow-up queries, the prompt (or algorithm) and the tokens it spent."""

    answer: str
    score: float
    follow_ups: tuple[str, ...]
    prompt: str | None
    in_token: int | None
    out_token: int | None
    tables: ContextTables | None = None


def drift_hyde(pipe, question: str) -> Step[str] | None:
    """With an LLM, DRIFT's HyDE step: a hypothetical answer shaped like a community report (the
    highest-rated one; Microsoft picks one at random), whose words then find the primer's reports.
    ``None`` offline (the primer matches the question's own concepts)."""
    llm = llm_of(pipe.engine)
    if llm is None:
        return None
    reports = pipe.reader.community_reports(pipe.params.max_level)
    if not reports:
        return None
    best = max(reports, key=lambda r: (r.get("rank") or 0.0, r["report"].value))
    template = table_fields(pipe.reader, [best["report"]]).get(best["report"], {}).get("content") or _report_text(best)
    return hyde(llm, question, template)


def drift_primer_step(pipe, question: str, concepts: Sequence[str], reports: Sequence[dict], *, followups: int) -> Primer:
    """DRIFT's primer over ``reports``: with an LLM, Microsoft's primer prompt (a Reports table;
    intermediate answer, score and follow-ups as JSON); offline, the engine's map step over the
    reports (its points are the answer, the best score the score) and its follow-up step."""
    llm = llm_of(pipe.engine)
    if llm is not None:
        tables = report_table(pipe.reader, reports)
        step = drift_primer(llm, question, tables, followups=followups)
        value = step.value
        return Primer(value.answer, value.score, value.follow_ups, step.prompt, step.in_token, step.out_token, tables)
    points = pipe.engine.map_points(question, concepts, [Passage(report_statements(r), r["title"]) for r in reports], keep=5)
    answer = "\n".join(pt.text for pt in points.value)
    score = max((pt.score for pt in points.value), default=0.0)
    follow = pipe.engine.follow_ups(question, answer, keep=followups) if followups else None
    in_token = (points.in_token or 0) + ((follow.in_token or 0) if follow else 0)
    out_token = (points.out_token or 0) + ((follow.out_token or 0) if follow else 0)
    return Primer(answer, score, tuple(follow.value) if follow else (), follow.prompt if follow else points.prompt, in_token, out_token)


def drift_answer(
    pipe, session, question: str, answers: Sequence[str], tables: Sequence[ContextTables], passages: Sequence[Passage],
) -> Iterator[Event]:
    """DRIFT's Synthesis with an LLM: Microsoft's reduce prompt over the best intermediate answers
    (with their [Data: …] references), citations resolved against the tables they were written from."""
    llm = llm_of(pipe.engine)
    assert llm is not None
    stream = drift_reduce(llm, question, answers, tables, response_type=getattr(llm, "response_type", DEFAULT_RESPONSE_TYPE))
    yield from pipe._synthesize(session, question, passages, kind="passages", stream=stream)


#: the offline rating of dynamic community selection, as the trace names it
OFFLINE_RATING = "report-rating-bm25@1"


@dataclasses.dataclass
class ReportRater:
    """Dynamic community selection's rater (:data:`~.community_selection.Rater`) for one question,
    with the prompt (or algorithm) it used and the tokens it spent."""

    rate: Callable[[Sequence[dict]], list[tuple[float, str | None]]]
    prompt: str
    in_token: int | None = None
    out_token: int | None = None


def report_rater(pipe, question: str, concepts: Sequence[str], *, repeats: int = 1, use_summary: bool = False,
                 concurrency: int = 1) -> ReportRater:
    """How global search rates community reports for dynamic community selection: with an LLM,
    Microsoft's rating prompt once per report (its full content, or its summary with
    ``use_summary``; ``repeats`` votes each; up to ``concurrency`` requests in flight, the ratings
    kept in the reports' order); offline, each report's BM25 coverage of the question's concept
    tokens on the same 0–5 scale (:func:`ragprov.retrieve.context.report_ratings`)."""
    llm = llm_of(pipe.engine)
    if llm is None:
        query = [t for c in concepts for t in content_tokens(c)] or content_tokens(question)

        def offline(batch: Sequence[dict]) -> list[tuple[float, str | None]]:
            found = report_ratings(pipe.reader, query, batch)
            return [(float(found[r["report"]][0]), None) for r in batch]

        return ReportRater(offline, OFFLINE_RATING)

    rater = ReportRater(lambda batch: [], load_prompt("ms-rate-relevancy").ref, 0, 0)

    def online(batch: Sequence[dict]) -> list[tuple[float, str | None]]:
        fields = table_fields(pipe.reader, [r["report"] for r in batch])
        out: list[tuple[float, str | None]] = []

        def rate(r: dict) -> Step[Rating]:
            f = fields.get(r["report"], {})
            description = (r.get("summary") if use_summary else f.get("content")) or _report_text(r)
            return rate_relevancy(llm, question, description, repeats=repeats)

        for step in in_order(rate, batch, workers=concurrency):
            rater.prompt = step.prompt or rater.prompt
            rater.in_token = (rater.in_token or 0) + (step.in_token or 0)
            rater.out_token = (rater.out_token or 0) + (step.out_token or 0)
            out.append((float(step.value.rating), step.value.reason))
        return out

    rater.rate = online
    return rater
