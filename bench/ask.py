"""Whole-process ``ragprov ask`` in every mode on a store grown to ≥ 1M facts, beside the floor.

The store: the bundled Christmas Carol GraphRAG index loaded with ``ragprov load graphrag`` (so
the text index is built at load time), grown with synthetic entities and relationships to
``--facts`` facts (``bench/pipeline.py``'s generator), then the text index brought up to date
(:func:`ragprov.retrieve.reader.update_text_index`). Built once and cached under
``--cache`` (default ``/work/bench-cache/retrieve-ask-<facts>``); the bench builds it when absent
and prints the build times: load, growth, index update, and the index's share of the whole.

Before timing, ragprov's modules are compiled to bytecode (``compileall``, what ``pip install``
does; an editable install under ``PYTHONDONTWRITEBYTECODE=1`` would recompile them in every
process). Each round runs, interleaved, one process per mode (graph-rag, doc-rag, local, global, drift,
agent; offline engine) and one *floor* process that opens the same store and looks up one bound
triple (``quads_for_pattern``) — printed as its time to open the store and its whole-process
time. Per mode: wall p50/p95, CPU p50 (user + sys of the process and its threads, from ``wait4``:
what a shared machine inflates least) and peak RSS, and the ratio to the floor process; then,
per mode, where one run's time goes (imports, store open, the pipeline's stages, the number of
SPARQL queries and text-index statements).

Each mode's ``stalls`` counts its runs that paid for a compaction of the store: runs whose
process removed table files of 64 MiB or more that were there before it (their data rewritten
by a compaction that finished in it) or whose RocksDB ``LOG`` says "Stalling/Stopping writes
because we have N level-0 files"; printed beside the store's table-file count before and after the
rounds. Why they come: every ``ask`` writes its trace through a brief writable open, whose flush
adds a level-0 table file to each column family it writes; the open starts a compaction of them
into the store's bottom level, which on this store rewrites it (hundreds of megabytes) and is
cancelled when the process closes. Level-0 files pile up (each one also read by every later
look-up) until the 20th (pyoxigraph's RocksDB ``level0_slowdown_writes_trigger``), when the
flush waits for the whole compaction: seconds of CPU in one ``ask`` — its p95.

    python bench/ask.py [--facts 1000000] [--rounds 5] [--cache DIR] [--modes drift,global] [--compare REF]

``--compare REF`` times ragprov as committed at git ``REF`` beside the working tree's, in the same
rounds (each mode then ``mode@REF``, interleaved): a change's before and after on the same store,
under the same load. REF's package is exported to a temporary directory put first on the
processes' ``PYTHONPATH``.

Last, per mode, the pipeline's own CPU for each question (in-process: no imports, store opens nor
the trace's write, whose cost follows the store's compaction state and the other processes on
the machine): what a change to a pipeline changes, readable on a shared machine.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import percentiles  # noqa: E402

MODES = ("graph-rag", "doc-rag", "local", "global", "drift", "agent")
QUESTIONS = ["Who is Scrooge's nephew?", "What happens to Tiny Tim?", "Who was Jacob Marley?", "How does Scrooge treat Bob Cratchit?"]
FACTS = "urn:graph:facts"
FLOOR = (
    "import time, sys; t0 = time.perf_counter()\n"
    "import pyoxigraph as ox\n"
    "s = ox.Store.read_only(sys.argv[1]); t1 = time.perf_counter()\n"
    "n = sum(1 for _ in s.quads_for_pattern(ox.NamedNode('urn:bench:entity:7'), None, None, ox.NamedNode(sys.argv[2])))\n"
    "t2 = time.perf_counter(); print(f'{t1 - t0:.6f} {t2 - t1:.6f} {n}')\n"
)

#: one ``ragprov ask`` in-process, timed by phase: imports, store open, each pipeline stage
#: (``Pipeline.result.timings``), SPARQL queries and text-index statements (count and time)
PHASES = (
    "import json, sys, time; t0 = time.perf_counter()\n"
    "import ragprov.cli.ask as ask, ragprov.pipelines\n"
    "t1 = time.perf_counter()\n"
    "from ragprov.store import embedded\n"
    "from ragprov.retrieve import textindex\n"
    "sparql = [0, 0.0]; sqlite = [0]; opened = [0.0]; pipes = []\n"
    "query, init = embedded.EmbeddedStore.query, embedded.EmbeddedStore.__init__\n"
    "run, index_init = ask.run_question, textindex.TextIndex.__init__\n"
    "def timed_query(self, text):\n"
    "    t = time.perf_counter(); out = query(self, text); sparql[0] += 1; sparql[1] += time.perf_counter() - t; return out\n"
    "def timed_init(self, *a, **k):\n"
    "    t = time.perf_counter(); init(self, *a, **k); opened[0] += time.perf_counter() - t\n"
    "def counted_index(self, db, location, rows=None):\n"
    "    index_init(self, db, location, rows)\n"
    "    for c in {db, self.rows_db}: c.set_trace_callback(lambda _: sqlite.__setitem__(0, sqlite[0] + 1))\n"
    "embedded.EmbeddedStore.query, embedded.EmbeddedStore.__init__ = timed_query, timed_init\n"
    "textindex.TextIndex.__init__ = counted_index\n"
    "ran = [0.0]\n"
    "def timed_run(pipe, *a, **k):\n"
    "    pipes.append(pipe); c = time.process_time()\n"
    "    try:\n"
    "        return run(pipe, *a, **k)\n"
    "    finally:\n"
    "        ran[0] += time.process_time() - c\n"
    "ask.run_question = timed_run\n"
    "from ragprov.cli import main\n"
    "out, sys.argv = sys.argv[1], ['ragprov', 'ask', *sys.argv[2:]]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "t2 = time.perf_counter()\n"
    "stages = dict(pipes[0].result.timings.stages) if pipes else {}\n"
    "found = {'import': t1 - t0, 'open': opened[0], 'total': t2 - t0, 'sparql': sparql, 'sqlite': sqlite[0], 'stages': stages,\n"
    "         'cpu': time.process_time(), 'cpu_run': ran[0]}\n"
    "open(out, 'w').write(json.dumps(found))\n"
)


def phases(ragprov_args: list[str], question: str, mode: str) -> dict:
    """Where one ``ragprov ask`` spends its time (see :data:`PHASES`)."""
    import json
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        measure([sys.executable, "-c", PHASES, f.name, mode, question, *ragprov_args])
        return json.loads(Path(f.name).read_text())


def build(store_dir: Path, facts: int) -> None:
    from pyoxigraph import NamedNode

    from bench.pipeline import grow
    from ragprov.retrieve.reader import update_text_index
    from ragprov.retrieve.textindex import index_location
    from ragprov.store import EmbeddedStore

    store_dir.parent.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ragprov.cli", "load", "graphrag", str(ROOT / "plugin/data/graphrag/christmas-carol-v3"),
                    "--facts-graph", FACTS, "--store", str(store_dir)], check=True, stdout=subprocess.DEVNULL)
    load = time.perf_counter() - t
    store = EmbeddedStore(store_dir)
    t = time.perf_counter()
    size = grow(store, facts)
    growth = time.perf_counter() - t
    t = time.perf_counter()
    report = update_text_index(store, facts_graph=NamedNode(FACTS))
    index = time.perf_counter() - t
    store.close()
    mib = index_location(store).stat().st_size / 2**20
    print(f"built {store_dir}: {size:,} facts; load {load:.1f} s + growth {growth:.1f} s + text index {index:.1f} s "
          f"({report.written:,} documents) → index {100 * index / (load + growth + index):.1f} % of load time; index {mib:.0f} MiB")


#: user + sys CPU seconds of each process :func:`measure` ran, in order
CPU: list[float] = []


def measure(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """Wall seconds and peak RSS (KiB) of one process, from its own rusage (its CPU seconds go to :data:`CPU`)."""
    t = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    CPU.append(usage.ru_utime + usage.ru_stime)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(argv[:5])} failed: {err.strip()[-400:]}")
    return wall, usage.ru_maxrss, out


def table_files(store_dir: Path) -> dict[str, int]:
    """The store's RocksDB table files and their sizes (level-0 files add to them until compacted)."""
    out = {}
    for f in store_dir.glob("*.sst"):
        with contextlib.suppress(OSError):
            out[f.name] = f.stat().st_size
    return out


