"""Loader throughput: ``load_graphrag`` vs. ``Store.bulk_extend`` of the same quads, in one run.

The bundled Christmas Carol output (GraphRAG v3) is replicated ``--copies`` times (ids, titles and
community numbers made distinct per copy; each copy one Parquet row group) to reach ≥ 1M quads.
Then, each into a fresh store:

* ``loader``       — ``load_graphrag`` end to end: open and check every table (pass 1), stream the
  row groups again and write N-Quads batches to the store (pass 2);
* ``bulk_extend``  — the very quads the loader wrote, already built as pyoxigraph ``Quad`` objects
  (built outside the timing), handed to ``Store.bulk_extend``: the raw floor.

Each is timed ``--repeat`` times, the two alternated run by run (fresh stores); p50 and p95 are printed.

Peak memory of the loader is measured with ``tracemalloc`` (Python allocations: the loader's own
buffers; the store's Rust memory is the same for both ways) at a quarter of the copies and at all
of them: flat means the peak does not grow with the input (what remains is the id index used to
check links: entity titles, text unit and relationship ids). Target: loader ≥ 70 % of raw.

Where the time goes (Christmas Carol x28, ~1.03M quads, 233 MB of N-Quads, memory store): the
loader reads the Parquet files twice (the check, then the write: ~0.25 s of decoding), checks
whole columns (~0.1 s), spells whole columns with ``pyarrow.compute`` (escaping, IRI minting and
line assembly in C++; ~0.3 s) and hands each batch to the store as one UTF-8 N-Quads buffer.
The store parses it leniently (every term was built from checked parts) at ~1.1x the cost of
``bulk_extend`` of ready-made ``Quad`` objects, with the GIL released, on a writer thread, so
spelling overlaps inserting when a second core is free. The CPU-time line shows what both cost
on one core; on disk stores the loader uses pyoxigraph's bulk loader, as ``bulk_extend`` does.

    python bench/load.py [--copies 28] [--disk] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pyoxigraph as ox  # noqa: E402
from _common import figure, interleaved, percentiles  # noqa: E402

from ragprov.loaders.graphrag import load_graphrag  # noqa: E402
from ragprov.resources import data_dir  # noqa: E402
from ragprov.store import EmbeddedStore  # noqa: E402

SOURCE = data_dir() / "graphrag" / "christmas-carol-v3"
ID_COLUMNS = {"id", "document_id", "text_unit_id"}
LIST_ID_COLUMNS = {"text_unit_ids", "entity_ids", "relationship_ids", "covariate_ids", "document_ids"}
TITLE_COLUMNS = {"title", "source", "target", "subject_id", "object_id"}
COMMUNITY_COLUMNS = {"community", "parent", "human_readable_id"}


def _replica(table: pa.Table, name: str, k: int, community_offset: int) -> pa.Table:
    """Copy ``k`` of a table: every id, title and community number made distinct."""
    if k == 0:
        return table
    cols = {}
    for field in table.schema:
        col = table.column(field.name)
        values = col.to_pylist()
        if field.name in ID_COLUMNS:
            values = [f"{v}-r{k}" if v is not None else None for v in values]
        elif field.name in LIST_ID_COLUMNS:
            values = [[f"{x}-r{k}" for x in v] if v is not None else None for v in values]
        elif field.name in TITLE_COLUMNS and name in ("entities", "relationships", "covariates"):
            values = [f"{v} #{k}" if v is not None else None for v in values]
        elif field.name in COMMUNITY_COLUMNS and name in ("communities", "community_reports"):
            values = [v + community_offset if v is not None and v >= 0 else v for v in values]
        elif field.name == "children":
            values = [[c + community_offset for c in v] if v is not None else None for v in values]
        cols[field.name] = pa.array(values, type=field.type)
    return pa.table(cols, schema=table.schema)


def replicate(dest: Path, copies: int) -> Path:
    """The bundled output replicated ``copies`` times, one row group per copy (written streaming)."""
    out = dest / f"christmas-carol-x{copies}"
    out.mkdir()
    communities = pq.read_table(SOURCE / "communities.parquet", columns=["community"]).column("community").to_pylist()
    offset = max(communities) + 1
    for path in sorted(SOURCE.glob("*.parquet")):
        table = pq.read_table(path)
        name = path.stem
        with pq.ParquetWriter(out / path.name, table.schema) as writer:
            for k in range(copies):
                writer.write_table(_replica(table, name, k, k * offset))
    return out


def run_loader(folder: Path, *, disk: Path | None, trace: bool) -> tuple[float, float, int, int, EmbeddedStore]:
    """One load into a fresh store: seconds, CPU seconds (all threads), quads, Python peak bytes
    (when ``trace``), the store.

    tracemalloc slows Python down several times, so timings come from untraced runs."""
    store = EmbeddedStore(disk) if disk else EmbeddedStore()
    gc.collect()
    if trace:
        tracemalloc.start()
    t, cpu = time.perf_counter(), time.process_time()
    report = load_graphrag(store, folder, show_progress=False)
    elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
    peak = 0
    if trace:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return elapsed, cpu, report.quads, peak, store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=28, help="replicas of the Christmas Carol output (28 ≈ 1M quads)")
    parser.add_argument("--disk", action="store_true", help="use on-disk stores (default: in memory)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs each way, alternated run by run")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        small = replicate(tmp_path, max(1, args.copies // 4))
        big = replicate(tmp_path, args.copies)
        disk = (lambda name: tmp_path / name) if args.disk else (lambda name: None)

        peaks = {}
        for name, folder in (("small", small), ("big", big)):
            _, _, n, peak, s = run_loader(folder, disk=disk(f"trace-{name}"), trace=True)
            peaks[name] = (n, peak)
            if name == "big":  # the same quads, as objects, built outside the timing
                objects = list(ox.parse(s.dump(format="nquads"), format=ox.RdfFormat.N_QUADS))
            s.close()
            del s
        quads = len(objects)
        cpu: dict[str, list[float]] = {"loader": [], "bulk_extend": []}

        def loader(i):
            _elapsed, cpu_s, n, _, store = run_loader(big, disk=disk(f"loader{i}"), trace=False)
            assert n == quads, (n, quads)
            cpu["loader"].append(cpu_s)
            store.close()

        def bulk_extend(i):
            raw = EmbeddedStore(disk(f"raw{i}")) if args.disk else EmbeddedStore()
            gc.collect()
            c = time.process_time()
            raw.bulk_extend(objects)
            cpu["bulk_extend"].append(time.process_time() - c)
            raw.close()

        # the two sides alternate run by run (fresh stores every time): noise falls on both alike
        runs = interleaved({"loader": loader, "bulk_extend": bulk_extend}, args.repeat)
        objects.clear()  # the copy is no longer needed
    (t_load, t_load95), (t_raw, t_raw95) = percentiles(runs["loader"]), percentiles(runs["bulk_extend"])
    cpu_load, cpu_raw = percentiles(cpu["loader"])[0], percentiles(cpu["bulk_extend"])[0]
    (q_small, peak_small), (_, peak_big) = peaks["small"], peaks["big"]

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    where = "disk" if args.disk else "memory"
    print(f"GraphRAG loader vs Store.bulk_extend ({where} store, Christmas Carol v3 x{args.copies})")
    print(f"  quads                  {quads:>12,}")
    print(f"  loader                 {quads / t_load:>12,.0f} quads/s  (p50 {t_load:.2f} s, p95 {t_load95:.2f} s, "
          f"both passes; {args.repeat} interleaved runs)")
    print(f"  bulk_extend (raw)      {quads / t_raw:>12,.0f} quads/s  (p50 {t_raw:.2f} s, p95 {t_raw95:.2f} s; the floor, same run)")
    print(f"  ratio loader / raw     {t_raw / t_load:>12.0%}   (p50s; target >= 70%)")
    figure("load", where, quads=quads, loader_p50_s=t_load, loader_p95_s=t_load95, raw_p50_s=t_raw, raw_p95_s=t_raw95,
           loader_share_of_raw=t_raw / t_load)
    print(f"  CPU time loader / raw  {cpu_load:>9.2f} s / {cpu_raw:.2f} s  (CPU-time ratio {cpu_raw / cpu_load:.0%}, "
          f"~ the ratio on one free core; {len(os.sched_getaffinity(0))} cores here, load average {os.getloadavg()[0]:.1f})")
    print(f"  loader peak (Python)   {peak_small / 2**20:>9.1f} MiB at {q_small:,} quads, "
          f"{peak_big / 2**20:.1f} MiB at {quads:,} quads")
    print(f"  peak growth            {peak_big / peak_small:>12.2f}x for {quads / q_small:.1f}x the input "
          f"(+{(peak_big - peak_small) / 2**20:.1f} MiB: the id index; batches are bounded)")
    print(f"  process max RSS        {rss:>9.0f} MiB (includes the stores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
