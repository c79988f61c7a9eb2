"""Microsoft GraphRAG query modes over a loaded index: local search and global search (seed 001),
with the provenance Microsoft's implementation throws away.

Both read the index as :mod:`ragprov.loaders.graphrag` writes it (entities, singleton-property
relationships, communities, community reports with findings, claims, text units).

- **Local search**: the question is mapped to entities as Microsoft maps it, by the similarity of
  its vector to each entity's ``title:description`` vector (:mod:`ragprov.retrieve.entity_search`:
  an embeddings API's vectors, or offline the deterministic hashed text vector fused with the
  lexical index over labels and descriptions); the candidate community reports, relationships, claims and text units of those
  entities are ranked as GraphRAG ranks them (reports by how many selected entities their community
  holds, then rank; in-network relationships before out-network ones, by links then combined
  degree; text units by entity order then relationship count) and kept while they fit token
  budgets (``max_tokens`` split by ``community_prop`` / ``text_unit_prop``). Offline (no model
  reads the context), the relationships saying the question's words lead, and so do the
  :data:`QUESTION_UNITS` text units of the whole text index that say the most of it, ahead of
  the entities' own (``bench/answers.py --modes local``: train 50 → 50 of 60, held out 42 → 46
  of 59, fresh 13 → 17 of 35; about 7 ms CPU per local search, mostly the rerank's tokenising of
  the 20 texts — DRIFT pays it once per follow-up). The Exploration
  records the entities (with how they were ranked, ``tg:prompt``, and whose vectors,
  ``tg:embeddingModel``) and every candidate, the Focus every kept item (kind, rank, score, tokens — relationships also
  as the quoted fact, so lineage works), the Synthesis the answer built from them.
- **Global search**: community reports up to ``max_level`` are shuffled (seeded: the same question
  gives the same batches), cut into batches by token budget, and each batch is *mapped* to scored
  answer points; the *reduce* step keeps the best points within budget and the answer is written
  from them. Recorded: the batches, one MapResult per batch with its points, scores and reports,
  the points kept by the reduce step (a Focus, which also keeps the reports those points rest on
  and the text units of those reports' members: the run's sources), and the Synthesis (offline,
  written from what the reports those points were cut from state, :func:`_report_evidence`, and
  from the kept text units that best match the question — for every kind of question: a
  report summarises, who did what is in the text; the names in both are the mentions;
  ``bench/answers.py`` global 85 → 107 of 154, fresh 9 → 16 of 35; about 45 ms more CPU per
  question at 1M facts). With
  ``dynamic_selection`` the reports are first rated from the root level down
  (:mod:`.community_selection`) and only the relevant ones are batched; the CommunitySelection
  stage records every rating.

- **DRIFT search**: a *primer* reads the community reports that best match the question (a
  lexical stand-in for HyDE's embedding match) and writes an intermediate answer and follow-up
  queries; each follow-up is answered by a local search (a sub-trace whose Question ``prov:used``
  the action), rated against the user's question, and proposes its own follow-ups, down to
  ``depth`` levels (``k_followups`` per action, no query asked twice). Every action is a
  ``tg:DriftAction`` derived from its parent action and the parent's local-search answer — the
  DAG of actions; the reduce step (a Focus) keeps the best-rated answers and the Synthesis
  writes the final answer from them.

IRIs: ``urn:ragprov:{local|global|drift}:{id}`` and ``…/{stage}``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any

from pyoxigraph import NamedNode

from ..errors import ConfigurationError, LLMError
from ..llm.answer import root_tokens
from ..llm.embeddings import embedder_for
from ..llm.engine import Mention, Passage
from ..llm.history import ConversationTurn, previous_questions
from ..llm.offline import DATA_REFERENCE, map_sentences
from ..llm.parallel import in_order
from ..record import EndOfSession
from ..record.events import Event, ExplainEvent, Source
from ..record.microsoft import MicrosoftTrace
from ..retrieve.context import approx_tokens, best_reports, report_statements, select_local, unit_sources
from ..retrieve.context import item_text as _item_text
from ..retrieve.context import report_text as _report_text
from ..retrieve.entity_search import map_query_to_entities
from ..retrieve.lexical import BM25, content_tokens, passage_terms, split_sentences
from ..retrieve.terms import local_name
from ..retrieve.vectors import HashedEmbedder
from .base import Pipeline, RunResult
from .cited import CITED_CHUNKS, best_passages
from .community_selection import select_communities
from .microsoft import (
    drift_answer,
    drift_hyde,
    drift_primer_step,
    global_answer,
    global_map,
    history_concepts,
    llm_of,
    local_answer,
    report_rater,
    token_counter,
)

__all__ = [
    "DriftSearch",
    "DriftSearchParams",
    "GlobalSearch",
    "GlobalSearchParams",
    "LocalSearch",
    "LocalSearchParams",
    "approx_tokens",
]


class _Mode(Pipeline):
    """What the three modes share beyond :class:`Pipeline`: the trace, a :class:`MicrosoftTrace`
    the recorder keeps in stage order."""

    #: the earlier turns of the conversation the current question continues (``run(history=…)``)
    history: tuple[ConversationTurn, ...] = ()

    def _open(self, question: str, used: NamedNode | None) -> MicrosoftTrace:
        last = self.history[-1].synthesis if self.history else None
        return self.recorder.microsoft(self.kind, question, model=self.engine.model, used=used,
                                       previous_turn=NamedNode(last) if last else None)


# -- local search ------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class LocalSearchParams:
    """GraphRAG's local-search defaults (top-k entities, relationships per entity, budgets, and the
    community level: only reports of communities at ``max_level`` or coarser are candidates, as
    Microsoft's ``--community-level``; ``None``: every level)."""

    top_k_entities: int = 10
    top_k_relationships: int = 10
    max_tokens: int = 12_000
    community_prop: float = 0.25
    text_unit_prop: float = 0.5
    max_level: int | None = 2

    def __post_init__(self) -> None:
        if self.top_k_entities < 1 or self.max_tokens < 1:
            raise ConfigurationError("local search needs top_k_entities and max_tokens of at least 1")
        if not (0 <= self.community_prop <= 1 and 0 <= self.text_unit_prop <= 1 and self.community_prop + self.text_unit_prop <= 1):
            raise ConfigurationError("community_prop and text_unit_prop must be in [0, 1] and sum to at most 1")


