"""Shared by the benchmarks: realistic traces (the test suite's builders), timing, and stage capture."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pyoxigraph as ox  # noqa: E402

from tests.core.builders import graph_rag_inputs, graph_rag_trace, record_graph_rag  # noqa: E402,F401  (one definition of a realistic trace)


class CapturingStore:
    """A store that keeps the update texts it is sent and runs nothing (to get each stage's request)."""

    def __init__(self, dialect):
        self.dialect = dialect
        self.updates: list[str] = []

    def update(self, sparql: str) -> None:
        self.updates.append(sparql)


def quads_of_update(update: str) -> list[ox.Quad]:
    """Every quad an INSERT DATA (rdf12 dialect) writes, in every graph."""
    start = update.index("INSERT DATA")
    body = update[update.index("{", start) + 1 : update.rindex("}")]
    return list(ox.parse(update[:start] + body, format=ox.RdfFormat.TRIG))


def ids():
    counter = iter(range(10**9))
    return lambda: f"bench{next(counter)}"


def fixed_clock():
    import datetime as dt

    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    counter = iter(range(10**9))
    return lambda: t0 + dt.timedelta(milliseconds=next(counter))


def best_of(fn, repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``fn()`` (seconds): the least disturbed measurement."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return p50, p95
