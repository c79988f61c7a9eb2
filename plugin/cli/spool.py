"""``ragprov spool status|replay``: updates a remote store could not take, kept on disk until replayed."""

from __future__ import annotations

import click

from ..errors import QueryError, StoreUnavailableError
from ..store.spool import SPOOL_ENV, Spool
from . import cli
from .common import echo_json, with_store

_spool_option = click.option(
    "--spool",
    "spool_dir",
    envvar=SPOOL_ENV,
    default=None,
    help=f"The spool directory (env {SPOOL_ENV}; default ~/.local/state/ragprov/spool).",
)


@cli.group("spool")
def spool_group():
    """The local spool of stage writes that failed because the store was unreachable."""


@spool_group.command("status")
@_spool_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def spool_status(spool_dir, fmt):
    """How many updates wait in the spool, and for which store."""
    status = Spool(spool_dir).status()
    if fmt == "json":
        echo_json(status.as_dict())
        return
    click.echo(f"spool      {status.directory}")
    click.echo(f"pending    {status.pending} update(s), {status.bytes} bytes")
    if status.pending:
        click.echo(f"oldest     {status.oldest}")
        click.echo(f"newest     {status.newest}")
        click.echo(f"dialects   {', '.join(status.dialects)}")
        click.echo(f"stores     {', '.join(status.stores)}")
    if status.rejected:
        click.echo(f"rejected   {status.rejected} set aside in {status.directory}/rejected/ (never sent again):")
        for name, message in status.rejections:
            click.echo(f"  {name}  {message}")


@spool_group.command("replay")
@_spool_option
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Replay at most this many updates.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@with_store
def spool_replay(spool_dir, limit, fmt, store):
    """Send the spooled updates to --store, oldest first; each is removed once the store took it.

    Exits 1 if some updates are still waiting (the store is still unreachable) or were rejected.
    """
    report = Spool(spool_dir).replay(store, limit=limit)
    if fmt == "json":
        echo_json(report.as_dict())
    else:
        click.echo(f"replayed   {report.replayed}")
        click.echo(f"remaining  {report.remaining}")
        if report.rejected:
            click.echo(f"rejected   {len(report.rejected)}: {', '.join(report.rejected)}")
        if report.error:
            click.echo(f"stopped    {report.error}")
    if report.error:
        raise StoreUnavailableError(f"{report.remaining} update(s) still spooled: {report.error}")
    if report.rejected:
        raise QueryError(
            f"{len(report.rejected)} spooled update(s) were rejected by the store and set aside in "
            f"{Spool(spool_dir).rejected_dir}/ (with the store's message beside each)"
        )
