"""Microsoft GraphRAG output: every fixture version loads, counts match the parquet tables, every
relationship Statement reaches a document, reloads add nothing."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from pyoxigraph import NamedNode

from ragprov.loaders.graphrag import load_graphrag, open_output
from ragprov.namespaces import FACTS_GRAPH

from .helpers import GRAPHRAG, ReificationStore, copy_fixture

PREFIXES = """PREFIX tg: <https://trustgraph.ai/ns/>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""

# class -> table whose row count it must equal; facts-graph classes are counted in the facts graph
FACT_CLASSES = {
    "Relationship": "relationships",
    "Community": "communities",
    "CommunityReport": "community_reports",
    "Claim": "covariates",
}
SOURCE_CLASSES = {"Document": "documents", "TextUnit": "text_units", "Statement": "relationships"}
EXPECTED_VERSION = {
    "christmas-carol-v3": "3",
    "christmas-carol-v0.9": "1",
    "operation-dulce-v1": "1",
    "operation-dulce-v3": "3",
}


def _rows(folder, table: str) -> int:
    for name in (f"{table}.parquet", f"create_final_{table}.parquet"):
        if (folder / name).is_file():
            return pq.ParquetFile(folder / name).metadata.num_rows
    raise AssertionError(f"{folder} has no {table}")


def _count(store, pattern: str, graph: str | None) -> int:
    body = f"GRAPH <{graph}> {{ {pattern} }}" if graph else pattern
    return int(store.select(f"{PREFIXES} SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {body} }}")[0]["n"].value)


def _check_counts(store, folder, facts: str | None) -> None:
    for cls, table in FACT_CLASSES.items():
        assert _count(store, f"?x a tg:{cls}", facts) == _rows(folder, table), cls
    entities = _count(store, "?x a tg:Entity FILTER NOT EXISTS { ?x a tg:UnresolvedEntity }", facts)
    assert entities == _rows(folder, "entities")
    for cls, table in SOURCE_CLASSES.items():
        assert _count(store, f"?x a tg:{cls}", "urn:graph:source") == _rows(folder, table), cls


def _unreached_statements(store) -> int:
    q = PREFIXES + """SELECT (COUNT(?s) AS ?n) WHERE { GRAPH <urn:graph:source> {
        ?s a tg:Statement .
        FILTER NOT EXISTS { ?s prov:wasDerivedFrom+ ?d . ?d a tg:Document . }
    } }"""
    return int(store.select(q)[0]["n"].value)


@pytest.mark.parametrize("name", sorted(GRAPHRAG))
def test_fixture_loads_with_counts_equal_to_rows(store, name):
    folder = GRAPHRAG[name]
    report = load_graphrag(store, folder, show_progress=False)
    assert report.version == EXPECTED_VERSION[name]
    assert report.rows["relationships"] == _rows(folder, "relationships")
    _check_counts(store, folder, None)
    assert _count(store, "?x a tg:Statement ; tg:reifies ?e", "urn:graph:source") == _rows(folder, "relationships")
    assert _unreached_statements(store) == 0
    # the load activity generated every text unit and statement
    q = PREFIXES + f"""ASK {{ GRAPH <urn:graph:source> {{ <{report.activity}> a prov:Activity ;
        prov:wasAssociatedWith ?agent . ?agent a prov:SoftwareAgent }} }}"""
    assert store.ask(q)


@pytest.mark.parametrize("name", ["operation-dulce-v3", "christmas-carol-v0.9"])
def test_reload_adds_nothing(store, name):
    load_graphrag(store, GRAPHRAG[name], show_progress=False)
    before = store.count()
    report = load_graphrag(store, GRAPHRAG[name], show_progress=False)
    assert report.skipped and report.quads == 0
    assert store.count() == before


def test_reload_after_partial_write_completes_without_duplicates(memory_store, tmp_path):
    """IRIs come from GraphRAG ids: re-running a load over part of it converges to one copy."""
    folder = GRAPHRAG["operation-dulce-v3"]
    load_graphrag(memory_store, folder, show_progress=False)
    full = memory_store.count()
    activity = load_graphrag(memory_store, folder, show_progress=False).activity
    memory_store.update(f"DELETE WHERE {{ GRAPH <urn:graph:source> {{ <{activity}> ?p ?o }} }}")
    report = load_graphrag(memory_store, folder, show_progress=False)
    assert not report.skipped
    assert memory_store.count() == full


def test_facts_graph_keeps_the_default_graph_empty(memory_store):
    folder = GRAPHRAG["operation-dulce-v3"]
    load_graphrag(memory_store, folder, facts_graph=FACTS_GRAPH, show_progress=False)
    assert memory_store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"].value == "0"
    _check_counts(memory_store, folder, FACTS_GRAPH.value)
    assert _unreached_statements(memory_store) == 0


