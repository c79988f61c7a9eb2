"""GraphRAG (TrustGraph style): concepts → seed entities → subgraph expansion → edge selection →
sources → synthesis, every stage recorded as it happens and yielded as an event.

The expansion reads the facts graph only (:class:`~ragprov.retrieve.FactsReader`). Per hop,
each frontier entity contributes at most ``triple_limit`` facts (schema predicates left out), the
hop's candidates are capped at ``max_candidates``, and the engine keeps the best ``edges_per_hop``;
the kept edges' new endpoints form the next frontier. Each hop's candidate and kept counts are
recorded (:class:`~ragprov.record.HopStats`). Labels are what the engine sees; the trace records
the original IRIs and typed literals.

>>> from ragprov.store import open_store
>>> store = open_store("memory:")
>>> store.update('''INSERT DATA {
...   <urn:e:scrooge> <http://www.w3.org/2000/01/rdf-schema#label> "Ebenezer Scrooge" .
...   <urn:e:marley> <http://www.w3.org/2000/01/rdf-schema#label> "Jacob Marley" .
...   <urn:e:scrooge> <urn:rel:partnerOf> <urn:e:marley> . }''')
>>> pipeline = GraphRag(store)
>>> events = list(pipeline.run("Who was Ebenezer Scrooge's partner?"))
>>> [e.stage for e in events if e.type == "explain"]
['question', 'grounding', 'exploration', 'focus', 'synthesis']
>>> print(pipeline.result.answer.splitlines()[0])
The answer is Jacob Marley.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from pyoxigraph import NamedNode, Triple

from ..errors import ConfigurationError
from ..llm.engine import EdgeText, Mention, Passage
from ..record import EdgeSelection, HopStats
from ..record.events import Event, Source
from ..retrieve import EdgeOrigin, term_text
from ..retrieve.lexical import content_tokens
from .base import Pipeline, Tokens
from .cited import cited_passages, wants_text

__all__ = ["DESCRIBED_TERMS", "DESCRIPTION_CITES", "GraphRag", "GraphRagParams", "fact_text"]

#: how many of the chunks an entity was found in cite its description (the first ones, in chunk order)
DESCRIPTION_CITES = 3
#: how many of the question's words a seed's description must say to be weighed
DESCRIBED_TERMS = 2


def fact_text(edge: EdgeText) -> str:
    """A selected fact as a sentence-like line: ``S p O`` for a short predicate label, and
    ``S → O: label`` when the predicate's label is itself a description (GraphRAG relationships
    are singleton properties labelled with their description).

    >>> fact_text(EdgeText("FRED", "Fred is Scrooge's nephew.", "EBENEZER SCROOGE"))
    "FRED → EBENEZER SCROOGE: Fred is Scrooge's nephew."
    >>> fact_text(EdgeText("Ebenezer Scrooge", "partner of", "Jacob Marley"))
    'Ebenezer Scrooge partner of Jacob Marley'
    """
    predicate = " ".join(edge.predicate.split())
    text = f"{edge.subject} → {edge.object}: {predicate}" if len(predicate.split()) >= 4 else f"{edge.subject} {predicate} {edge.object}"
    if edge.description:
        text += f" ({' '.join(edge.description.split())})"
    return text


@dataclasses.dataclass(frozen=True)
class GraphRagParams:
    """Retrieval limits, with TrustGraph's defaults."""

    entity_limit: int = 50
    triple_limit: int = 30
    max_hops: int = 2
    edges_per_hop: int = 25
    max_candidates: int = 350
    #: how many of the best seeds' own descriptions join the first hop's candidates (0: none;
    #: seeds the question names are passed over: it asks about them, not for them)
    described_seeds: int = 10

    def __post_init__(self) -> None:
        if self.described_seeds < 0:
            raise ConfigurationError(f"GraphRAG described seeds must be at least 0, got {self.described_seeds}")
        for name in ("entity_limit", "triple_limit", "max_hops", "edges_per_hop", "max_candidates"):
            if getattr(self, name) < 1:
                raise ConfigurationError(f"GraphRAG {name.replace('_', ' ')} must be at least 1, got {getattr(self, name)}")


@dataclasses.dataclass
class _Kept:
    edge: Triple
    text: EdgeText
    score: float
    concept: str | None
    reasoning: str | None
    hop: int


