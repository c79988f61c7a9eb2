"""TrustGraph CLI's edge → document walk (``trustgraph.cli.show_explain_trace.trace_edge_provenance``,
trustgraph-cli 2.11.1) over stores ragprov's loaders wrote.

Its walk looks up ``?subgraph tg:contains <<edge>>`` in ``urn:graph:source`` and follows
``prov:wasDerivedFrom`` up to the root. ragprov's Statements ``tg:contains`` their fact (beside
``tg:reifies``), so the walk ends at the loaded document. The store answers TrustGraph's triple
look-ups through ``tests/interop/trustgraph_flow.py``; the walk is TrustGraph's.

Its look-up spells a literal object as a plain string (no datatype), so an edge whose object is a
typed literal is out of its reach whatever the store holds; the edges here end in IRIs or strings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("trustgraph.cli.show_explain_trace", reason="pip install 'ragprov[test]' (trustgraph-cli)")

from pyoxigraph import NamedNode, Triple
from trustgraph.api.explainability import ExplainabilityClient
from trustgraph.cli.show_explain_trace import trace_edge_provenance

from ragprov.loaders import load_documents, load_graphrag, load_triples
from ragprov.store import open_store

from .trustgraph_flow import StoreFlow

ROOT = Path(__file__).resolve().parents[2]
GRAPHRAG = ROOT / "plugin" / "data" / "graphrag" / "christmas-carol-v3"
SOURCE = NamedNode("urn:graph:source")


def _walk(store, edge: Triple) -> list[list[str]]:
    flow = StoreFlow(store)
    wire = {"s": edge.subject.value, "p": edge.predicate.value, "o": edge.object.value}
    chains = trace_edge_provenance(flow, None, wire, {}, ExplainabilityClient(flow, retry_delay=0, max_retries=1))
    return [[step["uri"] for step in chain] for chain in chains]


def test_trustgraph_walks_a_graphrag_relationship_to_its_document():
    store = open_store("memory:")
    load_graphrag(store, GRAPHRAG)
    rows = store.select(
        "PREFIX tg: <https://trustgraph.ai/ns/> PREFIX prov: <http://www.w3.org/ns/prov#> "
        "SELECT ?st ?e ?unit ?doc WHERE { GRAPH <urn:graph:source> { ?st tg:reifies ?e ; prov:wasDerivedFrom ?unit . "
        "?unit prov:wasDerivedFrom ?doc . ?doc a tg:Document } } ORDER BY ?st LIMIT 3"
    )
    assert len(rows) == 3
    for row in rows:
        chains = _walk(store, row["e"])
        # TrustGraph follows one parent per step: statement -> a text unit -> the document
        assert chains and all(c[0] == row["st"].value and c[-1] == row["doc"].value and len(c) == 3 for c in chains), chains


def test_trustgraph_walks_a_loaded_fact_to_its_chunk_and_document(tmp_path):
    store = open_store("memory:")
    doc = tmp_path / "carol.md"
    doc.write_text("Marley was dead, to begin with. Scrooge was his partner.\n")
    load_documents(store, [doc])
    (row,) = store.select(
        "PREFIX tg: <https://trustgraph.ai/ns/> PREFIX prov: <http://www.w3.org/ns/prov#> SELECT ?c ?d WHERE { "
        "GRAPH <urn:graph:source> { ?c a tg:Chunk ; prov:wasDerivedFrom+ ?d . ?d a tg:Document } }"
    )
    facts = tmp_path / "facts.nt"
    facts.write_text('<urn:e:scrooge> <urn:r:partnerOf> <urn:e:marley> .\n<urn:e:marley> <urn:r:name> "Jacob Marley" .\n')
    load_triples(store, facts, source=row["c"])
    statements = {r["st"].value for r in store.select(
        "PREFIX tg: <https://trustgraph.ai/ns/> SELECT ?st WHERE { GRAPH <urn:graph:source> { ?st a tg:Statement } }")}
    assert len(statements) == 2
    for fact in store.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }"):
        (chain,) = _walk(store, Triple(fact["s"], fact["p"], fact["o"]))
        assert chain[0] in statements and chain[1] == row["c"].value and chain[-1] == row["d"].value, chain
    # without tg:contains (a store loaded before it was written) the walk finds nothing: what this fixes
    store.update("DELETE WHERE { GRAPH <urn:graph:source> { ?st <https://trustgraph.ai/ns/contains> ?e } }")
    assert _walk(store, Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partnerOf"), NamedNode("urn:e:marley"))) == []