def test_entities_have_labels_and_descriptions_for_retrieval(memory_store):
    load_graphrag(memory_store, GRAPHRAG["christmas-carol-v3"], show_progress=False)
    rows = memory_store.select(PREFIXES + """SELECT ?d ?type WHERE {
        ?e a tg:Entity ; rdfs:label "EBENEZER SCROOGE" ; dcterms:description ?d ; tg:entityType ?type }""")
    assert rows and rows[0]["type"].value == "PERSON" and "Scrooge" in rows[0]["d"].value
    # relationships: a singleton predicate between two labelled entities, labelled with its description
    rows = memory_store.select(PREFIXES + """SELECT ?sl ?pl ?ol WHERE {
        ?s ?p ?o . ?p rdfs:subPropertyOf tg:relatedTo ; rdfs:label ?pl .
        ?s rdfs:label ?sl . ?o rdfs:label ?ol } LIMIT 5""")
    assert len(rows) == 5 and all(r["pl"].value for r in rows)


def test_v09_parents_are_computed_and_children_derived(memory_store):
    load_graphrag(memory_store, GRAPHRAG["christmas-carol-v0.9"], show_progress=False)
    q = PREFIXES + """SELECT ?l (COUNT(DISTINCT ?c) AS ?n) (COUNT(DISTINCT ?p) AS ?parents) WHERE {
        ?c a tg:Community ; tg:level ?l . OPTIONAL { ?c tg:parent ?p } } GROUP BY ?l ORDER BY ?l"""
    levels = {int(r["l"].value): (int(r["n"].value), int(r["parents"].value)) for r in memory_store.select(q)}
    assert levels[0][1] == 0
    assert all(n > 0 and parents > 0 for level, (n, parents) in levels.items() if level > 0)
    # every parent link has its child link back, and a child's level is its parent's + 1
    q = PREFIXES + """SELECT (COUNT(*) AS ?bad) WHERE { ?c tg:parent ?p ; tg:level ?lc . ?p tg:level ?lp .
        FILTER(NOT EXISTS { ?p tg:child ?c } || ?lc != ?lp + 1) }"""
    assert memory_store.select(q)[0]["bad"].value == "0"


def test_v3_children_match_the_table(memory_store):
    folder = GRAPHRAG["christmas-carol-v3"]
    load_graphrag(memory_store, folder, show_progress=False)
    table = pq.read_table(folder / "communities.parquet", columns=["community", "children"]).to_pylist()
    expected = sum(len(r["children"]) for r in table)
    q = PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?c a tg:Community ; tg:child ?k }"
    assert int(memory_store.select(q)[0]["n"].value) == expected


def test_reports_keep_findings_and_rating_explanation(memory_store):
    folder = GRAPHRAG["operation-dulce-v3"]
    load_graphrag(memory_store, folder, show_progress=False)
    table = pq.read_table(folder / "community_reports.parquet").to_pylist()
    findings = sum(len(r["findings"]) for r in table)
    q = PREFIXES + """SELECT (COUNT(DISTINCT ?f) AS ?n) (COUNT(DISTINCT ?x) AS ?e) WHERE {
        ?r a tg:CommunityReport ; tg:finding ?f ; tg:ratingExplanation ?x ; tg:summary ?s ; tg:content ?c ; tg:rating ?rating .
        ?f a tg:ReportFinding .
        ?f tg:summary ?fs ; tg:explanation ?fe }"""
    row = memory_store.select(q)[0]
    assert int(row["n"].value) == findings and int(row["e"].value) == len(table)


def test_pre_v1_shape_loads(memory_store, tmp_path):
    """GraphRAG 0.3-0.5: entities.name, documents.raw_content, relationships.rank, communities keyed
    by their Leiden number in `id` without `community`/`parent`/`entity_ids`."""
    import pyarrow as pa

    folder = copy_fixture("christmas-carol-v0.9", tmp_path)

    def rewrite(table: str, fn) -> None:
        path = folder / f"create_final_{table}.parquet"
        pq.write_table(fn(pq.read_table(path)), path)

    rewrite("entities", lambda t: t.rename_columns(["name" if c == "title" else c for c in t.column_names]))
    rewrite(
        "documents",
        lambda t: t.rename_columns(["raw_content" if c == "text" else c for c in t.column_names]).drop_columns(
            ["human_readable_id"]
        ),
    )
    rewrite("relationships", lambda t: t.rename_columns(["rank" if c == "combined_degree" else c for c in t.column_names]))

    def old_communities(t):
        ids = pa.array([str(c) for c in t.column("community").to_pylist()])
        t = t.drop_columns(["id", "community", "human_readable_id", "entity_ids"])
        return t.append_column("id", ids)

    rewrite("communities", old_communities)
    rewrite(
        "community_reports",
        lambda t: t.set_column(
            t.column_names.index("community"),
            "community",
            pa.array([str(c) for c in t.column("community").to_pylist()]),
        ),
    )
    report = load_graphrag(memory_store, folder, show_progress=False)
    assert report.version == "0"
    _check_counts(memory_store, folder, None)
    assert _unreached_statements(memory_store) == 0
    q = PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?c a tg:Community ; tg:level 1 ; tg:parent ?p ; tg:hasMember ?m }"
    assert int(memory_store.select(q)[0]["n"].value) > 0
    q = PREFIXES + 'ASK { GRAPH <urn:graph:source> { ?d a tg:Document ; tg:humanReadableId 1 } }'
    assert memory_store.ask(q)  # no human_readable_id: the 1-based row number, as GraphRAG's migration does


