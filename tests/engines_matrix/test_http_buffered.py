"""HTTP round trips against a real ``oxigraph serve``: the endpoint store keeps one keep-alive
connection, a per-stage recorder sends one update per stage, a buffered one a single update per
trace — and a buffered trace that never ends writes nothing.

A small TCP proxy on 127.0.0.1 stands between the store and the server and counts the connections
it accepts and the ``POST /update`` requests that pass through it.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading

import pytest

from ragprov.record import Recorder
from ragprov.store import EndpointConfig, EndpointStore
from tests.core.builders import agent_trace, doc_rag_trace, graph_rag_trace
from tests.engines import ENGINES, server_store

pytestmark = pytest.mark.skipif("oxigraph-http" not in {e.name for e in ENGINES}, reason="oxigraph-http not selected")

_UPDATE = re.compile(rb"POST /update[ ?]")


class CountingProxy:
    """Forwards 127.0.0.1:<port> to ``target``; counts accepted connections and update requests."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.connections = 0
        self.updates = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = [self._listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self._lock:
                self.connections += 1
                self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, requests: bool) -> None:
        try:
            while data := source.recv(65536):
                if requests:
                    with self._lock:
                        self.updates += len(_UPDATE.findall(data))
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        for s in self._sockets:
            s.close()


@pytest.fixture
def proxied():
    """An empty store on the session's oxigraph server, reached through a :class:`CountingProxy`."""
    direct = server_store("oxigraph", "oxigraph-http", "rdf12")
    host, port = re.match(r"https?://([^:/]+):(\d+)", direct.config.query_url).groups()
    proxy = CountingProxy((host, int(port)))
    base = direct.config.query_url.replace(f"{host}:{port}", f"127.0.0.1:{proxy.port}")
    store = EndpointStore(EndpointConfig(query_url=base, update_url=base.rsplit("/", 1)[0] + "/update",
                                         dialect="rdf12", engine="oxigraph", timeout=60.0))
    try:
        yield store, proxy, direct
    finally:
        store.close()
        proxy.close()
        direct.close()


def test_per_stage_default_sends_one_update_per_stage_over_one_connection(proxied):
    store, proxy, direct = proxied
    graph_rag_trace(Recorder(store), 1, concepts=2, seeds=3, edges=2)
    assert proxy.updates == 5  # question, grounding, exploration, focus, synthesis
    assert proxy.connections == 1  # keep-alive: the session's one connection carries them all
    assert direct.count() > 0


def test_buffered_sends_one_update_per_trace_and_writes_the_same_trace(proxied):
    store, proxy, direct = proxied
    graph_rag_trace(Recorder(store), 1, concepts=2, seeds=3, edges=2)
    per_stage = direct.count()
    store.clear()
    proxy.updates = 0
    recorder = Recorder(store, buffered=True)
    trace = graph_rag_trace(recorder, 1, concepts=2, seeds=3, edges=2)
    assert [e.stage for e in trace.events] == ["question", "grounding", "exploration", "focus", "synthesis"]
    assert len(trace.events[2].explain_triples) > 0  # the live events still carry each stage's triples
    assert proxy.updates == 1
    assert proxy.connections == 1
    assert direct.count() == per_stage
    doc_rag_trace(recorder, 2)
    agent_trace(recorder, 3)  # an agent with its GraphRAG sub-trace: two traces
    assert proxy.updates == 4


def test_an_interrupted_buffered_trace_writes_nothing(proxied):
    store, proxy, direct = proxied
    trace = Recorder(store, buffered=True).graph_rag("Who is Scrooge?")
    trace.grounding(["Scrooge"])
    del trace  # the pipeline failed before the synthesis
    assert proxy.updates == 0
    assert direct.count() == 0


def test_a_buffered_trace_the_store_cannot_take_is_spooled_whole_and_replays(tmp_path):
    from ragprov.store import EmbeddedStore
    from ragprov.store.spool import Spool, SpoolingStore
    from tests.engines_matrix.test_spool import _dead_endpoint

    store = SpoolingStore(_dead_endpoint(), tmp_path / "spool", replay_interval=None)
    graph_rag_trace(Recorder(store, buffered=True), 1, concepts=2, seeds=3, edges=2)
    assert store.spool.status().pending == 1  # the whole trace, one entry
    target, reference = EmbeddedStore(), EmbeddedStore()
    graph_rag_trace(Recorder(reference), 1, concepts=2, seeds=3, edges=2)
    assert Spool(tmp_path / "spool").replay(target).replayed == 1
    assert target.count() == reference.count()
