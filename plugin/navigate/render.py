"""Showing a trace to a person: plain text, Mermaid and Graphviz DOT.

>>> from pyoxigraph import NamedNode, Triple
>>> edge_text(Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partner"), NamedNode("urn:e:marley")), {"urn:e:scrooge": "Scrooge"})
'Scrooge —partner→ marley'
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pyoxigraph import Literal, NamedNode, Triple

from ..labels import iri_label, local_name, shorten
from ..namespaces import TG
from .model import Stage, Trace

__all__ = ["edge_text", "term_text", "trace_dot", "trace_mermaid", "trace_text"]

Labels = dict[str, str]


def term_text(term, labels: Labels | None = None, *, width: int = 100) -> str:
    """A term for people: its label (shortened to ``width``), else its IRI's local name."""
    labels = labels or {}
    if isinstance(term, NamedNode):
        return iri_label(term, labels, width=width)
    if isinstance(term, Literal):
        return json.dumps(shorten(term.value, width - 2), ensure_ascii=False)
    if isinstance(term, Triple):
        return edge_text(term, labels, width=width)
    return str(term)


def edge_text(edge: Triple, labels: Labels | None = None, *, width: int = 100) -> str:
    """``subject —predicate→ object`` by label where known (IRIs stay in the trace); each part
    shortened to ``width`` so the object is never cut off."""
    return (
        f"{term_text(edge.subject, labels, width=width)} —{term_text(edge.predicate, labels, width=width)}→ "
        f"{term_text(edge.object, labels, width=width)}"
    )


_SUBAGENT_GOAL = NamedNode(str(TG) + "subagentGoal")
_PLAN_STEP = NamedNode(str(TG) + "planStep")


def stage_lines(stage: Stage, labels: Labels | None = None, *, sources: Callable[[Triple], list[str]] | None = None) -> list[str]:
    """The lines that describe one stage (used live by ``ask -x`` and by ``trace show``)."""
    lines = [f"{stage.kind}  <{stage.iri.value}>"]
    concepts = stage.values(TG.concept)
    if concepts:
        lines.append("  concepts: " + ", ".join(concepts))
    ranking = stage.value(TG.prompt) if stage.kind == "Exploration" else None
    if ranking is not None or stage.value(TG.embeddingModel) is not None:  # local search: how the question met its entities
        from ..retrieve.entity_search import describe_ranking

        lines.append("  entities ranked by: " + describe_ranking(ranking, stage.value(TG.embeddingModel)))
    if stage.value(TG.edgeCount) is not None:
        entities = stage.node.values(TG.entity)
        shown = ", ".join(term_text(e, labels) for e in entities[:10]) + (" …" if len(entities) > 10 else "")
        lines.append(f"  explored {stage.value(TG.edgeCount)} edges from {len(entities)} entities: {shown}")
    for prop, label in ((_SUBAGENT_GOAL, "goal"), (_PLAN_STEP, "step")):  # TrustGraph's supervisor and plan agents
        for goal in stage.values(prop):
            lines.append(f"  {label}: {shorten(goal)}")
    if stage.value(TG.chunkCount) is not None:
        lines.append(f"  retrieved {stage.value(TG.chunkCount)} chunks")
    if stage.node.first(TG.threshold) is not None:
        rated = [sel for sel in stage.selections if sel.kept is not None]
        lines.append(f"  rated {len(rated)} community reports, kept {sum(1 for sel in rated if sel.kept)} "
                     f"(relevant: rating at least {stage.value(TG.threshold):g})")
    for n, sel in enumerate(stage.selections, start=1):
        rank = sel.rank if sel.rank is not None else n  # TrustGraph records no rank: the order kept
        if sel.edge is not None:
            score = f"  score {sel.score:.3f}" if sel.score is not None else ""
            concept = f"  concept {sel.concept!r}" if sel.concept else ""
            lines.append(f"  #{rank} {edge_text(sel.edge, labels)}{score}{concept}")
            if sel.reasoning:
                lines.append(f"      why: {shorten(sel.reasoning)}")
            if sources is not None:
                for src in sources(sel.edge):
                    lines.append(f"      from: {src}")
        elif sel.chunk is not None:
            score = f"  score {sel.score:.3f}" if sel.score is not None else ""
            lines.append(f"  #{rank} chunk <{sel.chunk.value}>{score}")
        elif sel.item is not None and sel.kept is not None:  # a report a dynamic community selection rated
            level = f"  level {sel.level}" if sel.level is not None else ""
            rating = f"  rating {sel.score:g}" if sel.score is not None else ""
            threshold = stage.value(TG.threshold)
            relevant = sel.score is not None and threshold is not None and sel.score >= threshold
            verdict = "kept" if sel.kept else "relevant, its children kept instead" if relevant else "dropped"
            lines.append(f"  #{rank} report {term_text(sel.item, labels)}{level}{rating}  {verdict}")
            if sel.reasoning:
                lines.append(f"      why: {shorten(sel.reasoning)}")
        elif sel.item is not None:
            score = f"  score {sel.score:.3f}" if sel.score is not None else ""
            tokens = f"  {sel.tokens} tokens" if sel.tokens is not None else ""
            lines.append(f"  #{rank} {sel.item_kind or 'item'} {term_text(sel.item, labels)}{score}{tokens}")
        elif sel.content is not None:
            score = f"  score {sel.score:g}" if sel.score is not None else ""
            lines.append(f"  point{score}: {shorten(sel.content)}")
    action = stage.value(TG.action)
    if action is not None:
        if stage.content is not None:  # TrustGraph keeps the text in its librarian, outside the graph
            lines.append(f"  thought: {shorten(stage.content)}")
        lines.append(f"  action: {action} {stage.value(TG.arguments) or ''}")
    elif stage.content is not None:
        label = "answer" if stage.kind in ("Synthesis", "Conclusion") else "content"
        lines.append(f"  {label}: {shorten(stage.content, 400)}")
    stated = stage.value(TG.statedAnswer)
    if stated is not None or stage.candidates:
        kind = stage.value(TG.questionKind)
        lines.append(f"  stated answer: {stated if stated is not None else '(none: the data does not answer)'}"
                     + (f"  ({kind} question)" if kind else ""))
    if stage.candidates:
        # why this answer and not another: the weighed candidates, best first, with their reasons
        lines.append(f"  candidates weighed ({len(stage.candidates)}):")
        for c in stage.candidates[:6]:
            mark = "chosen" if c.chosen else "rejected"
            score = f"  score {c.score:.3f}" if c.score is not None else ""
            typ = f"  {c.type}" if c.type else ""
            place = str(c.rank) if c.rank is not None else "-"
            lines.append(f"    {place:>2}. {shorten(c.name, 60)}{typ}{score}  {mark}, {len(c.supported_by)} supporting item(s)")
            if c.reasoning:
                lines.append(f"        why: {shorten(c.reasoning)}")
    error = stage.value(TG.toolError)
    if error:
        lines.append(f"  tool error: {shorten(error)}")
    reason = stage.value(TG.terminationReason)
    if reason:
        lines.append(f"  terminated: {reason}")
    counts = [stage.value(TG.inToken), stage.value(TG.outToken)]
    if any(t is not None for t in counts):
        lines.append(f"  tokens: in {counts[0] or 0}, out {counts[1] or 0}")
    for sub in stage.subtraces:
        lines.append(f"  sub-trace: {sub.kind} <{sub.question.value}> {sub.query!r}")
    return lines


