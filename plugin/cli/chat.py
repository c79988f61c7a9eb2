"""``ragprov chat [local|global|drift|basic]``: a conversation, one question per line of standard input.

Each question is answered as ``ragprov ask`` answers it, with the earlier questions of the session
as Microsoft GraphRAG's conversation history: they join the entity search, an LLM sees them in the
prompt's ``Conversation History`` table, and each question's trace names the previous answer
(``tg:previousTurn``). Interactive on a terminal (a ``> `` prompt on stderr; ``exit``, ``quit``
or end of input stops); from a pipe it reads every line and stops at the end.
"""

from __future__ import annotations

import sys

import click

from ..errors import ConfigurationError
from ..llm import engine_from_config
from ..pipelines import pipeline
from ..pipelines.conversation import Conversation
from ..record import Recorder
from ..sparql.escape import to_named_node
from . import cli
from .ask import community_options, llm_options, mode_options, run_question
from .common import with_store

__all__ = ["chat_command"]

CHAT_MODES = ("local", "global", "drift", "basic")


class _Turns:
    """The pipeline as ``run_question`` drives it, each run going through the conversation."""

    def __init__(self, conversation: Conversation):
        self.conversation = conversation

    def run(self, question: str):
        return self.conversation.ask(question)

    def __getattr__(self, name: str):
        return getattr(self.conversation.pipe, name)


@cli.command("chat")
@click.argument("kind", type=click.Choice(CHAT_MODES), default="local")
@click.option("-x", "--explain", is_flag=True, help="Print each stage on stderr as it is recorded.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default="text", show_default=True)
@click.option("--facts-graph", default=None, help="Named graph holding the facts (default: the default graph).")
@click.option("--buffered", is_flag=True, help="Send each trace as one update when it ends.")
@community_options
@llm_options
@with_store
def chat_command(store, kind, explain, fmt, facts_graph, buffered, llm_url, llm_model, llm_key, response_type,
                 community_level, dynamic_selection):
    """Chat with a Microsoft GraphRAG mode: one question per line of stdin, earlier turns as history."""
    engine = engine_from_config(url=llm_url, model=llm_model, api_key=llm_key, response_type=response_type)
    graph = to_named_node(facts_graph) if facts_graph else None
    try:
        pipe = pipeline(kind, store, engine=engine, recorder=Recorder(store, buffered=buffered), facts_graph=graph,
                        **mode_options(kind, community_level, dynamic_selection))
    except ConfigurationError as e:
        raise click.UsageError(str(e)) from None
    turns = _Turns(Conversation(pipe))
    interactive = sys.stdin.isatty()
    while True:
        if interactive:
            click.echo("> ", nl=False, err=True)
        line = sys.stdin.readline()
        if not line:
            break
        question = line.strip()
        if not question:
            continue
        if question.lower() in ("exit", "quit"):
            break
        run_question(turns, question, explain=explain, fmt=fmt)
