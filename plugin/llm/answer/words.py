"""Words of the answer step: word roots (the stemmer), sentences and their words, name patterns and spans,
small word lists and patterns every later step reads."""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
import threading
from collections.abc import Collection, Sequence

import Stemmer

from ..engine import Passage
from ..text import content_tokens, split_sentences, tokenize

#: a word or name written as a possessor ("Scrooge's", "Cratchits'")
_POSSESSIVE_END = re.compile(r"['’]s?$")

# -- word roots ----------------------------------------------------------------------------------
#: general English forms the Snowball stemmer does not join to their word: irregular verbs' past
#: forms and participles, irregular plurals, the few nouns and adjectives of a verb that share no
#: stem with it ("death", "born") and the agent nouns of a few common verbs ("writer", "author",
#: "leader": Snowball keeps "-er", as "shoulder" is not "should"); each maps to the word whose stem it takes
_IRREGULAR = {
    "wrote": "write", "written": "write", "writer": "write", "author": "write", "authored": "write",
    "leader": "lead", "winner": "win", "born": "bear", "bore": "bear", "gave": "give", "given": "give",
    "took": "take", "taken": "take", "made": "make", "sold": "sell", "bought": "buy", "told": "tell",
    "led": "lead", "ran": "run", "went": "go", "gone": "go", "saw": "see", "seen": "see", "met": "meet",
    "kept": "keep", "held": "hold", "lost": "lose", "won": "win", "dead": "die", "death": "die",
    "marriage": "marry", "children": "child", "men": "man", "women": "woman", "people": "person",
}

# the common irregular past forms, folded into their verb
for _forms in ("sit sat", "stand stood", "speak spoke spoken", "come came", "begin began begun", "know knew known",
               "think thought", "bring brought", "feel felt", "leave left", "hear heard", "fall fell fallen",
               "rise rose risen", "wear wore worn", "draw drew drawn", "drive drove driven", "fly flew flown",
               "grow grew grown", "hide hid hidden", "hang hung", "pay paid", "send sent", "shake shook shaken",
               "sing sang sung", "sleep slept", "spend spent", "steal stole stolen", "strike struck", "swear swore sworn",
               "teach taught", "throw threw thrown", "understand understood", "wake woke woken", "weep wept",
               "fight fought", "catch caught", "choose chose chosen", "eat ate eaten", "feed fed", "break broke broken",
               "forget forgot forgotten", "mean meant", "ride rode ridden", "ring rang rung", "seek sought",
               "lend lent", "bend bent", "build built", "light lit", "shine shone", "dig dug"):
    _base, *_past = _forms.split()
    for _f in _past:
        _IRREGULAR.setdefault(_f, _base)

#: the noun suffixes of a state or office Snowball keeps, after a word of four letters or more
#: ("mentorship" → "mentor", "childhood" → "child"; not "worship", "likelihood")
_STATE = re.compile(r"(?<=\w{3}[^\Wi])(?:ship|hood)$")

#: a verb in "-ce" without its "e" before "-ed", "-ing" (English spelling drops it): Snowball takes
#: "-ic", "-ence" off "apprentice", "experience" but not off "apprenticed", "experienced"
_CE_DROPPED = re.compile(r"(?<=\w\w)c(?:ed|ing)$")

#: the Snowball English (Porter2) stemmer, PyStemmer's C build, one per thread (PyStemmer's stemmers
#: are not thread-safe, and `ragprov serve` answers asks on several threads)
_STEMMERS = threading.local()


def _stem(word: str) -> str:
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = Stemmer.Stemmer("english")
    return str(stemmer.stemWord(word))


