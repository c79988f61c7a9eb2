"""Typed views of stored traces, assembled from ``?node ?p ?o`` rows of the navigation queries.

The rows come back in the store's dialect; :func:`describe` folds them into one description per
node and, in the ``reification`` dialect, turns the deterministic ``rdf:Statement`` nodes back into
:class:`~pyoxigraph.Triple` terms, so every view holds the same RDF 1.2 model whatever the store.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
from collections import defaultdict
from collections.abc import Callable, Iterable

from pyoxigraph import Literal, NamedNode, Triple

from ..labels import local_name
from ..namespaces import PROV, RDF, RDFS, TG
from ..sparql.dialect import RDF_OBJECT, RDF_PREDICATE, RDF_SUBJECT, STATEMENT_PREFIX

__all__ = ["Node", "Selection", "Stage", "Trace", "TraceSummary", "describe", "local_name"]

_TG = str(TG)
_STAGE_TYPES = ("Grounding", "CommunitySelection", "Exploration", "Focus", "Synthesis", "Analysis", "Observation", "Conclusion",
                # TrustGraph's supervisor and plan-then-execute agents (read as they are; not ragprov's own stages)
                "Decomposition", "Finding", "Plan", "StepResult")
_QUESTION_TYPES = (
    "GraphRagQuestion",
    "DocRagQuestion",
    "AgentQuestion",
    "LocalSearchQuestion",
    "GlobalSearchQuestion",
    "DriftSearchQuestion",
    "BasicSearchQuestion",
)


@dataclasses.dataclass
class Node:
    """Everything the rows said about one node: property IRI → values, in the order of their
    N-Triples spelling (RDF values are a set; engines answer them in different orders)."""

    iri: NamedNode
    props: dict[str, list] = dataclasses.field(default_factory=lambda: defaultdict(list))

    def values(self, prop: NamedNode) -> list:
        return self.props.get(prop.value, [])

    def first(self, prop: NamedNode):
        values = self.values(prop)
        return values[0] if values else None

    def types(self) -> set[str]:
        """The node's rdf:type IRIs (computed once: a node is complete once ``describe`` made it)."""
        types = self.__dict__.get("_types")
        if types is None:
            types = self.__dict__["_types"] = {t.value for t in self.values(RDF.type) if isinstance(t, NamedNode)}
        return types


def describe(rows: Iterable[dict]) -> dict[str, Node]:
    """Fold ``?node ?p ?o`` rows into nodes; reified statements become triple terms."""
    nodes: dict[str, Node] = {}
    for row in rows:
        if "p" not in row:  # an OPTIONAL look-up that found nothing
            continue
        node = row["node"]
        entry = nodes.get(node.value)
        if entry is None:
            entry = nodes[node.value] = Node(node)
        values = entry.props[row["p"].value]
        if row["o"] not in values:
            values.append(row["o"])
    for entry in nodes.values():
        for values in entry.props.values():
            if len(values) > 1:
                values.sort(key=str)
    statements: dict[str, Triple] = {}
    for key, node in nodes.items():
        if key.startswith(STATEMENT_PREFIX):
            s, p, o = node.first(RDF_SUBJECT), node.first(RDF_PREDICATE), node.first(RDF_OBJECT)
            if s is not None and p is not None and o is not None:
                statements[key] = Triple(s, p, o)
    if statements:
        for node in nodes.values():
            for prop, values in node.props.items():
                node.props[prop] = [
                    statements.get(v.value, v) if isinstance(v, NamedNode) else v for v in values
                ]
        for key in statements:
            del nodes[key]
    return nodes


def _literal_value(term):
    if term is None:
        return None
    if isinstance(term, Literal):
        dt = term.datatype.value
        if dt.endswith("#integer"):
            return int(term.value)
        if dt.endswith("#double") or dt.endswith("#decimal"):
            return float(term.value)
        if dt.endswith("#dateTime"):
            return _dt.datetime.fromisoformat(term.value.replace("Z", "+00:00"))
        return term.value
    return term


def _as_time(text: str) -> _dt.datetime:
    t = _dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=_dt.timezone.utc)


def _as_bool(text: str) -> bool:
    value = {"true": True, "1": True, "false": False, "0": False}.get(text.strip().lower())
    if value is None:
        raise ValueError(f"not a boolean: {text!r}")
    return value


def _as_int(text: str) -> int:
    number = float(text)
    return int(number) if number.is_integer() else round(number)


