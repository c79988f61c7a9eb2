"""Word meaning from WordNet 3.0: whether a noun names a kind of another (:func:`is_a`), whether a noun is
a category specific enough to type an answer (:func:`is_category`), and a word's synonyms (:func:`synonyms`).

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
import sqlite3
import threading
from importlib import resources

#: the senses of a word (most frequent first) that :func:`is_a` reads: rarer ones make every word a kind of
#: something ("man" is a chess piece in its seventh sense)
SENSES = 4

#: the least depth (hypernym steps to the top, ``entity``) of a noun's first sense for it to type an answer:
#: "object" and "substance" are kinds of almost everything
MIN_DEPTH = 4

#: light nouns: they say that something is asked, not what kind of thing ("what sort of thing", "which one")
LIGHT_NOUNS = frozenset("thing things stuff something one ones kind kinds sort sorts type types item items part parts piece "
                        "pieces bit bits lot matter name names way".split())

_LOCAL = threading.local()


def _db() -> sqlite3.Connection:
    db: sqlite3.Connection | None = getattr(_LOCAL, "db", None)
    if db is None:
        path = resources.files("ragprov").joinpath("data/wordnet/lexicon.sqlite")
        db = _LOCAL.db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    return db


@functools.lru_cache(maxsize=8192)
def lemmas(word: str, pos: str = "n") -> tuple[str, ...]:
    """The WordNet lemmas ``word`` is a form of (``pos``: "n" noun, "v" verb): itself, its irregular
    base forms, or the regular ones (WordNet's own detachment rules, ``morphy``), those WordNet has.

    >>> lemmas("Transmitters"), lemmas("men"), lemmas("boxes"), lemmas("xyzzy")
    (('transmitter',), ('man', 'men'), ('box',), ())
    >>> lemmas("grabbed", "v"), lemmas("flies", "v")
    (('grab',), ('fly',))
    """
    w = " ".join(word.lower().replace("_", " ").split())
    db = _db()
    found = [r for (r,) in db.execute("SELECT lemma FROM form WHERE form = ? AND pos = ?", (w, pos))] + [w]
    for suffix, ending in _DETACH[pos]:
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            found.append(w[: len(w) - len(suffix)] + ending)
    out = [x for x in dict.fromkeys(found)
           if db.execute("SELECT 1 FROM sense WHERE lemma = ? AND pos = ? LIMIT 1", (x, pos)).fetchone()]
    return tuple(out)


#: WordNet's detachment rules (``morphy``): an inflection's ending and the base form's
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
}


@functools.lru_cache(maxsize=8192)
def _synsets(word: str, pos: str = "n", senses: int | None = None) -> tuple[int, ...]:
    """The synsets of ``word`` (any of its :func:`lemmas`), most frequent sense first, the first ``senses`` of each."""
    out: list[int] = []
    for lemma in lemmas(word, pos):
        rows = _db().execute("SELECT synset FROM sense WHERE lemma = ? AND pos = ? ORDER BY rank", (lemma, pos)).fetchall()
        out.extend(s for (s,) in rows[:senses])
    return tuple(dict.fromkeys(out))


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
    ``category`` (any of its senses): WordNet puts that category among its hypernyms, or the head noun of
    one of them, or of the word's own synonyms, is the category (a compound names a kind of its head:
    "day of the week", "calendar day" are days). A word is no kind of itself.

    >>> is_a("ruler", "instrument"), is_a("ruler", "person"), is_a("drone", "aircraft"), is_a("Monday", "weekday")
    (True, True, True, True)
    >>> is_a("day", "Sunday"), is_a("ruler", "fabric"), is_a("man", "piece"), is_a("sundays", "sunday")
    (False, False, False, False)
    """
    kinds = set(_synsets(category))
    heads = set(lemmas(category))
    if not kinds or set(lemmas(word)) & heads:
        return False
    for s in _synsets(word, "n", senses):
        above = _ancestors(s)
        if kinds & above or any(heads & _heads(a) for a in (s, *above)):
            return True
    return False


@functools.lru_cache(maxsize=16384)
def _heads(synset: int) -> frozenset[str]:
    """The head nouns of a synset's compound lemmas: the last word, or the word before "of" ("day of the week" → day).

    >>> sorted(_heads(_synsets("sunday")[0])), sorted(_heads(_synsets("calico")[0]))
    (['day'], [])
    """
    out = set()
    for (lemma,) in _db().execute("SELECT lemma FROM sense WHERE synset = ?", (synset,)):
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


@functools.lru_cache(maxsize=8192)
def synonyms(word: str, pos: str = "n", senses: int = 1) -> frozenset[str]:
    """The one-word lemmas that share one of the first ``senses`` synsets of ``word`` (its lemmas excluded).

    >>> sorted(synonyms("grab", "v")), sorted(synonyms("calico"))
    (['catch', 'take hold of'], [])
    """
    own = set(lemmas(word, pos))
    out: set[str] = set()
    for s in _synsets(word, pos, senses):
        row = _db().execute("SELECT lemmas FROM member WHERE synset = ?", (s,)).fetchone()
        if row:
            out.update(row[0].split("\t"))
    return frozenset(out - own)
