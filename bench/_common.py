"""Shared by the benchmarks: realistic traces (the test suite's builders), timing, and stage capture."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
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
    from ragprov.record.events import _prologue_end

    start = update.index("INSERT DATA")
    body = update[update.index("{", start) + 1 : update.rindex("}")]
    return list(ox.parse(update[: _prologue_end(update)] + body, format=ox.RdfFormat.TRIG))


def ids():
    counter = iter(range(10**9))
    return lambda: f"bench{next(counter)}"


def fixed_clock():
    import datetime as dt

    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    counter = iter(range(10**9))
    return lambda: t0 + dt.timedelta(milliseconds=next(counter))


def percentiles(samples: list[float]) -> tuple[float, float]:
    """The median and the 95th percentile (nearest rank) of ``samples``.

    >>> percentiles([5.0, 1.0, 3.0, 2.0, 4.0])
    (3.0, 5.0)
    """
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50, p95


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""What a bench can time by (``--clock``): elapsed time, or this process's CPU time — on a shared,
oversubscribed machine a run of a few milliseconds waits for a core about as long as it runs, and
only the CPU time compares two runs; it leaves out waiting for the disk, which elapsed time counts."""


def interleaved(sides: dict[str, Callable[[int], object]], runs: int, *, warmup: int = 1,
                clock: Callable[[], float] = time.perf_counter) -> dict[str, list[float]]:
    """Time every side ``runs`` times, alternating them run by run (the first side of each round
    rotates), so the machine's noise falls on every side alike. ``sides[name](i)`` does run ``i``
    (``i`` lets a side pick its own input); returns seconds per run (by ``clock``), per side,
    warm-up runs left out.

    >>> calls = []
    >>> out = interleaved({"a": calls.append, "b": calls.append}, 2, warmup=0)
    >>> calls, sorted(out), len(out["a"])
    ([0, 0, 1, 1], ['a', 'b'], 2)
    """
    names = list(sides)
    out: dict[str, list[float]] = {name: [] for name in names}
    for i in range(warmup + runs):
        k = i % len(names)
        for name in names[k:] + names[:k]:
            t = clock()
            sides[name](i)
            elapsed = clock() - t
            if i >= warmup:
                out[name].append(elapsed)
    return out


#: every figure a benchmark reports, by benchmark and line: ``python -m bench`` writes them as JSON
FIGURES: dict[str, dict[str, dict]] = {}


def figure(bench: str, line: str, **values) -> None:
    """Keep one line of figures (numbers and short strings) for ``python -m bench``."""
    FIGURES.setdefault(bench, {})[line] = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in values.items()}


def cache_dir(name: str) -> Path:
    """Where big benchmark stores are kept between runs (outside git): ``$RAGPROV_BENCH_CACHE`` or
    ``/work/bench-cache``, else the system temp directory."""
    import os
    import tempfile

    base = os.environ.get("RAGPROV_BENCH_CACHE") or ("/work/bench-cache" if Path("/work/bench-cache").is_dir() else tempfile.gettempdir())
    path = Path(base) / name
    path.mkdir(parents=True, exist_ok=True)
    return path
