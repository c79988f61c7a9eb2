"""How a sentence speaks of a candidate: the question's words near its mention, its role as the act's
subject, a name tied to the asked noun, a sentence naming the noun."""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection

from .question import _Question
from .words import _PERSON_POSSESSIVES, _POSSESSIVE_END, _WORD, WINDOW, _root, _Sentence, _word_roots

_NOT_MODIFIER = r"(?!(?:and|or|but|nor|with|of|to|from|by|for|in|on|at|into|than|who|which|that|while|when)\b)"

#: between a name and the role noun said of it ("X is a stern R", "X, Scrooge's R", "X, who was the R", "X served as R")
#: ("X (the R)"; "X takes over the firm, becoming its R": a participle the subject's clause ends with)
_TIE_AFTER = re.compile(r"^(?:[\s,(]*|[^.;:()]*,\s*(?=becoming|being|as\b))(?:(?:who|which|that)\s+)?"
                        r"(?:(?:is|was|are|were|became|becomes|becoming|remains|remained|being|as|"
                        r"(?:serves|served|acts|acted|works|worked)\s+as)\s+)?(?:(?:also|still|now|once|then)\s+)?"
                        r"(?:(?:an?|the|his|her|their|its)\s+)?(?:" + _NOT_MODIFIER + r"[\w'’.-]+,?\s+){0,4}$", re.I)

#: between the role noun and the name it introduces ("the R, X", "a R named X", "R X")
_TIE_BEFORE = re.compile(r"^(?:\s*,\s*|\s+(?:(?:is|was|named|called)\s+)?)$", re.I)


def _tied(text: str, a: int, b: int, key: Collection[str]) -> bool:
    """Whether a role noun of ``key`` (roots) is said of the name at ``text[a:b]``: after it as its
    predicate or in apposition ("Fezziwig, a jovial old merchant", "Cruz is the team leader",
    "Cratchit, Scrooge's clerk"), or before it introducing it ("the clerk, Bob Cratchit", "a boy
    named Dick"). A role noun elsewhere in the sentence is another's ("The schoolmaster interacts
    with Fan" does not make Fan the schoolmaster).

    >>> _tied("Fezziwig, a kind old merchant, laughed.", 0, 8, {"merchant"}), _tied("The clerk, Bob Cratchit, wrote.", 11, 23, {"clerk"})
    (True, True)
    >>> _tied("The schoolmaster interacts with Fan and Scrooge.", 32, 35, {"schoolmast"})
    False
    >>> _tied("Fan and the schoolmaster spoke.", 0, 3, {"schoolmast"})
    False
    >>> _tied("Cruz (the de facto leader) and Hayes (a scientist).", 0, 4, {"lead"})
    True
    >>> _tied("Scrooge inherits it, becoming Marley's sole executor.", 0, 7, {"executor"})
    True
    """
    return _beside(text, a, b, key, _TIE_AFTER, _TIE_BEFORE)


#: between a name and the act it does ("Belle married", "Belle, who later married", "Belle had married"), and between
#: an act and the name it is done to ("married Belle", "married to Belle", "was sent by Belle")
_ACT_AFTER = re.compile(r"^\s*(?:,?\s*(?:who|that)\s+)?(?:(?:had|has|have|was|were|is|are|did|does|then|later|also|once|"
                        r"finally|never|soon)\s+){0,2}$", re.I)
_ACT_BEFORE = re.compile(r"^\s+(?:(?:to|by|with)\s+)?$", re.I)