def stalled(store_dir: Path, before: dict[str, int]) -> bool:
    """Whether the process that just ran paid for a compaction of the store: it removed table
    files of 64 MiB or more that were there ``before`` it, or its RocksDB ``LOG`` (the last
    process to open the store writes it) says it stalled writes."""
    after = table_files(store_dir)
    if sum(size for name, size in before.items() if name not in after) >= 64 * 2**20:
        return True
    try:
        text = (store_dir / "LOG").read_text(errors="replace")
    except OSError:
        return False
    return "Stalling writes" in text or "Stopping writes" in text


@dataclasses.dataclass
class Rounds:
    """What the interleaved rounds measured, per mode (and the floor): wall and CPU seconds, peak
    RSS (KiB), runs that paid for a compaction; the floor's store-open and look-up seconds."""

    modes: tuple[str, ...]
    walls: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    cpus: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    rss: dict[str, int] = dataclasses.field(default_factory=dict)
    stalls: dict[str, int] = dataclasses.field(default_factory=dict)
    opens: list[float] = dataclasses.field(default_factory=list)
    lookups: list[float] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        for m in (*self.modes, "floor"):
            self.walls[m], self.cpus[m], self.rss[m] = [], [], 0
        self.stalls.update({m: 0 for m in self.modes})

    def add(self, mode: str, wall: float, peak: int) -> None:
        self.walls[mode].append(wall)
        self.cpus[mode].append(CPU[-1])
        self.rss[mode] = max(self.rss[mode], peak)


