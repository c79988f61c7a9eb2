"""The durable spool: a store outage loses no trace and duplicates none."""

from __future__ import annotations

import socket
import threading

import pytest
from pyoxigraph import NamedNode

from ragprov.cli import cli, run
from ragprov.errors import ConfigurationError
from ragprov.record import Recorder
from ragprov.sparql.dialect import Dialect
from ragprov.store import EmbeddedStore, EndpointConfig, EndpointStore
from ragprov.store.spool import Spool, SpoolingStore
from tests.core.builders import graph_rag_trace
from tests.engines import servers


def _dead_endpoint(dialect: str = "rdf12") -> EndpointStore:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = EndpointConfig.from_url(f"http://127.0.0.1:{port}", dialect=dialect, engine="generic", retries=1, backoff=0.01)
    return EndpointStore(config)


def _ins(i: int) -> str:
    return f'INSERT DATA {{ GRAPH <urn:g> {{ <urn:s{i}> <urn:p> "{i}" }} }}'


def test_failed_updates_are_spooled_in_order_and_replayed(tmp_path):
    store = SpoolingStore(_dead_endpoint(), tmp_path / "spool", replay_interval=None)
    for i in range(5):
        store.update(_ins(i))  # the store is down: no error, the update waits on disk
    status = store.spool.status()
    assert status.pending == 5 and status.dialects == ["rdf12"]
    texts = [Spool.read(e)[1] for e in store.spool.entries()]
    assert [t.endswith(_ins(i)) for i, t in enumerate(texts)] == [True] * 5
    target = EmbeddedStore()
    report = Spool(tmp_path / "spool").replay(target)
    assert (report.replayed, report.remaining, report.error) == (5, 0, None)
    assert target.count(NamedNode("urn:g")) == 5
    # replaying again sends nothing twice
    assert Spool(tmp_path / "spool").replay(target).replayed == 0


def test_replay_stops_at_the_first_undeliverable_update_and_keeps_the_rest(tmp_path):
    spool = Spool(tmp_path)
    for i in range(3):
        spool.append(_ins(i), dialect=Dialect.RDF12, store="test")
    report = spool.replay(_dead_endpoint())
    assert (report.replayed, report.remaining) == (0, 3)
    assert "unreachable" in report.error


def test_replay_refuses_a_store_of_another_dialect(tmp_path):
    spool = Spool(tmp_path)
    spool.append(_ins(0), dialect=Dialect.REIFICATION, store="virtuoso")
    with pytest.raises(ConfigurationError, match="reification"):
        spool.replay(EmbeddedStore())
    assert len(spool) == 1


def test_a_rejected_update_is_set_aside_not_blocking(tmp_path):
    spool = Spool(tmp_path)
    spool.append(_ins(0), dialect=Dialect.RDF12, store="x")
    spool.append("INSERT DATA { broken", dialect=Dialect.RDF12, store="x")
    spool.append(_ins(2), dialect=Dialect.RDF12, store="x")
    target = EmbeddedStore()
    report = spool.replay(target)
    assert report.replayed == 2 and len(report.rejected) == 1 and report.remaining == 0
    assert spool.status().rejected == 1
    assert target.count(NamedNode("urn:g")) == 2


def test_once_spooling_later_updates_queue_behind(tmp_path):
    """While anything waits, new updates are spooled too: the store sees them in order."""
    calls: list[str] = []

    class Flaky:
        dialect = Dialect.RDF12
        down = True

        def update(self, text):
            from ragprov.errors import StoreUnavailableError

            if self.down:
                raise StoreUnavailableError("down")
            calls.append(text)

    inner = Flaky()
    store = SpoolingStore(inner, tmp_path, replay_interval=0)
    store.update(_ins(0))
    inner.down = False
    store.update(_ins(1))  # spooled behind 0, then the replay sends 0 and 1 in order
    assert len(calls) == 2
    assert calls[0].endswith(_ins(0)) and calls[1].endswith(_ins(1))
    store.update(_ins(2))  # the spool is empty again: straight to the store
    assert calls[2] == _ins(2)


def test_concurrent_appends_keep_every_update(tmp_path):
    spool = Spool(tmp_path)

    def writer(k):
        for i in range(25):
            spool.append(_ins(k * 100 + i), dialect=Dialect.RDF12, store="x")

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    names = [e.name for e in spool.entries()]
    assert len(names) == 100 == len(set(names))


