"""Loader throughput: ``load_graphrag`` vs. ``Store.bulk_extend`` of the same quads, in one run.

The bundled Christmas Carol output (GraphRAG v3) is replicated ``--copies`` times (ids, titles and
community numbers made distinct per copy; each copy one Parquet row group) to reach ≥ 1M quads.
Then, each into a fresh store:

* ``loader``       — ``load_graphrag`` end to end: open and check every table (pass 1), stream the
  row groups again and write batches through ``Store.load`` (pass 2);
* ``bulk_extend``  — the very quads the loader wrote, already built as pyoxigraph ``Quad`` objects
  (built outside the timing), handed to ``Store.bulk_extend``: the raw floor.

Peak memory of the loader is measured with ``tracemalloc`` (Python allocations: the loader's own
buffers; the store's Rust memory is the same for both ways) at a quarter of the copies and at all
of them: flat means the peak does not grow with the input (what remains is the id index used to
check links: entity titles, text unit and relationship ids). Target: loader ≥ 70 % of raw.

Where the time goes (cProfile, Christmas Carol x7): the loader spells every term in Python
(~1.6 µs a quad, of which a third is reading Parquet rows into Python objects) and the store then
parses the N-Quads text, which costs ~30 % more than ``bulk_extend`` of ready-made ``Quad``
objects; pyoxigraph holds the GIL while loading, so the two do not overlap. The remaining lever is
spelling whole columns with ``pyarrow.compute`` instead of row by row.

    python bench/load.py [--copies 28] [--disk]
"""

from __future__ import annotations

import argparse
import gc
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


def run_loader(folder: Path, *, disk: Path | None, trace: bool) -> tuple[float, int, int, EmbeddedStore]:
    """One load into a fresh store: seconds, quads, Python peak bytes (when ``trace``), the store.

    tracemalloc slows Python down several times, so timings come from untraced runs."""
    store = EmbeddedStore(disk) if disk else EmbeddedStore()
    gc.collect()
    if trace:
        tracemalloc.start()
    t = time.perf_counter()
    report = load_graphrag(store, folder, show_progress=False)
    elapsed = time.perf_counter() - t
    peak = 0
    if trace:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return elapsed, report.quads, peak, store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=28, help="replicas of the Christmas Carol output (28 ≈ 1M quads)")
    parser.add_argument("--disk", action="store_true", help="use on-disk stores (default: in memory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        small = replicate(tmp_path, max(1, args.copies // 4))
        big = replicate(tmp_path, args.copies)
        disk = (lambda name: tmp_path / name) if args.disk else (lambda name: None)

        peaks = {}
        for name, folder in (("small", small), ("big", big)):
            _, n, peak, s = run_loader(folder, disk=disk(f"trace-{name}"), trace=True)
            peaks[name] = (n, peak)
            s.close()
            del s
        t_load, quads, _, store = run_loader(big, disk=disk("loader"), trace=False)
        # the same quads, as objects, built outside the timing
        data = store.dump(format="nquads")
        store.close()
        del store
        objects = list(ox.parse(data, format=ox.RdfFormat.N_QUADS))
        del data
        assert len(objects) == quads, (len(objects), quads)
        raw = EmbeddedStore(disk("raw")) if args.disk else EmbeddedStore()
        gc.collect()
        t = time.perf_counter()
        raw.bulk_extend(objects)
        t_raw = time.perf_counter() - t
        assert raw.count() == quads
        raw.close()
        del raw, objects
    (q_small, peak_small), (_, peak_big) = peaks["small"], peaks["big"]

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    where = "disk" if args.disk else "memory"
    print(f"GraphRAG loader vs Store.bulk_extend ({where} store, Christmas Carol v3 x{args.copies})")
    print(f"  quads                  {quads:>12,}")
    print(f"  loader                 {quads / t_load:>12,.0f} quads/s  ({t_load:.2f} s, both passes)")
    print(f"  bulk_extend (raw)      {quads / t_raw:>12,.0f} quads/s  ({t_raw:.2f} s)")
    print(f"  ratio loader / raw     {t_raw / t_load:>12.0%}   (target >= 70%)")
    print(f"  loader peak (Python)   {peak_small / 2**20:>9.1f} MiB at {q_small:,} quads, "
          f"{peak_big / 2**20:.1f} MiB at {quads:,} quads")
    print(f"  peak growth            {peak_big / peak_small:>12.2f}x for {quads / q_small:.1f}x the input (flat ~ 1)")
    print(f"  process max RSS        {rss:>9.0f} MiB (includes the stores)")


if __name__ == "__main__":
    main()
