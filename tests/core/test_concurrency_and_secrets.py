"""§11 bars: concurrent writers never mix traces; secrets never reach messages or provenance."""

from __future__ import annotations

import threading

import pytest

from ragprov.errors import RagprovError
from ragprov.navigate import Navigator
from ragprov.record import Recorder
from ragprov.store import EndpointConfig, open_store

from .builders import graph_rag_trace


def test_concurrent_writers_never_mix_traces(store):
    recorder = Recorder(store)
    results: dict[int, list] = {}
    errors: list[BaseException] = []

    def worker(w: int) -> None:
        try:
            results[w] = [graph_rag_trace(recorder, w * 100 + i, edges=4, seeds=5) for i in range(6)]
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    nav = Navigator(store)
    traces = [t for ts in results.values() for t in ts]
    assert len({t.question for t in traces}) == 24
    for t in traces:
        shown = nav.trace(t.question)
        assert [s.iri for s in shown.stages] == [e.explain_id for e in t.events[1:]]
        assert [s.edge for s in shown.stage("Focus").selections] == [
            tr.object for tr in t.events[3].explain_triples if tr.predicate.value.endswith("/edge")
        ]


def test_credentials_stay_out_of_reprs_and_errors():
    config = EndpointConfig.from_url("http://alice:s3cret-pw@127.0.0.1:9/ds", dialect="rdf12", retries=0, timeout=2)
    assert config.user == "alice" and config.password == "s3cret-pw"
    assert "s3cret" not in repr(config) and "s3cret" not in config.query_url
    store = open_store("http://alice:s3cret-pw@127.0.0.1:9/ds", dialect="rdf12", retries=0, timeout=2)
    with pytest.raises(RagprovError) as info:
        store.select("SELECT * WHERE { ?s ?p ?o }")
    assert "s3cret" not in str(info.value) and "alice" not in str(info.value)


def test_token_stays_out_of_reprs():
    config = EndpointConfig.from_url("http://127.0.0.1:9/ds", dialect="rdf12", token="tok-123")
    assert "tok-123" not in repr(config)
