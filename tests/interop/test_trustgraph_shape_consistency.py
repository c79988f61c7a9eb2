"""Why ragprov does not copy TrustGraph's trace shape verbatim (docs/trace-shape.md): a question
built by TrustGraph's own builder carries ``prov:startedAtTime`` (an activity's property, PROV-O)
while typed ``prov:Entity`` — HermiT finds that inconsistent with PROV-O; ragprov's shape is not."""

from __future__ import annotations

import pytest
from pyoxigraph import Triple

pytest.importorskip("trustgraph.provenance", reason="pip install 'ragprov[test]' (trustgraph-base)")

from trustgraph.provenance import grounding_triples, question_triples

from ragprov.qc import check_consistency

from .trustgraph_flow import from_trustgraph


@pytest.mark.slow
def test_trustgraph_built_question_is_inconsistent_with_prov_o():
    q = "urn:trustgraph:question:tg-1"
    built = question_triples(q, "Who was Marley?", timestamp="2026-01-01T00:00:00Z") + grounding_triples(
        "urn:trustgraph:prov:grounding:tg-1", q, ["Marley"]
    )
    triples = [Triple(from_trustgraph(t.s), from_trustgraph(t.p), from_trustgraph(t.o)) for t in built]
    report = check_consistency(triples)
    assert not report.consistent
    assert any(q in cause and "prov:Activity" in cause and "prov:Entity" in cause for cause in report.causes), report.causes
