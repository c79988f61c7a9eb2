"""Relational questions ("Who is X's R?", "Who is the R of X?"): the relation asked, and the anchors and
support of a sentence that states it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from ..text import STOPWORDS, content_tokens
from .question import _TITLES, _as_who
from .words import _POSSESSIVE_END, _WORD, _noun, _root, _roots, _Sentence

# -- relational questions ("Who is X's R?", "Who is the R of X?") ----------------------------------
#: kinship and work relations and their converses ("Tiny Tim's father" is the one Tiny Tim is the son of)
_CONVERSE: dict[str, tuple[str, ...]] = {}

for _pair in ("father mother parent | son daughter child boy girl", "husband | wife", "wife | husband",
              "brother sister sibling | brother sister sibling", "uncle aunt | nephew niece",
              "grandfather grandmother | grandson granddaughter grandchild", "mentor teacher master | apprentice pupil student protege",
              "employer boss master | employee clerk servant apprentice", "partner | partner", "friend | friend"):
    _left, _right = (side.split() for side in _pair.split("|"))
    for _a in _left:
        _CONVERSE[_a] = tuple(dict.fromkeys((*_CONVERSE.get(_a, ()), *_right)))
    for _b in _right:
        _CONVERSE[_b] = tuple(dict.fromkeys((*_CONVERSE.get(_b, ()), *_left)))

_REL_WORDS = r"(?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*"

_REL_ASK = re.compile(r"^(?:who|whom|what|which\s+\w+)\s+(?:is|was|are|were)\s+(?P<rest>.+?)\s*[?.!]*$", re.I)

_REL_POSSESSIVE = re.compile(
    r"^(?:the\s+)?(?P<x>(?:[A-Z][\w.'’-]*\s+)*[A-Z][\w.-]*?)(?:['’]s|s['’])\s+(?P<r>" + _REL_WORDS + r")"
    r"(?:\s+(?:when|while|in|at|during|before|after|who|that|on|from)\b.*)?$")

_REL_OF = re.compile(
    r"^(?:the|a|an)\s+(?P<r>" + _REL_WORDS + r")\s+(?:of|to|for)\s+(?:the\s+)?(?P<x>[A-Z][\w.'’ -]*?)"
    r"(?:\s+(?:when|while|in|at|during|before|after|who|that|on|from)\b.*)?$")

_REL_MODIFIER_STOP = frozenset("name names one ones kind sort type part".split())

#: between a name and the relation phrase it is in apposition to or the subject of ("Fan is
#: Scrooge's sister", "Mrs. Cratchit, wife of Bob Cratchit", 'Tim Cratchit ("Tiny Tim"), a cripple, son of…')
_GAP_BEFORE = re.compile(
    r"^[\s,:;\"'“”‘’()]*(?:(?:is|was|are|were|became|becomes|remains|remained|as|being)\s+)?"
    r"(?:(?:also|still|now|once|truly|indeed)\s+)?(?:an?\s+(?:[a-z-]+\s+){0,2}[a-z-]+\s*,\s*)?$")

#: before a relation phrase whose possessor is the sentence's subject ("Scrooge … has a sister named Fan")
_HAS_RELATION = re.compile(r"\b(?:has|had|have|having)\s+(?:(?:a|an|one|two|three|his|her|their|an?\s+only|only)\s+)?$", re.I)

#: between a name and the possessive pronoun standing for it ("Bob Cratchit, his wife …", "Bob and his wife")
_PRONOUN_OWNER = re.compile(r"[\s,]*(?:(?:and|with)\s+)?")

#: between the relation phrase and a name that follows it ("Scrooge's nephew, Fred", "the sister of Scrooge is Fan")
#: between a name and the relation noun it is said to be ("Bob Cratchit is depicted as a devoted father")
_GAP_PREDICATE = re.compile(r"\s+(?:is|was)\s+(?:(?:also|still|now)\s+)?(?:(?:depicted|described|portrayed|shown|presented|"
                            r"characteri[sz]ed|seen)\s+as\s+)?")

_GAP_NAMED = re.compile(r"\s+(?:(?:named|called)\s+)?")

_GAP_AFTER = re.compile(r"^[\s,:\"'“”‘’(]*(?:(?:is|was|are|were|named|called)\s+)?$")


@dataclasses.dataclass(frozen=True)
class _Relation:
    """What a relational question asks: the relation noun (``head``, singular), the words that
    qualify it, its converses, and the words of the one it is relative to (the possessor)."""

    head: str
    modifiers: tuple[str, ...]
    converse: tuple[str, ...]
    of: frozenset[str]


def _relation(question: str) -> _Relation | None:
    """The relation a "Who is X's R?" / "Who is the R of X?" question asks for, if it is one.

    >>> r = _relation("Who was Scrooge's little sister?")
    >>> r.head, r.modifiers, sorted(r.of)
    ('sister', ('little',), ['scrooge'])
    >>> _relation("Who is the crippled youngest son of Bob Cratchit?").converse
    ('father', 'mother', 'parent')
    >>> _relation("What is the name of the operation at Dulce?") is None, _relation("Who wrote A Christmas Carol?") is None
    (True, True)
    >>> _relation_anchors(_relation("Who is Mrs. Fezziwig's husband?"), "Caroline's husband and Mrs. Fezziwig's husband", None)
    [(0, 10, 3, 1.0), (28, 46, 0, 1.0)]
    """
    m = _REL_ASK.match(_as_who(" ".join(question.split())))
    if not m:
        return None
    rest = m.group("rest")
    found = _REL_POSSESSIVE.match(rest) or _REL_OF.match(rest)
    if not found:
        return None
    words = found.group("r").split()
    head = _noun(words[-1])
    of = frozenset(t for t in content_tokens(found.group("x")) if t not in _TITLES)
    if head in _REL_MODIFIER_STOP or head in STOPWORDS or not of:
        return None
    return _Relation(head, tuple(w.lower() for w in words[:-1]), _CONVERSE.get(head, ()), of)


def _relation_anchors(rel: _Relation, text: str, own: re.Pattern[str] | None) -> list[tuple[int, int, int, float]]:
    """Where ``text`` states the relation: ``(start, end, kind, strength)`` spans. Kind 0: the
    relation phrase ("Scrooge's younger sister", "wife of Bob Cratchit") — a name standing in
    apposition to it or as its subject answers; kind 1: the possessor of a converse phrase whose
    other end is the one the question is about ("Bob Cratchit" in "Tiny Tim, youngest son of Bob
    Cratchit" for "Tiny Tim's father"); kind 2: a converse phrase with no possessor ("who was a
    poor apprentice": a name described by it is on the question's own side); kind 3: the possessor
    of another kinship or work relation ("the son of Fan" for Scrooge's nephew: Fan is a relative of
    the one asked for, not that one); kind 4: the relation phrase of a possessive pronoun standing
    for the question's possessor ("Bob Cratchit, his wife Mrs. Cratchit") — only a name right after
    it answers; kind 5: the relation noun said of a subject with no possessor ("Bob Cratchit is
    depicted as a devoted father"), a weaker witness. "Scrooge … has a sister named Fan" is a
    kind-0 phrase; the possessor of the asked relation who is not the question's one ("Caroline's
    husband" for Mrs. Fezziwig's husband) is kind 3. ``own``: how the text names
    the question's possessor.
    ``strength`` (0–1): how far the words qualifying the relation agree with the question's
    ("the eldest son" is a weak witness for "the youngest son")."""
    out: list[tuple[int, int, int, float]] = []
    mods = {_root(m) for m in rel.modifiers}
    share = len(mods & _roots(text)) / len(mods) if mods else 1.0
    words = list(_WORD.finditer(text))
    for n, w in enumerate(words):
        noun = _noun(w.group(0))
        converse = noun in rel.converse and noun != rel.head
        if noun != rel.head and not converse:
            out.extend(_other_relation_anchor(text, words, n, noun))
            continue
        if _POSSESSIVE_END.search(w.group(0)):
            continue  # "Scrooge's niece's sisters": the niece is not the one asked about
        j, start = _qualifiers_start(text, words, n)
        phrase = _Phrase(n, j, start, converse)
        owner, phrase_start = _possessor(text, words, phrase)
        if owner is None:
            out.extend(_unowned_anchor(text, words, phrase, own, share))
        else:
            out.extend(_owned_anchor(rel, text, words, phrase, owner, phrase_start, own, mods, share))
    return out


@dataclasses.dataclass(frozen=True)
class _Phrase:
    """A relation phrase :func:`_relation_anchors` found: the index of its relation noun (``n``)
    among the text's words, of the word before its qualifiers (``j``; -1: none), where the
    qualifiers start (``start``) and whether the noun is a converse of the asked one."""

    n: int
    j: int
    start: int
    converse: bool


def _other_relation_anchor(text: str, words: Sequence[re.Match[str]], n: int, noun: str) -> list[tuple[int, int, int, float]]:
    """The kind-3 anchor of another kinship or work noun ``words[n]``: its possessor ("the son of
    Fan", "Tiny Tim's mother": Fan and Tiny Tim are the relatives of someone else there, not the
    one another relation asks for)."""
    w = words[n]
    if noun not in _CONVERSE or _POSSESSIVE_END.search(w.group(0)):
        return []
    other = re.match(r"\s+of\s+((?:[A-Z][\w.'’-]*\s*)+)", text[w.end() :])
    if other:
        return [(w.end() + other.start(1), w.end() + other.end(1), 3, 1.0)]
    if n > 0 and re.search(r"['’]s$", words[n - 1].group(0)) and words[n - 1].group(0)[:1].isupper():
        return [(words[n - 1].start(), words[n - 1].end(), 3, 1.0)]
    return []


def _qualifiers_start(text: str, words: Sequence[re.Match[str]], n: int) -> tuple[int, int]:
    """The up to three lower-case words qualifying the relation noun ``words[n]`` ("younger" in
    "Scrooge's younger sister"): the index of the word before them (-1: none) and where they start."""
    j, start, quals = n - 1, words[n].start(), 0
    while j >= 0 and quals < 3 and words[j].group(0).islower() and words[j].group(0).lower() not in STOPWORDS \
            and not _POSSESSIVE_END.search(words[j].group(0)) and not text[words[j].end() : start].strip():
        start, j, quals = words[j].start(), j - 1, quals + 1
    return j, start


def _possessor(text: str, words: Sequence[re.Match[str]], phrase: _Phrase) -> tuple[tuple[int, int] | None, int]:
    """The span of the relation phrase's possessor — "X's (adj){0,3} R" or "R of/to X" — if it has
    one, and where the phrase starts (its article or pronoun included before "R of X")."""
    n, j, start = phrase.n, phrase.j, phrase.start
    if j >= 0 and re.search(r"(?:['’]s|s['’])$", words[j].group(0)) and not text[words[j].end() : start].strip():
        k = j
        while k > 0 and words[k - 1].group(0)[:1].isupper() and not text[words[k - 1].end() : words[k].start()].strip(" "):
            k -= 1
        return (words[k].start(), words[j].end()), words[k].start()
    w = words[n]
    after = re.match(r"(?:\s+(?:and|or)\s+[a-z]+)?\s+(?:of|to|for)\s+(?:the\s+)?((?:[A-Z][\w.'’-]*\s*)+)", text[w.end() :])
    if not after:
        return None, start
    if j >= 0 and words[j].group(0).lower() in ("the", "a", "an", "his", "her", "their"):
        start = words[j].start()
    return (w.end() + after.start(1), w.end() + after.end(1)), start


def _unowned_anchor(text: str, words: Sequence[re.Match[str]], phrase: _Phrase, own: re.Pattern[str] | None,
                    share: float) -> list[tuple[int, int, int, float]]:
    """The anchor of a relation phrase with no possessor (kinds 2, 0, 4 and 5), if it is one."""
    n, j, start = phrase.n, phrase.j, phrase.start
    end = words[n].end()
    if phrase.converse:
        # "Martha, who was a poor apprentice": one on the other side of the relation
        return [(start, end, 2, 1.0)]
    if own is not None and _HAS_RELATION.search(text[:start]) and own.search(text[:start]):
        # "Scrooge … has a sister named Fan": the one the question is about has the relation
        return [(start, end, 0, 0.7 + 0.3 * share)]
    if own is not None and j >= 0 and words[j].group(0).lower() in ("his", "her", "their") and any(
            _PRONOUN_OWNER.fullmatch(text[m.end() : words[j].start()]) for m in own.finditer(text[: words[j].start()])):
        # "Bob Cratchit, his wife Mrs. Cratchit": the pronoun's owner is the one the question is about
        return [(words[j].start(), end, 4, 0.7 + 0.3 * share)]
    if j >= 0 and words[j].group(0).lower() in ("a", "an", "the"):
        # "Bob Cratchit is depicted as a devoted father": a father, of someone unsaid
        return [(words[j].start(), end, 5, 0.5 * (0.7 + 0.3 * share))]
    return []


def _owned_anchor(rel: _Relation, text: str, words: Sequence[re.Match[str]], phrase: _Phrase, owner: tuple[int, int],
                  phrase_start: int, own: re.Pattern[str] | None, mods: set[str], share: float) -> list[tuple[int, int, int, float]]:
    """The anchor of a relation phrase with a possessor at ``owner`` (kinds 0, 3 and 1), if it is one."""
    n, j = phrase.n, phrase.j
    owner_words = {t for t in content_tokens(text[owner[0] : owner[1]]) if t not in _TITLES}
    phrase_end = max(words[n].end(), owner[1])
    qualifiers = {_root(x.group(0).lower()) for x in words[j + 1 : n]} - mods
    strength = (0.7 + 0.3 * share) * (0.6 if qualifiers and share < 1 else 1.0)
    if not phrase.converse:
        if owner_words & rel.of:
            return [(phrase_start, phrase_end, 0, strength)]
        if owner_words:
            # "Caroline's husband" for Mrs. Fezziwig's husband: Caroline is the relative of another one
            return [(owner[0], owner[1], 3, 1.0)]
        return []
    if own is None or owner_words & rel.of:
        return []
    # the question's person must stand in apposition to / as subject of the converse phrase
    before = [m for m in own.finditer(text[:phrase_start]) if _GAP_BEFORE.match(text[m.end() : phrase_start])]
    tail = re.match(r"[\s,:\"'“”‘’(]*(?:(?:is|was|are|were)\s+)?", text[phrase_end:])
    behind = own.match(text, phrase_end + tail.end()) if tail else None
    return [(owner[0], owner[1], 1, strength)] if before or behind else []


def _anchors(question: str, sentences: Sequence[_Sentence]) -> dict[int, list[tuple[int, int, int, float]]]:
    """The relation anchors (:func:`_relation_anchors`) of every sentence, by sentence index; empty
    when the question is not relational."""
    rel = _relation(question)
    if rel is None:
        return {}
    own = re.compile(r"(?<![\w])(?:" + "|".join(re.escape(w) for w in sorted(rel.of)) + r")(?:['’]s)?(?![\w])", re.I)
    nouns = (rel.head, *rel.converse, *_CONVERSE)
    out: dict[int, list[tuple[int, int, int, float]]] = {}
    for k, s in enumerate(sentences):
        low = s.text.lower()
        if any(n[:-1] in low for n in nouns):
            found = _relation_anchors(rel, s.text, own)
            if found:
                out[k] = found
    return out


#: between a name and the role noun describing it ("Martha, who was a poor apprentice")
_GAP_ROLE = re.compile(r"^[\s,]*(?:(?:who|that)\s+)?(?:(?:is|was|are|were|became|as)\s+)?(?:(?:an?|the)\s+)?$")


def _relation_support(s: _Sentence, a: int, b: int, anchors: Sequence[tuple[int, int, int, float]]) -> float:
    """How strongly the relation in ``anchors`` points at the name at ``s.text[a:b]`` (0: not;
    -1: the name is described by the converse role, on the other side of the relation)."""
    # a possessor ("… is Tiny Tim's mother") is not the one in the relation, unless it is the
    # possessor of the converse relation ("Tiny Tim is Bob Cratchit's son")
    possessive = _POSSESSIVE_END.search(s.text[a:b]) is not None
    best = 0.0
    for x, y, kind, strength in anchors:
        if kind == 3:
            if x <= a and b <= y + 1:
                return -1.0
            continue
        if kind == 2:
            if b <= x and _GAP_ROLE.match(s.text[b:x]):
                return -1.0
            continue
        if kind == 5:
            if not possessive and b <= x and _GAP_PREDICATE.fullmatch(s.text[b:x]):
                best = max(best, strength)
            continue
        if kind == 4:
            # "his wife Mrs. Cratchit": only the name right after the phrase (", Tiny Tim" may be a list)
            if not possessive and a >= y and _GAP_NAMED.fullmatch(s.text[y:a]):
                best = max(best, strength)
            continue
        if (kind == 1 and x <= a and b <= y + 1) or (kind == 0 and not possessive and (
                (b <= x and _GAP_BEFORE.match(s.text[b:x])) or (a >= y and _GAP_AFTER.match(s.text[y:a])))):
            best = max(best, strength)
    return best
