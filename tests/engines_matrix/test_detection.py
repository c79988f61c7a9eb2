"""Dialect (and engine) detection by probing, on every engine of the matrix."""

from __future__ import annotations

import pytest

from ragprov.sparql.dialect import Dialect
from ragprov.store import EmbeddedStore, EndpointStore, open_store
from ragprov.store.detect import detect_dialect
from tests.engines import ENGINES, POOL, SERVER_ENGINES

EXPECTED = {e.name: e.dialect for e in ENGINES}


def test_detect_on_every_store_of_the_matrix(store, request):
    """The probes find the dialect each engine of the matrix is known to speak."""
    engine = request.node.callspec.params["store"]
    assert detect_dialect(store) is Dialect.parse(EXPECTED[engine])


def test_embedded_store_is_rdf12():
    assert detect_dialect(EmbeddedStore()) is Dialect.RDF12


@pytest.mark.parametrize("engine", [e.name for e in SERVER_ENGINES])
def test_open_store_detects_dialect_and_engine_from_the_url(engine):
    """``open_store(url)`` with no dialect: probes find it; the Server header names the engine."""
    spec = next(e for e in SERVER_ENGINES if e.name == engine)
    server = POOL.get(spec.server, engine)
    store = open_store(server.url)
    try:
        assert isinstance(store, EndpointStore)
        assert store.dialect is Dialect.parse(spec.dialect)
        assert store.engine == spec.server
    finally:
        store.close()


@pytest.mark.parametrize("engine", [e.name for e in SERVER_ENGINES])
def test_configured_dialect_skips_the_probes(engine):
    """A configured dialect is taken as given (no probe query is sent for it)."""
    spec = next(e for e in SERVER_ENGINES if e.name == engine)
    server = POOL.get(spec.server, engine)
    sent: list[str] = []
    store = open_store(server.url, dialect=spec.dialect)
    original = store.query
    store.query = lambda q: sent.append(q) or original(q)  # type: ignore[method-assign]
    assert store.dialect is Dialect.parse(spec.dialect)
    assert sent == []
    store.close()
