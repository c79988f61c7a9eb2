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
from typing import Protocol, runtime_checkable

from pyoxigraph import BlankNode, Literal, NamedNode, Quad, Triple

from ..errors import QueryError
from ..sparql.dialect import Dialect

__all__ = ["QuadFormat", "Row", "Rows", "Store", "Term"]

Term = NamedNode | Literal | BlankNode | Triple
Row = dict[str, Term]


@dataclasses.dataclass
class Rows(Sequence[Row]):
    """The solutions of a SELECT: variable names in order, and one dict per row (unbound: absent)."""

    variables: list[str]
    rows: list[Row]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):  # type: ignore[override]
        return self.rows[i]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)


QuadFormat = str
"""A data format name: ``nquads``, ``trig``, ``ntriples`` or ``turtle``."""


@runtime_checkable
class Store(Protocol):
    """What ragprov needs from an RDF store. Implementations: embedded pyoxigraph, SPARQL endpoint.

    ``query`` runs a SELECT or ASK and returns :class:`Rows` or a ``bool``; ``update`` runs a SPARQL
    UPDATE request atomically; ``load`` adds serialized RDF; ``dump`` serializes the whole store.
    ``dialect`` says how this store spells quoted triples.
    """

    dialect: Dialect

    def query(self, sparql: str) -> Rows | bool: ...

    def update(self, sparql: str) -> None: ...

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None: ...

    def dump(self, *, format: QuadFormat = "nquads") -> bytes: ...


class StoreMixin:
    """Conveniences every store gets from the four protocol methods."""

    dialect: Dialect

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

    def count(self, graph: NamedNode | None = None) -> int:
        """How many quads the store holds (in ``graph`` if given)."""
        if graph is None:
            q = "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
        else:
            from ..sparql.escape import sparql_iri

            q = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH " + sparql_iri(graph) + " { ?s ?p ?o } }"
        return int(self.select(q)[0]["n"].value)

    def close(self) -> None:
        """Release the store (files, connections). Safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
