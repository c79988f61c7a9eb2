"""A SPARQL 1.1 Protocol endpoint: any remote store (Oxigraph server, Fuseki, GraphDB, Virtuoso…).

Queries are POSTed as ``application/x-www-form-urlencoded`` and answered as SPARQL JSON results,
which pyoxigraph parses into the same term model as the embedded store — triple terms included
(rdflib and SPARQLWrapper's JSON decoding cannot represent them, which is why this adapter uses
``requests`` directly). Safe operations (queries) are retried with exponential backoff on
connection errors, 429 and 5xx; an update is retried only when it certainly never reached the
server (connection refused), because a general update is not idempotent.
"""

from __future__ import annotations

import dataclasses
import time
import urllib.parse
from typing import Iterable

import pyoxigraph as ox
import requests
from pyoxigraph import NamedNode, Quad

from ..errors import ConfigurationError, QueryError, StoreError, StoreUnavailableError
from ..sparql.dialect import Dialect
from .base import QuadFormat, Rows, StoreMixin
from .embedded import rdf_format, rows_from

__all__ = ["EndpointConfig", "EndpointStore", "redact"]

_MEDIA = {
    "nquads": "application/n-quads",
    "trig": "application/trig",
    "ntriples": "application/n-triples",
    "turtle": "text/turtle",
}


