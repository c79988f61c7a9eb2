"""Where-answers: place phrases after a preposition of place, the subject a where-question asks about, and
the sentence that says the act happens there."""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence

from ..text import STOPWORDS, content_tokens
from .lexicon import OTHER_FIT, kind_fit
from .question import (
    _GEO,
    _Question,  # noqa: F401 (a doctest example uses it)
)
from .records import _Cand
from .things import _NOUN_PHRASE
from .words import (
    _ADJECTIVE_END,
    _AUXILIARIES,
    _CLAUSE_MARK,
    _DETERMINER,
    _key,
    _root,
    _roots,  # noqa: F401 (a doctest example uses it)
    _Sentence,
    _word_roots,
)

#: a determiner and up to three lower-case words after a preposition of place ("to the poulterer's",
#: "into a tavern", "from the crash site")
_PLACE_PHRASE = re.compile(r"\b(?:to|into|at|in|inside|within|toward|towards|from|onto)\s+((?:the|a|an|his|her|their|its|our|my|your)"
                           r"(?:\s+[a-z][\w'’-]*){1,3})")

#: how much more a place counts when its own clause says what the question asks done there
#: ("she slept at the inn" for where she slept): :func:`_sent_there`
PLACE_TIE = 1.5

_PLACE_BEFORE = re.compile(r"\b(?:to|into|at|in|inside|within|toward|towards|from|onto)\s+"
                           r"(?:(?:the|a|an|his|her|their|its|our|my|your)\s+)?$")


def _sent_there(text: str, a: int, terms: Collection[str], subject: str | None = None,
                before: re.Pattern[str] = _PLACE_BEFORE) -> bool:
    """Whether the place at ``text[a:]`` follows a preposition of place in a clause that says one
    of the question's descriptive terms (``terms``: its verb, mostly) in the eight words before it: "and she
    slept at the inn" is where she slept; "Mira sailed to Harbourton, and she slept" is not. A noun
    (a word after a determiner) counts only when it is the ``subject`` the question asks about (the
    root of "the elevator" in "Where does the elevator stop?"); a comma between the adjectives of
    one noun ("a halting, eerie calm") ends no clause.

    >>> q = _Question("Where did Mira sleep?", ["Mira"])
    >>> text = "Mira sailed to Harbourton, and she slept at the inn."
    >>> _sent_there(text, text.index("inn"), q.weight), _sent_there(text, text.index("Harbourton"), q.weight)
    (True, False)
    >>> text = "The sleep of the crew ended at the inn."  # "sleep" here is a noun: no tie
    >>> _sent_there(text, text.index("inn"), q.weight)
    False
    >>> q = _Question("Where does the boat stop?", [])
    >>> text = "As the boat came to a slow, quiet halt at the jetty, the crew waved."
    >>> _sent_there(text, text.index("the jetty"), q.weight, _asked_subject("Where does the boat stop?"))
    True
    >>> _sent_there(text, text.index("the jetty"), q.weight, _asked_subject("Where does the crew stop?"))
    False
    """
    if not before.search(text[max(0, a - 12) : a]):
        return False  # ``before``: the preposition of place (or the one the question asks with) just before it
    clause = _CLAUSE_MARK.split(_ADJECTIVE_COMMA.sub(r"\1", text[max(0, a - 80) : a]))[-1]
    words = re.findall(r"[A-Za-z][\w'’-]*", clause)[-9:]
    # a word after a determiner is a noun ("the team was descending into …" is not where the team
    # goes), unless it is the thing the question asks where it is or goes
    return any(r in terms or r == subject for before, w in itertools.pairwise(words)
               if (not _DETERMINER.search(before + " ") or _root(w.lower()) == subject) and not before.endswith(("'s", "’s"))
               for r in _word_roots(w.lower()))


#: a comma between two adjectives of one noun after a determiner ("a halting, eerie calm"): no clause ends there
_ADJECTIVE_COMMA = re.compile(r"(\b(?:the|a|an|his|her|their|its|our|my|your)\s+[a-z][\w-]*),(?=\s+[a-z][\w-]*\s+[a-z])")