def _acted(text: str, a: int, b: int, verbs: Collection[str]) -> bool:
    """Whether an act of ``verbs`` (roots) is said of the name at ``text[a:b]``, as its subject (the
    verb right after it, past a relative pronoun or an auxiliary) or its object (right before it).
    An act elsewhere in the sentence is another's ("Belle married another man after her
    relationship with Scrooge ended" says nothing of whom Scrooge married).

    >>> text = "Belle married another man after her relationship with Scrooge ended."
    >>> _acted(text, 0, 5, {"marri"}), _acted(text, text.index("Scrooge"), text.index("Scrooge") + 7, {"marri"})
    (True, False)
    >>> _acted("The Princess, referenced by Scrooge, married to the Groom.", 28, 35, {"marri"})
    False
    >>> _acted("She was married to Topper, who later married her.", 19, 25, {"marri"})
    True
    >>> _acted("Topper, who later married her, sang.", 0, 6, {"marri"})
    True
    """
    return _beside(text, a, b, verbs, _ACT_AFTER, _ACT_BEFORE)


def _beside(text: str, a: int, b: int, roots: Collection[str], after: re.Pattern[str], before: re.Pattern[str]) -> bool:
    """Whether a word of ``roots`` stands after the name at ``text[a:b]`` with only what ``after``
    matches between them, or before it with only what ``before`` matches.

    >>> _beside("Fred laughed.", 0, 4, {"laugh"}, re.compile(r"^\\s*$"), re.compile(r"^$"))
    True
    """
    for m in _WORD.finditer(text):
        if not set(_word_roots(m.group(0))) & set(roots):
            continue
        if m.start() >= b and after.match(text[b : m.start()]):
            return True
        if m.end() <= a and before.match(text[m.end() : a]):
            return True
    return False


def _role(text: str, a: int, b: int, verb: str) -> float:
    """How a mention at ``text[a:b]`` stands to the asked verb in its sentence: 1.4 as its subject
    (before it in the same clause, a few words away or past one phrase set off by commas: "The Lord
    Mayor, in the stronghold of the Mansion House, gave orders"; or after "by" in the passive: "…
    was carried by Bob"), 0.6 as its object (just after it), 1 otherwise (the verb is not there). A
    name in a prepositional phrase ("of the mighty Mansion House") is no subject.

    >>> text = "The Lord Mayor, in the stronghold of the mighty Mansion House, gave orders to his cooks."
    >>> verb = _root("gave")
    >>> [_role(text, text.index(n), text.index(n) + len(n), verb) for n in ("Lord Mayor", "Mansion House", "cooks")]
    [1.4, 1.0, 0.6]
    """
    role = 1.0
    in_phrase = _IN_PHRASE.search(text, 0, a) is not None
    for w in _WORD.finditer(text):
        if _root(w.group(0).lower()) != verb:
            continue
        if b <= w.start():
            between = text[b : w.start()]
            if in_phrase:
                continue
            if (len(between.split()) <= 6 and not re.search(r"[;:!?\"“”—()]|['‘’]\s|\s['‘’]", between)) \
                    or _SET_OFF.fullmatch(between):
                return 1.4
        elif a >= w.end():
            between = text[w.end() : a]
            if re.fullmatch(r"\s+by\s+(?:the\s+)?", between):
                return 1.4
            if len(between.split()) <= 4 and not re.search(r"[;:!?\"“”—()]", between):
                role = 0.6
    return role


#: a name's own phrase opened by a preposition and a determiner ("… of the mighty |Mansion House")
_IN_PHRASE = re.compile(r"\b(?:in|of|at|on|from|with|to|for|into|inside|within|near|behind|beside|under|over|through)\s+"
                        r"(?:the|a|an|his|her|their|its|our|my|your)\s+(?:[a-z][\w-]*\s+){0,2}$")

#: a phrase set off by commas between a subject and its verb (", in the stronghold of the mighty Mansion House, ")
_SET_OFF = re.compile(r"\s*,[^,;:!?\"“”—()]{1,120},\s*")

#: before a name, the noun it names: "this girl is ", "the boy was ", "a ship called ", "the girl named "
_NAMES_THE = re.compile(r"\b(?:the|this|that|a|an)\s+(?:[a-z-]+\s+)?(?P<n>[a-z]+)\s+(?:(?:is|was)|(?:(?:is|was)\s+)?(?:called|named))\s+$",
                        re.I)


