"""The loaders' bulk write path: terms spelled once as N-Triples text, written in batches.

Loaders produce many quads; building a pyoxigraph :class:`~pyoxigraph.Quad` per quad costs as much
as inserting it, so loaders spell each term once with the same escaping functions the SPARQL
templates use (:mod:`ragprov.sparql.escape`: every literal and IRI is closed and escaped, the output
is valid N-Triples as well as SPARQL; the GraphRAG tables are spelled whole Arrow columns at a time,
to the same text, by :mod:`ragprov.loaders._columns`) and hand batches of N-Quads text to
``Store.load`` — the Store protocol's bulk path. The embedded store parses them in Rust; an endpoint store parses them and
sends ``INSERT DATA`` in its own dialect, so quoted triples (``<<( s p o )>>`` here) become
``<< >>`` or ``rdf:Statement`` IRIs as the store needs.

>>> w = QuadWriter(None, batch_size=10)
>>> w.add(iri("urn:x:s"), iri("urn:x:p"), string('say "hi"'), SOURCE)
>>> w.pending()
'<urn:x:s> <urn:x:p> "say \\\\"hi\\\\"" <urn:graph:source> .\\n'
>>> mint("urn:graphrag:entity:", "a b/c")
'<urn:graphrag:entity:a%20b%2Fc>'
>>> quoted(iri("urn:s"), iri("urn:p"), string("o"))
'<<( <urn:s> <urn:p> "o" )>>'
"""

from __future__ import annotations

import hashlib
import queue
import re
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ragprov.errors import InvalidValueError, LoadError, QueryError, StoreError
from ragprov.namespaces import LIBRARY_GRAPH, PREFIXES, SOURCE_GRAPH
from ragprov.sparql.dialect import Dialect
from ragprov.sparql.escape import (
    sparql_boolean,
    sparql_datetime,
    sparql_double,
    sparql_integer,
    sparql_iri,
    sparql_string,
)

__all__ = [
    "DEFAULT",
    "LIBRARY",
    "SOURCE",
    "QuadWriter",
    "V",
    "boolean",
    "content_hash",
    "datetime",
    "double",
    "graph_term",
    "integer",
    "iri",
    "mint",
    "progress",
    "quoted",
    "string",
]

iri = sparql_iri
_XSD_INTEGER = "^^<http://www.w3.org/2001/XMLSchema#integer>"


def integer(value: object) -> str:
    """An ``xsd:integer`` literal (as :func:`ragprov.sparql.escape.sparql_integer`, faster for ints)."""
    if type(value) is int:
        return f'"{value}"{_XSD_INTEGER}'
    return sparql_integer(value)


_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f\ufffe\uffff]')
_RARE_ESCAPE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def string(value: str) -> str:
    """A plain literal holding exactly ``value``: the same text as
    :func:`ragprov.sparql.escape.sparql_string` (a test proves it), valid SPARQL and N-Triples,
    but made with ``str.replace`` for the common escapes (long texts have many newlines).

    >>> print(string('a "b"\\n'))
    "a \\"b\\"\\n"
    """
    if type(value) is not str:
        return sparql_string(value)
    if not _NEEDS_ESCAPE.search(value):
        return f'"{value}"'
    if _RARE_ESCAPE.search(value):
        return sparql_string(value)
    return (
        '"'
        + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
        + '"'
    )

double = sparql_double
datetime = sparql_datetime
boolean = sparql_boolean

SOURCE = f"<{SOURCE_GRAPH.value}>"
LIBRARY = f"<{LIBRARY_GRAPH.value}>"
DEFAULT = ""

_SAFE = "-._~:@!$'()*+,;="
_PLAIN_KEY = re.compile(r"[A-Za-z0-9._~:@-]*")
SPARQL_BATCH = 1000
"""Quads per load on stores written through SPARQL UPDATE (``rdfstar`` and ``reification`` dialects)."""


def mint(prefix: str, key: str, suffix: str = "") -> str:
    """``<prefix + key + suffix>`` with ``key`` percent-encoded, so any id gives a valid IRI
    (``prefix`` and ``suffix`` are the caller's own constant, valid IRI text)."""
    key = str(key)
    if not _PLAIN_KEY.fullmatch(key):
        key = urllib.parse.quote(key, safe=_SAFE)
    return "<" + prefix + key + suffix + ">"


def quoted(s: str, p: str, o: str) -> str:
    """A triple term in object position (RDF 1.2 N-Quads spelling)."""
    return f"<<( {s} {p} {o} )>>"


