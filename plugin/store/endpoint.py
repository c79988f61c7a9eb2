"""A SPARQL 1.1 Protocol endpoint: any remote store (Oxigraph server, Fuseki, GraphDB, Virtuoso…).

Queries are POSTed as ``application/x-www-form-urlencoded`` and answered as SPARQL JSON results,
which pyoxigraph parses into the same term model as the embedded store — triple terms included
(rdflib and SPARQLWrapper's JSON decoding cannot represent them, which is why this adapter uses
``requests`` directly).

Retries: safe operations (queries, and updates that are one plain ``INSERT DATA`` without blank
nodes, which may be applied twice with the same result) are retried with exponential backoff on
connection errors, timeouts, 429 and 502–504. Any other update is retried only when it certainly
never reached the server (connection refused), because a general update is not idempotent — or
when the server says it rolled the update back for a transaction conflict (SQLSTATE 40001, e.g.
Virtuoso's "deadlocked" under concurrent writers), since nothing of it was applied. What
still fails raises :class:`~ragprov.errors.StoreUnavailableError` (see :mod:`ragprov.store.spool`
for a durable spool that keeps such writes).

Engine quirks are found out once, from the ``Server`` header of the first answer (or set with
``EndpointConfig(engine=...)``) — see :class:`EngineQuirks`:

* **Virtuoso** has no default graph of its own: a query's default graph is the union of every
  graph (system graphs included), and ``INSERT DATA`` outside ``GRAPH`` is an error. An ``INSERT
  DATA`` is sent with ``default-graph-uri`` naming a stand-in graph (``urn:ragprov:graph:default``),
  which ``dump``/``count``/``clear``/``load`` treat as the default graph (queries keep Virtuoso's union
  default graph: read facts from a named facts graph there, §4); Virtuoso's own system graphs are
  left out of ``dump``/``count``/``clear``; its ``xsd:boolean`` answers (``1``/``0``) are put back in
  canonical form; results are paged (its ``ResultSetMaxRows``).
* **Every engine** keeps doubles as values, not lexical forms, and answers in its own spelling
  (``"1.0"^^xsd:double`` comes back as ``1`` from Oxigraph, ``1.0e0`` from Jena TDB2, ``1.0`` from
  Virtuoso): answers from Jena and Virtuoso are put in Oxigraph's canonical spelling, so that every
  engine reads back the same term.
* **Oxigraph server** has a Graph Store Protocol endpoint (``/store``): ``dump``/``load`` use it.

>>> is_idempotent_insert('PREFIX tg: <https://trustgraph.ai/ns/> INSERT DATA { GRAPH <urn:g> { <urn:a> tg:p "DELETE {" } }')
True
>>> is_idempotent_insert('INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:p> [] } }')
False
>>> is_idempotent_insert('INSERT DATA { <urn:a> <urn:p> 1 } ; DELETE WHERE { ?s ?p ?o }')
False
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import math
import re
import threading
import urllib.parse
from collections.abc import Iterable
from typing import Any

import pyoxigraph as ox
import requests
from pyoxigraph import DefaultGraph, Literal, NamedNode, Quad, Triple

from ..errors import ConfigurationError, QueryError, RequestTooLargeError, StoreError, StoreUnavailableError
from ..http import RETRY_STATUSES, RequestFailed, RetryPolicy, Scrubber, new_session, redact, send
from ..namespaces import XSD
from ..sparql.dialect import Dialect
from ..sparql.escape import sparql_iri, sparql_string
from .base import QuadFormat, Rows, StoreMixin
from .embedded import rdf_format, rows_from

__all__ = [
    "QUIRKS",
    "VIRTUOSO_DEFAULT_GRAPH",
    "EndpointConfig",
    "EndpointStore",
    "EngineQuirks",
    "is_idempotent_insert",
    "is_insert_data",
    "redact",
]

_MEDIA = {
    "nquads": "application/n-quads",
    "trig": "application/trig",
    "ntriples": "application/n-triples",
    "turtle": "text/turtle",
}
_XSD_BOOLEAN = XSD.boolean
_XSD_DOUBLE = XSD.double
VIRTUOSO_DEFAULT_GRAPH = "urn:ragprov:graph:default"


# -- idempotent updates -----------------------------------------------------------------------------
_OPAQUE = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r'|<[^<>"{}|^`\\\x00-\x20]*>'
    r"|\#[^\n]*",
    re.S,
)
_KEYWORDS = re.compile(r"(?i)(?<![\w:])(insert|delete|load|clear|drop|create|add|move|copy|with|using|where|data)(?![\w:])")


def is_insert_data(update: str) -> bool:
    """Whether ``update`` is exactly one ``INSERT DATA`` operation (strings, IRIs, comments skipped)."""
    skeleton = _OPAQUE.sub(" ", update)
    return [w.lower() for w in _KEYWORDS.findall(skeleton)] == ["insert", "data"]


def is_idempotent_insert(update: str) -> bool:
    """Whether ``update`` is exactly one ``INSERT DATA`` with no blank nodes (so applying it twice
    changes nothing). Strings, IRIs and comments are skipped; when in doubt, the answer is no."""
    skeleton = _OPAQUE.sub(" ", update)
    if "_:" in skeleton or "[" in skeleton:
        return False
    return [w.lower() for w in _KEYWORDS.findall(skeleton)] == ["insert", "data"]


# -- engines -----------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class EngineQuirks:
    """What ragprov must do differently for one engine."""

    engine: str
    default_graph: str | None = None
    """A named graph standing in for the default graph (sent as ``default-graph-uri``)."""
    hidden_graph_prefixes: tuple[str, ...] = ()
    """IRIs (prefixes) of the engine's own system graphs: not user data."""
    canonical_booleans: bool = False
    """Answers spell ``xsd:boolean`` as ``1``/``0``: put back ``true``/``false``."""
    canonical_doubles: bool = False
    """Answers spell ``xsd:double`` in the engine's own form: use Oxigraph's canonical one."""
    page_size: int | None = None
    """The most rows one answer may hold (larger results are paged)."""
    graph_store: bool = False
    """``…/store`` beside ``…/query`` speaks the Graph Store Protocol with N-Quads."""
    rounds_doubles: bool = False
    """Result sets spell ``xsd:double`` with 6 significant digits (Virtuoso, openlink/virtuoso-opensource
    #1006), while ``STR()`` of the same value keeps them all: exports read the value through ``STR()``."""


