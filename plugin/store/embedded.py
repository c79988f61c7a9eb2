"""The embedded store: pyoxigraph, in memory or in a directory on disk (RDF 1.2 dialect).

>>> store = EmbeddedStore()
>>> store.dialect.value
'rdf12'
>>> store.ask("ASK { }")
True
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn

import pyoxigraph as ox
from pyoxigraph import NamedNode, Quad

from ..clock import utcnow
from ..errors import ConfigurationError, QueryError, StoreError
from ..sparql.dialect import Dialect
from .base import QuadFormat, Rows, StoreMixin

__all__ = ["RDF_FORMATS", "WRITER_FILE", "EmbeddedStore"]

WRITER_FILE = "ragprov-writer.json"
"""In a directory store open for writing: who writes it (pid, command, since), for the message a
second writer gets. RocksDB ignores files it did not make."""

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


def writer_of(path: Path) -> str:
    """The process writing the store at ``path``, as its :data:`WRITER_FILE` says."""
    try:
        note = json.loads((path / WRITER_FILE).read_text(encoding="utf-8"))
        return f"process {note['pid']} ({note['command']}, since {note['since']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


def failure_message(store: EmbeddedStore, what: str, e: OSError) -> str:
    """What to tell the user when ``store`` failed ``what`` ("a load", "a query"…) with ``e``."""
    path = store.path
    shown = store.staging_of or path
    outcome = "nothing was written (the store is as it was)" if store.staging_of else "nothing more was written"
    if path is not None and not path.exists():
        return f"the store directory {path} was removed while this command ran ({what} failed); {outcome}"
    text = str(e)
    if getattr(e, "errno", None) == errno.ENOSPC or "no space left on device" in text.lower():
        return f"the disk holding the store at {shown} is full ({what} failed); {outcome}: free space there and run again"
    return f"the store at {shown} failed {what}: {text}"


class EmbeddedStore(StoreMixin):
    """A pyoxigraph :class:`~pyoxigraph.Store`; ``path=None`` keeps everything in memory.

    An on-disk store has one writer at a time; ``read_only=True`` opens it for reading only, beside
    the writer and other readers (and in a directory the user may not write to). A second writer
    is refused with a :class:`StoreError` naming the process that holds the store.
    """

    dialect = Dialect.RDF12

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False):
        self.path = Path(path) if path is not None else None
        self.read_only = read_only
        self.staging_of: Path | None = None
        """Set when this store stages a write to the store at that path (see ``store.staging``)."""
        self._writer_file: Path | None = None
        self._store: ox.Store | None
        self._deferred: list[str] | None = None
        try:
            if self.path is None:
                self._store = ox.Store()
            elif read_only:
                self._store = ox.Store.read_only(str(self.path))
            else:
                self.path.mkdir(parents=True, exist_ok=True)
                self._store = ox.Store(str(self.path))
        except OSError as e:
            self._store = None
            if "lock" in str(e).lower():
                raise StoreError(
                    f"the store at {self.path} is being written by {self._holder()}: wait for it to finish, "
                    "or read meanwhile (reading commands open the store read-only and need no turn)"
                ) from None
            reason = next((r for r in ("permission denied", "read-only file system") if r in str(e).lower()), None)
            if isinstance(e, PermissionError) or reason:
                raise StoreError(f"cannot write to the store at {self.path} ({reason or 'permission denied'}): "
                                 "reading commands still work; run writing ones where the store may be written") from None
            raise StoreError(f"cannot open the store at {self.path}: {e}") from None
        if self.path is not None and not read_only:
            self._claim()

    def _claim(self) -> None:
        """Say who writes this store (see :data:`WRITER_FILE`)."""
        assert self.path is not None
        program = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
        if program == "__main__.py":  # python -m ragprov.cli
            program = "ragprov"
        note = {
            "pid": os.getpid(),
            "command": " ".join([program, *sys.argv[1:]]),
            "since": utcnow().isoformat(timespec="seconds"),
        }
        target = self.path / WRITER_FILE
        with contextlib.suppress(OSError):
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(note), encoding="utf-8")
            os.replace(tmp, target)
            self._writer_file = target

    def _holder(self) -> str:
        assert self.path is not None
        return writer_of(self.path)

    def _failed(self, what: str, e: OSError) -> NoReturn:
        raise StoreError(failure_message(self, what, e)) from None

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
            self._failed("a query", e)
        if isinstance(result, ox.QueryBoolean):
            return bool(result)
        if isinstance(result, ox.QuerySolutions):
            return rows_from(result)
        raise QueryError("CONSTRUCT and DESCRIBE are not part of the Store protocol: use SELECT")

    def defer_updates(self) -> None:
        """Keep every later :meth:`update` until :meth:`send_deferred` sends them all as one update
        (pyoxigraph applies an update in one transaction: all of it or nothing). Reads do not see
        the kept updates; loads and quad writes are refused meanwhile."""
        self._deferred = []

    def send_deferred(self, to: EmbeddedStore | None = None) -> None:
        """Send the updates kept since :meth:`defer_updates` as one request — to this store, or
        to ``to`` (a writer of the same directory, when this one reads it read-only) — and stop
        keeping them."""
        from ..sparql.templates import join_updates

        kept, self._deferred = self._deferred, None
        if kept:
            (to or self)._update(join_updates(kept))

    @property
    def keeping_updates(self) -> bool:
        """Whether later updates are kept until :meth:`send_deferred` (:meth:`defer_updates` was
        called), whether or not some are yet: reads see the store as the one update will find it."""
        return self._deferred is not None

    @property
    def deferring(self) -> bool:
        """Whether updates are being kept (:meth:`defer_updates`), and some are."""
        return bool(self._deferred)

    def _not_deferring(self, what: str) -> None:
        if self._deferred is not None:
            raise StoreError(f"{what} cannot join the one update this command writes (see EmbeddedStore.defer_updates)")

    def update(self, sparql: str) -> None:
        if self._deferred is not None:
            self._deferred.append(sparql)
            return
        self._update(sparql)

    def _update(self, sparql: str) -> None:
        try:
            self.raw.update(sparql)
        except SyntaxError as e:
            raise QueryError(f"the update was rejected: {e}") from None
        except OSError as e:
            self._failed("an update", e)

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph: NamedNode | None = None) -> None:
        self._not_deferring("a load")
        try:
            self.raw.load(data, format=rdf_format(format), to_graph=graph)
        except SyntaxError as e:
            raise QueryError(f"the data could not be parsed as {format}: {e}") from None
        except OSError as e:
            self._failed("a load", e)

    def dump(self, *, format: QuadFormat = "nquads") -> bytes:
        try:
            return self.raw.dump(format=rdf_format(format)) or b""
        except OSError as e:
            self._failed("a dump", e)

    def extend(self, quads: Iterable[Quad]) -> None:
        self._not_deferring("a write")
        try:
            self.raw.extend(quads)
        except OSError as e:
            self._failed("a write", e)

    def bulk_extend(self, quads: Iterable[Quad]) -> None:
        self._not_deferring("a write")
        try:
            self.raw.bulk_extend(quads)
        except OSError as e:
            self._failed("a write", e)

    def bulk_load(self, data: bytes, *, lenient: bool = False) -> None:
        """N-Quads straight into pyoxigraph: on disk RocksDB's bulk path (``Store.bulk_load``, which
        writes and ingests its own files), in memory one ``load`` transaction. A subclass that
        writes through its own ``load`` gets every batch there."""
        if type(self).load is not EmbeddedStore.load:
            self.load(data, format="nquads")
            return
        try:
            if self.path is not None:
                self.raw.bulk_load(data, format=ox.RdfFormat.N_QUADS, lenient=lenient)
            else:
                self.raw.load(data, format=ox.RdfFormat.N_QUADS, lenient=lenient)
        except SyntaxError as e:
            raise QueryError(f"the data could not be parsed as nquads: {e}") from None
        except OSError as e:
            self._failed("a load", e)

    def optimize(self) -> bool:
        """Compact an on-disk store's tables (pyoxigraph's ``Store.optimize``: RocksDB merges them
        into its bottom level). A bulk load writes table files that RocksDB never compacts on its own;
        until compacted, every bound look-up costs about twice as much (a lineage page at 10,000
        traces + 1M facts: 39 ms before, 22 ms after). Nothing to do in memory or read-only; returns
        whether it compacted."""
        if self.path is None or self.read_only:
            return False
        self._not_deferring("a compaction")
        try:
            self.raw.optimize()
        except OSError as e:
            self._failed("a compaction", e)
        return True

    def count(self, graph: NamedNode | None = None) -> int:
        if graph is None:
            return len(self.raw)
        return sum(1 for _ in self.raw.quads_for_pattern(None, None, None, graph))

    def flush(self) -> None:
        if self.path is not None and not self.read_only:
            try:
                self.raw.flush()
            except OSError as e:
                self._failed("a flush", e)

    def close(self, *, flush: bool = True) -> None:
        """Flush and release the store (an on-disk store's lock goes with the last reference).
        ``flush=False`` leaves the last writes in RocksDB's write-ahead log (where every committed
        update already is; the next open replays it) instead of writing a table file now."""
        store, self._store = getattr(self, "_store", None), None
        if flush and store is not None and self.path is not None and not self.read_only:
            with contextlib.suppress(OSError):
                store.flush()
        writer_file, self._writer_file = getattr(self, "_writer_file", None), None
        if writer_file is not None:
            with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
                if json.loads(writer_file.read_text(encoding="utf-8"))["pid"] == os.getpid():  # still ours
                    writer_file.unlink()
