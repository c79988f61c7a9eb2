"""The endpoint adapter: values survive every engine, errors are the right kind, retries are safe."""

from __future__ import annotations

import contextlib
import http.server
import json
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from typing import ClassVar

import pyoxigraph as ox
import pytest
from pyoxigraph import Literal, NamedNode, Quad, Triple

from ragprov.errors import QueryError, StoreUnavailableError
from ragprov.namespaces import XSD
from ragprov.sparql.escape import sparql_term
from ragprov.store import EndpointConfig, EndpointStore
from ragprov.store.endpoint import is_idempotent_insert

G = NamedNode("urn:test:g")
VALUES = [
    Literal("plain"),
    Literal('quote " triple """ backslash \\ newline \n brace } angle < INSERT'),
    Literal("unicode é ü 漢字 😀"),
    Literal("hello", language="en"),
    Literal("0.2", datatype=XSD.double),
    Literal("1.0", datatype=XSD.double),
    Literal("-12.5", datatype=XSD.double),
    Literal("42", datatype=XSD.integer),
    Literal("0.5", datatype=XSD.decimal),
    Literal("true", datatype=XSD.boolean),
    Literal("false", datatype=XSD.boolean),
    Literal("2026-01-01T00:00:00Z", datatype=XSD.dateTime),
    Literal("2026-01-01T12:30:45.123456Z", datatype=XSD.dateTime),
    NamedNode("https://example.org/a?b=c#d"),
]


def test_values_read_back_equal_to_what_was_written(store):
    """Every kind of value ragprov writes reads back as the same term (engine quirks undone)."""
    for i, value in enumerate(VALUES):
        store.update(f"INSERT DATA {{ GRAPH <{G.value}> {{ <urn:test:s{i}> <urn:test:p> {sparql_term(value)} }} }}")
    rows = store.select(f"SELECT ?s ?o WHERE {{ GRAPH <{G.value}> {{ ?s <urn:test:p> ?o }} }}")
    got = {r["s"].value: r["o"] for r in rows}
    assert got == {f"urn:test:s{i}": _canonical(v) for i, v in enumerate(VALUES)}


def _canonical(term):
    """What every engine answers for ``term``: doubles as values, in Oxigraph's spelling."""
    if isinstance(term, Literal) and term.datatype == XSD.double:
        return Literal(float(term.value))
    return term


def test_double_spellings_agree_across_engines(store):
    store.update(f'INSERT DATA {{ GRAPH <{G.value}> {{ <urn:x> <urn:p> "1.0"^^<{XSD.double.value}>, "2.5e1"^^<{XSD.double.value}> }} }}')
    rows = store.select(f"SELECT ?o WHERE {{ GRAPH <{G.value}> {{ <urn:x> <urn:p> ?o }} }} ORDER BY ?o")
    assert [r["o"].value for r in rows] == ["1", "25"]


def test_quoted_edge_with_typed_literal_reads_back(store):
    """A selected edge whose object is a typed literal comes back as the same triple term."""
    edge = Triple(NamedNode("urn:e:a"), NamedNode("urn:r:weight"), Literal("0.25", datatype=XSD.double))
    store.extend([Quad(NamedNode("urn:sel:1"), NamedNode("urn:p:edge"), edge, G)])
    rows = store.select(f"SELECT ?o WHERE {{ GRAPH <{G.value}> {{ <urn:sel:1> <urn:p:edge> ?o }} }}")
    if store.dialect.has_quoted_triples:
        assert rows[0]["o"] == edge
    else:
        st = rows[0]["o"]
        parts = store.select(
            f"SELECT ?s ?p ?o WHERE {{ GRAPH <{G.value}> {{ <{st.value}> "
            "<http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> ?s ; "
            "<http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate> ?p ; "
            "<http://www.w3.org/1999/02/22-rdf-syntax-ns#object> ?o } }"
        )
        assert Triple(parts[0]["s"], parts[0]["p"], parts[0]["o"]) == edge


def test_fresh_store_is_empty_and_counts_only_user_data(store):
    """No engine's system graphs show up in count() or dump()."""
    assert store.count() == 0
    assert store.dump().strip() == b""
    store.load('<urn:a> <urn:b> "default graph" .\n<urn:a> <urn:b> "named" <urn:test:g> .\n', format="nquads")
    assert store.count() == 2
    assert store.count(G) == 1
    quads = set(ox.parse(store.dump(), format=ox.RdfFormat.N_QUADS))
    assert quads == {
        Quad(NamedNode("urn:a"), NamedNode("urn:b"), Literal("default graph")),
        Quad(NamedNode("urn:a"), NamedNode("urn:b"), Literal("named"), G),
    }