#: how many text units the question's words find in the whole text index lead offline local search's
QUESTION_UNITS = 2
#: how many of the text index's best text units for the question are reranked to choose them (as
#: many as DocRAG reads: the rerank weighs words by their rarity among these, and ten is too few to
#: tell; 10 → 20: local fresh 17 → 18 of 35, train and held out unchanged, DRIFT unchanged)
QUESTION_READ = 20


class LocalSearch(_Mode):
    """Microsoft GraphRAG local search (see the module docstring)."""

    kind, params_type = "local", LocalSearchParams
    context_tables: Any = None
    """With an LLM: the context tables of the last answer (DRIFT resolves its citations against them)."""
    drift_query: str | None = None
    """The user's question when DRIFT runs this search for one of its follow-ups (Microsoft's
    ``drift_query``, which its local-search prompt states beside the follow-up): offline, the
    relationships saying its words lead too."""

    def run(self, question: str, *, used: NamedNode | None = None, history: Sequence[ConversationTurn] = ()) -> Iterator[Event]:
        """``history``: the earlier turns of a conversation (their questions join the entity search)."""
        self.history = tuple(history)
        session, concepts = yield from self._begin(question, used)
        result, p = self.result, self.params
        timings = result.timings

        with timings.measure("seeds"):
            query, lexical = "\n".join([question, *previous_questions(self.history)]), concepts + history_concepts(self.history)
            try:
                ranking = map_query_to_entities(self.reader, query, lexical, limit=p.top_k_entities, embedder=embedder_for(self.engine))
            except LLMError as e:  # a server without an embeddings API: the offline vectors rank them (and the trace says so)
                import logging  # only here: an offline ask never logs, and logging costs every process ~2 ms

                logging.getLogger(__name__).warning("local search: the embeddings API failed (%s); the entities are ranked offline", e)
                ranking = map_query_to_entities(self.reader, query, lexical, limit=p.top_k_entities, embedder=HashedEmbedder())
        result.tokens.add(ranking.in_token, None)
        entities = ranking.entities
        with timings.measure("context"):
            candidates = self.reader.local_context(entities, max_level=p.max_level)
            if llm_of(self.engine) is None:  # offline: the text units that say the question's words lead the entities' own
                candidates = {**candidates, "text_unit": self._question_units(candidates["text_unit"], question, concepts)}
        all_items = [c["item"] for kind in ("report", "entity", "relationship", "claim", "text_unit") for c in candidates[kind]]
        with timings.measure("record"):
            event = session.exploration(entities, all_items, prompt=ranking.method, embedding_model=ranking.embedder)
        exploration = session.last
        yield event

        with timings.measure("context"):
            texts = self.reader.item_texts(all_items)
            if llm_of(self.engine) is None:  # offline, no model reads the context: what it says about the question first
                window = p.top_k_relationships * max(1, len(candidates["entity"]))
                asked = f"{question}\n{self.drift_query}" if self.drift_query else question
                candidates = {**candidates, "relationship": _question_first(candidates["relationship"], texts, asked, window)}
            kept = select_local(
                candidates, texts, entity_scores=ranking.scores, max_tokens=p.max_tokens,
                community_prop=p.community_prop, text_unit_prop=p.text_unit_prop, top_k_relationships=p.top_k_relationships,
            )
        selections = [
            {"iri": NamedNode(f"{session.question.value}/item/{n}"), "item": k["item"], "kind": k["kind"], "rank": n,
             "score": k.get("score"), "tokens": k["tokens"], "edge": k.get("edge"),
             "similarity": ranking.similarity.get(k["item"]) if k["kind"] == "entity" else None}
            for n, k in enumerate(kept, start=1)
        ]
        with timings.measure("record"):
            event = session.focus(selections, derived_from=[exploration], prompt="graphrag-local-context@1")
        yield event
        result.selected = len(kept)

        passages: list[Passage] = []
        sources: list[Source] = []
        units = [k["item"] for k in kept if k["kind"] == "text_unit"]
        with timings.measure("lineage"):
            unit_sources_ = unit_sources(self.reader, units)
        for k in kept:
            label, text = texts.get(k["item"], (None, None))
            where = unit_sources_.get(k["item"]) if k["kind"] == "text_unit" else None
            if where is not None and where not in sources:
                sources.append(where)
            body = _item_text(k, label, text)
            passages.append(Passage(body, self.reader.citation(where) if where is not None else _item_citation(k, label)))
        result.sources = tuple(sources)
        passages = self._evidence(passages, kept, texts, [s["iri"] for s in selections])
        if llm_of(self.engine) is not None:
            yield from local_answer(self, session, question, kept, selections, texts, passages, self.history)
            return
        yield from self._synthesize(session, question, passages, kind="passages")

    def _question_units(self, units: list[dict], question: str, concepts: Sequence[str]) -> list[dict]:
        """Offline, the text units ahead of the entities' own: of the :data:`QUESTION_READ` best of
        the whole text index by BM25 over the question's concepts (and, for a DRIFT follow-up, the
        user's question), the :data:`QUESTION_UNITS` that cover the most of them (the engine's
        rerank, as DocRAG's), then the entities' units in Microsoft's order (each once). The
        entities' units are the ones their names were extracted from, in the order of the
        entities; the sentence that answers is often in a unit no mapped entity was found in
        ("He ran home to Camden Town" is not among Bob Cratchit's units). Each joins the
        candidates the Exploration records; a kept one is a Focus selection like the others, with
        the rerank's score it led by (the entities' units have none: their order is Microsoft's)."""
        query = [*concepts, *([self.drift_query] if self.drift_query else [])]
        if QUESTION_UNITS < 1 or not query:
            return units
        with self.result.timings.measure("retrieve"):
            found = self.reader.chunk_index().search(query, limit=QUESTION_READ)
            chosen = self.engine.rerank(question, query, [Passage(rec.text) for rec, _ in found], keep=QUESTION_UNITS).value
        lead = [{"item": found[c.index][0].chunk, "kind": "text_unit", "order": -1, "entities": set(), "relationships": 0,
                 "estimate": approx_tokens(found[c.index][0].text), "score": round(float(c.score), 6)} for c in chosen]
        ahead = {u["item"] for u in lead}
        return lead + [u for u in units if u["item"] not in ahead]

    def _evidence(self, passages: list[Passage], kept: list[dict], texts: Mapping, items: Sequence[NamedNode]) -> list[Passage]:
        """The kept context as structured evidence: each passage names its selection and the
        entities it is about (a kept entity itself, a relationship's two ends, the known names in
        a report, claim or text unit), typed."""
        ends = [n for k in kept if k["kind"] == "relationship" for n in (k["source"], k["target"])]
        entities = [k["item"] for k in kept if k["kind"] == "entity"]
        with self.result.timings.measure("labels"):
            labels = self.reader.labels(ends + entities)
            types = self.reader.entity_types(ends + entities)
        named = self._named_in(
            [
                p.text if k["kind"] not in ("entity", "relationship") else ""
                for p, k in zip(passages, kept, strict=False)
            ],
            name_parts=False,  # the kept entities and relationships name the people in full
        )

        def mention(node: NamedNode) -> Mention:
            return Mention(labels.get(node) or local_name(node.value), types.get(node), node.value)

        out = []
        for n, (p, k) in enumerate(zip(passages, kept, strict=False)):
            if k["kind"] == "entity":
                mentions: tuple[Mention, ...] = (mention(k["item"]),)
            elif k["kind"] == "relationship":
                mentions = (mention(k["source"]), mention(k["target"]))
            else:
                mentions = named[n]
            out.append(dataclasses.replace(p, kind=k["kind"], item=items[n].value, mentions=mentions))
        return out


