"""The offline engine: deterministic lexical retrieval judgement, no language model.

It is the default when no LLM is configured and what the tests and the demo use. It is a real
algorithm, and the trace says so: its name and version (:data:`OFFLINE_MODEL`) are recorded as the
model, and each stage names the algorithm step it ran (``offline-…@1``) where an LLM stage names
its prompt.

- **Concepts**: the question is tokenized, stopwords and question scaffolding removed, and the
  remaining runs of content words kept as noun-phrase-like concepts (plus their words).
- **Edge scoring**: Okapi BM25 of each concept against the candidate edges (subject, predicate
  and object labels and the edge's description); an edge's score is the sum over concepts, its
  concept the best-matching one, and its reasoning says which concept terms matched which part of
  the edge and how strongly.
- **Global-search map**: report sentences scored by BM25, mapped onto 0–100 by a saturating
  curve (never capped, so points stay comparable).
- **Reranking**: concept coverage (share of concepts whose words all occur) blended with BM25.
- **Answer**: extracted (:mod:`ragprov.llm.answer`): the question typed, candidate answers
  collected from the kept evidence (typed entities, names in the text, numbers, dates, sentences),
  scored by independent supporting evidence with the question's own entities excluded; the first
  line states the best one with its citations (or that the data does not answer), the supporting
  sentences and the numbered sources follow.
- **ReAct**: query the knowledge graph, then the documents, then answer with every observation
  that found evidence (or say that none did, and why).

>>> engine = OfflineEngine()
>>> engine.model
'ragprov-offline-bm25/1'
>>> edges = [EdgeText("EBENEZER SCROOGE", "related to", "FRED", "Fred is Scrooge's nephew"),
...          EdgeText("BOB CRATCHIT", "related to", "TINY TIM", "Tiny Tim is Bob's son")]
>>> step = engine.score_edges("Who is Scrooge's nephew?", ["scrooge nephew", "scrooge", "nephew"], edges, keep=5)
>>> [(c.index, c.concept) for c in step.value]
[(0, 'scrooge nephew')]
>>> print(step.value[0].reasoning)  # doctest: +ELLIPSIS
concept 'scrooge nephew': scrooge in subject, description; nephew in description; ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from .answer import extract_answer
from .engine import AnswerStream, Choice, EdgeText, MapPoint, Passage, Step, Tool, Turn, turns_evidence
from .text import BM25, content_tokens, extract_concepts, passage_terms, split_sentences

__all__ = ["OFFLINE_MODEL", "OFFLINE_NAME", "OFFLINE_VERSION", "OfflineEngine", "map_sentences"]

OFFLINE_NAME = "ragprov-offline-bm25"
OFFLINE_VERSION = "1"
OFFLINE_MODEL = f"{OFFLINE_NAME}/{OFFLINE_VERSION}"

_FIELDS = ("subject", "predicate", "object", "description")


#: a GraphRAG report's reference to the index rows a statement rests on ("[Data: Entities (412); Relationships (699)]")
DATA_REFERENCE = re.compile(r"\s*\[Data:[^\]]*\]")


#: citation marks ("[1]", "[2, 3]") and the spaces before them
_CITES = re.compile(r"\s*\[\d+(?:,\s*\d+)*\]")


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def map_sentences(text: str) -> list[str]:
    """The sentences of a report a map step cuts its points from: a point is a claim of its
    report, so the report's own ``[Data: …]`` references (row ids of the index) are no part of
    it (the point rests on the report anyway); fragments under 20 characters are left out.

    >>> map_sentences("Fred is Scrooge's nephew [Data: Entities (1)]. He laughs. Scrooge does not laugh at all.")
    ["Fred is Scrooge's nephew.", 'Scrooge does not laugh at all.']
    """
    out = []
    for a, b in split_sentences(text):
        sentence = " ".join(DATA_REFERENCE.sub("", text[a:b]).split())
        if len(sentence) >= 20:
            out.append(sentence)
    return out


class OfflineEngine:
    """Deterministic lexical engine (see the module docstring). No network, no randomness."""

    model = OFFLINE_MODEL

    def __init__(self, *, max_facts: int = 10, max_sentences: int = 6):
        self.max_facts = max_facts
        self.max_sentences = max_sentences

    def __repr__(self) -> str:
        return f"OfflineEngine({OFFLINE_MODEL})"

    # -- concepts ------------------------------------------------------------------------------
    def concepts(self, question: str) -> Step[list[str]]:
        return Step(extract_concepts(question), prompt="offline-concepts@1")

    # -- edges ---------------------------------------------------------------------------------
    def score_edges(self, question: str, concepts: Sequence[str], edges: Sequence[EdgeText], *, keep: int) -> Step[list[Choice]]:
        fields = [{f: content_tokens(getattr(e, f)) for f in _FIELDS} for e in edges]
        docs = [[t for f in _FIELDS for t in fl[f]] for fl in fields]
        bm = BM25(docs)
        queries = [(c, content_tokens(c)) for c in concepts]
        per_concept = [bm.scores(q) if q else [0.0] * len(docs) for _, q in queries]
        choices: list[Choice] = []
        for i in range(len(docs)):
            total = sum(s[i] for s in per_concept)
            if total <= 0:
                continue
            matched = [(queries[k][0], queries[k][1], per_concept[k][i]) for k in range(len(queries)) if per_concept[k][i] > 0]
            # The concept that explains the edge best: one whose words all occur beats a partial
            # match, then the higher score, then the longer (more specific) concept.
            present = set(docs[i])
            best = max(matched, key=lambda m: (set(m[1]) <= present, m[2], len(m[1])))
            reasoning = self._explain_edge(best, matched, fields[i], total, len(docs))
            choices.append(Choice(i, round(total, 6), best[0], reasoning))
        choices.sort(key=lambda c: (-c.score, c.index))
        return Step(choices[:keep], prompt="offline-edge-bm25@1")

    @staticmethod
    def _explain_edge(best, matched, fields, total: float, n: int) -> str:
        def where(tokens: Sequence[str]) -> str:
            parts = []
            for t in dict.fromkeys(tokens):
                places = [f for f in _FIELDS if t in fields[f]]
                if places:
                    parts.append(f"{t} in {', '.join(places)}")
            return "; ".join(parts)

        text = f"concept '{best[0]}': {where(best[1])}; BM25 {_fmt(best[2])}"
        others = [m for m in matched if m is not best]
        if others:
            text += "; also " + ", ".join(f"'{m[0]}' {_fmt(m[2])}" for m in others)
        return text + f"; total {_fmt(total)} over {n} candidate edges"

    # -- passages ------------------------------------------------------------------------------
    def rerank(self, question: str, concepts: Sequence[str], passages: Sequence[Passage], *, keep: int) -> Step[list[Choice]]:
        terms = [passage_terms(p.text) for p in passages]
        bm = BM25.of_counts([t.counts for t in terms], lengths=[t.length for t in terms])
        query = [t for c in concepts for t in content_tokens(c)] or content_tokens(question)
        scores = bm.scores(query)
        top = max(scores, default=0.0) or 1.0
        concept_sets = [set(content_tokens(c)) for c in concepts if content_tokens(c)]
        choices = []
        for i, passage in enumerate(terms):
            covered = [c for c in concept_sets if c <= passage.present]
            coverage = len(covered) / len(concept_sets) if concept_sets else 0.0
            score = 0.5 * coverage + 0.5 * scores[i] / top
            if score > 0:
                choices.append(
                    Choice(i, round(score, 6), reasoning=f"covers {len(covered)}/{len(concept_sets)} concepts; BM25 {_fmt(scores[i])}")
                )
        choices.sort(key=lambda c: (-c.score, c.index))
        return Step(choices[:keep], prompt="offline-rerank@1")

    # -- answers -------------------------------------------------------------------------------
    def answer(self, question: str, passages: Sequence[Passage], *, kind: str) -> AnswerStream:
        """The extracted answer (:func:`ragprov.llm.answer.extract_answer`): one first line that
        states it with its citation numbers (or says the data does not answer), then the evidence
        it rests on and the numbered sources. ``support`` on the stream says which passages
        support the answer and which candidates were rejected."""
        found = extract_answer(question, passages, max_evidence=self.max_sentences if kind != "facts" else self.max_facts)
        prompt = "offline-answer-facts@2" if kind == "facts" else "offline-answer-passages@2"
        sources = list(found.sources)
        pieces = [found.first_line + "\n"]
        if found.evidence:
            pieces.append("\nEvidence:\n")
            for i, text in found.evidence:
                cites = "".join(self._cite(s, sources) for s in (passages[i].source or "").split(" ;; ") if s)
                pieces.append(f"- {text}{cites}\n")
        if sources:
            pieces.append("\nSources:\n")
            pieces.extend(f"[{n}] {label}\n" for n, label in enumerate(sources, start=1))
        return AnswerStream(iter(pieces), prompt=prompt, support=found)

    @staticmethod
    def _cite(source: str | None, sources: list[str]) -> str:
        if not source:
            return ""
        if source not in sources:
            sources.append(source)
        return f" [{sources.index(source) + 1}]"

    # -- global search map step ----------------------------------------------------------------
    #: BM25 per query term at which a map point scores 50 (see :meth:`map_points`).
    MAP_HALF_SCORE = 2.5

    def map_points(self, question: str, concepts: Sequence[str], passages: Sequence[Passage], *, keep: int,
                   rarity: BM25 | None = None) -> Step[list[MapPoint]]:
        """Sentences of the batch's reports scored by BM25 against the concepts, best first; each
        point rests on the report it was cut from. ``rarity``: the BM25 over the sentences of
        every batch (:func:`map_sentences`), whose term rarity weighs the concepts: the reduce step
        ranks the points of all batches together, and a batch's own rarity would put them on
        different scales (a word common in the whole index but rare in one batch lifts that
        batch's points above the points that match the question's specific words elsewhere).

        The 0–100 score saturates instead of clipping: ``100 · s / (s + h)`` with ``h`` =
        :attr:`MAP_HALF_SCORE` × the query's length (BM25 grows with the number of query terms a
        sentence matches), so scores keep their order across the whole range and the reduce step,
        which ranks the points of every batch together, keeps the best-matching ones.

        >>> engine = OfflineEngine()
        >>> step = engine.map_points("ghosts?", ["ghost", "christmas past"], [
        ...     Passage("The Ghost of Christmas Past shows Scrooge his past."),
        ...     Passage("A ghost appears at the door in the night."),
        ...     Passage("Bob Cratchit carries Tiny Tim home from church.")], keep=3)
        >>> [(p.sources, 0 < p.score < 100) for p in step.value]
        [((0,), True), ((1,), True)]
        >>> step.value[0].score > step.value[1].score
        True
        """
        sentences = [(i, text) for i, p in enumerate(passages) for text in map_sentences(p.text)]
        bm = BM25([content_tokens(s) for _, s in sentences], rarity=rarity)
        query = [t for c in concepts for t in content_tokens(c)] or content_tokens(question)
        half = self.MAP_HALF_SCORE * max(1, len(query))
        points: list[MapPoint] = []
        seen: set[str] = set()
        for k, score in bm.top(query, keep * 3):
            i, text = sentences[k]
            if text in seen:
                continue
            seen.add(text)
            points.append(MapPoint(text, round(100.0 * score / (score + half), 4), (i,)))
            if len(points) >= keep:
                break
        return Step(points, prompt="offline-map-bm25@1")

    # -- DRIFT follow-ups -----------------------------------------------------------------------
    def follow_ups(self, question: str, answer: str, *, keep: int) -> Step[list[str]]:
        """Noun-phrase-like concepts of the intermediate answer that the question does not name:
        multi-word phrases first (more specific), in order of appearance."""
        asked = set(content_tokens(question))
        body = re.sub(r"\[\d+\]", " ", answer.split("\nSources:\n")[0])
        found = [c for c in extract_concepts(body, limit=200) if not any(t.isdigit() for t in c.split())]
        fresh = [c for c in found if not set(c.split()) <= asked]
        ordered = [c for c in fresh if " " in c] + [c for c in fresh if " " not in c]
        return Step(ordered[:keep], prompt="offline-followups@1")

    # -- agent ---------------------------------------------------------------------------------
    def react(self, question: str, tools: Sequence[Tool], history: Sequence[Turn]) -> Step[str]:
        names = [t.name for t in tools]
        order = [n for n in ("knowledge-query", "document-query") if n in names] + sorted(
            n for n in names if n not in ("knowledge-query", "document-query")
        )
        tried = {t.action for t in history}
        untried = [n for n in order if n not in tried]
        if not untried:
            return self._conclude(question, history)
        if not history:
            why = (
                "look the question up in the knowledge graph first"
                if untried[0] == "knowledge-query"
                else f"ask the {untried[0]} tool"
            )
        else:
            last = history[-1]
            outcome = "failed" if last.error else ("found evidence" if last.useful else "found nothing")
            why = f"the {last.action} tool {outcome}; check the {untried[0]} tool too"
        args = json.dumps({"question": question}, ensure_ascii=False)
        text = f"Thought: {why}.\nAction: {untried[0]}\nAction Input: {args}"
        return Step(text, prompt="offline-react@2")

    def _conclude(self, question: str, history: Sequence[Turn]) -> Step[str]:
        """The final answer once every tool has been asked: extracted from the evidence all the
        tool calls selected together (:func:`~ragprov.llm.engine.turns_evidence`), so a graph fact
        and a text passage can each back it; then each tool's own answer. ``support``: the
        extraction over that evidence (None when no tool returned any)."""
        useful = [t for t in history if t.useful and not t.error]
        # every tool answered the same: pooling their evidence is not needed to pick between them
        agreed = len(useful) == len(history) and len({_CITES.sub("", t.observation.split("\n", 1)[0]) for t in useful}) == 1
        evidence = [] if agreed else turns_evidence(history)
        pooled = self.answer(question, evidence, kind="passages") if evidence else None
        found = pooled.support if pooled is not None else None
        rest = "\n\n".join(f"From {t.action}:\n{t.observation.strip()}" for t in useful)
        if pooled is not None and found is not None and (found.answered or not useful):
            # the pooled answer with its evidence and numbered sources, then each tool's own answer
            calls = sum(1 for t in history if t.passages)
            text = (f"Thought: the evidence of {calls} of {len(history)} tool calls, weighed together, answers.\n"
                    f"Final Answer: {''.join(pooled).strip()}" + (f"\n\n{rest}" if rest else ""))
        elif useful:
            # no answer from the pooled evidence: the tool whose evidence states the most of the question leads
            lead = max(useful, key=lambda t: t.cover or 0.0)
            text = (
                f"Thought: {len(useful)} of {len(history)} tool calls returned an answer; the {lead.action} tool's leads.\n"
                f"Final Answer: {lead.observation.strip().splitlines()[0]}\n\n{rest}"
            )
            found = None
        else:
            reasons = "; ".join(f"{t.action}: {t.error or 'no answer in what it found'}" for t in history)
            text = ("Thought: every tool has been tried without an answer.\n"
                    f"Final Answer: The data does not answer the question ({reasons}).")
        return Step(text, prompt="offline-react@2", support=found)


