"""The Store protocol: the one narrow boundary between ragprov and an RDF engine.

A store answers SPARQL queries and updates, and moves data in and out in bulk. Results come back
in pyoxigraph's term model (:class:`NamedNode`, :class:`Literal`, :class:`BlankNode`,
:class:`Triple`), whatever the engine, so the rest of ragprov never sees a wire format.

>>> from ragprov.store import open_store
>>> store = open_store("memory:")
>>> store.update('INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> "c" } }')
>>> [row["o"].value for row in store.select("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }")]
['c']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from pyoxigraph import BlankNode, Literal, NamedNode, Quad, Triple

from ..errors import QueryError
from ..sparql.dialect import Dialect

__all__ = ["PROTOCOL", "QuadFormat", "Row", "Rows", "Store", "StoreMixin", "Term"]

Term = NamedNode | Literal | BlankNode | Triple
Row = dict[str, Term]


@dataclasses.dataclass
class Rows(Sequence[Row]):
    """The solutions of a SELECT: variable names in order, and one dict per row (unbound: absent)."""

    variables: list[str]
    rows: list[Row]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)


QuadFormat = str
"""A data format name: ``nquads``, ``trig``, ``ntriples`` or ``turtle``."""


@runtime_checkable
class Store(Protocol):
    """What ragprov needs from an RDF store, and all it may use of one outside ``ragprov.store``.

    Implementations: the embedded pyoxigraph store, a SPARQL endpoint, and the wrappers (the
    spooling store, the server's shared store). :class:`StoreMixin` gives every method beyond the
    first four from those four; a store overrides what its engine does faster.

    ``query`` runs a SELECT or ASK and returns :class:`Rows` or a ``bool``; ``select`` and ``ask``
    say which one they expect. ``update`` runs a SPARQL UPDATE request atomically; ``load`` adds
    serialized RDF; ``dump`` serializes the whole store. ``extend`` adds quads; ``bulk_extend`` and
    ``bulk_load`` add many as fast as the store allows (not atomic: loaders write their completion
    mark last). ``count`` counts quads; ``optimize`` compacts an on-disk store after a big load (False: nothing
    to do); ``close`` releases the store. ``dialect`` says how this store
    spells quoted triples; ``path`` is an on-disk store's directory (``None`` for any other store).
    """

    path: Path | None

    @property
    def dialect(self) -> Dialect: ...

    def query(self, sparql: str) -> Rows | bool: ...

    def select(self, sparql: str) -> Rows: ...

    def ask(self, sparql: str) -> bool: ...

    def update(self, sparql: str) -> None: ...

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None: ...

    def bulk_load(self, data: bytes, *, lenient: bool = False) -> None: ...

    def dump(self, *, format: QuadFormat = "nquads") -> bytes: ...

    def extend(self, quads: Iterable[Quad]) -> None: ...

    def bulk_extend(self, quads: Iterable[Quad]) -> None: ...

    def count(self, graph: NamedNode | None = None) -> int: ...

    def optimize(self) -> bool: ...

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, *exc: object) -> None: ...


PROTOCOL = frozenset(
    {name for name in Store.__annotations__}
    | {name for name, value in vars(Store).items()
       if (callable(value) or isinstance(value, property)) and (not name.startswith("_") or name in ("__enter__", "__exit__"))}
)
"""The names of the :class:`Store` protocol: all a module outside ``ragprov.store`` may use of a store
(a test checks it, ``tests/core/test_store_protocol.py``)."""


class StoreMixin:
    """Conveniences every store gets from the four protocol methods."""

    dialect: Dialect
    path: Path | None = None

    def select(self, sparql: str) -> Rows:
        """Run a SELECT; a clear error if the text is an ASK."""
        result = self.query(sparql)  # type: ignore[attr-defined]
        if isinstance(result, bool):
            raise QueryError("expected a SELECT query, got an ASK")
        return result

    def ask(self, sparql: str) -> bool:
        result = self.query(sparql)  # type: ignore[attr-defined]
        if not isinstance(result, bool):
            raise QueryError("expected an ASK query, got a SELECT")
        return result

    def extend(self, quads: Iterable[Quad]) -> None:
        """Add quads directly (no SPARQL): the raw baseline the benchmarks compare against."""
        from pyoxigraph import RdfFormat, serialize

        data = serialize(quads, format=RdfFormat.N_QUADS)
        self.load(data, format="nquads")  # type: ignore[attr-defined]

    def bulk_extend(self, quads: Iterable[Quad]) -> None:
        """Add many quads as fast as the store allows (no transaction guarantees beyond the batch)."""
        self.extend(quads)

    def bulk_load(self, data: bytes, *, lenient: bool = False) -> None:
        """Add N-Quads as fast as the store allows (no transaction guarantees beyond the batch).

        ``lenient=True`` says ragprov spelled every term from checked parts, so a store may skip
        checking them again; a SPARQL store writes them as ``load`` does."""
        self.load(data, format="nquads")  # type: ignore[attr-defined]

    def count(self, graph: NamedNode | None = None) -> int:
        """How many quads the store holds (in ``graph`` if given)."""
        if graph is None:
            q = "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
        else:
            from ..sparql.escape import sparql_iri

            q = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH " + sparql_iri(graph) + " { ?s ?p ?o } }"
        return int(self.select(q)[0]["n"].value)

    def optimize(self) -> bool:
        """Compact the store after a big load, if its engine needs it (see
        :meth:`ragprov.store.embedded.EmbeddedStore.optimize`); False: nothing to do here."""
        return False

    def close(self) -> None:
        """Release the store (files, connections). Safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