def test_syntax_errors_are_query_errors_not_outages(store):
    with pytest.raises(QueryError):
        store.query("SELECT ?x WHERE { ?x ")
    with pytest.raises(QueryError):
        store.update("INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> } }")
    assert store.count() == 0


@pytest.mark.parametrize(
    "text,expected",
    [
        ('INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> "c" } }', True),
        (
            'PREFIX tg: <https://trustgraph.ai/ns/>\nINSERT DATA { GRAPH <urn:g> { <urn:a> tg:p "DELETE WHERE { ?s ?p ?o }" ; tg:q 1 . } }',
            True,
        ),
        ("# a comment: DELETE\nINSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> '''x ; DROP ALL''' } }", True),
        ('INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> <<( <urn:s> <urn:p> "o" )>> } }', True),
        ("INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> _:x } }", False),
        ("INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> [ <urn:c> 1 ] } }", False),
        ("INSERT DATA { <urn:a> <urn:b> 1 } ; DROP ALL", False),
        ("DELETE DATA { <urn:a> <urn:b> 1 }", False),
        ("INSERT { ?s <urn:b> 1 } WHERE { ?s ?p ?o }", False),
        ("DELETE WHERE { ?s ?p ?o }", False),
    ],
)
def test_only_plain_insert_data_counts_as_idempotent(text, expected):
    assert is_idempotent_insert(text) is expected


# -- retries against misbehaving servers ----------------------------------------------------------
class _Silent:
    """A TCP server on 127.0.0.1 that accepts connections and never answers (a hung store)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.conns = []
        self._stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        self.sock.settimeout(0.1)
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            self.conns.append(conn)

    def close(self):
        self._stop = True
        self.thread.join()
        for c in self.conns:
            c.close()
        self.sock.close()


@pytest.fixture
def silent():
    s = _Silent()
    yield s
    s.close()


def _config(port: int, **kw) -> EndpointConfig:
    return EndpointConfig.from_url(f"http://127.0.0.1:{port}/ds", dialect="rdf12", engine="generic", backoff=0.01, **kw)


@contextlib.contextmanager
def _serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[int]:
    """A server on 127.0.0.1 answering with ``handler`` for the block (its port), stopped after it."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_queries_are_retried_on_timeout_then_fail_as_unavailable(silent):
    store = EndpointStore(_config(silent.port, timeout=0.2, retries=2))
    with pytest.raises(StoreUnavailableError, match="unreachable"):
        store.query("ASK {}")
    assert silent.accepted == 3


def test_a_general_update_is_not_retried_after_a_timeout(silent):
    store = EndpointStore(_config(silent.port, timeout=0.2, retries=2))
    with pytest.raises(StoreUnavailableError):
        store.update("DELETE WHERE { GRAPH <urn:g> { ?s ?p ?o } }")
    assert silent.accepted == 1


def test_an_insert_data_is_retried_after_a_timeout(silent):
    store = EndpointStore(_config(silent.port, timeout=0.2, retries=2))
    with pytest.raises(StoreUnavailableError):
        store.update('INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> "c" } }')
    assert silent.accepted == 3


def test_refused_connections_fail_fast_as_unavailable():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but not listening: connections are refused
        store = EndpointStore(_config(port, retries=2))
        with pytest.raises(StoreUnavailableError, match=f"127.0.0.1:{port}"):
            store.update("DELETE WHERE { ?s ?p ?o }")


class _Flaky(http.server.BaseHTTPRequestHandler):
    answers: ClassVar[list[int]] = []
    seen: ClassVar[list[str]] = []

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.seen.append(self.rfile.read(length).decode())
        status = self.answers.pop(0) if self.answers else 200
        if status == 200:
            body = json.dumps({"head": {}, "boolean": True}).encode()
        elif status == 500:  # Virtuoso's answer when it rolled a transaction back
            body = b"Virtuoso 40001 Error SR172: Transaction deadlocked"
        else:
            body = b"busy"
        self.send_response(status)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_busy_answers_are_retried_with_backoff():
    _Flaky.answers = [503, 429]
    _Flaky.seen = []
    with _serving(_Flaky) as port:
        store = EndpointStore(_config(port, retries=3))
        assert store.query("ASK {}") is True
        assert len(_Flaky.seen) == 3
        _Flaky.answers = [503, 503, 503, 503]
        with pytest.raises(StoreUnavailableError):
            store.query("ASK {}")