class GraphRag(Pipeline):
    """The GraphRAG pipeline over one store. ``run(question)`` yields the events of one session;
    afterwards :attr:`result` holds the answer, sources, tokens and per-stage timings."""

    kind = "graph-rag"

    params_type = GraphRagParams
    #: the seeds' description facts the last expansion weighed (replaced by each run's expansion;
    #: none before the first): :meth:`origins` reads the chunks to cite the kept ones by
    _described: tuple[Triple, ...] = ()

    def _open(self, question: str, used: NamedNode | None):
        return self.recorder.graph_rag(question, model=self.engine.model, used=used)

    def run(self, question: str, *, used: NamedNode | None = None) -> Iterator[Event]:
        """Answer ``question``, yielding one explain event per recorded stage, chunk events for the
        answer text, and an end-of-session event. ``used`` is the agent Analysis this run serves."""
        trace, concepts = yield from self._begin(question, used)
        result = self.result
        timings, tokens = result.timings, result.tokens
        _engine, reader, params = self.engine, self.reader, self.params

        with timings.measure("index"):
            index = reader.entity_index()
        with timings.measure("seeds"):
            seeds = index.search(concepts, limit=params.entity_limit)

        # the seeds the question does not name were found by what their descriptions say
        asked = set(content_tokens(question))
        unnamed = [(s.iri, s.label) for s in seeds if not set(content_tokens(s.label or "")) <= asked][: params.described_seeds]
        kept, hops, explored, prompt, scoring_tokens = self._expand([s.iri for s in seeds], question, concepts, unnamed)
        tokens.add(scoring_tokens.in_token, scoring_tokens.out_token)

        with timings.measure("record"):
            event = trace.exploration([s.iri for s in seeds], edge_count=explored, hops=hops)
        result.last = trace.last
        yield event

        kept.sort(key=lambda k: (-k.score, k.hop))
        selections = [EdgeSelection(k.edge, reasoning=k.reasoning, score=k.score, concept=k.concept) for k in kept]
        with timings.measure("record"):
            event = trace.focus(
                selections,
                in_token=scoring_tokens.in_token if scoring_tokens.reported else None,
                out_token=scoring_tokens.out_token if scoring_tokens.reported else None,
                prompt=prompt,
            )
        result.last = trace.last
        result.selected = len(selections)
        yield event

        with timings.measure("lineage"):
            origins = self.origins([k.edge for k in kept])
        passages, result.sources = self._passages(kept, origins)
        selection_iris = getattr(trace, "selection_iris", [])
        passages = self._evidence(passages, kept, selection_iris)
        # the chunks the kept facts cite that say the most of the question (the count, time, reason
        # or act asked is in the sentence more often than in the fact); for an entity question, with
        # the names each says (a number or a time is read from the text itself)
        with timings.measure("lineage"):
            cited = self._cited(question, kept, origins, selection_iris)
        if not wants_text(question) and cited:
            named = self._named_in([p.text for p in cited])
            cited = [dataclasses.replace(p, mentions=m) for p, m in zip(cited, named, strict=True)]
        passages += cited

        yield from self._synthesize(trace, question, passages, kind="facts")

    # -- expansion -----------------------------------------------------------------------------
    def _expand(self, seeds: Sequence[NamedNode], question: str, concepts: Sequence[str],
                described: Sequence[tuple[NamedNode, str | None]] = ()):
        params, reader, engine, timings = self.params, self.reader, self.engine, self.result.timings
        # the first hop also weighs the descriptions of the best seeds the question does not name:
        # what an entity is ("ambitious and meticulous", "skeptical of …") is a fact of the graph
        # the neighbourhood leaves out, and the one the question found it by
        self._described = tuple(self._descriptions(described, question))
        frontier = list(seeds)
        visited: set[NamedNode] = set(frontier)
        seen_edges: set[Triple] = set()
        kept: list[_Kept] = []
        hops: list[HopStats] = []
        spent = Tokens()
        prompt: str | None = None
        explored = 0
        for hop in range(1, params.max_hops + 1):
            if not frontier:
                break
            with timings.measure("expand"):
                candidates: list[Triple] = []
                for _, edge in reader.neighbourhood(frontier, limit=params.triple_limit):
                    if edge not in seen_edges:
                        seen_edges.add(edge)
                        candidates.append(edge)
                descriptions = [d for d in self._described if d not in seen_edges][: params.max_candidates] if hop == 1 else []
                candidates = candidates[: params.max_candidates - len(descriptions)] + descriptions
                seen_edges.update(descriptions)
            explored += len(candidates)
            with timings.measure("labels"):
                labels = reader.labels([t for e in candidates for t in (e.subject, e.predicate, e.object) if isinstance(t, NamedNode)])
            texts = [
                EdgeText(term_text(e.subject, labels), term_text(e.predicate, labels), term_text(e.object, labels))
                for e in candidates
            ]
            with timings.measure("scoring"):
                step = engine.score_edges(question, concepts, texts, keep=params.edges_per_hop) if candidates else None
            choices = step.value if step else []
            if step:
                spent.add(step.in_token, step.out_token)
                spent.reported = spent.reported or step.in_token is not None or step.out_token is not None
                prompt = step.prompt
            hops.append(HopStats(hop, len(candidates), len(choices)))
            next_frontier: list[NamedNode] = []
            for c in choices:
                edge = candidates[c.index]
                kept.append(_Kept(edge, texts[c.index], c.score, c.concept, c.reasoning, hop))
                for node in (edge.subject, edge.object):
                    if isinstance(node, NamedNode) and node not in visited:
                        visited.add(node)
                        next_frontier.append(node)
            frontier = next_frontier[: params.entity_limit]
        return kept, hops, explored, prompt, spent

    def _descriptions(self, entities: Sequence[tuple[NamedNode, str | None]], question: str) -> list[Triple]:
        """The description facts of ``entities`` (``(entity, label)`` pairs; one fact per entity,
        the first in a stable order) that say at least :data:`DESCRIBED_TERMS` of the question's
        words besides the entity's own name (one shared word, such as the "company" of "which
        company …", says little; a description repeating the name the question matched says
        nothing more), in ``entities``' order. Only the facts: :meth:`origins` reads the chunks
        to cite the few an answer keeps by."""
        if not entities:
            return []
        with self.result.timings.measure("labels"):
            found = self.reader.descriptions([e for e, _ in entities])
        asked = set(content_tokens(question))
        facts = []
        for e, label in entities:
            said = asked & set(content_tokens(term_text(found[e][0].object, {}))) if e in found else set()
            if len(said - set(content_tokens(label or ""))) >= DESCRIBED_TERMS:
                facts.append(found[e][0])
        return facts

    def origins(self, edges: Sequence[Triple]) -> dict[Triple, list[EdgeOrigin]]:
        """Where each of the last run's kept facts came from: an extracted edge from its
        statements' chunks (:meth:`FactsReader.edge_sources`), a seed's description from the first
        :data:`DESCRIPTION_CITES` chunks its entity was found in (by chunk index:
        :meth:`FactsReader.description_origins`, read for these descriptions only and bounded per
        entity in the store)."""
        reader = self.reader
        origins = reader.edge_sources(edges) if edges else {}
        described = [e for e in edges if e in self._described and not origins.get(e)]
        if described:
            found = reader.description_origins([e.subject for e in described if isinstance(e.subject, NamedNode)],
                                               limit=DESCRIPTION_CITES)
            for e in described:
                origins[e] = found.get(e.subject, [])[:DESCRIPTION_CITES] if isinstance(e.subject, NamedNode) else []
        return origins

    def _evidence(self, passages: list[Passage], kept: Sequence[_Kept], selections: Sequence[NamedNode]) -> list[Passage]:
        """The passages as structured evidence: each names its edge selection (the trace's item)
        and the entities at its ends, with their types where the graph has them."""
        nodes = [t for k in kept for t in (k.edge.subject, k.edge.object) if isinstance(t, NamedNode)]
        with self.result.timings.measure("labels"):
            types = self.reader.entity_types(nodes) if nodes else {}
        described = set(self.reader.schema.description_predicates)
        out = []
        for n, (p, k) in enumerate(zip(passages, kept, strict=False)):
            # a description is about its entity alone (its text is not a name)
            about = k.edge.predicate in described and not isinstance(k.edge.object, NamedNode)
            mentions = tuple(
                Mention(text, types.get(node) if isinstance(node, NamedNode) else None, node.value if isinstance(node, NamedNode) else None)
                for node, text in ((k.edge.subject, k.text.subject), (k.edge.object, k.text.object))
                if text and (isinstance(node, NamedNode) or (node is k.edge.object and not about))
            )
            item = selections[n].value if n < len(selections) else None
            text = f"{k.text.subject}: {' '.join(k.text.object.split())}" if about else p.text
            out.append(dataclasses.replace(p, text=text, kind="entity" if about else "fact", item=item, mentions=mentions))
        return out

    def _cited(self, question: str, kept: Sequence[_Kept], origins: dict[Triple, list[EdgeOrigin]],
               selections: Sequence[NamedNode]) -> list[Passage]:
        """The chunks the kept facts were extracted from that say the most of the question, each
        naming as its item the selection of the best kept fact that cites it: the answer rests on
        an item of the trace, whose lineage (edge → statement → chunk) leads to that chunk."""
        through: dict[str, str] = {}
        for n, k in enumerate(kept):
            for o in origins.get(k.edge, []):
                if o.chunk and n < len(selections):
                    through.setdefault(o.chunk.value, selections[n].value)
        chunks = [o.chunk for k in kept for o in origins.get(k.edge, []) if o.chunk]
        return [dataclasses.replace(p, item=through.get(p.item or "", p.item)) for p in cited_passages(self.reader, question, chunks)]

    # -- sources and answer context ------------------------------------------------------------
    @staticmethod
    def _passages(kept: Sequence[_Kept], origins: dict[Triple, list[EdgeOrigin]]) -> tuple[list[Passage], tuple[Source, ...]]:
        passages: list[Passage] = []
        sources: list[Source] = []
        for k in kept:
            where = origins.get(k.edge, [])
            for origin in where:
                if origin.source not in sources:
                    sources.append(origin.source)
            passages.append(Passage(fact_text(k.text), " ;; ".join(o.citation() for o in where[:3]) or None))
        return passages, tuple(sources)
