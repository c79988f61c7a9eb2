"""``export``/``import`` of a whole store, across engines that spell quoted triples differently."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from pyoxigraph import Literal, NamedNode, Quad, Triple

from ragprov.cli import cli, run
from ragprov.errors import LoadError
from ragprov.record import Recorder
from ragprov.store import EmbeddedStore
from ragprov.store.transfer import FORMS, export_store, import_store, parse, serialize, store_quads, to_reification
from tests.core.builders import agent_trace, doc_rag_trace, graph_rag_trace
from tests.engines import POOL, SERVER_ENGINES, server_store

FACT = Quad(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partner"), NamedNode("urn:e:marley"))


def _fill(store, clock) -> None:
    recorder = Recorder(store, clock=clock)
    graph_rag_trace(recorder, 1, edges=6)
    doc_rag_trace(recorder, 2)
    agent_trace(recorder, 3)
    store.extend([FACT])  # a fact in the default graph


@pytest.mark.parametrize("form", FORMS)
def test_export_clear_import_gives_the_same_store(store, clock, form):
    _fill(store, clock)
    before = set(store_quads(store))
    assert any(isinstance(q.object, Triple) for q in before)
    assert FACT in before
    data = export_store(store, form=form)
    if form == "neutral":
        assert b"<<" not in data
    n = import_store(store, data, replace=True)
    assert n == len(before)
    assert set(store_quads(store)) == before


def test_bad_input_changes_nothing(store, clock):
    _fill(store, clock)
    before = set(store_quads(store))
    with pytest.raises(LoadError):
        import_store(store, b'<urn:a> <urn:b> "ok" .\n<urn:a> <urn:b> "unterminated .\n', replace=True)
    assert set(store_quads(store)) == before


def test_round_trip_jena_oxigraph_virtuoso_and_back(clock, tmp_path):
    """Jena 4 (RDF-star) -> Oxigraph 0.5 (RDF 1.2) -> Virtuoso (no quoted triples) -> embedded -> Jena."""
    names = {e.name for e in SERVER_ENGINES}
    if not {"jena-tdb2", "oxigraph-http", "virtuoso"} <= names:
        pytest.skip("needs the jena-tdb2, oxigraph-http and virtuoso engines (RAGPROV_ENGINES)")
    jena = server_store("jena", "jena-tdb2", "rdfstar")
    _fill(jena, clock)
    original = set(store_quads(jena))
    hops = [
        ("rdfstar", lambda: server_store("oxigraph", "oxigraph-http", "rdf12")),
        ("rdf12", lambda: server_store("virtuoso", "virtuoso", "reification")),
        ("neutral", lambda: EmbeddedStore(tmp_path / "embedded")),
        ("neutral", lambda: server_store("jena", "jena-tdb2", "rdfstar")),
    ]
    source = jena
    for form, target_factory in hops:
        data = export_store(source, form=form)
        target = target_factory()
        import_store(target, data)
        assert set(store_quads(target)) == original, f"{form} export into {target!r} lost or changed quads"
        source = target
    # the Virtuoso hop really held reified statements, not triple terms
    virtuoso = server_store("virtuoso", "virtuoso", "reification", fresh=False)
    assert virtuoso.count() == len(to_reification(sorted(original, key=str)))


def test_cli_export_import_between_endpoints(clock, tmp_path):
    engines = [e for e in SERVER_ENGINES if e.name in ("oxigraph-http", "jena-tdb2")]
    if len(engines) < 2:
        pytest.skip("needs oxigraph-http and jena-tdb2")
    ox_store = server_store("oxigraph", "oxigraph-http", "rdf12")
    _fill(ox_store, clock)
    original = set(store_quads(ox_store))
    out = tmp_path / "all.nq"
    ox_url = POOL.get("oxigraph", "oxigraph-http").url
    jena_url = POOL.get("jena", "jena-tdb2").url
    server_store("jena", "jena-tdb2", "rdfstar")  # empty it
    assert run(cli, ["export", "--store", ox_url, "-o", str(out)]) == 0
    assert run(cli, ["import", str(out), "--store", jena_url]) == 0
    jena = server_store("jena", "jena-tdb2", "rdfstar", fresh=False)
    assert set(store_quads(jena)) == original
    assert run(cli, ["import", str(tmp_path / "missing.nq"), "--store", jena_url]) == 1


def test_forms_parse_back_identically():
    edge = Triple(NamedNode("urn:s"), NamedNode("urn:p"), Literal('a "quoted" >> << value', language="en"))
    quads = [
        Quad(NamedNode("urn:sel"), NamedNode("urn:edge"), edge, NamedNode("urn:g")),
        Quad(NamedNode("urn:x"), NamedNode("urn:y"), Literal("plain")),
    ]
    for form in FORMS:
        assert parse(serialize(quads, form)) == quads, form
    # a foreign rdf:Statement (not a ragprov statement IRI) is kept as it is
    foreign = list(ox.parse(
        b'<urn:st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement> .\n'
        b'<urn:st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> <urn:s> .\n',
        format=ox.RdfFormat.N_QUADS,
    ))
    assert parse(serialize(foreign, "neutral")) == foreign
