"""``ragprov serve --store S``: the HTTP API and the trace explorer page (the ``serve`` extra)."""

from __future__ import annotations

import click

from . import cli
from .ask import llm_options
from .common import with_store


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (beyond loopback only with --token).")
@click.option("--port", type=click.IntRange(0, 65535), default=8040, show_default=True)
@click.option("--token", envvar="RAGPROV_SERVE_TOKEN", default=None, show_envvar=True,
              help="Bearer token that writes (ask, delete) must send; required to listen beyond loopback.")
@click.option("--facts-graph", default=None, help="Named graph holding the facts (default: the default graph).")
@llm_options
@with_store(create=False)
def serve_command(store, host, port, token, facts_graph, llm_url, llm_model, llm_key, response_type):
    """Serve the HTTP API (OpenAPI at /openapi.json) and the trace explorer at http://HOST:PORT/."""
    from ..llm import engine_from_config
    from ..serve import check_bind, require_serve_extra, run_server
    from ..sparql.escape import to_named_node

    check_bind(host, token)
    require_serve_extra()
    engine = engine_from_config(url=llm_url, model=llm_model, api_key=llm_key, response_type=response_type)
    click.echo(f"ragprov explorer on http://{host}:{port}/  (API description: /openapi.json; Ctrl-C stops)", err=True)
    run_server(store, host=host, port=port, token=token, engine=engine,
               facts_graph=to_named_node(facts_graph) if facts_graph else None)
