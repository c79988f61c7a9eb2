"""What every pipeline shares: the run result, stage timings, and token bookkeeping."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from typing import Iterator

from pyoxigraph import NamedNode

from ..record.events import Source

__all__ = ["RunResult", "Timings", "Tokens"]


class Timings:
    """Wall time per stage (seconds), with the part spent recording provenance kept apart."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}

    @contextlib.contextmanager
    def measure(self, stage: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stages[stage] = self.stages.get(stage, 0.0) + time.perf_counter() - start

    def total(self) -> float:
        return sum(self.stages.values())

    def recording(self) -> float:
        return self.stages.get("record", 0.0)


@dataclasses.dataclass
class Tokens:
    """Running token totals (``None`` parts — unreported by the model — count as 0)."""

    in_token: int = 0
    out_token: int = 0
    reported: bool = False

    def add(self, in_token: int | None, out_token: int | None) -> None:
        self.in_token += in_token or 0
        self.out_token += out_token or 0


@dataclasses.dataclass
class RunResult:
    """What a finished (or failed) run produced, for callers that do not read the event stream."""

    question: NamedNode | None = None
    answer: str = ""
    last: NamedNode | None = None
    selected: int = 0
    sources: tuple[Source, ...] = ()
    tokens: Tokens = dataclasses.field(default_factory=Tokens)
    timings: Timings = dataclasses.field(default_factory=Timings)
    termination_reason: str | None = None