def test_reification_dialect_store(tmp_path):
    store = ReificationStore()
    folder = GRAPHRAG["operation-dulce-v3"]
    load_graphrag(store, folder, show_progress=False)
    _check_counts(store, folder, None)
    assert _unreached_statements(store) == 0
    q = PREFIXES + """ASK { GRAPH <urn:graph:source> { ?s tg:reifies ?st . ?st a <http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement> ;
        <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> ?x } }"""
    assert store.ask(q)


def test_open_output_reports_version_and_tables():
    out = open_output(GRAPHRAG["christmas-carol-v0.9"])
    assert out.version == "1" and "nodes" in out.tables and out.tables["entities"].rows == 260


def test_human_readable_ids_are_kept_as_written(memory_store):
    """Dulce v3 documents are 1-based while its text units are 0-based: both are kept as written."""
    folder = GRAPHRAG["operation-dulce-v3"]
    load_graphrag(memory_store, folder, show_progress=False)
    q = PREFIXES + """SELECT ?h WHERE { GRAPH <urn:graph:source> { ?x a tg:%s ; tg:humanReadableId ?h } } ORDER BY ?h LIMIT 1"""
    assert memory_store.select(q % "Document")[0]["h"].value == "1"
    assert memory_store.select(q % "TextUnit")[0]["h"].value == "0"


def test_placeholder_entities_for_pruned_endpoints(memory_store):
    report = load_graphrag(memory_store, GRAPHRAG["operation-dulce-v3"], show_progress=False)
    assert report.placeholders == 2
    q = PREFIXES + 'ASK { ?e a tg:Entity, tg:UnresolvedEntity ; rdfs:label "ELEVATOR" }'
    assert memory_store.ask(q)


def test_skip_policy_leaves_out_dangling_relationships(memory_store):
    report = load_graphrag(memory_store, GRAPHRAG["operation-dulce-v3"], unknown_entities="skip", show_progress=False)
    assert report.skipped_relationships == 2
    q = PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?r a tg:Relationship }"
    assert int(memory_store.select(q)[0]["n"].value) == 105
    assert not memory_store.ask(PREFIXES + "ASK { ?e a tg:UnresolvedEntity }")


def test_statements_and_text_units_have_the_template_shape(memory_store):
    """The GraphRAG bulk path spells statements and chunks itself: they must be what extract/statement
    and extract/chunk define (a chunk may carry extra GraphRAG attributes)."""
    from pyoxigraph import Quad, Triple

    from ragprov.sparql.templates import render
    from ragprov.store import EmbeddedStore

    folder = GRAPHRAG["operation-dulce-v3"]
    report = load_graphrag(memory_store, folder, show_progress=False)
    entities = {r["title"]: r["id"] for r in pq.read_table(folder / "entities.parquet").to_pylist()}
    rel = pq.read_table(folder / "relationships.parquet").to_pylist()[0]
    stmt = NamedNode(f"urn:graphrag:relationship:{rel['id']}/statement")
    fact = Triple(
        NamedNode(f"urn:graphrag:entity:{entities[rel['source']]}"),
        NamedNode(f"urn:graphrag:relationship:{rel['id']}"),
        NamedNode(f"urn:graphrag:entity:{entities[rel['target']]}"),
    )
    units = [f"urn:graphrag:text_unit:{u}" for u in rel["text_unit_ids"]]
    ref = EmbeddedStore()
    ref.update(render("extract/statement", "rdf12", statement=stmt, fact=fact, derived_from=units, activity=report.activity))
    expected = set(ref.raw.quads_for_pattern(None, None, None, None))
    loaded = set(memory_store.raw.quads_for_pattern(stmt, None, None, None))
    assert loaded == expected

    unit = pq.read_table(folder / "text_units.parquet").to_pylist()[2]
    chunk = NamedNode(f"urn:graphrag:text_unit:{unit['id']}")
    ref = EmbeddedStore()
    ref.update(render(
        "extract/chunk", "rdf12", chunk=chunk, parent=f"urn:graphrag:document:{unit['document_id']}", index=2,
        length=len(unit["text"]), activity=report.activity, text=unit["text"],
    ))
    expected = set(ref.raw.quads_for_pattern(None, None, None, None))
    assert expected <= set(memory_store.raw.quads_for_pattern(chunk, None, None, None))
    assert all(isinstance(q, Quad) for q in expected)
