"""All-or-nothing writes to an on-disk store: write into a staged copy, swap it in on success.

A load (or any command that writes) into a directory store goes through :func:`staged`: the
command writes into a sibling directory ``.<name>.staging-<pid>`` — an empty new store, or a
checkpoint of the existing one (pyoxigraph's ``Store.backup``: hard links to the immutable table
files, so its cost does not grow with the data) — and only when it returns is that directory put in
the store's place, by one atomic rename (an exchange of the two directories for an existing store).
Whatever stops the command before (an error, Ctrl-C, SIGKILL, a full disk), the store is as it was,
and a new store path is not created at all. While a command writes, the store itself stays open for
writing by that process (so a second writer is refused, told who holds it), and readers, which open
it read-only, read the last complete state beside it.

A staging directory left by a killed process is removed by the next staged write.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "store"
>>> with staged(path) as store:
...     store.update('INSERT DATA { <urn:a> <urn:b> "c" }')
>>> EmbeddedStore(path, read_only=True).count()
1
>>> with staged(path) as store:
...     store.update('INSERT DATA { <urn:a> <urn:b> "d" }')
...     raise RuntimeError("stopped half-way")
Traceback (most recent call last):
...
RuntimeError: stopped half-way
>>> EmbeddedStore(path, read_only=True).count()
1
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import gc
import os
import re
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

from ..errors import StoreError
from ._files import fsync_dir as _fsync_dir
from .embedded import EmbeddedStore, writer_of

__all__ = ["SIDECAR_SUFFIXES", "one_update", "sidecar", "staged", "staging_directory"]

#: files kept beside a directory store ``DIR`` as ``DIR<suffix>`` (the persistent text index): a
#: staged write stages them too, so they change with the store, all at once or not at all
SIDECAR_SUFFIXES = (".ragprov-index.sqlite",)

_STAGING = re.compile(r"^\.(?P<name>.+)\.staging-(?P<pid>\d+)(?P<sidecar>\..+)?$")
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def staging_directory(path: Path) -> Path:
    """Where this process stages a write to the store at ``path``."""
    return path.parent / f".{path.name}.staging-{os.getpid()}"


def sidecar(path: Path, suffix: str) -> Path:
    """The sidecar file ``suffix`` of the directory store at ``path`` (see :data:`SIDECAR_SUFFIXES`)."""
    return path.with_name(path.name + suffix)


def _sqlite_files(file: Path) -> list[Path]:
    return [file, file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm"), file.with_name(file.name + "-journal")]


def _stage_sidecars(path: Path, stage: Path) -> None:
    """Copy the live store's sidecar files beside the staged store (SQLite's backup API: a
    consistent copy even while a reader has the index open)."""
    import sqlite3

    for suffix in SIDECAR_SUFFIXES:
        live, staged = sidecar(path, suffix), sidecar(stage, suffix)
        for f in _sqlite_files(staged):
            f.unlink(missing_ok=True)
        if not live.is_file():
            continue
        try:
            source = sqlite3.connect(str(live))  # the last connection to close tidies its WAL files
            try:
                target = sqlite3.connect(str(staged))
                try:
                    source.backup(target)
                finally:
                    target.close()
            finally:
                source.close()
        except sqlite3.Error:
            # an unreadable index is rebuilt by the load (the reader notices its stamp)
            for f in _sqlite_files(staged):
                f.unlink(missing_ok=True)


def _swap_sidecars(stage: Path, path: Path) -> None:
    """Put the staged sidecars in place (one rename each); the live ones go."""
    for suffix in SIDECAR_SUFFIXES:
        staged, live = sidecar(stage, suffix), sidecar(path, suffix)
        if staged.is_file():
            for f in _sqlite_files(live)[1:]:
                f.unlink(missing_ok=True)
            os.replace(staged, live)
        for f in _sqlite_files(staged):
            f.unlink(missing_ok=True)


def _drop_sidecars(stage: Path) -> None:
    for suffix in SIDECAR_SUFFIXES:
        for f in _sqlite_files(sidecar(stage, suffix)):
            f.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove_stale(path: Path) -> None:
    """Remove staging directories of ``path`` left by processes that no longer run."""
    try:
        siblings = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in siblings:
        m = _STAGING.match(entry.name)
        if m and m.group("name") == path.name and not _alive(int(m.group("pid"))):
            # a staged store is a directory, a staged sidecar a file; a killed process can also leave
            # a directory with a suffix (the engine's own temporary copy, ``.staging-PID.tmp``)
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                Path(entry.path).unlink(missing_ok=True)


def _renameat2(a: Path, b: Path, flags: int) -> bool:
    """Linux ``renameat2``; False where the system has none (the caller falls back). ``ctypes``
    is imported here: ``ask`` and the other commands that write through :func:`one_update` never
    swap directories (its import, with ``subprocess`` for ``find_library``, is ~7 ms a process)."""
    import ctypes
    import ctypes.util

    libc_name = ctypes.util.find_library("c")
    renameat2 = getattr(ctypes.CDLL(libc_name, use_errno=True), "renameat2", None) if libc_name else None
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), flags) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _exchange(a: Path, b: Path) -> None:
    """Swap two directories in one step (``RENAME_EXCHANGE``); elsewhere, two renames (a crash
    between them leaves the old store beside, under its staging name)."""
    if not _renameat2(a, b, _RENAME_EXCHANGE):
        aside = a.with_name(a.name + ".old")
        os.rename(b, aside)
        os.rename(a, b)
        os.rename(aside, a)


def _move_into_place(a: Path, b: Path) -> None:
    """Rename ``a`` to ``b``, never over something at ``b`` (``RENAME_NOREPLACE``)."""
    try:
        if _renameat2(a, b, _RENAME_NOREPLACE):
            return
    except FileExistsError:
        pass
    else:
        if not b.exists():
            os.rename(a, b)
            return
    raise StoreError(f"{b} was created by another process during this command; nothing written")


@contextlib.contextmanager
def _one_writer(path: Path) -> Iterator[None]:
    """Hold the store directory (``flock``) for the whole staged write: a second writer is refused
    at once, told who holds it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        yield  # a new store: the final no-replace rename settles a race
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreError(
                f"the store at {path} is being written by {writer_of(path)}: wait for it to finish, "
                "or read meanwhile (reading commands open the store read-only and need no turn)"
            ) from None
        yield
    finally:
        os.close(fd)




