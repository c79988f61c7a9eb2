"""The limits a named answer must clear to be stated: its summed support and how much of the question its best
sentence covers. Extraction decides with them (:func:`~.extract._decided`) and the rank asks them of a candidate
called the asked noun (:func:`~.rank._candidates`); both read :func:`clears`, so the two never disagree."""

from __future__ import annotations

from .records import Candidate

#: the least summed support a named answer needs (one passage covering the question fully gives 1); a sentence
#: stating the asked act of a name may cover little of a long question (0.02, not 0.03: unseen questions
#: declined answerable ones far more often than they answered unanswerable ones)
MIN_SUPPORT = 0.02

#: the least share of the question's terms the best supporting sentence must cover
MIN_COVERAGE = 0.15

#: the same for a who/which question (:data:`NAMED_KINDS`): it often describes whom it asks at length ("Who was the
#: grey old tailor who mended … in the back street?"), and the sentence saying the act covers little of that
NAMED_COVERAGE = 0.10

#: how many of the best-ranked candidates a who/which question's answer is looked for among when the best is not
#: supported well enough (:func:`~.extract._decided`)
DECIDED_AMONG = 8

#: the question kinds a person's or a thing's name answers, which :data:`NAMED_COVERAGE` and :data:`DECIDED_AMONG` apply to
NAMED_KINDS = frozenset({"who", "which"})


def clears(c: Candidate, kind: str) -> bool:
    """Whether candidate ``c`` is supported well enough to answer a question of ``kind`` were it ranked first.

    >>> from .question import _PERSON
    >>> c = Candidate("Ada", _PERSON, 0.2, (0,), cover=0.12, strength=0.05)
    >>> clears(c, "who"), clears(c, "what"), clears(Candidate("Ada", _PERSON, 0.2, (0,), cover=0.5, strength=0.01), "who")
    (True, False, False)
    """
    least = NAMED_COVERAGE if kind in NAMED_KINDS else MIN_COVERAGE
    return c.strength >= MIN_SUPPORT and c.cover >= least