_PARSERS: dict[str, Callable[[str], object]] = {
    **dict.fromkeys((PROV.startedAtTime.value, PROV.endedAtTime.value, PROV.generatedAtTime.value), _as_time),
    **dict.fromkeys((TG.score.value,), float),
    **dict.fromkeys(
        (TG.rank.value, TG.edgeCount.value, TG.chunkCount.value, TG.tokenCount.value, TG.inToken.value, TG.outToken.value,
         TG.stepNumber.value, TG.llmDurationMs.value, TG.toolDurationMs.value, TG.level.value),
        _as_int,
    ),
    TG.kept.value: lambda text: _as_bool(text),
}


def property_value(prop: NamedNode, term):
    """A literal of ``prop`` as the Python value the property holds (a time, a count, a score),
    whatever its datatype: TrustGraph writes plain string literals (``"0.93"``, ``"17"``, an ISO
    time) where ragprov writes typed ones. A value that does not parse stays None rather than a
    string in a number's place.

    >>> property_value(TG.score, Literal("0.93")), property_value(TG.edgeCount, Literal("17"))
    (0.93, 17)
    >>> property_value(PROV.startedAtTime, Literal("2026-11-20T10:00:00.5Z")).isoformat()
    '2026-11-20T10:00:00.500000+00:00'
    >>> property_value(TG.score, Literal("high")) is None
    True
    """
    parse = _PARSERS.get(prop.value)
    if parse is None or not isinstance(term, Literal):
        return _literal_value(term)
    try:
        return parse(term.value)
    except ValueError:
        return None


# The property IRIs a selection is read by, as the strings Node.props is keyed by (a NamedNode's
# .value makes a new string at each access; a trace has hundreds of selections).
(_K_RANK, _K_EDGE, _K_CHUNK, _K_DOCUMENT, _K_REASONING, _K_SCORE, _K_CONCEPT, _K_ITEM, _K_ITEM_KIND, _K_TOKENS, _K_CONTENT,
 _K_REPORT, _K_KEPT, _K_LEVEL) = (
    t.value for t in (TG.rank, TG.edge, TG.chunk, TG.document, TG.reasoning, TG.score, TG.concept, TG.item, TG.itemKind,
                      TG.tokenCount, TG.content, TG.report, TG.kept, TG.level)
)


@dataclasses.dataclass
class Selection:
    """One kept thing of a stage: an edge (EdgeSelection), a chunk (ChunkSelection), a Microsoft
    GraphRAG index item (ItemSelection: entity, relationship, report, text unit, claim), a map
    point, or a community report a dynamic community selection rated (ReportRating: ``item`` is
    the report, ``score`` its rating, ``kept`` whether it was kept, ``level`` its community level,
    ``reasoning`` the LLM's reason)."""

    iri: NamedNode
    rank: int | None
    edge: Triple | None = None
    chunk: NamedNode | None = None
    reasoning: str | None = None
    score: float | None = None
    concept: str | None = None
    item: NamedNode | None = None
    item_kind: str | None = None
    tokens: int | None = None
    content: str | None = None
    kept: bool | None = None
    level: int | None = None

    @classmethod
    def from_node(cls, node: Node) -> Selection:
        props = node.props

        def first(key: str):
            values = props.get(key)
            return values[0] if values else None

        rating = _TG + "ReportRating" in node.types()
        return cls(
            iri=node.iri,
            rank=property_value(TG.rank, first(_K_RANK)),
            edge=first(_K_EDGE),
            chunk=first(_K_CHUNK) or (first(_K_DOCUMENT) if _TG + "ChunkSelection" in node.types() else None),
            reasoning=_literal_value(first(_K_REASONING)),
            score=property_value(TG.score, first(_K_SCORE)),
            concept=_literal_value(first(_K_CONCEPT)),
            item=first(_K_ITEM) or (first(_K_REPORT) if rating else None),
            item_kind=_literal_value(first(_K_ITEM_KIND)) or ("report" if rating else None),
            tokens=property_value(TG.tokenCount, first(_K_TOKENS)),
            content=_literal_value(first(_K_CONTENT)),
            kept=property_value(TG.kept, first(_K_KEPT)) if rating else None,
            level=property_value(TG.level, first(_K_LEVEL)) if rating else None,
        )

    def to_dict(self) -> dict:
        from ..record.events import term_to_wire

        return {
            "iri": self.iri.value,
            "rank": self.rank,
            "edge": term_to_wire(self.edge) if self.edge is not None else None,
            "chunk": self.chunk.value if self.chunk is not None else None,
            "reasoning": self.reasoning,
            "score": self.score,
            "concept": self.concept,
            "item": self.item.value if self.item is not None else None,
            "item_kind": self.item_kind,
            "tokens": self.tokens,
            "content": self.content,
            "kept": self.kept,
            "level": self.level,
        }


