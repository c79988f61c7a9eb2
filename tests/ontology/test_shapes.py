"""SHACL shapes: the sample traces conform, and each kind of damage is reported."""

from __future__ import annotations

import sys

import pytest
import rdflib
from pyoxigraph import BlankNode, Literal, NamedNode, Quad, RdfFormat, Triple, parse, serialize

from ragprov.errors import ConfigurationError, InvalidValueError
from ragprov.qc import plain_rdf, validate_trace
from ragprov.vocab import DATATYPE_PROPERTIES, DATATYPES

from .conftest import PROV, RDF, SAMPLES, TG, XSD, edit, iri, sample, typed

Q = "urn:trustgraph:question:6f1c2a40-0001"
GROUNDING = "urn:trustgraph:prov:grounding:6f1c2a40-0001"
FOCUS = "urn:trustgraph:prov:focus:6f1c2a40-0001"
SYNTHESIS = "urn:trustgraph:prov:synthesis:6f1c2a40-0001"
AGENT_Q = "urn:trustgraph:agent:9d4e7f00-0003"
ANALYSIS_2 = "urn:trustgraph:agent:9d4e7f00-0003/i2"
OBSERVATION_2 = "urn:trustgraph:agent:9d4e7f00-0003/i2/observation"
CONCLUSION = "urn:trustgraph:agent:9d4e7f00-0003/final"
DOC_FOCUS = "urn:trustgraph:docrag:2b9e0c11-0002/focus"


def _p(t: Triple, name: str) -> bool:
    return t.predicate.value == name


def _s(t: Triple, subject: str) -> bool:
    return isinstance(t.subject, NamedNode) and t.subject.value == subject


@pytest.mark.parametrize("name", ["graphrag", "docrag", "agent"])
def test_samples_conform(name):
    report = validate_trace(SAMPLES / f"{name}.ttl")
    assert report.conforms, str(report)
    assert report.results == ()
    assert bool(report)


def test_a_focus_that_kept_no_edge_conforms():
    """When nothing matched, the Focus keeps no edge and the trace says exactly that."""
    triples = [
        t for t in plain_rdf(SAMPLES / "graphrag.ttl")
        if not _p(t, TG + "selectedEdge") and not t.subject.value.startswith("urn:trustgraph:prov:edge:")
    ]
    report = validate_trace(triples)
    assert report.conforms, str(report)


