"""Shared fixtures. ``store`` runs a store-level test once per engine (the engine in the test id).

Engines are described in :mod:`tests.engines`; a missing engine skips locally with the command that
installs it, and fails the run when ``CI=true``.
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from tests.engines import ENGINES, engine_store, stop_servers


@pytest.fixture(params=[e.name for e in ENGINES])
def store(request, tmp_path_factory):
    """A fresh, empty store of each engine in turn."""
    with engine_store(request.param, tmp_path_factory) as s:
        yield s


@pytest.fixture(scope="session", autouse=True)
def _engine_servers():
    """Server engines start on first use; this stops them when the session ends (also on failure)."""
    yield
    stop_servers()


@pytest.fixture
def memory_store():
    from ragprov.store import EmbeddedStore

    return EmbeddedStore()


@pytest.fixture
def clock():
    """A deterministic clock: one second later at every call, from 2026-01-01T00:00:00Z."""
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    counter = itertools.count()
    return lambda: start + dt.timedelta(seconds=next(counter))