def export(ref: str, into: Path) -> dict[str, str]:
    """ragprov as committed at git ``ref``, laid out as an installed package under ``into``
    (``ragprov`` with its ``loaders``, ``ontology`` and ``queries`` inside) and compiled; returns
    the environment that imports it first."""
    tree = into / "tree"
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    package = into / "root" / "ragprov"
    package.parent.mkdir()
    (tree / "plugin").rename(package)
    for part in ("loaders", "ontology", "queries"):
        (tree / part).rename(package / part)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True, stdout=subprocess.DEVNULL)
    return {**os.environ, "PYTHONPATH": str(package.parent)}


def run_rounds(ragprov: list[str], env_store: list[str], store_dir: Path, modes: tuple[str, ...], rounds: int,
               envs: dict[str, dict[str, str] | None] | None = None) -> Rounds:
    """``rounds`` rounds, each one ``ask`` per mode then one floor process, interleaved; ``envs``:
    each label's environment (``mode@REF`` runs mode with REF's package, see :func:`export`)."""
    out = Rounds(modes)
    envs = envs or {}
    for r in range(rounds):
        question = QUESTIONS[r % len(QUESTIONS)]
        for label in modes:
            mode = label.split("@")[0]
            files = table_files(store_dir)
            wall, peak, _ = measure([*ragprov, "ask", mode, question, "--facts-graph", FACTS, *env_store], envs.get(label))
            out.add(label, wall, peak)
            out.stalls[label] += stalled(store_dir, files)
        wall, peak, printed = measure([sys.executable, "-c", FLOOR, str(store_dir), FACTS])
        t_open, t_lookup, _ = printed.split()
        out.add("floor", wall, peak)
        out.opens.append(float(t_open))
        out.lookups.append(float(t_lookup))
    return out


def print_rounds(m: Rounds, store_dir: Path, rounds: int, files_before: int) -> None:
    """The floor, the store's table files, and per mode wall p50/p95, CPU and peak RSS."""
    floor50 = percentiles(m.walls["floor"])[0]
    print(f"store: {store_dir} ({rounds} rounds, interleaved)")
    floor_cpu = percentiles(m.cpus["floor"])[0]
    print(f"floor process (python + open store + one bound lookup): p50 {floor50 * 1000:.0f} ms (CPU {floor_cpu * 1000:.0f} ms); "
          f"open {percentiles(m.opens)[0] * 1000:.1f} ms; lookup {percentiles(m.lookups)[0] * 1e6:.0f} µs; "
          f"peak {m.rss['floor'] / 1024:.0f} MiB")
    print(f"store table files: {files_before} before the rounds, {len(table_files(store_dir))} after "
          "(stalls: runs that paid for a compaction of the store, see the module docstring)")
    width = max(10, *(len(label) + 1 for label in m.modes))
    print(f"{'mode':{width}} {'p50 ms':>8} {'p95 ms':>8} {'× floor':>8} {'CPU p50':>8} {'CPU max':>8} {'peak MiB':>9} {'stalls':>7}")
    for mode in m.modes:
        p50, p95 = percentiles(m.walls[mode])
        print(f"{mode:{width}} {p50 * 1000:8.0f} {p95 * 1000:8.0f} {p50 / floor50:8.1f} {percentiles(m.cpus[mode])[0] * 1000:8.0f} "
              f"{max(m.cpus[mode]) * 1000:8.0f} {m.rss[mode] / 1024:9.0f} {m.stalls[mode]:7d}")


