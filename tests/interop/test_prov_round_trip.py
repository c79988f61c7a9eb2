"""PROV-JSON and PROV-N of a recorded trace of every kind, read back by the W3C ``prov`` package.

One trace per kind (GraphRAG, DocRAG, agent, local, global, DRIFT; basic search is not on this
branch) is recorded by ragprov's own pipelines over the bundled GraphRAG index into a store on
disk. ``ragprov trace show ID --format prov-json|prov-n`` writes each; ``prov`` reads the PROV-JSON
back (``ProvDocument.deserialize``) and parses the PROV-N with its own PROV-N parser in its
``strict`` profile (the Recommendation's grammar only). Both must be the same document, and hold
the entities, activities and relations the store holds for the trace, which this test counts by
SPARQL of its own. ``ragprov export --form prov-json`` writes every trace in one document.
"""

from __future__ import annotations

import json
from collections import Counter

import prov.model as prov_model  # the prov extra, in the test extra: its absence fails, not skips
import pyoxigraph as ox
import pytest
from pyoxigraph import NamedNode

from ragprov.cli import cli
from ragprov.cli.common import run
from ragprov.loaders.graphrag import load_graphrag
from ragprov.navigate import Navigator
from ragprov.navigate.prov import qualified_parts
from ragprov.pipelines import pipeline
from ragprov.resources import data_dir
from ragprov.store import EmbeddedStore

KINDS = ("graph-rag", "doc-rag", "agent", "local", "global", "drift", "basic")
FACTS = NamedNode("urn:graph:facts")
PROV = "http://www.w3.org/ns/prov#"
RELATIONS = {  # PROV-O property -> PROV-JSON relation key
    "used": "used", "wasGeneratedBy": "wasGeneratedBy", "wasDerivedFrom": "wasDerivedFrom",
    "wasAssociatedWith": "wasAssociatedWith", "wasInformedBy": "wasInformedBy",
    "wasAttributedTo": "wasAttributedTo", "actedOnBehalfOf": "actedOnBehalfOf",
}

# What the store holds for one trace, written here from the trace shape (docs/trace-shape.md), not
# taken from the templates the export reads: the question, the session that used it, the stages the
# session generated, what they selected, sub-trace questions they ran, and their library documents.
NODES = """
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX tg: <https://trustgraph.ai/ns/>
SELECT DISTINCT ?n WHERE {
  { GRAPH <urn:graph:retrieval> { BIND(<Q> AS ?n) } }
  UNION { GRAPH <urn:graph:retrieval> { ?n prov:used <Q> } }
  UNION { GRAPH <urn:graph:retrieval> { ?s prov:used <Q> . ?n prov:wasGeneratedBy ?s } }
  UNION { GRAPH <urn:graph:retrieval> { ?s prov:used <Q> . ?st prov:wasGeneratedBy ?s .
          ?st tg:selectedEdge|tg:selectedChunk|tg:selectedItem|tg:hop|tg:batch|tg:point|tg:thought|tg:weighedCandidate ?n . ?n ?p ?o } }
  UNION { GRAPH <urn:graph:retrieval> { ?s prov:used <Q> . ?st prov:wasGeneratedBy ?s .
          ?n prov:wasDerivedFrom|prov:used ?st ; a tg:Question } }
  UNION { GRAPH <urn:graph:retrieval> { ?s prov:used <Q> . ?st prov:wasGeneratedBy ?s .
          { ?st tg:document|tg:thought|tg:observation ?n } UNION { ?st tg:thought ?t . ?t tg:document ?n } }
          GRAPH <urn:graph:library> { ?n ?p ?o } }
}
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[str, dict[str, str]]:
    """A disk store with one trace of each kind; its path and the question of each kind."""
    path = tmp_path_factory.mktemp("prov") / "store"
    store = EmbeddedStore(path)
    try:
        load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS, show_progress=False)
        for kind, question in (("graph-rag", "Who is Scrooge?"), ("doc-rag", "Who is Bob Cratchit?"), ("agent", "Who was Marley?"),
                               ("local", "Who is Tiny Tim?"), ("global", "What are the main themes?"),
                               ("drift", "How does Scrooge change?"), ("basic", "Who was Scrooge's business partner?")):
            list(pipeline(kind, store, facts_graph=FACTS).run(question))
        nav = Navigator(store)
        questions = {kind: nav.list_traces(kind=kind, limit=1)[0].question.value for kind in KINDS}
    finally:
        store.close()
    return str(path), questions


def _cli(capsys, *argv: str) -> str:
    capsys.readouterr()
    code = run(cli, list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _held(path: str, question: str) -> tuple[dict[str, str], Counter]:
    """By SPARQL over the store: each node of the trace with its PROV kind, and the relations."""
    store = EmbeddedStore(path, read_only=True)
    try:
        nodes = [row["n"] for row in store.raw.query(NODES.replace("<Q>", f"<{question}>"))]
        kinds, relations = {}, Counter()
        for n in nodes:
            types = {q.object.value for g in ("retrieval", "library")
                     for q in store.raw.quads_for_pattern(n, ox.NamedNode(PROV.replace("ns/prov#", "1999/02/22-rdf-syntax-ns#type")), None,
                                                          ox.NamedNode(f"urn:graph:{g}"))}
            kinds[n.value] = "activity" if PROV + "Activity" in types else "agent" if PROV + "Agent" in types else "entity"
            for prop, key in RELATIONS.items():
                for q in store.raw.quads_for_pattern(n, ox.NamedNode(PROV + prop), None, ox.NamedNode("urn:graph:retrieval")):
                    relations[key] += isinstance(q.object, ox.NamedNode)
            generated_at = list(store.raw.quads_for_pattern(n, ox.NamedNode(PROV + "generatedAtTime"), None, None))
            generated_by = list(store.raw.quads_for_pattern(n, ox.NamedNode(PROV + "wasGeneratedBy"), None, None))
            relations["wasGeneratedBy"] += bool(generated_at) and not generated_by  # a generation with only its time
        return kinds, +relations
    finally:
        store.close()


def _exported(doc) -> tuple[dict[str, str], Counter]:
    """What a PROV document holds: each element's URI with its kind, and the relations by type."""
    data = json.loads(doc.serialize(format="json"))
    prefixes = data.get("prefix", {})

    def uri(qname: str) -> str:
        prefix, _, local = qname.partition(":")
        return prefixes[prefix] + local

    kinds = {uri(q): kind for kind in ("entity", "activity", "agent") for q in data.get(kind, {})}
    return kinds, +Counter({key: len(data.get(key, {})) for key in RELATIONS.values()})


