"""HermiT (through owlready2, offline) finds the ontology with PROV-O, and every sample trace,
consistent; and finds the contradictions a broken trace or axiom brings."""

from __future__ import annotations

import shutil
import sys

import pytest
from pyoxigraph import Triple

from ragprov.errors import ConfigurationError
from ragprov.qc import check_consistency, owl2_dl_violations
from ragprov.resources import ontology_dir

from .conftest import PROV, RDF, SAMPLES, TG, XSD, edit, iri, sample, typed

@pytest.mark.slow
def test_ontology_with_prov_o_is_consistent():
    report = check_consistency()
    assert report.ok, report.explanation
    assert report.consistent and report.unsatisfiable == () and report.causes == ()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["graphrag", "docrag", "agent"])
def test_each_sample_trace_is_consistent_with_the_ontology(name):
    report = check_consistency(SAMPLES / f"{name}.ttl")
    assert report.ok, report.explanation


@pytest.mark.slow
def test_an_entity_derived_from_the_question_is_inconsistent():
    """SPEC §5: the seeds' `entity prov:wasDerivedFrom Question` makes the Question an Entity too."""
    grounding, question = "urn:trustgraph:prov:grounding:6f1c2a40-0001", "urn:trustgraph:question:6f1c2a40-0001"
    data = edit(sample("graphrag"),
                drop=lambda t: t.predicate.value == PROV + "wasGeneratedBy" and t.subject.value == grounding,
                add=[Triple(iri(grounding), iri(PROV + "wasDerivedFrom"), iri(question))])
    report = check_consistency(data)
    assert not report.consistent and not report
    (cause,) = report.causes
    assert question in cause and "prov:Activity" in cause and "prov:Entity" in cause
    assert "inconsistent" in report.explanation


@pytest.mark.slow
def test_a_stage_of_two_kinds_is_inconsistent():
    focus = iri("urn:trustgraph:prov:focus:6f1c2a40-0001")
    data = edit(sample("graphrag"), add=[Triple(focus, iri(RDF + "type"), iri(TG + "Synthesis"))])
    report = check_consistency(data)
    assert not report.consistent
    assert any("tg:Focus" in c and "tg:Synthesis" in c for c in report.causes), report.causes


@pytest.mark.slow
def test_a_literal_outside_its_datatype_is_reported_inconsistent():
    """The bundled HermiT does not check literal datatypes; check_consistency does."""
    data = edit(sample("graphrag"), change=lambda t: Triple(t.subject, t.predicate, typed("high", XSD + "string"))
                if t.predicate.value == TG + "score" else t)
    report = check_consistency(data)
    assert not report.consistent
    assert any("tg:score" in c and "xsd:double" in c for c in report.causes)


@pytest.mark.slow
def test_an_unsatisfiable_class_is_reported():
    extra = """
        @prefix tg: <https://trustgraph.ai/ns/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix owl: <http://www.w3.org/2002/07/owl#> .
        <urn:x:Hybrid> a owl:Class ; rdfs:subClassOf tg:Question, tg:Grounding .
    """
    report = check_consistency(extra, format="turtle")
    assert report.consistent and not report.ok
    assert report.unsatisfiable == ("urn:x:Hybrid",)
    assert "urn:x:Hybrid" in report.explanation


def test_imports_are_never_fetched(tmp_path):
    """Without a catalog mapping for PROV-O the check refuses to run rather than go online."""
    folder = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), folder)
    catalog = folder / "catalog-v001.xml"
    catalog.write_text(catalog.read_text().replace('name="http://www.w3.org/ns/prov-o"', 'name="urn:x:other"'))
    with pytest.raises(ConfigurationError, match="never fetches imports"):
        check_consistency(ontology_path=folder / "ragprov.ttl")


def test_without_owlready2_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "owlready2", None)
    with pytest.raises(ConfigurationError, match=r"pip install 'ragprov\[ontology\]'"):
        check_consistency()


def test_without_java_the_error_says_so(monkeypatch):
    import owlready2

    monkeypatch.setattr(owlready2, "JAVA_EXE", "/nonexistent/bin/java")
    with pytest.raises(ConfigurationError, match="needs Java"):
        check_consistency()


@pytest.mark.slow
def test_no_owl2_dl_violation_of_its_own():
    """SPEC §3: OWL 2 DL, PROV-O's own puns excepted (they are subtracted)."""
    assert owl2_dl_violations() == []


@pytest.mark.slow
def test_a_punned_property_is_an_owl2_dl_violation(tmp_path):
    folder = tmp_path / "ontology"
    shutil.copytree(ontology_dir(), folder)
    ttl = folder / "ragprov.ttl"
    text = ttl.read_text(encoding="utf-8")
    old = "tg:edgeCount\n    a owl:DatatypeProperty, owl:FunctionalProperty ;"
    assert old in text
    ttl.write_text(text.replace(old, "tg:edgeCount\n    a owl:DatatypeProperty, owl:ObjectProperty ;"), encoding="utf-8")
    violations = owl2_dl_violations(ttl)
    assert violations and all("edgeCount" in v for v in violations), violations
