"""The extract/ templates define the provenance shape; the loaders' bulk path writes exactly that.

Each template is rendered and run as an update on one store, the matching builder of
:mod:`ragprov.loaders.provenance` writes through the bulk path into another, and the two stores
must hold the same quads — in the ``rdf12`` and ``reification`` dialects. The lineage templates
render in every dialect and declare exactly the parameters they use.
"""

from __future__ import annotations

import datetime as dt

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from ragprov.loaders import provenance as P
from ragprov.loaders._rdf import QuadWriter, iri
from ragprov.sparql.templates import catalog
from ragprov.store import EmbeddedStore

from .helpers import ReificationStore, quad_set

T0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
ADVERSARIAL = 'He said "}" \\ INSERT DATA { <urn:x> } ;\n\u00e9\u4e2d <tag>'
FACT = Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partnerOf"), Literal(ADVERSARIAL, language="en"))

CASES = {
    "extract/document": (
        dict(
            document="urn:ragprov:doc:1",
            title=ADVERSARIAL,
            source="file:///tmp/a.txt",
            mime_type="text/plain",
            page_count=2,
        ),
        lambda w: P.document_quads(
            w,
            iri("urn:ragprov:doc:1"),
            title=ADVERSARIAL,
            source="file:///tmp/a.txt",
            mime_type="text/plain",
            page_count=2,
        ),
    ),
    "extract/activity": (
        dict(
            activity="urn:a:1",
            label="chunker extraction",
            used=["urn:p:1", "urn:p:2"],
            agent="urn:ragprov:component:chunker",
            agent_label="chunker",
            version="0.1.0",
            started=T0,
            chunk_size=100,
            chunk_overlap=10,
            llm_model="m 1",
            ontology="urn:onto",
        ),
        lambda w: P.activity_quads(
            w,
            iri("urn:a:1"),
            label="chunker extraction",
            used=[iri("urn:p:1"), iri("urn:p:2")],
            agent=iri("urn:ragprov:component:chunker"),
            agent_label="chunker",
            version="0.1.0",
            started=T0,
            chunk_size=100,
            chunk_overlap=10,
            llm_model="m 1",
            ontology=iri("urn:onto"),
        ),
    ),
    "extract/page": (
        dict(page="urn:ragprov:doc:1/p1", document="urn:ragprov:doc:1", number=1, activity="urn:a:1"),
        lambda w: P.page_quads(
            w, iri("urn:ragprov:doc:1/p1"), document=iri("urn:ragprov:doc:1"), number=1, activity=iri("urn:a:1")
        ),
    ),
    "extract/chunk": (
        dict(
            chunk="urn:c:1",
            parent="urn:ragprov:doc:1/p1",
            index=3,
            offset=120,
            length=40,
            activity="urn:a:1",
            text=ADVERSARIAL,
        ),
        lambda w: P.chunk_quads(
            w,
            iri("urn:c:1"),
            parent=iri("urn:ragprov:doc:1/p1"),
            index=3,
            offset=120,
            length=40,
            activity=iri("urn:a:1"),
            text=ADVERSARIAL,
        ),
    ),
    "extract/statement": (
        dict(statement="urn:s:1", fact=FACT, derived_from=["urn:c:1", "urn:c:2"], activity="urn:a:1"),
        lambda w: P.statement_quads(
            w,
            iri("urn:s:1"),
            fact=(str(FACT.subject), str(FACT.predicate), str(FACT.object)),
            derived_from=[iri("urn:c:1"), iri("urn:c:2")],
            activity=iri("urn:a:1"),
        ),
    ),
}


@pytest.mark.parametrize("make_store", [EmbeddedStore, ReificationStore], ids=["rdf12", "reification"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_builder_writes_what_the_template_defines(name, make_store):
    params, build = CASES[name]
    by_template, by_builder = make_store(), make_store()
    by_template.update(catalog().render(name, by_template.dialect, **params))
    w = QuadWriter(by_builder)
    build(w)
    w.flush()
    assert quad_set(by_template) == quad_set(by_builder)
    assert len(quad_set(by_builder)) > 3


def test_optional_parameters_may_be_left_out():
    s = EmbeddedStore()
    s.update(catalog().render("extract/chunk", "rdf12", chunk="urn:c:1", parent="urn:d:1", index=0, length=1, activity="urn:a:1", text="x"))
    assert not s.ask("ASK { GRAPH ?g { ?c <https://trustgraph.ai/ns/charOffset> ?o } }")


def test_exists_template(memory_store):
    assert not memory_store.ask(catalog().render("extract/exists", "rdf12", node="urn:a:1"))
    memory_store.update(catalog().render("extract/page", "rdf12", page="urn:a:1", document="urn:d", number=1, activity="urn:x"))
    assert memory_store.ask(catalog().render("extract/exists", "rdf12", node="urn:a:1"))


LINEAGE = {
    "lineage/edge-sources": dict(edges=[FACT]),
    "lineage/extraction": dict(document="urn:ragprov:doc:1"),
    "lineage/document-answers": dict(document="urn:ragprov:doc:1"),
    "lineage/document-questions": dict(document="urn:ragprov:doc:1", limit=50),
    "lineage/document-traces": dict(document="urn:ragprov:doc:1", traces=["urn:ragprov:q:1/session", "urn:ragprov:q:1"]),
    "lineage/document-page": dict(document="urn:ragprov:doc:1", limit=50, offset=50),
    "lineage/answer-details": dict(questions=["urn:ragprov:q:1"], stages=["urn:ragprov:s:1"]),
    "lineage/sample-edges": dict(limit=3),
    "extract/chunkings": dict(document="urn:ragprov:doc:1"),
}


@pytest.mark.parametrize("dialect", ["rdf12", "rdfstar", "reification"])
@pytest.mark.parametrize("name", [*sorted(LINEAGE), "extract/exists"])
def test_lineage_templates_render_in_every_dialect(name, dialect):
    cat = catalog()
    assert cat.variables(name) == set(cat.info(name).params)
    text = cat.render(name, dialect, **LINEAGE.get(name, {"node": "urn:x"}))
    assert "<<" not in text or dialect != "reification"
    if dialect != "rdfstar":  # pyoxigraph parses rdf12 and plain SPARQL 1.1; << >> means something else to it
        EmbeddedStore().query(text)


def test_every_extract_and_lineage_template_is_covered():
    names = {n for n in catalog().names() if n.split("/")[0] in ("extract", "lineage")}
    assert names == set(CASES) | set(LINEAGE) | {"extract/exists"}


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ragprov.loaders._rdf import mint, string  # noqa: E402
from ragprov.sparql.escape import sparql_string  # noqa: E402


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_bulk_literal_spelling_equals_the_template_filter(value):
    assert string(value) == sparql_string(value)


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1))
def test_minted_iris_are_valid_and_distinct(key):
    from pyoxigraph import NamedNode

    spelled = mint("urn:graphrag:entity:", key)
    node = NamedNode(spelled[1:-1])  # raises on an invalid IRI
    assert node.value.startswith("urn:graphrag:entity:")
    assert mint("urn:graphrag:entity:", key + "x") != spelled