def _question_first(relationships: list[dict], texts: Mapping, question: str, window: int) -> list[dict]:
    """Offline local search's relationships: the first ``window`` candidates (as many as the
    budget may keep, in Microsoft's order: in-network first, then by links and degree) ordered by
    how many of the question's words their description says, Microsoft's order breaking ties; the
    rest after them. Microsoft's order alone keeps a hub's busiest relationships, seldom the one
    the question asks about ("Scrooge's little sister" among Scrooge's hundred); with a model, the
    model reads the context and Microsoft's order stays. Only the window's texts are read (the
    kept ones are read anyway).

    >>> rels = [{"item": NamedNode(f"urn:r:{n}")} for n in range(3)]
    >>> texts = {NamedNode("urn:r:0"): ("Scrooge works late", None), NamedNode("urn:r:1"): ("Fan is Scrooge's little sister", None)}
    >>> [r["item"].value for r in _question_first(rels, texts, "Who was Scrooge's little sister?", 2)]
    ['urn:r:1', 'urn:r:0', 'urn:r:2']
    """
    asked = set(content_tokens(question))
    if not asked or window < 2:
        return relationships
    head = relationships[:window]

    def says(r: dict) -> int:
        label, text = texts.get(r["item"], (None, None))
        return len(asked & set(content_tokens(f"{label or ''} {text or ''}")))

    said = [says(r) for r in head]
    order = sorted(range(len(head)), key=lambda i: -said[i])
    return [head[i] for i in order] + relationships[window:]


def _item_citation(item: dict, label: str | None) -> str:
    """How a context item is cited in an answer: its kind and a short name (the IRI stays in the trace).

    >>> _item_citation({"kind": "report", "item": NamedNode("urn:graphrag:report:7")}, "Scrooge's redemption")
    "report: Scrooge's redemption"
    """
    name = " ".join((label or local_name(item["item"].value)).split())
    if len(name) > 60:
        name = name[:59] + "…"
    return f"{item['kind'].replace('_', ' ')}: {name}"


