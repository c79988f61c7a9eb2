"""The engines the store-level suite runs on, and how a test gets a fresh store of each.

Each engine is a name, a dialect, and a context manager giving an empty store. Embedded engines
are always there; server engines (added by the engine matrix) are started once per test session on
127.0.0.1 and stopped at the end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from typing import Callable, Iterator

import pytest

from ragprov.store import EmbeddedStore

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@dataclasses.dataclass(frozen=True)
class Engine:
    name: str
    dialect: str
    open: Callable[[object], contextlib.AbstractContextManager]


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


ENGINES: list[Engine] = [
    Engine("oxigraph-memory", "rdf12", _memory),
    Engine("oxigraph-disk", "rdf12", _disk),
]


def missing_engine(name: str, install_hint: str) -> None:
    """Skip (locally) or fail (CI) a test whose engine is not installed."""
    message = f"engine {name} is not available: install it with `{install_hint}`"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def engine_store(name: str, factory) -> Iterator[object]:
    engine = next(e for e in ENGINES if e.name == name)
    with engine.open(factory) as store:
        yield store