def print_phases(env_store: list[str], modes: tuple[str, ...]) -> None:
    """Per mode, where one run's time goes, then the pipeline's own CPU for each question (the
    working tree's ragprov only)."""
    print("\nwhere one run's time goes (in-process, ms; sparql/sqlite: statements run; stages from the pipeline's own timings):")
    runs: dict[str, list[float]] = {}
    modes = tuple(m for m in modes if "@" not in m)
    for mode in modes:
        p = phases(["--facts-graph", FACTS, *env_store], QUESTIONS[0], mode)
        stages = " ".join(f"{k} {v * 1000:.0f}" for k, v in sorted(p["stages"].items(), key=lambda kv: -kv[1]) if v >= 0.0005)
        print(f"{mode:10} total {p['total'] * 1000:4.0f} = imports {p['import'] * 1000:3.0f} + open {p['open'] * 1000:3.0f} + stages "
              f"[{stages}]; sparql {p['sparql'][0]} ({p['sparql'][1] * 1000:.0f} ms), sqlite {p['sqlite']}")
        runs[mode] = [p["cpu_run"]] + [phases(["--facts-graph", FACTS, *env_store], q, mode)["cpu_run"] for q in QUESTIONS[1:]]
    # the pipeline alone (its stages and the trace kept in memory; not imports, store opens nor the trace's
    # write, whose cost follows the store's compaction state): what a change to a pipeline changes
    print("\npipeline CPU per question (in-process, ms, without imports, store opens and the trace's write):")
    for mode in modes:
        print(f"{mode:10} " + " ".join(f"{c * 1000:4.0f}" for c in runs[mode]) + f"  (p50 {percentiles(runs[mode])[0] * 1000:.0f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated modes to time beside the floor (default: all)")
    ap.add_argument("--compare", metavar="REF", default=None,
                    help="also time each mode as committed at git REF, interleaved in the same rounds (mode@REF)")
    args = ap.parse_args(argv)
    modes = tuple(m for m in args.modes.split(",") if m)
    if not modes or set(modes) - set(MODES):
        ap.error(f"--modes takes some of {','.join(MODES)}")
    cache = args.cache or Path(f"/work/bench-cache/retrieve-ask-{args.facts}")
    store_dir = cache / "store"
    if not (store_dir / "CURRENT").exists():
        build(store_dir, args.facts)
    env_store = ["--store", str(store_dir)]
    # bytecode for ragprov's own modules, as `pip install` compiles it (an editable install under
    # PYTHONDONTWRITEBYTECODE=1 would otherwise recompile every module in every process: ~100 ms)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "plugin")], check=True, stdout=subprocess.DEVNULL)
    ragprov = [sys.executable, "-m", "ragprov.cli"]
    # one warm-up of each (bytecode and template caches, page cache)
    for mode in modes:
        measure([*ragprov, "ask", mode, QUESTIONS[0], "--facts-graph", FACTS, *env_store])
    with tempfile.TemporaryDirectory(prefix="ask-compare-") as tmp:
        envs: dict[str, dict[str, str] | None] = {}
        timed = modes
        if args.compare:
            base = export(args.compare, Path(tmp))
            timed = tuple(label for mode in modes for label in (mode, f"{mode}@{args.compare}"))
            envs = {f"{mode}@{args.compare}": base for mode in modes}
            for mode in modes:  # REF's warm-up too
                measure([*ragprov, "ask", mode, QUESTIONS[0], "--facts-graph", FACTS, *env_store], base)
        files_before = len(table_files(store_dir))
        measured = run_rounds(ragprov, env_store, store_dir, timed, args.rounds, envs)
    print_rounds(measured, store_dir, args.rounds, files_before)
    print_phases(env_store, modes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