# -- global search -----------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class GlobalSearchParams:
    """Global-search settings: community level (``max_level``: the reports of communities at that
    level or coarser, as Microsoft's ``--community-level``; ``None``: every level), batch and reduce
    budgets, points per batch, shuffle seed; dynamic community selection (``dynamic_selection``,
    with Microsoft's ``threshold``, ``keep_parent``, ``max_level`` — here ``dynamic_max_level`` —,
    ``num_repeats`` — ``rating_repeats`` — and ``use_summary``); how many text units the
    answer's sources name at most (``source_units``: those the kept points' reports rest on);
    and, with an LLM, how many map requests (``concurrency``, Microsoft's ``concurrent_requests``)
    and rating requests (``rating_concurrency``, its ``concurrent_coroutines``) are in flight at
    once — the stages are recorded in batch order whatever order the replies come in."""

    max_level: int | None = 2
    batch_tokens: int = 8_000
    reduce_tokens: int = 2_000
    points_per_batch: int = 5
    seed: int = 86
    dynamic_selection: bool = False
    rating_threshold: float = 1
    keep_parent: bool = False
    dynamic_max_level: int = 2
    rating_repeats: int = 1
    use_summary: bool = False
    source_units: int = 10
    concurrency: int = 25
    rating_concurrency: int = 8

    def __post_init__(self) -> None:
        if self.concurrency < 1 or self.rating_concurrency < 1:
            raise ConfigurationError("concurrency and rating_concurrency must be at least 1")
        if self.batch_tokens < 1 or self.reduce_tokens < 1 or self.points_per_batch < 1:
            raise ConfigurationError("global search budgets and points per batch must be at least 1")
        if self.max_level is not None and self.max_level < 0:
            raise ConfigurationError("the community level must be 0 or more")
        if self.rating_repeats < 1 or self.source_units < 0:
            raise ConfigurationError("rating_repeats must be at least 1 and source_units at least 0")


