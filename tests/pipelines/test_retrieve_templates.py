"""The read templates retrieval uses (queries/retrieve/*): render in every dialect with values
only through filters, and answer on a store (each named here, so the catalog test sees them)."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from ragprov.navigate.facts import FactsReader, FactsSchema
from ragprov.sparql import Dialect
from ragprov.sparql.templates import catalog

from . import graphs
from .conftest import FACTS

SCHEMA = FactsSchema()
EDGE = graphs.fact("scrooge", "partner", "marley")
PARAMS = {
    "retrieve/entity-index": dict(facts_graph=FACTS, label_predicates=list(SCHEMA.label_predicates), description_predicates=list(SCHEMA.description_predicates), excluded_types=list(SCHEMA.excluded_types)),
    "retrieve/neighbourhood": dict(facts_graph=FACTS, entities=[graphs.n("scrooge")], limit=30, excluded_predicates=list(SCHEMA.excluded_predicates), excluded_namespaces=list(SCHEMA.excluded_namespaces)),
    "retrieve/chunks": dict(limit=None),
    "retrieve/graphrag-reports": dict(facts_graph=FACTS, max_level=1),
    "retrieve/graphrag-entity-context": dict(facts_graph=FACTS, entities=[graphs.n("scrooge")]),
    "retrieve/graphrag-texts": dict(facts_graph=FACTS, items=[graphs.n("scrooge"), graphs.chunk_iri("c0")]),
}


def test_every_retrieve_template_is_listed_here():
    assert sorted(n for n in catalog().names() if n.startswith("retrieve/")) == sorted(PARAMS)


@pytest.mark.parametrize("dialect", list(Dialect))
@pytest.mark.parametrize("name", sorted(PARAMS))
def test_retrieve_templates_render_in_every_dialect(name, dialect):
    text = catalog().render(name, dialect, **PARAMS[name])
    if dialect is Dialect.REIFICATION:
        assert "<<" not in text


def test_retrieve_templates_answer(carol_store):
    s = carol_store
    run = lambda name: s.select(catalog().render(name, s.dialect, **PARAMS[name]))  # noqa: E731
    entities = {r["entity"] for r in run("retrieve/entity-index")}
    assert graphs.n("scrooge") in entities and graphs.n("partner", graphs.R) not in entities  # predicates are not entities
    facts = {(r["s"], r["p"], r["o"]) for r in run("retrieve/neighbourhood")}
    assert (graphs.n("scrooge"), graphs.n("partner", graphs.R), graphs.n("marley")) in facts
    assert all(p.value.startswith(("urn:test:rel:", "urn:test:age")) for _, p, _ in facts)  # rdf:type, labels, tg:description dropped
    reader = FactsReader(s, facts_graph=FACTS)
    assert set(reader.labels([graphs.n("scrooge"), graphs.n("partner", graphs.R)]).values()) == {"Ebenezer Scrooge", "business partner of"}
    sources = reader.edge_sources([EDGE])[EDGE]  # lineage/edge-sources, one query for all edges
    assert [(o.chunk, o.source.page, o.source.title, o.chunk_index) for o in sources] == [(graphs.chunk_iri("c0"), 1, "A Christmas Carol", 0)]
    assert sources[0].citation() == reader.citation(sources[0].source) == "A Christmas Carol, p. 1, chunk 0"
    assert {r["chunk"] for r in run("retrieve/chunks")} == {graphs.chunk_iri(k) for k in graphs.CHUNKS}


def test_adversarial_values_cannot_change_a_query():
    from ragprov.errors import InvalidValueError

    with pytest.raises(InvalidValueError):
        catalog().render("retrieve/graphrag-texts", Dialect.RDF12, facts_graph=FACTS, items=["urn:x> } ; DROP ALL ; {"])
    text = catalog().render("retrieve/neighbourhood", Dialect.RDF12, facts_graph=None, entities=[NamedNode("urn:e")], limit=1,
                            excluded_predicates=[], excluded_namespaces=['x") } DROP ALL { ("'])
    assert 'STRSTARTS(STR(?p), "x\\") } DROP ALL { (\\"")' in text


def test_graphrag_index_templates_answer_on_the_loaded_index():
    loader = pytest.importorskip("ragprov.loaders.graphrag")
    from ragprov.resources import data_dir
    from ragprov.store import EmbeddedStore

    s = EmbeddedStore()
    loader.load_graphrag(s, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS, show_progress=False)
    render = lambda name, **kw: s.select(catalog().render(name, s.dialect, **kw))  # noqa: E731
    rows = render("retrieve/graphrag-reports", facts_graph=FACTS, max_level=0)
    assert rows and all(int(r["level"].value) == 0 for r in rows) and any("findingSummary" in r for r in rows)
    tim = next(r["entity"] for r in render("retrieve/entity-index", **{**PARAMS["retrieve/entity-index"]}) if "label" in r and r["label"].value == "TINY TIM")
    context = render("retrieve/graphrag-entity-context", facts_graph=FACTS, entities=[tim])
    assert {r["kind"].value for r in context} == {"report", "relationship", "claim", "text_unit"}
    unit = next(r["item"] for r in context if r["kind"].value == "text_unit")
    texts = {r["item"]: r for r in render("retrieve/graphrag-texts", facts_graph=FACTS, items=[tim, unit])}
    assert texts[tim]["label"].value == "TINY TIM" and "Tim" in texts[unit]["text"].value


RECORD = {
    "record/context-exploration": dict(
        exploration=NamedNode("urn:x:e"), derived_from=NamedNode("urn:x:g"), session=NamedNode("urn:x:q/session"), generated="2026-01-01T00:00:00Z",
        entities=[graphs.n("scrooge")], candidates=[NamedNode("urn:x:r1"), NamedNode("urn:x:r2")],
        batches=[{"iri": NamedNode("urn:x:b1"), "number": 1, "reports": [NamedNode("urn:x:r1")]}],
    ),
    "record/context-focus": dict(
        focus=NamedNode("urn:x:f"), derived_from=[NamedNode("urn:x:e")], session=NamedNode("urn:x:q/session"), generated="2026-01-01T00:00:00Z", prompt=None,
        selections=[{"iri": NamedNode("urn:x:s1"), "item": graphs.n("partner", graphs.R), "kind": "relationship", "rank": 1,
                     "score": 2.0, "tokens": 12, "edge": EDGE}], points=[NamedNode("urn:x:p1")],
    ),
    "record/map-result": dict(
        result=NamedNode("urn:x:m"), derived_from=NamedNode("urn:x:e"), session=NamedNode("urn:x:q/session"), generated="2026-01-01T00:00:00Z", batch=NamedNode("urn:x:b1"),
        points=[{"iri": NamedNode("urn:x:p1"), "content": 'say "hi" }', "score": 50.0, "reports": [NamedNode("urn:x:r1")]}],
        in_token=None, out_token=None, prompt="global-map@1",
    ),
    "record/drift-action": dict(
        action=NamedNode("urn:x:a"), derived_from=[NamedNode("urn:x:e")], session=NamedNode("urn:x:q/session"), generated="2026-01-01T00:00:00Z", query="q", depth=0,
        score=1.5, follow_ups=["tiny tim"], document=NamedNode("urn:x:a/answer"), content="answer", sub_trace=None, prompt=None,
    ),
}


@pytest.mark.parametrize("name", sorted(RECORD))
def test_new_record_templates_write_in_every_dialect(name, store):
    import datetime as dt

    params = {k: (dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc) if k == "generated" else v) for k, v in RECORD[name].items()}
    for dialect in Dialect:
        text = catalog().render(name, dialect, **params)
        assert "GRAPH <urn:graph:retrieval>" in text
        if dialect is Dialect.REIFICATION:
            assert "<<" not in text
    store.update(catalog().render(name, store.dialect, **params))
    assert store.ask("ASK { GRAPH <urn:graph:retrieval> { ?s ?p ?o } }")

