"""Human-readable lines for the live explain stream (what ``ragprov ask -x`` prints per stage):
one small renderer per stage kind.

Works from the event alone — the stage's inline triples — plus a label look-up for IRIs, so a
client needs no query to follow a session as it runs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable

from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from ..labels import readable_name, shorten
from ..namespaces import PROV, TG
from ..record.events import EndOfSession, Event, ExplainEvent, Source
from ..retrieve.terms import source_citation

__all__ = ["describe", "stage_properties"]

Labeler = Callable[[Iterable[NamedNode]], dict[NamedNode, str]]
Citer = Callable[[Source], str]
Groups = dict[NamedNode | BlankNode | Triple, dict[NamedNode, list]]


def stage_properties(event: ExplainEvent) -> Groups:
    """The event's triples grouped by subject, then predicate (objects in written order)."""
    out: Groups = {}
    for t in event.explain_triples:
        out.setdefault(t.subject, {}).setdefault(t.predicate, []).append(t.object)
    return out


def _one(props: dict, predicate: NamedNode):
    values = props.get(predicate) or []
    return values[0] if values else None


def _val(term) -> str:
    return term.value if isinstance(term, (Literal, NamedNode)) else str(term)


def _label(term, labels: dict) -> str:
    if isinstance(term, Literal):
        return repr(term.value) if len(term.value) < 60 else repr(term.value[:57] + "...")
    if isinstance(term, NamedNode):
        return shorten(labels.get(term) or readable_name(term.value), 120)
    return str(term)


@dataclasses.dataclass(frozen=True)
class _Stage:
    """One explain event as the stage renderers read it: its properties, the other nodes' ones,
    the ``[stage] <iri>`` head, and how to label IRIs."""

    props: dict[NamedNode, list]
    groups: Groups
    head: str
    labeler: Labeler
    max_edges: int | None

    def node(self, term) -> dict[NamedNode, list]:
        return self.groups.get(term, {})


def describe(event: Event, labeler: Labeler | None = None, *, max_edges: int | None = None, cite: Citer | None = None) -> list[str]:
    """The lines to print for ``event`` (may be empty, e.g. for answer chunks); ``max_edges``
    shortens a long focus to its best edges; ``cite`` names a source (``title, p. N, chunk K``,
    e.g. :meth:`FactsReader.citation <ragprov.retrieve.FactsReader.citation>`).

    >>> from pyoxigraph import NamedNode
    >>> end = EndOfSession(NamedNode("urn:q"), 3, 4, (Source(NamedNode("urn:d"), "carol.txt", 2, NamedNode("urn:c")),))
    >>> describe(end, cite=lambda s: source_citation(s, 33))
    ['tokens: 3 in, 4 out', 'sources (1):', '  - carol.txt, p. 2, chunk 33', 'trace: urn:q']
    """
    if isinstance(event, EndOfSession):
        return _end_of_session(event, cite or source_citation, max_edges)
    if not isinstance(event, ExplainEvent):  # answer chunks and anything newer print nothing
        return []
    groups = stage_properties(event)
    stage = _Stage(groups.get(event.explain_id, {}), groups, f"[{event.stage}] <{event.explain_id.value}>",
                   labeler or (lambda nodes: {}), max_edges)
    if event.stage == "question":
        return _question(stage, event.explain_id)
    render = _STAGES.get(event.stage)
    return render(stage) if render is not None else [stage.head]


def _end_of_session(event: EndOfSession, cite: Citer, max_edges: int | None) -> list[str]:
    lines = [f"tokens: {event.in_token} in, {event.out_token} out"]
    if event.sources:
        lines.append(f"sources ({len(event.sources)}):")
        shown = event.sources if max_edges is None else event.sources[:max_edges]
        for s in shown:
            lines.append("  - " + cite(s))
        if len(shown) < len(event.sources):
            lines.append(f"  … and {len(event.sources) - len(shown)} more (--format json lists them all)")
    lines.append(f"trace: {event.trace.value}")
    return lines


def _question(stage: _Stage, question: NamedNode) -> list[str]:
    props = stage.props
    # the session activity that used the question holds the model (docs/trace-shape.md)
    session = next((p for p in stage.groups.values() if question in p.get(PROV.used, [])), {})
    model = _one(session, TG.llmModel) or _one(props, TG.llmModel)
    used = _one(props, PROV.wasDerivedFrom) or _one(props, PROV.used)
    lines = [stage.head, f"  question: {_val(_one(props, TG.query))}"]
    if model is not None:
        lines.append(f"  model: {_val(model)}")
    if used is not None:
        lines.append(f"  sub-trace of: <{used.value}>")
    return lines