@dataclasses.dataclass(frozen=True)
class WeighedCandidate:
    """A candidate answer a Synthesis weighed: its name, rank, score, whether it was chosen, its
    entity type, why it scored as it did and the evidence items that support it."""

    iri: NamedNode
    name: str
    rank: int | None
    score: float | None
    chosen: bool
    type: str | None = None
    reasoning: str | None = None
    supported_by: tuple[NamedNode, ...] = ()

    def to_dict(self) -> dict:
        return {"iri": self.iri.value, "name": self.name, "rank": self.rank, "score": self.score, "chosen": self.chosen,
                "type": self.type, "reasoning": self.reasoning, "supported_by": [n.value for n in self.supported_by]}


def _candidates(node: Node, nodes: dict[str, Node]) -> list[WeighedCandidate]:
    chosen = {v.value for v in node.values(TG.chosenCandidate)}
    out = []
    for v in node.values(TG.weighedCandidate):
        c = nodes.get(v.value)
        if c is None or not isinstance(v, NamedNode):
            continue
        label, rank, score = c.first(RDFS.label), c.first(TG.rank), c.first(TG.score)
        out.append(WeighedCandidate(
            v, label.value if label is not None else local_name(v.value),
            int(rank.value) if rank is not None else None, float(score.value) if score is not None else None,
            v.value in chosen, c.first(TG.entityType).value if c.first(TG.entityType) is not None else None,
            c.first(TG.reasoning).value if c.first(TG.reasoning) is not None else None,
            tuple(x for x in c.values(TG.supportedBy) if isinstance(x, NamedNode)),
        ))
    return sorted(out, key=lambda c: (not c.chosen, c.rank is None, c.rank or 0, c.name))


@dataclasses.dataclass
class Stage:
    """One stage entity of a trace, with its selections and its library content (a Synthesis:
    also the candidate answers it weighed, the chosen one first)."""

    iri: NamedNode
    kind: str  # Grounding, CommunitySelection, Exploration, Focus, Synthesis, Analysis, Observation, Conclusion
    types: list[str]
    generated: _dt.datetime | None
    derived_from: list[NamedNode]
    node: Node
    selections: list[Selection]
    content: str | None
    subtraces: list[TraceSummary] = dataclasses.field(default_factory=list)
    candidates: list[WeighedCandidate] = dataclasses.field(default_factory=list)

    def value(self, prop: NamedNode):
        return property_value(prop, self.node.first(prop))

    def values(self, prop: NamedNode) -> list:
        return [property_value(prop, v) for v in self.node.values(prop)]

    def to_dict(self) -> dict:
        from ..record.events import term_to_wire

        props = {
            local_name(p): [term_to_wire(v) for v in vs]
            for p, vs in self.node.props.items()
            if p not in (RDF.type.value, TG.selectedEdge.value, TG.selectedItem.value, TG.hop.value, TG.rated.value,
                         TG.weighedCandidate.value)
        }
        return {
            "iri": self.iri.value,
            "kind": self.kind,
            "types": self.types,
            "generated": self.generated.isoformat() if self.generated else None,
            "derived_from": [d.value for d in self.derived_from],
            "properties": props,
            "selections": [s.to_dict() for s in self.selections],
            "content": self.content,
            "subtraces": [t.to_dict() for t in self.subtraces],
            "candidates": [c.to_dict() for c in self.candidates],
        }


@dataclasses.dataclass
class TraceSummary:
    """One row of the trace list: what was asked, of which kind, when, and whether it ended."""

    question: NamedNode
    kind: str
    query: str
    started: _dt.datetime | None
    ended: _dt.datetime | None = None
    model: str | None = None
    answered: bool = False
    """A trace built by TrustGraph, which records no end time, reached its end stage (a Synthesis or
    a Conclusion: ``queries/trace/answered``)."""

    @property
    def complete(self) -> bool:
        """Ended (its session's end time), or, built by TrustGraph, answered."""
        return self.ended is not None or self.answered

    def to_dict(self) -> dict:
        return {
            "question": self.question.value,
            "kind": self.kind,
            "query": self.query,
            "started": self.started.isoformat() if self.started else None,
            "ended": self.ended.isoformat() if self.ended else None,
            "model": self.model,
        }


