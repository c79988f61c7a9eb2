"""The records the answer step passes around: :class:`Candidate` and :class:`Extraction` (its results) and
:class:`_Cand` (a candidate while it is collected)."""

from __future__ import annotations

import dataclasses
import re

from .question import QuestionType
from .words import _key


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A possible answer: its name, entity type (if known), score, the passages (0-based) that
    support it, and why it scored as it did."""

    name: str
    type: str | None
    score: float
    support: tuple[int, ...]
    why: str = ""
    #: the best coverage of the question's terms by one piece of supporting evidence (0–1)
    cover: float = 0.0
    #: how strongly the evidence supports it (support × type fit × novelty × …), which
    #: :data:`MIN_SUPPORT` is a threshold of; ``score`` ranks the candidates
    strength: float = 0.0


@dataclasses.dataclass(frozen=True)
class Extraction:
    """The extracted answer: the question's type, the first line (the answer in a sentence with
    its citations, or why the data does not answer), the chosen candidate, the rejected ones (best
    first), the evidence lines (passage index, text) and the cited source labels."""

    qtype: QuestionType
    first_line: str
    answered: bool
    chosen: Candidate | None
    rejected: tuple[Candidate, ...]
    evidence: tuple[tuple[int, str], ...]
    sources: tuple[str, ...]

    @property
    def support(self) -> tuple[int, ...]:
        """The passages (0-based) the stated answer rests on."""
        return self.chosen.support if self.chosen else ()


# -- candidates ---------------------------------------------------------------------------------
@dataclasses.dataclass
class _Cand:
    key: str
    name: str
    type: str | None
    mentions: set[int] = dataclasses.field(default_factory=set)  # passages naming it structurally
    hits: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)  # (sentence, start, end) naming it
    surfaces: list[str] = dataclasses.field(default_factory=list)
    determined: int = 0  # hits the text writes after an article or possessive ("the Ghost", "his clerk")
    phrase: bool = False  # a lower-case noun phrase the text puts after a place preposition (:func:`_place_phrases`)


#: evidence kinds that are *about* the entities they mention (a fact about its two ends, an
#: entity's description); a chunk, report or answer only names them somewhere in its text
_ABOUT_ITS_MENTIONS = frozenset({"text", "fact", "relationship", "entity", "claim"})


def _display(c: _Cand) -> str:
    """A candidate's name as the text writes it (mixed case), else its label in title case."""
    surfaces = [re.sub(r"['’]s?$", "", s) for s in c.surfaces]
    mixed = [s for s in surfaces if not s.isupper() and _key(s) == c.key]
    if mixed:
        return max(set(mixed), key=lambda s: (mixed.count(s), s))
    name = c.name
    if name.isupper():
        name = re.sub(
            r"[A-Za-z]+(?:['’][A-Za-z]+)?",
            lambda m: m.group(0).capitalize() if len(m.group(0)) > 1 or m.start() == 0 else m.group(0).lower(),
            name.lower(),
        )
        name = re.sub(r"\b(Of|The|And|In|At|On|To|A)\b", lambda m: m.group(0).lower(), name)
        name = name[0].upper() + name[1:]
    return name