@pytest.mark.parametrize("kind", KINDS)
def test_prov_round_trip_of_every_kind(recorded, capsys, kind):
    path, questions = recorded
    question = questions[kind]
    as_json = _cli(capsys, "trace", "show", question, "--store", path, "--format", "prov-json")
    as_provn = _cli(capsys, "trace", "show", question, "--store", path, "--format", "prov-n")
    from_json = prov_model.ProvDocument.deserialize(content=as_json, format="json")
    from_provn = prov_model.ProvDocument.deserialize(content=as_provn, format="provn", profile="strict")
    assert from_json == from_provn
    assert from_json.records, kind

    held_kinds, held_relations = _held(path, question)
    kinds, relations = _exported(from_json)
    assert kinds == held_kinds
    assert relations == held_relations
    assert question in kinds and "activity" in kinds.values()  # the question and its session


def test_export_prov_json_holds_every_trace(recorded, capsys, tmp_path):
    path, questions = recorded
    out = tmp_path / "traces.json"
    _cli(capsys, "export", "--form", "prov-json", "--store", path, "-o", str(out))
    doc = prov_model.ProvDocument.deserialize(source=str(out), format="json")
    kinds, _ = _exported(doc)
    for question in questions.values():
        held, _ = _held(path, question)
        assert held.items() <= kinds.items()


def test_without_the_prov_package_a_clear_error(recorded, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_prov(name, *args, **kwargs):
        if name == "prov" or name.startswith("prov."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_prov)
    path, questions = recorded
    capsys.readouterr()
    code = run(cli, ["trace", "show", questions["graph-rag"], "--store", path, "--format", "prov-n"])
    err = capsys.readouterr().err
    assert code == 1 and "pip install 'ragprov[prov]'" in err and "Traceback" not in err


@pytest.mark.parametrize("kind", KINDS)
def test_every_iri_ragprov_mints_is_qname_safe(recorded, kind):
    """Every IRI in a recorded trace's graphs (retrieval, library), inside quoted triples too, splits
    into a PROV namespace and a non-empty local part that gives the IRI back."""
    path, questions = recorded
    store = EmbeddedStore(path, read_only=True)
    try:
        nodes = [row["n"] for row in store.raw.query(NODES.replace("<Q>", f"<{questions[kind]}>"))]
        terms = []
        for n in nodes:
            for g in ("retrieval", "library"):
                for q in store.raw.quads_for_pattern(n, None, None, ox.NamedNode(f"urn:graph:{g}")):
                    terms += [q.subject, q.predicate, q.object]
    finally:
        store.close()
    iris: set[str] = set()
    while terms:
        term = terms.pop()
        if isinstance(term, ox.Triple):
            terms += [term.subject, term.predicate, term.object]
        elif isinstance(term, ox.NamedNode):
            iris.add(term.value)
        elif isinstance(term, ox.Literal):
            iris.add(term.datatype.value)
    assert len(iris) > 10
    unsafe = [iri for iri in iris if not qualified_parts(iri)[1] or "".join(qualified_parts(iri)) != iri]
    assert unsafe == []
