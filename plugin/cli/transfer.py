"""``ragprov export`` / ``ragprov import``: a whole store as N-Quads, movable between dialects."""

from __future__ import annotations

import os
import sys

import click

from ..errors import ConfigurationError, LoadError
from ..store.transfer import FORMS, export_store, import_store
from . import cli
from .common import with_store


@cli.command("export")
@click.option(
    "--form",
    type=click.Choice((*FORMS, "prov-json")),
    default="neutral",
    show_default=True,
    help="neutral: plain N-Quads, quoted triples as rdf:Statement (any engine reads it); "
    "rdf12: <<( s p o )>>; rdfstar: << s p o >>; prov-json: every trace as one W3C PROV-JSON document "
    "(needs the prov extra: pip install 'ragprov[prov]').",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default="-", show_default=True,
              help="Where to write the N-Quads (- for standard output).")
@with_store(read_only=True)
def export_command(form, output, store):
    """Write every quad of --store as N-Quads (the default graph and every named graph)."""
    if output != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(output))):
        raise ConfigurationError(f"cannot write {output}: the directory {os.path.dirname(os.path.abspath(output))} does not exist")
    data = _prov_json(store) if form == "prov-json" else export_store(store, form=form)
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            with open(output, "wb") as f:
                f.write(data)
        except OSError as e:
            raise ConfigurationError(f"cannot write {output}: {e.strerror}") from None
        lines = data.count(b"\n")
        what = "every trace as PROV-JSON" if form == "prov-json" else f"{lines} quads ({form})"
        click.echo(f"exported {what} to {output}", err=True)


def _prov_json(store) -> bytes:
    from ..navigate import Navigator
    from ..navigate.prov import every_question, serialize, traces_document

    nav = Navigator(store)
    return (serialize(traces_document(nav, every_question(nav)), "prov-json") + "\n").encode("utf-8")


@cli.command("import")
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--form", type=click.Choice(FORMS), default=None, help="The N-Quads form (default: detected).")
@click.option("--replace", is_flag=True, help="Empty the store first (after the whole file was read and checked).")
@with_store
def import_command(source, form, replace, store):
    """Add the quads of an export (any form) to --store, spelled in the store's dialect."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                data = f.read()
    except OSError as e:
        raise LoadError(f"cannot read {source}: {e.strerror}") from None
    name = "standard input" if source == "-" else source
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LoadError(f"{name} is not N-Quads text (byte {e.start} is not UTF-8): give a file written by `ragprov export`") from None
    try:
        n = import_store(store, data, form=form, replace=replace)
    except LoadError as e:
        raise LoadError(f"{name}: {e}") from None
    click.echo(f"imported {n} quads into a {store.dialect.value} store", err=True)
    # traces built by TrustGraph name no question on their stages, and an older ragprov linked its
    # stages but not their traces: link them to their documents (and questions) now, as the
    # recorder does when it writes a stage, so `lineage document` finds them by its bound look-ups
    # (beside the traces already linked on the same documents)
    from .migrate import link_imported

    linked = link_imported(store)
    if linked is not None and linked["stages"]:
        click.echo(f"linked {linked['stages']} stage(s) of traces built by TrustGraph to their documents "
                   f"({linked['links']} link(s); see `ragprov migrate document-links`)", err=True)
    if linked is not None and linked["traces"]:
        click.echo(f"added {linked['traces']} trace link(s) (tg:traceRestsOn: a trace to each document its linked stages "
                   "rest on, which an older ragprov did not write; see `ragprov migrate document-links`)", err=True)
