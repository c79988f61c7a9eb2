"""The engines the store-level suite runs on, and how a test gets a fresh store of each.

Each engine is a name, a dialect, and a context manager giving an empty store. Embedded engines
are always there; server engines (``oxigraph-http``, ``jena-tdb2``, ``virtuoso``) are started by
``scripts/engines/servers.py`` once per test session on 127.0.0.1 (on first use), emptied before
every test, and stopped at the end of the session (and at interpreter exit, whatever happens).

``RAGPROV_ENGINES=oxigraph-memory,jena-tdb2`` limits a local run to some engines;
``RAGPROV_KEEP_ENGINE_DIRS=1`` keeps the servers' stores and logs (in ``$TMPDIR/ragprov-engines-*``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragprov.store import EmbeddedStore

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
ROOT = Path(__file__).resolve().parents[1]
SERVERS_PY = ROOT / "scripts" / "engines" / "servers.py"


def load_servers_module():
    """``scripts/engines/servers.py`` as a module (it is not part of the ragprov package)."""
    name = "ragprov_engine_servers"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SERVERS_PY)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


servers = load_servers_module()


@dataclasses.dataclass(frozen=True)
class Engine:
    name: str
    dialect: str
    open: Callable[[object], contextlib.AbstractContextManager]
    server: str | None = None  # key in servers.SERVERS for server engines


def missing_engine(name: str, install_hint: str) -> None:
    """Skip (locally) or fail (CI) a test whose engine is not installed."""
    message = f"engine {name} is not available: install it with `{install_hint}`"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def _memory(_factory) -> Iterator[EmbeddedStore]:
    yield EmbeddedStore()


@contextlib.contextmanager
def _disk(factory) -> Iterator[EmbeddedStore]:
    s = EmbeddedStore(factory.mktemp("oxigraph-disk"))
    try:
        yield s
    finally:
        s.close()


# -- server engines: one process per engine per session ----------------------------------------------
def _engine_dir() -> str | None:
    """Where server stores live: ``$RAGPROV_ENGINE_DIR``, else ``/dev/shm`` when it is a writable
    tmpfs (a TDB2 commit fsyncs several files: ~60 ms on a busy disk, ~2 ms in memory; durability
    is not what these tests test), else the temp dir."""
    if os.environ.get("RAGPROV_ENGINE_DIR"):
        return os.environ["RAGPROV_ENGINE_DIR"]
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        try:
            if shutil.disk_usage(shm).free > 2 * 1024**3:
                return str(shm)
        except OSError:
            pass
    return None


class _Pool:
    """The running servers of this session, started on first use, stopped at session end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._servers: dict[str, object] = {}
        self._errors: dict[str, BaseException] = {}
        self._base = Path(tempfile.mkdtemp(prefix="ragprov-engines-", dir=_engine_dir()))

    def get(self, key: str, engine_name: str):
        """The running server ``key`` (skip/fail the test when the engine is missing)."""
        with self._lock:
            if key in self._servers:
                server = self._servers[key]
                if server.running:  # type: ignore[attr-defined]
                    return server
                del self._servers[key]
            error = self._errors.get(key)
            if error is None:
                server = servers.SERVERS[key](self._base / key)
                try:
                    server.start()
                except servers.EngineMissing as e:
                    self._errors[key] = error = e
                except servers.EngineFailed as e:
                    self._errors[key] = error = e
                else:
                    self._servers[key] = server
                    return server
        if isinstance(error, servers.EngineMissing):
            missing_engine(engine_name, error.install)
        pytest.fail(f"engine {engine_name} failed to start: {error}")

    def stop_all(self) -> None:
        """Stop every server, then remove their stores and logs."""
        with self._lock:
            running = list(self._servers.values())
            self._servers.clear()
        for s in running:
            s.stop()  # type: ignore[attr-defined]
        if not os.environ.get("RAGPROV_KEEP_ENGINE_DIRS"):
            shutil.rmtree(self._base, ignore_errors=True)


POOL = _Pool()


def stop_servers() -> None:
    """Stop every server this session started (conftest calls it at session end)."""
    POOL.stop_all()


def server_store(key: str, engine_name: str, dialect: str, *, fresh: bool = True):
    """An :class:`EndpointStore` on the session's ``key`` server, emptied first when ``fresh``."""
    from ragprov.store import EndpointConfig, EndpointStore

    server = POOL.get(key, engine_name)
    engine = {"oxigraph": "oxigraph", "jena": "jena", "virtuoso": "virtuoso"}[key]
    config = EndpointConfig.from_url(server.url, dialect=dialect, engine=engine, timeout=60.0)
    store = EndpointStore(config)
    if fresh:
        store.clear()
    return store


def _server_engine(key: str, engine_name: str, dialect: str):
    @contextlib.contextmanager
    def open_(_factory):
        store = server_store(key, engine_name, dialect)
        try:
            yield store
        finally:
            store.close()

    return open_


ALL_ENGINES: list[Engine] = [
    Engine("oxigraph-memory", "rdf12", _memory),
    Engine("oxigraph-disk", "rdf12", _disk),
    Engine("oxigraph-http", "rdf12", _server_engine("oxigraph", "oxigraph-http", "rdf12"), "oxigraph"),
    Engine("jena-tdb2", "rdfstar", _server_engine("jena", "jena-tdb2", "rdfstar"), "jena"),
    Engine("virtuoso", "reification", _server_engine("virtuoso", "virtuoso", "reification"), "virtuoso"),
]


def _selected(engines: list[Engine]) -> list[Engine]:
    wanted = os.environ.get("RAGPROV_ENGINES", "").strip()
    if not wanted:
        return engines
    names = {n.strip() for n in wanted.split(",") if n.strip()}
    unknown = names - {e.name for e in engines}
    if unknown:
        raise RuntimeError(f"RAGPROV_ENGINES names unknown engines: {', '.join(sorted(unknown))}")
    return [e for e in engines if e.name in names]


ENGINES: list[Engine] = _selected(ALL_ENGINES)
SERVER_ENGINES: list[Engine] = [e for e in ENGINES if e.server]


@contextlib.contextmanager
def engine_store(name: str, factory) -> Iterator[object]:
    engine = next(e for e in ENGINES if e.name == name)
    with engine.open(factory) as store:
        yield store
