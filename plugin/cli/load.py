"""``ragprov load documents|triples|graphrag``: put sources into a store with extraction provenance."""

from __future__ import annotations

import click

from . import cli
from .common import echo_json, with_store


def _facts_graph(value: str | None):
    if not value:
        return None
    from ..sparql.escape import to_named_node

    return to_named_node(value)


_FACTS_GRAPH = click.option(
    "--facts-graph",
    default=None,
    help="Write facts into this named graph (e.g. urn:graph:facts) instead of the default graph; "
    "use it on stores whose default graph is the union of all graphs.",
)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print the load report as JSON.")


def _update_text_index(store, facts_graph=None) -> None:
    """The last step of every load: the store's persistent text index learns what changed
    (:func:`ragprov.retrieve.reader.update_text_index`; nothing for stores without one)."""
    import time

    from ragprov.retrieve.reader import update_text_index

    start = time.perf_counter()
    report = update_text_index(store, facts_graph=facts_graph)
    if report is not None:
        click.echo(
            f"text index: {report.written} document(s) written, {report.removed} removed, {report.kept} unchanged "
            f"({time.perf_counter() - start:.2f} s)",
            err=True,
        )


#: a load writing at least this many quads compacts the store after it (a bulk load's table files)
COMPACT_AFTER = 50_000


def _compact(store, quads: int) -> None:
    """After a bulk load into an on-disk store (at least :data:`COMPACT_AFTER` quads): compact its
    tables (:meth:`EmbeddedStore.optimize`), so that the look-ups every later query makes do not pay
    for the bulk loader's uncompacted files. A small load leaves them to RocksDB (compacting rewrites
    the whole store: seconds and its size again in free disk for a few quads). A compaction that
    fails (a full disk) is said and skipped: the loaded store is whole, only slower to read."""
    import time

    from ragprov.errors import StoreError

    if quads < COMPACT_AFTER:
        return
    start = time.perf_counter()
    try:
        done = store.optimize()
    except StoreError as e:
        click.echo(f"warning: the store was not compacted ({e}); it is loaded, look-ups are slower until the next bulk load", err=True)
        return
    if done:
        click.echo(f"store compacted ({time.perf_counter() - start:.2f} s)", err=True)


@cli.group("load")
def load_group():
    """Load documents, knowledge triples or Microsoft GraphRAG output, with extraction provenance."""


@load_group.command("documents")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option("--chunk-size", type=click.IntRange(1), default=1000, show_default=True, help="Characters per chunk.")
@click.option("--chunk-overlap", type=click.IntRange(0), default=100, show_default=True, help="Characters shared by neighbouring chunks.")
@click.option("--rechunk", is_flag=True, help="Add a second chunking to documents already loaded with other settings.")
@_JSON
@with_store
def load_documents_command(store, paths, chunk_size, chunk_overlap, rechunk, as_json):
    """Load text, Markdown and PDF files (or folders of them): Document → Page → Chunk."""
    from ragprov.loaders.documents import load_documents

    report = load_documents(store, list(paths), chunk_size=chunk_size, chunk_overlap=chunk_overlap, rechunk=rechunk)
    _update_text_index(store)
    _compact(store, report.quads)
    if as_json:
        echo_json(
            {
                "quads": report.quads,
                "documents": [
                    {
                        "path": str(d.path),
                        "iri": d.iri,
                        "title": d.title,
                        "mime_type": d.mime_type,
                        "pages": d.pages,
                        "chunks": d.chunks,
                        "skipped": d.skipped,
                    }
                    for d in report.documents
                ],
            }
        )
        return
    for d in report.documents:
        state = "already loaded" if d.skipped else f"{d.pages} page(s), {d.chunks} chunk(s)"
        click.echo(f"{d.iri}\t{d.title}\t{state}")
    click.echo(f"{len(report.documents)} document(s), {report.quads} quads written", err=True)