BROKEN = {
    "graphrag focus that keeps chunks": (
        "graphrag",
        dict(add=[Triple(iri(FOCUS), iri(TG + "selectedChunk"), iri("urn:doc:1/c0"))]),
        "keeps edges, not chunks",
    ),
    "question without tg:query": (
        "graphrag",
        dict(drop=lambda t: _p(t, TG + "query") and _s(t, Q)),
        "exactly one tg:query",
    ),
    "first stage linked to the question with wasDerivedFrom": (
        "graphrag",
        dict(drop=lambda t: _p(t, PROV + "wasGeneratedBy") and _s(t, GROUNDING),
             add=[Triple(iri(GROUNDING), iri(PROV + "wasDerivedFrom"), iri(Q))]),
        "never to the Question",
    ),
    "score that is not a double": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, typed(t.object.value, XSD + "decimal"))
             if _p(t, TG + "score") else t),
        "xsd:double",
    ),
    "question that is also an entity": (
        "graphrag",
        dict(add=[Triple(iri(Q), iri(RDF + "type"), iri(PROV + "Entity"))]),
        "never a prov:Entity",
    ),
    "question with two subtypes": (
        "graphrag",
        dict(add=[Triple(iri(Q), iri(RDF + "type"), iri(TG + "DocRagQuestion"))]),
        "exactly one question subtype",
    ),
    "question without software agent": (
        "graphrag",
        dict(drop=lambda t: _p(t, PROV + "wasAssociatedWith") and _s(t, Q)),
        "prov:SoftwareAgent",
    ),
    "finished question without synthesis": (
        "graphrag",
        dict(drop=lambda t: _s(t, SYNTHESIS)),
        "A finished GraphRAG question",
    ),
    "question that ends before it starts": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, typed("2025-11-21T10:29:00Z", XSD + "dateTime"))
             if _p(t, PROV + "endedAtTime") else t),
        "ends after it starts",
    ),
    "synthesis not typed Answer": (
        "graphrag",
        dict(drop=lambda t: _s(t, SYNTHESIS) and t.object == iri(TG + "Answer")),
        "also typed tg:Answer",
    ),
    "edge selection without rank": (
        "graphrag",
        dict(drop=lambda t: _p(t, TG + "rank")),
        "exactly one tg:rank",
    ),
    "edge given as a literal, not a quoted triple": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, Literal("Scrooge employs Bob"))
             if _p(t, TG + "edge") else t),
        "quoted triple",
    ),
    "negative token count": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, typed("-1", XSD + "integer"))
             if _p(t, TG + "inToken") else t),
        "MinInclusive",
    ),
    "prompt not id@version": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, Literal("extract concepts"))
             if _p(t, TG + "prompt") else t),
        "id@version",
    ),
    "stage skipped": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, iri(GROUNDING))
             if _s(t, FOCUS) and _p(t, PROV + "wasDerivedFrom") else t),
        "exactly one Exploration",
    ),
    "docrag focus keeping edges": (
        "docrag",
        dict(add=[Triple(iri(DOC_FOCUS), iri(TG + "selectedEdge"), iri("urn:trustgraph:prov:edge:6f1c2a40-0001:0"))]),
        "never both",
    ),
    "tool error on an observation not typed Error": (
        "agent",
        dict(drop=lambda t: _s(t, OBSERVATION_2) and t.object == iri(TG + "Error")),
        "also typed tg:Error",
    ),
    "tool call on an analysis not typed ToolUse": (
        "agent",
        dict(drop=lambda t: _s(t, ANALYSIS_2) and t.object == iri(TG + "ToolUse")),
        "also typed tg:ToolUse",
    ),
    "analysis derived from an analysis": (
        "agent",
        dict(change=lambda t: Triple(t.subject, t.predicate, iri("urn:trustgraph:agent:9d4e7f00-0003/i1"))
             if _s(t, ANALYSIS_2) and _p(t, PROV + "wasDerivedFrom") else t),
        "the one Observation before it",
    ),
    "agent trace with two conclusions": (
        "agent",
        dict(add=[Triple(iri(CONCLUSION + "2"), iri(RDF + "type"), iri(PROV + "Entity")),
                  Triple(iri(CONCLUSION + "2"), iri(RDF + "type"), iri(TG + "Conclusion")),
                  Triple(iri(CONCLUSION + "2"), iri(RDF + "type"), iri(TG + "Answer")),
                  Triple(iri(CONCLUSION + "2"), iri(TG + "document"), iri(CONCLUSION + "/text")),
                  Triple(iri(CONCLUSION + "2"), iri(PROV + "wasDerivedFrom"), iri(OBSERVATION_2))]),
        "exactly one Conclusion",
    ),
    "focus that names another question": (
        "graphrag",
        dict(change=lambda t: Triple(t.subject, t.predicate, iri(AGENT_Q))
             if _s(t, FOCUS) and _p(t, TG + "forQuestion") else t,
             add=[Triple(iri(AGENT_Q), iri(RDF + "type"), iri(TG + "Question"))]),
        "does not lead to",
    ),
    "focus that names two questions": (
        "graphrag",
        dict(add=[Triple(iri(FOCUS), iri(TG + "forQuestion"), iri(AGENT_Q)),
                  Triple(iri(AGENT_Q), iri(RDF + "type"), iri(TG + "Question"))]),
        "at most one question",
    ),
    "stage both generated and derived": (
        "agent",
        dict(add=[Triple(iri(CONCLUSION), iri(PROV + "wasGeneratedBy"), iri(AGENT_Q))]),
        "not both",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_traces_are_rejected(case):
    name, changes, message = BROKEN[case]
    data = edit(sample(name), **changes)
    report = validate_trace(data)
    assert not report.conforms
    assert not report
    text = " | ".join(f"{r.message} [{r.constraint}]" for r in report.violations)
    assert message in text, text


def test_the_three_spellings_of_a_quoted_triple_validate_alike():
    reified = sample("graphrag")
    statements = {t.subject for t in reified if t.object == iri(RDF + "Statement")}
    parts = {(t.subject, t.predicate.value): t.object for t in reified if t.subject in statements}
    quoted = {s: Triple(parts[(s, RDF + "subject")], parts[(s, RDF + "predicate")], parts[(s, RDF + "object")])
              for s in statements}
    rdf12 = [Triple(t.subject, t.predicate, quoted[t.object]) if t.object in quoted else t
             for t in reified if t.subject not in statements]
    assert not any(isinstance(t.object, NamedNode) and t.object in statements for t in rdf12)
    # RDF 1.2 triple terms, as pyoxigraph quads in named graphs
    quads = [Quad(t.subject, t.predicate, t.object, iri("urn:graph:retrieval")) for t in rdf12]
    assert validate_trace(quads).conforms
    # the same as RDF 1.2 Turtle text, and with the RDF-star << >> spelling (a reifier)
    text = serialize(rdf12, format=RdfFormat.TURTLE).decode()
    assert "<<(" in text
    assert validate_trace(text, format="turtle").conforms
    star = text.replace("<<(", "<<").replace(")>>", ">>")
    assert validate_trace(star, format="turtle").conforms
    assert sorted(map(str, plain_rdf(star, format="turtle"))) == sorted(map(str, plain_rdf(reified)))


def test_plain_rdf_names_a_triple_as_the_reification_dialect_does():
    from ragprov.sparql.dialect import statement_iri

    edge = Triple(iri("urn:x:s"), iri("urn:x:p"), typed("7", XSD + "integer"))
    out = plain_rdf([Triple(iri("urn:sel"), iri(TG + "edge"), edge), Triple(iri("urn:sel"), iri(TG + "edge"), edge)])
    assert Triple(iri("urn:sel"), iri(TG + "edge"), statement_iri(edge)) in out
    assert len(out) == 5  # no duplicates
    assert Triple(statement_iri(edge), iri(RDF + "object"), edge.object) in out


def test_every_input_form_is_accepted():
    path = SAMPLES / "agent.ttl"
    graph = rdflib.Graph().parse(path, format="turtle")
    dataset = rdflib.Dataset()
    dataset.graph(rdflib.URIRef("urn:graph:retrieval")).parse(path, format="turtle")
    for data in (path, path.read_text(encoding="utf-8"), path.read_bytes(), graph, dataset, sample("agent")):
        assert validate_trace(data).conforms, type(data)


def test_unreadable_input_is_a_clear_error():
    with pytest.raises(InvalidValueError, match="cannot read"):
        validate_trace("this is { not turtle")
    with pytest.raises(InvalidValueError, match="pyoxigraph triples or quads"):
        validate_trace([("s", "p", "o")])
    with pytest.raises(InvalidValueError, match="unknown RDF format"):
        validate_trace("", format="yaml")


def test_missing_library_documents_are_warnings_only():
    data = edit(sample("graphrag"), drop=lambda t: _s(t, "urn:trustgraph:answer:6f1c2a40-0001"))
    report = validate_trace(data)
    assert report.conforms
    assert [w.severity for w in report.warnings] == ["Warning"]
    assert "library" in report.warnings[0].message


def test_an_unfinished_trace_is_well_formed():
    """A question without prov:endedAtTime may stop after any stage (navigation lists it as incomplete)."""
    data = edit(sample("graphrag"), drop=lambda t: _p(t, PROV + "endedAtTime") or _s(t, SYNTHESIS)
                or _s(t, "urn:trustgraph:answer:6f1c2a40-0001"))
    assert validate_trace(data).conforms


def test_shapes_type_every_datatype_property_as_the_ontology_does(onto_dir):
    shapes = list(parse(path=str(onto_dir / "shapes.ttl"), format=RdfFormat.TURTLE))
    sh = "http://www.w3.org/ns/shacl#"
    by_node: dict = {}
    for t in shapes:
        by_node.setdefault(t.subject, {}).setdefault(t.predicate.value, []).append(t.object)
    typed_paths = {}
    for props in by_node.values():
        for path in props.get(sh + "path", []):
            for dt in props.get(sh + "datatype", []):
                if sh + "targetSubjectsOf" in props:
                    typed_paths[path] = dt
    assert {p: typed_paths.get(p) for p in DATATYPE_PROPERTIES} == dict(DATATYPES)


def test_without_pyshacl_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyshacl", None)
    with pytest.raises(ConfigurationError, match=r"pip install 'ragprov\[ontology\]'"):
        validate_trace(SAMPLES / "graphrag.ttl")


def test_results_read_well():
    data = edit(sample("graphrag"), drop=lambda t: _p(t, TG + "query") and _s(t, Q))
    report = validate_trace(data)
    (result,) = report.violations
    assert result.focus == Q and result.path == "tg:query" and result.severity == "Violation"
    assert "tg:query" in str(result) and "does not conform" in str(report)
    assert isinstance(report.results[0].shape, str) and report.text
    assert not isinstance(result.focus, BlankNode)