def trace_text(trace: Trace, labels: Labels | None = None, *, sources: Callable[[Triple], list[str]] | None = None) -> str:
    s = trace.summary
    answered = any(st.kind in ("Synthesis", "Conclusion") for st in trace.stages)
    ended = s.ended.isoformat() if s.ended else "not recorded" if answered else "not ended (incomplete)"
    head = [
        f"{s.kind}  <{s.question.value}>",
        f"  question: {s.query}",
        f"  started: {s.started.isoformat() if s.started else '?'}   ended: {ended}",
    ]
    if s.model:
        head.append(f"  model: {s.model}")
    body = []
    for n, stage in enumerate(trace.stages, start=1):
        lines = stage_lines(stage, labels, sources=sources)
        body.append(f"{n}. {lines[0]}")
        body.extend("   " + line for line in lines[1:])
    return "\n".join(head + body)


def _node_id(n: int) -> str:
    return f"n{n}"


COLUMNS = 5
"""Selections are drawn in rows of this many under their stage, so a 25-edge trace stays narrow."""
LABEL_WIDTH = 28
"""Each line of a node's label is at most this many characters."""


def _selection_lines(sel, labels: Labels | None) -> list[str]:
    """A selection's label as at most three short lines: ``#rank subject`` / ``predicate`` / ``→ object``."""
    w = LABEL_WIDTH
    if sel.edge is not None:
        return [
            shorten(f"#{sel.rank} {term_text(sel.edge.subject, labels, width=w)}", w),
            shorten(term_text(sel.edge.predicate, labels, width=w), w),
            shorten(f"→ {term_text(sel.edge.object, labels, width=w)}", w),
        ]
    if sel.item is not None and sel.kept is not None:
        return [shorten(f"#{sel.rank} report, rating {sel.score:g}" if sel.score is not None else f"#{sel.rank} report", w),
                shorten(term_text(sel.item, labels, width=w), w)]
    if sel.item is not None:
        return [shorten(f"#{sel.rank} {sel.item_kind or 'item'}", w), shorten(term_text(sel.item, labels, width=w), w)]
    return [shorten(f"#{sel.rank} {local_name(sel.chunk or sel.iri)}", w)]