QUIRKS: dict[str, EngineQuirks] = {
    "virtuoso": EngineQuirks(
        "virtuoso",
        default_graph=VIRTUOSO_DEFAULT_GRAPH,
        hidden_graph_prefixes=(
            "http://www.openlinksw.com/schemas/virtrdf#",
            "http://www.w3.org/ns/ldp#",
            "http://www.w3.org/2002/07/owl#",
            "http://localhost:8890/",
        ),
        canonical_booleans=True,
        canonical_doubles=True,
        page_size=10000,
        rounds_doubles=True,
    ),
    "oxigraph": EngineQuirks("oxigraph", graph_store=True),
    "jena": EngineQuirks("jena", canonical_doubles=True),
    "generic": EngineQuirks("generic"),
}


def engine_from_server_header(header: str | None) -> str:
    """The engine family a ``Server`` header names (``generic`` when unknown).

    >>> engine_from_server_header("Virtuoso/07.20.3229 (Linux) x86_64-pc-linux-gnu")
    'virtuoso'
    >>> engine_from_server_header("Oxigraph/0.5.13")
    'oxigraph'
    >>> engine_from_server_header("Apache Jena Fuseki (4.10.0)")
    'jena'
    """
    h = (header or "").lower()
    if "virtuoso" in h:
        return "virtuoso"
    if "oxigraph" in h:
        return "oxigraph"
    if "jena" in h or "fuseki" in h:
        return "jena"
    return "generic"