#: "Where does the elevator stop?", "Where is the team's mission headed?": the noun whose place is asked
_WHERE_SUBJECT = re.compile(r"^\s*where\s+(?:does|did|do|is|was|are|were|will|would|can|could|had|has)\s+(?:the|a|an|this|that)\s+"
                            r"(?P<n>[a-z][\w-]*)(?:['’]s\s+(?P<owned>[a-z][\w-]*))?", re.I)


def _asked_subject(question: str) -> str | None:
    """The root of the noun a where-question asks the place of ("Where does the elevator stop?" →
    elevator; "Where is the team's mission headed?" → mission); None for a name ("Where does Mira …").

    >>> _asked_subject("Where does the boat stop?"), _asked_subject("Where is the team's mission headed?")
    ('boat', 'mission')
    >>> _asked_subject("Where does Mira sleep?")
    """
    m = _WHERE_SUBJECT.match(question)
    if m is None:
        return None
    return _root((m.group("owned") or m.group("n")).lower())


def _place_phrases(cands: dict[str, _Cand], sentences: Sequence[_Sentence], pattern: re.Pattern[str] = _PLACE_PHRASE,
                   kind: str | None = _GEO, asked: frozenset[str] = frozenset(), question: str = "",
                   tied: Collection[str] | None = None, before: re.Pattern[str] = _PLACE_BEFORE) -> None:
    """Add, for a where-question, the lower-case noun phrases the text puts after a preposition of
    place as place candidates ("send him to the poulterer's" → "the poulterer's"): the words up to
    the first function word, ending on a noun (no -ly adverb, no bare adjective), not part "of"
    something, in a clause saying one of ``tied`` (the question's terms; None: any clause,
    :func:`_sent_there`); a phrase that names a known entity stays that entity; a word the question says (``asked``: its roots) ends
    the phrase ("a small drone hovered" for what hovered), and a phrase that ends before a noun the
    ``question`` writes after a determiner is none ("the old lamp" for what colour the lamp is). Whether one answers is left to the
    scoring: its words around must say what the question asks (:func:`_near`).

    >>> cands: dict[str, _Cand] = {}
    >>> _place_phrases(cands, [_Sentence(0, "Scrooge sent the boy to the poulterer's in the next street.", frozenset()),
    ...                        _Sentence(0, "He ran to Camden Town and sat at the desk quickly.", frozenset())])
    >>> sorted((c.name, c.phrase, c.type) for c in cands.values())
    [('the desk', True, 'GEO'), ("the poulterer's", True, 'GEO')]
    >>> _place_phrases(cands, [_Sentence(0, "It was in the very", frozenset()),
    ...                        _Sentence(0, "He works in a small, cold cell.", frozenset())]); sorted(cands)
    ['desk', 'poulterer']

    With ``pattern`` :data:`_NOUN_PHRASE` (and ``kind`` None) it takes every such noun phrase, for a
    what/which question whose head noun no entity type answers (:func:`_thing_head`).
    """
    asked_things = {"the " + w.lower() for w in re.findall(r"\b(?:the|a|an|his|her|their|its|our|my|your)\s+([\w'’-]+)", question, re.I)}
    for k, s in enumerate(sentences):
        for m in pattern.finditer(s.text):
            span = _phrase_span(m, s.text, kind is None, asked, asked_things)
            if span is None:
                continue
            start, name = span
            if tied is not None and not _sent_there(s.text, start, tied, _asked_subject(question), before):
                continue
            if kind == _GEO and not is_place(name):
                continue  # "to my clerk", "in its festivities": a person or an event, no place
            key = _key(name)
            if key not in cands and _named_by_head(cands, key, s.passage) is not None:
                continue  # "the house" in a passage about "Bob Cratchit's House": that entity, named in full
            c = cands.get(key)
            if c is None:
                c = cands[key] = _Cand(key, name, kind, phrase=True)
            c.hits.append((k, start, start + len(name)))
            c.surfaces.append(name)


