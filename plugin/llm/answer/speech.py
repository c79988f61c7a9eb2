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
#: or a verb of saying before the speaker (",' returned the nephew")
_ATTRIBUTED = re.compile(r"(?<=[\w,.!?…—-])[”\"’']\s+(?:[A-Z]|(?:he|she|they|it|said|says|asked|replied|cried|returned|added|answered|"
                         r"exclaimed|whispered|repeated|muttered|observed|rejoined|declared|remarked|shouted)\b)")

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


#: words a question quotes ("Who says 'God bless us'?", 'Who whispers "What secrets …?"'): a quote mark after a space or at the start
_QUOTED = re.compile(r"(?:^|(?<=\s))[“\"‘'](?P<w>[^“”\"‘’']*?(?:['’][a-z]+[^“”\"‘’']*?)*)[”\"’'](?=[\s?.!,;:]|$)")


def _quoted(question: str) -> list[tuple[str, ...]]:
    """The words of each phrase of two words or more that a question quotes, lower case.

    >>> _quoted("Who answers Alex's praise with 'You can count on me'?"), _quoted('Who says "God bless us, every one"?')
    ([('you', 'can', 'count', 'on', 'me')], [('god', 'bless', 'us', 'every', 'one')])
    >>> _quoted("Who says the team is being pulled into someone else's game?"), _quoted("Who said 'Humbug'?")
    ([], [])
    """
    out = []
    for m in _QUOTED.finditer(question):
        words = tuple(re.findall(r"[a-z0-9]+(?:'[a-z]+)?", m.group("w").lower().replace("’", "'")))
        if len(words) >= 2:
            out.append(words)
    return out


def _says_quoted(text: str, quoted: Sequence[tuple[str, ...]]) -> bool:
    """Whether ``text`` has the words of one of the phrases :func:`_quoted` gives, in order and together.

    >>> _says_quoted('"Thank you, Alex," Jordan said. "You can count on me."', [("you", "can", "count", "on", "me")])
    True
    >>> _says_quoted('"You can count the stars," Jordan said. "On me."', [("you", "can", "count", "on", "me")])
    False
    """
    words = " " + " ".join(re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower().replace("’", "'"))) + " "
    return any(f" {' '.join(q)} " in words for q in quoted)


def _together(s: _Sentence, t: _Sentence) -> bool:
    """Whether two sentences stand in one paragraph of one passage: a quotation, its speaker's
    name and the words around it that say who speaks keep to a paragraph (a new one is a new turn).

    >>> a, b, c = _sentences([Passage('Alex turned. "Pawns."\\n\\nJordan nodded.', "c")])
    >>> _together(a, b), _together(b, c)
    (True, False)
    """
    return s.passage == t.passage and s.paragraph == t.paragraph


def _marks(text: str) -> list[tuple[int, bool]]:
    """The quotation marks of ``text``: (offset, opens)."""
    return sorted([(m.start(), True) for m in _OPENS.finditer(text)] + [(m.start(), False) for m in _CLOSES.finditer(text)])