class GlobalSearch(_Mode):
    """Microsoft GraphRAG global search (see the module docstring)."""

    kind, params_type = "global", GlobalSearchParams
    #: offline, the reports whose sentences :attr:`_rarity_of` was built over (:meth:`_rarity`)
    _rarity_key: tuple[str, ...] | None = None
    _rarity_of: BM25 | None = None

    def run(self, question: str, *, used: NamedNode | None = None, history: Sequence[ConversationTurn] = ()) -> Iterator[Event]:
        """``history``: the earlier turns of a conversation (linked in the trace; with an LLM, in each map prompt)."""
        self.history = tuple(history)
        session, concepts = yield from self._begin(question, used)
        count = token_counter(self.engine)
        result, p = self.result, self.params
        timings, tokens = result.timings, result.tokens

        with timings.measure("context"):
            reports = self.reader.community_reports(p.max_level)
        if p.dynamic_selection:
            reports = yield from self._select(session, question, concepts, reports)
        with timings.measure("context"):
            shuffled = list(reports)
            random.Random(p.seed).shuffle(shuffled)
            batches: list[list[dict]] = []
            used_tokens = 0
            for rep in shuffled:
                t = count(_report_text(rep))
                if not batches or used_tokens + t > p.batch_tokens:
                    batches.append([])
                    used_tokens = 0
                batches[-1].append(rep)
                used_tokens += t
        batch_rows = [
            {"iri": NamedNode(f"{session.question.value}/batch/{n}"), "number": n, "reports": [r["report"] for r in batch]}
            for n, batch in enumerate(batches, start=1)
        ]
        with timings.measure("record"):
            event = session.exploration([], [r["report"] for r in reports], batch_rows)
        exploration = session.last
        yield event

        all_points: list[dict] = []
        map_iris: list[NamedNode] = []
        batch_tables = []
        workers = p.concurrency if llm_of(self.engine) is not None else 1  # offline: CPU-bound, one after another
        rarity = self._rarity(reports) if llm_of(self.engine) is None else None
        answers = in_order(lambda batch: global_map(self, question, concepts, batch, keep=p.points_per_batch, history=self.history,
                                                    rarity=rarity), batches, workers=workers)
        for n, (batch, row) in enumerate(zip(batches, batch_rows, strict=True), start=1):
            with timings.measure("map"):
                mapped, table = next(answers)
            batch_tables += [table] if table is not None else []
            tokens.add(mapped.in_token, mapped.out_token)
            points = []
            for k, pt in enumerate(mapped.value, start=1):
                # offline, a point is one sentence of a report: it is kept with the sentences
                # either side of it there, which say whom its "he" or "the group" is (an LLM's
                # point is its own, whole)
                content = _in_context(pt.text, batch[pt.sources[0]]) if table is None and len(pt.sources) == 1 and \
                    0 <= pt.sources[0] < len(batch) else pt.text
                points.append({
                    "iri": NamedNode(f"{session.question.value}/map/{n}/point/{k}"),
                    "content": content, "score": pt.score, "batch": n,
                    "reports": [batch[i]["report"] for i in pt.sources if 0 <= i < len(batch)],
                })
            with timings.measure("record"):
                event = session.map_result(
                    n,
                    row["iri"],
                    points,
                    exploration=exploration,
                    in_token=mapped.in_token,
                    out_token=mapped.out_token,
                    prompt=mapped.prompt,
                )
            map_iris.append(event.explain_id)
            all_points.extend(points)
            yield event

        # reduce: the best points across batches, within the budget
        ranked = sorted((point for point in all_points if point["score"] > 0), key=lambda point: (-point["score"], point["iri"].value))
        kept: list[dict] = []
        budget = 0
        for point in ranked:
            t = count(point["content"])
            if budget + t > p.reduce_tokens:
                break
            budget += t
            kept.append(point)
        with timings.measure("lineage"):
            selections, sources = self._sources(session, kept, question if llm_of(self.engine) is None else None)
        with timings.measure("record"):
            event = session.focus(
                selections,
                derived_from=map_iris or [exploration],
                points=[point["iri"] for point in kept],
                prompt="graphrag-global-reduce@1",
            )
        yield event
        result.selected = len(kept)
        result.sources = tuple(sources)
        titles = {r["report"]: r["title"] for r in reports}
        llm = llm_of(self.engine)
        # offline, the answer reads the reports the kept points were cut from (_report_evidence);
        # an LLM's reduce step reads its analysts' points
        evidence = kept if llm is not None else _report_evidence(kept, reports)
        units = self._units(question, selections) if llm is None else []
        # the names in the reports and the text units together: a person a report names in full
        # is known by a part of the name in the text ("Master Peter" for Peter Cratchit)
        named = self._named_in([point["content"] for point in evidence] + [u.text for u in units])
        passages = [
            Passage(
                point["content"],
                " ;; ".join(_item_citation({"kind": "report", "item": r}, titles.get(r)) for r in point["reports"])
                or None,
                kind=point.get("kind", "point"),
                item=point["iri"].value,
                mentions=named[n],
            )
            for n, point in enumerate(evidence)
        ] + [dataclasses.replace(u, mentions=named[len(evidence) + n]) for n, u in enumerate(units)]
        if llm is not None:
            yield from global_answer(self, session, question, kept, batch_tables, passages)
            return
        yield from self._synthesize(session, question, passages, kind="facts")

    def _units(self, question: str, selections: Sequence[dict]) -> list[Passage]:
        """Offline, for every kind of question, the first :data:`.cited.CITED_CHUNKS` text units the
        Focus kept (those of the kept reports that best match the question: :meth:`_by_question`)
        that say a word of the question, as ``chunk`` passages (a report summarises: who did what,
        a count, a time or a reason is often only in the text), each standing for the Focus's
        selection of its unit (as every Microsoft mode's evidence does)."""
        chosen = [(s["item"], s["iri"].value) for s in selections if s["kind"] == "text_unit"][:CITED_CHUNKS]
        asked = set(content_tokens(question))
        with self.result.timings.measure("lineage"):
            records = self.reader.chunk_records([unit for unit, _ in chosen])
        return [Passage(records[unit].text, records[unit].citation(), kind="chunk", item=iri) for unit, iri in chosen
                if unit in records and asked & passage_terms(records[unit].text).present]


    def _rarity(self, reports: Sequence[dict]) -> BM25:
        """Offline, the BM25 over the sentences of every report mapped, whose term rarity weighs
        the question's words in every batch (:meth:`OfflineEngine.map_points`); built once per
        set of reports."""
        key = tuple(r["report"].value for r in reports)
        if self._rarity_of is None or self._rarity_key != key:
            with self.result.timings.measure("context"):
                self._rarity_of = BM25([content_tokens(x) for r in reports for x in map_sentences(report_statements(r))])
            self._rarity_key = key
        return self._rarity_of

    def _select(self, session: MicrosoftTrace, question: str, concepts: Sequence[str],
                reports: list[dict]) -> Generator[Event, None, list[dict]]:
        """Dynamic community selection over ``reports`` (recorded with every rating); returns the
        reports kept (:mod:`.community_selection`)."""
        p, result = self.params, self.result
        with result.timings.measure("context"):
            tree = self.reader.report_tree()
        rater = report_rater(self, question, concepts, repeats=p.rating_repeats, use_summary=p.use_summary,
                             concurrency=p.rating_concurrency)
        with result.timings.measure("rating"):
            kept, ratings = select_communities(reports, tree, rater.rate, threshold=p.rating_threshold, keep_parent=p.keep_parent,
                                               max_level=p.dynamic_max_level)
        result.tokens.add(rater.in_token, rater.out_token)
        with result.timings.measure("record"):
            event = session.community_selection(ratings, threshold=p.rating_threshold, prompt=rater.prompt,
                                                in_token=rater.in_token, out_token=rater.out_token)
        yield event
        return kept

    #: offline, how many of the kept reports' text units (those holding the most kept reports
    #: first) are read to choose the sources among by the question's words (:meth:`_by_question`)
    UNITS_READ = 40

    def _sources(self, session: MicrosoftTrace, kept: Sequence[dict],
                 question: str | None = None) -> tuple[list[dict], list[Source]]:
        """What the answer rests on, as the Focus's kept items and the run's sources: the reports
        the kept points rest on (best point first), then the text units those reports' member
        entities were extracted from — at most ``source_units``, those holding the most kept
        reports, then the most members; offline (``question`` given), those that say the most of
        the question's words first (:meth:`_by_question`) — which are the sources (document, chunk)."""
        best: dict[NamedNode, float] = {}
        for point in kept:  # best first already
            for rep in point["reports"]:
                best.setdefault(rep, point["score"])
        units: dict[NamedNode, list[int]] = {}  # unit -> [reports holding it, members]
        if best and self.params.source_units:
            for members in self.reader.report_units(list(best)).values():
                for unit, n in members:
                    tally = units.setdefault(unit, [0, 0])
                    tally[0] += 1
                    tally[1] += n
        ranked = sorted(units, key=lambda u: (-units[u][0], -units[u][1], u.value))
        score = {u: float(members) for u, (_, members) in units.items()}
        if question is not None:  # offline: ordered, and scored, by the BM25 of the question in them
            ranked, score = self._by_question(question, ranked)
        ranked = ranked[: self.params.source_units]
        where = unit_sources(self.reader, ranked)
        rows = [(rep, "report", score) for rep, score in best.items()] + [(u, "text_unit", score.get(u, 0.0)) for u in ranked]
        selections = [
            {"iri": NamedNode(f"{session.question.value}/item/{n}"), "item": item, "kind": kind, "rank": n, "score": score,
             "tokens": None, "edge": None}
            for n, (item, kind, score) in enumerate(rows, start=1)
        ]
        sources: list[Source] = []
        for u in ranked:
            if u in where and where[u] not in sources:
                sources.append(where[u])
        return selections, sources


    def _by_question(self, question: str, units: list[NamedNode]) -> tuple[list[NamedNode], dict[NamedNode, float]]:
        """``units`` with the first :attr:`UNITS_READ` of them read and put in the order of the
        BM25 of the question's words in them (the rarity over the units read: a word every unit
        says weighs little; ties keep their order), those that say none after them, then the rest
        unread; and the BM25 of each unit read, to six decimals as every recorded score (what the
        Focus records as its score: 0 for one that says none of the words or was not read; a full
        double's digits do not survive a store that prints doubles shorter, Virtuoso's)."""
        read = units[: self.UNITS_READ]
        records = self.reader.chunk_records(read)
        scores = BM25.of_counts([passage_terms(records[u].text).counts if u in records else {} for u in read]).scores(
            list(dict.fromkeys(content_tokens(question))))
        first = sorted((n for n, score in enumerate(scores) if score > 0), key=lambda n: (-scores[n], n))
        return list(dict.fromkeys([read[n] for n in first] + units)), dict(zip(read, (round(float(x), 6) for x in scores), strict=True))


