"""``ragprov lineage edge|document`` and ``ragprov extraction show``."""

from __future__ import annotations

import sys

import click

from ..errors import InvalidValueError, NotFoundError
from . import cli
from .common import echo_json, print_table, with_store

PAGE_SIZE = 50
"""Traces a page of `ragprov lineage document` shows by default."""

_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)


def parse_term(text: str, *, position: str):
    """A term given on the command line: ``<iri>`` or a bare IRI, or (object only) an N-Triples literal.

    >>> parse_term("urn:x:a", position="subject")
    <NamedNode value=urn:x:a>
    >>> parse_term('"42"^^<http://www.w3.org/2001/XMLSchema#integer>', position="object").value
    '42'
    """
    from pyoxigraph import Literal, NamedNode, RdfFormat, parse

    from ..sparql.escape import to_named_node

    text = text.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    elif text.startswith('"'):
        if position != "object":
            raise InvalidValueError(f"the {position} must be an IRI, got {text!r}")
        try:
            triples = list(parse(f"<urn:x:s> <urn:x:p> {text} .", format=RdfFormat.N_TRIPLES))
        except SyntaxError as e:
            raise InvalidValueError(f"not an N-Triples literal: {text!r} ({e})") from None
        term = triples[0].object
        assert isinstance(term, Literal)
        return term
    node = to_named_node(text)
    assert isinstance(node, NamedNode)
    return node


@cli.group("lineage")
def lineage_group():
    """Where an edge came from, and which answers a document fed."""


@lineage_group.command("edge")
@click.argument("subject")
@click.argument("predicate")
@click.argument("object_")
@_FORMAT
@with_store(read_only=True)
def lineage_edge(store, subject, predicate, object_, fmt):
    """Edge S P O → statement → chunk → page → document (O may be an N-Triples literal)."""
    from pyoxigraph import Triple

    from ..navigate.lineage import Lineage

    edge = Triple(
        parse_term(subject, position="subject"),
        parse_term(predicate, position="predicate"),
        parse_term(object_, position="object"),
    )
    chains = Lineage(store).edge_sources(edge)
    if fmt == "json":
        echo_json([c.to_json() for c in chains])
        return
    if not chains:
        raise NotFoundError("no statement reifies this edge; was it loaded with `ragprov load`?")
    for chain in chains:
        click.echo(str(chain))


@lineage_group.command("document")
@click.argument("document")
@_FORMAT
@click.option(
    "--facts-graph",
    default=None,
    help="Named graph holding the loaded GraphRAG index, for community reports (default: the default graph).",
)
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help=f"Traces per page, the newest first (default {PAGE_SIZE} on a terminal; piped to another program "
                   "or with --format json, every trace unless --limit or --page is given).")
@click.option("--page", "page_number", type=click.IntRange(min=1), default=None,
              help="Which page of traces, newest first (default the first).")
@click.option("--all", "show_all", is_flag=True, help="Every trace that rests on DOCUMENT, in one listing.")
@click.option("--items", is_flag=True,
              help="Also the kept items (edges, chunks, text units, entities, claims, reports) that tie each trace to DOCUMENT.")
@click.option("--unlinked", is_flag=True,
              help="Also traces with no document link (recorded by an older ragprov, see `ragprov migrate "
                   "document-links`): found by slower link-free look-ups. Traces built by TrustGraph are linked by "
                   "`ragprov import` (in a store TrustGraph writes to, by `ragprov migrate document-links`).")
@with_store(read_only=True)
def lineage_document(store, document, fmt, facts_graph, limit, page_number, show_all, items, unlinked):
    """The recorded answers whose kept items (edges, chunks, text units, entities, claims, reports) rest on DOCUMENT,
    newest first: on a terminal a page of them (how many in all on stderr), piped or with --all every one."""
    from ..navigate.lineage import Lineage

    if show_all and (limit is not None or page_number is not None):
        raise InvalidValueError("--all lists every trace: give it without --limit or --page")
    graph = parse_term(facts_graph, position="facts graph") if facts_graph else None
    # a person at a terminal reads a page; a program reading the output gets every trace
    every = show_all or ((fmt == "json" or not sys.stdout.isatty()) and limit is None and page_number is None)
    size = None if every else limit or PAGE_SIZE
    offset = 0 if size is None else (page_number - 1 if page_number else 0) * size
    found = Lineage(store, facts_graph=graph).document_page(
        parse_term(document, position="document"), limit=size, offset=offset, items=items, unlinked=unlinked
    )
    answers = found.answers
    if found.partly_linked:
        click.echo("some traces here were recorded by an older ragprov (their stages are linked to the document, "
                   "they are not): found by slower look-ups; `ragprov migrate document-links` links them", err=True)
    if fmt == "json":
        echo_json([a.to_json() for a in answers])
        return
    rows = [
        (
            a.started or "?",
            a.kind or "?",
            a.question.value + (f" (run by {a.parent_question.value})" if a.parent_question else ""),
            a.query,
            ", ".join(x.value for x in a.answers) or "(no answer yet)",
            ", ".join(i.value for i in (a.items if items else a.stages)),
        )
        for a in answers
    ]
    print_table(("started", "kind", "trace", "question", "answer", "via" if items else "stages"), rows)
    if not answers and not offset:
        click.echo("no recorded answer rests on this document", err=True)
    elif size is not None and (found.total is None or found.total > offset + len(answers) or offset):
        page = offset // size + 1
        shown = f"traces {offset + 1}-{offset + len(answers)}" if answers else f"no trace on page {page}"
        of = f" of {found.total}" if found.total is not None else " (the first found: more may follow)"
        more = [f"--page {page + 1} for the next"] if found.total is None or found.total > offset + len(answers) else []
        click.echo(f"{shown}{of}, newest first; " + ", ".join([*more, "--all for every one"]), err=True)


@cli.group("extraction")
def extraction_group():
    """What extraction produced from a document."""


@extraction_group.command("show")
@click.argument("document")
@_FORMAT
@with_store(read_only=True)
def extraction_show(store, document, fmt):
    """DOCUMENT → its pages, chunks, statements (with their facts) and other derived entities."""
    from ..navigate.lineage import Lineage

    ex = Lineage(store).extraction(parse_term(document, position="document"))
    if fmt == "json":
        echo_json(ex.to_json())
        return
    d = ex.document
    click.echo(f"{d}  {d.mime_type or ''}  {d.page_count if d.page_count is not None else '?'} page(s)")
    for page in ex.pages:
        click.echo(f"  {page}")
    for chunk in ex.chunks:
        parent = chunk.parents[0].value if chunk.parents else "?"
        click.echo(f"  {chunk}  ← {parent}")
    for st in ex.statements:
        fact = f"{st.fact.subject} {st.fact.predicate} {st.fact.object}" if st.fact else "(no fact)"
        click.echo(f"  statement <{st.iri.value}>: {fact}")
    if ex.derived:
        click.echo(f"  {len(ex.derived)} other derived entit{'y' if len(ex.derived) == 1 else 'ies'} (GraphRAG entities, claims)")
    click.echo(
        f"{len(ex.pages)} page(s), {len(ex.chunks)} chunk(s), {len(ex.statements)} statement(s), {len(ex.derived)} derived",
        err=True,
    )
