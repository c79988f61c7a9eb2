"""The ontology itself: it parses, says what it is, and documents, anchors and types every term.

These tests re-state the QC rules in Python, independently of the SPARQL checks, so that a broken
check cannot hide a broken ontology.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest
import rdflib
from pyoxigraph import BlankNode, Literal, NamedNode, RdfFormat, parse

from ragprov.resources import queries_dir

from .conftest import OWL, PROV, RDF, RDFS, TG, XSD

ONTOLOGY_IRI = "https://trustgraph.ai/ns/ragprov"
QUOTED_TRIPLE_PROPERTIES = {TG + "edge", TG + "reifies", TG + "contains"}

# SPEC §3: the terms the ontology must define at least.
SPEC_CLASSES = """Question GraphRagQuestion DocRagQuestion AgentQuestion LocalSearchQuestion
GlobalSearchQuestion DriftSearchQuestion Grounding Exploration Focus Synthesis EdgeSelection
ChunkSelection Analysis ToolUse Thought Observation Conclusion Error Answer Document Page Chunk
Statement Entity Relationship Community CommunityReport TextUnit Claim""".split()
SPEC_PROPERTIES = """query concept entity edgeCount selectedEdge edge reasoning score rank content
document chunkCount selectedChunk thought action arguments observation answer toolError
terminationReason stepNumber inToken outToken llmModel reifies contains pageCount mimeType
pageNumber chunkIndex charOffset charLength chunkSize chunkOverlap componentVersion ontology""".split()

INTEGER = """edgeCount chunkCount candidateCount keptCount hopNumber pageCount inToken outToken rank
stepNumber pageNumber chunkIndex charOffset charLength chunkSize chunkOverlap llmDurationMs
toolDurationMs humanReadableId degree frequency combinedDegree level size findingIndex nTokens""".split()
DOUBLE = "score duration weight rating".split()
STRING = """query concept reasoning content action arguments toolError terminationReason llmModel
prompt mimeType componentVersion""".split()


class Ontology:
    """The ontology's triples, indexed for the assertions below."""

    def __init__(self, triples):
        self.triples = triples
        self.by_sp: dict[tuple[str, str], list] = defaultdict(list)
        self.types: dict[str, set[str]] = defaultdict(set)
        for t in triples:
            if isinstance(t.subject, NamedNode):
                self.by_sp[(t.subject.value, t.predicate.value)].append(t.object)
                if t.predicate.value == RDF + "type" and isinstance(t.object, NamedNode):
                    self.types[t.subject.value].add(t.object.value)

    def values(self, s: str, p: str) -> list:
        return self.by_sp.get((s, p), [])

    def terms(self, *kinds: str) -> list[str]:
        return sorted(s for s, ts in self.types.items() if s.startswith(TG) and ts & set(kinds))

    def named(self, s: str, p: str) -> set[str]:
        return {o.value for o in self.values(s, p) if isinstance(o, NamedNode)}

    def supers(self, start: str, p: str = RDFS + "subClassOf") -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for o in self.named(todo.pop(), p):
                if o not in seen:
                    seen.add(o)
                    todo.append(o)
        return seen


@pytest.fixture(scope="module")
def onto(ontology_triples, onto_dir) -> Ontology:
    prov = list(parse(path=str(onto_dir / "imports" / "prov-o.ttl"), format=RdfFormat.TURTLE))
    return Ontology(ontology_triples + [t for t in prov if str(t.subject.value).startswith(PROV)])


def _classes(o: Ontology) -> list[str]:
    return o.terms(OWL + "Class")


def _properties(o: Ontology) -> list[str]:
    return o.terms(OWL + "ObjectProperty", OWL + "DatatypeProperty")