def _report_evidence(kept: Sequence[dict], reports: Sequence[dict]) -> list[dict]:
    """The offline answer's evidence for global search: for each report the kept points rest on
    (best point first), one passage of what the report states (its summary and findings, without
    their ``[Data: …]`` references), named by its best point. An offline point is one sentence cut
    from a report by word overlap; the name that answers is often a sentence or two away from the
    words the question shares with it, and the answer step weighs every sentence of its evidence
    (``bench/answers.py``: 49 → 55 of 91 questions right, held-out 21 → 22 of 45).

    >>> rep = {"report": "r1", "statements": "Fred is the nephew [Data: Entities (1)]. He laughs.", "text": ""}
    >>> points = [{"iri": "p1", "content": "He laughs.", "score": 50, "reports": ["r1"]},
    ...           {"iri": "p2", "content": "Fred is the nephew.", "score": 40, "reports": ["r1"]}]
    >>> [(e["iri"], e["content"], e["kind"]) for e in _report_evidence(points, [rep])]
    [('p1', 'Fred is the nephew. He laughs.', 'report')]
    """
    by_report = {r["report"]: r for r in reports}
    out: dict[Any, dict] = {}
    for point in kept:
        rep = point["reports"][0] if len(point["reports"]) == 1 else None
        if rep is None or rep not in by_report:
            out.setdefault(point["iri"], point)  # a point resting on no single known report stays as it is
        elif rep not in out:
            text = " ".join(DATA_REFERENCE.sub("", report_statements(by_report[rep])).split())
            out[rep] = dict(point, content=text.replace(" .", "."), kind="report")
    return list(out.values())


def _in_context(sentence: str, report: dict) -> str:
    """``sentence`` of ``report``'s statements with the sentences before and after it there
    (itself when the report does not hold it).

    >>> _in_context("He laughs.", {"statements": "Fred is the nephew. He laughs. Scrooge does not.", "text": ""})
    'Fred is the nephew. He laughs. Scrooge does not.'
    """
    text = report_statements(report)
    spans = [" ".join(DATA_REFERENCE.sub("", text[a:b]).split()) for a, b in split_sentences(text)]
    spans = [x for x in spans if x]
    if sentence not in spans:
        return sentence
    i = spans.index(sentence)
    return " ".join(spans[max(0, i - 1) : i + 2])


# -- DRIFT search ------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class DriftSearchParams:
    """DRIFT settings: reports read by the primer, follow-ups per action, depth, answers reduced, and
    the community level of the primer's reports (``max_level``, Microsoft's ``--community-level``;
    the follow-up local searches take ``local.max_level``)."""

    primer_reports: int = 5
    k_followups: int = 3
    depth: int = 2
    reduce_answers: int = 6
    max_level: int | None = 2
    local: LocalSearchParams = dataclasses.field(default_factory=lambda: LocalSearchParams(max_tokens=4_000))

    def __post_init__(self) -> None:
        if self.primer_reports < 1 or self.k_followups < 0 or self.depth < 0 or self.reduce_answers < 1:
            raise ConfigurationError("DRIFT needs primer_reports and reduce_answers >= 1, k_followups and depth >= 0")


