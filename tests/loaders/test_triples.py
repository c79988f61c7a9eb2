"""Knowledge triples: facts in the facts graph, one Statement per fact, one Activity per load."""

from __future__ import annotations

import json

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from ragprov.loaders.documents import load_documents
from ragprov.loaders.triples import load_triples, statement_iri_for
from ragprov.namespaces import FACTS_GRAPH
from ragprov.navigate.lineage import Lineage

Q = """PREFIX tg: <https://trustgraph.ai/ns/>
PREFIX prov: <http://www.w3.org/ns/prov#>
"""
NT = """<urn:e:scrooge> <urn:r:partnerOf> <urn:e:marley> .
<urn:e:marley> <urn:r:diedIn> "1836"^^<http://www.w3.org/2001/XMLSchema#gYear> .
<urn:e:scrooge> <http://www.w3.org/2000/01/rdf-schema#label> "Ebenezer \\"Scrooge\\""@en .
"""


@pytest.fixture
def chunk(store, tmp_path):
    f = tmp_path / "carol.txt"
    f.write_text("Scrooge and Marley were partners. Marley died seven years ago.")
    load_documents(store, [f], show_progress=False)
    q = Q + "SELECT ?c WHERE { GRAPH <urn:graph:source> { ?c a tg:Chunk } }"
    return store.select(q)[0]["c"].value


def test_ntriples_facts_and_statements(store, tmp_path, chunk):
    f = tmp_path / "facts.nt"
    f.write_text(NT)
    report = load_triples(store, f, source=chunk, llm_model="test-llm 1", ontology="urn:onto:carol", show_progress=False)
    assert report.facts == 3 and not report.skipped
    assert store.ask('ASK { <urn:e:scrooge> <http://www.w3.org/2000/01/rdf-schema#label> "Ebenezer \\"Scrooge\\""@en }')
    q = Q + f"""SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ GRAPH <urn:graph:source> {{
        ?s a tg:Statement ; tg:reifies ?fact ; prov:wasDerivedFrom <{chunk}> ; prov:wasGeneratedBy <{report.activity}> .
        <{report.activity}> a prov:Activity ; tg:llmModel "test-llm 1" ; tg:ontology <urn:onto:carol> ; prov:used <{chunk}> }} }}"""
    assert store.select(q)[0]["n"].value == "3"
    edge = Triple(NamedNode("urn:e:marley"), NamedNode("urn:r:diedIn"), Literal("1836", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#gYear")))
    (chain,) = Lineage(store).edge_sources(edge)
    assert chain.statement.value == statement_iri_for(edge, [chunk])
    assert [n.kind for n in chain.nodes] == ["chunk", "page", "document"]


def test_reload_adds_nothing(store, tmp_path, chunk):
    f = tmp_path / "facts.nt"
    f.write_text(NT)
    load_triples(store, f, source=chunk, show_progress=False)
    before = store.count()
    assert load_triples(store, f, source=chunk, show_progress=False).skipped
    assert store.count() == before


def test_turtle_into_a_facts_graph(memory_store, tmp_path):
    f = tmp_path / "facts.ttl"
    f.write_text("@prefix e: <urn:e:> . e:tim e:sonOf e:bob ; e:age 6 .\n")
    load_triples(memory_store, f, source="urn:ragprov:doc:x", require_source=False, facts_graph=FACTS_GRAPH, show_progress=False)
    assert memory_store.ask("ASK { GRAPH <urn:graph:facts> { <urn:e:tim> <urn:e:age> 6 } }")
    assert not memory_store.ask("ASK { ?s ?p ?o }")


def test_json_facts_with_their_own_sources(memory_store, tmp_path):
    f = tmp_path / "facts.json"
    f.write_text(json.dumps({"triples": [
        {"s": "urn:e:a", "p": "urn:r:knows", "o": {"iri": "urn:e:b"}, "source": "urn:c:1"},
        {"s": "urn:e:a", "p": "urn:r:age", "o": 42},
        {"s": "urn:e:a", "p": "urn:r:name", "o": {"value": "Ann", "language": "en"}},
        {"s": "urn:e:a", "p": "urn:r:born", "o": {"value": "1800-01-01", "datatype": "http://www.w3.org/2001/XMLSchema#date"}},
    ]}))
    report = load_triples(memory_store, f, source="urn:c:2", require_source=False, show_progress=False)
    assert report.facts == 4
    assert memory_store.ask('ASK { <urn:e:a> <urn:r:age> 42 ; <urn:r:name> "Ann"@en ; <urn:r:knows> <urn:e:b> }')
    q = (
        Q
        + "SELECT ?src (COUNT(?s) AS ?n) WHERE { GRAPH <urn:graph:source> { ?s a tg:Statement ; prov:wasDerivedFrom ?src } } "
        "GROUP BY ?src ORDER BY ?src"
    )
    assert [(r["src"].value, r["n"].value) for r in memory_store.select(q)] == [("urn:c:1", "1"), ("urn:c:2", "3")]
