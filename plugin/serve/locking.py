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
from collections.abc import Iterator
from typing import Any

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
    """A store behind a :class:`ReadWriteLock`: queries read, updates and loads write.

    Everything else (``dialect``, ``count``, …) is the wrapped store's own."""

    def __init__(self, store: Any, lock: ReadWriteLock | None = None):
        self.store = store
        self.lock = lock or ReadWriteLock()
        self.dialect = store.dialect

    def query(self, sparql: str):
        with self.lock.reading():
            return self.store.query(sparql)

    def select(self, sparql: str):
        with self.lock.reading():
            return self.store.select(sparql)

    def ask(self, sparql: str) -> bool:
        with self.lock.reading():
            return self.store.ask(sparql)

    def update(self, sparql: str) -> None:
        with self.lock.writing():
            self.store.update(sparql)

    def load(self, data, **options) -> None:
        with self.lock.writing():
            self.store.load(data, **options)

    def extend(self, quads) -> None:
        with self.lock.writing():
            self.store.extend(quads)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)