@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while the staged store is put in place (they act right after)."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError):  # no pthread_sigmask, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _release(store: EmbeddedStore | None) -> None:
    """Close ``store`` so that pyoxigraph lets go of its files and lock now."""
    if store is not None:
        store.close()
    gc.collect()  # a reference cycle holding the pyoxigraph store would keep its lock


@contextlib.contextmanager
def staged(path: str | Path) -> Iterator[EmbeddedStore]:
    """A writable store whose writes reach ``path`` all at once when the block ends without error,
    or not at all (see the module docs)."""
    path = Path(path).expanduser().resolve()
    with _one_writer(path):
        live = EmbeddedStore(path) if (path / "CURRENT").is_file() else None  # refuses in-place writers
        stage = staging_directory(path)
        store: EmbeddedStore | None = None
        try:
            _remove_stale(path)
            shutil.rmtree(stage, ignore_errors=True)
            if live is not None:
                try:
                    live.raw.backup(str(stage))
                except OSError as e:
                    raise StoreError(f"cannot stage a write to the store at {path} (in {stage}): {e}") from None
            _stage_sidecars(path, stage)
            store = EmbeddedStore(stage)
            store.staging_of = path
            yield store
            _release(store)
            store = None
            _fsync_dir(stage)
            with _signals_held():
                if live is None:
                    _move_into_place(stage, path)
                else:
                    # Let go of the old store first: a pyoxigraph store still open on `path` after
                    # the swap would take the new files there for its own obsolete ones.
                    _release(live)
                    live = None
                    if not (path / "CURRENT").is_file():
                        raise StoreError(f"the store directory {path} was removed while this command ran; nothing written")
                    _exchange(stage, path)
                _swap_sidecars(stage, path)
                _fsync_dir(path.parent)
        except BaseException:
            _release(store)
            raise
        finally:
            _release(live)
            shutil.rmtree(stage, ignore_errors=True)
            _drop_sidecars(stage)


