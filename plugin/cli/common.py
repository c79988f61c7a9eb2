"""What every ``ragprov`` command shares: the ``--store`` option, output helpers, error handling."""

from __future__ import annotations

import atexit
import functools
import gc
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import ConfigurationError, RagprovError
from ..store import STORE_ENV, _check_store_directory, open_store

__all__ = ["echo_json", "fail", "parse_params", "print_table", "with_store"]


def with_store(fn: Callable | None = None, *, create: bool = True, read_only: bool = False, one_update: bool = False) -> Callable:
    """Add ``--store`` (``$RAGPROV_STORE``; ``memory:``, a directory, or an endpoint URL) and
    ``--dialect``; the command receives an opened ``store`` keyword argument, closed afterwards.

    ``create=False`` for commands that never make a new store (delete); ``read_only=True`` for
    commands that only read: a directory store is opened read-only, beside a writer and other
    readers. A command that writes to a directory store writes all or nothing (see
    :mod:`ragprov.store.staging`): an error, Ctrl-C or a kill leaves the store as it was, and a
    new store path not created at all. ``one_update=True`` for commands whose writes are SPARQL
    updates (``ask``): they reach a directory store as one update at the end, with no staged copy
    of the store (:func:`ragprov.store.staging.one_update`).
    """

    def decorate(fn: Callable) -> Callable:
        @click.option(
            "--store",
            "store_location",
            envvar=STORE_ENV,
            default="memory:",
            show_default=True,
            help="memory:, a store directory, or a SPARQL endpoint URL (env RAGPROV_STORE).",
        )
        @click.option(
            "--dialect",
            type=click.Choice(["rdf12", "rdfstar", "reification"]),
            default=None,
            help="How the store spells quoted triples (default: detected).",
        )
        @functools.wraps(fn)
        def wrapper(*args: Any, store_location: str, dialect: str | None, **kwargs: Any):
            directory = _store_directory(store_location)
            if directory is not None and not read_only:
                _check_store_directory(directory, create=create)
                if dialect not in (None, "rdf12"):
                    raise ConfigurationError("the embedded pyoxigraph store speaks the rdf12 dialect only")
                from ..store import staging  # the store layer loads when a command opens a store

                with (staging.one_update if one_update else staging.staged)(directory) as store:
                    return fn(*args, store=store, **kwargs)
            opened = open_store(store_location, dialect=dialect, create=create, read_only=read_only)
            try:
                return fn(*args, store=opened, **kwargs)
            finally:
                opened.close()

        return wrapper

    return decorate(fn) if fn is not None else decorate


def _store_directory(location: str) -> Path | None:
    """The directory of an on-disk store location (None for memory: and endpoints)."""
    if location.startswith(("memory", "http://", "https://")) or "://" in location:
        return None
    return Path(location).expanduser()


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def print_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    """A table: drawn with rich on a terminal, tab-separated (one row per line) when piped."""
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table(box=None, header_style="bold")
        for col in header:
            table.add_column(col, overflow="fold")
        for row in rows:
            table.add_row(*row)
        Console().print(table)
        return
    click.echo("\t".join(header))
    for row in rows:
        click.echo("\t".join(cell.replace("\t", " ").replace("\n", " ") for cell in row))


def fail(message: str) -> None:
    raise click.ClickException(message)


def parse_params(pairs: tuple[str, ...]) -> dict[str, str]:
    """``k=v`` pairs as a dict (values stay strings; templates validate them)."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"expected k=v, got {pair!r}", param_hint="--param")
        key, value = pair.split("=", 1)
        out[key.strip()] = value
    return out


def run(cli: click.Group, argv: list[str] | None = None) -> int:
    """Run the CLI: ragprov errors become one line on stderr and exit status 1, never a traceback."""
    try:
        rv = cli.main(args=argv, prog_name="ragprov", standalone_mode=False)
    except SystemExit as e:  # a command that exits with a status of its own
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 130
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.exceptions.Exit as e:
        return e.exit_code
    except RagprovError as e:
        click.echo(f"error: {e}", err=True)
        return 1
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug: still one line, and the way to see more
        if os.environ.get("RAGPROV_DEBUG"):
            raise
        click.echo(
            f"internal error: {type(e).__name__}: {e} (rerun with RAGPROV_DEBUG=1 for the traceback, and please report it)",
            err=True,
        )
        return 70
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    # Without standalone mode, click hands back ctx.exit(code) as the return value.
    return rv if isinstance(rv, int) else 0


#: the commands that answer once and end the process: they run without the cyclic garbage
#: collector (see :func:`one_shot_process`)
ONE_SHOT = frozenset({"ask"})


def one_shot_process(argv: list[str]) -> bool:
    """For a process that runs one of :data:`ONE_SHOT` and then ends: switch the cyclic garbage
    collector off, and freeze the heap when the interpreter exits (``atexit`` runs before its
    shutdown collection, which then has nothing to walk). Returns whether it did.

    Why: such a command frees almost everything by reference count, yet allocates hundreds of
    thousands of container objects (every row SQLite and the store hand back is a tuple), so the
    collector's passes — which free next to nothing here — cost a DRIFT question on a 1M-fact store
    ~20-30 ms of CPU, and the shutdown collection another ~10 ms; peak memory stays the same
    (``bench/ask.py`` prints it). Long-lived commands (``serve``, ``chat``, loads) keep the collector."""
    if not argv or argv[0] not in ONE_SHOT:
        return False
    gc.disable()
    atexit.register(gc.freeze)
    return True


def main_entry(cli: click.Group) -> None:
    """The console script: runs the command in ``sys.argv`` and ends the process."""
    one_shot_process(sys.argv[1:])
    sys.exit(run(cli))
