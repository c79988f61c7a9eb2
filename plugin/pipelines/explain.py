"""Human-readable lines for the live explain stream (what ``ragprov ask -x`` prints per stage).

Works from the event alone — the stage's inline triples — plus a label look-up for IRIs, so a
client needs no query to follow a session as it runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pyoxigraph import Literal, NamedNode, Triple

from ..namespaces import PROV, TG
from ..record.events import ChunkEvent, EndOfSession, Event, ExplainEvent, Source
from ..retrieve.terms import local_name, source_citation

__all__ = ["describe", "stage_properties"]

Labeler = Callable[[Iterable[NamedNode]], dict[NamedNode, str]]
Citer = Callable[[Source], str]


def stage_properties(event: ExplainEvent) -> dict[NamedNode, dict[NamedNode, list]]:
    """The event's triples grouped by subject, then predicate (objects in written order)."""
    out: dict[NamedNode, dict[NamedNode, list]] = {}
    for t in event.explain_triples:
        out.setdefault(t.subject, {}).setdefault(t.predicate, []).append(t.object)
    return out


def _one(props: dict, predicate: NamedNode):
    values = props.get(predicate) or []
    return values[0] if values else None


def _val(term) -> str:
    return term.value if isinstance(term, (Literal, NamedNode)) else str(term)


