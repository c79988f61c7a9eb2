"""Several LLM requests in flight at once, their results taken in the order they were asked.

Microsoft GraphRAG sends global search's map requests and dynamic community selection's rating
requests concurrently (``concurrent_requests`` 25, ``concurrent_coroutines`` 8). ragprov does the
same with threads (the requests wait on the network, not on Python), and keeps its traces
deterministic: :func:`in_order` yields each result in the order of its input, so the stages are
recorded in the same order whatever order the server answered in.

>>> import time
>>> list(in_order(lambda n: (time.sleep(0.01 * (3 - n)), n * n)[1], [0, 1, 2, 3], workers=4))
[0, 1, 4, 9]

One worker calls in this thread, one after another (no thread is started); an error is raised
where its result is taken, and the requests not yet sent are dropped:

>>> def fail_on_two(n):
...     if n == 2:
...         raise ValueError("no")
...     return n
>>> results = in_order(fail_on_two, [0, 1, 2, 3], workers=1)
>>> next(results), next(results)
(0, 1)
>>> next(results)
Traceback (most recent call last):
...
ValueError: no
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

__all__ = ["in_order"]

T = TypeVar("T")
R = TypeVar("R")


def in_order(call: Callable[[T], R], items: Iterable[T], *, workers: int) -> Iterator[R]:
    """``call(item)`` for every item, up to ``workers`` at once, yielded in the items' order.

    Closing the iterator early (an error, Ctrl-C, a consumer that stops) cancels the calls not
    yet started; the ones already running finish in the background and are dropped."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    todo = list(items)
    if workers == 1 or len(todo) < 2:
        for item in todo:
            yield call(item)
        return
    import concurrent.futures  # only with threads to start: it imports logging (~2 ms of every ask)

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(todo)), thread_name_prefix="ragprov-llm")
    try:
        futures = [pool.submit(call, item) for item in todo]
        for future in futures:
            yield future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
