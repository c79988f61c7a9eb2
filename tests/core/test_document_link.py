"""The document links a stage writes (queries/record/_document_link.j2): every dialect's walk finds
the roots of the kept items' chains and of the kept reports' community members, and nothing else."""

from __future__ import annotations

import datetime

import pyoxigraph as ox
import pytest

from ragprov.sparql.dialect import Dialect
from ragprov.sparql.templates import catalog
from ragprov.store import EmbeddedStore

TG = "https://trustgraph.ai/ns/"
WDF = ox.NamedNode("http://www.w3.org/ns/prov#wasDerivedFrom")
SOURCE = ox.NamedNode("urn:graph:source")
FACTS = ox.NamedNode("urn:graph:facts")
RETRIEVAL = ox.NamedNode("urn:graph:retrieval")


def n(name: str) -> ox.NamedNode:
    return ox.NamedNode(f"urn:t:{name}")


def source_store() -> EmbeddedStore:
    """Documents a-d: a kept entity from doc a (entity → unit → doc), a kept report's community
    members from doc b (member → unit → page → doc, two members sharing the unit) and doc a, a
    community no kept report names from doc c, an entity nobody keeps from doc d."""
    store = EmbeddedStore()
    chains = [("entity1", "unit1"), ("unit1", "doc-a"), ("member1", "unit2"), ("member2", "unit2"), ("unit2", "page2"),
              ("page2", "doc-b"), ("member3", "unit1"), ("other-member", "unit3"), ("unit3", "doc-c"), ("entity9", "doc-d")]
    quads = [ox.Quad(n(a), WDF, n(b), SOURCE) for a, b in chains]
    community = [("report", "community", "c1"), ("c1", "hasMember", "member1"), ("c1", "hasMember", "member2"),
                 ("c1", "hasMember", "member3"), ("other-report", "community", "c2"), ("c2", "hasMember", "other-member")]
    quads += [ox.Quad(n(s), ox.NamedNode(TG + p), n(o), FACTS) for s, p, o in community]
    store.extend(quads)
    return store


@pytest.mark.parametrize("dialect", list(Dialect))
@pytest.mark.parametrize("kinds", [("entity", "report"), ("entity",)])
def test_a_focus_rests_on_its_items_and_its_reports_members_documents(dialect, kinds):
    store = source_store()
    items = {"entity": n("entity1"), "report": n("report")}
    selections = [{"iri": n(f"sel/{k}"), "item": items[k], "kind": k, "rank": r, "score": None, "tokens": None, "edge": None}
                  for r, k in enumerate(kinds, 1)]
    store.update(catalog().render("record/context-focus", dialect, focus=n("focus"), question=n("question"), derived_from=[n("x")],
                                  session=n("session"), generated=datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
                                  selections=selections, points=[], prompt=None))
    stage = {q.object for q in store.raw.quads_for_pattern(n("focus"), ox.NamedNode(TG + "restsOn"), None, RETRIEVAL)}
    trace = {q.object for q in store.raw.quads_for_pattern(n("session"), ox.NamedNode(TG + "traceRestsOn"), None, RETRIEVAL)}
    expected = {n("doc-a"), n("doc-b")} if "report" in kinds else {n("doc-a")}
    assert stage == expected
    assert trace == expected
