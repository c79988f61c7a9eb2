"""Cutting long IRI lists into batches, one ``VALUES`` block per query."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

VALUES_BATCH = 200


def batches(items: Sequence, size: int = VALUES_BATCH) -> Iterable[Sequence]:
    """``items`` in slices of at most ``size``.

    >>> [list(b) for b in batches([1, 2, 3], 2)]
    [[1, 2], [3]]
    """
    for start in range(0, len(items), size):
        yield items[start : start + size]
