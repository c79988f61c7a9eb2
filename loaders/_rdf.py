"""The loaders' bulk write path: terms spelled once as N-Triples text, written in batches.

Loaders produce many quads; building a pyoxigraph :class:`~pyoxigraph.Quad` per quad costs as much
as inserting it, so loaders spell each term once with the same escaping functions the SPARQL
templates use (:mod:`ragprov.sparql.escape`: every literal and IRI is closed and escaped, the output
is valid N-Triples as well as SPARQL) and hand batches of N-Quads text to ``Store.load`` — the Store
protocol's bulk path. The embedded store parses them in Rust; an endpoint store parses them and
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
import re
import sys
import urllib.parse
from contextlib import contextmanager
from typing import Callable, Iterator

from ragprov.errors import InvalidValueError, LoadError, StoreError
from ragprov.sparql.dialect import Dialect
from ragprov.namespaces import LIBRARY_GRAPH, SOURCE_GRAPH
from ragprov.sparql.escape import (
    sparql_datetime,
    sparql_double,
    sparql_integer,
    sparql_iri,
    sparql_string,
    sparql_boolean,
)

__all__ = [
    "QuadWriter",
    "iri",
    "mint",
    "string",
    "integer",
    "double",
    "datetime",
    "boolean",
    "quoted",
    "content_hash",
    "SOURCE",
    "LIBRARY",
    "DEFAULT",
    "graph_term",
    "V",
    "progress",
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

    TG = "https://trustgraph.ai/ns/"
    PROV = "http://www.w3.org/ns/prov#"
    RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    RDFS = "http://www.w3.org/2000/01/rdf-schema#"
    DC = "http://purl.org/dc/elements/1.1/"
    DCTERMS = "http://purl.org/dc/terms/"

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
    """

    def __init__(
        self,
        store,
        *,
        batch_size: int = 50_000,
        batch_chars: int = 4_000_000,
        on_batch: Callable[[int], None] | None = None,
    ):
        self.store = store
        if getattr(store, "dialect", Dialect.RDF12) is not Dialect.RDF12:
            # Such stores take N-Quads as INSERT DATA requests; some engines (Virtuoso) refuse
            # requests of many thousand quads, so keep each load to one modest request.
            batch_size = min(batch_size, SPARQL_BATCH)
        self.batch_size = batch_size
        self.batch_chars = batch_chars  # long texts: bound the batch by size too, so memory stays flat
        self.on_batch = on_batch
        self._lines: list[str] = []
        self._n = 0
        self._chars = 0
        self.written = 0

    def close(self) -> None:
        """Write what is pending."""
        self.flush()

    def add(self, s: str, p: str, o: str, g: str = DEFAULT) -> None:
        """One quad (``g=""``: the default graph)."""
        line = f"{s} {p} {o} {g} .\n"
        self._lines.append(line)
        self._n += 1
        self._chars += len(line)
        if self._n >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def node(self, s: str, g: str, pairs: list[tuple[str, str]]) -> None:
        """Several quads of one subject in one graph: ``s p o g`` for each ``(p, o)``."""
        tail = f" {g} .\n"
        text = "".join([f"{s} {p} {o}{tail}" for p, o in pairs])
        self._lines.append(text)
        self._n += len(pairs)
        self._chars += len(text)
        if self._n >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def lines(self, text: str, n: int) -> None:
        """``n`` quads already spelled as N-Quads lines (the hot loops build a row's lines in one
        f-string: far cheaper than one call per quad)."""
        self._lines.append(text)
        self._n += n
        self._chars += len(text)
        if self._n >= self.batch_size or self._chars >= self.batch_chars:
            self.flush()

    def pending(self) -> str:
        return "".join(self._lines)

    def flush(self) -> None:
        if not self._lines or self.store is None:
            return
        data = "".join(self._lines).encode("utf-8")
        n = self._n
        self._lines = []
        self._n = 0
        self._chars = 0
        self._load(data, n)

    def _load(self, data: bytes, n: int) -> None:
        try:
            # The store spells quoted triples its own way (<< >> or rdf:Statement IRIs) and knows
            # its engine's limits: an endpoint turns N-Quads into INSERT DATA batches itself.
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