def _graph_parts(trace: Trace, labels: Labels | None):
    """(nodes, edges, groups) of the provenance chain, laid out top-down.

    ``nodes``: (id, label lines); ``edges``: (from, to, label, visible); ``groups``: (id, title,
    node ids) — each stage's selections, in rows of :data:`COLUMNS` joined by invisible edges so a
    layout engine stacks them instead of spreading them in one row."""
    nodes: list[tuple[str, list[str]]] = [(_node_id(0), [trace.summary.kind, shorten(trace.summary.query, 2 * LABEL_WIDTH)])]
    edges: list[tuple[str, str, str, bool]] = []
    groups: list[tuple[str, str, list[str]]] = []
    ids = {trace.question.value: _node_id(0)}
    for stage in trace.stages:
        ids[stage.iri.value] = _node_id(len(ids))
        nodes.append((ids[stage.iri.value], [stage.kind]))
    for stage in trace.stages:
        sid = ids[stage.iri.value]
        derived = [d for d in stage.derived_from if d.value in ids]
        if derived:
            for d in derived:
                edges.append((ids[d.value], sid, "derived", True))
        else:
            edges.append((ids[trace.question.value], sid, "generated", True))
        members: list[str] = []
        # a dynamic community selection draws the reports it kept (every rating is in `trace show`)
        rated = [sel for sel in stage.selections if sel.kept is not None]
        shown = [sel for sel in stage.selections if sel.kept is None or sel.kept]
        for i, sel in enumerate(shown):
            nid = _node_id(len(ids))
            ids[sel.iri.value] = nid
            nodes.append((nid, _selection_lines(sel, labels)))
            if i < COLUMNS:
                edges.append((sid, nid, "selected", True))
            else:
                edges.append((members[i - COLUMNS], nid, "", False))
            members.append(nid)
        if members:
            of = f" of {len(rated)} rated" if rated else ""
            groups.append((f"g{sid}", f"kept by {stage.kind} ({len(members)}{of})", members))
    return nodes, edges, groups


def trace_mermaid(trace: Trace, labels: Labels | None = None) -> str:
    """A Mermaid flowchart, top-down; each stage's selections in a box, in rows of :data:`COLUMNS`."""
    nodes, edges, groups = _graph_parts(trace, labels)
    text = {nid: "<br/>".join(line.replace('"', "#quot;") for line in lines) for nid, lines in nodes}
    grouped = {nid for _, _, members in groups for nid in members}
    out = ["flowchart TD"]
    for nid, _ in nodes:
        if nid not in grouped:
            out.append(f'  {nid}["{text[nid]}"]')
    for gid, title, members in groups:
        out.append(f'  subgraph {gid}["{title}"]')
        out.append("    direction TB")
        out.extend(f'    {nid}["{text[nid]}"]' for nid in members)
        out.append("  end")
    for a, b, label, visible in edges:
        out.append(f"  {a} -->|{label}| {b}" if visible else f"  {a} ~~~ {b}")
    return "\n".join(out)


def trace_dot(trace: Trace, labels: Labels | None = None) -> str:
    """A Graphviz digraph, top-down; each stage's selections in a cluster, in rows of :data:`COLUMNS`."""
    nodes, edges, groups = _graph_parts(trace, labels)
    out = ["digraph trace {", "  rankdir=TB;", '  node [shape=box, style=rounded, fontname=Helvetica, fontsize=11];',
           "  edge [fontname=Helvetica, fontsize=9];"]
    grouped = {nid for _, _, members in groups for nid in members}
    label = {nid: json.dumps("\n".join(lines), ensure_ascii=False) for nid, lines in nodes}
    for nid, _ in nodes:
        if nid not in grouped:
            out.append(f"  {nid} [label={label[nid]}];")
    for gid, title, members in groups:
        out.append(f"  subgraph cluster_{gid} {{")
        out.append(f"    label={json.dumps(title, ensure_ascii=False)}; style=dashed; color=gray60;")
        out.extend(f"    {nid} [label={label[nid]}];" for nid in members)
        out.append("  }")
    for a, b, text, visible in edges:
        out.append(f"  {a} -> {b} [label={json.dumps(text)}];" if visible else f"  {a} -> {b} [style=invis];")
    out.append("}")
    return "\n".join(out)
