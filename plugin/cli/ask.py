"""``ragprov ask graph-rag|doc-rag|agent|local|global|drift|basic "QUESTION"``: answer a question, recording its trace.

The answer goes to stdout as it is written; with ``-x/--explain`` each stage is printed on stderr
the moment it is recorded (question, concepts, explored entities and edge count, each selected
edge with its labels, score and reasoning, sources with pages) and the trace IRI at the end.
``--format json`` prints one JSON object at the end; ``--format jsonl`` prints every event as a
JSON line (the wire form of :func:`ragprov.record.event_to_json`).

Without ``--llm-url`` (or ``RAGPROV_LLM_URL``) the offline engine answers.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable

import click
from pyoxigraph import NamedNode

from ..errors import ConfigurationError
from ..llm import KEY_ENV, MODEL_ENV, URL_ENV, engine_from_config
from ..pipelines import PIPELINES, pipeline
from ..record import ChunkEvent, EndOfSession, ExplainEvent, Recorder, event_to_json
from ..sparql.escape import to_named_node
from . import cli
from .common import with_store

__all__ = ["ask_command", "community_options", "mode_options", "run_question"]


def llm_options(fn):
    """``--llm-url``, ``--llm-model``, ``--llm-key`` (env RAGPROV_LLM_URL / _MODEL / _API_KEY), ``--response-type``."""
    fn = click.option(
        "--llm-key",
        envvar=KEY_ENV,
        default=None,
        show_envvar=True,
        help="API key for the LLM (never printed or recorded).",
    )(fn)
    fn = click.option("--llm-model", envvar=MODEL_ENV, default=None, show_envvar=True, help="LLM model name.")(fn)
    fn = click.option(
        "--response-type",
        default=None,
        metavar="TEXT",
        help="With an LLM, the answer's length and format in the Microsoft GraphRAG modes "
        '(its response_type; default "multiple paragraphs").',
    )(fn)
    fn = click.option(
        "--llm-url",
        envvar=URL_ENV,
        default=None,
        show_envvar=True,
        help="OpenAI-compatible API base URL, e.g. http://localhost:11434/v1 (default: the offline engine).",
    )(fn)
    return fn


def community_options(fn):
    """``--community-level`` and ``--dynamic-community-selection/--no-dynamic-selection`` (Microsoft
    GraphRAG's query options: local, global and DRIFT search; dynamic selection for global)."""
    fn = click.option(
        "--dynamic-community-selection/--no-dynamic-selection",
        "dynamic_selection",
        default=None,
        help="Global search: rate community reports from the root level down and map only the relevant ones "
        "(recorded as a CommunitySelection stage with every rating); default: off, as in Microsoft GraphRAG.",
    )(fn)
    fn = click.option(
        "--community-level",
        type=click.IntRange(min=0),
        default=None,
        help="Local, global and DRIFT search: use the community reports of this level or coarser (0 is the coarsest; default 2, "
        "as in Microsoft GraphRAG).",
    )(fn)
    return fn


def mode_options(kind: str, community_level: int | None, dynamic_selection: bool | None) -> dict:
    """The :func:`~ragprov.pipelines.pipeline` keywords of the options given (none for options left out)."""
    out: dict = {}
    if community_level is not None:
        out["community_level"] = community_level
    if dynamic_selection is not None:
        out["dynamic_selection"] = dynamic_selection
    return out


class _Output:
    """A printer that survives its reader going away: after a :class:`BrokenPipeError` (e.g.
    ``ragprov ask … | head -c 10``) it becomes a no-op, so the run goes on and its trace completes."""

    def __init__(self, write, *, stream=None):
        self.write = write
        self.stream = stream
        self.broken = False

    def __call__(self, text: str, nl: bool = True) -> None:
        if self.broken:
            return
        try:
            self.write(text, nl)
        except BrokenPipeError:
            self.broken = True
            if self.stream is not None:
                _silence(self.stream)


def _silence(stream) -> None:
    """Point ``stream``'s file descriptor at the null device, so buffered output that can no
    longer be delivered does not fail again when it is flushed at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def run_question(
    pipe,
    question: str,
    *,
    explain: bool,
    fmt: str,
    out=None,
    err=None,
    max_edges: int | None = None,
) -> dict:
    """Run one question through ``pipe``, printing as ``ask`` does; returns the JSON summary.

    ``out(text, nl=True)`` and ``err(text)`` default to stdout and stderr. If the reader of either
    goes away, printing stops but the run is drained, so its trace is complete. If the pipeline
    fails mid-run, stderr names the trace left incomplete before the error propagates (on a directory
    store nothing of it is written: the command writes all or nothing)."""
    if out is None:
        out = _Output(lambda text, nl: click.echo(text, nl=nl), stream=sys.stdout)
    else:
        out = _Output(lambda text, nl, write=out: write(text, nl=nl))
    if err is None:
        err = _Output(lambda text, nl: click.echo(text, err=True), stream=sys.stderr)
    else:
        err = _Output(lambda text, nl, write=err: write(text))
    labeler = _labeler(pipe)
    cite = _citer(pipe)
    if explain:  # here, not at start-up: only -x/--explain prints the stages
        from .explain import describe
    trace: NamedNode | None = None
    streamed_answer = False
    summary: dict = {}
    try:
        for event in pipe.run(question):
            if fmt == "jsonl":
                out(event_to_json(event))
            if isinstance(event, ExplainEvent):
                if event.stage == "question" and trace is None:
                    trace = event.explain_id
                if explain:
                    for line in describe(event, labeler, max_edges=max_edges, cite=cite):
                        err(line)
            elif isinstance(event, ChunkEvent):
                is_answer = event.kind == "answer"
                if is_answer and fmt == "text":
                    out(event.content, nl=False)
                    streamed_answer = True
                elif explain and not is_answer:
                    err(f"  {'thinking' if event.kind == 'thought' else 'observed'}: {event.content}")
            elif isinstance(event, EndOfSession):
                if fmt == "text" and streamed_answer:
                    answer = pipe.result.answer
                    if not answer.endswith("\n"):
                        out("")
                if explain:
                    for line in describe(event, labeler, cite=cite):
                        err(line)
                summary = {
                    "question": question,
                    "answer": _first_line(pipe.result.answer),
                    "text": pipe.result.answer,
                    "answered": getattr(pipe.result, "answered", None),
                    "evidence": _evidence(pipe.result),
                    "trace": event.trace.value,
                    "model": pipe.engine.model,
                    "in_token": event.in_token,
                    "out_token": event.out_token,
                    "sources": [
                        {"document": s.document.value, "title": s.title, "page": s.page, "chunk": s.chunk.value if s.chunk else None,
                         "citation": cite(s) if cite else None}
                        for s in event.sources
                    ],
                }
                from ..llm.citations import Resolved  # here, not at start-up: only a finished run needs it

                support = getattr(pipe.result, "support", None)
                if isinstance(support, Resolved):  # an LLM answer's [Data: …] citations
                    summary["cited"] = list(support.items)
                    summary["citation_notes"] = list(support.notes)
                if getattr(pipe.result, "termination_reason", None):
                    summary["termination_reason"] = pipe.result.termination_reason
    except Exception:
        if trace is not None and not summary:
            if getattr(pipe.recorder.store, "staging_of", None) is not None:
                err(f"nothing of the trace {trace.value} was recorded: the store is as it was")
            else:
                err(f"the trace {trace.value} was left incomplete; `ragprov trace incomplete` lists it "
                    f"(`ragprov trace delete {trace.value}` removes it)")
        raise
    if fmt == "json":
        out(json.dumps(summary, indent=2, ensure_ascii=False))
    elif fmt == "text" and not explain and summary:
        err(f"trace: {summary['trace']}")
    return summary


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def _evidence(result) -> list[dict]:
    """The evidence the stated answer rests on (every passage when the engine does not say):
    its text, citation, kind and the trace item it is (edge selection, chunk, kept item, point)."""
    passages = list(getattr(result, "passages", ()) or ())
    support = getattr(result, "support", None)
    evidence = getattr(support, "evidence", None)
    # an LLM's cited answer has no evidence lines: every passage is shown
    rows = list(evidence) if evidence is not None else [(i, p.text) for i, p in enumerate(passages)]
    return [
        {"text": text, "source": passages[i].source, "kind": passages[i].kind, "item": passages[i].item}
        for i, text in rows if 0 <= i < len(passages)
    ]


def _labeler(pipe):
    reader = getattr(pipe, "reader", None)
    if reader is None:
        return None

    def labels(nodes: Iterable[NamedNode]) -> dict[NamedNode, str]:
        nodes = [n for n in nodes if isinstance(n, NamedNode)]
        return {**reader.labels(nodes), **reader.chunk_names(nodes)}

    return labels


def _citer(pipe):
    reader = getattr(pipe, "reader", None)
    return reader.citation if reader is not None else None


@cli.command("ask")
@click.argument("kind", type=click.Choice(list(PIPELINES)))
@click.argument("question")
@click.option("-x", "--explain", is_flag=True, help="Print each stage on stderr as it is recorded.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default="text", show_default=True)
@click.option(
    "--facts-graph",
    default=None,
    help="Named graph holding the facts (default: the default graph); e.g. urn:graph:facts on union-default-graph stores.",
)
@click.option(
    "--buffered",
    is_flag=True,
    help="Send the whole trace as one update when it ends (one round trip, all or nothing) instead of one per stage.",
)
@community_options
@llm_options
@with_store(one_update=True)
def ask_command(store, kind, question, explain, fmt, facts_graph, buffered, llm_url, llm_model, llm_key, response_type,
                community_level, dynamic_selection):
    """Answer QUESTION (GraphRAG, DocRAG, ReAct agent, or Microsoft GraphRAG local/global/DRIFT/basic search) and record its trace."""
    engine = engine_from_config(url=llm_url, model=llm_model, api_key=llm_key, response_type=response_type)
    graph = to_named_node(facts_graph) if facts_graph else None
    try:
        pipe = pipeline(kind, store, engine=engine, recorder=Recorder(store, buffered=buffered), facts_graph=graph,
                        **mode_options(kind, community_level, dynamic_selection))
    except ConfigurationError as e:
        raise click.UsageError(str(e)) from None
    run_question(pipe, question, explain=explain, fmt=fmt)