@dataclasses.dataclass
class EndpointConfig:
    """Where and how to reach an endpoint. Secrets stay here: never in messages or provenance.

    ``engine`` (``virtuoso``, ``oxigraph``, ``jena``, ``generic``) is detected from the server when
    not given; ``default_graph`` and ``hidden_graphs`` override that engine's quirks. ``auth`` is
    ``basic`` or ``digest`` (Virtuoso's ``/sparql-auth``). ``update_field`` is the form field that
    carries an update (``update``; very old Virtuoso releases want ``query``).
    """

    query_url: str
    update_url: str | None = None
    store_url: str | None = None  # Graph Store Protocol, for bulk load/dump when the server has one
    user: str | None = dataclasses.field(default=None, repr=False)
    password: str | None = dataclasses.field(default=None, repr=False)
    token: str | None = dataclasses.field(default=None, repr=False)
    auth: str = "basic"
    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.2
    dialect: Dialect | None = None
    engine: str | None = None
    default_graph: str | None = None
    hidden_graphs: tuple[str, ...] | None = None
    update_field: str = "update"
    page_size: int | None = None

    def __post_init__(self) -> None:
        if self.auth not in ("basic", "digest"):
            raise ConfigurationError(f"unknown auth scheme {self.auth!r}: use basic or digest")
        if self.engine is not None and self.engine not in QUIRKS:
            raise ConfigurationError(f"unknown engine {self.engine!r}: use one of {', '.join(QUIRKS)}")
        if self.update_field not in ("update", "query"):
            raise ConfigurationError("update_field must be 'update' or 'query'")
        if self.timeout <= 0 or self.retries < 0 or self.backoff < 0:
            raise ConfigurationError("timeout must be > 0, retries and backoff >= 0")

    @classmethod
    def from_url(cls, url: str, **options) -> EndpointConfig:
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
        elif clean.endswith("/sparql") or clean.endswith("/sparql-auth"):
            query_url = update_url = clean
            store_url = None
        else:
            query_url, update_url, store_url = clean + "/query", clean + "/update", None
        options.setdefault("user", user)
        options.setdefault("password", password)
        options.setdefault("update_url", update_url)
        options.setdefault("store_url", store_url)
        return cls(query_url=query_url, **options)


def _is_conflict(response: requests.Response) -> bool:
    """A transaction conflict the server rolled back (SQLSTATE 40001: Virtuoso's "deadlocked"):
    nothing was applied, so a safe request may simply be sent again."""
    return response.status_code in (409, 500) and bool(re.search(r"\b40001\b|deadlock", response.text[:2000], re.I))


