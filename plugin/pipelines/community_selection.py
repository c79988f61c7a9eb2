"""Dynamic community selection for Microsoft GraphRAG global search (its
``--dynamic-community-selection``), with every rating kept for the trace.

Instead of mapping every community report up to the community level, the reports are rated for
relevance to the question from the root level down, as Microsoft GraphRAG 3.x does:

1. the reports of the level-0 communities are rated first;
2. a report rated at least ``threshold`` is relevant: the reports of its community's child
   communities are rated next, and (unless ``keep_parent``) a relevant report's parent report
   leaves the relevant set — the finer report replaces it;
3. when a level ends with nothing left to rate and nothing relevant yet, every report of the next
   level is rated (while that level is at most ``max_level``);
4. the relevant reports are the ones global search maps.

Only reports up to the community level take part (the caller passes them), so a child beyond it
is never rated. The rater decides the scale (Microsoft's 0–5): with an LLM, Microsoft's rating
prompt per report (:func:`ragprov.llm.microsoft.rate_relevancy`); offline, the reports' BM25
coverage of the question (:func:`ragprov.retrieve.context.report_ratings`).

>>> reports = [{"report": n} for n in ("a", "a1", "a2", "b", "b1")]
>>> tree = {"a": (0, ["a1", "a2"]), "a1": (1, []), "a2": (1, []), "b": (0, ["b1"]), "b1": (1, [])}
>>> scores = {"a": 3, "a1": 4, "a2": 0, "b": 0, "b1": 5}
>>> kept, ratings = select_communities(reports, tree, lambda batch: [(scores[r["report"]], None) for r in batch], threshold=1)
>>> [r["report"] for r in kept]
['a1']
>>> [(r.report, r.rating, r.kept) for r in ratings]
[('a', 3, False), ('b', 0, False), ('a1', 4, True), ('a2', 0, False)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["RatedReport", "Rater", "select_communities"]

#: rates one level's queue of reports: ``(rating, reason)`` per report, in order
Rater = Callable[[Sequence[dict[str, Any]]], Sequence[tuple[float, "str | None"]]]


@dataclasses.dataclass
class RatedReport:
    """One rating: the report, its level, the rating and reason, the order it was rated in
    (from 1) and whether the selection kept it."""

    report: Any
    level: int | None
    rating: float
    reason: str | None
    rank: int
    kept: bool = False


def select_communities(
    reports: Sequence[dict[str, Any]],
    tree: Mapping[Any, tuple[int, Sequence[Any]]],
    rate: Rater,
    *,
    threshold: float = 1,
    keep_parent: bool = False,
    max_level: int = 2,
) -> tuple[list[dict[str, Any]], list[RatedReport]]:
    """The relevant reports among ``reports`` (each a dict with ``report``), in the order they
    were found relevant, and every rating made (see the module docstring). ``tree`` maps a
    report to ``(level, child reports)``; a report it does not know is treated as level 0
    without children."""
    by_iri = {r["report"]: r for r in reports}
    level_of = {iri: tree.get(iri, (0, ()))[0] for iri in by_iri}
    levels: dict[int, list[Any]] = {}
    for iri in by_iri:
        levels.setdefault(level_of[iri], []).append(iri)
    parent_of = {child: iri for iri in by_iri for child in tree.get(iri, (0, ()))[1] if child in by_iri}

    ratings: list[RatedReport] = []
    relevant: dict[Any, None] = {}  # ordered set
    queue = list(levels.get(0, ()))
    level = 0
    while queue:
        results = rate([by_iri[iri] for iri in queue])
        following: list[Any] = []
        for iri, (rating, reason) in zip(queue, results, strict=True):
            ratings.append(RatedReport(iri, level_of[iri], rating, reason, len(ratings) + 1))
            if rating >= threshold:
                relevant[iri] = None
                following.extend(c for c in tree.get(iri, (0, ()))[1] if c in by_iri)
                if not keep_parent:
                    relevant.pop(parent_of.get(iri), None)
        queue = following
        level += 1
        if not queue and not relevant and level in levels and level <= max_level:
            queue = list(levels[level])  # nothing relevant above: rate the whole next level
    for r in ratings:
        r.kept = r.report in relevant
    return [by_iri[iri] for iri in relevant], ratings