def _grounding(stage: _Stage) -> list[str]:
    concepts = [_val(c) for c in stage.props.get(TG.concept, [])]
    return [stage.head, f"  concepts: {', '.join(concepts) if concepts else '(none)'}", *_tokens(stage.props)]


def _exploration(stage: _Stage) -> list[str]:
    props = stage.props
    if TG.candidate in props or TG.batch in props:
        return [stage.head, *_explored_candidates(stage)]
    if TG.edgeCount in props:
        return [stage.head, *_explored_hops(stage)]
    chunks = props.get(TG.selectedChunk, [])
    lines = [stage.head, f"  chunks retrieved: {_val(_one(props, TG.chunkCount))}"]
    names = stage.labeler(chunks[:10])
    for c in chunks[:10]:
        lines.append(f"    {names.get(c) or '<' + c.value + '>'}")
    return lines


def _some_entities(entities: list, labels: dict) -> str:
    return ", ".join(_label(e, labels) for e in entities[:12]) + (" …" if len(entities) > 12 else "")


def _explored_candidates(stage: _Stage) -> list[str]:
    """Microsoft GraphRAG's local and global search: candidates by kind, report batches."""
    props, lines = stage.props, []
    entities = list(props.get(TG.entity, []))
    labels = stage.labeler(entities)
    if entities:
        lines.append(f"  entities ({len(entities)}): " + _some_entities(entities, labels))
    if TG.embeddingModel in props or TG.prompt in props:  # local search: how the question was mapped to them
        from ..retrieve.entity_search import describe_ranking

        model, method = _one(props, TG.embeddingModel), _one(props, TG.prompt)
        lines.append("  entities ranked by: " + describe_ranking(_val(method) if method is not None else None,
                                                                 _val(model) if model is not None else None))
    kinds: dict[str, int] = {}
    for item in props.get(TG.candidate, []):
        kind = re.sub(r"[:/][^:/]*$", "", item.value).rsplit(":", 1)[-1] if isinstance(item, NamedNode) else "?"
        kinds[kind] = kinds.get(kind, 0) + 1
    by_kind = " (" + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")" if kinds else ""
    lines.append(f"  candidates: {_val(_one(props, TG.candidateCount))}" + by_kind)
    batches = props.get(TG.batch, [])
    if batches:
        sizes = [len(stage.node(b).get(TG.report, [])) for b in batches]
        lines.append(f"  report batches: {len(batches)} (" + ", ".join(str(n) for n in sizes) + " reports)")
    return lines


def _explored_hops(stage: _Stage) -> list[str]:
    """GraphRAG: the seed entities, the edges explored, and each hop's candidates and kept."""
    props = stage.props
    entities = list(props.get(TG.entity, []))
    shown = _some_entities(entities, stage.labeler(entities))
    lines = [f"  seed entities ({len(entities)}): {shown or '(none)'}",
             f"  edges explored: {_val(_one(props, TG.edgeCount))}"]
    hops = sorted(
        (int(_val(_one(stage.node(h), TG.hopNumber) or Literal("0"))),
         _val(_one(stage.node(h), TG.candidateCount) or Literal("?")),
         _val(_one(stage.node(h), TG.keptCount) or Literal("?")))
        for h in props.get(TG.hop, [])
    )
    for n, cand, kept in hops:
        lines.append(f"  hop {n}: {cand} candidates, {kept} kept")
    return lines


def _rank(props: dict) -> int:
    return int(_val(_one(props, TG.rank) or Literal("0")))


def _focus(stage: _Stage) -> list[str]:
    props = stage.props
    edges, items = props.get(TG.selectedEdge, []), props.get(TG.selectedItem, [])
    points, chunks = props.get(TG.selectedPoint, []), props.get(TG.selectedChunk, [])
    lines = [stage.head]
    if edges:
        lines += _focus_edges(stage, edges)
    if items:
        lines += _focus_items(stage, items)
    if points:
        lines.append(f"  map points kept by the reduce step: {len(points)}")
    if chunks:
        lines += _focus_chunks(stage, chunks)
    if not edges and not chunks and not items and not points:
        lines.append("  nothing selected")
    return lines + _tokens(props)