def test_an_update_rolled_back_for_a_deadlock_is_sent_again():
    """A conflict (SQLSTATE 40001) was rolled back whole, so even a general update is retried;
    a plain server error is not."""
    _Flaky.answers = [500, 500]
    _Flaky.seen = []
    with _serving(_Flaky) as port:
        store = EndpointStore(_config(port, retries=3))
        store.update("INSERT { GRAPH <urn:g> { ?s <urn:p> 1 } } WHERE { GRAPH <urn:g> { ?s <urn:q> 2 } }")
        assert len(_Flaky.seen) == 3
        _Flaky.answers = [500, 500, 500, 500]
        _Flaky.seen = []
        with pytest.raises(StoreUnavailableError, match="40001"):
            store.update("DELETE WHERE { GRAPH <urn:g> { ?s ?p ?o } }")
        assert len(_Flaky.seen) == 4


def test_a_refusal_on_the_cost_estimate_says_which_setting_to_change():
    class Estimate(_Flaky):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = b"Virtuoso 42000 Error The estimated execution time 435 (sec) exceeds the limit of 400 (sec)."
            self.send_response(500)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with _serving(Estimate) as port:
        store = EndpointStore(_config(port, retries=0))
        with pytest.raises(QueryError, match="MaxQueryCostEstimationTime"):
            store.query("SELECT * WHERE { ?s ?p ?o }")


@pytest.mark.parametrize("refusal", [
    b"Virtuoso 37000 Error SP031: SPARQL: Internal error: The length of generated SQL text has exceeded 10000 lines",
    b"Virtuoso 37000 Error SP030: SPARQL compiler, line 7595: memory exhausted at '.'",
])
def test_a_batch_refused_for_its_size_is_sent_again_in_halves(refusal):
    """Virtuoso refuses a long INSERT DATA for its size alone (nothing applied): halves go through."""
    sizes: list[int] = []

    class Small(_Flaky):
        def do_POST(self):
            text = urllib.parse.unquote_plus(self.rfile.read(int(self.headers.get("Content-Length", 0))).decode())
            sizes.append(text.count("<urn:p>"))
            status, body = (400 if "37000" in refusal.decode() else 500, refusal) if sizes[-1] > 3 else (200, b"")
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with _serving(Small) as port:
        store = EndpointStore(_config(port, retries=0))
        store.extend([Quad(NamedNode(f"urn:s{i}"), NamedNode("urn:p"), Literal(str(i)), G) for i in range(10)])
        accepted = [n for n in sizes if n <= 3]
        assert sum(accepted) == 10 and max(sizes) == 10 and store._batch <= 3


def test_credentials_never_appear_in_errors():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        config = EndpointConfig.from_url(f"http://alice:s3cret@127.0.0.1:{port}/ds", dialect="rdf12", engine="generic", retries=0)
        store = EndpointStore(config)
        with pytest.raises(StoreUnavailableError) as info:
            store.query("ASK {}")
        assert "s3cret" not in str(info.value) and "alice" not in str(info.value)
        assert "s3cret" not in repr(config)


def test_virtuoso_digest_auth_endpoint():
    """Virtuoso's /sparql-auth takes digest credentials; a wrong password is a clear refusal."""
    from tests.engines import POOL, SERVER_ENGINES

    if "virtuoso" not in {e.name for e in SERVER_ENGINES}:
        pytest.skip("virtuoso not in RAGPROV_ENGINES")
    server = POOL.get("virtuoso", "virtuoso")
    url = server.url + "-auth"
    store = EndpointStore(EndpointConfig.from_url(url, user="dba", password="dba", auth="digest", retries=0))
    assert store.engine == "virtuoso" and store.dialect.value == "reification"
    store.update('INSERT DATA { GRAPH <urn:test:auth> { <urn:a> <urn:b> "digest" } }')
    assert store.count(NamedNode("urn:test:auth")) == 1
    store.update("DROP SILENT GRAPH <urn:test:auth>")
    bad = EndpointConfig.from_url(url, user="dba", password="wrong", auth="digest", retries=0, dialect="reification", engine="virtuoso")
    with pytest.raises(QueryError, match="check credentials"):
        EndpointStore(bad).query("ASK {}")
