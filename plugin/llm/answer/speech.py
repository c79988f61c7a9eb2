"""Quoted speech: quotations across sentences, their speakers and their introductions."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from ..engine import Passage  # noqa: F401 (a doctest example uses it)
from .words import (
    _POSSESSIVE_END,
    _Sentence,
    _sentences,  # noqa: F401 (a doctest example uses it)
)

_CLOSING_QUOTE = re.compile(r"[”\"’']\s*$")

_OPENING_QUOTE = re.compile(r"^[“\"‘']")

#: a quotation opening ('… said: “Focus', '"I’ve combed') and one closing (",' said Scrooge", '?” It was …')
_OPENS = re.compile(r"(?:^|(?<=[\s(—]))[“\"‘'](?=[\w…])")

_CLOSES = re.compile(r"(?<=[\w,.!?…—-])[”\"’'](?=[\s)]|$)")

#: a closing quote and the speaker named right after it (", Taylor Cruz interjected", ',' he said')
_ATTRIBUTED = re.compile(r"(?<=[\w,.!?…—-])[”\"’']\s+(?:[A-Z]|(?:he|she|they|it)\b)")

#: the most words before a speaker's name that opens a sentence ("“…” It was Taylor Cruz’s voice")
SPEAKER_GAP = 2

#: between a closing quote and the speaker's name: nothing, a verb of saying, or "it was" ("…,' said Fred", "…?” It was Cruz’s voice")
_SAID = re.compile(r"\s+(?:(?:it\s+was|said|says|asked|replied|cried|returned|added|answered|exclaimed|whispered|continued|"
                   r"repeated|muttered|observed|rejoined|declared|remarked|called|shouted|began|went\s+on)\s+)?", re.I)

#: the most words between a speaker's name and the quotation it opens ("Sam, never one to submit to quiet, added, “…")
INTRO_GAP = 8

#: the small words a title in quotation marks may hold in lower case
_TITLE_WORDS = frozenset("a an and the of in on at to for with from by or".split())

#: the most sentences a quotation runs over
QUOTE_SENTENCES = 5


def _marks(text: str) -> list[tuple[int, bool]]:
    """The quotation marks of ``text``: (offset, opens)."""
    return sorted([(m.start(), True) for m in _OPENS.finditer(text)] + [(m.start(), False) for m in _CLOSES.finditer(text)])


def _quotation(sentences: Sequence[_Sentence], k: int, forward: bool) -> list[int]:
    """The sentences of the quotation that opens (``forward``) or closes in sentence ``k``: on to
    the sentence whose last mark closes it, or back to the one whose last mark opens it (in the
    same passage, at most :data:`QUOTE_SENTENCES`)."""
    run = [k]
    if forward:
        while len(run) < QUOTE_SENTENCES and (marks := _marks(sentences[run[-1]].text)) and marks[-1][1]:
            j = run[-1] + 1
            if j >= len(sentences) or sentences[j].passage != sentences[k].passage:
                break
            run.append(j)
        return run
    marks = _marks(sentences[k].text)
    if not marks or marks[0][1]:
        return run  # the quotation opens in this sentence
    while len(run) < QUOTE_SENTENCES:
        j = run[-1] - 1
        if j < 0 or sentences[j].passage != sentences[k].passage:
            break
        marks = _marks(sentences[j].text)
        if marks and not marks[-1][1]:
            break  # a quotation closed before: this one opened at the sentence start
        run.append(j)
        if marks:
            break
    return run


def _introduced(sentences: Sequence[_Sentence], run: Sequence[int]) -> bool:
    """Whether a quotation names its speaker itself: narrative before its opening quote in its
    first sentence ("Sam added, “…"), or a name or pronoun right after a closing quote in it ("…,” Cruz mused")."""
    first = sentences[min(run)].text
    opening = _OPENS.search(first)
    return bool(opening and len(first[: opening.start()].split()) >= 2) or any(
        _ATTRIBUTED.search(sentences[j].text) for j in run)


def _speaker(sentences: Sequence[_Sentence], k: int, a: int, b: int) -> list[int]:
    """The sentences of quoted words whose speaker the mention at ``sentences[k].text[a:b]`` is:
    a name right after a closing quote ("…secure,” Taylor Cruz interjected", "…?” It was Taylor
    Cruz’s voice", "…,' said Fred"); a name opening a sentence whose quotation follows in it or
    in the next sentence, or standing shortly before the quote ("Jordan explained their
    reasoning, “This panel…”", "Taylor snorted dismissively. “Focus, people.”"), unless the
    quotation names its speaker itself; a name opening the sentence right after a quotation
    that does not (“…” Cruz's voice was …)."""
    s = sentences[k]
    text = s.text
    possessive = _POSSESSIVE_END.search(text[a:b]) is not None and not re.match(r"\s+(?:voice|words|tone)\b", text[b:])
    if possessive:
        return []
    opens = list(_OPENS.finditer(text, 0, a))
    ends = [m.end() for m in opens]
    for c in _CLOSES.finditer(text, 0, a):
        last = bisect.bisect_right(ends, c.start()) - 1  # the last quotation mark opened before it
        quoted = text[opens[last].end() : c.start()] if last >= 0 else ""
        if len(quoted.split()) >= 2 and all(w[:1].isupper() or w in _TITLE_WORDS for w in re.findall(r"[\w'’-]+", quoted)):
            continue  # a title in quotation marks ("the publisher of 'A Christmas Carol,' …"), not words said
        if _SAID.fullmatch(text[c.end() : a]) and re.search(r"[,!?…—-]", text[c.start() - 1 : c.start() + 1]):
            return _quotation(sentences, k, forward=False) + _goes_on(sentences, k)
    before = text[:a]
    if k > 0 and sentences[k - 1].passage == s.passage and _CLOSING_QUOTE.search(sentences[k - 1].text) \
            and len(before.split()) <= SPEAKER_GAP and not _marks(before):
        run = _quotation(sentences, k - 1, forward=False)
        return [] if _introduced(sentences, run) else run
    opening = _OPENS.search(text, b)
    if opening and not _marks(before) and (len(before.split()) <= SPEAKER_GAP or len(text[b : opening.start()].split()) <= INTRO_GAP) \
            and not re.search(r"[.;!?]", text[b : opening.start()]) and re.search(r"[,:]\s*$", text[: opening.start()]):
        return _quotation(sentences, k, forward=True)
    if k + 1 < len(sentences) and sentences[k + 1].passage == s.passage and _OPENING_QUOTE.match(sentences[k + 1].text) \
            and not _marks(text) and (len(text[b:].split()) <= SPEAKER_GAP + 1 or len(before.split()) <= SPEAKER_GAP
                                      or re.match(r"['’]s\s+(?:voice|words|tone)\b", text[b - 2 :])):
        run = _quotation(sentences, k + 1, forward=True)
        return [] if any(_ATTRIBUTED.search(sentences[j].text) for j in run) else run
    return []


#: a sentence that opens with a speaker and a verb of saying ("Sam asked.", "She replied, …")
_SAYS = re.compile(r"^(?:[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’-]*)?)\s+(?:said|says|asked|replied|cried|returned|added|answered|"
                   r"exclaimed|whispered|continued|repeated|muttered|observed|rejoined|declared|remarked|called|shouted|noted|mused)\b")


def _goes_on(sentences: Sequence[_Sentence], k: int) -> list[int]:
    """The quotations right after sentence ``k`` that name no speaker of their own: the same
    speaker goes on ('“You've been quiet, Sam,” Alex noted. “Your take on these signals?”').

    >>> ss = _sentences([Passage('"You have been quiet, Sam," Alex noted. "Your take on the signals?" '
    ...                          '"Mine?" Sam asked. "Nothing yet."', "c")])
    >>> _goes_on(ss, 0), _goes_on(ss, 3)
    ([1], [4])
    >>> _goes_on(_sentences([Passage('"Quiet," Alex noted. Sam looked up. "Your take?"', "c")]), 0)
    []
    """
    run: list[int] = []
    j = k + 1
    while j < len(sentences) and sentences[j].passage == sentences[k].passage and len(run) < QUOTE_SENTENCES:
        text = sentences[j].text
        if not (_OPENING_QUOTE.match(text) and _CLOSING_QUOTE.search(text)) or _ATTRIBUTED.search(text):
            break
        if j + 1 < len(sentences) and sentences[j + 1].passage == sentences[k].passage and _SAYS.match(sentences[j + 1].text):
            break  # '“Mine?” Sam asked.', split after the question mark: another speaker
        run.append(j)
        j += 1
    return run