def _focus_edges(stage: _Stage, edges: list) -> list[str]:
    sels = sorted(((_rank(stage.node(sel)), stage.node(sel)) for sel in edges), key=lambda x: x[0])
    terms = [t for _, sp in sels for e in [_one(sp, TG.edge)] if isinstance(e, Triple)
             for t in (e.subject, e.predicate, e.object) if isinstance(t, NamedNode)]
    labels = stage.labeler(terms)
    lines = [f"  selected edges ({len(sels)}):"]
    max_edges = stage.max_edges
    hidden = len(sels) - max_edges if max_edges is not None and len(sels) > max_edges else 0
    if hidden:
        sels = sels[:max_edges]
    for rank, sp in sels:
        lines += _edge_lines(rank, sp, labels)
    if hidden:
        lines.append(f"  … and {hidden} more (see the trace)")
    return lines


def _edge_lines(rank: int, sp: dict, labels: dict) -> list[str]:
    edge = _one(sp, TG.edge)
    text = (f"{_label(edge.subject, labels)} —{_label(edge.predicate, labels)}→ {_label(edge.object, labels)}"
            if isinstance(edge, Triple) else _val(edge))
    score, concept, reasoning = _one(sp, TG.score), _one(sp, TG.concept), _one(sp, TG.reasoning)
    lines = [f"  {rank:>3}. {text}"]
    detail = []
    if score is not None:
        detail.append(f"score {float(_val(score)):.3f}")
    if concept is not None:
        detail.append(f"concept '{_val(concept)}'")
    if detail:
        lines.append(f"       {', '.join(detail)}")
    if reasoning is not None:
        lines.append(f"       why: {shorten(_val(reasoning), 200)}")
    return lines


def _focus_items(stage: _Stage, items: list) -> list[str]:
    rows = []
    for sel in items:
        sp = stage.node(sel)
        rows.append((_rank(sp), _val(_one(sp, TG.itemKind) or Literal("?")), _one(sp, TG.item), _one(sp, TG.tokenCount),
                     _one(sp, TG.score)))
    rows.sort(key=lambda r: r[0])
    labels = stage.labeler([r[2] for r in rows if isinstance(r[2], NamedNode)])
    lines = [f"  context items kept ({len(rows)}):"]
    max_edges = stage.max_edges
    for rank, kind, item, tokens, score in rows[: max_edges or len(rows)]:
        t = f", {_val(tokens)} tokens" if tokens is not None else ""
        # a text unit's score is its similarity to the question (basic search); other kinds' are ranking keys
        s = f", similarity {float(_val(score)):.3f}" if score is not None and kind == "text_unit" else ""
        lines.append(f"  {rank:>3}. {kind}: {_label(item, labels)}{t}{s}")
    if max_edges is not None and len(rows) > max_edges:
        lines.append(f"  … and {len(rows) - max_edges} more (see the trace)")
    return lines


def _focus_chunks(stage: _Stage, chunks: list) -> list[str]:
    lines = [f"  kept chunks ({len(chunks)}):"]
    rows = [(_rank(stage.node(sel)), _one(stage.node(sel), TG.chunk), _one(stage.node(sel), TG.score)) for sel in chunks]
    names = stage.labeler([c for _, c, _ in rows if isinstance(c, NamedNode)])
    for rank, chunk, score in sorted(rows, key=lambda r: r[0]):
        s = f" score {float(_val(score)):.3f}" if score is not None else ""
        lines.append(f"  {rank:>3}. {names.get(chunk) or '<' + _val(chunk) + '>'}{s}")
    return lines


def _answer(stage: _Stage) -> list[str]:
    props = stage.props
    doc = _one(props, TG.document)
    lines = [stage.head]
    if doc is not None:
        content = _one(stage.node(doc), TG.content)
        lines.append(f"  answer: <{doc.value}>" + (f" ({len(_val(content))} characters)" if content is not None else ""))
    reason = _one(props, TG.terminationReason)
    if reason is not None:
        lines.append(f"  termination: {_val(reason)}")
    return lines + _tokens(props)


