"""A small SPARQL 1.1 Protocol server on 127.0.0.1 over an in-memory pyoxigraph store, with faults
the fault suite switches on: a server error for every update matching ``reject`` (as Jena answers
500, every time, for an IRI holding U+2028), an outage (``down``: every request 503), and an error
body that echoes the request's headers (as some proxies do), credentials included.

Started and stopped by the test that uses it (a context manager)::

    with SparqlServer() as server:
        store = open_store(server.url, dialect="rdf12")
"""

from __future__ import annotations

import re
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pyoxigraph as ox


class SparqlServer:
    def __init__(self, *, reject: str | None = None, echo_headers: bool = False):
        self.store = ox.Store()
        self.reject = re.compile(reject) if reject else None
        self.echo_headers = echo_headers
        self.down = False
        self.updates: list[str] = []
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> SparqlServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _answer(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
                self.send_response(status)
                self.send_header("Server", "ragprov-test-server")
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8"))
                if server.down:
                    return self._answer(503, b"down for maintenance")
                if server.echo_headers:
                    return self._answer(500, ("bad request; headers were: " + str(dict(self.headers))).encode())
                if self.path.endswith("/update"):
                    text = form["update"][0]
                    if server.reject is not None and server.reject.search(text):
                        return self._answer(500, b"org.apache.jena.riot.RiotException: Bad IRI: code point U+2028")
                    try:
                        server.store.update(text)
                    except SyntaxError as e:
                        return self._answer(400, str(e).encode())
                    server.updates.append(text)
                    return self._answer(204, b"")
                result = server.store.query(form["query"][0])
                body = result.serialize(format=ox.QueryResultsFormat.JSON)
                return self._answer(200, body, "application/sparql-results+json")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()
