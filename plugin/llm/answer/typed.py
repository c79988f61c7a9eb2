"""Typed answers: the noun a which/what question asks its answer to be (:func:`asked_class`: "Which
spirit …?", "What kind of dealer …?", "Which of the three spirits …?") and whether a candidate is one
(:func:`called`): its own name says the noun or a kind of it (WordNet's: "the Spectre of the Mill" is
a spirit, "potatoes" a vegetable), or the evidence calls it one — in apposition ("Tom, the baker", "Tom,
an old baker"), as a predicate ("Tom is a baker"), or before it ("the baker Tom", "a baker named Tom").
A candidate the evidence never calls an N, and that WordNet does not place under N, is not known to be
the N asked; when another is, that one answers."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from .doers import _possessed
from .lexicon import LIGHT_NOUNS, SENSE_DEPTH, _ancestors, _depth, _synsets, is_category, lemmas
from .question import _TITLES
from .times import _NUMBER_WORDS
from .words import (
    _AUXILIARIES,
    _DETERMINERS,
    _FIRST_AND_SECOND_PERSON,
    _OBJECT_PRONOUNS,
    _PREPOSITIONS,
    _SUBJECT_PRONOUNS,
    _WORD,
    _any_of,
    _noun,
    _Sentence,
)

#: "Which of the (three) spirits …", "Which one of his daughters …": the class after "of" and a determiner
_OF_CLASS = re.compile(r"^(?i:" + _any_of(_PREPOSITIONS) + r"\s+)?(?i:which)\s+(?:(?:one|ones)\s+)?of\s+"
                       r"(?:" + _any_of(_DETERMINERS - {"a", "an", "this", "that"})
                       + r"|(?:[A-Z][\w.-]*\s+)*[A-Z][\w-]*['’]s?)\s+(?P<rest>.+)$")

#: "Which/What (kind of) N …", "Which Tallow child …" (a name modifying the noun): the words after the wh-word
_CLASS = re.compile(r"^(?i:" + _any_of(_PREPOSITIONS) + r"\s+)?(?i:which|what)\s+(?:(?:kind|kinds|sort|sorts|type|types)\s+of\s+)?"
                    r"(?:[A-Z][\w-]*\s+)?(?P<rest>[a-z].*)$")

#: words after "which of the" that count or qualify, not the class ("the three spirits", "the two children")
_COUNTS = frozenset(_NUMBER_WORDS) - {"zero", "one"} | {"several", "many", "few", "other"}

#: words that end the noun phrase after the wh-word (a preposition, an auxiliary, a pronoun, a determiner)
_END = (_PREPOSITIONS | _AUXILIARIES | _DETERMINERS | _SUBJECT_PRONOUNS | _OBJECT_PRONOUNS | _FIRST_AND_SECOND_PERSON
        | {"and", "or", "but", "while"})


@functools.lru_cache(maxsize=1024)
def asked_class(question: str) -> str | None:
    """The noun (its WordNet lemma) a which/what question asks its answer to be a kind of: the head of the
    noun phrase after the wh-word, after "kind of", or — plural — after "which of the"; None when a verb or
    an auxiliary follows the wh-word, or the noun is light ("which one", "what thing") or too general to type.

    >>> asked_class("Which of the three spirits wore a green robe?"), asked_class("Which of the Tallow children limped?")
    ('spirit', 'child')
    >>> asked_class("Which spirit shows him the past?"), asked_class("What kind of dealer was the old man?")
    ('spirit', 'dealer')
    >>> asked_class("Which old man, a sailor, bought the boat?"), asked_class("Which storybook figure appeared?")
    ('man', 'figure')
    >>> asked_class("Which Tallow son wears the collar?"), asked_class("Which of Mr. Bell's daughters sang?")
    ('son', 'daughter')
    >>> asked_class("Which room's door stood open?"), asked_class("Which of the men's boats sank?")
    ('room', 'boat')
    >>> asked_class("What does the baker sell?"), asked_class("Which is the oldest?"), asked_class("What thing fell?")
    (None, None, None)
    """
    text = " ".join(question.split())
    m = _OF_CLASS.match(text)
    if m:
        words = re.findall(r"[A-Za-z][\w'’-]*|[,;:?!]", m.group("rest"))
        while words and (words[0].lower() in _COUNTS or words[0][:1].isupper()):
            words = words[1:]  # "the three spirits", "the Tallow children"
        owners = [i for i, w in enumerate(words[:3]) if re.search(r"['’]s?$", w)]
        words = words[owners[0] + 1 :] if owners else words  # "which of the men's boats": a boat
    else:
        m = _CLASS.match(text)
        if m is None:
            return None
        words = re.findall(r"[A-Za-z][\w'’-]*|[,;:?!]", m.group("rest"))
    run: list[str] = []
    for w in words[:5]:
        owner = re.sub(r"['’]s?$", "", w)
        if not w[:1].isalpha() or w.lower() in _END or not w.islower():
            break
        run.append(owner)
        if owner != w:
            break  # "Which room's doors …": a room is asked
    if not run:
        return None
    head = _possessed(run)
    found = lemmas(_noun(head)) or lemmas(head)  # "spirits" the class of spirit, not the drink
    if not found or found[0] in LIGHT_NOUNS or not is_category(found[0]):
        return None
    return found[0]


#: the senses of an evidence word, and of the asked noun, that :func:`is_kind_word` reads: a word's rarer senses
#: make it a kind of almost anything ("house" a firm, "patience" a game, "well" a vessel)
WORD_SENSES, NOUN_SENSES = 1, 2


@functools.lru_cache(maxsize=16384)
def is_kind_word(word: str, noun: str) -> bool:
    """Whether a lower-case ``word`` is the asked ``noun`` (a form of it) or, in its most frequent sense, a kind of it
    (WordNet's hypernyms of one of the noun's first two senses, not the most general: :data:`.lexicon.SENSE_DEPTH`).

    >>> is_kind_word("baker", "baker"), is_kind_word("bakers", "baker"), is_kind_word("sons", "child"), is_kind_word("tom", "spirit")
    (True, True, True, False)
    >>> is_kind_word("house", "firm"), is_kind_word("patience", "game"), is_kind_word("woman", "man")
    (False, False, False)
    """
    own = lemmas(word)
    if not own or noun in own:
        return bool(own)
    kinds = {s for s in _synsets(noun, "n", NOUN_SENSES) if _depth(s) >= SENSE_DEPTH}
    return any(kinds & (_ancestors(s) | {s}) for s in _synsets(word, "n", WORD_SENSES))


def names_kind(name: str, noun: str) -> bool:
    """Whether a candidate's own name says it is a ``noun``: its head (the last word before any "of") is the noun or
    a kind of it (:func:`is_kind_word`: "the solitary lighthouse", "the Ghost of the Mill" for "ghost", "potatoes" for
    "vegetable"), or a title opens it ("Agent Rook" is an agent); a name's capitalised head is a kind only when it
    is the noun itself ("Mansion House" is no firm; "Sam Rook" no weapon).

    >>> names_kind("the Spectre of the Mill", "spectre"), names_kind("Agent Rook", "agent"), names_kind("potatoes", "vegetable")
    (True, True, True)
    >>> names_kind("Mill Pond", "spirit"), names_kind("Sam", "weapon"), names_kind("Sam Rook", "weapon")
    (False, False, False)
    >>> names_kind("Mansion House", "firm")
    False
    >>> names_kind("the solitary lighthouse", "lighthouse"), names_kind("the guessing game", "game"), names_kind("Agent", "agent")
    (True, True, False)
    >>> names_kind("the Three Spirits", "spirit"), names_kind("two bakers", "baker"), names_kind("the Tallow Sons", "son")
    (False, False, False)
    """
    head = re.split(r"\s+of\s+", name)[0]
    words = [w for w in re.findall(r"[A-Za-z][\w.-]*", head) if w.lower() not in _END]
    if not words:
        return False
    last, first = words[-1], words[0].lower().rstrip(".")
    if first in _COUNTS or first.isdigit() or (last[:1].isupper() and _noun(last) != last.lower()):
        return False  # "the Three Spirits", "the Tallow Children": a group, not one of it
    if len(words) > 1 and first in _TITLES and first not in ("old", "young") and noun in lemmas(first):
        return True  # "Agent Rook", "Captain Rook"
    if last[:1].isupper():
        return noun in lemmas(last.lower()) and (len(words) > 1 or " of " in name)  # "the Ghost of …", "Cratchit Children"
    return is_kind_word(last.lower(), noun)


#: how a name's noun is said of it after it: in apposition ("Tom, an old baker", "Tom (the baker)", "Tom, one of
#: the bakers", "Tom, who was the baker", "Tom, as Ann's son") or as its predicate ("Tom is a baker", "Tom became the
#: town's baker", "Tom and Ann are both bakers"); not denied ("Tom is not a baker"); a determiner before the noun
#: (bare only in the plural after "are"/"were"), and at most two modifiers between
_CALLED_AFTER = re.compile(r"^(?:\s*,\s*(?:(?:who|which|that)\s+(?:is|was|are|were|became)\s+|as\s+)?|\s*\(\s*|\s+(?:is|was|became|"
                           r"becomes|remains|remained|as)\s+|\s+(?:(?:who|which|that)\s+)?(?:appears?|appeared|serves?|served|acts?|"
                           r"acted|works?|worked)\s+as\s+|\s+(?P<plural>are|were)\s+)(?:(?:also|still|now|once|then|only|both)\s+)?"
                           r"(?:one\s+of\s+)?(?:(?:an?|the|his|her|their|its|our|(?:[A-Z][\w.-]*\s+)*[A-Z][\w-]*['’]s?)\s+|(?(plural)|(?!)))"
                           r"(?:(?!(?:and|or|but|not|no|of|with|who|which|that|in|on|at|to|for|by|from|as|is|was)\b)[a-z][\w-]*\s+){0,2}$")

#: how a noun introduces the name after it: "the baker, Tom", "a baker named Tom" (a determiner before the noun)
_CALLED_BEFORE = re.compile(r"^(?:,\s*|\s+(?:named|called)\s+)$")
_DETERMINED = re.compile(r"\b(?:(?i:an?|the|his|her|their|its|our)|[A-Z][\w-]*['’]s?)\s+(?:[a-z][\w-]*\s+){0,2}$")

#: what may follow the noun said of a name: the end of its phrase (punctuation, a preposition, a relative), not a
#: noun it modifies ("Tom, the baker boy"), nor the next item of a list ("the sea, a distant ship, and the reef")
_PHRASE_END = re.compile(r"^(?:\s*[.;:!?)\]—–]|\s*,(?!\s*(?:and|or)\b)|\s+(?:of|who|whom|whose|that|which|in|at|on|from|to|with|for|"
                         r"since|under|among|by)\b|\s*$)")


def called(name: str, hits: Sequence[tuple[int, int, int]], sentences: Sequence[_Sentence], noun: str) -> bool:
    """Whether a sentence naming the candidate ``name`` (``hits``: sentence, start, end) calls it a ``noun`` or a kind
    of it (:func:`is_kind_word`): in apposition or as the predicate (:data:`_CALLED_AFTER`), or introducing it
    (:data:`_CALLED_BEFORE`; a capitalised title right before it: "Agent Rook"), the noun ending its phrase
    (:data:`_PHRASE_END`). A noun the name only modifies ("the Tom party"), one a name beside it owns ("Tom's
    baker"), a list's next item ("Tom, a baker, and Ann") and one said of the name in the plural ("the Bakers, a
    boy and a girl": a family, not one of it) are not said of it.

    >>> from ragprov.llm.answer.words import _roots
    >>> s = [_Sentence(0, t, _roots(t)) for t in ("Tom, an old baker, sang.", "The baker met Ann.", "Tom is not a baker.",
    ...                                           "The Tom bakery opened.", "A baker named Tom came.", "Tom's baker came.")]
    >>> called("Tom", [(0, 0, 3)], s, "baker"), called("Tom", [(1, 15, 18)], s, "baker"), called("Tom", [(0, 0, 3)], s, "person")
    (True, False, True)
    >>> called("Tom", [(2, 0, 3)], s, "baker"), called("Tom", [(3, 4, 7)], s, "bakery"), called("Tom", [(4, 14, 17)], s, "baker")
    (False, False, True)
    >>> family = [_Sentence(0, "Bakers, a boy and a girl.", frozenset())]
    >>> called("Tom", [(5, 0, 3)], s, "baker"), called("Baker", [(0, 0, 6)], family, "boy")
    (False, False)
    >>> called("Tom", [(0, 9, 12)], [_Sentence(0, "'Oh,' said Tom, 'the baker!'", frozenset())], "baker")
    False
    >>> lists = [_Sentence(0, t, frozenset()) for t in ("Tom, Ann, a baker, and Ned came.", "Tom, joining the bakers, sang.")]
    >>> called("Ann", [(0, 5, 8)], lists, "baker"), called("Tom", [(1, 0, 3)], lists, "baker")
    (False, False)
    """
    own = set(name.split())
    for k, a, b in hits:
        text = sentences[k].text
        said = text[a:b].split()[-1:]
        if said and said[0].endswith("s") and said[0][:-1] in own:
            continue  # "the Tallows, boy and girl": a family, not one of it
        if any(_says(text, m, a, b) for m in _WORD.finditer(text) if is_kind_word(m.group(0).lower().rstrip("."), noun)):
            return True
    return False


def _says(text: str, m: re.Match[str], a: int, b: int) -> bool:
    """Whether the word ``m`` of ``text`` (a kind of the asked noun) is said of the name at ``a:b`` (:func:`called`)."""
    word = m.group(0)
    if re.search(r"['’]", word):
        return False  # "the baker's": its owner
    if m.start() >= b:  # not "the baker boy": a modifier
        return _CALLED_AFTER.match(text[b : m.start()]) is not None and _PHRASE_END.match(text[m.end() :]) is not None
    if m.end() > a:
        return False
    between = text[m.end() : a]
    if word[:1].isupper() and between == " ":
        return True  # "Agent Rook"
    return _CALLED_BEFORE.match(between) is not None and _DETERMINED.search(text[: m.start()]) is not None