@dataclasses.dataclass
class Trace:
    """A whole trace: the question and its stages in derivation order."""

    summary: TraceSummary
    stages: list[Stage]

    @property
    def question(self) -> NamedNode:
        return self.summary.question

    def stage(self, kind: str) -> Stage:
        for s in self.stages:
            if s.kind == kind:
                return s
        raise KeyError(kind)

    @property
    def answer(self) -> str | None:
        for s in reversed(self.stages):
            if s.kind in ("Synthesis", "Conclusion"):
                return s.content
        return None

    def to_dict(self) -> dict:
        return {**self.summary.to_dict(), "stages": [s.to_dict() for s in self.stages]}


def question_kind(node: Node) -> str:
    for t in _QUESTION_TYPES:
        if _TG + t in node.types():
            return t
    return "Question"


def summary_of(node: Node, session: Node | None = None) -> TraceSummary:
    """The summary of a question; times and model come from the ``session`` activity that used it
    (or, in traces recorded before that shape, from the question activity itself)."""
    activity = session or node
    return TraceSummary(
        question=node.iri,
        kind=question_kind(node),
        query=_literal_value(node.first(TG.query)) or "",
        started=property_value(PROV.startedAtTime, activity.first(PROV.startedAtTime)),
        ended=property_value(PROV.endedAtTime, activity.first(PROV.endedAtTime)),
        model=_literal_value(activity.first(TG.llmModel)),
    )


def session_of(question: NamedNode, nodes: dict[str, Node]) -> Node | None:
    """The retrieval session activity among ``nodes`` that used ``question``, if any."""
    for node in nodes.values():
        if PROV.Activity.value in node.types() and any(u == question for u in node.values(PROV.used)):
            return node
    return None


def _content(doc, nodes: dict[str, Node]) -> str | None:
    """The text of a library document, or of the document a Thought entity points to."""
    node = nodes.get(doc.value)
    if node is None:
        return None
    text = node.first(TG.content)
    if text is None and node.first(TG.document) is not None:
        return _content(node.first(TG.document), nodes)
    return _literal_value(text)