class DriftSearch(_Mode):
    """Microsoft GraphRAG DRIFT search (see the module docstring)."""

    kind, params_type = "drift", DriftSearchParams

    def __init__(self, store, **options: Any):
        """``options`` as for :class:`Pipeline`; the follow-up local searches share its engine,
        recorder and reader."""
        super().__init__(store, **options)
        self.local = LocalSearch(store, engine=self.engine, recorder=self.recorder, params=self.params.local, reader=self.reader)

    def _rate(self, question: str, concepts: Sequence[str], answer: str) -> tuple[float, Any]:
        step = self.engine.map_points(question, concepts, [Passage(_body(answer))], keep=1)
        return (step.value[0].score if step.value else 0.0), step

    def run(self, question: str, *, used: NamedNode | None = None, history: Sequence[ConversationTurn] = ()) -> Iterator[Event]:
        """``history``: the earlier turns of a conversation (linked in the trace; their questions join the primer's report search)."""
        self.history = tuple(history)
        session, concepts = yield from self._begin(question, used)
        top, exploration = yield from self._primer_reports(session, question, concepts)
        primer, primer_iri = yield from self._primer(session, question, concepts, top, exploration)
        answers, answer_tables = yield from self._follow_ups(session, question, concepts, primer, primer_iri)
        yield from self._reduce(session, question, answers, answer_tables)

    def _primer_reports(self, session: Any, question: str, concepts: list[str]) -> Generator[Event, None, tuple[list[dict], Any]]:
        """The primer's context: the reports that match the question best (and the conversation's
        earlier questions; with an LLM, its HyDE expansion), recorded as the exploration; returns
        them and the exploration."""
        p, timings, tokens = self.params, self.result.timings, self.result.tokens
        with timings.measure("context"):
            query = [t for c in concepts + history_concepts(self.history) for t in content_tokens(c)] or content_tokens(question)
            expansion = drift_hyde(self, question)  # with an LLM, Microsoft's HyDE query expansion
            if expansion is not None:
                tokens.add(expansion.in_token, expansion.out_token)
                query += content_tokens(expansion.value)
            top = best_reports(self.reader, query, limit=p.primer_reports, max_level=p.max_level)
        with timings.measure("record"):
            event = session.exploration([], [r["report"] for r in top])
        exploration = session.last
        yield event
        return top, exploration

    def _primer(self, session: Any, question: str, concepts: list[str], top: list[dict],
                exploration: Any) -> Generator[Event, None, tuple[Any, Any]]:
        """The primer's answer from the reports ``top``, its score and first follow-up queries,
        recorded as DRIFT action 0; returns the primer step and the action's IRI."""
        p, timings, tokens = self.params, self.result.timings, self.result.tokens
        with timings.measure("map"):
            primer = drift_primer_step(self, question, concepts, top, followups=p.k_followups if p.depth else 0)
        tokens.add(primer.in_token, primer.out_token)
        with timings.measure("record"):
            event = session.drift_action(0, derived_from=[exploration], query=question, depth=0, score=primer.score,
                                         follow_ups=primer.follow_ups, answer=primer.answer, sub_trace=None, prompt=primer.prompt)
        primer_iri = event.explain_id
        yield event
        return primer, primer_iri

    def _follow_ups(self, session: Any, question: str, concepts: list[str], primer: Any,
                    primer_iri: Any) -> Generator[Event, None, tuple[list[dict], list]]:
        """The follow-up rounds, depth by depth: every follow-up query not asked yet, answered by
        :meth:`_follow_up`; returns the intermediate answers (the primer's first) and the context
        tables of the answers (with an LLM)."""
        answers: list[dict] = [{"action": primer_iri, "query": question, "answer": primer.answer, "score": primer.score, "depth": 0}]
        self.local.drift_query = question
        asked = {question.strip().lower()}
        frontier: list[tuple[Any, NamedNode | None, list[str]]] = [(primer_iri, None, list(primer.follow_ups))]
        answer_tables = [primer.tables] if primer.tables is not None else []
        number = 0
        for depth in range(1, self.params.depth + 1):
            next_frontier: list[tuple[Any, NamedNode | None, list[str]]] = []
            for parent, parent_answer, queries in frontier:
                for q in queries:
                    if q.strip().lower() in asked:
                        continue
                    asked.add(q.strip().lower())
                    number += 1
                    sources = [parent] + ([parent_answer] if parent_answer is not None else [])
                    answer, more = yield from self._follow_up(session, question, concepts, (number, depth, q), sources, answer_tables)
                    answers.append(answer)
                    if more is not None:
                        next_frontier.append(more)
            frontier = next_frontier
        return answers, answer_tables

    def _follow_up(self, session: Any, question: str, concepts: list[str], step: tuple[int, int, str], sources: list,
                   answer_tables: list) -> Generator[Event, None, tuple[dict, tuple[Any, NamedNode | None, list[str]] | None]]:
        """DRIFT action ``number`` at ``depth``: a local search for the follow-up query ``q`` (its
        sub-trace names the action as its caller), its answer rated against the question and, short
        of the last depth, its own follow-up queries; appends its context tables (with an LLM) to
        ``answer_tables``. Returns the intermediate answer and, when it has follow-ups, the frontier
        entry they make (the action, the sub-trace's last event, the queries)."""
        number, depth, q = step
        p, timings, tokens = self.params, self.result.timings, self.result.tokens
        action = session.action_iri(number)  # the sub-trace run for it names this trace as its caller
        sub_question, sub_last = yield from self._local_search(q, action)
        answer = self.local.result.answer
        evidence = _structured(self.local.result)
        units = tuple(u for u in self.local.result.passages if u.kind == "text_unit")
        answer_tables += [self.local.context_tables] if llm_of(self.engine) is not None else []
        with timings.measure("map"):
            score, rating = self._rate(question, concepts, answer)
        tokens.add(rating.in_token, rating.out_token)
        more = self.engine.follow_ups(question, answer, keep=p.k_followups) if depth < p.depth else None
        if more is not None:
            tokens.add(more.in_token, more.out_token)
        with timings.measure("record"):
            event = session.drift_action(
                number, derived_from=sources, query=q, depth=depth, score=score,
                follow_ups=more.value if more else [], answer=answer, sub_trace=sub_question,
                prompt=more.prompt if more else rating.prompt,
            )
        yield event
        entry = {"action": action, "query": q, "answer": answer, "score": score, "depth": depth, "evidence": evidence, "units": units}
        return entry, ((action, sub_last, list(more.value)) if more is not None and more.value else None)

    def _local_search(self, q: str, action: NamedNode) -> Generator[Event, None, tuple[NamedNode | None, NamedNode | None]]:
        """Run the local search for the follow-up query ``q`` on behalf of ``action``, yielding its
        trace's events and adding its tokens and sources to this run's; returns its first and last
        events' IRIs."""
        result = self.result
        sub_last = None
        sub_question = None
        for ev in self.local.run(q, used=action):
            if isinstance(ev, ExplainEvent):
                sub_last = ev.explain_id
                sub_question = sub_question or ev.explain_id
                yield ev
            elif isinstance(ev, EndOfSession):
                result.tokens.add(ev.in_token, ev.out_token)
                for src in ev.sources:
                    if src not in result.sources:
                        result.sources = (*result.sources, src)
        return sub_question, sub_last

    def _reduce(self, session: Any, question: str, answers: list[dict], answer_tables: list) -> Iterator[Event]:
        """The reduce step: the best-rated intermediate answers, recorded as the focus, and the
        answer from them (with an LLM, Microsoft's reduce prompt; offline, from their evidence)."""
        result, p = self.result, self.params
        ranked = sorted(answers, key=lambda a: (-a["score"], a["action"].value))[: p.reduce_answers]
        selections = [
            {"iri": NamedNode(f"{session.question.value}/item/{n}"), "item": a["action"], "kind": "drift-action", "rank": n,
             "score": a["score"], "tokens": approx_tokens(a["answer"]), "edge": None}
            for n, a in enumerate(ranked, start=1)
        ]
        with result.timings.measure("record"):
            event = session.focus(selections, derived_from=[a["action"] for a in answers], prompt="graphrag-drift-reduce@1")
        yield event
        result.selected = len(ranked)
        if llm_of(self.engine) is not None:
            bodies = [(sel, a, _body(a["answer"])) for sel, a in zip(selections, ranked, strict=False)]
            bodies = [(sel, a, body) for sel, a, body in bodies if body]
            named = self._named_in([body for _, _, body in bodies])
            passages = [
                Passage(body, f"DRIFT action '{a['query']}' (depth {a['depth']})", kind="answer", item=sel["iri"].value, mentions=named[n])
                for n, (sel, a, body) in enumerate(bodies)
            ]
            yield from drift_answer(self, session, question, [a["answer"] for a in ranked], answer_tables, passages)
            return
        yield from self._synthesize(session, question, self._offline_evidence(question, selections, ranked), kind="passages")

    def _offline_evidence(self, question: str, selections: Sequence[dict], ranked: Sequence[dict]) -> list[Passage]:
        """What the offline answer to the question reads: not the intermediate answers (each
        states an answer to its own follow-up query) but the evidence they were drawn from — the
        primer's report points, and the structured context each kept local search kept (its
        entities, relationships and claims, typed, each passage once: :func:`_structured`) that
        states a word of the question (by the answer step's word roots, :func:`.root_tokens`: "Who
        married …?" reads "… marry …"), best-rated action first — one that states none was kept
        for its follow-up query, not for the question (measured when the filter matched words
        with plurals stripped only: at 1M facts, "Who is Scrooge's nephew?" read 34 passages
        instead of 71, its answer step 57 → 43 ms CPU; by word roots, ``bench/answers.py --modes
        drift`` gives the same first line on all 302 tuning questions). Each passage names the reduce step's selection of its action as
        the item it stands for (the action's sub-trace holds the item itself). Also the few text
        units the kept local searches read (already read: no query) that say the most of the
        question's words (:func:`.cited.best_passages`), for every kind of question: the act an
        entity question asks about is in the text more often than in a relationship
        (``bench/answers.py --modes drift``: train 46 → 47 of 60, held out 41 → 43 of 59, fresh
        14 → 18 of 35)."""
        passages: list[Passage] = []
        units = best_passages(question, [dataclasses.replace(u, item=sel["iri"].value)
                                         for sel, a in zip(selections, ranked, strict=False) for u in a.get("units", ())])
        asked = frozenset(root_tokens(question))  # the answer step's word roots: "married" states "marry"
        seen: set[str] = set()
        primers = []
        for sel, a in zip(selections, ranked, strict=False):
            if a.get("evidence") is None:  # the primer: its report points
                body = _body(a["answer"])
                if body:
                    primers.append(len(passages))
                    source = f"DRIFT action '{a['query']}' (depth {a['depth']})"
                    passages.append(Passage(body, source, kind="answer", item=sel["iri"].value))
                continue
            for p in a["evidence"]:
                key = " ".join(p.text.split()).lower()
                if key in seen or (asked and asked.isdisjoint(root_tokens(p.text))):
                    continue
                seen.add(key)
                passages.append(dataclasses.replace(p, item=sel["iri"].value))
        if primers:
            named = self._named_in([passages[i].text for i in primers])
            for i, mentions in zip(primers, named, strict=True):
                passages[i] = dataclasses.replace(passages[i], mentions=mentions)
        return passages + units