def content_hash(*parts: str | bytes, length: int = 32) -> str:
    """Hex SHA-256 of ``parts`` (separated), cut to ``length`` characters: content-derived IRIs."""
    h = hashlib.sha256()
    for i, part in enumerate(parts):
        if i:
            h.update(b"\x1f")
        h.update(part.encode("utf-8") if isinstance(part, str) else part)
    return h.hexdigest()[:length]


def graph_term(graph) -> str:
    """The spelled graph name for a :class:`NamedNode` (or ``""`` for the default graph)."""
    if graph is None:
        return DEFAULT
    return sparql_iri(graph)


class _V:
    """Spelled IRIs of the vocabulary terms the loaders write (``V.tg("Chunk")``)."""

    TG, PROV, RDF, RDFS, DC, DCTERMS = (str(PREFIXES[p]) for p in ("tg", "prov", "rdf", "rdfs", "dc", "dcterms"))

    def __init__(self) -> None:
        self.type = f"<{self.RDF}type>"
        self.label = f"<{self.RDFS}label>"

    def tg(self, name: str) -> str:
        return f"<{self.TG}{name}>"

    def prov(self, name: str) -> str:
        return f"<{self.PROV}{name}>"

    def rdfs(self, name: str) -> str:
        return f"<{self.RDFS}{name}>"

    def rdf(self, name: str) -> str:
        return f"<{self.RDF}{name}>"

    def dc(self, name: str) -> str:
        return f"<{self.DC}{name}>"

    def dcterms(self, name: str) -> str:
        return f"<{self.DCTERMS}{name}>"


V = _V()