def _short(text: str, n: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _label(term, labels: dict) -> str:
    if isinstance(term, Literal):
        return repr(term.value) if len(term.value) < 60 else repr(term.value[:57] + "...")
    if isinstance(term, NamedNode):
        return _short(labels.get(term) or local_name(term.value), 120)
    return str(term)


def describe(event: Event, labeler: Labeler | None = None, *, max_edges: int | None = None, cite: Citer | None = None) -> list[str]:
    """The lines to print for ``event`` (may be empty, e.g. for answer chunks); ``max_edges``
    shortens a long focus to its best edges; ``cite`` names a source (``title, p. N, chunk K``,
    e.g. :meth:`FactsReader.citation <ragprov.retrieve.FactsReader.citation>`).

    >>> from pyoxigraph import NamedNode
    >>> end = EndOfSession(NamedNode("urn:q"), 3, 4, (Source(NamedNode("urn:d"), "carol.txt", 2, NamedNode("urn:c")),))
    >>> describe(end, cite=lambda s: source_citation(s, 33))
    ['tokens: 3 in, 4 out', 'sources (1):', '  - carol.txt, p. 2, chunk 33', 'trace: urn:q']
    """
    labeler = labeler or (lambda nodes: {})
    cite = cite or source_citation
    if isinstance(event, ChunkEvent):
        return []
    if isinstance(event, EndOfSession):
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
    if not isinstance(event, ExplainEvent):
        return []
    groups = stage_properties(event)
    props = groups.get(event.explain_id, {})
    stage = event.stage
    head = f"[{stage}] <{event.explain_id.value}>"
    if stage == "question":
        # the session activity that used the question holds the model (docs/trace-shape.md)
        session = next((p for node, p in groups.items() if event.explain_id in p.get(PROV.used, [])), {})
        model = _one(session, TG.llmModel) or _one(props, TG.llmModel)
        used = _one(props, PROV.wasDerivedFrom) or _one(props, PROV.used)
        lines = [head, f"  question: {_val(_one(props, TG.query))}"]
        if model is not None:
            lines.append(f"  model: {_val(model)}")
        if used is not None:
            lines.append(f"  sub-trace of: <{used.value}>")
        return lines
    if stage == "grounding":
        concepts = [_val(c) for c in props.get(TG.concept, [])]
        return [head, f"  concepts: {', '.join(concepts) if concepts else '(none)'}"] + _tokens(props)
    if stage == "exploration":
        entities = [e for e in props.get(TG.entity, [])]
        chunks = props.get(TG.selectedChunk, [])
        lines = [head]
        if TG.candidate in props or TG.batch in props:
            labels = labeler(entities)
            if entities:
                lines.append(f"  entities ({len(entities)}): " + ", ".join(_label(e, labels) for e in entities[:12]) + (" …" if len(entities) > 12 else ""))
            kinds: dict[str, int] = {}
            for item in props.get(TG.candidate, []):
                kind = re.sub(r"[:/][^:/]*$", "", item.value).rsplit(":", 1)[-1] if isinstance(item, NamedNode) else "?"
                kinds[kind] = kinds.get(kind, 0) + 1
            lines.append(f"  candidates: {_val(_one(props, TG.candidateCount))}" + (" (" + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")" if kinds else ""))
            batches = props.get(TG.batch, [])
            if batches:
                sizes = [len(groups.get(b, {}).get(TG.report, [])) for b in batches]
                lines.append(f"  report batches: {len(batches)} (" + ", ".join(str(n) for n in sizes) + " reports)")
        elif TG.edgeCount in props:
            labels = labeler(entities)
            shown = ", ".join(_label(e, labels) for e in entities[:12]) + (" …" if len(entities) > 12 else "")
            lines.append(f"  seed entities ({len(entities)}): {shown or '(none)'}")
            lines.append(f"  edges explored: {_val(_one(props, TG.edgeCount))}")
            hops = sorted(
                (int(_val(_one(groups.get(h, {}), TG.hopNumber) or Literal("0"))), _val(_one(groups.get(h, {}), TG.candidateCount) or Literal("?")), _val(_one(groups.get(h, {}), TG.keptCount) or Literal("?")))
                for h in props.get(TG.hop, [])
            )
            for n, cand, kept in hops:
                lines.append(f"  hop {n}: {cand} candidates, {kept} kept")
        else:
            lines.append(f"  chunks retrieved: {_val(_one(props, TG.chunkCount))}")
            names = labeler(chunks[:10])
            for c in chunks[:10]:
                lines.append(f"    {names.get(c) or '<' + c.value + '>'}")
        return lines
    if stage == "focus":
        lines = [head]
        edges = props.get(TG.selectedEdge, [])
        if edges:
            sels = []
            for sel in edges:
                sp = groups.get(sel, {})
                sels.append((int(_val(_one(sp, TG.rank) or Literal("0"))), sp))
            sels.sort(key=lambda x: x[0])
            terms = [t for _, sp in sels for e in [_one(sp, TG.edge)] if isinstance(e, Triple) for t in (e.subject, e.predicate, e.object) if isinstance(t, NamedNode)]
            labels = labeler(terms)
            lines.append(f"  selected edges ({len(sels)}):")
            hidden = len(sels) - max_edges if max_edges is not None and len(sels) > max_edges else 0
            if hidden:
                sels = sels[:max_edges]
            for rank, sp in sels:
                edge = _one(sp, TG.edge)
                text = f"{_label(edge.subject, labels)} —{_label(edge.predicate, labels)}→ {_label(edge.object, labels)}" if isinstance(edge, Triple) else _val(edge)
                score = _one(sp, TG.score)
                concept = _one(sp, TG.concept)
                lines.append(f"  {rank:>3}. {text}")
                detail = []
                if score is not None:
                    detail.append(f"score {float(_val(score)):.3f}")
                if concept is not None:
                    detail.append(f"concept '{_val(concept)}'")
                if detail:
                    lines.append(f"       {', '.join(detail)}")
                reasoning = _one(sp, TG.reasoning)
                if reasoning is not None:
                    lines.append(f"       why: {_short(_val(reasoning))}")
            if hidden:
                lines.append(f"  … and {hidden} more (see the trace)")
        items = props.get(TG.selectedItem, [])
        if items:
            rows = []
            for sel in items:
                sp = groups.get(sel, {})
                rows.append((int(_val(_one(sp, TG.rank) or Literal("0"))), _val(_one(sp, TG.itemKind) or Literal("?")), _one(sp, TG.item), _one(sp, TG.tokenCount)))
            rows.sort(key=lambda r: r[0])
            labels = labeler([r[2] for r in rows if isinstance(r[2], NamedNode)])
            lines.append(f"  context items kept ({len(rows)}):")
            for rank, kind, item, tokens in rows[: max_edges or len(rows)]:
                t = f", {_val(tokens)} tokens" if tokens is not None else ""
                lines.append(f"  {rank:>3}. {kind}: {_label(item, labels)}{t}")
            if max_edges is not None and len(rows) > max_edges:
                lines.append(f"  … and {len(rows) - max_edges} more (see the trace)")
        points = props.get(TG.selectedPoint, [])
        if points:
            lines.append(f"  map points kept by the reduce step: {len(points)}")
        chunks = props.get(TG.selectedChunk, [])
        if chunks:
            lines.append(f"  kept chunks ({len(chunks)}):")
            rows = []
            for sel in chunks:
                sp = groups.get(sel, {})
                rows.append((int(_val(_one(sp, TG.rank) or Literal("0"))), _one(sp, TG.chunk), _one(sp, TG.score)))
            names = labeler([c for _, c, _ in rows if isinstance(c, NamedNode)])
            for rank, chunk, score in sorted(rows, key=lambda r: r[0]):
                s = f" score {float(_val(score)):.3f}" if score is not None else ""
                lines.append(f"  {rank:>3}. {names.get(chunk) or '<' + _val(chunk) + '>'}{s}")
        if not edges and not chunks and not items and not points:
            lines.append("  nothing selected")
        return lines + _tokens(props)
    if stage in ("synthesis", "conclusion"):
        doc = _one(props, TG.document)
        lines = [head]
        if doc is not None:
            content = _one(groups.get(doc, {}), TG.content)
            lines.append(f"  answer: <{doc.value}>" + (f" ({len(_val(content))} characters)" if content is not None else ""))
        reason = _one(props, TG.terminationReason)
        if reason is not None:
            lines.append(f"  termination: {_val(reason)}")
        return lines + _tokens(props)
    if stage == "map":
        lines = [head]
        pts = []
        for pt in props.get(TG.point, []):
            pp = groups.get(pt, {})
            pts.append((-float(_val(_one(pp, TG.score) or Literal("0"))), _val(_one(pp, TG.content) or Literal(""))))
        lines.append(f"  points ({len(pts)}):")
        for neg, text in sorted(pts)[:5]:
            lines.append(f"    {-neg:6.2f}  {_short(text, 160)}")
        return lines + _tokens(props)
    if stage == "drift-action":
        lines = [head, f"  query: {_val(_one(props, TG.query))} (depth {_val(_one(props, TG.depth))})"]
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
    if stage == "analysis":
        lines = [head]
        thought_doc = _one(props, TG.thought)
        thought = _one(groups.get(thought_doc, {}), TG.content) if thought_doc is not None else None
        if thought is not None:
            lines.append(f"  thought: {_short(_val(thought))}")
        lines.append(f"  action: {_val(_one(props, TG.action))} {_val(_one(props, TG.arguments) or Literal(''))}")
        return lines + _tokens(props)
    if stage == "observation":
        lines = [head]
        error = _one(props, TG.toolError)
        if error is not None:
            lines.append(f"  tool error: {_short(_val(error))}")
        obs_doc = _one(props, TG.observation)
        content = _one(groups.get(obs_doc, {}), TG.content) if obs_doc is not None else None
        if content is not None and _val(content):
            lines.append(f"  observation: {_short(_val(content))}")
        duration = _one(props, TG.duration)
        if duration is not None:
            lines.append(f"  duration: {_val(duration)}")
        return lines
    return [head]


def _tokens(props: dict) -> list[str]:
    i, o = _one(props, TG.inToken), _one(props, TG.outToken)
    parts = []
    if i is not None or o is not None:
        parts.append(f"  tokens: {_val(i) if i is not None else '?'} in, {_val(o) if o is not None else '?'} out")
    prompt = _one(props, TG.prompt)
    if prompt is not None:
        parts.append(f"  prompt: {_val(prompt)}")
    return parts