def _map(stage: _Stage) -> list[str]:
    pts = []
    for pt in stage.props.get(TG.point, []):
        pp = stage.node(pt)
        pts.append((-float(_val(_one(pp, TG.score) or Literal("0"))), _val(_one(pp, TG.content) or Literal(""))))
    lines = [stage.head, f"  points ({len(pts)}):"]
    for neg, text in sorted(pts)[:5]:
        lines.append(f"    {-neg:6.2f}  {shorten(text, 160)}")
    return lines + _tokens(stage.props)


def _community_selection(stage: _Stage) -> list[str]:
    """Dynamic community selection: how many reports were rated and kept, per level, and the kept ones."""
    rows = []
    for r in stage.props.get(TG.rated, []):
        rp = stage.node(r)
        level = _one(rp, TG.level)
        rows.append((_rank(rp), _one(rp, TG.report), int(_val(level)) if level is not None else None,
                     float(_val(_one(rp, TG.score) or Literal("0"))), _val(_one(rp, TG.kept) or Literal("false")) in ("true", "1")))
    rows.sort(key=lambda r: r[0])
    kept = [r for r in rows if r[4]]
    lines = [stage.head, f"  rated {len(rows)} reports, kept {len(kept)} (threshold {_val(_one(stage.props, TG.threshold))})"]
    levels = sorted({r[2] for r in rows if r[2] is not None})
    for level in levels:
        at = [r for r in rows if r[2] == level]
        lines.append(f"  level {level}: {len(at)} rated, {sum(1 for r in at if r[4])} kept")
    labels = stage.labeler([r[1] for r in kept if isinstance(r[1], NamedNode)])
    shown = kept[: stage.max_edges or len(kept)]
    for rank, report, _, rating, _ in shown:
        lines.append(f"  {rank:>3}. rating {rating:g}: {_label(report, labels)}")
    if len(shown) < len(kept):
        lines.append(f"  … and {len(kept) - len(shown)} more (see the trace)")
    return lines + _tokens(stage.props)


def _drift_action(stage: _Stage) -> list[str]:
    props = stage.props
    lines = [stage.head, f"  query: {_val(_one(props, TG.query))} (depth {_val(_one(props, TG.depth))})"]
    score = _one(props, TG.score)
    if score is not None:
        lines.append(f"  score: {float(_val(score)):.2f}")
    ups = [_val(q) for q in props.get(TG.followUp, [])]
    if ups:
        lines.append(f"  follow-ups: {'; '.join(ups)}")
    sub = _one(props, TG.subTrace)
    if sub is not None:
        lines.append(f"  answered by: <{sub.value}>")
    return lines


def _analysis(stage: _Stage) -> list[str]:
    props = stage.props
    lines = [stage.head]
    thought_doc = _one(props, TG.thought)
    thought = _one(stage.node(thought_doc), TG.content) if thought_doc is not None else None
    if thought is not None:
        lines.append(f"  thought: {shorten(_val(thought), 200)}")
    lines.append(f"  action: {_val(_one(props, TG.action))} {_val(_one(props, TG.arguments) or Literal(''))}")
    return lines + _tokens(props)


def _observation(stage: _Stage) -> list[str]:
    props = stage.props
    lines = [stage.head]
    error = _one(props, TG.toolError)
    if error is not None:
        lines.append(f"  tool error: {shorten(_val(error), 200)}")
    obs_doc = _one(props, TG.observation)
    content = _one(stage.node(obs_doc), TG.content) if obs_doc is not None else None
    if content is not None and _val(content):
        lines.append(f"  observation: {shorten(_val(content), 200)}")
    duration = _one(props, TG.duration)
    if duration is not None:
        lines.append(f"  duration: {_val(duration)}")
    return lines


_STAGES: dict[str, Callable[[_Stage], list[str]]] = {
    "grounding": _grounding,
    "exploration": _exploration,
    "focus": _focus,
    "synthesis": _answer,
    "conclusion": _answer,
    "map": _map,
    "community-selection": _community_selection,
    "drift-action": _drift_action,
    "analysis": _analysis,
    "observation": _observation,
}


def _tokens(props: dict) -> list[str]:
    i, o = _one(props, TG.inToken), _one(props, TG.outToken)
    parts = []
    if i is not None or o is not None:
        parts.append(f"  tokens: {_val(i) if i is not None else '?'} in, {_val(o) if o is not None else '?'} out")
    prompt = _one(props, TG.prompt)
    if prompt is not None:
        parts.append(f"  prompt: {_val(prompt)}")
    return parts