@load_group.command("triples")
@click.argument("file", type=click.Path(path_type=str))
@click.option("--source", required=False, default=None, help="The chunk or document IRI the facts were extracted from.")
@click.option(
    "--format",
    "input_format",
    type=click.Choice(["ntriples", "turtle", "json"]),
    default=None,
    help="Input format (default: from the file name).",
)
@click.option("--llm-model", default=None, help="The LLM that extracted the facts (recorded on the load activity).")
@click.option("--ontology", default=None, help="The ontology IRI the extraction followed.")
@click.option("--allow-unknown-source", is_flag=True, help="Accept a source IRI that is not a loaded document, page or chunk.")
@_FACTS_GRAPH
@_JSON
@with_store
def load_triples_command(store, file, source, input_format, llm_model, ontology, allow_unknown_source, facts_graph, as_json):
    """Load N-Triples, Turtle or JSON facts, each with a Statement derived from its source."""
    from ragprov.loaders.triples import load_triples

    report = load_triples(
        store,
        file,
        source=source,
        format=input_format,
        facts_graph=_facts_graph(facts_graph),
        llm_model=llm_model,
        ontology=ontology,
        require_source=not allow_unknown_source,
    )
    _update_text_index(store, _facts_graph(facts_graph))
    _compact(store, report.quads)
    if as_json:
        echo_json({"activity": report.activity, "facts": report.facts, "quads": report.quads, "skipped": report.skipped})
        return
    state = "already loaded" if report.skipped else f"{report.quads} quads written"
    click.echo(f"{report.facts} fact(s) from {file}: {state} (activity {report.activity})")


@load_group.command("graphrag")
@click.argument("output_dir", type=click.Path(path_type=str))
@click.option(
    "--namespace",
    default="urn:graphrag:",
    show_default=True,
    help="IRI prefix for the index's entities, relationships, communities…",
)
@click.option(
    "--unknown-entities",
    type=click.Choice(["placeholder", "error", "skip"]),
    default="placeholder",
    show_default=True,
    help="What to do with relationships naming an entity the entities table lacks.",
)
@_FACTS_GRAPH
@_JSON
@with_store
def load_graphrag_command(store, output_dir, namespace, unknown_entities, facts_graph, as_json):
    """Load a Microsoft GraphRAG index output folder (v0.3 to v3 parquet tables)."""
    from ragprov.loaders.graphrag import load_graphrag

    report = load_graphrag(
        store, output_dir, facts_graph=_facts_graph(facts_graph), namespace=namespace, unknown_entities=unknown_entities
    )
    _update_text_index(store, _facts_graph(facts_graph))
    from ragprov.loaders.graphrag_embeddings import ENTITY_TABLE, TABLE, import_entity_embeddings, import_text_unit_embeddings

    kept = import_text_unit_embeddings(store, output_dir, namespace=namespace)
    if kept:
        click.echo(f"text index: {kept} text-unit vector(s) from {TABLE} kept for basic search", err=True)
    kept = import_entity_embeddings(store, output_dir, namespace=namespace)
    if kept:
        click.echo(f"text index: {kept} entity vector(s) from {ENTITY_TABLE} kept for local search", err=True)
    _compact(store, report.quads)
    if as_json:
        echo_json(
            {
                "path": str(report.path),
                "version": report.version,
                "rows": report.rows,
                "quads": report.quads,
                "activity": report.activity,
                "placeholders": report.placeholders,
                "skipped_relationships": report.skipped_relationships,
                "skipped": report.skipped,
            }
        )
        return
    rows = ", ".join(f"{n} {t}" for t, n in report.rows.items())
    state = "already loaded, nothing written" if report.skipped else f"{report.quads} quads written"
    click.echo(f"GraphRAG output v{report.version} at {report.path}: {rows}; {state}")
    if report.placeholders:
        click.echo(f"{report.placeholders} relationship endpoint(s) not in the entities table were loaded as tg:UnresolvedEntity", err=True)
