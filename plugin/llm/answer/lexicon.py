"""Word meaning from WordNet 3.0: whether a noun names a kind of another (:func:`is_a`), whether a noun is
a category specific enough to type an answer (:func:`is_category`), and the kind a "what/which NOUN …"
question asks and how a candidate fits it (:func:`asked_kind`, :func:`kind_fit`).

The tables are ``ragprov/data/wordnet/lexicon.sqlite`` (built by ``scripts/build_wordnet_lexicon.py``
from Princeton WordNet 3.0; licence in ``NOTICE.md`` beside it). The file is opened read-only the
first time a word is looked up (importing this module costs nothing), one connection per thread;
every look-up is memoised.

>>> is_a("calico", "fabric"), is_a("Sunday", "day"), is_a("transmitters", "equipment"), is_a("rifle", "weapon")
(True, True, True, True)
>>> is_a("calico", "day"), is_a("fabric", "fabric"), is_a("Scrooge", "fabric"), is_a("tune", "fabric")
(False, False, False, False)
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from ...resources import data_dir
from ..text import STOPWORDS
from .words import (
    _FIRST_AND_SECOND_PERSON,
    _FIRST_AND_SECOND_POSSESSIVES,
    _NOT_ADVERBS,
    _OBJECT_PRONOUNS,
    _POSSESSIVE_PRONOUNS,
    _SUBJECT_PRONOUNS,
    _WH_WORDS,
    _root,
)

#: the senses of a word (most frequent first) that :func:`is_a` reads: rarer ones make every word a kind of
#: something ("man" is a chess piece in its seventh sense)
SENSES = 4

#: the senses of an asked category :func:`is_a` reads: a noun's rare senses are not what a question means by it
CATEGORY_SENSES = 3

#: the least depth (hypernym steps to the top, ``entity``) of a noun's first sense for it to type an answer:
#: "object" and "substance" are kinds of almost everything
MIN_DEPTH = 4

#: the least depth of a category's sense that :func:`is_a` reads ("state" as a condition is too general to type an answer)
SENSE_DEPTH = 3

#: light nouns: they say that something is asked, not what kind of thing ("what sort of thing", "which one")
LIGHT_NOUNS = frozenset("thing things stuff something one ones kind kinds sort sorts type types item items part parts piece "
                        "pieces bit bits lot matter name names way".split())

_LOCAL = threading.local()


def _db() -> sqlite3.Connection:
    db: sqlite3.Connection | None = getattr(_LOCAL, "db", None)
    if db is None:
        path = (data_dir() / "wordnet" / "lexicon.sqlite").resolve()  # no importlib.resources: an ask stays light
        # read-only and immutable: no lock, no journal; the URI escapes what a path may hold ("?", "#", spaces)
        db = _LOCAL.db = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    return db


@functools.lru_cache(maxsize=16384)
def _senses(word: str, pos: str) -> Mapping[str, tuple[int, ...]]:
    """The WordNet lemmas ``word`` is a form of, each with its synsets (most frequent sense first): one query;
    read-only, as the cache shares it with every caller."""
    w = " ".join(word.lower().replace("_", " ").split())
    db = _db()
    found = [r for (r,) in db.execute("SELECT lemma FROM form WHERE form = ? AND pos = ?", (w, pos))] + [w]
    for suffix, ending in _DETACH[pos]:
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            found.append(w[: len(w) - len(suffix)] + ending)
    forms = list(dict.fromkeys(found))
    rows = db.execute(f"SELECT lemma, synset FROM sense WHERE pos = ? AND lemma IN ({','.join('?' * len(forms))}) ORDER BY rank",
                      (pos, *forms)).fetchall()
    out: dict[str, list[int]] = {f: [] for f in forms}
    for lemma, synset in rows:
        out[lemma].append(synset)
    return MappingProxyType({f: tuple(v) for f, v in out.items() if v})


def lemmas(word: str, pos: str = "n") -> tuple[str, ...]:
    """The WordNet lemmas ``word`` is a form of (``pos``: "n" noun, "v" verb): itself, its irregular
    base forms, or the regular ones (WordNet's own detachment rules, ``morphy``), those WordNet has.

    >>> lemmas("Transmitters"), lemmas("men"), lemmas("boxes"), lemmas("xyzzy")
    (('transmitter',), ('man', 'men'), ('box',), ())
    >>> lemmas("grabbed", "v"), lemmas("flies", "v")
    (('grab',), ('fly',))
    """
    return tuple(_senses(word, pos))


#: WordNet's detachment rules (``morphy``): an inflection's ending and the base form's
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
}


@functools.lru_cache(maxsize=8192)
def _synsets(word: str, pos: str = "n", senses: int | None = None) -> tuple[int, ...]:
    """The synsets of ``word`` (any of its :func:`lemmas`), most frequent sense first, the first ``senses`` of each."""
    return tuple(dict.fromkeys(s for synsets in _senses(word, pos).values() for s in synsets[:senses]))


@functools.lru_cache(maxsize=16384)
def _ancestors(synset: int) -> frozenset[int]:
    """Every synset above ``synset`` (hypernyms and instance hypernyms, transitively), itself excluded."""
    out: set[int] = set()
    for (p,) in _db().execute("SELECT parent FROM parent WHERE synset = ?", (synset,)):
        out.add(p)
        out |= _ancestors(p)
    return frozenset(out)


@functools.lru_cache(maxsize=16384)
def _depth(synset: int) -> int:
    """The fewest hypernym steps from ``synset`` to a top synset (``entity``: 0)."""
    parents = [p for (p,) in _db().execute("SELECT parent FROM parent WHERE synset = ?", (synset,))]
    return 1 + min(_depth(p) for p in parents) if parents else 0


@functools.lru_cache(maxsize=8192)
def is_a(word: str, category: str, senses: int = SENSES) -> bool:
    """Whether the noun ``word`` (one of its first ``senses`` senses) names a kind, or an instance, of a
    ``category`` (one of its first :data:`CATEGORY_SENSES` but the most general, :data:`SENSE_DEPTH`):
    WordNet puts that category among its hypernyms, or the head noun of one of them, or of the word's
    own synonyms, is the category (a compound names a kind of its head:
    "day of the week", "calendar day" are days). A word is no kind of itself.

    >>> is_a("ruler", "instrument"), is_a("ruler", "person"), is_a("drone", "aircraft"), is_a("Monday", "weekday")
    (True, True, True, True)
    >>> is_a("day", "Sunday"), is_a("ruler", "fabric"), is_a("man", "piece"), is_a("sundays", "sunday")
    (False, False, False, False)
    """
    kinds, heads = _category(category)
    if not kinds or heads.intersection(lemmas(word)):
        return False
    return any(not kinds.isdisjoint(_ancestors(s)) or not heads.isdisjoint(_heads_above(s)) for s in _synsets(word, "n", senses))


@functools.lru_cache(maxsize=1024)
def _category(category: str) -> tuple[frozenset[int], frozenset[str]]:
    """The synsets :func:`is_a` reads of an asked category, and its lemmas."""
    return (frozenset(s for s in _synsets(category, "n", CATEGORY_SENSES) if _depth(s) >= SENSE_DEPTH),
            frozenset(lemmas(category)))


@functools.lru_cache(maxsize=16384)
def _heads_above(synset: int) -> frozenset[str]:
    """The head nouns of the compound lemmas of a synset and of every synset above it (:func:`_heads`)."""
    out = set(_heads(synset))
    for a in _ancestors(synset):
        out |= _heads(a)
    return frozenset(out)


@functools.lru_cache(maxsize=16384)
def _heads(synset: int) -> frozenset[str]:
    """The head nouns of a synset's compound lemmas: the last word, or the word before "of" ("day of the week" → day).

    >>> sorted(_heads(_synsets("sunday")[0])), sorted(_heads(_synsets("calico")[0]))
    (['day'], [])
    """
    out = set()
    row = _db().execute("SELECT lemmas FROM member WHERE synset = ?", (synset,)).fetchone()
    for lemma in row[0].split("\t") if row else ():
        words = lemma.split(" of ")[0].split()
        if len(words) > 1 or " of " in lemma:
            out.add(words[-1])
    return frozenset(out)


@functools.lru_cache(maxsize=4096)
def is_category(noun: str) -> bool:
    """Whether ``noun`` is a WordNet noun specific enough to say what kind of thing answers (its first
    sense at least :data:`MIN_DEPTH` steps below the top), not a light noun (:data:`LIGHT_NOUNS`).

    >>> is_category("fabric"), is_category("tune"), is_category("weapon"), is_category("day")
    (True, True, True, True)
    >>> is_category("thing"), is_category("object"), is_category("xyzzy")
    (False, False, False)
    """
    first = _synsets(noun)[:1]
    return noun.lower() not in LIGHT_NOUNS and bool(first) and _depth(first[0]) >= MIN_DEPTH


# -- answer typing: the kind of thing a "what/which NOUN …" question asks, and how a candidate fits it ----------
#: "What fabric …", "Which tune …", "Over what drink …", "What kind of lights …": the noun after the wh-word
_ASKED_NOUN = re.compile(r"^(?:\w+\s+){0,2}?(?i:what|which)\s+(?:(?P<light>[a-z]+)\s+of\s+)?(?P<n>[a-z][a-z-]*)\b(?!['’])"
                         # a verb: "What approaches the …", "What frightens him …"
                         r"(?!\s+(?:the|a|an|his|her|their|its|my|our|your|this|that|these|those|him|them|us|me|it)\b)"
                         r"(?!\s+[A-Z])"  # a verb before a name: "What approaches Mira …"
                         r"(?:\s+(?P<n2>[a-z][a-z-]*)(?=\s+(?:is|was|are|were|do|does|did|has|have|had|will|would|can|could)\b))?")

#: words after a wh-word that are no noun ("What does …", "Which of …")
_NO_NOUN = frozenset("is was are were be been am do does did has have had will would can could shall should may might must "
                     "of the a an that this these those".split())


@functools.lru_cache(maxsize=1024)
def asked_kind(question: str) -> str | None:
    """The noun a "what/which NOUN …" question asks a kind of (its WordNet lemma), when WordNet has it as a
    category specific enough to type the answer (:func:`is_category`); None otherwise.

    >>> asked_kind("What fabric does the woman want?"), asked_kind("Over what drinks do they talk?")
    ('fabric', 'drink')
    >>> asked_kind("What kind of lights flicker in the hall?"), asked_kind("Which tune does the fiddler play?")
    ('light', 'tune')
    >>> asked_kind("What approaches the team?"), asked_kind("What does Mira grab?"), asked_kind("What thing is it?")
    (None, None, None)
    >>> asked_kind("What approaches Mira after she finds the hatch?"), asked_kind("What frightens him?")
    (None, None)
    >>> asked_kind("Which Cratchit son is it?")
    >>> asked_kind("Who is the captain?"), asked_kind("Which room's doors stand open?"), asked_kind("What side of the bed is it?")
    (None, None, None)
    >>> asked_kind("Which storybook character does he see?"), asked_kind("What piece of equipment does she check?")
    ('character', 'equipment')
    """
    noun = asked_noun(question)
    found = lemmas(noun) if noun else ()
    return found[0] if found and is_category(found[0]) else None


@functools.lru_cache(maxsize=1024)
def asked_noun(question: str) -> str | None:
    """The noun after the wh-word of a "what/which NOUN …" question, as written (a compound's head, the
    noun before the auxiliary; after a light noun and "of", the noun of it); None when a verb, an
    auxiliary or a name follows the wh-word. The parser of that noun for :func:`asked_kind`,
    :func:`~ragprov.llm.answer.things._thing_head` and :mod:`~ragprov.llm.answer.slots`;
    :func:`~ragprov.llm.answer.typed.asked_class` reads the asked noun more widely for the typed rank ("which of
    the Ns", "which room's doors": a room, a name before the noun).

    >>> asked_noun("What creature hovered over the lab?"), asked_noun("Which storybook character does he see?")
    ('creature', 'character')
    >>> asked_noun("What approaches Mira?"), asked_noun("What does Mira use?"), asked_noun("What Cratchit child is it?")
    (None, None, None)
    >>> asked_noun("From what stronghold did the Lord Mayor order them?"), asked_noun("What kind of idol is it?")
    ('stronghold', 'idol')
    """
    m = _ASKED_NOUN.match(" ".join(question.split()))
    if m is None or m.group("n") in _NO_NOUN or (m.group("light") and m.group("light") not in LIGHT_NOUNS):
        return None
    # "Which storybook character does …": a compound's head, the noun before the auxiliary
    return m.group("n2") if m.group("n2") and lemmas(m.group("n2")) else m.group("n")


def manner_adverb(word: str) -> bool:
    """Whether a word is a manner adverb in "-ly": lower case, not one of :data:`.words._NOT_ADVERBS`, and
    WordNet knows it as no noun ("family", "daily") and no verb ("fly", "reply").

    >>> [manner_adverb(w) for w in ("softly", "Gently", "lonely")]  # lower case; not a listed adjective
    [True, False, False]
    >>> [manner_adverb(w) for w in ("dally", "daily")]  # WordNet: a verb; a noun
    [False, False]
    """
    return word.islower() and word.endswith("ly") and word not in _NOT_ADVERBS and not lemmas(word, "v") \
        and not lemmas(word, "n")


#: the senses of a verb :func:`same_act` reads: a verb's rare senses make every verb a synonym of another;
#: of a question's verb of many senses (more than ACT_SENSES) only its most frequent ones (WordNet orders them so)
ACT_SENSES, ASKED_ACT_SENSES = 8, 2


@functools.lru_cache(maxsize=16384)
def same_act(word: str, other: str) -> bool:
    """Whether the text's ``word`` is a form of a verb WordNet puts in one synset with the question's
    verb ``other`` (among the first :data:`ACT_SENSES` senses of ``word``, and of ``other`` when it
    has no more; of a verb of more senses only its first :data:`ASKED_ACT_SENSES`): "seized" says
    "grab"; a word is its own act only through its lemma (the caller matches forms itself). A rare
    sense of a verb of many is no act asked: "had" does not say "get", "ran" not "go", "brought" not "take".

    >>> same_act("seized", "grab"), same_act("grabbed", "seize"), same_act("seized", "scare"), same_act("the", "grab")
    (True, True, False, False)
    >>> same_act("had", "get"), same_act("ran", "go"), same_act("brought", "take"), same_act("got", "have")
    (False, False, False, False)
    """
    many = max((len(s) for s in _senses(other, "v").values()), default=0) > ACT_SENSES
    mine, theirs = _synsets(word, "v", ACT_SENSES), _synsets(other, "v", ASKED_ACT_SENSES if many else ACT_SENSES)
    return bool(mine) and not set(mine).isdisjoint(theirs)


def says_act(word: str, verb: str) -> bool:
    """Whether the text's ``word`` says the act of the question's ``verb``: a form of it (one word root)
    or a verb WordNet puts in one synset with it (:func:`same_act`).

    >>> says_act("grabbed", "grab"), says_act("seized", "grab"), says_act("walked", "grab")
    (True, True, False)
    """
    return _root(word) == _root(verb) or same_act(word, verb)


#: the fit of a candidate WordNet knows as no kind of the asked noun, and of one it does not know (a name)
OTHER_FIT, UNKNOWN_FIT = 0.1, 0.6


#: the WordNet noun of each entity type the index gives
_TYPE_NOUN = {"PERSON": "person", "ORGANIZATION": "organization", "GEO": "location", "EVENT": "event"}


def kind_fit(name: str, kind: str, type_: str | None = None) -> float:
    """How well a candidate ``name`` (of entity type ``type_``) fits the ``kind`` a question asks
    (:func:`asked_kind`): 1 when WordNet makes it, or its head noun, a kind of it ("calico" a fabric;
    "halogen lights", whose head is the asked noun itself, with what sets it apart); :data:`OTHER_FIT`
    when WordNet knows its head noun as something else, or its type's noun is neither a kind of the
    asked one nor the reverse (a person is no fabric); :data:`UNKNOWN_FIT` when it knows neither (a
    name WordNet lacks may be of any kind).

    >>> kind_fit("calico", "fabric"), kind_fit("the halogen lights", "light"), kind_fit("Ali Baba", "character", "PERSON")
    (1.0, 1.0, 1.0)
    >>> kind_fit("old Joe", "fabric", "PERSON"), kind_fit("the room", "fabric"), kind_fit("Sir Roger de Coverley", "tune")
    (0.1, 0.1, 0.6)
    >>> kind_fit("Bob Cratchit", "character", "PERSON"), kind_fit("old Joe", "fabric"), kind_fit("Sam", "weapon", "PERSON")
    (0.6, 0.6, 0.1)
    """
    words = re.findall(r"[A-Za-z][\w-]*", re.split(r"\s+of\s+", name)[0])
    words = [w for w in words if w.lower() not in ("the", "a", "an", "his", "her", "their", "its", "our", "my", "your")]
    if not words:
        return UNKNOWN_FIT
    whole, head = " ".join(words), words[-1]
    typed = _TYPE_NOUN.get(type_ or "")
    if typed and typed != kind and not is_a(typed, kind) and not is_a(kind, typed, 99):
        return OTHER_FIT  # "Sam" is a person, whatever else WordNet spells so
    if is_a(whole, kind) or is_a(head, kind) or (len(words) > 1 and kind in lemmas(head)):
        return 1.0
    return OTHER_FIT if lemmas(whole) or lemmas(head) else UNKNOWN_FIT


#: a lower-case word of three letters or more
_LOWER = re.compile(r"(?<![\w'’-])[a-z][a-z-]{2,}(?![\w'’-])")

#: a name of two or three capitalised words
_CAPITALISED = re.compile(r"(?<![\w'’-])[A-Z][a-z]+(?:\s+[A-Z][a-z]+){1,2}(?![\w'’-])")

#: words that are no nouns of a text, whatever WordNet says ("must" is also grape juice, "he" a letter)
_FUNCTION_WORDS = STOPWORDS | _NO_NOUN | _SUBJECT_PRONOUNS | _OBJECT_PRONOUNS | _POSSESSIVE_PRONOUNS | _FIRST_AND_SECOND_PERSON \
    | _FIRST_AND_SECOND_POSSESSIVES | _WH_WORDS | frozenset("not no nor and or but if then than so very too also just only".split())


def kinds_in(texts: Iterable[str], kind: str) -> list[str]:
    """The lower-case nouns of ``texts`` that WordNet makes kinds of ``kind`` (:func:`is_a`), each once,
    in order; and the asked noun itself with the noun before it ("the halogen lights" for a kind of
    light: what sets it apart names its kind); and the names of several words WordNet knows as such
    kinds (not a sentence's first words: "Sam" is a person before a missile). A function word is none.

    >>> kinds_in(["If calico is not good enough, it is not good for anything.", "He wore felt."], "fabric")
    ['calico', 'felt']
    >>> kinds_in(["The halogen lights flickered; the lights went out."], "light")
    ['halogen lights']
    >>> kinds_in(["The old man laughed."], "fabric"), kinds_in(["There was Ali Baba at the window."], "character")
    ([], ['Ali Baba'])
    """
    texts = list(texts)
    joined = "\n".join(texts)
    words = [w for w in dict.fromkeys(_LOWER.findall(joined)) if w not in _FUNCTION_WORDS]  # each word once
    own = set(lemmas(kind))
    heads = [w for w in words if set(lemmas(w)) & own]
    found = {w: joined.index(w) for w in words if w not in heads and is_a(w, kind)}
    if heads:  # "halogen lights": the asked noun with the word before it, which sets its kind apart
        for m in re.finditer(r"(?<![\w'’-])([a-z][a-z-]+) (" + "|".join(map(re.escape, heads)) + r")(?![\w'’-])", joined):
            if m.group(1) not in _FUNCTION_WORDS and lemmas(m.group(1)):
                found.setdefault(m.group(0), m.start())
    for text in texts:
        for m in _CAPITALISED.finditer(text):  # a name of several words WordNet knows ("Ali Baba", a fictional character)
            if m.start() and " " in m.group(0) and m.group(0) not in found and is_a(m.group(0), kind):
                found[m.group(0)] = joined.index(m.group(0))
    return sorted(found, key=lambda w: found[w])
