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

from _common import ROOT, CapturingStore, figure, fixed_clock, graph_rag_trace, ids, interleaved, percentiles, quads_of_update

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
        session = store._session
        original = session.request

        def request(*args, **kwargs):
            self.n += 1
            return original(*args, **kwargs)

        session.request = request  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--traces", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args(argv)
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
            stores = {way: make() for way in ("raw", "update", "recorder")}
            counters = {way: Counting(s) if isinstance(s, EndpointStore) else None for way, s in stores.items()}
            recorder = Recorder(stores["recorder"], clock=fixed_clock(), new_id=ids())
            actions = {  # bound now: the stores and recorder of this factory
                "raw": lambda i, stores=stores: [stores["raw"].extend(q) for q in quads[i]],
                "update": lambda i, stores=stores: [stores["update"].update(t) for t in per[i]],
                "recorder": lambda i, recorder=recorder: graph_rag_trace(recorder, i),
            }
            # one trace per way in turn (the first way rotates): the ways share the machine's noise
            samples = interleaved(actions, n, warmup=warm)
            row = {}
            for way, store in stores.items():
                trips = (counters[way].n / (n + warm)) if counters[way] else 0.0
                p50, p95 = percentiles([s * 1000 for s in samples[way]])
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
            figure("remote", f"{label} {way}", p50_ms_per_trace=p50, p95_ms_per_trace=p95, trips_per_trace=trips, ratio_to_raw=p50 / raw)
    http_rec = results["oxigraph serve (HTTP)"]["recorder"][0]
    mem_rec = results["embedded (memory)"]["recorder"][0]
    disk_rec = results["embedded (disk)"]["recorder"][0]
    print(f"recorder over HTTP vs embedded: {http_rec / mem_rec:.1f}× memory, {http_rec / disk_rec:.1f}× disk (median per trace)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
