"""Recording over HTTP: a GraphRAG trace written to ``oxigraph serve`` vs. the embedded store, one run.

Each trace is realistic (5 concepts, 50 seed entities, 25 selected edges; five stages, one request
per stage). For every store it prints the median and p95 milliseconds per trace and the HTTP round
trips per trace, for three ways to write the same traces:

* ``raw``      — each stage's quads handed to ``Store.extend`` (embedded: pyoxigraph directly; HTTP:
  one Graph Store Protocol POST of N-Quads per stage): the floor;
* ``update``   — each stage's already rendered ``INSERT DATA`` run as SPARQL UPDATE;
* ``recorder`` — ``Recorder`` end to end (parameters, rendering + escaping, the update).

The ratios (recorder / raw) are computed in the same run. The server is started on 127.0.0.1 (free
port) and stopped at the end.

    python bench/remote.py [--traces 200]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time

from _common import ROOT, CapturingStore, fixed_clock, graph_rag_trace, ids, percentiles, quads_of_update

from ragprov.record import Recorder
from ragprov.sparql import Dialect
from ragprov.store import EmbeddedStore, EndpointConfig, EndpointStore


def _servers():
    spec = importlib.util.spec_from_file_location("ragprov_engine_servers", ROOT / "scripts" / "engines" / "servers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


class Counting:
    """Counts the HTTP requests an EndpointStore's session sends."""

    def __init__(self, store: EndpointStore):
        self.n = 0
        session = store._session  # noqa: SLF001 - benchmark instrumentation
        original = session.request

        def request(*args, **kwargs):
            self.n += 1
            return original(*args, **kwargs)

        session.request = request  # type: ignore[method-assign]


def per_trace(fn, n: int) -> list[float]:
    """Milliseconds for each of ``n`` calls ``fn(i)``."""
    out = []
    for i in range(n):
        t = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--traces", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    n, warm = args.traces, args.warmup

    # The stage requests of n traces (rendered once, for the raw and update baselines).
    capture = CapturingStore(Dialect.RDF12)
    rec = Recorder(capture, clock=fixed_clock(), new_id=ids())
    for i in range(n + warm):
        graph_rag_trace(rec, i)
    texts = capture.updates
    stages = len(texts) // (n + warm)
    per = [texts[i * stages:(i + 1) * stages] for i in range(n + warm)]
    quads = [[quads_of_update(t) for t in group] for group in per]

    servers = _servers()
    server = servers.OxigraphServer(tempfile.mkdtemp(prefix="ragprov-bench-remote-")).start()
    results: dict[str, dict[str, tuple[float, float, float]]] = {}
    try:
        def endpoint() -> EndpointStore:
            store = EndpointStore(EndpointConfig.from_url(server.url, dialect="rdf12", engine="oxigraph"))
            store.clear()
            return store

        factories = {
            "embedded (memory)": lambda: EmbeddedStore(),
            "embedded (disk)": lambda: EmbeddedStore(tempfile.mkdtemp(prefix="ragprov-bench-")),
            "oxigraph serve (HTTP)": endpoint,
        }
        for label, make in factories.items():
            row = {}
            for way in ("raw", "update", "recorder"):
                store = make()
                counter = Counting(store) if isinstance(store, EndpointStore) else None
                recorder = Recorder(store, clock=fixed_clock(), new_id=ids())
                actions = {
                    "raw": lambda i: [store.extend(q) for q in quads[i]],
                    "update": lambda i: [store.update(t) for t in per[i]],
                    "recorder": lambda i: graph_rag_trace(recorder, i),
                }
                act = actions[way]
                for i in range(warm):
                    act(i)
                before = counter.n if counter else 0
                samples = per_trace(lambda i: act(warm + i), n)
                trips = ((counter.n - before) / n) if counter else 0.0
                p50, p95 = percentiles(samples)
                row[way] = (p50, p95, trips)
                store.close()
            results[label] = row
    finally:
        server.stop()

    print(f"GraphRAG trace (5 concepts, 50 seeds, 25 edges; {stages} stages), {n} traces after {warm} warm-up")
    print(f"{'store':24} {'way':9} {'median ms':>10} {'p95 ms':>8} {'trips/trace':>12} {'× raw (median)':>15}")
    for label, row in results.items():
        raw = row["raw"][0]
        for way, (p50, p95, trips) in row.items():
            trips_s = f"{trips:.1f}" if label.startswith("oxigraph serve") else "-"
            print(f"{label:24} {way:9} {p50:10.2f} {p95:8.2f} {trips_s:>12} {p50 / raw:15.2f}")
    http_rec = results["oxigraph serve (HTTP)"]["recorder"][0]
    mem_rec = results["embedded (memory)"]["recorder"][0]
    disk_rec = results["embedded (disk)"]["recorder"][0]
    print(f"recorder over HTTP vs embedded: {http_rec / mem_rec:.1f}× memory, {http_rec / disk_rec:.1f}× disk (median per trace)")


if __name__ == "__main__":
    main()