@contextlib.contextmanager
def one_update(path: str | Path) -> Iterator[EmbeddedStore]:
    """Like :func:`staged` for a command whose writes are SPARQL updates (``ask`` records a trace):
    the store at ``path`` is written in place, but its updates are kept and sent as *one* update
    when the block ends without error (:meth:`EmbeddedStore.defer_updates`), which pyoxigraph
    applies in one transaction, so the store holds all of them or none, with no checkpoint to
    make and swap. A store that does not exist yet is made by :func:`staged`. The persistent text
    index is written in place too: its writes are SQLite transactions of their own.

    The command reads the store through a read-only handle and opens it for writing only to
    send its one update: a writable pyoxigraph store compacts its table files in background
    threads for as long as it is open (RocksDB merges every two new level-0 files into the
    table files they overlap: on a large store, hundreds of megabytes rewritten, begun again by
    each process that closes before it ends), so a command that reads for a second burns that
    work in the background for a second. The directory's lock (:func:`_one_writer`) is held
    throughout, and the writer note names this process from the start: a second ragprov writer is
    refused as before, and so is a run while any other process holds the store open for writing
    (:func:`_nobody_else_writes`: pyoxigraph's own lock is tried before the run, so no answer is
    given whose trace could not then be written).
    """
    path = Path(path).expanduser().resolve()
    if not (path / "CURRENT").is_file():
        with staged(path) as store:
            yield store
        return
    with _one_writer(path):
        if not os.access(path, os.W_OK):  # refused now, as a writable open would be, not after the run
            raise StoreError(f"cannot write to the store at {path} (permission denied): "
                             "reading commands still work; run writing ones where the store may be written")
        _nobody_else_writes(path)
        live = EmbeddedStore(path, read_only=True)
        live.staging_of = path
        live._claim()  # the command writes this store: say so while it reads
        live.defer_updates()
        try:
            yield live
            with _signals_held():
                if live.deferring:
                    writer = EmbeddedStore(path)
                    writer.staging_of = path
                    try:
                        live.send_deferred(to=writer)
                    finally:
                        _release_alone(writer)
        finally:
            live.close(flush=False)


def keeps_updates(store: object) -> bool:
    """Whether ``store`` keeps every update until its command ends (:meth:`EmbeddedStore.defer_updates`,
    as :func:`one_update`'s store does), whether or not it keeps some yet: its reads see the store as
    the one update will find it."""
    return isinstance(store, EmbeddedStore) and store.keeping_updates


def _nobody_else_writes(path: Path) -> None:
    """Refuse now, as a writable open would, when another process holds the store at ``path``
    open for writing without the directory lock (a Python program's ``EmbeddedStore(path)``):
    RocksDB's ``LOCK`` file carries a POSIX record lock while a writer has the store open, tried
    here and let go at once. (A POSIX lock belongs to the process: this is called before this
    process opens the store itself, so closing the probe releases nothing of its own.)"""
    try:
        fd = os.open(path / "LOCK", os.O_RDWR)
    except OSError:
        return  # no lock file (a store pyoxigraph never opened writable) or not ours to open: the final open decides
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EACCES, errno.EAGAIN):
                return
            raise StoreError(
                f"the store at {path} is being written by {writer_of(path)}: wait for it to finish, "
                "or read meanwhile (reading commands open the store read-only and need no turn)"
            ) from None
        fcntl.lockf(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _release_alone(store: EmbeddedStore) -> None:
    """Close ``store``, flushing its one update into a table file now; collect reference cycles
    only when something else still holds its pyoxigraph store (a full collection costs tens of
    milliseconds in a process that has read much).

    Why flush: an update left in RocksDB's write-ahead log is replayed by *every* later open —
    each read-only one (which cannot flush it) and the next writer's (which replays and then
    flushes it). Measured on the 1M-fact bench store with a DRIFT trace (3,886 quads), CPU per
    process: the writer 198 ms flushing vs 230 ms not (its own open no longer replays the previous
    one's log), a read-only open after it 48 ms vs 85 ms."""
    raw = store._store
    store.close(flush=True)
    if raw is not None and sys.getrefcount(raw) > 2:
        del raw
        gc.collect()