def _quotation(sentences: Sequence[_Sentence], k: int, forward: bool) -> list[int]:
    """The sentences of the quotation that opens (``forward``) or closes in sentence ``k``: on to
    the sentence whose last mark closes it, or back to the one whose last mark opens it (in the
    same paragraph, at most :data:`QUOTE_SENTENCES`).

    >>> ss = _sentences([Passage('Taylor snorted. “Focus, people. We have protocols. Speculation is useless.” Alex sat.', "c")])
    >>> _quotation(ss, 1, forward=True), _quotation(ss, 3, forward=False), _quotation(ss, 4, forward=True)
    ([1, 2, 3], [3, 2, 1], [4])
    """
    run = [k]
    if forward:  # on while the last mark opens, through sentences without one ("“Focus. We have protocols. Speculation is …”")
        marks = _marks(sentences[k].text)
        is_open = bool(marks) and marks[-1][1]
        while is_open and len(run) < QUOTE_SENTENCES:
            j = run[-1] + 1
            if j >= len(sentences) or not _together(sentences[j], sentences[k]):
                break
            run.append(j)
            marks = _marks(sentences[j].text)
            is_open = not marks or marks[-1][1]
        return run
    marks = _marks(sentences[k].text)
    if not marks or marks[0][1]:
        return run  # the quotation opens in this sentence
    while len(run) < QUOTE_SENTENCES:
        j = run[-1] - 1
        if j < 0 or not _together(sentences[j], sentences[k]):
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
    first sentence ("Sam added, “…"), or a name or pronoun right after a closing quote in it ("…,”
    Cruz mused"); or it goes on from a quotation whose speaker is named right before it ('“I've been
    thinking,” Alex started. “About what's at stake.”').

    >>> ss = _sentences([Passage('"I have been thinking," Alex started. "About the stakes." Jordan looked up.', "c")])
    >>> _introduced(ss, [1]), _introduced(_sentences([Passage('Alex sat. "About the stakes." Jordan looked up.', "c")]), [1])
    (True, False)
    """
    first = sentences[min(run)].text
    opening = _OPENS.search(first)
    before = min(run) - 1
    return bool(opening and len(first[: opening.start()].split()) >= 2) or any(
        _ATTRIBUTED.search(sentences[j].text) for j in run) or (
        before >= 0 and _together(sentences[before], sentences[min(run)]) and _ATTRIBUTED.search(sentences[before].text) is not None)


def _speaker(sentences: Sequence[_Sentence], k: int, a: int, b: int) -> list[int]:
    """The sentences of quoted words whose speaker the mention at ``sentences[k].text[a:b]`` is:
    a name right after a closing quote ("…secure,” Taylor Cruz interjected", "…?” It was Taylor
    Cruz’s voice", "…,' said Fred"); a name opening a sentence whose quotation follows in it or
    in the next sentence, or standing shortly before the quote ("Jordan explained their
    reasoning, “This panel…”", "Taylor snorted dismissively. “Focus, people.”"), unless the
    quotation names its speaker itself; a name opening the sentence right after a quotation
    that does not (“…” Cruz's voice was …). Each in the quotation's paragraph: a new paragraph is a new turn.

    >>> ss = _sentences([Passage('"It feels like more," Jordan said.\\n\\nAlex turned. "We are pawns."\\n\\n'
    ...                          'Jordan nodded. "I felt it."', "c")])
    >>> _speaker(ss, 1, 0, 4), _speaker(ss, 3, 0, 6)  # not Jordan's the pawns, across the paragraph break
    ([2], [4])
    >>> ss = _sentences([Passage('"It is more, isn\\'t it?" Alex turned. "We are pawns." Jordan nodded. "I felt it."', "c")])
    >>> _speaker(ss, 1, 0, 4), _speaker(ss, 3, 0, 6)  # without paragraphs, a beat between quotations is the next one's
    ([2], [4])
    >>> ss = _sentences([Passage('"Is it more?" Cruz\\'s voice was low. "Pawns."', "c")])
    >>> _speaker(ss, 1, 0, 6)  # must not: "X's voice" is the quotation before's
    [0]
    >>> ss = _sentences([Passage("'Good afternoon!' said Scrooge. 'I am sorry.' 'Good day.' Fred asked. 'Why?'", "c")])
    >>> _speaker(ss, 1, 5, 12), _speaker(ss, 4, 0, 4)  # must not: an attribution is no beat
    ([0], [3])
    >>> ss = _sentences([Passage('"I have been thinking," Alex started. "About the stakes." Jordan looked up. '
    ...                          '"It comes at a price."', "c")])
    >>> _speaker(ss, 2, 0, 6)  # the quotation before goes on from Alex's: Jordan's is the one after
    [3]
    >>> _speaker(_sentences([Passage('Jordan looked up. Alex sat down.', "c")]), 0, 0, 6)
    []
    >>> ss = _sentences([Passage('Jordan sat. “If this is understood..." Taylor said, quieter, "It could change the game.”', "c")])
    >>> _speaker(ss, 2, 0, 6)  # the quotation before the name and the one its sentence opens
    [1, 2]
    """
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
    spoken = []
    if k > 0 and _together(sentences[k - 1], s) and _CLOSING_QUOTE.search(sentences[k - 1].text) \
            and len(before.split()) <= SPEAKER_GAP and not _marks(before):
        run = _quotation(sentences, k - 1, forward=False)
        if not _introduced(sentences, run):
            spoken = run  # and the quotation the same sentence opens ('“If this …” Taylor said, quieter, “It could …”')
    opening = _OPENS.search(text, b)
    if opening and not _marks(before) and (len(before.split()) <= SPEAKER_GAP or len(text[b : opening.start()].split()) <= INTRO_GAP) \
            and not re.search(r"[.;!?]", text[b : opening.start()]) and re.search(r"[,:]\s*$", text[: opening.start()]):
        spoken = spoken + _quotation(sentences, k, forward=True)
    elif not before.strip() and not _VOICE.match(text[b:]) and not _SAYS.match(text):
        # a beat between two quotations is the next one's ("Alex turned. “…”"; not "said Scrooge.", "Sam asked.")
        spoken = _next_quotation(sentences, k, a, b) or spoken
    spoken = spoken or _next_quotation(sentences, k, a, b)
    return spoken + _turns(sentences, spoken) if spoken else []


#: after a name, its voice or words: what it says is the quotation before ("“…” Cruz's voice was low")
_VOICE = re.compile(r"(?:['’]s?)?\s+(?:voice|words|tone)\b")

#: the most turns of a two-person exchange followed to the same speaker
TURNS = 3


def _paragraph_after(sentences: Sequence[_Sentence], k: int) -> list[int]:
    """The sentences of the paragraph after sentence ``k``'s, in its passage."""
    j = k + 1
    while j < len(sentences) and _together(sentences[j], sentences[k]):
        j += 1
    out = []
    while j < len(sentences) and sentences[j].passage == sentences[k].passage and sentences[j].paragraph == sentences[k].paragraph + 1:
        out.append(j)
        j += 1
    return out


def _turns(sentences: Sequence[_Sentence], spoken: Sequence[int]) -> list[int]:
    """The later turns of a speaker in a two-person exchange: after the paragraph of the words
    ``spoken``, one that opens with another quotation (the other's turn), then one that is only
    a quotation naming no speaker (theirs again), and so on (at most :data:`TURNS`).

    >>> ss = _sentences([Passage("'Why?' said Scrooge.\\n\\n'I fell in love.'\\n\\n'Love! Good day.'\\n\\nHe left.", "c")])
    >>> _turns(ss, [0])  # the bare turn two paragraphs on is his again
    [3, 4]
    >>> _turns(ss, [2]), _turns(_sentences([Passage("'Why?' said Scrooge.\\n\\nFred sat.\\n\\n'I fell in love.'", "c")]), [0])
    ([], [])
    """
    out: list[int] = []
    last = max(spoken)
    for _ in range(TURNS):
        other = _paragraph_after(sentences, last)
        if not other or not _OPENING_QUOTE.match(sentences[other[0]].text):
            break
        mine = _paragraph_after(sentences, other[-1])
        said = " ".join(sentences[j].text for j in mine)
        if not mine or not _OPENING_QUOTE.match(said) or not _CLOSING_QUOTE.search(said) \
                or sum(1 for _, opens in _marks(said) if not opens) != 1:
            break  # not one quotation and nothing else
        out.extend(mine)
        last = mine[-1]
    return out


def _next_quotation(sentences: Sequence[_Sentence], k: int, a: int, b: int) -> list[int]:
    """The quotation opening the sentence after sentence ``k`` in its paragraph, when the mention at
    ``sentences[k].text[a:b]`` opens a beat before it or stands in a short one ("Taylor snorted
    dismissively. “Focus, people.”"), and the quotation names no speaker of its own."""
    s, text = sentences[k], sentences[k].text
    if k + 1 < len(sentences) and _together(sentences[k + 1], s) and _OPENING_QUOTE.match(sentences[k + 1].text) \
            and not _marks(text) and (len(text[b:].split()) <= SPEAKER_GAP + 1 or len(text[:a].split()) <= SPEAKER_GAP
                                      or re.match(r"['’]s\s+(?:voice|words|tone)\b", text[b - 2 :])):
        run = _quotation(sentences, k + 1, forward=True)
        return [] if any(_ATTRIBUTED.search(sentences[j].text) for j in run) else run
    return []


#: a sentence that opens with a speaker and a verb of saying ("Sam asked.", "She replied, …")
_SAYS = re.compile(r"^(?:[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’-]*)?)\s+(?:said|says|asked|replied|cried|returned|added|answered|"
                   r"exclaimed|whispered|continued|repeated|muttered|observed|rejoined|declared|remarked|called|shouted|noted|mused)\b")


def _goes_on(sentences: Sequence[_Sentence], k: int) -> list[int]:
    """The quotations right after sentence ``k`` in its paragraph that name no speaker of their
    own, of one sentence or several: the same speaker goes on ('“You've been quiet, Sam,” Alex
    noted. “Your take on these signals?”', '“… off,” Sam admitted. “If I'm right, it's a structured
    anomaly. We need to be ready.”').

    >>> ss = _sentences([Passage('"You have been quiet, Sam," Alex noted. "Your take on the signals?" '
    ...                          '"Mine?" Sam asked. "Nothing yet."', "c")])
    >>> _goes_on(ss, 0), _goes_on(ss, 3)
    ([1], [4])
    >>> _goes_on(_sentences([Passage('"Off," Sam admitted. "It is not random. It is structured." Alex nodded.', "c")]), 0)
    [1, 2]
    >>> _goes_on(_sentences([Passage('"Quiet," Alex noted. Sam looked up. "Your take?"', "c")]), 0)
    []
    >>> ss = _sentences([Passage("'Leave it,' said Scrooge. 'Much good!' 'There are things,' returned the nephew; 'Christmas.'", "c")])
    >>> _goes_on(ss, 0)
    [1]
    >>> _goes_on(_sentences([Passage('"Quiet," Alex noted.\\n\\n"Your take?"', "c")]), 0)  # a new paragraph: a new turn
    []
    """
    out: list[int] = []
    j = k + 1
    while j < len(sentences) and _together(sentences[j], sentences[k]) and len(out) < QUOTE_SENTENCES:
        if not _OPENING_QUOTE.match(sentences[j].text):
            break
        run = _quotation(sentences, j, forward=True)
        if not _CLOSING_QUOTE.search(sentences[run[-1]].text) or any(_ATTRIBUTED.search(sentences[i].text) for i in run):
            break
        after = run[-1] + 1
        if after < len(sentences) and _together(sentences[after], sentences[k]) and _SAYS.match(sentences[after].text):
            break  # '“Mine?” Sam asked.', split after the question mark: another speaker
        out.extend(run)
        j = after
    return out
