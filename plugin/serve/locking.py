"""One store shared by many requests: readers in parallel, one writer at a time.

:class:`ReadWriteLock` is a writer-preferring readers-writer lock (a waiting writer stops new
readers, so a stream of reads cannot starve an ``ask``). :class:`SharedStore` wraps a store so every
query takes the read side and every update or load the write side; pipelines and navigators use it
as they would the store itself.

>>> from ragprov.store import open_store
>>> shared = SharedStore(open_store("memory:"))
>>> shared.update('INSERT DATA { <urn:a> <urn:b> "c" }')
>>> [row["o"].value for row in shared.select("SELECT ?o WHERE { ?s ?p ?o }")]
['c']
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyoxigraph import NamedNode, Quad

    from ..store.base import QuadFormat, Rows, Store

__all__ = ["ReadWriteLock", "SharedStore"]


class ReadWriteLock:
    """Many readers or one writer; writers are preferred once waiting."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            while self._writer or self._writers_waiting:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            try:
                while self._writer or self._readers:
                    self._cond.wait()
            finally:
                self._writers_waiting -= 1
            self._writer = True
        try:
            yield
        finally:
            with self._cond:
                self._writer = False
                self._cond.notify_all()


class SharedStore:
    """A store behind a :class:`ReadWriteLock`: queries, counts and dumps read; updates and loads
    write. It is a whole :class:`~ragprov.store.Store` (the protocol, no more)."""

    def __init__(self, store: Store, lock: ReadWriteLock | None = None):
        self.store = store
        self.lock = lock or ReadWriteLock()
        self.dialect = store.dialect
        self.path = store.path

    def __repr__(self) -> str:
        return f"SharedStore({self.store!r})"

    def query(self, sparql: str) -> Rows | bool:
        with self.lock.reading():
            return self.store.query(sparql)

    def select(self, sparql: str) -> Rows:
        with self.lock.reading():
            return self.store.select(sparql)

    def ask(self, sparql: str) -> bool:
        with self.lock.reading():
            return self.store.ask(sparql)

    def count(self, graph: NamedNode | None = None) -> int:
        with self.lock.reading():
            return self.store.count(graph)

    def dump(self, *, format: QuadFormat = "nquads") -> bytes:
        with self.lock.reading():
            return self.store.dump(format=format)

    def update(self, sparql: str) -> None:
        with self.lock.writing():
            self.store.update(sparql)

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None:
        with self.lock.writing():
            self.store.load(data, format=format, graph=graph)

    def bulk_load(self, data: bytes, *, lenient: bool = False) -> None:
        with self.lock.writing():
            self.store.bulk_load(data, lenient=lenient)

    def extend(self, quads: Iterable[Quad]) -> None:
        with self.lock.writing():
            self.store.extend(quads)

    def bulk_extend(self, quads: Iterable[Quad]) -> None:
        with self.lock.writing():
            self.store.bulk_extend(quads)

    def optimize(self) -> bool:
        with self.lock.writing():
            return self.store.optimize()

    def close(self) -> None:
        with self.lock.writing():
            self.store.close()

    def __enter__(self) -> SharedStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