@functools.lru_cache(maxsize=1 << 15)
def _root(token: str) -> str:
    """A word's root for matching a question against its evidence: its Snowball English (Porter2)
    stem, irregular forms first taken to their word (:data:`_IRREGULAR`). Memoised: every sentence
    of every ask's evidence goes through here.

    >>> [_root(w) for w in ("wrote", "writing", "illustrator", "illustrated", "founded", "scrooge")]
    ['write', 'write', 'illustr', 'illustr', 'found', 'scroog']
    >>> [_root(w) for w in ("carries", "carried", "carrying", "plays", "played", "sits", "sat", "sitting")]
    ['carri', 'carri', 'carri', 'play', 'play', 'sit', 'sit', 'sit']

    Words that only look like another word with a suffix keep theirs:

    >>> [_root(w) for w in ("shoulder", "should", "father", "general", "generous", "men", "man")]
    ['shoulder', 'should', 'father', 'general', 'generous', 'man', 'man']

    A noun of state or office meets its noun, and a verb in "-ce" keeps its "e" before "-ed"/"-ing":

    >>> [_root(w) for w in ("mentorship", "mentor", "leadership", "childhood", "worship", "likelihood")]
    ['mentor', 'mentor', 'lead', 'child', 'worship', 'likelihood']
    >>> [_root(w) for w in ("apprenticed", "apprentice", "experienced", "experience", "noticing", "notice", "iced")]
    ['apprentic', 'apprentic', 'experi', 'experi', 'notic', 'notic', 'ice']
    """
    if token not in _IRREGULAR:
        token = _CE_DROPPED.sub("ce", _STATE.sub("", token))
    return _stem(_IRREGULAR.get(token, token))


def root_tokens(text: str) -> list[str]:
    """The roots (:func:`_root`) of a text's content words, in order: how the answer step matches
    words, for whoever ranks evidence for it.

    >>> root_tokens("Bob carried Tiny Tim; the ghosts wrote.")
    ['bob', 'carri', 'tini', 'tim', 'ghost', 'write']
    """
    return [_root(t) for t in content_tokens(text)]


def _roots(text: str) -> frozenset[str]:
    return frozenset(root_tokens(text))


# -- evidence as sentences ----------------------------------------------------------------------
@dataclasses.dataclass
class _Sentence:
    passage: int
    text: str
    tokens: frozenset[str]  # word roots
    before: str = ""  # the passage's text before the sentence (for context windows across sentences)
    after: str = ""
    paragraph: int = 0  # the number of its paragraph in its passage (a blank line ends one)

    @functools.cached_property
    def low(self) -> str:
        return self.text.lower()

    @functools.cached_property
    def words(self) -> tuple[list[int], list[int], list[tuple[str, ...]]]:
        """The sentence's whitespace-separated words: their starts, their ends and their roots."""
        found = [(m.start(), m.end(), _word_roots(m.group(0))) for m in re.finditer(r"\S+", self.text)]
        return [w[0] for w in found], [w[1] for w in found], [w[2] for w in found]

    @functools.cached_property
    def context(self) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
        """The roots of the :data:`WINDOW` words before the sentence and after it, in its passage."""
        return [_word_roots(w) for w in self.before.split()[-WINDOW:]], [_word_roots(w) for w in self.after.split()[:WINDOW]]


@functools.lru_cache(maxsize=1 << 16)
def _word_roots(word: str) -> tuple[str, ...]:
    return tuple(_root(t) for t in content_tokens(word))


def _sentences(passages: Sequence[Passage]) -> list[_Sentence]:
    """The sentences of the passages, in order, each with its passage's index and its paragraph's
    number (dialogue turns are paragraphs).

    >>> [(s.text, s.paragraph) for s in _sentences([Passage("Alex turned.\\n\\n  Jordan nodded. He left.", "c")])]
    [('Alex turned.', 0), ('Jordan nodded.', 1), ('He left.', 1)]
    """
    return [_Sentence(i, *parts) for i, p in enumerate(passages) for parts in _split(p.text)]


