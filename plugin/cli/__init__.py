"""The ``ragprov`` command: one group, one module per command group (§10).

Each module registers its commands on :data:`cli`; a module is imported only when one of its
commands runs (:data:`COMMANDS` names them, with their one-line help for ``ragprov --help``), so a
command pays only for the imports it needs. A test checks :data:`COMMANDS` against the modules.
"""

from __future__ import annotations

import importlib

import click

from .. import __version__

#: command name → (module under ragprov.cli, one-line help shown by ``ragprov --help``)
COMMANDS: dict[str, tuple[str, str]] = {
    "ask": (
        "ask",
        "Answer QUESTION (GraphRAG, DocRAG, ReAct agent, or Microsoft GraphRAG local/global/DRIFT/basic search) and record its trace.",
    ),
    "chat": ("chat", "Chat with a Microsoft GraphRAG mode: one question per line of stdin, earlier turns as history."),
    "demo": (
        "demo",
        "Load the bundled Christmas Carol GraphRAG output, ask questions with -x, show a trace and a lineage.",
    ),
    "export": ("transfer", "Write every quad of --store as N-Quads (the default graph and every named graph)."),
    "extraction": ("lineage", "What extraction produced from a document."),
    "import": ("transfer", "Add the quads of an export (any form) to --store, spelled in the store's dialect."),
    "lineage": ("lineage", "Where an edge came from, and which answers a document fed."),
    "migrate": ("migrate", "Bring traces recorded by an older ragprov up to what it records now."),
    "load": ("load", "Load documents, knowledge triples or Microsoft GraphRAG output, with extraction provenance."),
    "ontology": ("ontology", "The ragprov ontology: QC checks and consistency."),
    "serve": ("serve", "Serve the HTTP API (OpenAPI at /openapi.json) and the trace explorer at http://HOST:PORT/."),
    "query": ("query", "The SPARQL templates behind every view: list, render or run them."),
    "spool": ("spool", "The local spool of stage writes that failed because the store was unreachable."),
    "trace": ("traces", "Show, delete and audit recorded traces."),
    "traces": ("traces", "List top-level traces, newest first."),
}



def _short_help(text: str, limit: int) -> str:
    """The first sentence of ``text``'s first paragraph, cut at a word to ``limit`` characters
    (ending in ``...`` when cut): what click shows for a command it has not imported.

    >>> _short_help("Answer QUESTION (GraphRAG, DocRAG or an agent) and record its trace. More.", 30)
    'Answer QUESTION (GraphRAG,...'
    >>> _short_help("List traces, newest first.", 45)
    'List traces, newest first.'
    """
    kept: list[str] = []
    for word in text.split("\n\n")[0].split():
        if len(" ".join([*kept, word])) > limit:
            break
        kept.append(word)
        if word.endswith("."):
            return " ".join(kept)
    else:
        return " ".join(kept)
    while kept and len(" ".join(kept)) + 3 > limit:
        kept.pop()
    return " ".join(kept) + "..."


class LazyGroup(click.Group):
    """A group whose commands' modules load on first use (commands registered directly work too)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            importlib.import_module(f".{COMMANDS[name][0]}", __name__)
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        limit = formatter.width - 6 - max(len(n) for n in self.list_commands(ctx))
        for name in self.list_commands(ctx):
            if name in self.commands:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
            else:
                rows.append((name, _short_help(COMMANDS[name][1], limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ragprov")
def cli() -> None:
    """Auditable graph-RAG: record, navigate and check retrieval provenance in any RDF store."""


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    from .common import main_entry, run

    if argv is None:
        main_entry(cli)
    else:
        raise SystemExit(run(cli, argv))


def __getattr__(name: str):
    if name == "run":  # ragprov.cli.run: the shared runner, loaded with the store layer
        from .common import run

        return run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["COMMANDS", "cli", "main", "run"]