def _members(o: Ontology, node) -> list[str]:
    """The named classes of a domain or range: itself, or the members of its owl:unionOf."""
    if isinstance(node, NamedNode):
        return [node.value]
    by_bnode = defaultdict(dict)
    for t in o.triples:
        if isinstance(t.subject, BlankNode):
            by_bnode[t.subject][t.predicate.value] = t.object
    out, head = [], by_bnode[node].get(OWL + "unionOf")
    while head is not None and head != NamedNode(RDF + "nil"):
        out.append(by_bnode[head][RDF + "first"].value)
        head = by_bnode[head].get(RDF + "rest")
    return out


def test_parses_with_rdflib_too(onto_dir):
    graph = rdflib.Graph().parse(onto_dir / "ragprov.ttl", format="turtle")
    assert len(graph) > 500


def test_the_ontology_header(onto):
    assert OWL + "Ontology" in onto.types[ONTOLOGY_IRI]
    assert onto.named(ONTOLOGY_IRI, OWL + "imports") == {"http://www.w3.org/ns/prov-o"}
    assert onto.named(ONTOLOGY_IRI, "http://purl.org/dc/terms/license") == {"https://www.apache.org/licenses/LICENSE-2.0"}
    (version,) = onto.named(ONTOLOGY_IRI, OWL + "versionIRI")
    (info,) = onto.values(ONTOLOGY_IRI, OWL + "versionInfo")
    assert version == f"{ONTOLOGY_IRI}/{info.value}"
    for p in ("http://purl.org/dc/terms/title", "http://purl.org/dc/terms/description"):
        assert [v for v in onto.values(ONTOLOGY_IRI, p) if isinstance(v, Literal) and v.language == "en"]


def test_the_spec_terms_are_defined(onto):
    assert {TG + c for c in SPEC_CLASSES} <= set(_classes(onto))
    assert {TG + p for p in SPEC_PROPERTIES} <= set(_properties(onto))


def test_every_tg_term_the_templates_use_is_defined(onto):
    """The recorder and extraction templates write only terms of the ontology."""
    defined = {t[len(TG):] for t in _classes(onto) + _properties(onto)}
    used = set()
    for template in queries_dir().rglob("*.j2"):
        body = "\n".join(ln for ln in template.read_text(encoding="utf-8").splitlines() if not ln.startswith("#"))
        used |= set(re.findall(r"\btg:([A-Za-z]\w*)", body))
    assert used, "no tg: term found in the templates"
    assert sorted(used - defined) == []


def test_terms_are_documented(onto):
    for term in _classes(onto) + _properties(onto):
        labels = [v for v in onto.values(term, RDFS + "label") if isinstance(v, Literal) and v.language == "en"]
        comments = [v for v in onto.values(term, RDFS + "comment") if isinstance(v, Literal) and v.language == "en"]
        assert len(labels) == 1, term
        assert len(comments) == 1 and len(comments[0].value) >= 30, term
        assert onto.named(term, RDFS + "isDefinedBy") == {ONTOLOGY_IRI}, term


def test_labels_are_unique_ignoring_case(onto):
    seen: dict[str, str] = {}
    for term in _classes(onto) + _properties(onto):
        (label,) = [v.value.lower() for v in onto.values(term, RDFS + "label")]
        assert label not in seen, f"{term} and {seen.get(label)} share the label {label!r}"
        seen[label] = term


def test_every_class_is_anchored_in_prov(onto):
    for cls in _classes(onto):
        assert any(s.startswith(PROV) for s in onto.supers(cls)), cls


def test_no_class_is_both_an_activity_and_an_entity(onto):
    for cls in _classes(onto):
        ups = onto.supers(cls)
        assert not ({PROV + "Activity", PROV + "Entity"} <= ups), cls
    # the question is what was asked (an entity); the session answering it is the activity
    assert PROV + "Entity" in onto.supers(TG + "GraphRagQuestion")
    assert PROV + "Activity" in onto.supers(TG + "RetrievalSession")
    for stage in ("Thought", "Grounding", "Exploration", "Focus", "Synthesis", "Analysis", "Observation", "Conclusion",
                  "EdgeSelection", "ChunkSelection", "Hop", "Document", "Chunk", "TextUnit", "Statement"):
        assert PROV + "Entity" in onto.supers(TG + stage), stage


