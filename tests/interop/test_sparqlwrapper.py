"""Every read template, sent by SPARQLWrapper (the Python client most SPARQL users reach for) to a
real ``oxigraph serve`` on 127.0.0.1, answers the rows ragprov's own EndpointStore reads.

SPARQLWrapper picks the HTTP method and the Accept header from the query type it detects in the
text (``_parseQueryType``); its comment stripper keeps every other line of a comment block, so a
word such as "described" in a comment turned ``trace/list`` into a DESCRIBE. Detection here is
SPARQLWrapper's own, never set by the test."""

from __future__ import annotations

import re

import pytest
from pyoxigraph import BlankNode, Literal, NamedNode, Triple
from SPARQLWrapper import JSON, SPARQLWrapper

from ragprov.sparql import Dialect
from ragprov.sparql.templates import catalog
from tests.core.samples import samples
from tests.engines import server_store
from tests.pipelines import graphs
from tests.pipelines.conftest import FACTS
from tests.pipelines.test_retrieve_templates import PARAMS as RETRIEVE_PARAMS

READS = [n for n in catalog().names() if catalog().info(n).kind in ("select", "ask")]
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def _read_cases() -> dict[str, dict]:
    """Every read template with parameters: the core samples, the retrieval templates' ones, and
    values of the hand-built graph for the rest."""
    out = {n: p for n, p in samples().items() if catalog().info(n).kind in ("select", "ask")}
    out.update(RETRIEVE_PARAMS)
    chunk, edge = graphs.chunk_iri("c0"), graphs.fact("scrooge", "partner", "marley")
    out.update({
        "lineage/document-answers": dict(document=graphs.DOC, facts_graph=FACTS),
        "lineage/document-questions": dict(document=graphs.DOC, facts_graph=FACTS, limit=10),
        "lineage/document-traces": dict(document=graphs.DOC,
                                        traces=[NamedNode("urn:trustgraph:question:1/session"), NamedNode("urn:trustgraph:question:1")]),
        "lineage/document-page": dict(document=graphs.DOC, limit=10, offset=5),
        "migrate/document-links-count": {},
        "migrate/unnamed-stages": {},
        "migrate/unlinked-traces": {},
        "lineage/answer-details": dict(questions=[NamedNode("urn:trustgraph:question:1")],
                                       stages=[NamedNode("urn:trustgraph:prov:focus:1")]),
        "lineage/edge-sources": dict(edges=[edge]),
        "record/document-links": dict(edges=[edge], items=[chunk], reports=[]),
        "lineage/extraction": dict(document=graphs.DOC),
        "lineage/sample-edges": dict(limit=5),
        "serve/node-sources": dict(node=chunk),
        "serve/texts": dict(nodes=[chunk, graphs.PAGE]),
        "extract/chunkings": dict(document=graphs.DOC),
        "extract/exists": dict(node=chunk),
    })
    return out


CASES = _read_cases()


def _source_without_jinja(name: str) -> str:
    """The template text as it is sent: its YAML header (the leading comment block) and tags
    removed, its values replaced by an IRI."""
    text = catalog().info(name).path.read_text(encoding="utf-8")
    text = re.sub(r"\A(#[^\n]*\n)+", "", text)
    text = re.sub(r"\{%.*?%\}\n?", "", text, flags=re.S)
    return re.sub(r"\{\{.*?\}\}", "<urn:x>", text, flags=re.S)


@pytest.mark.parametrize("name", READS)
def test_sparqlwrapper_detects_the_declared_kind_in_every_read_template_source(name):
    detected = SPARQLWrapper("http://127.0.0.1:1/sparql")._parseQueryType(_source_without_jinja(name))
    assert detected == catalog().info(name).kind.upper(), f"{name}: SPARQLWrapper reads it as {detected}"