def _structured(run: RunResult) -> tuple[Passage, ...]:
    """The structured part of a finished local search's evidence, what DRIFT's offline answer
    reads of it: its kept entities — each by the first sentences of its description, what the
    entity is and does ("Fred is Scrooge's nephew …") —, relationships and claims, typed. Its reports and
    text units are long texts the follow-up query kept and the question may not need; reading
    them all would cost the answer step many times the primer's reading (the trace keeps them
    in the action's sub-trace)."""
    out = []
    for p in run.passages:
        if p.kind not in _STRUCTURED:
            continue
        if p.kind == "entity":
            spans = split_sentences(p.text)
            if spans:
                p = dataclasses.replace(p, text=p.text[: spans[min(len(spans), _GLOSS_SENTENCES) - 1][1]].strip())
        out.append(p)
    return tuple(out)


_STRUCTURED = frozenset({"entity", "relationship", "claim"})
#: the sentences of an entity's description DRIFT's offline answer reads (what it is and does)
_GLOSS_SENTENCES = 2


def _body(answer: str) -> str:
    r"""An intermediate answer as plain text: no trailing source list, bullets or citation markers
    (they point into the sub-trace's own sources, which the trace keeps).

    >>> _body("- Tim is ill. [1]\n- Bob is sad. [2]\n\nSources:\n[1] x")
    'Tim is ill.\nBob is sad.'
    """
    import re

    lines = []
    for line in answer.split("\nSources:\n")[0].splitlines():
        line = re.sub(r"\s*\[\d+\]", "", re.sub(r"^\s*-\s+", "", line)).strip()
        if line and line != "Evidence:" and not line.startswith("The data does not answer"):
            lines.append(line)
    return "\n".join(lines)