def redact(url: str) -> str:
    """``url`` without any user name or password in it (for messages and logs)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username or parts.password:
        host = parts.hostname or ""
        if parts.port:
            host += f":{parts.port}"
        parts = parts._replace(netloc=host)
    return urllib.parse.urlunsplit(parts)


@dataclasses.dataclass
class EndpointConfig:
    """Where and how to reach an endpoint. Secrets stay here: never in messages or provenance."""

    query_url: str
    update_url: str | None = None
    store_url: str | None = None  # Graph Store Protocol, for bulk load/dump when the server has one
    user: str | None = dataclasses.field(default=None, repr=False)
    password: str | None = dataclasses.field(default=None, repr=False)
    token: str | None = dataclasses.field(default=None, repr=False)
    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.2
    dialect: Dialect | None = None

    @classmethod
    def from_url(cls, url: str, **options) -> "EndpointConfig":
        """Derive the query and update URLs from one URL.

        ``…/query`` or ``…/sparql`` is taken as the query endpoint (``/update`` beside ``/query``,
        the same URL beside ``/sparql``); any other URL is a dataset base with ``/query`` and
        ``/update`` below it (Oxigraph server, Fuseki).

        >>> c = EndpointConfig.from_url("http://127.0.0.1:3030/ragprov")
        >>> c.query_url, c.update_url
        ('http://127.0.0.1:3030/ragprov/query', 'http://127.0.0.1:3030/ragprov/update')
        >>> EndpointConfig.from_url("http://127.0.0.1:8890/sparql").update_url
        'http://127.0.0.1:8890/sparql'
        """
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigurationError(f"not an http(s) endpoint URL: {redact(url)!r}")
        user = urllib.parse.unquote(parts.username) if parts.username else None
        password = urllib.parse.unquote(parts.password) if parts.password else None
        clean = redact(url).rstrip("/")
        if clean.endswith("/query"):
            query_url, update_url, store_url = clean, clean[: -len("/query")] + "/update", clean[: -len("/query")] + "/store"
        elif clean.endswith("/sparql"):
            query_url = update_url = clean
            store_url = None
        else:
            query_url, update_url, store_url = clean + "/query", clean + "/update", None
        options.setdefault("user", user)
        options.setdefault("password", password)
        options.setdefault("update_url", update_url)
        options.setdefault("store_url", store_url)
        return cls(query_url=query_url, **options)


class EndpointStore(StoreMixin):
    """A store behind the SPARQL 1.1 Protocol (and, optionally, the Graph Store Protocol)."""

    def __init__(self, config: EndpointConfig, *, session: requests.Session | None = None):
        self.config = config
        self._session = session or requests.Session()
        if config.token:
            self._session.headers["Authorization"] = f"Bearer {config.token}"
        elif config.user is not None:
            self._session.auth = (config.user, config.password or "")
        self._session.headers["User-Agent"] = "ragprov"
        if config.dialect is not None:
            self.dialect = Dialect.parse(config.dialect)
        else:
            from .detect import detect_dialect

            self.dialect = detect_dialect(self)

    def __repr__(self) -> str:
        return f"EndpointStore({self.config.query_url}, dialect={self.dialect.value})"

    # -- HTTP --------------------------------------------------------------------------------
    def _post(self, url: str, *, data, headers: dict[str, str], safe: bool) -> requests.Response:
        attempts = 1 + max(0, self.config.retries)
        delay = self.config.backoff
        last: Exception | None = None
        for attempt in range(attempts):
            try:
                response = self._session.post(url, data=data, headers=headers, timeout=self.config.timeout)
            except requests.ConnectionError as e:
                # A refused connection never reached the server: retrying is safe for any request.
                last = e
                refused = "refused" in str(e).lower()
                if not (safe or refused) or attempt == attempts - 1:
                    break
            except requests.Timeout as e:
                last = e
                if not safe or attempt == attempts - 1:
                    break
            else:
                if response.status_code < 400:
                    return response
                if response.status_code in (429, 502, 503, 504) and safe and attempt < attempts - 1:
                    last = StoreUnavailableError(f"HTTP {response.status_code}")
                else:
                    return self._raise_for(response, url)
            time.sleep(delay)
            delay *= 2
        raise StoreUnavailableError(f"the store at {redact(url)} is unreachable: {type(last).__name__}: {last}")

    def _raise_for(self, response: requests.Response, url: str):
        body = response.text.strip().replace("\n", " ")[:300]
        status = response.status_code
        if status in (401, 403):
            raise QueryError(f"the store at {redact(url)} refused the request (HTTP {status}): check credentials")
        if status >= 500:
            raise StoreUnavailableError(f"the store at {redact(url)} failed (HTTP {status}): {body}")
        raise QueryError(f"the store at {redact(url)} rejected the request (HTTP {status}): {body}")

    # -- protocol ------------------------------------------------------------------------------
    def query(self, sparql: str) -> Rows | bool:
        response = self._post(
            self.config.query_url,
            data={"query": sparql},
            headers={"Accept": "application/sparql-results+json"},
            safe=True,
        )
        try:
            results = ox.parse_query_results(response.content, format=ox.QueryResultsFormat.JSON)
        except SyntaxError as e:
            raise QueryError(f"the store's answer is not SPARQL JSON results: {e}") from None
        if isinstance(results, ox.QueryBoolean):
            return bool(results)
        return rows_from(results)

    def update(self, sparql: str) -> None:
        if not self.config.update_url:
            raise ConfigurationError(f"the store at {self.config.query_url} has no update URL configured")
        self._post(self.config.update_url, data={"update": sparql}, headers={}, safe=False)

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        quads = list(ox.parse(data, format=rdf_format(format)))
        if graph is not None:
            quads = [Quad(q.subject, q.predicate, q.object, graph) for q in quads]
        self._insert_quads(quads)

    def _insert_quads(self, quads: list[Quad], batch: int = 5000) -> None:
        """INSERT DATA in batches, each quad spelled in the store's dialect."""
        from ..sparql.quads import insert_data

        for start in range(0, len(quads), batch):
            self.update(insert_data(quads[start : start + batch], self.dialect))

    def extend(self, quads: Iterable[Quad]) -> None:
        self._insert_quads(list(quads))

    def dump(self, *, format: QuadFormat = "nquads") -> bytes:
        rows = self.select("SELECT ?g ?s ?p ?o WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }")
        quads = [
            Quad(r["s"], r["p"], r["o"], r["g"]) if "g" in r else Quad(r["s"], r["p"], r["o"])
            for r in rows
        ]
        return ox.serialize(quads, format=rdf_format(format))

    def close(self) -> None:
        self._session.close()
