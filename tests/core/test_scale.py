"""1,000 GraphRAG traces of realistic size: every one SHACL-valid and navigable."""

from __future__ import annotations

import pytest

from ragprov.navigate import Navigator
from ragprov.record import Recorder
from ragprov.store import EmbeddedStore

from .builders import graph_rag_trace

N = 1000


@pytest.fixture(scope="module")
def thousand():
    import datetime as dt
    import itertools

    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    tick = itertools.count()
    store = EmbeddedStore()
    recorder = Recorder(store, clock=lambda: start + dt.timedelta(milliseconds=next(tick)))
    traces = [graph_rag_trace(recorder, i) for i in range(N)]  # 5 concepts, 50 seeds, 25 edges each
    return store, traces


@pytest.mark.slow
def test_every_trace_is_shacl_valid(thousand):
    from ragprov import qc

    store, _ = thousand
    report = qc.validate_trace(store.dump(format="nquads"), format="nquads")
    assert report.conforms, report.results[:5]


@pytest.mark.slow
def test_every_trace_is_navigable(thousand):
    store, traces = thousand
    nav = Navigator(store)
    listed = nav.list_traces(limit=N + 10)
    assert [s.question for s in listed] == [t.question for t in reversed(traces)]
    assert all(s.complete for s in listed)
    for n, t in enumerate(traces):
        trace = nav.trace(t.question)
        assert [s.iri for s in trace.stages] == [e.explain_id for e in t.events[1:]]
        focus = trace.stage("Focus")
        assert [s.rank for s in focus.selections] == list(range(1, 26))
        assert [s.edge for s in focus.selections] == [
            tr.object for tr in t.events[3].explain_triples if tr.predicate.value.endswith("/edge")
        ]
        assert trace.answer == f"Answer {n}: Scrooge knew Marley."