class QuadWriter:
    """Collects spelled quads and writes them to ``store`` with ``Store.load`` in batches.

    ``on_batch(n)`` is called after each batch with the number of quads written (progress bars).
    ``store=None`` only collects (for previews and doctests): see :meth:`pending`.

    ``background=True`` writes each batch on one worker thread while the caller spells the next:
    the embedded store parses and inserts N-Quads with the GIL released (an endpoint store waits on
    the network), so spelling and inserting overlap. At most two batches wait (memory stays flat);
    a failed write is raised by the next :meth:`flush` or by :meth:`close`, and later batches are
    dropped. :meth:`close` always waits for the worker.

    ``trusted=True`` says every term was spelled by the loader from checked parts (IRIs minted
    under a validated namespace, constants, escaped literals): the batches then go through
    ``Store.bulk_load(lenient=True)``, which an embedded store parses leniently (no second IRI
    check), in memory as one transaction a batch and on disk through RocksDB's bulk path (larger
    batches here: each writes and ingests its own files). Like every batch of a loader, not
    atomic: the loaders write their completion mark last. A SPARQL store writes them as ``load``.
    """

    def __init__(
        self,
        store,
        *,
        batch_size: int = 50_000,
        batch_chars: int = 4_000_000,
        on_batch: Callable[[int], None] | None = None,
        background: bool = False,
        trusted: bool = False,
    ):
        self.store = store
        self.small = store is not None and store.dialect is not Dialect.RDF12
        self.trusted = trusted and store is not None and not self.small
        if self.trusted and store.path is not None:
            # each bulk load of an on-disk store writes and ingests its own files: fewer, larger ones
            batch_size, batch_chars = max(batch_size, 200_000), max(batch_chars, 16_000_000)
        if self.small:
            # Such stores take N-Quads as INSERT DATA requests; some engines (Virtuoso) refuse
            # requests of many thousand quads, so keep each load to one modest request.
            batch_size = min(batch_size, SPARQL_BATCH)
        self.batch_size = batch_size
        self.batch_chars = batch_chars  # long texts: bound the batch by size too, so memory stays flat
        self.on_batch = on_batch
        self._lines: list[str | bytes | memoryview] = []
        self._n = 0
        self._weight = 0  # column-wise lines on SPARQL stores: triples once spelled (see _small)
        self._chars = 0
        self.written = 0
        self.background = background and store is not None
        self._queue: queue.Queue | None = None
        self._worker: threading.Thread | None = None
        self._error: BaseException | None = None

    def close(self) -> None:
        """Write what is pending (and wait for the background writer)."""
        try:
            self.flush()
        finally:
            if self._worker is not None:
                self._queue.put(None)  # type: ignore[union-attr]
                self._worker.join()
                self._worker = None
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def add(self, s: str, p: str, o: str, g: str = DEFAULT) -> None:
        """One quad (``g=""``: the default graph)."""
        line = f"{s} {p} {o} {g} .\n"
        self._lines.append(line)
        self._n += 1
        self._weight += 1
        self._chars += len(line)
        if self._weight >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def node(self, s: str, g: str, pairs: list[tuple[str, str]]) -> None:
        """Several quads of one subject in one graph: ``s p o g`` for each ``(p, o)``."""
        tail = f" {g} .\n"
        text = "".join([f"{s} {p} {o}{tail}" for p, o in pairs])
        self._lines.append(text)
        self._n += len(pairs)
        self._weight += len(pairs)
        self._chars += len(text)
        if self._weight >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def lines(self, text: str | bytes | memoryview, n: int) -> None:
        """``n`` quads already spelled as N-Quads lines (text, or UTF-8 bytes: the column-wise
        path spells whole batches at once)."""
        if not n:
            return
        if self.small:
            self._small(text.encode("utf-8") if isinstance(text, str) else bytes(text))
            return
        self._lines.append(text)
        self._n += n
        self._weight += n
        self._chars += len(text)
        if self._weight >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def buffers(self, parts: list[tuple[memoryview, int]]) -> None:
        """Quads as ``(view of UTF-8 N-Quads lines, number of quads)`` parts (the column-wise path:
        each part copied once, when its batch is written; batches still close at ``batch_size``
        quads or ``batch_chars`` bytes, between parts)."""
        for view, count in parts:
            if self.small:
                self._small(bytes(view))
            elif count:
                self._lines.append(view)
                self._n += count
                self._weight += count
                self._chars += len(view)
                if self._weight >= self.batch_size or self._chars >= self.batch_chars:
                    self.flush()

    def _small(self, data: bytes) -> None:
        """Lines for a store written through SPARQL UPDATE, one by one: requests of at most
        ``batch_size`` triples as the store spells them (a quoted triple in the reification
        dialect is 4 more: its rdf:Statement), so one request never holds a whole column of
        Statements."""
        for line in data.split(b"\n")[:-1]:  # one quad a line: literals escape their line ends
            weight = 5 if b"<<(" in line else 1
            if self._n and self._weight + weight > self.batch_size:
                self.flush()
            self._lines.append(line + b"\n")
            self._n += 1
            self._weight += weight
            self._chars += len(line) + 1
        if self._weight >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def pending(self) -> str:
        return "".join(p if isinstance(p, str) else bytes(p).decode("utf-8") for p in self._lines)

    def flush(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        if not self._lines or self.store is None:
            return
        parts = self._lines
        data = b"".join([p.encode("utf-8") if isinstance(p, str) else p for p in parts])
        n = self._n
        self._lines = []
        self._n = 0
        self._weight = 0
        self._chars = 0
        if not self.background:
            self._load(data, n)
            return
        if self._worker is None:
            self._queue = queue.Queue(maxsize=1)
            self._worker = threading.Thread(target=self._work, name="ragprov-quad-writer", daemon=True)
            self._worker.start()
        self._queue.put((data, n))  # type: ignore[union-attr]

    def _work(self) -> None:
        assert self._queue is not None
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self._error is None:  # after a failure, later batches are dropped
                try:
                    self._load(*item)
                except BaseException as e:  # raised in the caller's thread by flush/close
                    self._error = e

    def _load(self, data: bytes, n: int) -> None:
        try:
            # The store spells quoted triples its own way (<< >> or rdf:Statement IRIs) and knows
            # its engine's limits: an endpoint turns N-Quads into INSERT DATA batches itself.
            if self.trusted:
                try:
                    self.store.bulk_load(data, lenient=True)
                except QueryError as e:  # a spelled term the store's parser refused: a bug
                    raise LoadError(f"the store refused a batch of {n} quads: {e}") from None
            else:
                self.store.load(data, format="nquads")
        except StoreError:
            raise
        except (SyntaxError, ValueError) as e:  # a spelled term the store's parser refused: a bug
            raise LoadError(f"the store refused a batch of {n} quads: {e}") from None
        self.written += n
        if self.on_batch is not None:
            self.on_batch(n)


def check_iri(value: str, what: str) -> str:
    """Spell ``value`` as an IRI, or a :class:`LoadError` naming ``what`` it is."""
    try:
        return sparql_iri(value)
    except InvalidValueError as e:
        raise LoadError(f"{what}: {e}") from None


@contextmanager
def progress(description: str, *, total: int | None, enabled: bool | None = None) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on a terminal (stderr), nothing when piped; yields ``advance(n)``."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield lambda n: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n: bar.advance(task, n)