def _names_the(text: str, a: int, b: int, noun: str) -> bool:
    """Whether the name at ``text[a:]`` is stated as the name of the asked noun (root ``noun``):
    the predicate of "this N is", "the N was", or after "an N called/named"; not a possessor ("the
    girl is Man's" says whose she is).

    >>> text = "This boy is Ignorance. This girl is Want. The girl is Man's."
    >>> [_names_the(text, text.index(w), text.index(w) + len(w), "girl") for w in ("Want", "Ignorance", "Man")]
    [True, False, False]
    """
    if text[b : b + 1] in ("'", "’") or _POSSESSIVE_END.search(text[a:b]):
        return False
    m = _NAMES_THE.search(text[max(0, a - 60) : a])
    return m is not None and _root(m.group("n").lower()) == noun


def decayed_weight(weight: float, distance: int) -> float:
    """A term's ``weight`` at ``distance`` words from what it describes: whole beside it, half of it
    four words away.

    >>> decayed_weight(1.0, 1), decayed_weight(1.0, 4)
    (1.0, 0.5)
    """
    return weight / (1.0 + max(0, distance - 1) / 3.0)


def _near(s: _Sentence, a: int, b: int, q: _Question, passage_tokens: frozenset[str], own: frozenset[str] = frozenset(),
          says: frozenset[str] = frozenset()) -> float:
    """How well a mention at ``s.text[a:b]`` is supported: the question's descriptive terms in
    the words around it, each counted less the further it stands (a name next to "partner"
    beats a name at the far end of a long sentence that says "partner"), blended with its
    sentence's; times how much of what the question names its passage has. A name written as a
    possessor ("Scrooge's clerk") is not the thing possessed. ``own``: the question's terms the
    name itself says, which count as next to it ("the briefing room" for where they held their briefing);
    ``says``: the question's terms the name says that do not count for its sentence."""
    # words of the sentences either side count as further away than they stand
    starts, ends, roots = s.words
    context_before, context_after = s.context
    nb, na = bisect.bisect_right(ends, a), bisect.bisect_left(starts, b)
    # a word the mention starts or ends inside leaves its other part as a word ('"Fan', 'Fan,')
    head = [_word_roots(s.text[starts[nb] : a])] if nb < len(starts) and starts[nb] < a else []
    tail = [_word_roots(s.text[b : ends[na - 1]])] if na > 0 and ends[na - 1] > b else []
    before = [*((w, 4) for w in context_before), *((w, 0) for w in [*roots[max(0, nb - WINDOW) : nb], *head])][-WINDOW:]
    after = [*((w, 0) for w in [*tail, *roots[na : na + WINDOW]]), *((w, 4) for w in context_after)][:WINDOW]
    distance: dict[str, int] = dict.fromkeys(own, 1)
    for d, word in [*((len(before) - n + x, w) for n, (w, x) in enumerate(before)), *((n + 1 + x, w) for n, (w, x) in enumerate(after))]:
        for r in word:
            if (r in q.weight or r in q.named) and d < distance.get(r, WINDOW + 1):
                distance[r] = d
    # the names the question uses count near the candidate too, at half a descriptive term's
    # weight ("Dick Wilkins and young Scrooge, as apprentices" for "Scrooge's fellow apprentice")
    named_weight = 0.5 * len(q.named)
    decayed = sum(decayed_weight(q.weight.get(t, 0.5), d) for t, d in distance.items())
    window = decayed / (q.desc_total + named_weight) if q.desc_total else 1.0
    described = 0.3 * q.describes(s.tokens - says if says else s.tokens) + 0.7 * window
    link = sum(1 for t in q.named if t in passage_tokens or t in s.tokens) / len(q.named) if q.named else 1.0
    score = described * (0.6 + 0.4 * link) if q.rest else link
    if _POSSESSIVE_END.search(s.text[a:b]) or s.text[a:b].lower() in _PERSON_POSSESSIVES:
        following = after[0][0] if after else ()
        score *= 0.3 if following and following[0] in q.weight else 0.8
    return score