def _phrase_span(m: re.Match[str], text: str, things: bool, asked: frozenset[str], asked_things: set[str]) -> tuple[int, str] | None:
    """Where the noun phrase of a match of :func:`_place_phrases`' pattern (group 1) in ``text`` starts, and its words:
    up to the first function word or a word the question says (``asked``), ending on a noun, a place with what it is
    part of (:func:`_of_whole`), a thing not part "of" something;
    for a thing (``things``), the noun an asked act's participle qualifies ("an approaching drone"); None when it is
    the question's own thing described (``asked_things``: "the old lamp"), no noun, or an adjective of a list.

    >>> m, part = _PLACE_PHRASE.search("He sat at the desk quickly, then left."), _PLACE_PHRASE.search("in the bowels of it")
    >>> _phrase_span(m, m.string, False, frozenset(), set()), _phrase_span(part, part.string, False, frozenset(), set())
    ((10, 'the desk'), None)
    >>> top = _PLACE_PHRASE.search("It rang in the top storey of the mill, at night.")
    >>> _phrase_span(top, top.string, False, frozenset(), set()), _phrase_span(top, top.string, True, frozenset(), set())
    ((11, 'the top storey of the mill'), None)
    """
    words = m.group(1).split()
    start = m.start(1)
    acting = things and len(words) > 2 and _participle(words[1], asked)  # "an approaching drone" for what approaches
    if acting:
        words = words[1:]
    end = 1
    while (end < len(words) and words[end].lower().strip("'’") not in STOPWORDS and words[end] not in _AUXILIARIES
           and not (end > 1 and asked.intersection(_word_roots(words[end])))):
        end += 1
    if end < len(words) and _NOUN_PHRASE.fullmatch(f"the {words[end]}") and f"the {words[end].lower()}" in asked_things:
        return None  # "the old lamp" for what colour the lamp is: the question's own thing, described
    while end > 1 and words[end - 1].endswith("ly"):
        end -= 1  # "at the desk quickly": an adverb is no part of the place
    last = words[end - 1]
    if end < 2 or (_ADJECTIVE_END.search(last) and not last.endswith(("'s", "’s", "able", "ey"))):  # "storey", "alley": nouns
        return None  # "in the very": no noun
    name = " ".join(words[:end])
    if acting:  # the noun ends before a word a function word follows ("drone cut through"): a verb
        following = [*words, *re.findall(r"[\w'’-]+", text[m.end(1) :])[:1], ""]
        end = next((j for j in range(2, end) if following[j + 1].lower() in STOPWORDS), end)
        start = m.start(1) + m.group(1).index(words[1], m.group(1).index(words[0]) + len(words[0]))
        name = " ".join(words[1:end])
    key = _key(name)
    rest = text[start + len(name) :]
    whole = None if things else _of_whole(rest)
    if whole:  # "the top storey of the mill": the part, with what it is part of
        name, rest = name + whole, rest[len(whole) :]
    if not key or not content_tokens(key) or re.match(r"\s+of\b", rest):
        return None  # "the floor of the barn" for a thing: the place is what it is part of
    listed = re.match(r",\s+([a-z][\w'’-]*)\s+[a-z]", rest)
    if end == len(words) == 2 and listed and listed.group(1) not in STOPWORDS:
        return None  # "in a small, cold cell": an adjective of a list, not the place
    return start, name


#: what a place is part of: "of", a determiner or a possessive name, and up to three words before a function word
_OF_WHOLE = re.compile(r"\s+of\s+(?:(?:the|a|an|his|her|their|its|our|my|your)\s+|[A-Z][\w-]*['’]s\s+)[\w'’-]+(?:\s+[\w'’-]+){0,2}")