@functools.lru_cache(maxsize=1024)
def _split(text: str) -> tuple[tuple[str, frozenset[str], str, str, int], ...]:
    """A passage's sentences of three characters or more (text, word roots, the 200 characters
    before and after, the paragraph's number), memoised by its text: DRIFT answers each of its
    local searches and then the question from evidence holding many of the same reports and
    descriptions.

    >>> _split("Marley was dead.  To begin with.")[1][:2]
    ('To begin with.', frozenset({'begin'}))
    >>> [(s[0], s[4]) for s in _split("STAVE ONE\\n\\nMarley was dead. To begin with.")]
    [('STAVE ONE Marley was dead.', 1), ('To begin with.', 1)]
    >>> [(s[0], s[4]) for s in _split("“I wonder—”\\n\\n“Don’t.” Alex said.")]  # the turn it ends in, with its speaker
    [('“I wonder—” “Don’t.”', 1), ('Alex said.', 1)]
    """
    flat = " ".join(text.split())
    # where each paragraph starts in the text with its white space collapsed
    starts, at = [], 0
    for para in re.split(r"\n\s*\n", text):
        if para.split():
            starts.append(at)
            at += len(" ".join(para.split())) + 1
    out = []
    for a, b in split_sentences(flat):
        s = flat[a:b].strip()
        if len(s) >= 3:  # a sentence over a blank line (a heading, a quotation's turns) is of the paragraph it ends in
            out.append((s, _roots(s), flat[max(0, a - 200) : a], flat[b : b + 200], max(0, bisect.bisect_right(starts, b - 1) - 1)))
    return tuple(out)


_IRREGULAR_PLURALS = {"wives": "wife", "children": "child", "men": "man", "women": "woman", "people": "person"}


def _noun(word: str) -> str:
    """A noun's singular form, lower case ("Sisters" → "sister", "wives" → "wife")."""
    w = re.sub(r"['’]s?$", "", word.lower())
    if w in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[w]
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


_WORD = re.compile(r"[A-Za-z][\w'’.-]*[\w'’]|[A-Za-z]")

_ARTICLES = re.compile(r"^(?:the|a|an)\s+", re.I)


def _key(name: str) -> str:
    return " ".join(tokenize(_ARTICLES.sub("", name.strip())))


@functools.lru_cache(maxsize=4096)  # the same names recur across a DRIFT run's answers (re's own cache holds 512)
def _name_pattern(name: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.findall(r"[\w'’.-]+", name) if w]
    return re.compile(r"(?<![\w])" + r"[\s\-]+".join(words) + r"(?:['’]s)?(?![\w])", re.I)


@functools.lru_cache(maxsize=4096)
def _name_words(name: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in re.findall(r"[\w'’.-]+", name) if w)


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _name_spans(name: str, text: str, low: str | None = None) -> list[tuple[int, int]]:
    """Where ``text`` names ``name``: what :func:`_name_pattern` finds (its words in any case,
    apart by spaces or hyphens, a possessive ``'s`` taken along, not inside a longer word), found
    with string searches — compiling a pattern per name cost more than the searches (a DRIFT run
    meets some 300 names). ``low``: ``text.lower()``, when the caller has it.

    >>> _name_spans("Jacob Marley", "Old Jacob  Marley's ghost; jacob-marley, Jacob Marleys.")
    [(4, 19), (27, 39)]
    """
    words = _name_words(name)
    if low is None:
        low = text.lower()
    if not words or len(low) != len(text):  # a character whose lower case is longer: the pattern
        return [m.span() for m in _name_pattern(name).finditer(text)]
    first, n = words[0], len(text)
    out: list[tuple[int, int]] = []
    start = low.find(first)
    while start >= 0:
        end = start + len(first)
        if start == 0 or not _word_char(text[start - 1]):
            for word in words[1:]:
                gap = end
                while gap < n and (text[gap].isspace() or text[gap] == "-"):
                    gap += 1
                if gap == end or not low.startswith(word, gap):
                    end = -1
                    break
                end = gap + len(word)
            if end >= 0:
                if (low.startswith("'s", end) or low.startswith("’s", end)) and (end + 2 >= n or not _word_char(text[end + 2])):
                    end += 2
                if end >= n or not _word_char(text[end]):
                    out.append((start, end))
                    start = low.find(first, end)
                    continue
        start = low.find(first, start + 1)
    return out


# -- closed word classes: each written once here; a module that reads a part of one derives it -------------
#: the third-person personal pronouns as subjects, as objects, and as possessive determiners ("his house")
_SUBJECT_PRONOUNS = frozenset("he she it they".split())
_OBJECT_PRONOUNS = frozenset("him her it them".split())
_POSSESSIVE_PRONOUNS = frozenset("his her its their".split())

