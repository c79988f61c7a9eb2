"""A durable local spool for writes a remote store could not take, replayed in order later (§11).

:class:`SpoolingStore` wraps any store. An update that still fails after the store's own retries
(:class:`~ragprov.errors.StoreUnavailableError`) is appended to the spool directory instead of being
lost, and the caller carries on: the Recorder needs no change, since a stage is one update. While
anything is spooled, later updates are spooled behind it (so the store always receives updates in
the order they were made) and a replay is tried now and then. ``ragprov spool replay`` (or
:meth:`Spool.replay`) sends the spooled updates in order and removes each one only after the store
accepted it.

Never lost: an entry is written to a temporary file, fsync'd, renamed into place and the directory
fsync'd before ``update`` returns. Never duplicated: a stage is one ``INSERT DATA`` (a set of
triples), so an entry that is sent again after a crash between "accepted" and "removed" changes
nothing.

A full disk (or any other failure to write the spool) raises :class:`~ragprov.errors.StoreError`
naming the spool directory and the store that could not be reached, and leaves no partial entry.

Each entry is one file ``<sequence>.ru``, SPARQL text whose first lines are comments saying which
dialect it was rendered in and for which store; replay refuses a store of another dialect. An entry
the store rejects for good would block the queue forever: it is moved to ``rejected/`` with the
store's message beside it (listed by ``ragprov spool status``) and replay goes on. Rejected for good
means a :class:`~ragprov.errors.QueryError` (a 4xx, a syntax error), or a server error (an answer,
not a failure to connect) that comes back when the entry is sent again while the store answers a probe (``ASK {}``) at once: some engines
answer 500 for an update they will never take (Jena, for an IRI holding U+2028). An outage (the
probe fails too) stops the replay, keeping the entry and everything after it.

>>> import tempfile
>>> from ragprov.store import EmbeddedStore
>>> spool = Spool(tempfile.mkdtemp())
>>> spool.status().pending
0
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

from ..clock import utcnow
from ..errors import ConfigurationError, QueryError, StoreError, StoreUnavailableError
from ..sparql.dialect import Dialect
from ._files import fsync_dir as _fsync_dir
from .base import QuadFormat, Rows, StoreMixin

__all__ = ["SPOOL_ENV", "ReplayReport", "Spool", "SpoolStatus", "SpoolingStore", "default_spool_dir"]

SPOOL_ENV = "RAGPROV_SPOOL"
_ENTRY = re.compile(r"^(\d{16})\.ru$")
_HEADER = re.compile(r"^# ragprov-spool: (\S+)=(.*)$")


def default_spool_dir() -> Path:
    """``$RAGPROV_SPOOL``, else ``$XDG_STATE_HOME/ragprov/spool`` (``~/.local/state/ragprov/spool``)."""
    if os.environ.get(SPOOL_ENV):
        return Path(os.environ[SPOOL_ENV]).expanduser()
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "ragprov" / "spool"




@dataclasses.dataclass(frozen=True)
class SpoolStatus:
    """What waits in a spool."""

    directory: str
    pending: int
    bytes: int
    oldest: str | None
    newest: str | None
    dialects: list[str]
    stores: list[str]
    rejected: int
    rejections: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    """Each update set aside: its file name under ``rejected/`` and the store's message."""

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class ReplayReport:
    """What a replay did: ``replayed`` sent and removed, ``remaining`` still spooled, ``rejected``
    moved aside, ``error`` why it stopped early (the store still unreachable)."""

    replayed: int = 0
    remaining: int = 0
    rejected: list[str] = dataclasses.field(default_factory=list)
    error: str | None = None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