@pytest.mark.parametrize("name", READS)
def test_no_comment_before_the_query_form_holds_a_word_sparqlwrapper_takes_for_one(name):
    """SPARQLWrapper strips only every other line of a comment block, so which comment it reads
    depends on the lines above it: none may hold a query-form word ("removed" holds MOVE)."""
    form = SPARQLWrapper.pattern  # SPARQLWrapper's own query-form pattern (case-insensitive, no word bounds)
    for line in _source_without_jinja(name).splitlines():
        text = line.strip()
        if text.startswith("#"):
            assert not form.search(text), f"{name}: SPARQLWrapper may read {text!r} as the query form"
        elif form.match(text) and not text.upper().startswith(("PREFIX", "BASE")):
            break


@pytest.mark.parametrize("dialect", list(Dialect))
@pytest.mark.parametrize("name", sorted(CASES))
def test_sparqlwrapper_detects_the_declared_kind_in_every_rendering(name, dialect):
    text = catalog().render(name, dialect, **CASES[name])
    detected = SPARQLWrapper("http://127.0.0.1:1/sparql")._parseQueryType(text)
    assert detected == catalog().info(name).kind.upper(), f"{name}: SPARQLWrapper reads it as {detected}"


# -- the same rows through both clients ------------------------------------------------------------
def _canonical_ox(term) -> str:
    if isinstance(term, NamedNode):
        return f"<{term.value}>"
    if isinstance(term, BlankNode):
        return "_:"  # blank node labels are not stable across result documents
    if isinstance(term, Literal):
        if term.language:
            return f"{term.value!r}@{term.language}"
        return f"{term.value!r}^^<{term.datatype.value}>"
    if isinstance(term, Triple):
        return f"<< {_canonical_ox(term.subject)} {_canonical_ox(term.predicate)} {_canonical_ox(term.object)} >>"
    raise TypeError(term)


def _canonical_json(b: dict) -> str:
    kind = b["type"]
    if kind == "uri":
        return f"<{b['value']}>"
    if kind == "bnode":
        return "_:"
    if kind in ("literal", "typed-literal"):
        if "xml:lang" in b:
            return f"{b['value']!r}@{b['xml:lang']}"
        return f"{b['value']!r}^^<{b.get('datatype', XSD_STRING)}>"
    if kind == "triple":
        v = b["value"]
        return f"<< {_canonical_json(v['subject'])} {_canonical_json(v['predicate'])} {_canonical_json(v['object'])} >>"
    raise TypeError(b)


@pytest.fixture(scope="module")
def loaded_store():
    """The session's ``oxigraph serve``, holding the hand-built Christmas Carol facts and the
    traces the core samples record (one of each kind)."""
    store = server_store("oxigraph", "oxigraph-http", "rdf12")
    try:
        graphs.build(store, FACTS)
        for name, params in samples().items():
            if catalog().info(name).kind == "update" and name != "trace/delete":
                store.update(catalog().render(name, store.dialect, **params))
        yield store
    finally:
        store.clear()
        store.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_sparqlwrapper_reads_the_rows_endpointstore_reads(loaded_store, name):
    text = catalog().render(name, loaded_store.dialect, **CASES[name])
    client = SPARQLWrapper(loaded_store.config.query_url)
    client.setQuery(text)
    client.setReturnFormat(JSON)
    assert client.queryType == catalog().info(name).kind.upper()
    answer = client.query().convert()
    ours = loaded_store.query(text)
    if isinstance(ours, bool):
        assert answer["boolean"] is ours
        return
    theirs = {
        tuple(sorted((k, _canonical_json(v)) for k, v in row.items())) for row in answer["results"]["bindings"]
    }
    mine = {tuple(sorted((k, _canonical_ox(v)) for k, v in row.items() if v is not None)) for row in ours}
    assert theirs == mine
    assert answer["head"]["vars"] == list(ours.variables)


def test_every_read_template_is_sent_through_sparqlwrapper():
    assert set(READS) == set(CASES)