class EndpointStore(StoreMixin):
    """A store behind the SPARQL 1.1 Protocol (and, optionally, the Graph Store Protocol)."""

    INSERT_BATCH = 5000
    """Quads per ``INSERT DATA`` to start with (halved while the store refuses a batch for its size)."""

    def __init__(self, config: EndpointConfig, *, session: requests.Session | None = None):
        self._batch = self.INSERT_BATCH
        self.config = config
        self._session = session or new_session()
        # Jitter spreads writers that conflicted at once, so they do not meet again on the retry.
        self._policy = RetryPolicy(retries=config.retries, backoff=config.backoff, jitter=1.0)
        secrets = [config.password, config.token]
        if config.user is not None:
            secrets.append(base64.b64encode(f"{config.user}:{config.password or ''}".encode()).decode())
        self._scrub = Scrubber(*secrets)
        if config.token:
            self._session.headers["Authorization"] = f"Bearer {config.token}"
        elif config.user is not None:
            if config.auth == "digest":
                self._session.auth = requests.auth.HTTPDigestAuth(config.user, config.password or "")
            else:
                self._session.auth = (config.user, config.password or "")
        self._quirks: EngineQuirks | None = None
        self._quirks_lock = threading.Lock()
        if config.engine is not None:
            self._quirks = self._apply_overrides(QUIRKS[config.engine])
        if config.dialect is not None:
            self.dialect = Dialect.parse(config.dialect)
        else:
            from .detect import detect_dialect

            self.dialect = detect_dialect(self)

    def __repr__(self) -> str:
        return f"EndpointStore({self.config.query_url}, dialect={self.dialect.value})"

    # -- engine quirks ---------------------------------------------------------------------------
    def _apply_overrides(self, quirks: EngineQuirks) -> EngineQuirks:
        c = self.config
        changes: dict[str, Any] = {}
        if c.default_graph is not None:
            changes["default_graph"] = c.default_graph or None
        if c.hidden_graphs is not None:
            changes["hidden_graph_prefixes"] = tuple(c.hidden_graphs)
        if c.page_size is not None:
            changes["page_size"] = c.page_size
        return dataclasses.replace(quirks, **changes) if changes else quirks

    @property
    def quirks(self) -> EngineQuirks:
        """The engine's quirks; the first call asks the server who it is (one ``ASK {}``)."""
        if self._quirks is None:
            with self._quirks_lock:
                if self._quirks is None:
                    response = self._send(self.config.query_url, {"query": "ASK {}"},
                                          {"Accept": "application/sparql-results+json"}, safe=True)
                    engine = engine_from_server_header(response.headers.get("Server"))
                    self._quirks = self._apply_overrides(QUIRKS[engine])
        return self._quirks

    @property
    def engine(self) -> str:
        """The engine family: ``virtuoso``, ``oxigraph``, ``jena`` or ``generic``."""
        return self.quirks.engine

    # -- HTTP --------------------------------------------------------------------------------
    def _post(self, url: str, *, data, headers: dict[str, str], safe: bool) -> requests.Response:
        return self._send(url, data, headers, safe=safe)

    def _send(self, url: str, data, headers: dict[str, str], *, safe: bool, method: str = "POST") -> requests.Response:
        """One request under the retry policy. Only a ``safe`` request (a query, an idempotent
        update) is sent again after it may have reached the server; a refused connection never did."""

        def retry_error(e: requests.RequestException) -> bool:
            if isinstance(e, requests.ConnectionError):
                return safe or "refused" in str(e).lower()
            return safe

        def retry_response(response: requests.Response) -> bool:
            # A conflict was rolled back whole, so even an update that is not idempotent is sent again.
            return _is_conflict(response) or (safe and response.status_code in RETRY_STATUSES)

        try:
            response = send(self._session, method, url, policy=self._policy, retry_error=retry_error,
                            retry_response=retry_response, data=data, headers=headers, timeout=self.config.timeout)
        except RequestFailed as e:
            raise StoreUnavailableError(
                f"the store at {redact(url)} is unreachable: {type(e.error).__name__}: {e.error}"
            ) from None
        if response.status_code >= 400:
            self._raise_for(response, url)
        return response

    def _raise_for(self, response: requests.Response, url: str):
        body = self._scrub(response.text).strip().replace("\n", " ")[:300]
        status = response.status_code
        if status in (401, 403):
            raise QueryError(f"the store at {redact(url)} refused the request (HTTP {status}): check credentials")
        if "SR186" in body:  # Virtuoso: the anonymous SPARQL user may not update
            raise QueryError(
                f"the store at {redact(url)} refused the update (Virtuoso SR186: no permission): run "
                "GRANT SPARQL_UPDATE TO \"SPARQL\" as dba, or use /sparql-auth with a user (auth='digest')"
            )
        if status == 413 or "SP031" in body or ("SP030" in body and "memory exhausted" in body):
            # Virtuoso SP031: "the length of generated SQL text has exceeded 10000 lines of code";
            # SP030 "memory exhausted": its SPARQL compiler ran out of parser stack on a long request
            raise RequestTooLargeError(f"the store at {redact(url)} refused the request for its size (HTTP {status}): {body}")
        if status >= 500:
            # Virtuoso answers 500 for SPARQL syntax and compile errors: those are the query's fault.
            if "estimated execution time" in body:
                raise QueryError(
                    f"the store at {redact(url)} refused the query on the optimiser's cost estimate, not on its real cost "
                    "(Virtuoso's MaxQueryCostEstimationTime, a debugging setting: comment it out of virtuoso.ini and restart): "
                    f"{body}"
                )
            if re.search(r"\b(37000|SP0\d\d|42000)\b", body):
                raise QueryError(f"the store at {redact(url)} rejected the request (HTTP {status}): {body}")
            error = StoreUnavailableError(f"the store at {redact(url)} failed (HTTP {status}): {body}")
            error.status = status  # it answered: the spool may judge whether the request, not the store, is at fault
            raise error
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
        rows = rows_from(results)
        q = self.quirks
        if q.canonical_booleans or q.canonical_doubles:
            fix = functools.partial(_canonical, booleans=q.canonical_booleans, doubles=q.canonical_doubles)
            rows = Rows(rows.variables, [{k: fix(v) for k, v in row.items()} for row in rows])
        return rows

    def update(self, sparql: str) -> None:
        if not self.config.update_url:
            raise ConfigurationError(f"the store at {self.config.query_url} has no update URL configured")
        fields = [(self.config.update_field, sparql)]
        if self.quirks.default_graph and is_insert_data(sparql):
            # Only INSERT DATA gets the stand-in: on Virtuoso a default-graph-uri also hides every
            # GRAPH <iri> { } of a WHERE clause from the update (it is the request's whole dataset).
            fields.append(("default-graph-uri", self.quirks.default_graph))
        self._post(self.config.update_url, data=fields,
                   headers={"Accept": "application/sparql-results+json, */*;q=0.1"},
                   safe=is_idempotent_insert(sparql))

    @property
    def _graph_store(self) -> str | None:
        """The Graph Store endpoint used for bulk load/dump: only on engines known to serve N-Quads
        for the whole dataset there (Oxigraph's ``/store``); elsewhere SPARQL is used."""
        if not self.quirks.graph_store:
            return None
        if self.config.store_url:
            return self.config.store_url
        if self.config.query_url.endswith("/query"):
            return self.config.query_url[: -len("/query")] + "/store"
        return None

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        try:
            quads = list(ox.parse(data, format=rdf_format(format)))
        except SyntaxError as e:
            raise QueryError(f"the data could not be parsed as {format}: {e}") from None
        if graph is not None:
            quads = [Quad(q.subject, q.predicate, q.object, graph) for q in quads]
        self._insert_quads(quads)

    def _insert_quads(self, quads: list[Quad]) -> None:
        """Add quads: N-Quads to the Graph Store endpoint when the engine has one (same dialect),
        else ``INSERT DATA`` in batches, each quad spelled in the store's dialect.

        A batch the store refuses for its size alone (:class:`RequestTooLargeError`: nothing of it
        was applied) is sent again in halves, and the smaller size is kept for the batches after it:
        Virtuoso compiles ``INSERT DATA`` to SQL and refuses one whose SQL passes 10,000 lines,
        which a few hundred reified quads with long literals already do."""
        if not quads:
            return
        store = self._graph_store
        if store and self.dialect is Dialect.RDF12:
            body = ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""
            # Posting the same quads twice changes nothing, unless blank nodes make them new ones.
            self._send(store, body, {"Content-Type": "application/n-quads"}, safe=b"_:" not in body)
            return
        from ..sparql.quads import insert_data

        start = 0
        while start < len(quads):
            part = quads[start : start + self._batch]
            try:
                self.update(insert_data(part, self.dialect))
            except RequestTooLargeError:
                if len(part) == 1:
                    raise
                self._batch = max(1, len(part) // 2)
                continue
            start += len(part)

    def extend(self, quads: Iterable[Quad]) -> None:
        self._insert_quads(list(quads))

    def bulk_extend(self, quads: Iterable[Quad]) -> None:
        self._insert_quads(list(quads))

    # -- whole-store operations --------------------------------------------------------------
    def _graph_filter(self, var: str = "?g") -> str:
        """A FILTER leaving out the engine's system graphs and the default-graph stand-in."""
        q = self.quirks
        conditions = [f"!STRSTARTS(STR({var}), {sparql_string(p)})" for p in q.hidden_graph_prefixes]
        if q.default_graph:
            conditions.append(f"{var} != {sparql_iri(q.default_graph)}")
        return f"FILTER({' && '.join(conditions)})" if conditions else ""

    def _default_pattern(self) -> str:
        """The default graph's triples (the stand-in graph where queries see a union instead)."""
        if self.quirks.default_graph:
            return f"GRAPH {sparql_iri(self.quirks.default_graph)} {{ ?s ?p ?o }}"
        return "?s ?p ?o"

    def graphs(self) -> list[NamedNode]:
        """The named graphs holding user data (system graphs and the default-graph stand-in left out)."""
        rows = self.select(f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?s ?p ?o }} {self._graph_filter()} }}")
        return [g for g in (r.get("g") for r in rows) if isinstance(g, NamedNode)]

    def count(self, graph: NamedNode | None = None) -> int:
        if graph is not None:
            return super().count(graph)
        default = int(self.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ {self._default_pattern()} }}")[0]["n"].value)
        named = int(self.select(
            f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o }} {self._graph_filter()} }}"
        )[0]["n"].value)
        return default + named

    def _graph_sizes(self) -> dict[str | None, int]:
        """How many triples each graph holding user data has (``None``: the default graph)."""
        rows = self.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ {self._default_pattern()} }}")
        sizes: dict[str | None, int] = {None: int(str(rows[0]["n"].value))}
        rows = self.select(
            f"SELECT ?g (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o }} {self._graph_filter()} }} GROUP BY ?g"
        )
        for r in rows:
            graph, n = r.get("g"), r.get("n")
            if isinstance(graph, NamedNode) and isinstance(n, Literal):
                sizes[graph.value] = int(n.value)
        return sizes

    def _triples(self, graph: str | None, size: int) -> set[tuple]:
        """The ``size`` triples of one graph (``None``: the default graph), read in answers no longer
        than the engine gives (``page_size``).

        Pages carry no ``ORDER BY``: Virtuoso refuses a sorted ``TOP`` past 10,000 rows (SR353). A
        page set without an order may overlap, so it is checked against the graph's count; when it
        falls short, the graph is read again split by a hash of each triple (:meth:`_hashed`)."""
        pattern = self._default_pattern() if graph is None else f"GRAPH {sparql_iri(graph)} {{ ?s ?p ?o }}"
        if self.quirks.rounds_doubles:
            pattern += f' BIND(IF(isLiteral(?o) && DATATYPE(?o) = {sparql_iri(_XSD_DOUBLE.value)}, STR(?o), "") AS ?full)'
        limit = self.quirks.page_size
        if not limit or size < limit:
            return self._read_triples(f"SELECT * WHERE {{ {pattern} }}")
        found: set[tuple] = set()
        for offset in range(0, size, limit):
            found |= self._read_triples(f"SELECT * WHERE {{ {pattern} }} LIMIT {limit} OFFSET {offset}")
        return found if len(found) == size else self._hashed(pattern, limit)

    def _read_triples(self, query: str) -> set[tuple]:
        """The ``?s ?p ?o`` rows of ``query``, a double read from its full ``?full`` spelling."""
        found = set()
        for r in self.select(query):
            o = r["o"]
            full = r.get("full")
            if isinstance(full, Literal) and full.value:
                o = _canonical(Literal(full.value, datatype=_XSD_DOUBLE))
            found.add((r["s"], r["p"], o))
        return found

    def _hashed(self, pattern: str, limit: int, prefix: str = "") -> set[tuple]:
        """The triples of ``pattern`` whose MD5 (of subject, predicate and object) starts with
        ``prefix``, one query per next hex digit; a part as large as an answer may be is split again."""
        found: set[tuple] = set()
        key = 'MD5(CONCAT(STR(?s), " ", STR(?p), " ", STR(?o)))'
        for digit in "0123456789abcdef":
            part = sparql_string(prefix + digit)
            rows = self._read_triples(f"SELECT * WHERE {{ {pattern} FILTER(STRSTARTS({key}, {part})) }} LIMIT {limit}")
            if len(rows) >= limit and len(prefix) < 31:
                found |= self._hashed(pattern, limit, prefix + digit)
            else:
                found |= rows
        return found

    def quads(self) -> list[Quad]:
        """Every quad of the store (default graph and named graphs holding user data)."""
        store = self._graph_store
        if store:
            response = self._send(store, None, {"Accept": "application/n-quads"}, safe=True, method="GET")
            return list(ox.parse(response.content, format=ox.RdfFormat.N_QUADS))
        sizes = self._graph_sizes()
        quads: list[Quad] = []
        for graph, size in sizes.items():
            name = DefaultGraph() if graph is None else NamedNode(graph)
            triples = self._triples(graph, size)
            if len(triples) != size:
                raise StoreError(
                    f"the store at {self.config.query_url} returned {len(triples)} of the {size} triples of "
                    f"{'the default graph' if graph is None else graph}: was it written to during the export?"
                )
            quads += [Quad(s, p, o, name) for s, p, o in triples]
        return quads

    def dump(self, *, format: QuadFormat = "nquads") -> bytes:
        return ox.serialize(self.quads(), format=rdf_format(format)) or b""

    def clear(self) -> None:
        """Remove every quad of user data (system graphs of the engine stay)."""
        if self.quirks.hidden_graph_prefixes or self.quirks.default_graph:
            ops = [f"DROP SILENT GRAPH {sparql_iri(g.value)}" for g in self.graphs()]
            if self.quirks.default_graph:
                ops.append(f"DROP SILENT GRAPH {sparql_iri(self.quirks.default_graph)}")
            else:
                ops.append("CLEAR SILENT DEFAULT")
            for op in ops:
                self.update(op)
        else:
            self.update("DROP ALL")

    def close(self) -> None:
        self._session.close()