#: the pronouns of a person or people: the third-person ones less those of a thing
_PERSON_SUBJECTS = _SUBJECT_PRONOUNS - {"it"}
_PERSON_OBJECTS = _OBJECT_PRONOUNS - {"it"}
_PERSON_POSSESSIVES = _POSSESSIVE_PRONOUNS - {"its"}

#: the object pronouns that may stand for a thing or things ("pressed it down"), not a person's
_THING_OBJECTS = _OBJECT_PRONOUNS - {"him", "her"}

#: the pronouns of the speaker and of the one spoken to, as subjects and objects, and as possessive determiners
_FIRST_AND_SECOND_PERSON = frozenset("i we me us you".split())
_FIRST_AND_SECOND_POSSESSIVES = frozenset("my our your".split())

#: the determiners: articles, demonstratives and possessive pronouns ("the", "these", "her")
_DETERMINERS = frozenset("the a an this that these those".split()) | _POSSESSIVE_PRONOUNS | _FIRST_AND_SECOND_POSSESSIVES

#: the prepositions (and "as", "like", "than" before a noun phrase); each module reads the part it needs
_PREPOSITIONS = frozenset("aboard about above across after against along among around as at before behind below beneath "
                          "beside besides between beyond by during except for from in inside into like near of on onto "
                          "outside over past since than through throughout to toward towards under underneath until upon "
                          "with within without".split())

#: the prepositions of place (a where-answer's phrase follows one)
_PLACE_PREPOSITIONS = frozenset("above across at behind below beneath beside from in inside into near on onto outside over "
                                "through to toward towards under upon within".split())

#: the wh-words, and those that ask for a person
_WH_WORDS = frozenset("who whom whose what which where when why how".split())
_PERSON_WH = frozenset("who whom whose".split())


def _any_of(words: Collection[str]) -> str:
    """A regular expression (a non-capturing group) matching any one of ``words``, the longest first.

    >>> _any_of({"in", "into", "on"})
    '(?:into|in|on)'
    """
    return "(?:" + "|".join(sorted(words, key=lambda w: (-len(w), w))) + ")"


_DETERMINER = re.compile(r"(?:\b(?:the|a|an|his|her|their|its|our|my|your|this|that)\s+)$", re.I)

#: the finite forms of "be" a question opens with ("Is/Was X P?") and after which its verb is a participle
_FINITE_BE = frozenset("is are was were".split())

_AUXILIARIES = frozenset("is was are were be been being am has have had do does did will would can could shall should may might must"
                         .split())


def _affix(short: Sequence[str], long: Sequence[str]) -> bool:
    """``short`` begins or ends ``long``, which is at most two words longer ("Jacob" / "Jacob
    Marley", "Scrooge" / "Ebenezer Scrooge"; not "Scrooge" / "Mr Scrooge nephew").

    >>> _affix(["jacob"], ["jacob", "marley"]), _affix(["scrooge"], ["mr", "scrooge", "nephew"])
    (True, False)
    """
    n = len(short)
    if not 0 < n < len(long) <= n + 2:
        return False
    return list(long[:n]) == list(short) or list(long[-n:]) == list(short)


#: words in "-ly" that are not manner adverbs (nouns, adjectives, verbs)
_NOT_ADVERBS = frozenset("family friendly unfriendly lonely lovely elderly lively deadly costly early holy ugly silly "
                         "jolly only assembly supply reply apply comply rely ally belly bully monopoly anomaly "
                         "melancholy homely curly surly fly july italy lily jelly sly".split())

#: words either side of a mention that count as its context
WINDOW = 8

#: endings that mark a word as an adjective rather than a noun ("jolly", "central", "famous")
#: (nouns ending -ity, -ary, -ory, -ery are no adjectives: "the security room", "the library wing")
_ADJECTIVE_END = re.compile(r"(?:(?<!it)(?<!ar)(?<!or)(?<!er)y|ful|ous|ive|al|ic|less|able|ible|ish)$")

_CLAUSE_MARK = re.compile(r"[,;:!?()\"“”—–]|--")