def test_cli_status_and_replay(tmp_path):
    spool_dir = tmp_path / "spool"
    spool = Spool(spool_dir)
    for i in range(3):
        spool.append(_ins(i), dialect=Dialect.RDF12, store="http://127.0.0.1:1/x")
    assert run(cli, ["spool", "status", "--spool", str(spool_dir)]) == 0
    target_dir = tmp_path / "store"
    assert run(cli, ["spool", "replay", "--spool", str(spool_dir), "--store", str(target_dir)]) == 0
    assert len(spool) == 0
    assert EmbeddedStore(target_dir).count(NamedNode("urn:g")) == 3
    spool.append(_ins(9), dialect=Dialect.RDF12, store="x")
    dead = _dead_endpoint()
    assert (
        run(
            cli,
            [
                "spool",
                "replay",
                "--spool",
                str(spool_dir),
                "--store",
                dead.config.query_url[: -len("/query")],
                "--dialect",
                "rdf12",
            ],
        )
        == 1
    )
    assert len(spool) == 1


# -- the real thing: oxigraph serve killed during 500 traces ------------------------------------------
TRACES = 500
STAGES = ["Grounding", "Exploration", "Focus", "Synthesis"]


@pytest.mark.slow
def test_killing_the_server_during_500_traces_loses_none_and_duplicates_none(tmp_path, clock):
    try:
        servers.OxigraphServer.check()
    except servers.EngineMissing as e:
        from tests.engines import missing_engine

        missing_engine("oxigraph-http", e.install)
    server = servers.OxigraphServer(tmp_path / "oxigraph").start()
    try:
        config = EndpointConfig.from_url(server.url, dialect="rdf12", engine="oxigraph", retries=2, backoff=0.01, timeout=5)
        # after the restart, the spool drains by itself (a replay is tried every 0.2 s of writes)
        store = SpoolingStore(EndpointStore(config), tmp_path / "spool", replay_interval=0.2)
        recorder = Recorder(store, clock=clock)
        done = threading.Event()
        recorded = [0]

        def crash():
            # kill the server (SIGKILL: as a crash) while traces are being written, restart it later
            while recorded[0] < 120 and not done.is_set():
                done.wait(0.001)
            server.kill()
            while recorded[0] < 300 and not done.is_set():
                done.wait(0.001)
            server.start()

        killer = threading.Thread(target=crash)
        killer.start()
        traces = []
        for i in range(TRACES):
            traces.append(graph_rag_trace(recorder, i))
            recorded[0] = i + 1
        done.set()
        killer.join()
        assert server.running
        assert store.spooled > 0, "the outage should have sent stage writes to the spool"
        report = store.replay()
        assert (report.remaining, report.rejected, report.error) == (0, [], None)

        # every trace complete, exactly once
        direct = EndpointStore(config)
        rows = direct.select(
            """PREFIX prov: <http://www.w3.org/ns/prov#>
            PREFIX tg: <https://trustgraph.ai/ns/>
            SELECT ?q (COUNT(DISTINCT ?stage) AS ?stages) (COUNT(DISTINCT ?sel) AS ?edges)
                   (COUNT(DISTINCT ?query) AS ?queries) (COUNT(DISTINCT ?ended) AS ?ends) WHERE {
              GRAPH <urn:graph:retrieval> {
                ?q a tg:GraphRagQuestion ; tg:query ?query .
                ?session prov:used ?q .
                OPTIONAL { ?session prov:endedAtTime ?ended }
                OPTIONAL { ?stage prov:wasGeneratedBy ?session . OPTIONAL { ?stage tg:selectedEdge ?sel } }
              }
            } GROUP BY ?q"""
        )
        by_question = {r["q"]: r for r in rows}
        assert len(by_question) == TRACES
        assert set(by_question) == {t.question for t in traces}
        for r in rows:
            assert (int(r["stages"].value), int(r["edges"].value), int(r["queries"].value), int(r["ends"].value)) == (4, 25, 1, 1), r
        answers = direct.select(
            "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:graph:library> { ?d <https://trustgraph.ai/ns/content> ?c } }"
        )
        assert int(answers[0]["n"].value) == TRACES
        # spooled and direct writes together hold exactly the quads of 500 traces recorded without an outage
        # (every trace has the same shape: one and two traces give the shared and per-trace counts)
        reference = EmbeddedStore()
        ref_recorder = Recorder(reference, clock=_fresh_clock())
        for graph in ("urn:graph:retrieval", "urn:graph:library"):
            reference.raw.clear()
            graph_rag_trace(ref_recorder, 0)
            one = reference.count(NamedNode(graph))
            graph_rag_trace(ref_recorder, 1)
            per_trace = reference.count(NamedNode(graph)) - one
            assert direct.count(NamedNode(graph)) == one + (TRACES - 1) * per_trace, graph
        direct.close()
    finally:
        server.stop()


def _fresh_clock():
    import datetime as dt
    import itertools

    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    counter = itertools.count()
    return lambda: start + dt.timedelta(seconds=next(counter))
