"""``ragprov migrate``: bring traces recorded by an older ragprov up to what it records now.

``document-links``: a stage that keeps items records, in its own update, the documents those items
were extracted from (``tg:restsOn``, and ``tg:traceRestsOn`` on its trace's session), and ``ragprov
lineage document`` finds traces by those links.
Traces recorded before the link are found by link-free look-ups only when no linked trace rests on
the document (or with ``--unlinked``); this step adds their links, computed by the store from the
extraction provenance it holds, in one update (``migrate/document-links``), and the trace links
every linked stage implies (stages linked by a ragprov that wrote no trace link included).
``--dry-run`` counts what it would add and writes nothing. Running it twice adds nothing the second
time.

Traces built by TrustGraph name no question on their stages: the same step links them (with
``tg:forQuestion`` as well). ``ragprov import`` runs it when the quads it brought in hold such
stages, or stages linked by an older ragprov whose traces lack their trace links
(:func:`link_imported`).
"""

from __future__ import annotations

import click

from ..sparql.templates import catalog
from . import cli
from .common import echo_json, with_store


def document_links(store, *, dry_run: bool = False) -> dict[str, int]:
    """How many stages lack their document links, how many links they would get, and how many
    trace links (``tg:traceRestsOn``) linked stages imply that are not stored; unless ``dry_run``,
    add them (one update).

    >>> from ragprov.store import open_store
    >>> document_links(open_store("memory:"), dry_run=True)
    {'stages': 0, 'links': 0, 'traces': 0}
    """
    (row,) = store.select(catalog().render("migrate/document-links-count", store.dialect))
    counts = {name: int(row[name].value) if row.get(name) is not None else 0 for name in ("stages", "links", "traces")}
    if not dry_run and (counts["links"] or counts["traces"]):
        store.update(catalog().render("migrate/document-links", store.dialect))
    return counts


def link_unnamed_stages(store) -> dict[str, int] | None:
    """After an import: when some stage that keeps items names no question (a trace built by
    TrustGraph), add the document links (and question links) such stages lack, as
    :func:`document_links` does; None when there is none (one ASK that stops at the first)."""
    if not store.ask(catalog().render("migrate/unnamed-stages", store.dialect)):
        return None
    return document_links(store)


def link_imported(store) -> dict[str, int] | None:
    """After an import: when some stage names no question (:func:`link_unnamed_stages`), or some
    linked stage's trace lacks its trace link (an export of an older ragprov, which wrote stage
    links only: ``migrate/unlinked-traces``), add every link :func:`document_links` adds; None
    when neither (two ASKs, each stopping at the first such stage)."""
    linked = link_unnamed_stages(store)
    if linked is None and store.ask(catalog().render("migrate/unlinked-traces", store.dialect)):
        linked = document_links(store)
    return linked


@cli.group("migrate")
def migrate_group():
    """Bring traces recorded by an older ragprov up to what it records now."""


@migrate_group.command("document-links")
@click.option("--dry-run", is_flag=True, help="Count the stages and links it would add; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@with_store(create=False)
def migrate_document_links(store, dry_run: bool, as_json: bool):
    """Add the document links (tg:restsOn, tg:traceRestsOn) of traces recorded before ragprov wrote them.

    Then `ragprov lineage document` finds their traces by one look-up."""
    counts = document_links(store, dry_run=dry_run)
    if as_json:
        echo_json({**counts, "dry_run": dry_run})
        return
    verb = "would add" if dry_run else "added"
    click.echo(f"{verb} {counts['links']} document link(s) to {counts['stages']} stage(s) and {counts['traces']} to traces")
