"""``ragprov traces`` and ``ragprov trace show|delete|incomplete``."""

from __future__ import annotations

import datetime as _dt
import sys

import click

from ..clock import parse_time
from ..errors import InvalidValueError
from ..namespaces import TG
from ..navigate import TRACE_KINDS, Navigator
from ..navigate.render import stage_lines, trace_dot, trace_mermaid, trace_text
from . import cli
from .common import echo_json, print_table, with_store


def _parse_time(value: str) -> _dt.datetime:
    return parse_time(value)


@cli.command("traces")
@click.option("--type", "kind", type=click.Choice(sorted(TRACE_KINDS)), default=None, help="Only traces of this kind.")
@click.option("--since", default=None, help="Only traces started at or after this ISO date-time.")
@click.option("--limit", type=click.IntRange(1, 100000), default=20, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@with_store(read_only=True)
def traces_command(store, kind, since, limit, fmt):
    """List top-level traces, newest first."""
    rows = Navigator(store).list_traces(kind=kind, since=_parse_time(since) if since else None, limit=limit)
    if fmt == "json":
        echo_json([{**r.to_dict(), "status": "complete" if r.complete else "incomplete"} for r in rows])
        return
    table = [
        (
            r.started.strftime("%Y-%m-%d %H:%M:%S") if r.started else "?",
            r.kind,
            "complete" if r.complete else "incomplete",
            r.question.value,
            r.query,
        )
        for r in rows
    ]
    print_table(("started", "type", "status", "trace", "question"), table)
    if not rows:
        click.echo("no traces (run `ragprov ask …` or `ragprov demo` to record some)", err=True)


@cli.group("trace")
def trace_group():
    """Show, delete and audit recorded traces."""


@trace_group.command("show")
@click.argument("question")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "mermaid", "dot", "html", "prov-json", "prov-n"]), default="text",
              show_default=True, help="html: the explorer's trace view as one self-contained file (no server needed); "
              "prov-json, prov-n: a W3C PROV document (needs the prov extra: pip install 'ragprov[prov]').")
@click.option("--show-provenance", is_flag=True, help="Walk each selected edge to the documents it came from.")
@click.option("--facts-graph", default=None, help="The named graph holding the facts, if not the default graph.")
@with_store(read_only=True)
def trace_show(store, question, fmt, show_provenance, facts_graph):
    """Show one trace: its question and every stage in order."""
    from pyoxigraph import NamedNode

    if fmt == "html":
        from ..serve.page import trace_html

        click.echo(trace_html(store, question, facts_graph=NamedNode(facts_graph) if facts_graph else None))
        return
    nav = Navigator(store)
    if fmt in ("prov-json", "prov-n"):
        from ..navigate.prov import serialize, trace_document

        click.echo(serialize(trace_document(nav, question), fmt))
        return
    trace = nav.trace(question)
    if fmt == "json":
        data = trace.to_dict()
        if show_provenance:
            chains = _source_chains(store, trace)
            for stage in data["stages"]:
                for sel in stage["selections"]:
                    sel["sources"] = [chain.to_json() for chain in chains.get(sel["iri"], [])]
        echo_json(data)
        return
    facts = NamedNode(facts_graph) if facts_graph else None
    edges = [sel.edge for st in trace.stages for sel in st.selections if sel.edge is not None]
    entities = [e for st in trace.stages for e in st.node.values(TG.entity)]
    items = list(dict.fromkeys(sel.item for st in trace.stages for sel in st.selections if sel.item is not None))
    labels = nav.labels(edges + entities + items, facts_graph=facts)
    if fmt == "mermaid":
        click.echo(trace_mermaid(trace, labels))
    elif fmt == "dot":
        click.echo(trace_dot(trace, labels))
    else:
        sources = None
        if show_provenance:
            chains = _source_chains(store, trace)
            by_edge = {}
            for st in trace.stages:
                for sel in st.selections:
                    if sel.edge is not None:
                        by_edge[str(sel.edge)] = [str(chain) for chain in chains.get(sel.iri.value, [])]
            sources = lambda edge: by_edge.get(str(edge), []) or ["(no recorded source)"]  # noqa: E731
        click.echo(trace_text(trace, labels, sources=sources))