def _canonical(term, *, booleans: bool = True, doubles: bool = True):
    """Literals in the lexical form Oxigraph answers with: ``"1"^^xsd:boolean`` as ``"true"``, ``"0"``
    as ``"false"``, a finite ``xsd:double`` in pyoxigraph's canonical form (``0.2e0`` as ``0.2``,
    ``1.0e0`` as ``1``); other terms unchanged, triple terms fixed inside.

    >>> _canonical(Literal("0.2e0", datatype=_XSD_DOUBLE)).value
    '0.2'
    >>> _canonical(Literal("1", datatype=_XSD_BOOLEAN)).value
    'true'
    """
    if isinstance(term, Literal):
        if booleans and term.datatype == _XSD_BOOLEAN and term.value in ("1", "0"):
            return Literal("true" if term.value == "1" else "false", datatype=_XSD_BOOLEAN)
        if doubles and term.datatype == _XSD_DOUBLE:
            try:
                number = float(term.value)
            except ValueError:
                return term
            if math.isfinite(number):
                canonical = Literal(number)
                if canonical.value != term.value:
                    return canonical
        return term
    if isinstance(term, Triple):
        return Triple(
            _canonical(term.subject, booleans=booleans, doubles=doubles),
            term.predicate,
            _canonical(term.object, booleans=booleans, doubles=doubles),
        )
    return term
