"""``ragprov query list|show|render|run``: any template, with parameters and a dialect."""

from __future__ import annotations

import click

from ..errors import ParameterError
from ..sparql import Dialect, catalog
from ..sparql.params import coerce
from ..store.base import Rows
from . import cli
from .common import echo_json, with_store


def _params(name: str, pairs: tuple[str, ...]) -> dict:
    info = catalog().info(name)
    given: dict[str, list[str]] = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"expected k=v, got {pair!r}", param_hint="--param")
        key, value = pair.split("=", 1)
        given.setdefault(key.strip(), []).append(value)
    out = {}
    for key, values in given.items():
        if key not in info.params:
            raise ParameterError(f"template {name!r} takes no parameter {key!r}; it takes {', '.join(info.params) or 'none'}")
        out[key] = coerce(info.params[key], values)
    return out


@cli.group("query")
def query_group():
    """The SPARQL templates behind every view: list, render or run them."""


@query_group.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def query_list(fmt):
    """List the templates with their summaries."""
    cat = catalog()
    if fmt == "json":
        echo_json(
            [
                {
                    "name": n,
                    "kind": cat.info(n).kind,
                    "summary": cat.info(n).summary,
                    "params": {p.name: {"type": p.type, "optional": p.optional, "doc": p.doc} for p in cat.info(n).params.values()},
                }
                for n in cat.names()
            ]
        )
        return
    for n in cat.names():
        info = cat.info(n)
        click.echo(f"{n:28} {info.kind:7} {info.summary}")


@query_group.command("show")
@click.argument("name")
def query_show(name):
    """Show a template's header: summary, parameters, returns."""
    click.echo(catalog().info(name).describe())


@query_group.command("render")
@click.argument("name")
@click.option("--param", "-p", "pairs", multiple=True, help="k=v (repeat for list parameters).")
@click.option("--dialect", type=click.Choice([d.value for d in Dialect]), default="rdf12", show_default=True)
def query_render(name, pairs, dialect):
    """Print the SPARQL a template renders to (to paste into YASGUI, Fuseki's UI, curl…)."""
    click.echo(catalog().render(name, dialect, **_params(name, pairs)).strip("\n"))


@query_group.command("run")
@click.argument("name")
@click.option("--param", "-p", "pairs", multiple=True, help="k=v (repeat for list parameters).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@with_store(create=False)
def query_run(store, name, pairs, fmt):
    """Run a template against the store, in the store's dialect."""
    from ..record.events import term_to_wire

    cat = catalog()
    text = cat.render(name, store.dialect, **_params(name, pairs))
    if cat.info(name).kind == "update":
        store.update(text)
        click.echo("ok")
        return
    result = store.query(text)
    if isinstance(result, bool):
        echo_json(result) if fmt == "json" else click.echo("true" if result else "false")
        return
    assert isinstance(result, Rows)
    if fmt == "json":
        echo_json([{k: term_to_wire(v) for k, v in row.items()} for row in result])
        return
    click.echo("\t".join(result.variables))
    for row in result:
        click.echo("\t".join(str(row[v]) if v in row else "" for v in result.variables))