def _natural_key(text: str) -> tuple:
    """``text`` split into its runs of digits (compared as numbers) and of other characters."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.findall(r"\d+|\D+", text))


_AGENT_STEPS = {_TG + t for t in ("Analysis", "Observation", "Conclusion", "Decomposition", "Finding", "Plan", "StepResult")}


def _sub_trace_stages(question: NamedNode, nodes: dict[str, Node]) -> dict[str, str | None]:
    """The nodes the derivation walk from ``question`` reaches that belong to another trace, each
    with the stage of this trace its sub-trace hangs from (None: the caller's, past this trace).

    Only traces read along their derivations need it (traces built by TrustGraph, see
    ``queries/trace/_stages.j2``): an agent step's sub-trace question derives from the step, and the
    next observation derives from the sub-trace's synthesis. As TrustGraph's reader does, a
    sub-trace is the stages after its question up to the next agent step, where its caller goes on.
    """
    children: dict[str, list[str]] = defaultdict(list)
    for key, node in nodes.items():
        for parent in node.values(PROV.wasDerivedFrom):
            if isinstance(parent, NamedNode):
                children[parent.value].append(key)
    own: set[str] = set()
    foreign: dict[str, str | None] = {}
    todo: list[tuple[str, tuple[str, ...], str | None]] = [(question.value, (question.value,), None)]
    seen: set[tuple[str, tuple[str, ...]]] = set()
    while todo:
        key, owners, anchor = todo.pop()
        if (key, owners) in seen:
            continue
        seen.add((key, owners))
        for child in children[key]:
            types = nodes[child].types()
            inner, hang = owners, anchor
            if _TG + "Question" in types:
                inner, hang = (*owners, child), (key if owners == (question.value,) else anchor)
            elif types & _AGENT_STEPS and owners and _TG + "AgentQuestion" not in nodes[owners[-1]].types():
                inner = owners[:-1]  # an agent step after a sub-trace: back to the caller
            if inner == (question.value,):
                own.add(child)
            else:
                foreign[child] = hang
            todo.append((child, inner, hang))
    return {k: v for k, v in foreign.items() if k not in own}


def stage_of(node: Node, nodes: dict[str, Node]) -> Stage:
    types = node.types()
    kind = next((t for t in _STAGE_TYPES if _TG + t in types), "Entity")
    links = [
        v
        for prop in (TG.selectedEdge, TG.selectedItem, TG.selectedChunk, TG.point, TG.rated)
        for v in node.values(prop)
        if v.value in nodes  # an Exploration's selectedChunk names extraction chunks, not selections
    ]
    # by rank; TrustGraph writes none: then by the index its selection IRIs end with (…:0, …:1, … :10)
    selections = [Selection.from_node(nodes[v.value]) for v in links if v.value in nodes]
    ranks = [s.rank for s in selections]
    if None in ranks or len(set(ranks)) < len(ranks):  # ties (or no rank): the IRIs' natural order decides
        selections.sort(key=lambda s: (s.rank is None, s.rank or 0, _natural_key(s.iri.value)))
    else:
        selections.sort(key=lambda s: s.rank or 0)  # every rank set and distinct
    content = None
    for prop in (TG.document, TG.thought, TG.observation):
        doc = node.first(prop)
        if doc is not None and doc.value in nodes:
            content = _content(doc, nodes)
            break
    return Stage(
        iri=node.iri,
        kind=kind,
        types=sorted(local_name(t) for t in types),
        generated=property_value(PROV.generatedAtTime, node.first(PROV.generatedAtTime)),
        derived_from=[d for d in node.values(PROV.wasDerivedFrom) if isinstance(d, NamedNode)],
        node=node,
        selections=selections,
        content=content,
        candidates=_candidates(node, nodes),
    )


def assemble(question: NamedNode, nodes: dict[str, Node]) -> Trace | None:
    """The trace rooted at ``question``, stages ordered along their derivations."""
    qnode = nodes.get(question.value)
    if qnode is None or _TG + "Question" not in qnode.types():
        return None
    stage_nodes = {
        k: n
        for k, n in nodes.items()
        if PROV.Entity.value in n.types()
        and not n.types() & {_TG + "Question", _TG + "Thought", _TG + "Document", _TG + "AnswerCandidate"}
    }
    others = _sub_trace_stages(question, nodes) if session_of(question, nodes) is None else {}
    stages = {k: stage_of(n, nodes) for k, n in stage_nodes.items() if k not in others}
    # Order: the stage generated by the question first, then each stage after its predecessor.
    followers: dict[str, list[str]] = defaultdict(list)
    first = []
    waiting: dict[str, int] = {}
    analyses = {s.value(TG.stepNumber): k for k, s in stages.items() if s.kind == "Analysis"}
    for key, stage in stages.items():
        # a stage derived from a sub-trace's last stage follows the step that ran the sub-trace
        preds = [p for d in stage.derived_from if (p := others.get(d.value, d.value)) in stages]
        if not preds and stage.derived_from and stage.kind == "Observation":
            # derived from the last stage of a sub-trace: it follows the Analysis of its step
            step = analyses.get(stage.value(TG.stepNumber))
            preds = [step] if step is not None else []
        preds = sorted(set(preds))
        waiting[key] = len(preds)
        if not preds:
            first.append(key)
        for p in preds:
            followers[p].append(key)
    # A stage comes after every stage it derives from (a reranked DocRAG Synthesis derives from the
    # Exploration and the Focus): Kahn's order, ties by generation time then IRI.
    ordered: list[Stage] = []
    seen: set[str] = set()
    queue = sorted(first, key=lambda k: (stages[k].generated or _dt.datetime.min.replace(tzinfo=_dt.timezone.utc), k))
    while queue:
        key = queue.pop(0)
        if key in seen:
            continue
        seen.add(key)
        ordered.append(stages[key])
        for nxt in sorted(followers[key]):
            waiting[nxt] -= 1
            if waiting[nxt] <= 0:
                queue.append(nxt)
    ordered.extend(stages[k] for k in sorted(stages) if k not in seen)  # a cycle: never lose a stage
    # Sub-traces called by agent analyses.
    for node in nodes.values():
        if _TG + "Question" in node.types() and node.iri != question:
            for used in node.values(PROV.wasDerivedFrom) + node.values(PROV.used):
                if used.value in stages:
                    stages[used.value].subtraces.append(summary_of(node))
    session = session_of(question, nodes)
    summary = summary_of(qnode, session)
    # built by TrustGraph (no session, no end time): complete when it reached its end stage (its own
    # stages only: a sub-trace's Synthesis is not the agent's end)
    summary.answered = session is None and any(s.kind in ("Synthesis", "Conclusion") for s in ordered)
    return Trace(summary, ordered)