def _of_whole(rest: str) -> str | None:
    """What the place before ``rest`` is part of, as the text says it ("of the building" in "the highest
    storey of the building, where …"), up to a function word or an -ly adverb; None when ``rest`` opens no such "of".

    >>> _of_whole(" of the building, where he lived"), _of_whole(" of Ann's quiet halls."), _of_whole(" of it")
    (' of the building', " of Ann's quiet halls", None)
    >>> _of_whole(" of the inn quickly and then"), _of_whole(" on the roof")
    (' of the inn', None)
    """
    m = _OF_WHOLE.match(rest)
    if m is None:
        return None
    words = list(re.finditer(r"\S+", m.group(0)))
    ends = [w.group(0).lower() in STOPWORDS or w.group(0).endswith("ly") for w in words]  # a function word, an -ly adverb
    if ends[2]:
        return None
    end = next((k for k in range(3, len(words)) if ends[k]), len(words))
    return m.group(0)[: words[end - 1].end()].rstrip(",;:.!?")


def _named_by_head(cands: dict[str, _Cand], key: str, passage: int) -> _Cand | None:
    """The entity a bare noun phrase ("the house") stands for in a passage about it: the one entity
    of the passage whose name ends with that noun ("Bob Cratchit's House" in "BOB CRATCHIT → BOB
    CRATCHIT'S HOUSE: Bob Cratchit lives in the house"); None when no or several do.

    >>> house = _Cand("bob cratchit s house", "BOB CRATCHIT'S HOUSE", "GEO", mentions={0})
    >>> _named_by_head({house.key: house}, "house", 0) is house, _named_by_head({house.key: house}, "house", 1)
    (True, None)
    >>> _named_by_head({house.key: house}, "inn", 0)
    """
    if " " in key:
        return None
    found = [c for c in cands.values() if passage in c.mentions and " " in c.key and c.key.rsplit(" ", 1)[1] == key]
    return found[0] if len(found) == 1 else None


def _participle(word: str, asked: frozenset[str]) -> bool:
    """Whether ``word`` is a participle (-ing, -ed) of a verb the question says (``asked``: its roots).

    >>> asked = _roots("What approaches the team?")
    >>> _participle("approaching", asked), _participle("approached", asked), _participle("approach", asked)
    (True, True, False)
    >>> _participle("waiting", asked)
    False
    """
    return word.endswith(("ing", "ed")) and bool(asked.intersection(_word_roots(word.lower())))


#: how much a place whose head noun the question itself says counts (:func:`_restates`)
RESTATED = 0.1


def _restates(name: str, asked: Collection[str]) -> bool:
    """Whether a place's head noun (its last word; ``asked``: the question's word roots) is one the
    question says: "Fred's house" for "When Scrooge calls at his nephew's house, where does the girl
    say her master is?" is the question's own setting, not the place it asks.

    >>> asked = _roots("When he calls at his nephew's house, where is her master?")
    >>> _restates("Fred's house", asked), _restates("the dining-room", asked), _restates("the master bedroom", asked)
    (True, False, False)
    """
    words = content_tokens(name)
    return bool(words) and _root(words[-1]) in asked


#: the WordNet nouns whose kinds are places one may be in, at or on (a room, a doorway, a field, a shore, a river)
_PLACE_KINDS = ("location", "structure", "area", "artifact", "geological formation", "body of water", "land")


def is_place(phrase: str) -> bool:
    """Whether the head of ``phrase`` (before any "of") may be a place: WordNet knows it as one
    (:data:`_PLACE_KINDS`, :func:`kind_fit`), or does not know it at all (a coined word may name a
    place: "the sub-level"), or it is a possessive standing for a shop or house ("the baker's"). "In
    a baker's doorway" says where, "in a fit of rage" says how, "to my clerk" to whom.

    >>> is_place("a baker's doorway"), is_place("the bank of the river"), is_place("the third sub-level")
    (True, True, True)
    >>> is_place("a fit of rage"), is_place("his mind"), is_place("my clerk"), is_place("the clerk's")
    (False, False, False, True)
    """
    if re.search(r"\w['’]s$", phrase.strip()):
        return True  # "the poulterer's": a trade's or a person's shop or house
    return any(kind_fit(phrase, kind) > OTHER_FIT for kind in _PLACE_KINDS)