def _source_chains(store, trace) -> dict:
    """Selection IRI → its source chains (edge → statement → chunk → page → document)."""
    from ..navigate.lineage import Lineage

    selections = [sel for st in trace.stages for sel in st.selections if sel.edge is not None]
    chains = Lineage(store).edges_sources([sel.edge for sel in selections])  # one query for all edges
    return {sel.iri.value: chains[sel.edge] for sel in selections}


@trace_group.command("stage")
@click.argument("stage")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--facts-graph", default=None, help="The named graph holding the facts, if not the default graph.")
@with_store(read_only=True)
def trace_stage(store, stage, fmt, facts_graph):
    """Show one stage of a trace in detail, with every edge or chunk it selected."""
    from pyoxigraph import NamedNode

    nav = Navigator(store)
    shown = nav.stage(stage)
    if fmt == "json":
        echo_json(shown.to_dict())
        return
    edges = [sel.edge for sel in shown.selections if sel.edge is not None]
    items = list(dict.fromkeys(sel.item for sel in shown.selections if sel.item is not None))
    labels = nav.labels(edges + shown.node.values(TG.entity) + items, facts_graph=NamedNode(facts_graph) if facts_graph else None)
    click.echo("\n".join(stage_lines(shown, labels)))


def _on_a_terminal() -> bool:
    """Whether someone can answer a question (standard input is a terminal)."""
    return sys.stdin.isatty()


@trace_group.command("delete")
@click.argument("question", required=False)
@click.option("--before", default=None, help="Delete every top-level trace started before this ISO date-time.")
@click.option("--dry-run", is_flag=True, help="With --before: say how many traces would go, delete nothing.")
@click.option("--yes", "-y", is_flag=True, help="With --before: do not ask for confirmation on a terminal.")
@with_store(create=False)
def trace_delete(store, question, before, dry_run, yes):
    """Delete one trace (with its sub-traces and content), or all traces older than --before.

    With --before, the number of traces is told first; on a terminal you are asked to confirm.
    """
    nav = Navigator(store)
    if (question is None) == (before is None):
        raise InvalidValueError("give either a trace's question IRI or --before DATE, not both or neither")
    if question is not None:
        if dry_run:
            raise InvalidValueError("--dry-run goes with --before (one trace: `ragprov trace show` it first)")
        nav.delete(question)
        click.echo(f"deleted {question}")
        return
    when = _parse_time(before)
    n = nav.count_before(when)
    what = f"{n} top-level trace(s) started before {when.isoformat()} (with their sub-traces)"
    if dry_run or n == 0:
        click.echo(f"{'would delete' if n else 'nothing to delete:'} {what}")
        return
    if not yes and _on_a_terminal() and not click.confirm(f"delete {what}?", default=False, err=True):
        raise click.exceptions.Abort()
    nav.delete_before(when)
    click.echo(f"deleted {what}")


@trace_group.command("incomplete")
@click.option("--before", default=None, help="Only traces started before this ISO date-time.")
@click.option("--limit", type=click.IntRange(1, 100000), default=100, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@with_store(read_only=True)
def trace_incomplete(store, before, limit, fmt):
    """Traces that never ended (crashed or abandoned sessions), oldest first."""
    rows = Navigator(store).incomplete(before=_parse_time(before) if before else None, limit=limit)
    if fmt == "json":
        echo_json([{**s.to_dict(), "stages": n} for s, n in rows])
        return
    for s, n in rows:
        click.echo(f"{s.started.isoformat() if s.started else '?'}  {s.kind}  {n} stages  {s.query!r}  {s.question.value}")
