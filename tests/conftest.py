"""Shared fixtures. ``store`` runs a store-level test once per engine (the engine in the test id).

Engines are described in :mod:`tests.engines`; a missing engine skips locally with the command that
installs it, and fails the run when ``CI=true``.
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from tests.engines import ENGINES, engine_store, stop_servers

RENDERED_TEMPLATES: set[str] = set()
"""Every template rendered in this session (checked by tests/core/test_templates.py, last)."""
PARTIAL_RUN: list[str] = []
"""Why this session is not the whole suite (deselected tests), if it is not."""
COVERAGE_CHECK = "test_every_template_is_rendered_by_the_suite"


@pytest.fixture(scope="session", autouse=True)
def _record_rendered_templates():
    """Note the name of every template the suite renders, through any route (``render``, ``render_all``,
    the recorder, the navigator, the loaders) in this process."""
    from ragprov.sparql.templates import Catalog

    original = Catalog.render

    def render(self, name, dialect, /, **params):
        RENDERED_TEMPLATES.add(name)
        return original(self, name, dialect, **params)

    Catalog.render = render  # type: ignore[method-assign]
    yield
    Catalog.render = original  # type: ignore[method-assign]


def pytest_collection_modifyitems(session, config, items):
    """The template-coverage check runs after every other test."""
    last = [item for item in items if item.name == COVERAGE_CHECK]
    for item in last:
        items.remove(item)
        items.append(item)


def pytest_deselected(items):
    PARTIAL_RUN.append(f"{len(items)} test(s) deselected")


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