def test_every_property_has_a_domain_a_range_and_an_anchor(onto):
    for prop in _properties(onto):
        domains = onto.values(prop, RDFS + "domain")
        assert len(domains) == 1, prop
        members = _members(onto, domains[0])
        assert members, prop
        by_domain = all(any(s.startswith(PROV) for s in onto.supers(m)) for m in members)
        by_super = any(s.startswith(PROV) for s in onto.supers(prop, RDFS + "subPropertyOf"))
        assert by_domain or by_super, f"{prop} has no PROV-O anchor"
        ranges = onto.values(prop, RDFS + "range")
        if prop in QUOTED_TRIPLE_PROPERTIES:
            assert ranges == [], f"{prop} must leave its range open (quoted triple)"
        else:
            assert len(ranges) == 1, prop


def test_quoted_triple_properties_are_exactly_the_open_ranged_ones(onto):
    open_ranged = {p for p in _properties(onto) if not onto.values(p, RDFS + "range")}
    assert open_ranged == QUOTED_TRIPLE_PROPERTIES
    for p in QUOTED_TRIPLE_PROPERTIES:
        assert OWL + "ObjectProperty" in onto.types[p]


def test_literals_are_typed(onto):
    for prop in onto.terms(OWL + "DatatypeProperty"):
        (rng,) = onto.named(prop, RDFS + "range")
        assert rng in {XSD + "string", XSD + "integer", XSD + "double", XSD + "dateTime", XSD + "boolean"}, prop
    for prop in onto.terms(OWL + "ObjectProperty"):
        for rng in onto.values(prop, RDFS + "range"):
            assert not (isinstance(rng, NamedNode) and rng.value.startswith(XSD)), prop
    expected = {**{n: "integer" for n in INTEGER}, **{n: "double" for n in DOUBLE}, **{n: "string" for n in STRING}}
    for name, dt in expected.items():
        assert onto.named(TG + name, RDFS + "range") == {XSD + dt}, name


def test_content_properties_specialise_tg_document(onto):
    for name in ("observation", "answer"):
        assert TG + "document" in onto.named(TG + name, RDFS + "subPropertyOf"), name
        assert onto.named(TG + name, RDFS + "range") == {TG + "Document"}
    # tg:thought links an Analysis to its Thought entity (TrustGraph's shape), which has the tg:document
    assert TG + "document" not in onto.named(TG + "thought", RDFS + "subPropertyOf")


def test_trustgraph_sub_agent_finding_is_not_redefined(onto):
    """TrustGraph's tg:Finding is a sub-agent result; report findings are tg:ReportFinding."""
    assert TG + "Finding" not in _classes(onto)
    assert TG + "ReportFinding" in _classes(onto)


def test_catalog_maps_every_import_to_a_vendored_file(onto, onto_dir):
    root = ET.parse(onto_dir / "catalog-v001.xml").getroot()
    ns = "{urn:oasis:names:tc:entity:xmlns:xml:catalog}"
    mapping = {u.get("name"): onto_dir / u.get("uri") for u in root.iter(ns + "uri")}
    for target in mapping.values():
        assert target.is_file(), target
    for imported in onto.named(ONTOLOGY_IRI, OWL + "imports"):
        assert imported in mapping, imported
        triples = list(parse(path=str(mapping[imported]), format=RdfFormat.TURTLE))
        ontologies = {t.subject.value for t in triples if t.object == NamedNode(OWL + "Ontology")}
        assert "http://www.w3.org/ns/prov-o#" in ontologies


def test_vendored_prov_o_matches_its_notice(onto_dir):
    notice = (onto_dir / "imports" / "NOTICE.md").read_text(encoding="utf-8")
    digest = hashlib.sha256((onto_dir / "imports" / "prov-o.ttl").read_bytes()).hexdigest()
    assert digest in notice
    assert "http://www.w3.org/ns/prov-o" in notice
    assert "W3C Software and Document" in notice