class Spool:
    """An ordered, durable queue of SPARQL updates in a directory (safe across processes)."""

    def __init__(self, directory: str | Path | None = None):
        self.directory = Path(directory).expanduser() if directory is not None else default_spool_dir()
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigurationError(f"cannot create the spool directory {self.directory}: {e}") from None
        self.rejected_dir = self.directory / "rejected"

    def __repr__(self) -> str:
        return f"Spool({self.directory})"

    @contextlib.contextmanager
    def _lock(self, name: str, *, blocking: bool = True) -> Iterator[bool]:
        fd = os.open(self.directory / name, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def entries(self) -> list[Path]:
        """The spooled updates, oldest first."""
        try:
            names = sorted(n for n in os.listdir(self.directory) if _ENTRY.match(n))
        except FileNotFoundError:
            return []
        base = str(self.directory)
        return [Path(os.path.join(base, n)) for n in names]

    def __len__(self) -> int:
        return len(self.entries())

    def has_pending(self) -> bool:
        """Whether anything waits (stops at the first entry found: cheap however long the queue)."""
        try:
            with os.scandir(self.directory) as it:
                return any(_ENTRY.match(e.name) for e in it)
        except FileNotFoundError:
            return False

    def _next_sequence(self) -> int:
        counter = self.directory / "sequence"
        try:
            last = int(counter.read_text().strip())
        except (FileNotFoundError, ValueError):
            existing = self.entries()  # no counter yet (or damaged): start after what is there
            last = int(existing[-1].name[:16]) if existing else 0
        seq = last + 1
        tmp = counter.with_suffix(".tmp")
        tmp.write_text(f"{seq}\n")
        os.replace(tmp, counter)
        return seq

    def append(self, update: str, *, dialect: Dialect, store: str) -> Path:
        """Add ``update`` at the end, durably (returns only once it is on disk)."""
        header = (
            f"# ragprov-spool: dialect={Dialect.parse(dialect).value}\n"
            f"# ragprov-spool: store={store.replace(chr(10), ' ')}\n"
            f"# ragprov-spool: spooled={utcnow().isoformat()}\n"
        )
        data = (header + update).encode("utf-8")
        try:
            with self._lock(".append.lock"):
                seq = self._next_sequence()
                final = self.directory / f"{seq:016d}.ru"
                tmp = self.directory / f".{seq:016d}.{os.getpid()}.tmp"
                try:
                    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                    try:
                        view = memoryview(data)
                        while view:  # os.write may write less than asked
                            view = view[os.write(fd, view):]
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                    os.replace(tmp, final)
                except BaseException:
                    with contextlib.suppress(OSError):
                        tmp.unlink()
                    raise
                _fsync_dir(self.directory)
        except OSError as e:
            raise StoreError(
                f"the store at {store} could not take an update and the spool at {self.directory} cannot "
                f"keep it either: {e.strerror or e}; free space there (or set {SPOOL_ENV} to another "
                "directory) and run again"
            ) from None
        return final

    @staticmethod
    def read(entry: Path) -> tuple[dict[str, str], str]:
        """An entry's header fields and its update text."""
        text = entry.read_text(encoding="utf-8")
        meta: dict[str, str] = {}
        for line in text.splitlines()[:3]:
            m = _HEADER.match(line)
            if m:
                meta[m.group(1)] = m.group(2)
        return meta, text

    def status(self) -> SpoolStatus:
        entries = self.entries()
        dialects: set[str] = set()
        stores: set[str] = set()
        size = 0
        for e in entries:
            try:
                meta, _ = self.read(e)
                size += e.stat().st_size
            except FileNotFoundError:  # replayed meanwhile
                continue
            dialects.add(meta.get("dialect", "?"))
            stores.add(meta.get("store", "?"))
        rejections = self.rejections()
        return SpoolStatus(
            directory=str(self.directory),
            pending=len(entries),
            bytes=size,
            oldest=entries[0].name if entries else None,
            newest=entries[-1].name if entries else None,
            dialects=sorted(dialects),
            stores=sorted(stores),
            rejected=len(rejections),
            rejections=rejections,
        )

    def rejections(self) -> list[tuple[str, str]]:
        """The updates set aside, oldest first: ``(file name, the store's message)``."""
        if not self.rejected_dir.exists():
            return []
        out = []
        for entry in sorted(self.rejected_dir.glob("*.ru")):
            note = entry.with_name(entry.name + ".error")
            try:
                message = note.read_text(encoding="utf-8").strip()
            except OSError:
                message = "(no message kept)"
            out.append((entry.name, message))
        return out

    def _set_aside(self, entry: Path, message: str) -> None:
        """Move ``entry`` to ``rejected/`` with the store's message beside it (message first, so a
        crash in between leaves the entry queued, never a rejected entry without its reason)."""
        self.rejected_dir.mkdir(exist_ok=True)
        (self.rejected_dir / (entry.name + ".error")).write_text(message + "\n", encoding="utf-8")
        os.replace(entry, self.rejected_dir / entry.name)
        _fsync_dir(self.rejected_dir)
        _fsync_dir(self.directory)

    def replay(self, store, *, limit: int | None = None) -> ReplayReport:
        """Send the spooled updates to ``store`` in order; stop at the first that cannot be delivered.

        Only one replay runs at a time per spool (another concurrent call returns at once with
        nothing replayed). Raises :class:`ConfigurationError` when an entry was rendered for
        another dialect than ``store`` speaks, before sending anything of it.
        """
        store = getattr(store, "unspooled", store)  # a SpoolingStore would spool the updates again
        report = ReplayReport()
        with self._lock(".replay.lock", blocking=False) as acquired:
            if not acquired:
                report.remaining = len(self.entries())
                report.error = "another replay of this spool is running"
                return report
            for entry in self.entries():
                if limit is not None and report.replayed >= limit:
                    break
                try:
                    meta, text = self.read(entry)
                except FileNotFoundError:
                    continue
                spooled_dialect = meta.get("dialect")
                if spooled_dialect and spooled_dialect != store.dialect.value:
                    raise ConfigurationError(
                        f"spool entry {entry.name} was rendered for the {spooled_dialect} dialect, but the store speaks "
                        f"{store.dialect.value}: replay it to a store of the same kind ({meta.get('store', '?')})"
                    )
                try:
                    store.update(text)
                except StoreUnavailableError as e:
                    # No answer at all (refused, timed out, 502-504) is an outage; a server error
                    # is judged by asking again (see _after_server_error).
                    verdict = _after_server_error(store, text) if e.status is not None else "outage"
                    if verdict == "outage":
                        report.error = str(e)
                        break
                    if verdict == "rejected":
                        self._set_aside(entry, str(e))
                        report.rejected.append(entry.name)
                        continue
                except QueryError as e:
                    self._set_aside(entry, str(e))
                    report.rejected.append(entry.name)
                    continue
                entry.unlink()
                report.replayed += 1
            if report.replayed:
                _fsync_dir(self.directory)
        report.remaining = len(self.entries())
        return report


def _after_server_error(store, update: str) -> str:
    """After a server error on ``update``: ``"outage"`` when the store does not answer ``ASK {}``,
    ``"delivered"`` when a second try went through (a failed update applied nothing), and
    ``"rejected"`` when the store answers yet fails ``update`` again: the update, not the store,
    is the trouble."""
    try:
        store.query("ASK {}")
        store.update(update)
    except QueryError:
        return "rejected"
    except StoreError as e:
        if e.status is None:  # no answer this time: the store, not the update
            return "outage"
        try:
            store.query("ASK {}")
        except StoreError:
            return "outage"
        return "rejected"
    return "delivered"


def _store_label(store) -> str:
    config = getattr(store, "config", None)
    if config is not None and getattr(config, "query_url", None):
        return str(config.query_url)
    return repr(store)


class SpoolingStore(StoreMixin):
    """A store whose failed updates go to a :class:`Spool` instead of being lost.

    ``replay_interval``: while entries wait, an update tries a replay at most this often (seconds);
    ``0`` tries at every update, ``None`` never (replay by hand). Queries, loads and dumps go straight
    to the wrapped store (a failure raises as usual).
    """

    def __init__(self, store, spool: Spool | str | Path | None = None, *, replay_interval: float | None = 5.0):
        self.store = store
        self.spool = spool if isinstance(spool, Spool) else Spool(spool)
        self.replay_interval = replay_interval
        self._last_try = 0.0
        self.spooled = 0  # how many updates this wrapper spooled

    def __repr__(self) -> str:
        return f"SpoolingStore({self.store!r}, {self.spool.directory})"

    @property
    def dialect(self) -> Dialect:  # type: ignore[override]
        return self.store.dialect

    @property
    def unspooled(self):
        """The wrapped store itself (what a replay sends to)."""
        return self.store

    def query(self, sparql: str) -> Rows | bool:
        return self.store.query(sparql)

    def update(self, sparql: str) -> None:
        if self.spool.has_pending():
            self._spool(sparql)
            self._maybe_replay()
            return
        try:
            self.store.update(sparql)
        except StoreUnavailableError:
            self._spool(sparql)

    def _spool(self, sparql: str) -> None:
        self.spool.append(sparql, dialect=self.store.dialect, store=_store_label(self.store))
        self.spooled += 1

    def _maybe_replay(self) -> None:
        if self.replay_interval is None:
            return
        now = time.monotonic()
        if now - self._last_try < self.replay_interval:
            return
        self._last_try = now
        with contextlib.suppress(StoreError):  # still down: the next write tries again
            self.spool.replay(self.store)

    def replay(self, *, limit: int | None = None) -> ReplayReport:
        """Send what is spooled to the wrapped store now."""
        return self.spool.replay(self.store, limit=limit)

    def load(self, data: bytes | str, *, format: QuadFormat = "nquads", graph=None) -> None:
        self.store.load(data, format=format, graph=graph)

    def dump(self, *, format: QuadFormat = "nquads") -> bytes:
        return self.store.dump(format=format)

    def extend(self, quads) -> None:
        self.store.extend(quads)

    def bulk_extend(self, quads) -> None:
        self.store.bulk_extend(quads)

    def count(self, graph=None) -> int:
        return self.store.count(graph)

    def close(self) -> None:
        self.store.close()
