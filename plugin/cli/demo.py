"""``ragprov demo [--store PATH]``: the whole product in one command, offline.

Loads the bundled Microsoft GraphRAG output of *A Christmas Carol* (shipped in the package), asks a
few questions with live explanations (each answer's first line states it, with its citations),
shows one recorded trace, walks one selected edge down to the text it was extracted from, and
prints the commands to explore further. Needs no network and no LLM (the offline engine answers).
With ``--store PATH`` the store is kept for exploring.
"""

from __future__ import annotations

import re
import shlex

import click
from pyoxigraph import NamedNode

from ..errors import NotFoundError
from ..llm import OfflineEngine
from ..namespaces import TG
from ..pipelines import Agent, DocRag, GraphRag
from ..record import Recorder
from ..resources import data_dir
from ..store import open_store
from . import cli
from .ask import run_question

__all__ = ["QUESTIONS", "demo_command"]

#: (mode, question): every answer's first line names it (the test checks the names)
QUESTIONS = (
    ("graph-rag", "Who is Scrooge's nephew?"),
    ("graph-rag", "Who is Tiny Tim's father?"),
    ("doc-rag", "Who was Scrooge's business partner?"),
    ("agent", "Who is Scrooge's clerk?"),
)


def _name(term, labels: dict) -> str:
    """A term's label when it has one, else its IRI (or its N-Triples form)."""
    if isinstance(term, NamedNode):
        return labels.get(term, term.value)
    return str(term)


def _rule(title: str) -> None:
    click.secho(f"\n=== {title} " + "=" * max(0, 72 - len(title)), bold=True, err=True)


@cli.command("demo")
@click.option("--store", "location", default=None, help="Keep the demo's store in this directory (default: in memory, discarded).")
@click.option("--max-edges", type=click.IntRange(1, 1000), default=8, show_default=True, help="Selected edges shown per question.")
def demo_command(location: str | None, max_edges: int) -> None:
    """Load the bundled Christmas Carol GraphRAG output, ask questions with -x, show a trace and a lineage."""
    from ..loaders.graphrag import load_graphrag
    from ..navigate import Navigator
    from ..navigate.lineage import Lineage
    from ..navigate.render import trace_text
    from .load import _update_text_index

    dataset = data_dir() / "graphrag" / "christmas-carol-v3"
    if not dataset.is_dir():
        raise NotFoundError(f"the bundled dataset is missing from the installed package ({dataset}); reinstall ragprov")
    store = open_store(location or "memory:")
    try:
        _rule("1. Load: Microsoft GraphRAG output of 'A Christmas Carol' (bundled)")
        report = load_graphrag(store, dataset, show_progress=False)
        if getattr(report, "skipped", False):
            click.echo(f"already loaded in {location}", err=True)
        else:
            rows = ", ".join(f"{n} {t}" for t, n in report.rows.items() if n)
            click.echo(f"GraphRAG v{report.version} output: {rows}; {report.quads} quads written", err=True)
            _update_text_index(store)  # as `ragprov load` does: the first question finds the index current

        engine = OfflineEngine()
        recorder = Recorder(store)
        graph = GraphRag(store, engine=engine, recorder=recorder)
        docs = DocRag(store, engine=engine, recorder=recorder, reader=graph.reader)
        agent = Agent(store, engine=engine, recorder=recorder, graph_rag=graph, doc_rag=docs)
        pipes = {"graph-rag": graph, "doc-rag": docs, "agent": agent}
        traces: list[tuple[str, str, str]] = []
        for n, (kind, question) in enumerate(QUESTIONS, start=2):
            _rule(f'{n}. ragprov ask {kind} "{question}" -x')
            summary = run_question(pipes[kind], question, explain=True, fmt="text", max_edges=max_edges)
            traces.append((kind, question, summary["trace"]))

        _first_kind, first_question, first_trace = traces[0]
        step = len(QUESTIONS) + 2
        _rule(f"{step}. The recorded trace of {first_question!r} (ragprov trace show)")
        nav = Navigator(store)
        trace = nav.trace(first_trace)
        edges = [sel.edge for st in trace.stages for sel in st.selections if sel.edge is not None]
        entities = [e for st in trace.stages for e in st.node.values(TG.entity)]
        click.echo(trace_text(trace, nav.labels(edges + entities)))

        _rule(f"{step + 1}. Lineage of its best edge, down to the text (ragprov lineage edge)")
        if edges:
            edge = edges[0]
            labels = graph.reader.labels([t for t in (edge.subject, edge.predicate, edge.object) if isinstance(t, NamedNode)])
            click.echo(f"edge: {_name(edge.subject, labels)} → {_name(edge.object, labels)}")
            click.echo(f"      {' '.join(_name(edge.predicate, labels).split())}")
            chains = Lineage(store).edge_sources(edge)
            records = graph.reader.chunk_records([c.chunk.iri for c in chains[:2] if c.chunk is not None])
            texts = {chunk: r.text for chunk, r in records.items()}
            for chain in chains[:2]:
                click.echo(f"  {chain}")
                chunk = chain.chunk
                if chunk is not None and chunk.iri in texts:
                    click.echo(
                        "  text: "
                        + _excerpt(
                            texts[chunk.iri],
                            labels.get(edge.subject, "") if isinstance(edge.subject, NamedNode) else "",
                        )
                    )
        else:
            click.echo("no edge was selected")

        _rule("Explore further")
        where = f" --store {shlex.quote(location)}" if location else " --store PATH"
        if not location:
            click.echo("(this demo ran in memory; run `ragprov demo --store PATH` to keep the store)")
        cmds = [
            f"ragprov traces{where}",
            f"ragprov trace show {first_trace}{where} --show-provenance",
            f"ragprov trace show {first_trace}{where} --format mermaid",
        ]
        if edges:
            e = edges[0]
            parts = [t.value if isinstance(t, NamedNode) else shlex.quote(str(t)) for t in (e.subject, e.predicate, e.object)]
            cmds.append(f"ragprov lineage edge {' '.join(parts)}{where}")
        cmds += [
            f"ragprov ask graph-rag \"Who is Bob Cratchit?\" -x{where}",
            f"ragprov ask local \"Who is Tiny Tim?\" -x{where}",
            f"ragprov ask global \"What are the main themes of the story?\" -x{where}",
            f"ragprov ask agent \"What does the Ghost of Christmas Past show Scrooge?\" -x --format json{where}",
            "ragprov query list",
        ]
        for c in cmds:
            click.echo(f"  {c}")
    finally:
        store.close()


def _excerpt(text: str, label: str, width: int = 320) -> str:
    """A window of ``text`` around the first mention of a word of ``label``."""
    flat = " ".join(text.split())
    words = [w for w in re.findall(r"[A-Za-z]{3,}", label)]
    pos = -1
    for w in words:
        m = re.search(rf"\b{re.escape(w)}\b", flat, re.I)
        if m:
            pos = m.start()
            break
    start = max(0, pos - width // 3) if pos >= 0 else 0
    piece = flat[start : start + width]
    return ("…" if start > 0 else "") + piece + ("…" if start + width < len(flat) else "")
