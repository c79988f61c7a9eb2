"""The read templates retrieval uses (queries/retrieve/*): render in every dialect with values
only through filters, and answer on a store (each named here, so the catalog test sees them)."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal, NamedNode, Quad

from ragprov.retrieve import FactsReader, FactsSchema
from ragprov.sparql import Dialect
from ragprov.sparql.templates import catalog

from . import graphs
from .conftest import FACTS

SCHEMA = FactsSchema()
EDGE = graphs.fact("scrooge", "partner", "marley")
PARAMS = {
    "retrieve/entity-index": dict(
        facts_graph=FACTS,
        label_predicates=list(SCHEMA.label_predicates),
        description_predicates=list(SCHEMA.description_predicates),
    ),
    "retrieve/not-entities": dict(
        facts_graph=FACTS,
        terms=[graphs.n("scrooge"), graphs.n("partner", graphs.R)],
        excluded_types=list(SCHEMA.excluded_types),
    ),
    "retrieve/load-stamp": dict(),
    "retrieve/neighbourhood": dict(
        facts_graph=FACTS,
        entities=[graphs.n("scrooge")],
        limit=30,
        excluded_predicates=list(SCHEMA.excluded_predicates),
        excluded_namespaces=list(SCHEMA.excluded_namespaces),
    ),
    "retrieve/chunks": dict(limit=None, chunks=None),
    "retrieve/graphrag-reports": dict(facts_graph=FACTS, max_level=1),
    "retrieve/graphrag-report-texts": dict(facts_graph=FACTS, reports=[graphs.n("report")]),
    "retrieve/graphrag-report-children": dict(facts_graph=FACTS),
    "retrieve/graphrag-report-units": dict(facts_graph=FACTS, reports=[graphs.n("report")]),
    "retrieve/graphrag-entity-context": dict(facts_graph=FACTS, entities=[graphs.n("scrooge")]),
    "retrieve/graphrag-context-rows": dict(facts_graph=FACTS),
    "retrieve/entity-types": dict(facts_graph=FACTS, entities=[graphs.n("scrooge")]),
    "retrieve/descriptions": dict(facts_graph=FACTS, entities=[graphs.n("scrooge"), graphs.n("marley")],
                                  description_predicates=list(SCHEMA.description_predicates)),
    "retrieve/description-units": dict(entities=[graphs.n("scrooge"), graphs.n("marley")], limit=3),
    "retrieve/graphrag-texts": dict(facts_graph=FACTS, items=[graphs.n("scrooge"), graphs.chunk_iri("c0")]),
    "retrieve/graphrag-table-fields": dict(facts_graph=FACTS, items=[graphs.n("scrooge"), graphs.n("report"), graphs.chunk_iri("c0")]),
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
    candidates = {r["entity"] for r in run("retrieve/entity-index")}
    assert {graphs.n("scrooge"), graphs.n("partner", graphs.R)} <= candidates
    assert {r["term"] for r in run("retrieve/not-entities")} == {graphs.n("partner", graphs.R)}  # predicates are not entities
    assert graphs.n("partner", graphs.R) not in FactsReader(s, facts_graph=FACTS).read_entities()[0]
    facts = {(r["s"], r["p"], r["o"]) for r in run("retrieve/neighbourhood")}
    assert (graphs.n("scrooge"), graphs.n("partner", graphs.R), graphs.n("marley")) in facts
    assert all(p.value.startswith(("urn:test:rel:", "urn:test:age")) for _, p, _ in facts)  # rdf:type, labels, tg:description dropped
    reader = FactsReader(s, facts_graph=FACTS)
    assert set(reader.labels([graphs.n("scrooge"), graphs.n("partner", graphs.R)]).values()) == {"Ebenezer Scrooge", "business partner of"}
    sources = reader.edge_sources([EDGE])[EDGE]  # lineage/edge-sources, one query for all edges
    assert [(o.chunk, o.source.page, o.source.title, o.chunk_index) for o in sources] == [
        (graphs.chunk_iri("c0"), 1, "A Christmas Carol", 0)
    ]
    assert sources[0].citation() == reader.citation(sources[0].source) == "A Christmas Carol, p. 1, chunk 0"
    assert {r["chunk"] for r in run("retrieve/chunks")} == {graphs.chunk_iri(k) for k in graphs.CHUNKS}
    described = {(r["entity"], r["o"].value) for r in run("retrieve/descriptions")}
    assert described == {(graphs.n(k), graphs.ENTITIES[k][1]) for k in ("scrooge", "marley")}
    found = reader.descriptions([graphs.n("marley"), graphs.n("partner", graphs.R)])  # a predicate has none
    assert [(t.subject, t.object.value) for ts in found.values() for t in ts] == [(graphs.n("marley"), graphs.ENTITIES["marley"][1])]
    assert not list(run("retrieve/description-units"))  # this graph derives no entity from a chunk
    assert reader.description_origins([graphs.n("marley")], limit=3) == {}


def test_a_description_is_cited_by_its_entity_s_first_chunks_read_bounded_in_the_store(carol_store):
    """An entity found in many text units (a hub) reads ``limit`` of them per entity, by chunk
    index then IRI; units that are not chunks with text are never cited."""
    from ragprov.namespaces import LIBRARY_GRAPH, PROV, RDF, SOURCE_GRAPH, TG
    from ragprov.sparql.quads import insert_data

    s, marley, fred = carol_store, graphs.n("marley"), graphs.n("fred")
    unindexed, textless = NamedNode(f"{graphs.PAGE.value}/c9"), NamedNode(f"{graphs.PAGE.value}/c8")
    quads = [Quad(unindexed, RDF.type, TG.TextUnit, SOURCE_GRAPH), Quad(unindexed, TG.content, Literal("Fezziwig."), LIBRARY_GRAPH),
             Quad(textless, RDF.type, TG.Chunk, SOURCE_GRAPH),
             Quad(textless, TG.chunkIndex, Literal(-1), SOURCE_GRAPH)]
    for unit in (unindexed, textless, graphs.DOC, *(graphs.chunk_iri(k) for k in ("c3", "c1", "c2", "c0"))):
        quads.append(Quad(marley, PROV.wasDerivedFrom, unit, SOURCE_GRAPH))
    quads.append(Quad(fred, PROV.wasDerivedFrom, graphs.chunk_iri("c1"), SOURCE_GRAPH))
    s.update(insert_data(quads, s.dialect))
    rows = s.select(catalog().render("retrieve/description-units", s.dialect, entities=[marley, fred], limit=2))
    c0, c1 = graphs.chunk_iri("c0"), graphs.chunk_iri("c1")
    assert sorted((r["entity"].value, r["unit"].value) for r in rows) == sorted(
        [(marley.value, c0.value), (marley.value, c1.value), (fred.value, c1.value)])
    found = FactsReader(s, facts_graph=FACTS).description_origins([marley, fred, graphs.n("tim")], limit=10)
    assert {e: [o.chunk for o in origins] for e, origins in found.items()} == {
        # the unindexed unit last; the textless chunk and the document never
        marley: [graphs.chunk_iri(k) for k in ("c0", "c1", "c2", "c3")] + [unindexed],
        fred: [graphs.chunk_iri("c1")],
    }
    assert [o.citation() for o in found[marley][:2]] == ["A Christmas Carol, p. 1, chunk 0", "A Christmas Carol, p. 1, chunk 1"]


def _groups(text: str) -> list[str]:
    """The text each ``{ … }`` group holds directly (nested groups blanked out)."""
    out, stack = [], []
    for _i, ch in enumerate(text):
        if ch == "{":
            stack.append([])
        elif ch == "}":
            out.append("".join(stack.pop()))
        elif stack:
            stack[-1].append(ch)
    return out


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_every_values_block_sits_inside_the_union_branch_it_binds(name):
    """A ``VALUES`` beside a ``UNION`` makes engines run the branches unbound, then join: each
    branch starts from its own ``VALUES`` instead (the query stays bound on every engine)."""
    text = catalog().render(name, Dialect.RDF12, **PARAMS[name])
    assert not [g for g in _groups(text) if "UNION" in g and "VALUES" in g], text


def test_adversarial_values_cannot_change_a_query():
    from ragprov.errors import InvalidValueError

    with pytest.raises(InvalidValueError):
        catalog().render("retrieve/graphrag-texts", Dialect.RDF12, facts_graph=FACTS, items=["urn:x> } ; DROP ALL ; {"])
    text = catalog().render("retrieve/neighbourhood", Dialect.RDF12, facts_graph=None, entities=[NamedNode("urn:e")], limit=1,
                            excluded_predicates=[], excluded_namespaces=['x") } DROP ALL { ("'])
    assert 'STRSTARTS(STR(?p), "x\\") } DROP ALL { (\\"")' in text


def test_graphrag_index_templates_answer_on_the_loaded_index():
    import ragprov.loaders.graphrag as loader
    from ragprov.resources import data_dir
    from ragprov.store import EmbeddedStore

    s = EmbeddedStore()
    loader.load_graphrag(s, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS, show_progress=False)
    render = lambda name, **kw: s.select(catalog().render(name, s.dialect, **kw))  # noqa: E731
    rows = render("retrieve/graphrag-reports", facts_graph=FACTS, max_level=0)
    assert rows and all(int(r["level"].value) == 0 for r in rows)
    parts = render("retrieve/graphrag-report-texts", facts_graph=FACTS, reports=[r["report"] for r in rows])
    assert {r["report"] for r in parts} == {r["report"] for r in rows} and any("finding" in r for r in parts)
    # the hierarchy dynamic community selection walks: a root report's children are reports one level down
    tree = render("retrieve/graphrag-report-children", facts_graph=FACTS)
    level = {r["report"]: int(r["level"].value) for r in tree}
    assert len(level) == len(render("retrieve/graphrag-reports", facts_graph=FACTS, max_level=None))
    edges = [(r["report"], r["child"]) for r in tree if "child" in r]
    assert edges and all(level[child] == level[parent] + 1 for parent, child in edges)
    assert len({child for _, child in edges}) == len(edges) == sum(1 for n in level.values() if n > 0)  # every deeper report has one parent
    # the text units a report rests on: those its members were extracted from
    root = next(parent for parent, _ in edges)
    units = render("retrieve/graphrag-report-units", facts_graph=FACTS, reports=[root])
    assert units and all(r["report"] == root and r["unit"].value.startswith("urn:graphrag:text_unit:") for r in units)
    assert sum(int(r["members"].value) for r in units) >= len(units)
    tim = next(
        r["entity"]
        for r in render("retrieve/entity-index", **{**PARAMS["retrieve/entity-index"]})
        if "label" in r and r["label"].value == "TINY TIM"
    )
    context = render("retrieve/graphrag-entity-context", facts_graph=FACTS, entities=[tim])
    assert {r["kind"].value for r in context} == {"report", "relationship", "claim", "text_unit"}
    every = render("retrieve/graphrag-context-rows", facts_graph=FACTS)  # the same rows, for every entity at once
    assert {tuple(sorted((k, v.value) for k, v in r.items())) for r in every if r["entity"] == tim} == {
        tuple(sorted((k, v.value) for k, v in r.items())) for r in context}
    assert len({r["entity"] for r in every}) > 50
    unit = next(r["item"] for r in context if r["kind"].value == "text_unit")
    rows = render("retrieve/graphrag-texts", facts_graph=FACTS, items=[tim, unit])
    labels = {(r["item"], r["label"].value) for r in rows if "label" in r}
    texts = {r["item"]: r["text"].value for r in rows if "text" in r}
    assert (tim, "TINY TIM") in labels and "Tim" in texts[unit] and texts[tim]


RECORD = {
    "record/context-exploration": dict(
        exploration=NamedNode("urn:x:e"),
        question=NamedNode("urn:x:q"),
        derived_from=NamedNode("urn:x:g"),
        session=NamedNode("urn:x:q/session"),
        generated="2026-01-01T00:00:00Z",
        entities=[graphs.n("scrooge")],
        candidates=[NamedNode("urn:x:r1"), NamedNode("urn:x:r2")],
        batches=[{"iri": NamedNode("urn:x:b1"), "number": 1, "reports": [NamedNode("urn:x:r1")]}],
        prompt="entity-rrf-bm25+hashed-tf-embedding@1",
        embedding_model="hashed-tf-embedding@1",
    ),
    "record/context-focus": dict(
        focus=NamedNode("urn:x:f"),
        question=NamedNode("urn:x:q"),
        derived_from=[NamedNode("urn:x:e")],
        session=NamedNode("urn:x:q/session"),
        generated="2026-01-01T00:00:00Z",
        prompt=None,
        selections=[
            {
                "iri": NamedNode("urn:x:s1"),
                "item": graphs.n("partner", graphs.R),
                "kind": "relationship",
                "rank": 1,
                "score": 2.0,
                "tokens": 12,
                "edge": EDGE,
            },
            {"iri": NamedNode("urn:x:s2"), "item": graphs.n("scrooge"), "kind": "entity", "rank": 2, "score": 0.03,
             "tokens": 9, "edge": None, "similarity": 0.41},
        ],
        points=[NamedNode("urn:x:p1")],
    ),
    "record/map-result": dict(
        result=NamedNode("urn:x:m"),
        question=NamedNode("urn:x:q"),
        derived_from=NamedNode("urn:x:e"),
        session=NamedNode("urn:x:q/session"),
        generated="2026-01-01T00:00:00Z",
        batch=NamedNode("urn:x:b1"),
        points=[
            {"iri": NamedNode("urn:x:p1"), "content": 'say "hi" }', "score": 50.0, "reports": [NamedNode("urn:x:r1")]}
        ],
        in_token=None,
        out_token=None,
        prompt="global-map@1",
    ),
    "record/community-selection": dict(
        selection=NamedNode("urn:x:cs"),
        question=NamedNode("urn:x:q"),
        derived_from=NamedNode("urn:x:g"),
        session=NamedNode("urn:x:q/session"),
        generated="2026-01-01T00:00:00Z",
        threshold=1,
        ratings=[
            {"iri": NamedNode("urn:x:cs/rating/1"), "report": NamedNode("urn:x:r1"), "level": 0, "rating": 3.0, "rank": 1,
             "kept": True, "reason": 'says "partner" }'},
            {"iri": NamedNode("urn:x:cs/rating/2"), "report": NamedNode("urn:x:r2"), "level": None, "rating": 0.0, "rank": 2,
             "kept": False, "reason": None},
        ],
        in_token=None,
        out_token=None,
        prompt="report-rating-bm25@1",
    ),
    "record/drift-action": dict(
        action=NamedNode("urn:x:a"),
        question=NamedNode("urn:x:q"),
        derived_from=[NamedNode("urn:x:e")],
        session=NamedNode("urn:x:q/session"),
        generated="2026-01-01T00:00:00Z",
        query="q",
        depth=0,
        score=1.5,
        follow_ups=["tiny tim"],
        document=NamedNode("urn:x:a/answer"),
        content="answer",
        sub_trace=None,
        prompt=None,
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

