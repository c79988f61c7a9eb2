"""The embedded store: pyoxigraph, in memory or in a directory on disk (RDF 1.2 dialect).

>>> store = EmbeddedStore()
>>> store.dialect.value
'rdf12'
>>> store.ask("ASK { }")
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import pyoxigraph as ox
from pyoxigraph import NamedNode, Quad

from ..errors import ConfigurationError, QueryError, StoreError
from ..sparql.dialect import Dialect
from .base import QuadFormat, Rows, StoreMixin

__all__ = ["EmbeddedStore", "RDF_FORMATS"]

RDF_FORMATS = {
    "nquads": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "turtle": ox.RdfFormat.TURTLE,
}


def rdf_format(name: QuadFormat) -> ox.RdfFormat:
    try:
        return RDF_FORMATS[name]
    except KeyError:
        raise ConfigurationError(f"unknown RDF format {name!r}: use one of {', '.join(RDF_FORMATS)}") from None


def rows_from(results: ox.QuerySolutions) -> Rows:
    """pyoxigraph solutions as :class:`Rows` (unbound variables left out of each row)."""
    names = [v.value for v in results.variables]
    rows = []
    for solution in results:
        row = {}
        for i, name in enumerate(names):
            value = solution[i]
            if value is not None:
                row[name] = value
        rows.append(row)
    return Rows(names, rows)


class EmbeddedStore(StoreMixin):
    """A pyoxigraph :class:`~pyoxigraph.Store`; ``path=None`` keeps everything in memory."""

    dialect = Dialect.RDF12

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False):
        self.path = Path(path) if path is not None else None
        try:
            if self.path is None:
                self._store = ox.Store()
            elif read_only:
                self._store = ox.Store.read_only(str(self.path))
            else:
                self.path.mkdir(parents=True, exist_ok=True)
                self._store = ox.Store(str(self.path))
        except OSError as e:
            if "lock" in str(e).lower():
                raise StoreError(
                    f"the store at {self.path} is open in another process (an on-disk store has one "
                    "user at a time): close that process, or serve the store with `oxigraph serve`"
                ) from None
            raise StoreError(f"cannot open the store at {self.path}: {e}") from None

    def __repr__(self) -> str:
        return f"EmbeddedStore({str(self.path) if self.path else 'memory:'})"

    @property
    def raw(self) -> ox.Store:
        """The underlying pyoxigraph store (for benchmarks and bulk loaders)."""
        if self._store is None:
            raise StoreError(f"{self!r} is closed")
        return self._store

    def query(self, sparql: str) -> Rows | bool:
        try:
            result = self.raw.query(sparql)
        except SyntaxError as e:
            raise QueryError(f"the query was rejected: {e}") from None
        except OSError as e:
            raise StoreError(f"the store failed a query: {e}") from None
        if isinstance(result, ox.QueryBoolean):
            return bool(result)
        if isinstance(result, ox.QuerySolutions):
            return rows_from(result)
        raise QueryError("CONSTRUCT and DESCRIBE are not part of the Store protocol: use SELECT")

    def update(self, sparql: str) -> None:
        try:
            self.raw.update(sparql)
        except SyntaxError as e:
            raise QueryError(f"the update was rejected: {e}") from None
        except OSError as e:
            raise StoreError(f"the store failed an update: {e}") from None

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None:
        try:
            self.raw.load(data, format=rdf_format(format), to_graph=graph)
        except SyntaxError as e:
            raise QueryError(f"the data could not be parsed as {format}: {e}") from None
        except OSError as e:
            raise StoreError(f"the store failed a load: {e}") from None

    def dump(self, *, format: QuadFormat = "nquads") -> bytes:
        return self.raw.dump(format=rdf_format(format))

    def extend(self, quads: Iterable[Quad]) -> None:
        self.raw.extend(quads)

    def bulk_extend(self, quads: Iterable[Quad]) -> None:
        self.raw.bulk_extend(quads)

    def count(self, graph: NamedNode | None = None) -> int:
        if graph is None:
            return len(self.raw)
        return sum(1 for _ in self.raw.quads_for_pattern(None, None, None, graph))

    def flush(self) -> None:
        if self.path is not None:
            self.raw.flush()

    def close(self) -> None:
        """Flush and release the store (an on-disk store's lock goes with the last reference)."""
        store, self._store = getattr(self, "_store", None), None
        if store is not None and self.path is not None:
            try:
                store.flush()
            except OSError:
                pass
