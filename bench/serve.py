"""``ragprov serve`` under concurrent asks: what HTTP + server-sent events add to the pipelines.

On the bundled Christmas Carol index, N clients ask at once (graph-rag and doc-rag alternating),
two ways, alternated round by round so the machine's noise lands on both sides:

* ``direct`` — the same questions run through the Python API in a pool of as many threads as the
  server has workers, one facts reader per mode as the server keeps (the floor: the pipelines' own
  cost at the same concurrency);
* ``http``   — N concurrent clients POST /ask to a real uvicorn server on 127.0.0.1 and read the
  event streams to the end.

It prints, per N, the p50/p95 seconds to the first event and to the end of each ask, the wall time
of the whole batch, and the ratio http / direct of wall times measured in the same run.

    python bench/serve.py [--clients 1,10,50] [--rounds 3] [--workers 4]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import time

import requests
from _common import percentiles

from ragprov.pipelines import DocRag, GraphRag
from ragprov.serve.app import ServeConfig, create_app
from tests.serve.conftest import carol_with_traces, running_server

SUBJECTS = ("Scrooge", "Marley", "Tiny Tim", "Bob Cratchit", "Fezziwig", "Belle", "Fred", "Topper")


def questions(n: int, round_no: int) -> list[tuple[str, str]]:
    return [("graph-rag" if i % 2 == 0 else "doc-rag", f"Who is {SUBJECTS[i % len(SUBJECTS)]}? (r{round_no} c{i})") for i in range(n)]


def ask_direct(store, readers: dict, mode: str, question: str) -> tuple[float, float]:
    start = time.perf_counter()
    first = None
    cls = GraphRag if mode == "graph-rag" else DocRag
    for _ in cls(store, reader=readers[mode]).run(question):
        first = first if first is not None else time.perf_counter() - start
    return first or 0.0, time.perf_counter() - start


def ask_http(base: str, mode: str, question: str) -> tuple[float, float]:
    start = time.perf_counter()
    first = None
    with requests.post(f"{base}/ask", json={"mode": mode, "question": question}, stream=True, timeout=(10, 900)) as resp:
        resp.raise_for_status()
        for line in resp.iter_lines():
            if line and first is None:
                first = time.perf_counter() - start
    return first or 0.0, time.perf_counter() - start


def batch(fn, jobs, threads: int) -> tuple[list[tuple[float, float]], float]:
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        results = list(pool.map(lambda job: fn(*job), jobs))
    return results, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,10,50")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    store, _ = carol_with_traces()
    readers = {"graph-rag": GraphRag(store).reader, "doc-rag": DocRag(store).reader}
    with running_server(create_app(store, ServeConfig(workers=args.workers))) as base:
        print(f"{'clients':>7} {'side':>6} {'first p50':>9} {'first p95':>9} {'end p50':>8} {'end p95':>8} {'wall s':>7}")
        for n in (int(c) for c in args.clients.split(",")):
            samples = {"direct": [], "http": []}
            walls = {"direct": [], "http": []}
            for r in range(args.rounds):
                order = ("direct", "http") if r % 2 == 0 else ("http", "direct")
                for side in order:
                    jobs = questions(n, r)
                    if side == "direct":
                        results, wall = batch(lambda m, q: ask_direct(store, readers, m, q), jobs, args.workers)
                    else:
                        results, wall = batch(lambda m, q: ask_http(base, m, q), jobs, n)
                    samples[side] += results
                    walls[side].append(wall)
            for side in ("direct", "http"):
                f50, f95 = percentiles([s[0] for s in samples[side]])
                e50, e95 = percentiles([s[1] for s in samples[side]])
                wall = sorted(walls[side])[len(walls[side]) // 2]
                print(f"{n:>7} {side:>6} {f50:>9.3f} {f95:>9.3f} {e50:>8.3f} {e95:>8.3f} {wall:>7.2f}")
            ratio = sorted(walls["http"])[len(walls["http"]) // 2] / sorted(walls["direct"])[len(walls["direct"]) // 2]
            print(f"{n:>7}  http / direct wall time (median of {args.rounds} rounds): {ratio:.2f}")


if __name__ == "__main__":
    main()
