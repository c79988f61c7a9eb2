"""Offline answer extraction: from the evidence a retrieval mode kept to one stated answer.

The offline engine does not write prose; it *chooses* an answer from the evidence and says which
evidence supports it. The algorithm, deterministic and question-independent:

1. **Type the question** (:func:`classify`): who / where / when / how many / which / what / why /
   how / yes-no, and — for who, where, when and "which/what + noun" — the entity types that fit
   (GraphRAG types entities ``PERSON``, ``ORGANIZATION``, ``GEO``, ``EVENT``). Questions that only
   name an entity ("Who was Jacob Marley?") or ask for a reason or a description are answered by
   a sentence instead of a name.
2. **Collect candidates** from the evidence: the entities each passage carries (edge endpoints,
   kept entities, with their types), every known entity name found in the passages' text (the
   gazetteer the mentions make up; a person's unshared first or last name alone counts too:
   "Jordan" for Jordan Hayes), and — where nothing typed is known, e.g. plain documents —
   capitalised spans of the passages' sentences. A sentence opening with He/She/They mentions
   the person the sentence before it names first. A how-many question takes only the numbers of
   the sentences, a when question only their time expressions ("seven years ago", "that night",
   "Christmas Eve", dates, a clause saying a time by what happens then, joined to the time it
   narrows: "to-morrow when the bell tolls One") — never an entity (:func:`_span_candidates`); the
   question's terms in the scene around a count or a time count too, less than those beside it.
3. **Score** each candidate by the independent evidence that supports it: for every passage
   (duplicates counted once) the best coverage of the question's terms by a sentence naming the
   candidate (or by the passage, for a structured mention), squared so that weak mentions add
   little, summed over passages; times how well its type fits the question; the entities the
   question itself names are excluded (and names that share words with them discounted), generic
   nouns ("the ghost", "the city" — names the text also uses in lower case) discounted. The
   structure of the sentence counts where the question has one: for a relational question
   ("Who is X's R?", "Who is the R of X?") a name in apposition to or the subject of the relation
   phrase naming X ("Fan is Scrooge's sister"), or the possessor of its converse ("Tiny Tim is Bob
   Cratchit's son" for Tiny Tim's father), is strong support (:func:`_relation`); for "Who VERBs
   …?" the verb's subject beats its object (:func:`_role`); the speaker of quoted words counts as
   saying them (:func:`_speaker`). A sentence also states a relation with a possessive pronoun
   ("Bob Cratchit, his wife Mrs. Cratchit"), with "has a R named Y", or of a subject said to be
   the relation noun ("Bob Cratchit is depicted as a devoted father", a weaker witness); a name
   the text introduces ("named Fan") is a candidate even when no entity is known by it. The
   question's words a candidate's own name says are no evidence about it ("the Ghost of Christmas
   Past" for who visits "as a ghost"), unless the question asks for a name or its which-noun
   says the kind ("which holiday": "Christmas holidays").
   The rank is a weighted sum of named :data:`FEATURES` (the logs of these factors and a few
   more), weighted as their product (:data:`WEIGHTS`: ``bench/fit_answers.py`` fits others on
   the bench's training questions, which so far did not generalise). The threshold below reads
   the product itself (the candidate's *strength*).
4. **State** the best candidate in one first line with its citation numbers, or — when no
   candidate clears :data:`MIN_SUPPORT` — say that the data does not answer the question. The best
   candidate has no strength when its evidence never states the role the question asks ("Who is
   the captain of …?") nor the act and what it is done to ("Which company builds the engines?"),
   or the evidence at all not the relation asked: a name co-mentioned with the question's other
   words is no answer (:func:`_key_terms`, :func:`_states_key`); "What is the name of X's R?" asks a
   name the evidence says is the R (:func:`_tied`). A why /
   what / how question is answered by the best-aligned sentence (a why-question prefers one giving
   a reason, and reads a sentence that points back — "And that's worth more than protocol." — with
   the sentence before it), without the "A → B:" header of a relationship; a yes-no question by
   "Yes" or "No" and that sentence: "No" when the question's terms stand after a denial in their clause
   (:func:`_denies`), and no answer when the sentence covers less than :data:`YES_NO_COVERAGE`.

>>> from ragprov.llm.engine import Mention, Passage
>>> passages = [
...     Passage("SCROOGE → JACOB MARLEY: Jacob Marley was Scrooge's business partner.", "carol, chunk 1",
...             kind="relationship", mentions=(Mention("SCROOGE", "PERSON"), Mention("JACOB MARLEY", "PERSON"))),
...     Passage("SCROOGE → CITY: Scrooge's business is in the City.", "carol, chunk 2",
...             kind="relationship", mentions=(Mention("SCROOGE", "PERSON"), Mention("CITY", "GEO")))]
>>> found = extract_answer("Who was Scrooge's business partner?", passages)
>>> found.first_line
'The answer is Jacob Marley [1].'
>>> [(c.name, c.score < found.chosen.score) for c in found.rejected]
[('City', True)]
>>> extract_answer("Who won the football match in Paris?", passages).answered
False
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import math
import re
from collections.abc import Collection, Iterable, Sequence
from typing import TypeVar

import Stemmer

from .engine import Passage
from .text import STOPWORDS, content_tokens, split_sentences, tokenize

__all__ = [
    "FEATURES", "MIN_COVERAGE", "MIN_SUPPORT", "Candidate", "Extraction", "QuestionType", "candidate_features", "classify",
    "extract_answer", "root_tokens",
]

#: the least summed support a named answer needs (one passage covering the question fully gives 1)
MIN_SUPPORT = 0.03
#: the least share of the question's terms the best supporting sentence must cover
MIN_COVERAGE = 0.15
#: the support of a sentence that states the relation a relational question asks, of the candidate
RELATION_SUPPORT = 1.0

_PERSON, _ORG, _GEO, _EVENT = "PERSON", "ORGANIZATION", "GEO", "EVENT"

#: head nouns of "which/what <noun>" questions → the entity types that answer them
_HEAD_TYPES: dict[str, dict[str, float]] = {}
for _words, _types in (
    ("person people man men woman women character name boy girl child children son daughter wife husband father "
     "mother sister brother nephew niece uncle aunt friend partner clerk servant agent officer leader member "
     "ghost spirit figure employer employee owner doctor captain commander lieutenant sergeant scientist "
     "specialist expert guest visitor who", {_PERSON: 1.0, _ORG: 0.3}),
    ("place city town country location room house home street building site area region base facility "
     "village land island planet office school church where", {_GEO: 1.0, _ORG: 0.4}),
    ("company firm organization organisation group team agency unit squad business foundation institution "
     "department family society club party crew", {_ORG: 1.0, _PERSON: 0.3}),
    ("event holiday mission operation festival celebration meeting feast dinner war battle incident "
     "occasion ceremony", {_EVENT: 1.0}),
):
    for _w in _words.split():
        _HEAD_TYPES[_w] = _types

_YES_NO = re.compile(r"^(?:is|are|was|were|am|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must)"
                     r"(?:n['’]t)?\b", re.I)
_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
                 "thousand million dozen").split()
_NUMBER_WORD = "(?:" + "|".join(_NUMBER_WORDS) + ")"
#: a count: digits, or number words alone or compounded ("eighteen hundred", "five-and-twenty", "twenty-one",
#: "two and a half"); "once", "twice", "thrice" count times
_NUMBER = re.compile(r"\b(?:(?:\d[\d,.]*\d|\d|" + _NUMBER_WORD + r")(?:(?:\s+|-)(?:and(?:\s+|-))?" + _NUMBER_WORD
                     + r"){0,3}(?:\s+and\s+a\s+half)?|once|twice|thrice)\b", re.I)
_TIMES_SAID = frozenset({"once", "twice", "thrice"})
_MONTHS = "January February March April May June July August September October November December"
_MONTH = "(?:" + "|".join(_MONTHS.split()) + ")"
_ORDINAL = (r"(?:\d{1,2}(?:st|nd|rd|th)|(?:(?:twenty|thirty)-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
            r"|tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|twentieth|thirtieth)")
#: a time expression: a date, a weekday, a feast's day, "seven years ago", "this very night", "to-morrow",
#: "at midnight", "two o'clock" (month names only capitalised: "may" is a verb); an underscore of
#: italics around it does not join it to a word ("_December, 1843._")
_ONE_TIME = (
    r"(?<![^\W_])(?:(?i:" + _ORDINAL + r"\s+(?:day\s+)?of\s+)" + _MONTH + r"(?:,?\s+\d{4})?"
    r"|(?:\d{1,2}\s+)?" + _MONTH + r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?(?:,?\s+\d{4})?|\d{4}"
    r"|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
    r"|(?i:(?:Christmas|New\s+Year['’]?s?|Easter|Midsummer)[\s-]+(?:Eve|Day|morning|night|evening|time))"
    r"|(?i:(?:\d+|" + _NUMBER_WORD + r"(?:[\s-]+" + _NUMBER_WORD + r"){0,3})\s+(?:\w+\s+)?(?:seconds?|minutes?|hours?|days?|nights?|"
    r"weeks?|months?|years?|centur(?:y|ies))\s+(?:ago|before|later|earlier|since|hence))"
    r"|(?i:(?:this|that|last|next|the\s+next|the\s+same|the\s+following|the\s+previous|one|every)\s+(?:very\s+)?"
    r"(?:night|morning|evening|afternoon|day|week|month|year|hour|winter|summer|spring|autumn))"
    r"|(?i:(?:to-?morrow|to-?night|to-?day|yesterday)(?:\s+(?:night|morning|evening|afternoon))?)"
    r"|(?i:midnight|noon|dawn|daybreak|sunrise|sunset|nightfall)"
    r"|(?i:(?:\d{1,2}|" + _NUMBER_WORD + r")\s+o['’]clock)"
    r")(?![^\W_])"
)
#: a clause that says a time by what happens then ("when the bell tolls One", not the question "when
#: will he come"), up to seven words, ending its clause; a period since or until an event named by one
#: noun ("since the briefing", not "since the storm ended")
_TIME_CLAUSE = (r"(?<![\w'’])(?i:when)\s+(?!(?i:will|would|did|do|does|is|are|was|were|shall|should|can|could|has|have|had)\b)"
                r"(?:[\w'’-]+\s+){1,6}?[\w'’-]*\w(?=\s*(?:[,;:.!?()\"“”—]|['’](?:\s|$)|$)"
                r"|\s+(?:it|he|she|they|I|we|you|there)\s)"  # "When Scrooge awoke | it was so dark"
                r"|(?<![\w'’])(?i:since|until|till|during|after)\s+(?i:the|his|her|their|its|our|my|your|that|this)\s+[a-z][\w-]*"
                r"(?=\s*(?:[,;:.!?()\"“”—]|$))")
#: a time expression, with the times that follow and narrow it ("to-morrow when the bell tolls One",
#: "the next night at the same hour", "December 24, 2007")
_DATE = re.compile(r"(?:" + _ONE_TIME + r")(?:(?:,?\s+(?:at|on|in)\s+|\s+)(?:" + _ONE_TIME + r")|,?\s+(?:" + _TIME_CLAUSE + r"))*|"
                   + _TIME_CLAUSE)
_INTRODUCED = re.compile(r"\b(?:named|called)\s+((?:[A-Z][\w'’.-]*\s+)*[A-Z][\w'’-]*)")
#: a word or name written as a possessor ("Scrooge's", "Cratchits'")
_POSSESSIVE_END = re.compile(r"['’]s?$")
_CAPITALISED = re.compile(r"\b(?:[A-Z][\w'’.-]*\s+(?:(?:of|the|and|de|van|von)\s+)?)*[A-Z][\w'’-]*")


@dataclasses.dataclass(frozen=True)
class QuestionType:
    """What kind of answer a question wants: ``kind`` (who, where, when, how-many, which, what,
    why, how, yes-no), the entity types that fit (type → weight; empty: any), and whether a named
    thing (an entity, number or date) answers it or a sentence does.

    >>> classify("Who was Scrooge's partner?").types
    {'PERSON': 1.0, 'ORGANIZATION': 0.5}
    >>> classify("Which company did Scrooge run?").types
    {'ORGANIZATION': 1.0, 'PERSON': 0.3}
    >>> classify("Why does Marley visit Scrooge?").wants_name, classify("Did Scrooge change?").kind
    (False, 'yes-no')
    >>> classify("In what year was the book published?").kind, classify("In which city does it happen?").kind
    ('when', 'which')
    >>> [classify(q).kind for q in ("Isn't Marley dead?", "How long has Marley been dead?", "What year did it end?",
    ...                             "How long ago did he die?", "What time is it?", "What timepiece is it?", "How did he die?")]
    ['yes-no', 'how-many', 'when', 'when', 'when', 'what', 'how']
    """

    kind: str
    types: dict[str, float]
    wants_name: bool


def classify(question: str) -> QuestionType:
    """The :class:`QuestionType` of ``question`` (from its wh-word and, for which/what, its head noun)."""
    text = " ".join(question.strip().split())
    low = text.lower()
    words = re.findall(r"[a-z']+", low)
    first = words[0] if words else ""
    if re.match(r"how\s+long\s+ago\b|(?:(?:in|on|at|by|during|since|until|from)\s+)?(?:what|which)\s+"
                r"(?:time|year|day|date|month|hour|night|season)s?\b", low):  # "In what year …", "At what hour …"
        return QuestionType("when", {_EVENT: 1.0}, True)
    if re.match(r"how\s+(?:many|much|long|old|often|far)\b", low):
        return QuestionType("how-many", {}, True)
    if first in ("who", "whom", "whose"):
        return QuestionType("who", {_PERSON: 1.0, _ORG: 0.5}, True)
    if first == "where":
        return QuestionType("where", {_GEO: 1.0, _ORG: 0.5}, True)
    if first == "when":
        return QuestionType("when", {_EVENT: 1.0}, True)
    if first == "why":
        return QuestionType("why", {}, False)
    if first == "how":
        return QuestionType("how", {}, False)
    if first in ("which", "what", "name"):
        named = _name_of(text)
        if named is not None:  # "What is the name of Tiny Tim's doctor?": a name, of the kind its head noun says
            return QuestionType(first, dict(_HEAD_TYPES.get(_noun(_np_head(named)), {})), True)
        head = _head_types(words[1:])
        if head is not None:
            return QuestionType(first, head, True)
        return QuestionType(first, {}, first == "which")
    if _YES_NO.match(low):
        return QuestionType("yes-no", {}, False)
    # "In which city…", "Name the…", "To whom…": look for the wh-word further on
    for i, w in enumerate(words[:6]):
        if w in ("who", "whom", "whose"):
            return QuestionType("who", {_PERSON: 1.0, _ORG: 0.5}, True)
        if w in ("which", "what"):
            head = _head_types(words[i + 1 :])
            if head is not None:
                return QuestionType(w, head, True)
        if w == "where":
            return QuestionType("where", {_GEO: 1.0, _ORG: 0.5}, True)
        if w == "when":
            return QuestionType("when", {_EVENT: 1.0}, True)
    return QuestionType("what", {}, False)


#: "What is the name of NP?" asks what "Who/what is NP?" asks, a name
_NAME_OF = re.compile(r"^\s*(?:what|which)(?:['’]s|\s+(?:is|was|are|were))\s+the\s+names?\s+of\s+(?P<np>.+?)[\s?.!]*$", re.I)
#: what ends a noun phrase's head: a preposition or a relative word after it
_NP_END = re.compile(r"\s+(?:of|in|at|on|aboard|for|from|with|among|to|by|who|whom|that|which|when|while|before|after|during)\b.*$")


def _name_of(question: str) -> str | None:
    """The noun phrase a "What is the name of …?" question asks the name of, lower-case modifiers
    before a named possessor dropped ("young Scrooge's schoolmaster" → "Scrooge's schoolmaster");
    None for other questions.

    >>> _name_of("What is the name of young Scrooge's schoolmaster?"), _name_of("What was the name of the ship?")
    ("Scrooge's schoolmaster", 'the ship')
    >>> _name_of("What is the plan of the squad?") is None, _name_of("Whose name is on the stone?") is None
    (True, True)
    """
    m = _NAME_OF.match(" ".join(question.split()))
    if m is None:
        return None
    return re.sub(r"^(?:(?:the|a|an)\s+)?(?:[a-z][\w-]*\s+){1,2}(?=(?:[A-Z][\w.'’-]*\s+)*[A-Z][\w.-]*['’]s?\s)", "", m.group("np"))


def _np_head(np: str) -> str:
    """The head noun of a noun phrase: its last word before a preposition or relative word, after a
    possessor ("Tiny Tim's doctor" → "doctor", "the captain of the ship" → "captain").

    >>> _np_head("Tiny Tim's doctor"), _np_head("the captain of the whaling ship"), _np_head("the operation at Dulce")
    ('doctor', 'captain', 'operation')
    """
    words = _NP_END.sub("", np).split()
    return re.sub(r"['’]s?$", "", words[-1]).lower() if words else ""


def _as_who(question: str) -> str:
    """"What is the name of NP?" as "Who is NP?" (the relation or role it asks); other questions as they are.

    >>> _as_who("What is the name of young Scrooge's schoolmaster?"), _as_who("Who is Scrooge's clerk?")
    ("Who is Scrooge's schoolmaster?", "Who is Scrooge's clerk?")
    """
    np = _name_of(question)
    return question if np is None else f"Who is {np}?"


def _which_head(question: str) -> str | None:
    """The root of the head noun of a "which/what NOUN …" question, when it names a kind of thing.

    >>> _which_head("Which company builds the submarine engines?"), _which_head("Who is the laundress?")
    ('compani', None)
    >>> _which_head("Which room's doors stand open?")
    'room'
    """
    words = [re.sub(r"'s?$", "", w) for w in re.findall(r"[a-z']+", question.lower())]
    for i, w in enumerate(words[:6]):
        if w in ("which", "what"):
            for x in words[i + 1 : i + 7]:
                if x in ("is", "was", "are", "were", "the", "a", "an", "of", "kind", "sort", "type", "name", "names"):
                    continue
                return _root(x) if x in _HEAD_TYPES or x.rstrip("s") in _HEAD_TYPES else None
            return None
    return None


def _head_types(rest: Sequence[str]) -> dict[str, float] | None:
    """The types the head noun of a which/what phrase asks for ("what is the name of the clerk",
    "which ghost", "what kind of business")."""
    skip = {"is", "was", "are", "were", "the", "a", "an", "of", "kind", "sort", "type", "did", "does", "do", "s"}
    for w in rest[:6]:
        if w in skip:
            continue
        w = w.rstrip("'s") if w.endswith("'s") else w
        if w == "name" or w == "names":
            continue
        for form in (w, w[:-1] if w.endswith("s") else w):
            if form in _HEAD_TYPES:
                return dict(_HEAD_TYPES[form])
        return None
    return None


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A possible answer: its name, entity type (if known), score, the passages (0-based) that
    support it, and why it scored as it did."""

    name: str
    type: str | None
    score: float
    support: tuple[int, ...]
    why: str = ""
    #: the best coverage of the question's terms by one piece of supporting evidence (0–1)
    cover: float = 0.0
    #: how strongly the evidence supports it (support × type fit × novelty × …), which
    #: :data:`MIN_SUPPORT` is a threshold of; ``score`` ranks the candidates
    strength: float = 0.0


@dataclasses.dataclass(frozen=True)
class Extraction:
    """The extracted answer: the question's type, the first line (the answer in a sentence with
    its citations, or why the data does not answer), the chosen candidate, the rejected ones (best
    first), the evidence lines (passage index, text) and the cited source labels."""

    qtype: QuestionType
    first_line: str
    answered: bool
    chosen: Candidate | None
    rejected: tuple[Candidate, ...]
    evidence: tuple[tuple[int, str], ...]
    sources: tuple[str, ...]

    @property
    def support(self) -> tuple[int, ...]:
        """The passages (0-based) the stated answer rests on."""
        return self.chosen.support if self.chosen else ()


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
#: the Snowball English (Porter2) stemmer, PyStemmer's C build
_STEMMER = Stemmer.Stemmer("english")


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
    return str(_STEMMER.stemWord(_IRREGULAR.get(token, token)))


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
    out: list[_Sentence] = []
    for i, p in enumerate(passages):
        text = " ".join(p.text.split())
        for a, b in split_sentences(text):
            s = text[a:b].strip()
            if len(s) >= 3:
                out.append(_Sentence(i, s, _roots(s), text[max(0, a - 200) : a], text[b : b + 200]))
    return out


#: titles that belong to a name but do not tell people apart by themselves
_TITLES = frozenset("mr mrs miss ms dr doctor agent sir lady lord old young master captain professor".split())
#: titles that tell a man from a woman ("Mrs. Fezziwig" is not "Mr. Fezziwig")
_FORMS_OF_ADDRESS = frozenset("mr mrs miss ms sir lady lord master madam".split())
#: the forms of address of a woman: the bare surname of "Mrs. Fezziwig" names another, her husband
_WOMEN_ADDRESSED = frozenset("mrs miss ms lady madam".split())


class _Question:
    """The question's terms (word roots) split into the names it mentions and the descriptive
    rest (the relation or description asked about), each weighted by how rare it is in the
    evidence (a word every sentence has tells candidates apart less than a rare one)."""

    def __init__(self, question: str, names: Sequence[str], sentences: Sequence[_Sentence] = (),
                 kinds: dict[str, str | None] | None = None):
        kinds = kinds or {}
        self.tokens = list(dict.fromkeys(_root(t) for t in content_tokens(question)))
        # "What is the name of the operation at Dulce?": the answer may be made of the question's words
        self.asks_name = re.search(r"\b(?:name|names|called|title)\b", question, re.I) is not None
        #: the entity types of the names the question uses (a person's name inside a firm's is not the firm)
        self.kinds: dict[tuple[str, ...], set[str | None]] = {}
        asked = set(content_tokens(question))
        folded = " " + " ".join(tokenize(question)) + " "
        named: set[str] = set()
        self.names: set[tuple[str, ...]] = set()
        for name in set(names):
            toks = content_tokens(name)
            if not toks or not set(toks) <= asked or re.search(r"['’(]", name) or f" {' '.join(tokenize(name))} " not in folded:
                continue
            # a name the question writes as a name (capitalised), not a common noun ("his wife")
            m = _name_pattern(name).search(question)
            if m and m.group(0)[:1].isupper():
                named.update(toks)
                self.names.add(tuple(toks))
                self.kinds.setdefault(tuple(toks), set()).add(kinds.get(name))
        # a surname or first name alone names the person ("Scrooge's partner" names "Ebenezer
        # Scrooge", "Sam" names "Sam Rivera"), unless it qualifies a noun ("the Cratchit family")
        singles, titled = {}, set()
        for m in re.finditer(r"(?<![\w'’])([A-Z][\w'’-]*)(?:\s+([a-z][\w-]*))?", question):
            previous = re.search(r"([A-Z][\w'’.-]*)\s+$", question[: m.start()])
            if m.start() == 0 or re.match(r"\s*[A-Z]", question[m.end(1):]) or (
                    previous and previous.group(1).lower().rstrip(".") not in _TITLES):
                continue  # part of a longer name; a title before it does not count ("Agent Mercer")
            following = m.group(2) or ""
            possessive = _POSSESSIVE_END.search(m.group(1)) is not None
            if not possessive and (following in _HEAD_TYPES or following.rstrip("s") in _HEAD_TYPES):
                continue
            token = content_tokens(m.group(1))
            if token:
                singles[token[-1]] = m.group(1)
                if previous and any(tuple(content_tokens(n)) == (previous.group(1).lower().rstrip("."), token[-1]) for n in names):
                    titled.add(token[-1])  # "Mrs. Cratchit", a name the evidence knows: not every Cratchit
        for name in set(names):
            toks = content_tokens(name)
            if re.search(r"['’(]", name) or len(toks) < 2:
                continue
            core = [t for t in toks if t not in _TITLES] or toks
            if kinds.get(name) not in (_PERSON, None):
                continue  # "Scrooge" names the person, not the firm "Scrooge and Marley"
            if core[-1] in titled and len(core) > 1:
                continue  # the question names "Mrs. Cratchit": "Belinda Cratchit" is another
            if core[-1] in singles or (len(core) > 1 and core[0] in singles):
                named.update(t for t in (core[-1], core[0]) if t in singles)
                self.names.add(tuple(toks))
                self.kinds.setdefault(tuple(toks), set()).add(kinds.get(name))
        # every capitalised word inside the question is a name it uses ("A Christmas Carol", "Dulce")
        for m in re.finditer(r"(?<=\S\s)([A-Z][\w'’-]*)", question):
            named.update(content_tokens(m.group(1)))
        self.named = {_root(t) for t in named}
        self.rest = [t for t in self.tokens if t not in self.named]
        n = len(sentences) + 1
        df = {t: sum(1 for s in sentences if t in s.tokens) for t in self.rest}
        # smoothed inverse sentence frequency; a word no sentence has weighs at most as a plain
        # word (it tells no candidate apart)
        self.weight = {t: 0.5 + min(2.0, math.log((n + 5) / (df[t] + 5))) for t in self.rest}
        self.weight = {t: min(1.0, w) if not df[t] else w for t, w in self.weight.items()}
        # the head noun of "which company …" says what kind of thing answers, which the type
        # already weighs; what is asked about it is the rest ("builds the submarine engines")
        self.head = head = _which_head(question)
        if head in self.weight and len(self.weight) > 1:
            self.weight[head] *= 0.6
        self.desc_total = sum(self.weight.values())
        # a name the question uses that no evidence has: the evidence is about something else
        missing = [t for t in self.named if not any(t in s.tokens for s in sentences)]
        self.found = 1.0 - 0.8 * len(missing) / len(self.named) if self.named and sentences else 1.0

    def describes(self, tokens: frozenset[str] | set[str]) -> float:
        """The weighted share of the question's descriptive terms in ``tokens`` (1 when it has none)."""
        if not self.desc_total:
            return 1.0
        return sum(w for t, w in self.weight.items() if t in tokens) / self.desc_total

    def links(self, tokens: frozenset[str] | set[str]) -> float:
        """The share of the names' words the question uses that ``tokens`` has (1 when it names none)."""
        if not self.named:
            return 1.0
        return sum(1 for t in self.named if t in tokens) / len(self.named)

    def coverage(self, tokens: frozenset[str] | set[str]) -> float:
        """How much of the question ``tokens`` covers: its descriptive terms, then its names."""
        if not self.tokens:
            return 0.0
        link = self.links(tokens)
        return self.describes(tokens) * (0.6 + 0.4 * link) if self.rest else link

    def overlap(self, name: str, kind: str | None = None) -> float:
        """How much a candidate is the question's own: 1 for a name made of the question's words
        or a longer form of a name it uses ("Ebenezer Scrooge" when it asks about "Scrooge"),
        else a little for each of its words that is a name the question uses ("Mrs. Cratchit"
        when it asks about "Bob Cratchit"). A longer name of another kind is another thing ("Scrooge
        and Marley", a firm, when it asks about Scrooge); so is the bare surname of a woman the
        question names with her form of address (her husband's, as a rule).

        >>> _Question("Who is Mrs. Fezziwig's husband?", ["Mrs. Fezziwig", "Fezziwig"]).overlap("Fezziwig")
        0.1
        >>> _Question("Who is Mr. Fezziwig's wife?", ["Mr. Fezziwig", "Fezziwig"]).overlap("Fezziwig")
        1.0
        >>> _Question("Who danced with Mrs. Fezziwig while Scrooge watched?", ["Mrs. Fezziwig", "Scrooge"]).overlap("Scrooge")
        1.0
        """
        toks = content_tokens(name)
        roots = {_root(t) for t in toks}
        titles, asked = set(toks) & _FORMS_OF_ADDRESS, set(self.tokens) & _FORMS_OF_ADDRESS
        if (titles and asked and not titles & asked) or (not titles and any(
                set(named) & _WOMEN_ADDRESSED & asked and set(toks) <= set(named) - _FORMS_OF_ADDRESS for named in self.names)):
            pass  # "Mrs. Fezziwig" is not the "Mr. Fezziwig" the question asks about, nor her bare surname
        elif not toks or tuple(toks) in self.names or (roots <= set(self.tokens) and not self.asks_name) or any(
                _affix(named, toks) and (kind is None or not self.kinds.get(named, set()) - {None} or kind in self.kinds[named])
                for named in self.names):
            return 1.0
        return 0.1 * sum(1 for t in roots if t in self.named) / len(roots)


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
_IRREGULAR_PLURALS = {"wives": "wife", "children": "child", "men": "man", "women": "woman", "people": "person"}
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


_WORD = re.compile(r"[A-Za-z][\w'’.-]*[\w'’]|[A-Za-z]")


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


# -- candidates ---------------------------------------------------------------------------------
@dataclasses.dataclass
class _Cand:
    key: str
    name: str
    type: str | None
    mentions: set[int] = dataclasses.field(default_factory=set)  # passages naming it structurally
    hits: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)  # (sentence, start, end) naming it
    surfaces: list[str] = dataclasses.field(default_factory=list)
    determined: int = 0  # hits the text writes after an article or possessive ("the Ghost", "his clerk")
    phrase: bool = False  # a lower-case noun phrase the text puts after a place preposition (:func:`_place_phrases`)


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


#: evidence kinds that are *about* the entities they mention (a fact about its two ends, an
#: entity's description); a chunk, report or answer only names them somewhere in its text
_ABOUT_ITS_MENTIONS = frozenset({"text", "fact", "relationship", "entity", "claim"})
_DETERMINER = re.compile(r"(?:\b(?:the|a|an|his|her|their|its|our|my|your|this|that)\s+)$", re.I)


def _collect(passages: Sequence[Passage], sentences: Sequence[_Sentence], qt: QuestionType,
             question: str = "", described: Collection[str] = ()) -> dict[str, _Cand]:
    asked = _roots(question)
    cands: dict[str, _Cand] = {}
    for i, p in enumerate(passages):
        structural = p.kind in _ABOUT_ITS_MENTIONS
        for m in p.mentions:
            key = _key(m.name)
            if not key:
                continue
            c = cands.setdefault(key, _Cand(key, m.name, m.type))
            c.type = c.type or m.type
            if structural:
                c.mentions.add(i)
    if qt.kind == "how-many":
        _spans(cands, sentences, _NUMBER, "NUMBER")
    elif qt.kind == "when":
        _spans(cands, sentences, _DATE, "DATE")
    elif not cands:
        _spans(cands, sentences, _CAPITALISED, None)
    else:
        # a name the text introduces ("a sister named Fan", "a clerk called Bob") is one, known or not
        _spans(cands, sentences, _INTRODUCED, None, group=1)
    if qt.kind == "where":
        _place_phrases(cands, sentences, question=question, tied=described)
    elif qt.kind == "what" and not qt.types and (prep := _stranded(question)):
        # "What does the clerk warm himself at?": the noun phrase after that preposition, in a clause saying the act
        after = re.compile(r"\b" + prep + r"\s+((?:the|a|an|his|her|their|its|our|my|your)(?:\s+[a-z][\w'’-]*){1,3})")
        _place_phrases(cands, sentences, after, None, asked, question, tied=described,
                       before=re.compile(r"\b" + prep + r"\s+(?:(?:the|a|an|his|her|their|its|our|my|your)\s+)?$"))
    elif qt.kind == "what" and not qt.types:
        _place_phrases(cands, sentences, _NOUN_PHRASE, None, asked, question)  # "what creature": a common noun may answer
    # the gazetteer: every known name, found in every sentence; where names overlap, the longest
    # takes the words ("Scrooge" inside "Scrooge and Marley" or "Scrooge's clerk" is not a mention of Scrooge)
    known = sorted(cands.values(), key=lambda c: (-len(c.key), c.key))
    # names are looked for by string search (:func:`_name_spans`) in the sentences that hold all their words
    patterns: list[tuple[_Cand, str | re.Pattern[str], frozenset[str]]] = [
        (c, _ARTICLES.sub("", c.name.strip()) or c.name, frozenset(_roots(c.name))) for c in known]
    patterns.extend(_short_names(known, sentences))
    by_sentence = _sentences_holding(patterns, sentences)
    for c in known:
        c.hits, c.surfaces = [], []
    for k, s in enumerate(sentences):
        found: list[tuple[int, int, _Cand]] = []
        for c, pattern, _ in by_sentence[k]:
            if isinstance(pattern, str):
                found.extend((a, b, c) for a, b in _name_spans(pattern, s.text, s.low))
            else:
                found.extend((m.start(), m.end(), c) for m in pattern.finditer(s.text))
        taken: list[tuple[int, int]] = []
        for a, b, c in sorted(found, key=lambda f: (-(f[1] - f[0]), f[0])):
            if any(a < y and x < b for x, y in taken):
                continue
            taken.append((a, b))
            c.hits.append((k, a, b))
            c.surfaces.append(s.text[a:b])
            if _DETERMINER.search(s.text[max(0, a - 8) : a]):
                c.determined += 1
    return cands


_P = TypeVar("_P", bound=tuple)


def _sentences_holding(patterns: Sequence[_P], sentences: Sequence[_Sentence]) -> list[list[_P]]:
    """Per sentence, the patterns (``(candidate, pattern, word roots)``, in their order) whose words
    it has all of: the sentences a root occurs in are indexed once, and a name's are the
    intersection of its words' (looking at every sentence for every name was the cost)."""
    postings: dict[str, set[int]] = {}
    for k, s in enumerate(sentences):
        for t in s.tokens:
            postings.setdefault(t, set()).add(k)
    out: list[list[_P]] = [[] for _ in sentences]
    everywhere = range(len(sentences))
    for entry in patterns:
        words = entry[2]
        if not words:
            ks: Iterable[int] = everywhere
        else:
            sets = sorted((postings.get(t, set()) for t in words), key=len)
            ks = sets[0].intersection(*sets[1:]) if sets[0] else ()
        for k in ks:
            out[k].append(entry)
    return out


def _short_names(known: Sequence[_Cand], sentences: Sequence[_Sentence]) -> list[tuple[_Cand, re.Pattern[str], frozenset[str]]]:
    """A person's first or last name alone names them ("Jordan was not one to embrace fantastical
    theories" is about Jordan Hayes) when no other person shares that word, no entity is called
    by it, and the text never writes it in lower case (a capitalised word, not "Will" or "Hope")."""
    by_word: dict[str, list[_Cand]] = {}
    for c in known:
        words = [t for t in c.key.split() if t not in _TITLES]
        if c.type != _PERSON or len(words) < 2 or re.search(r"['’(]", c.name):
            continue
        for w in {words[0], words[-1]}:
            by_word.setdefault(w, []).append(c)
    names = {c.key for c in known}
    wanted = {w for w, hosts in by_word.items() if len(hosts) == 1 and w not in names and len(w) > 2 and w not in STOPWORDS}
    if not wanted:
        return []
    lower = {w for s in sentences for w in re.findall(r"\b[a-z][\w'’-]*", s.text)}
    return [(by_word[w][0], re.compile(r"(?<![\w'’])" + re.escape(w[:1].upper() + w[1:]) + r"(?:['’]s)?(?![\w])"), frozenset({_root(w)}))
            for w in sorted(wanted - lower)]


def _spans(cands: dict[str, _Cand], sentences: Sequence[_Sentence], pattern: re.Pattern[str], kind: str | None,
           group: int = 0) -> None:
    """Add the spans ``pattern`` (its ``group``) finds in ``sentences`` as candidates of type ``kind``."""
    lower_words = {w for s in sentences for w in re.findall(r"\b[a-z][\w'’-]*", s.text)} if kind is None else set()
    for k, s in enumerate(sentences):
        for m in pattern.finditer(s.text):
            name = m.group(group).strip(" .,'’-")
            if kind is None and (len(name) < 2 or not content_tokens(name)):
                continue  # "The", "He": a capitalised function word is not a name
            if kind is None and " " not in name and not re.sub(r"[\W_]+", "", s.text[: m.start(group)]) and (
                    name.lower() in lower_words or name.lower().endswith("ly")):
                continue  # a sentence's first word is capitalised whatever it is: a name only if never written in lower case
            key = _key(name)
            if not key:
                continue
            c = cands.setdefault(key, _Cand(key, name, kind))
            c.hits.append((k, m.start(group), m.end(group)))
            c.surfaces.append(name)


#: a determiner and up to three lower-case words after a preposition of place ("to the poulterer's",
#: "into a tavern", "from the crash site")
_PLACE_PHRASE = re.compile(r"\b(?:to|into|at|in|inside|within|toward|towards|from|onto)\s+((?:the|a|an|his|her|their|its|our|my|your)"
                           r"(?:\s+[a-z][\w'’-]*){1,3})")
#: a determiner and up to three lower-case words anywhere ("a small drone", "the word")
_NOUN_PHRASE = re.compile(r"(?<![\w'’])((?:[Tt]he|[Aa]n?|his|her|their|its|our|my|your)(?:\s+[a-z][\w'’-]*){1,3})")


#: "What does the clerk warm himself at?", "What did Mira cut the rope with?": the preposition whose object is asked
_STRANDED = re.compile(r"^\s*what\s+(?:does|did|do|is|was|are|were|will|would|can|could|has|had|have)\s+\S.*?\s+"
                       r"(?P<p>at|with|on|in|into|onto|from|to|for|about|by|under|over|through|behind|inside|upon)\s*[?.!]*$", re.I)


def _stranded(question: str) -> str | None:
    """The preposition a what-question ends with, whose object it asks ("What does the clerk try to
    warm himself at?" → at); None when it ends otherwise.

    >>> _stranded("What does Scrooge's clerk try to warm himself at?"), _stranded("What does Mira carry to the inn?")
    ('at', None)
    """
    m = _STRANDED.match(question)
    return m.group("p").lower() if m else None


def _thing_head(question: str) -> str | None:
    """The head noun of a "what/which NOUN …" question that no entity type answers ("What creature
    hovered …?" → creature); None for "What does …", "What is …" and a typed head ("which company").

    >>> _thing_head("What creature hovered over the lab?"), _thing_head("Which tool did Mira use?")
    ('creatur', 'tool')
    >>> _thing_head("What does Mira use?"), _thing_head("Which company builds it?"), _thing_head("What Cratchit child?")
    (None, None, None)
    """
    m = re.match(r"\s*(?i:what|which)\s+([a-z][a-z-]*)\b", question)  # a capitalised word is a name, no head
    if not m:
        return None
    w = m.group(1).lower()
    if w in _AUXILIARIES or w in STOPWORDS or w in _HEAD_TYPES or w.rstrip("s") in _HEAD_TYPES:
        return None
    if classify(question).kind not in ("what", "which"):
        return None
    return _root(w)


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
            words = m.group(1).split()
            start = m.start(1)
            # "an approaching drone" for what approaches: the thing is the noun the asked act qualifies
            acting = kind is None and len(words) > 2 and _participle(words[1], asked)
            if acting:
                words = words[1:]
            end = 1
            while (end < len(words) and words[end].lower().strip("'’") not in STOPWORDS and words[end] not in _AUXILIARIES
                   and not (end > 1 and asked.intersection(_word_roots(words[end])))):
                end += 1
            if end < len(words) and _NOUN_PHRASE.fullmatch(f"the {words[end]}") and f"the {words[end].lower()}" in asked_things:
                continue  # "the old lamp" for what colour the lamp is: the question's own thing, described
            while end > 1 and words[end - 1].endswith("ly"):
                end -= 1  # "at the desk quickly": an adverb is no part of the place
            last = words[end - 1]
            if end < 2 or (_ADJECTIVE_END.search(last) and not last.endswith(("'s", "’s", "able"))):
                continue  # "in the very": no noun
            name = " ".join(words[:end])
            if acting:  # the noun ends before a word a function word follows ("drone cut through"): a verb
                following = [*words, *re.findall(r"[\w'’-]+", s.text[m.end(1) :])[:1], ""]
                end = next((j for j in range(2, end) if following[j + 1].lower() in STOPWORDS), end)
                start = m.start(1) + m.group(1).index(words[1], m.group(1).index(words[0]) + len(words[0]))
                name = " ".join(words[1:end])
            key = _key(name)
            rest = s.text[start + len(name) :]
            if not key or not content_tokens(key) or re.match(r"\s+of\b", rest):
                continue  # "the bowels of the earth": the place is what it is part of
            listed = re.match(r",\s+([a-z][\w'’-]*)\s+[a-z]", rest)
            if end == len(words) == 2 and listed and listed.group(1) not in STOPWORDS:
                continue  # "in a small, cold cell": an adjective of a list, not the place
            if tied is not None and not _sent_there(s.text, start, tied, _asked_subject(question), before):
                continue
            if key not in cands and _named_by_head(cands, key, s.passage) is not None:
                continue  # "the house" in a passage about "Bob Cratchit's House": that entity, named in full
            c = cands.get(key)
            if c is None:
                c = cands[key] = _Cand(key, name, kind, phrase=True)
            c.hits.append((k, start, start + len(name)))
            c.surfaces.append(name)


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


_AUXILIARIES = frozenset("is was are were be been being am has have had do does did will would can could shall should may might must"
                         .split())


def _asked_verb(question: str) -> str | None:
    """The root of the verb a "Who VERBs …?" question asks the subject of ("Who carries Tiny Tim
    …?" → "carri"); None for "Who is …", "Who does X …" (an object) and other forms.

    >>> _asked_verb("Who carries Tiny Tim on his shoulder?"), _asked_verb("Who does Scrooge send the turkey to?")
    ('carri', None)
    """
    m = re.match(r"\s*who\s+([a-z][a-z'-]*)\b", question, re.I)
    if not m or m.group(1).lower() in _AUXILIARIES or m.group(1).lower() in STOPWORDS:
        return None
    return _root(m.group(1).lower())


#: "Who is the R (of …)?", "Who was the kind-hearted old R?": the role noun the question asks for
_ASKED_ROLE = re.compile(r"^(?i:who|whom|what|which\s+\w+)\s+(?i:is|was|are|were)\s+(?i:the|an?)\s+(?:[a-z][\w'’-]*,?\s+){0,4}?"
                         r"(?P<r>[a-z][\w-]*)(?:\s+(?:of|in|at|on|aboard|for|from|with|among|who|that)\b.*)?\s*[?.!]*$")
_ACT_BREAK = (r"(?:of|in|at|on|for|from|to|with|into|about|through|off|out|up|down|over|under|by|near|toward|towards|across|"
              r"around|that|who|which|while|when|whether|after|before|and|or)")
#: "Who VERBs …?", "Which NOUN VERBs …?": the verb and the rest of the question
_ASKED_ACT = re.compile(r"^\s*(?:(?i:who)|(?i:which)\s+[a-z][\w-]*)\s+(?P<v>[a-z][a-z'-]*)\s+(?P<o>.*?)[\s?.!]*$")


#: the roots of verbs of saying: quoted words state what was said, often in other words
_SAYING = frozenset(_root(w) for w in "say ask tell reply answer cry exclaim whisper shout mutter declare remark".split())


def _key_terms(question: str) -> tuple[frozenset[str], bool, bool]:
    """The roots of the role or relation noun the question asks its answer to be ("Who is the R of
    …?", "Who was the kind-hearted old R?"; "Who is X's R?" with the relation's converses) and
    whether it is a relation (which :func:`_states_key` reads loosely); no terms when the question
    asks no such noun. For "Who VERBs …?" ("Which NOUN VERBs …?") the verb and the head of each
    phrase after it, of which the evidence must have one: summaries and pronouns word what someone
    does in many ways ("He barked", "a dealer who purchases"), but evidence that has neither the act
    nor what it is done to, with or where, is about something else. A verb of saying has none
    (quoted words say what was said, in their own words).

    >>> [sorted(_key_terms(q)[0]) for q in ("Who is the captain of the whaling ship?", "Who was the jovial old merchant?",
    ...                                     "Who is Tiny Tim's father?", "Who is a miserly money-lender?")]
    [['captain'], ['merchant'], ['boy', 'child', 'daughter', 'father', 'girl', 'son'], ['lender']]
    >>> _key_terms("Who is Tiny Tim's father?")[1:], _key_terms("What is the name of young Scrooge's schoolmaster?")
    ((True, False), (frozenset({'schoolmast'}), False, True))
    >>> _key_terms("Who is the captain of the whaling ship?")[1:], _key_terms("What is the name of the captain of the ship?")[1:]
    ((False, False), (False, True))
    >>> _key_terms("What is the name of the team's pilot?")
    (frozenset({'pilot'}), False, True)
    >>> [sorted(_key_terms(q)[0]) for q in ("Who commands the alien fleet?", "Who steps into the role of leader?",
    ...                                     "Which company builds the submarine engines?")]
    [['command', 'fleet'], ['lead', 'step'], ['build', 'engin']]
    >>> sorted(_key_terms("What is the girl under the robe called?")[0])
    ['girl']
    >>> [sorted(_key_terms(q)[0]) for q in ("Who is ambitious and meticulous?", "Who was the young woman Scrooge was engaged to?",
    ...                                     "Who asks Mercer whether he has second thoughts?")]
    [[], [], []]
    """
    tied = _name_of(question) is not None
    question = _as_who(" ".join(question.split()))
    rel = _relation(question)
    if rel is not None:  # a kinship or work relation (it has a converse) is loose; a role must be said of its holder
        return frozenset(_root(w) for w in (rel.head, *rel.converse)) - {""}, bool(rel.converse), not rel.converse
    called = _called_noun(question)
    if called is not None:  # "What is the girl … called?": the evidence must say of the name that it is the girl's
        return frozenset({called}), False, False
    m = _ASKED_ROLE.match(question)
    if m is not None and m.group("r").lower() not in _AUXILIARIES and m.group("r").lower() not in STOPWORDS:
        return frozenset({_last_root(m.group("r"))}), False, tied
    m = _ASKED_ACT.match(question)
    if m is None or m.group("v") in _AUXILIARIES or m.group("v") in STOPWORDS or _root(m.group("v")) in _SAYING:
        return frozenset(), False, False
    # the head of each phrase of the rest: its last word before a preposition, a conjunction or the end
    heads = [p.split()[-1] for p in re.split(r"\b" + _ACT_BREAK + r"\b", m.group("o")) if p.split()]
    return frozenset(_last_root(w) for w in (m.group("v"), *heads) if w[:1].islower() and w not in STOPWORDS) - {""}, True, False


def _names_only_asked(name: str, q: _Question) -> bool:
    """Whether a candidate's name is made only of the question's descriptive words: "the
    Schoolmaster" is the role "What is the name of young Scrooge's schoolmaster?" asks the name of,
    not a name; "Operation: Dulce" adds a name the question uses to its noun, and is one.

    >>> q = _Question("What is the name of young Scrooge's schoolmaster?", ["Scrooge"])
    >>> _names_only_asked("The Schoolmaster", q), _names_only_asked("Mr. Fezziwig", q), _names_only_asked("Scrooge's school", q)
    (True, False, False)
    """
    roots = _roots(name)
    return bool(roots) and roots <= set(q.rest)


def _last_root(word: str) -> str:
    """The root of a word's last part, as the evidence's words are split ("money-lender" → "lend")."""
    tokens = content_tokens(word)
    return _root(tokens[-1]) if tokens else ""


def _states_key(c: _Cand, ctx: _Context) -> bool:
    """Whether the evidence states the question's key term (:func:`_key_terms`) of the candidate:
    a role noun ("Who is the captain of …?") in a sentence that names it, in a short passage about
    it (a relationship, an entity's description, a fact, a claim) or in its name; an act (the verb
    or what it is done to) anywhere in a passage that names it (its subject is often a pronoun
    there); a relation (which the text states in many ways, :func:`_relation_anchors`) anywhere in
    the evidence; true when the question has no key term. A name merely co-mentioned with the
    question's other words, whose evidence never says the role or act asked ("captain", "builds
    the engines"), does not answer it. A role whose holder's *name* is asked ("What is the name of
    X's schoolmaster?", a role relation without a converse: "Who is X's doctor?") must be said of
    the candidate itself (:func:`_tied`), and a candidate named only by the question's own words
    ("the Schoolmaster") is none (:func:`_names_only_asked`)."""
    if not ctx.key:
        return True
    if _names_only_asked(c.name, ctx.q):
        return False
    if ctx.key_is_loose and ctx.relational:
        return any(ctx.key & t for t in ctx.passage_tokens)
    if ctx.key_is_loose:  # an act: anywhere in a passage that names the candidate
        return any(ctx.key & ctx.passage_tokens[i] for i in {ctx.sentences[k].passage for k, _, _ in c.hits} | c.mentions)
    if ctx.key_is_tied:  # a role whose holder's name is asked: in its name ("Captain Hook"), or said of it
        return bool(ctx.key & _roots(c.name)) or any(_tied(ctx.sentences[k].text, a, b, ctx.key) for k, a, b in c.hits)
    said = set(_roots(c.name))
    for k, _, _ in c.hits:
        said |= ctx.sentences[k].tokens
    for i in c.mentions:
        if ctx.passages[i].kind in _SHORT_ABOUT:
            said |= ctx.passage_tokens[i]
    return bool(ctx.key & said)


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
    for m in _WORD.finditer(text):
        if not set(_word_roots(m.group(0))) & set(key):
            continue
        if m.start() >= b and _TIE_AFTER.match(text[b : m.start()]):
            return True
        if m.end() <= a and _TIE_BEFORE.match(text[m.end() : a]):
            return True
    return False


#: the kinds of passage that are short statements about their mentions (not a whole text unit)
_SHORT_ABOUT = frozenset({"fact", "relationship", "entity", "claim"})


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


#: a pronoun opening a sentence, or right after the quotation that opens it ('"I've got this," they declared');
#: a possessive one ("Their fingers paused …, whispering, “…”") stands for the owner of what follows
_PRONOUN = re.compile(r"^(?:[“\"‘'][^”\"’]*[,!?…—-][”\"’']\s+(?P<q>he|she|they)|(?P<p>He|She|They|His|Her|Their))\b")
_POSSESSIVE_PRONOUNS = frozenset({"his", "her", "their"})


def _resolve_pronouns(cands: dict[str, _Cand], sentences: Sequence[_Sentence], q: _Question, generic: set[str]) -> None:
    """A sentence that begins "He …", "She …" or "They …" (or '“…,” they said'), or "His …", "Her …",
    "Their …" (the owner of what follows: "Their fingers paused …, whispering, “…”"), is about the person the sentence
    before it (in the same passage) names first — its subject, by the usual preference — unless
    that is someone the question itself names: the pronoun counts as a mention of that person."""
    firsts: dict[int, tuple[int, _Cand]] = {}
    for c in cands.values():
        if c.type not in (_PERSON, None) or c.key in generic or q.overlap(c.name) >= 1:
            continue
        for k, a, b in c.hits:
            if _POSSESSIVE_END.search(sentences[k].text[a:b]):
                continue  # "Bob Cratchit's family …": the possessor is not the subject
            if k not in firsts or a < firsts[k][0]:
                firsts[k] = (a, c)
    for k, s in enumerate(sentences):
        m = _PRONOUN.match(s.text)
        if not m:
            continue
        for back in (k - 1, k - 2):
            if back < 0 or sentences[back].passage != s.passage:
                break
            if back in firsts:
                g = "p" if m.group("p") else "q"
                firsts[back][1].hits.append((k, m.start(g), m.end(g)))
                break


#: a definite description opening a sentence ("The cybersecurity expert craned their neck"): its words
_DESCRIPTION = re.compile(r"^[Tt]he(?:\s+[a-z][\w-]*){1,4}")


def _resolve_descriptions(cands: dict[str, _Cand], sentences: Sequence[_Sentence], q: _Question, generic: set[str],
                          role: frozenset[str]) -> None:
    """A sentence that opens with a description made of the role noun the question asks ("The
    cybersecurity expert craned …" for "Who is the cybersecurity expert …?") speaks of the person
    named last before it, in the one or two sentences before (same passage): the description
    counts as that person's mention. A person named in the description's own sentence is someone
    else ("… met by the furrow in Alex's brow"); so is one the question names.

    >>> ss = _sentences([Passage("Alex walked into Sam's office. The cybersecurity expert looked up at Alex.", "c")])
    >>> cands = {n: _Cand(n.lower(), n, _PERSON) for n in ("Alex", "Sam")}
    >>> for c in cands.values():
    ...     c.hits.extend((k, m.start(), m.end()) for k, s in enumerate(ss) for m in re.finditer(c.name, s.text))
    >>> _resolve_descriptions(cands, ss, _Question("Who is the analyst?", []), set(), frozenset({"analyst"}))
    >>> [(n, [ss[k].text[a:b] for k, a, b in c.hits]) for n, c in cands.items()]
    [('Alex', ['Alex', 'Alex']), ('Sam', ['Sam'])]
    >>> _resolve_descriptions(cands, ss, _Question("Who is the cybersecurity expert?", []), set(), frozenset({"expert"}))
    >>> [(n, [ss[k].text[a:b] for k, a, b in c.hits]) for n, c in cands.items()]
    [('Alex', ['Alex', 'Alex']), ('Sam', ['Sam', 'The'])]
    """
    for k, s in enumerate(sentences):
        m = _DESCRIPTION.match(s.text)
        head = next((w for w in _WORD.finditer(m.group(0)) if _last_root(w.group(0)) in role), None) if m else None
        if head is None or s.text[head.end() : head.end() + 1] in ("'", "’"):
            continue
        here = {id(c) for c in cands.values() for j, _, _ in c.hits if j == k}
        last: tuple[int, int, _Cand] | None = None
        for c in cands.values():
            if c.type not in (_PERSON, None) or c.key in generic or q.overlap(c.name) >= 1 or id(c) in here:
                continue
            for j, a, _ in c.hits:
                if k - 2 <= j < k and sentences[j].passage == s.passage and (last is None or (j, a) > last[:2]):
                    last = (j, a, c)
        if last is not None:
            last[2].hits.append((k, 0, 3))  # "The": the description's words count as said next to it


def _merge_aliases(cands: dict[str, _Cand], generic: set[str], asked: frozenset[str] = frozenset(),
                   wanted: Iterable[str] = ()) -> list[_Cand]:
    """Fold a name into the one longer name of the same type that begins or ends with all its
    words ("JACOB" into "JACOB MARLEY"); the longer name is kept. A common noun ("man") and a
    name that several longer ones could extend ("Cratchit": "Bob Cratchit", "Mrs. Cratchit")
    stay apart. The longer names are found through an index of their word prefixes and suffixes
    (the ones ``_affix`` accepts), so the cost grows with the number of names, not its square.

    A possessive name "X's H" ("Marley's Ghost") is another entity than X, and stays apart —
    unless the question asks for an H (``asked``: its word roots hold H's): then "X's H" is the
    one the question means by X's name, and its evidence joins X's (the name X, else "H of X",
    else the one name that begins or ends with X's words), when that is of a ``wanted`` type (the
    question's main ones), whatever type the index gave the possessive form."""
    items = sorted(cands.values(), key=lambda c: (-len(c.key.split()), c.key))
    kept: list[_Cand] = []
    at: dict[int, int] = {}  # id(kept candidate) -> its place in ``kept``
    affixes: dict[tuple[str, ...], list[_Cand]] = {}
    parent: dict[str, str] = {}  # a folded name's key -> the key of the name it folded into

    def keep(c: _Cand, place: int | None = None) -> None:
        if place is None:
            place = len(kept)
            kept.append(c)
        else:
            kept[place] = c
        at[id(c)] = place
        if re.search(r"['’(]", c.name):
            return  # "Marley's Ghost", "Fred (nephew)": no shorter name folds into it
        words = tuple(c.key.split())
        for n in range(max(1, len(words) - 2), len(words)):
            for part in {words[:n], words[-n:]}:
                affixes.setdefault(part, []).append(c)

    for c in items:
        words = tuple(c.key.split())
        hosts: list[_Cand] = []
        if c.key not in generic:
            seen: set[int] = set()
            for h in affixes.get(words, ()):
                if _WOMEN_ADDRESSED & set(h.key.split()) and not _FORMS_OF_ADDRESS & set(words):
                    continue  # "Fezziwig" is not "Mrs. Fezziwig" (see :meth:`_Question.overlap`)
                if id(h) in at and id(h) not in seen and (h.type == c.type or c.type is None):
                    seen.add(id(h))
                    hosts.append(h)
        if len(hosts) != 1:
            keep(c)
            continue
        host = hosts[0]
        host_words = host.key.split()
        if host_words[-len(words) - 1] == "of":
            # "the Ghost of Jacob Marley", "the City of London": the name after "of" is the one
            # the text is about; it keeps its own name and takes the longer one's evidence
            keep(c, at.pop(id(host)))
            host, c = c, host
        _absorb(host, c)
        parent[c.key] = host.key
    if asked:
        _merge_possessives(kept, parent, generic, asked, frozenset(wanted))
        kept = [c for c in kept if parent.get(c.key, c.key) == c.key]
    return kept


def _absorb(host: _Cand, c: _Cand) -> None:
    host.mentions |= c.mentions
    host.hits = sorted(set(host.hits) | set(c.hits))
    host.surfaces.extend(c.surfaces)
    host.determined += c.determined


_POSSESSIVE_NAME = re.compile(r"^(?P<x>.+?)['’]s?\s+(?P<h>[A-Za-z-]+)$", re.I)


def _merge_possessives(kept: list[_Cand], parent: dict[str, str], generic: set[str], asked: frozenset[str],
                       wanted: frozenset[str]) -> None:
    """The second pass of :func:`_merge_aliases`: "X's H" joins X when the question asks for an
    H. ``parent`` maps a folded name's key to the key it folded into (a union-find over keys)."""
    def find(key: str) -> str:
        while parent.get(key, key) != key:
            parent[key] = parent.get(parent[key], parent[key])  # path halving
            key = parent[key]
        return key

    by_key = {c.key: c for c in kept}
    ends: dict[tuple[str, ...], set[str]] = {}  # a name's first / last words -> the keys
    for key in list(parent) + list(by_key):
        words = tuple(key.split())
        for n in range(1, len(words) + 1):
            ends.setdefault(words[:n], set()).add(key)
            ends.setdefault(words[-n:], set()).add(key)
    for c in list(kept):
        m = _POSSESSIVE_NAME.match(c.name.strip())
        if not m or find(c.key) != c.key or c.key in generic:
            continue
        head = m.group("h").lower()
        if _root(head) not in asked or _noun(head) in _CONVERSE:
            continue  # "Caroline's husband" is Caroline's relative, not Caroline
        x = _key(m.group("x"))
        if not x:
            continue
        target = None
        for key in (x, f"{head} of {x}"):
            if key in parent or key in by_key:
                target = find(key)
                break
        if target is None:
            roots = {find(k) for k in ends.get(tuple(x.split()), ()) if k not in generic}
            roots = {r for r in roots if r != c.key and by_key[r].type in wanted}
            if len(roots) == 1:
                target = roots.pop()
        if target is None or target == c.key or target in generic or by_key[target].type not in wanted | {None}:
            continue  # no owner, several, or one of a type the question does not ask for
        _absorb(by_key[target], c)
        parent[c.key] = target


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


def _display(c: _Cand) -> str:
    """A candidate's name as the text writes it (mixed case), else its label in title case."""
    surfaces = [re.sub(r"['’]s?$", "", s) for s in c.surfaces]
    mixed = [s for s in surfaces if not s.isupper() and _key(s) == c.key]
    if mixed:
        return max(set(mixed), key=lambda s: (mixed.count(s), s))
    name = c.name
    if name.isupper():
        name = re.sub(
            r"[A-Za-z]+(?:['’][A-Za-z]+)?",
            lambda m: m.group(0).capitalize() if len(m.group(0)) > 1 or m.start() == 0 else m.group(0).lower(),
            name.lower(),
        )
        name = re.sub(r"\b(Of|The|And|In|At|On|To|A)\b", lambda m: m.group(0).lower(), name)
        name = name[0].upper() + name[1:]
    return name


def _generic(c: _Cand, sentences: Sequence[_Sentence], joined: str | None = None) -> bool:
    """A common noun, not a name: one the text also writes in lower case mid-sentence (the
    ghost, the city), one word the text writes after an article or possessive ("the Spirit",
    "his nephew"), or a word the questions ask with ("ghost", "agent", "place"). ``joined``: all
    the sentences' text, to skip at once a name it lacks."""
    plain = _ARTICLES.sub("", c.name.lower().strip())
    if not plain or not plain[0].isalpha():
        return False
    words = content_tokens(plain)
    if len(words) == 1 and (words[0] in _HEAD_TYPES or (c.hits and c.determined * 2 >= len(c.hits))):
        return True
    if len(words) == 1 and _ARTICLES.match(c.name.strip()):
        return True
    if joined is not None and plain not in joined:
        return False
    texts = [s.text for s in sentences if plain in s.text]  # the only ones the pattern can match
    if not texts:
        return False
    pattern = re.compile(r"(?<=[a-z,;] )" + re.escape(plain) + r"\b")
    return any(pattern.search(t) for t in texts)


#: "What is the girl under the robe called?", "What was the ship named?": the noun whose name is asked
_CALLED_ASK = re.compile(r"^(?:what|who)\s+(?:is|was|are|were)\s+(?:the|this|that)\s+(?P<np>[a-z].*?)\s+(?:called|named)\s*[?.!]*$",
                         re.I)
#: before a name, the noun it names: "this girl is ", "the boy was ", "a ship called ", "the girl named "
_NAMES_THE = re.compile(r"\b(?:the|this|that|a|an)\s+(?:[a-z-]+\s+)?(?P<n>[a-z]+)\s+(?:(?:is|was)|(?:(?:is|was)\s+)?(?:called|named))\s+$",
                        re.I)


#: prepositions the stop-word list lacks: a noun phrase ends before them ("the girl beneath the sail")
_PREPOSITIONS = frozenset("aboard across along among around behind beneath beside besides beyond except inside near onto "
                          "outside past throughout underneath".split())


def _called_noun(question: str) -> str | None:
    """The root of the noun a "What is the N … called/named?" question asks the name of.

    >>> _called_noun("What is the girl under the Spirit's robe called?"), _called_noun("What is the girl doing?")
    ('girl', None)
    >>> _called_noun("What was the little ship called?"), _called_noun("What is the old man in the tavern named?")
    ('ship', 'man')
    """
    m = _CALLED_ASK.match(" ".join(question.split()))
    if m is None:
        return None
    words = list(itertools.takewhile(lambda w: w not in STOPWORDS and w not in _PREPOSITIONS, m.group("np").lower().split()))
    return _root(words[-1]) if words else None  # the noun ends before its first function word


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


#: the plainness of a lower-case place phrase (:func:`_place_phrases`) for a where-question: a name
#: that the evidence supports as well still comes first
PHRASE_PLAIN = 0.7

#: words either side of a mention that count as its context
WINDOW = 8


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
    decayed = sum(q.weight.get(t, 0.5) / (1.0 + max(0, d - 1) / 3.0) for t, d in distance.items())
    window = decayed / (q.desc_total + named_weight) if q.desc_total else 1.0
    described = 0.3 * q.describes(s.tokens - says if says else s.tokens) + 0.7 * window
    link = sum(1 for t in q.named if t in passage_tokens or t in s.tokens) / len(q.named) if q.named else 1.0
    score = described * (0.6 + 0.4 * link) if q.rest else link
    if _POSSESSIVE_END.search(s.text[a:b]) or s.text[a:b].lower() in _POSSESSIVE_PRONOUNS:
        following = after[0][0] if after else ()
        score *= 0.3 if following and following[0] in q.weight else 0.8
    return score


#: the features a candidate's rank is a weighted sum of (logs of the factors the evidence gives it;
#: see :func:`_features`), and their weights: the product of the factors. ``bench/fit_answers.py``
#: fits weights on the bench's training questions to see whether others would rank better (so far
#: they did not on held-out questions, so none replace these)
FEATURES = ("support", "best", "type", "novelty", "plain", "spread", "relation", "passages", "aligned", "structured",
            "first", "mentions", "joint")
WEIGHTS = (1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
#: how much of the rank rests on the share of the question's descriptive terms that the evidence
#: naming a candidate covers *together* (:func:`_mention_support`'s ``joint``): the one whose
#: evidence says all that is asked ("visits", "warn", "ghost", across passages) beats the one whose
#: best passage repeats part of it
JOINT = 0.6


@dataclasses.dataclass
class _Context:
    """What scoring a candidate reads: the evidence, the question, and what is worked out once."""

    sentences: Sequence[_Sentence]
    passages: Sequence[Passage]
    q: _Question
    qt: QuestionType
    passage_tokens: Sequence[frozenset[str]]
    anchors: dict[int, list[tuple[int, int, int, float]]]
    verb: str | None
    relational: bool = False  # the question asks a relation ("Who is X's R?"): its answer is no speaker's
    key: frozenset[str] = frozenset()  # the term the evidence must state of the answer (:func:`_key_terms`)
    key_is_loose: bool = False  # the key term is a relation or an act: the evidence must have it at all
    key_is_tied: bool = False  # the key term is a role a name is asked for: it must be said of the candidate (:func:`_tied`)
    called: str | None = None  # "What is the girl … called?": the root of the noun whose name is asked (:func:`_called_noun`)
    subject: str | None = None  # "Where does the elevator stop?": the root of the noun whose place is asked (:func:`_asked_subject`)

    def __post_init__(self) -> None:
        #: each passage's text as compared for sameness (the same text counts once)
        self.keys = [" ".join(p.text.split()).lower() for p in self.passages]
        self.n_passages = len(set(self.keys))
        self.structured = any(p.kind in _ABOUT_ITS_MENTIONS for p in self.passages)
        self.cover = [self.q.coverage(s.tokens) for s in self.sentences]
        self.top_cover = max(self.cover, default=0.0)


def _mention_support(c: _Cand, ctx: _Context) -> tuple[dict[int, float], int, float, float]:
    """Per passage, how well the candidate's best mention there is supported (:func:`_near`, the
    asked verb's role, the speaker of quoted words, the relation asked); how many sentences state
    the relation of it; how well the best-aligned sentence naming it matches the question,
    relative to the best-aligned sentence of all the evidence (1: it is named there); and the
    share of the question's descriptive terms that the sentences naming it and the passages about
    it have together (``joint``; the words its own name says do not count)."""
    q, sentences = ctx.q, ctx.sentences
    per_passage: dict[int, float] = {}
    related, aligned = 0, 0.0
    # a place the text names by what happens there: its name says the question's words
    own = frozenset(t for t in _roots(c.name) if t in q.weight) if ctx.qt.kind == "where" else frozenset()
    # the question's words the name itself says are no evidence about it elsewhere ("the Ghost of
    # Christmas Past" is not the ghost that visits on Christmas Eve because its name says so) —
    # unless the question asks for a name or says what kind of thing answers ("which holiday")
    says = frozenset() if q.asks_name else frozenset(t for t in _roots(c.name) if t in q.weight and t != q.head) - own
    for k, a, b in c.hits:
        s = sentences[k]
        if ctx.top_cover:
            aligned = max(aligned, ctx.cover[k] / ctx.top_cover)
        near = _near(s, a, b, q, ctx.passage_tokens[s.passage], own, says)
        if ctx.verb and ctx.verb in s.tokens:
            near = min(1.0, near * _role(s.text, a, b, ctx.verb))
        if ctx.qt.kind == "where" and _sent_there(s.text, a, q.weight, ctx.subject):
            near = min(1.0, near * PLACE_TIE)
        spoken = _speaker(sentences, k, a, b) if not ctx.relational else []  # a relation asked is not words said
        if spoken:
            # the speaker of the words the question quotes ("“… second thoughts?” It was Taylor Cruz’s voice")
            said = max(q.coverage(sentences[j].tokens) for j in spoken)
            near = max(near, 0.9 * said * (0.6 + 0.4 * q.links(ctx.passage_tokens[s.passage])))
        stated = _relation_support(s, a, b, ctx.anchors[k]) if k in ctx.anchors else 0.0
        if stated < 0:
            near *= 0.3  # described by the converse role: the question's own side of the relation
        elif stated:
            # the sentence states the relation the question asks, of this name ("Fan is Scrooge's sister")
            near, related = max(near, RELATION_SUPPORT * stated), related + 1
        if ctx.called and _names_the(s.text, a, b, ctx.called):
            near = max(near, RELATION_SUPPORT)  # "This girl is Want" for what the girl is called
        per_passage[s.passage] = max(per_passage.get(s.passage, 0.0), near)
    # a passage about the candidate (a relationship's end, an entity's description) supports it
    # as far as it covers the question, and more when the candidate's name stands next to the
    # words that do ("MRS. DILBER → SCROOGE: Mrs. Dilber is a laundress" is about both, a laundress one)
    covered: set[str] = set()
    for k, _, _ in c.hits:
        covered |= sentences[k].tokens
    for i in c.mentions:
        covered |= ctx.passage_tokens[i]
    joint = q.describes(covered - says)
    for i in c.mentions:
        near = per_passage.get(i, 0.0)
        tokens = ctx.passage_tokens[i] - says if says else ctx.passage_tokens[i]
        per_passage[i] = max(near, 0.6 * q.coverage(tokens) + 0.4 * near)
    # structured evidence (a relationship, an entity's description) says what it says of its
    # ends; a name somewhere in a long text, report or summary is a weaker witness
    for i in per_passage:
        if ctx.passages[i].kind not in _ABOUT_ITS_MENTIONS and ctx.structured:
            per_passage[i] *= 0.7
    return per_passage, related, aligned, joint


def _support(per_passage: dict[int, float], keys: Sequence[str]) -> tuple[float, float, list[int]]:
    """Independent evidence, with diminishing returns: the same text counted once, the best
    passage fully, the next half, then a quarter… (a name that is everywhere is the topic, not
    the answer). ``keys``: the passages' texts as compared. Returns the support, the best
    passage's share and the passages, best first."""
    seen: set[str] = set()
    support, best = 0.0, 0.0
    order: list[int] = []
    for i in sorted(per_passage, key=lambda i: (-per_passage[i], i)):
        cov = per_passage[i]
        key = keys[i]
        if key in seen or cov <= 0:
            continue
        seen.add(key)
        support += cov * cov * 0.5 ** len(order)
        best = max(best, cov)
        order.append(i)
    return support, best, order


def _kind_named(name: str, head: str | None) -> bool:
    """Whether a name of several words ends with the noun a "which NOUN" question asks for: the
    text names a thing of that kind by what sets it apart ("the mainframe room" for "which room"),
    as a name does, even in lower case.

    The word before the noun must not read as an adjective ("jolly holidays" is no name of a holiday).

    >>> _kind_named("the mainframe room", "room"), _kind_named("room", "room"), _kind_named("the mainframe", "room")
    (True, False, False)
    >>> _kind_named("jolly holidays", "holiday"), _kind_named("the central room", "room")
    (False, False)
    >>> _kind_named("the security room", "room")
    True
    """
    words = content_tokens(name)
    return head is not None and len(words) > 1 and _root(words[-1]) == head and not _ADJECTIVE_END.search(words[-2])


#: endings that mark a word as an adjective rather than a noun ("jolly", "central", "famous")
#: (nouns ending -ity, -ary, -ory, -ery are no adjectives: "the security room", "the library wing")
_ADJECTIVE_END = re.compile(r"(?:(?<!it)(?<!ar)(?<!or)(?<!er)y|ful|ous|ive|al|ic|less|able|ible|ish)$")


def _plain(c: _Cand, qt: QuestionType, generic: bool, head: str | None = None) -> float:
    """How much a candidate is a name rather than a common noun or a description: 1 for a name
    (or a name of the asked kind, :func:`_kind_named`); less for one the evidence only writes in
    lower case or also as a common noun, or a description standing for a name ("Cratchit's wife")."""
    lower_only = bool(c.surfaces) and not any(x[:1].isupper() for x in c.surfaces)
    # a place the text names with common nouns ("the equipment bay") answers "where"; the bare
    # head noun ("the base", "the room") does not
    place = qt.kind == "where" and c.type == _GEO and len(content_tokens(c.name)) > 1
    # a thing the index types as the asked kind, named by what sets it apart ("the mainframe room")
    kind = qt.types.get(c.type or "", 0.0) >= 1.0 and _kind_named(c.name, head)
    plain = 0.2 if (lower_only or generic) and not (place or kind) else 1.0
    if c.phrase and (qt.kind == "where" or not qt.types):
        plain = PHRASE_PLAIN  # a lower-case place the text sends someone to: below a name that fits as well
    if plain < 1 and c.type is None and qt.types:
        plain = 0.1  # a common noun no index types, for a question that wants a kind of thing ("poor" for "who")
    if re.search(r"['’]s?\b", c.name) and not c.phrase:  # "the poulterer's" is a shop, not a possessor
        plain *= 0.4
    return plain


def _score(c: _Cand, ctx: _Context, generic: bool) -> tuple[Candidate, tuple[float, ...]]:
    """The candidate with its rank score (the weighted sum of its :data:`FEATURES`, as a factor)
    and its strength (support × type fit × novelty × plainness × spread × how much of the question's
    names the evidence has: what the unanswerable threshold reads); and its features. The joint
    coverage ranks candidates but is not part of the strength: that the evidence of none says all
    the question asks is no reason to say the data does not answer it."""
    q, qt = ctx.q, ctx.qt
    per_passage, related, aligned, joint = _mention_support(c, ctx)
    support, best_cover, order = _support(per_passage, ctx.keys)
    type_fit = qt.types.get(c.type or "", 0.1 if c.type and c.type not in ("NUMBER", "DATE") else 0.6) if qt.types else 1.0
    novelty = 1.0 - q.overlap(c.name, c.type)
    plain = _plain(c, qt, generic, q.head)
    # a name in most of the evidence is its topic, not the answer: weighted down like a common term
    named_in = len(c.mentions | {ctx.sentences[k].passage for k, _, _ in c.hits})
    spread = min(1.0, math.log(1 + (ctx.n_passages + 3) / max(1, named_in)) / math.log(4))
    joint = 1 - JOINT + JOINT * joint  # ranks, but does not decide whether the data answers
    strength = support * type_fit * novelty * plain * spread * q.found
    if strength <= 0:
        return Candidate(_display(c), c.type, 0.0, (), "", 0.0), ()
    states = _states_key(c, ctx) or (related > 0 and not _names_only_asked(c.name, q))
    features = (math.log(support), math.log(max(best_cover, 1e-3)), math.log(type_fit), math.log(novelty), math.log(plain),
                math.log(spread), float(related > 0), math.log(1 + len(order)), aligned, float(bool(c.mentions)),
                math.log(1 + min(order, default=0)), math.log(1 + len(c.hits) + len(c.mentions)),
                math.log(joint))
    rank = math.exp(max(-50.0, min(50.0, sum(w * f for w, f in zip(WEIGHTS, features, strict=True)))))
    why = (f"support {support:.3f} from {len(order)} passage(s), best coverage {best_cover:.2f}; "
           f"type {c.type or 'unknown'} fit {type_fit:g}; novelty {novelty:.2f}; spread {spread:.2f}; "
           f"alignment {aligned:.2f}; joint coverage {joint:.2f}; strength {strength:.3f}"
           + (f"; the question's names found {q.found:.2f}" if q.found < 1 else "") + ("; common noun or description" if plain < 1 else "")
           + (f"; states the relation asked in {related} sentence(s)" if related else "")
           + ("" if states else f"; its evidence never states {'/'.join(sorted(ctx.key))} of it: no answer"))
    # a candidate whose evidence never states the asked role or relation of it ranks as it ranks,
    # but has no strength: when it ranks first, the data does not answer
    cand = Candidate(_display(c), c.type, round(rank, 6), tuple(order), why, round(best_cover, 6),
                     round(strength, 6) if states else 0.0)
    return cand, features


def _candidates(question: str, passages: Sequence[Passage], qt: QuestionType, q: _Question,
                sentences: Sequence[_Sentence]) -> list[tuple[Candidate, tuple[float, ...]]]:
    """Every candidate answer with its features, best first (rank score, then name)."""
    cands = _collect(passages, sentences, qt, question, q.weight)
    joined = "\n".join(s.text for s in sentences)
    generic = {c.key for c in cands.values() if _generic(c, sentences, joined)}
    _resolve_pronouns(cands, sentences, q, generic)
    ctx = _Context(sentences, passages, q, qt, [_roots(p.text) for p in passages], _anchors(question, sentences),
                   _asked_verb(question), _relation(question) is not None, *_key_terms(question), _called_noun(question),
                   _asked_subject(question))
    if ctx.key and not ctx.key_is_loose:
        _resolve_descriptions(cands, sentences, q, generic, ctx.key)
    wanted = [t for t, w in qt.types.items() if w >= 1.0]
    scored = [_score(c, ctx, c.key in generic) for c in _merge_aliases(cands, generic, _roots(question), wanted)]
    scored = [(c, f) for c, f in scored if c.score > 0]
    scored.sort(key=lambda cf: (-cf[0].score, cf[0].name))
    return scored


def _question(question: str, passages: Sequence[Passage], sentences: Sequence[_Sentence]) -> _Question:
    names = [m.name for p in passages for m in p.mentions]
    kinds: dict[str, str | None] = {}
    for p in passages:
        for m in p.mentions:
            kinds[m.name] = kinds.get(m.name) or m.type
    return _Question(question, names, sentences, kinds)


def candidate_features(question: str, passages: Sequence[Passage]) -> list[tuple[Candidate, tuple[float, ...]]]:
    """The named candidates :func:`extract_answer` weighs for ``question``, best first, each with
    its :data:`FEATURES` (what ``bench/fit_answers.py`` fits the weights on); empty when the
    question is answered by a sentence, a number or a time."""
    qt = classify(question)
    sentences = _sentences(passages)
    if qt.kind == "why":
        sentences = _with_antecedents(sentences)
    q = _question(question, passages, sentences)
    if not qt.wants_name or not q.rest or qt.kind in _SPAN_KINDS:
        return []
    return _candidates(question, passages, qt, q, sentences)


# -- answers that are not entities: counts, times, yes-no, sentences ------------------------------
#: the question kinds answered by a span of the text (a number, a time), never by an entity
_SPAN_KINDS = ("how-many", "when")
#: the units a "how long / how old" question counts in
_UNITS = frozenset(_root(w) for w in "second minute hour day night week month year century mile yard foot feet inch".split())
#: the words after which "one" is a pronoun, not a count ("no one", "the one", "every one")
_ONE_PRONOUN = re.compile(r"(?:\b(?:no|the|every|any|some|each|this|that|which|a|little|dear|only|another)\s+)$", re.I)


def _counted(question: str) -> frozenset[str]:
    """The roots of what a how-many question counts: the nouns after "how many/much" up to its verb
    ("How many shillings a week …" → shilling); the units of time and length for "how long/old/far".

    >>> sorted(_counted("How many spirits will haunt Scrooge?")), sorted(_counted("How long has he been dead?"))[:3]
    (['spirit'], ['centuri', 'day', 'feet'])
    >>> _counted("Who counts the money?")
    frozenset()
    """
    m = re.match(r"\s*how\s+(many|much|long|old|often|far)\b((?:\s+[a-z][\w-]*){0,3})", question, re.I)
    if not m:
        return frozenset()
    if m.group(1).lower() in ("long", "old", "far"):
        return _UNITS
    nouns = []
    for w in m.group(2).split():
        if w.lower() in _AUXILIARIES or w.lower() in STOPWORDS:
            break
        nouns.append(_root(w.lower()))
    return frozenset(nouns)


def _counted_span(s: _Sentence, a: int, b: int, counted: frozenset[str]) -> str:
    """A count as the answer states it: with the "a" of "a dozen" and the noun it counts when that
    follows within three words ("fifteen shillings").

    >>> s = _Sentence(0, "The hum of a dozen old servers filled it.", frozenset())
    >>> _counted_span(s, 13, 18, frozenset({_root("servers")})), _counted_span(s, 13, 18, frozenset())
    ('a dozen old servers', 'a dozen')
    >>> _counted_span(_Sentence(0, "He was eighteen minutes and a half late.", frozenset()), 7, 15, frozenset({_root("minutes")}))
    'eighteen minutes and a half'
    >>> [m.group(0) for m in _NUMBER.finditer("two and a half miles, and a half-crown twice")]
    ['two and a half', 'twice']
    """
    start = a - 2 if re.search(r"(?<![\w'’])[aA]\s$", s.text[max(0, a - 3) : a]) else a
    for m in re.finditer(r"\s+([\w'’-]+)", s.text[b:]):
        between = s.text[b : b + m.start()]
        if len(between.split()) >= 3 or re.search(r"[,;:!?()\"“”—]", between):
            break
        if any(r in counted for r in _word_roots(m.group(1))):
            half = re.match(r"\s+and\s+a\s+half\b", s.text[b + m.end() :])  # "eighteen minutes and a half"
            return s.text[start : b + m.end() + (half.end() if half else 0)]
    return s.text[start:b]


def _counts(s: _Sentence, a: int, b: int, counted: frozenset[str]) -> float:
    """How a number at ``s.text[a:b]`` stands to what the question counts: 2 when the counted noun
    follows it in at most three words ("fifteen shillings", "three legs", "a dozen servers"), 1 when
    its sentence or the words around it say the noun, 0.3 when nothing near it does (a count of
    something else). "one" not before the noun is taken for a pronoun ("no one", "one of them"): 0.

    >>> s, coin = _Sentence(0, "His clerk had fifteen shillings a week and one good coat.", frozenset()), frozenset({_root("shillings")})
    >>> _counts(s, 14, 21, coin), _counts(s, 43, 46, coin)
    (2.0, 0.0)
    >>> _counts(_Sentence(0, "He waited three days.", frozenset()), 10, 15, coin)
    0.3
    >>> s = _Sentence(0, "He knocked twice.", frozenset())
    >>> _counts(s, 11, 16, _counted("How many times did he knock?")), _counts(s, 11, 16, coin)
    (2.0, 0.0)
    """
    if not counted:
        return 1.0
    if s.text[a:b].lower() in _TIMES_SAID:  # "twice" counts times, and nothing else
        return 2.0 if _root("times") in counted else 0.0
    following = re.match(r"(?:\s+[\w'’-]+){1,3}", s.text[b:])
    words = [r for w in (following.group(0).split() if following else []) for r in _word_roots(w)]
    if any(r in counted for r in words[:3]):
        return 2.0
    if s.text[a:b].lower() == "one":
        return 0.0
    before, after = s.context
    around = {r for w in (*before, *after) for r in w} | set(s.tokens)
    return 1.0 if around & counted else 0.3


#: how much the question's terms in the scene around a count or a time (the text either side of its
#: sentence in its passage) weigh against those near it: "eighteen minutes … behind his time" after
#: "catch Bob Cratchit coming late!" answers how late Bob is, not "home in five minutes" at a party
SCENE = 0.8


def _unheaded(s: _Sentence, a: int) -> tuple[_Sentence, int]:
    """The sentence a value at ``s.text[a:]`` stands in, without the heading in capitals the text
    runs into it ("THE FIRST OF THE THREE SPIRITS When Scrooge awoke"), whose words are not its
    context; and where that sentence starts in ``s.text``.

    >>> _unheaded(_Sentence(0, "[Illustration] THE FIRST SPIRIT When he awoke, it was dark.", frozenset()), 32)[0].text
    'When he awoke, it was dark.'
    >>> _unheaded(_Sentence(0, "THE FIRST SPIRIT came when he awoke.", frozenset()), 22)[1]
    0
    """
    head = re.sub(r"\[[^\]]*\]", "", s.text[:a])  # "[Illustration]" marks no words
    if not re.search(r"[A-Z]{2}", head) or re.search(r"[a-z]", head):
        return s, 0
    text = s.text[a:]
    return _Sentence(s.passage, text, _roots(text)), a


def _span_candidates(question: str, qt: QuestionType, q: _Question, sentences: Sequence[_Sentence],
                     passages: Sequence[Passage]) -> list[Candidate]:
    """The numbers (how many) or time expressions (when) of the evidence as candidate answers — never
    an entity — each supported, passage by passage, by how well the words around it match the
    question (:func:`_near`) and, for a count, by what it counts (:func:`_counts`); a value the
    question itself says is not an answer. Best first."""
    pattern = _NUMBER if qt.kind == "how-many" else _DATE
    counted = _counted(question) if qt.kind == "how-many" else frozenset()
    asked = " ".join(tokenize(question))
    passage_tokens = [_roots(p.text) for p in passages]
    keys = [" ".join(p.text.split()).lower() for p in passages]
    found: dict[str, tuple[dict[int, float], list[tuple[float, str]]]] = {}
    scene: dict[str, float] = {}
    for s in sentences:
        for m in pattern.finditer(s.text):
            a, b = m.span()
            if (qt.kind == "how-many" and m.group(0).lower() == "one" and _ONE_PRONOUN.search(s.text[max(0, a - 12) : a])
                    and _counts(s, a, b, counted) < 2):
                continue  # "the one", "that one" — unless it counts the asked thing ("only one ghost")
            key = " ".join(tokenize(_ARTICLES.sub("", m.group(0))))
            if not key or f" {key} " in f" {asked} ":
                continue
            t, at = _unheaded(s, a)
            near = _near(t, a - at, b - at, q, passage_tokens[s.passage])
            if s.text not in scene:
                scene[s.text] = q.describes(_roots(f"{s.before} {s.after}") | s.tokens)
            weight = SCENE if qt.kind == "how-many" else SCENE / 2
            near *= 1.0 - weight / 2 + weight * scene[s.text]
            near = min(1.0, near * _counts(s, a, b, counted))
            per, shown = found.setdefault(key, ({}, []))
            per[s.passage] = max(per.get(s.passage, 0.0), near)
            shown.append((near, _counted_span(s, a, b, counted) if qt.kind == "how-many" else _ARTICLES.sub("", m.group(0))))
    out = []
    for per, shown in found.values():
        top = max(per.values())
        # a passage where the same value counts or dates something else is not its support
        per = {at: v for at, v in per.items() if v >= top / 2}
        support, best, order = _support(per, keys)
        if support <= 0:
            continue
        strength = support * q.found
        name = max(shown, key=lambda x: x[0])[1]
        why = f"{'number' if qt.kind == 'how-many' else 'time'} supported {support:.3f} from {len(order)} passage(s), best {best:.2f}"
        out.append(Candidate(name, "NUMBER" if qt.kind == "how-many" else "DATE", round(strength, 6), tuple(order), why,
                             round(best, 6), round(strength, 6)))
    out.sort(key=lambda c: (-c.score, min(c.support, default=0)))  # a tie: the value said first
    return out


#: the words that deny what follows them in their clause
_DENIALS = frozenset("not never no none nobody nothing neither nor cannot nowhere without "
                     # verbs that deny the act after them ("refused to give money", "failed to see")
                     "refuse refused refuses refusing fail failed fails failing decline declined declines declining "
                     "deny denied denies denying".split())
_CLAUSE_MARK = re.compile(r"[,;:!?()\"“”—–]|--")
#: the least share of a yes-no question's terms its best evidence sentence must say to answer it
YES_NO_COVERAGE = 0.5


def _denies(text: str, q: _Question) -> bool:
    """Whether a sentence denies what a yes-no question asks: most (by weight) of the question's
    descriptive terms it says stand after a denial in their clause ("Jordan was not one to embrace
    fantastical theories"); a denial in another clause does not count ("This panel is a recent
    addition — covering something they didn't want found" affirms a recent addition).

    >>> q = _Question("Is the panel a recent addition?", [])
    >>> _denies("This panel is a recent addition — covering something they didn't want found.", q)
    False
    >>> _denies("This panel is not a recent addition.", q), _denies("No, this panel is a recent addition.", q)
    (True, False)
    >>> _denies("He refused to give money to the poor.", _Question("Did he give money to the poor?", []))
    True
    """
    said: dict[str, bool] = {}
    denied = False
    for m in re.finditer(r"[A-Za-z][\w'’-]*|[,;:!?()\"“”—–]|--", text):
        tok = m.group(0).lower().strip("'’")
        if _CLAUSE_MARK.fullmatch(tok):
            denied = False
        elif tok in _DENIALS or tok.endswith(("n't", "n’t")):
            denied = True
        else:
            for r in _word_roots(tok):
                if r in q.weight:
                    said.setdefault(r, denied)
    weight_denied = sum(q.weight[t] for t, d in said.items() if d)
    return weight_denied > sum(q.weight[t] for t, d in said.items() if not d)


#: abbreviated titles and the role each stands for (general knowledge: "Dr. Hayes" is a doctor)
_TITLE_ROLES = {"dr": "doctor", "capt": "captain", "prof": "professor", "lt": "lieutenant", "sgt": "sergeant",
                "col": "colonel", "gen": "general", "cmdr": "commander", "rev": "reverend", "gov": "governor",
                "sen": "senator", "det": "detective", "insp": "inspector", "adm": "admiral", "maj": "major"}
#: "Is X a R?", "Was X the old R?": a yes-no question whether someone named is a role (the last word)
_ASKS_ROLE = re.compile(r"^(?:is|was|are|were)\s+.+?\s+(?:a|an|the)\s+(?:[a-z-]+\s+){0,2}(?P<r>[a-z]+)\s*[?.!]*$", re.I)


def _addressed(question: str, q: _Question, sentences: Sequence[_Sentence]) -> list[_Sentence]:
    """The sentences, each also saying the role a yes-no question asks of someone it names ("Is X
    a doctor?") where it names them with that role as their form of address ("Dr. Jordan Hayes",
    "Captain Ahab"): a title states the role.

    >>> question = "Is Jordan Hayes a doctor?"
    >>> q = _Question(question, ["Jordan Hayes"])
    >>> said = _addressed(question, q, [_Sentence(0, "Dr. Jordan Hayes frowned.", _roots("Dr. Jordan Hayes frowned."))])
    >>> _root("doctor") in said[0].tokens
    True
    >>> question = "Is Jordan Hayes a captain?"  # another title: no role said
    >>> said = _addressed(question, _Question(question, ["Jordan Hayes"]), said)
    >>> _root("captain") in said[0].tokens
    False
    """
    m = _ASKS_ROLE.match(" ".join(question.split()))
    if m is None or not q.named:
        return list(sentences)
    role = m.group("r").lower()
    titles = [role, *(t for t, r in _TITLE_ROLES.items() if r == role)]
    pattern = re.compile(r"(?<![\w'’])(?i:" + "|".join(titles) + r")\.?\s+((?:[A-Z][\w'’-]*\s*){1,3})")
    out = []
    for s in sentences:
        if any(q.named & _roots(t.group(1)) for t in pattern.finditer(s.text)):
            s = dataclasses.replace(s, tokens=s.tokens | {_root(role)})
        out.append(s)
    return out


#: a sentence that gives a reason ("because", "so that", "in order to", "due to")
_CAUSAL = re.compile(r"\b(?:because|so\s+that|in\s+order\s+to|so\s+as\s+to|due\s+to|owing\s+to|as\s+a\s+result|for\s+the\s+sake"
                     r"|lest|therefore|hence|which\s+is\s+why|the\s+reason)\b", re.I)
#: a sentence whose subject points back at the sentence before it ("And that's worth more than
#: protocol.", "This is why …", "It was because …"): what it says of "that" is said of what came before
_ANAPHORIC = re.compile(r"^[_*\"“‘'(\s]*(?:(?:and|but|so|yet)\s+)?(?:that|this|which)(?:['’]s\b|\s+(?:is|was|are|were|makes|made"
                        r"|explains|explained|means|meant)\b)|^[_*\"“‘'(\s]*(?:(?:and|but|so|yet)\s+)?it\s+(?:is|was)\s+(?:because|why)\b",
                        re.I)


def _with_antecedents(sentences: Sequence[_Sentence]) -> list[_Sentence]:
    """The sentences, each that opens pointing back at the one before it in its passage (:data:`_ANAPHORIC`)
    joined to that one: the reason for what it says is there.

    >>> s = _sentences([Passage("Alex thought: their mind sees the patterns. And that's worth more than protocol.", "c")])
    >>> [x.text for x in _with_antecedents(s)][-1]
    "Alex thought: their mind sees the patterns. And that's worth more than protocol."
    >>> len(_with_antecedents(_sentences([Passage("Alex sees patterns. And Jordan is worth more than protocol.", "c")])))
    2
    """
    out = list(sentences)
    for k in range(1, len(sentences)):
        s, before = sentences[k], sentences[k - 1]
        if s.passage == before.passage and _ANAPHORIC.match(s.text):
            text = f"{before.text} {s.text}"
            out[k] = _Sentence(s.passage, text, before.tokens | s.tokens, before.before, s.after)
    return out


#: the "NAME → NAME: " or "NAME: " a relationship's or an entity's description opens with
_HEADER = re.compile(r"^[A-Z0-9][A-Z0-9 '’.&-]*[A-Z0-9](?:\s+→\s+[A-Z0-9][A-Z0-9 '’.&-]*[A-Z0-9])?:\s+(?=\S)")


#: "in the end", "at last", "finally": words that place the question in time, not terms the evidence must say
_IN_THE_END = re.compile(r"\s*,?\s*\b(?:in\s+the\s+end|at\s+(?:the\s+)?last|at\s+the\s+end(?!\s+of\b)|eventually|finally|ultimately)\b",
                         re.I)


def _sentence_score(s: _Sentence, q: _Question, qt: QuestionType, passage: frozenset[str] = frozenset()) -> float:
    """How well a sentence answers a why / what / how / yes-no question: its coverage of the question's
    terms, a little more for a why-question when it gives a reason; for a yes-no question, half when
    neither it nor its passage (``passage``: its word roots) names all that the question names (it is
    about something else).

    >>> q, qt = _Question("Is Edgar a keeper?", ["Edgar"]), classify("Is Edgar a keeper?")
    >>> s = _Sentence(0, "Mira is a keeper.", _roots("Mira is a keeper."))
    >>> _sentence_score(s, q, qt), _sentence_score(s, q, qt, _roots("Edgar and Mira"))
    (0.3, 0.6)
    """
    cover = q.coverage(s.tokens)
    if qt.kind == "why" and _CAUSAL.search(s.text):
        return cover * 1.15
    if qt.kind == "yes-no" and q.links(s.tokens | passage) < 1:
        return cover * 0.5
    return cover


# -- the answer ---------------------------------------------------------------------------------
def extract_answer(question: str, passages: Sequence[Passage], *, max_evidence: int = 6) -> Extraction:
    """The answer to ``question`` from ``passages`` (see the module docstring)."""
    qt = classify(question)
    sentences = _sentences(passages)
    if qt.kind == "why":
        sentences = _with_antecedents(sentences)
    if qt.kind == "yes-no":  # "… in the end?": when, not what, the evidence must say
        question = _IN_THE_END.sub("", question)
    q = _question(question, passages, sentences)
    if qt.kind == "yes-no":
        sentences = _addressed(question, q, sentences)
    cite = _Citations(passages)
    passage_roots = [_roots(p.text) for p in passages] if qt.kind == "yes-no" else [frozenset[str]()] * len(passages)

    def ranked_sentences(pool: Sequence[int] | None = None) -> list[int]:
        idx = range(len(sentences)) if pool is None else pool
        return sorted(idx, key=lambda k: (-_sentence_score(sentences[k], q, qt, passage_roots[sentences[k].passage]),
                                          sentences[k].passage, k))

    thing = None
    if not qt.wants_name and q.rest and (_thing_head(question) or _stranded(question)):  # "what creature …": a common noun
        # what a preposition's object is, not whom: a person is no answer ("Bob Cratchit" is the clerk, not what he warms himself at)
        thing = _named_answer(question, dataclasses.replace(qt, wants_name=True), q, sentences, passages, _Citations(passages),
                              not_of=frozenset({_PERSON}) if _stranded(question) else frozenset())
    if qt.wants_name and q.rest:
        first, chosen, rejected = _named_answer(question, qt, q, sentences, passages, cite)
    elif thing is not None and thing[1] is not None and thing[1].name[:1].islower():
        cite(thing[1].support[:3])  # the same numbers as its first line
        first, chosen, rejected = thing
    else:  # a sentence answers
        first, chosen, rejected = _sentence_answer(qt, q, sentences, ranked_sentences(), passage_roots, cite)
    pool = ranked_sentences([k for k in range(len(sentences)) if chosen is None or sentences[k].passage in chosen.support] or None)
    evidence = _evidence_lines(q, sentences, pool, first, max_evidence)
    return Extraction(qt, first, chosen is not None, chosen, rejected, evidence, tuple(cite.sources))


class _Citations:
    """The citation marks of an answer ("[1] [2]"), numbering the passages' sources in the order
    they are first cited; ``sources`` lists them."""

    def __init__(self, passages: Sequence[Passage]) -> None:
        self.passages = passages
        self.sources: list[str] = []

    def __call__(self, indices: Sequence[int]) -> str:
        marks: list[str] = []
        for i in indices:
            for src in (self.passages[i].source or "").split(" ;; "):
                if src:
                    if src not in self.sources:
                        self.sources.append(src)
                    mark = f"[{self.sources.index(src) + 1}]"
                    if mark not in marks:
                        marks.append(mark)
        return " ".join(marks)


def _named_answer(question: str, qt: QuestionType, q: _Question, sentences: Sequence[_Sentence],
                  passages: Sequence[Passage], cite: _Citations, not_of: frozenset[str] = frozenset()
                  ) -> tuple[str, Candidate | None, tuple[Candidate, ...]]:
    """The first line, chosen and rejected candidates of a question a name, number or time answers
    (none of the types ``not_of``)."""
    if qt.kind in _SPAN_KINDS:  # a count or a time, never an entity
        scored = _span_candidates(question, qt, q, sentences, passages)
    else:
        scored = [c for c, _ in _candidates(question, passages, qt, q, sentences) if c.type not in not_of]
    if scored and scored[0].strength >= MIN_SUPPORT and scored[0].cover >= MIN_COVERAGE:
        chosen = scored[0]
        marks = cite(chosen.support[:3])
        return f"The answer is {chosen.name}" + (f" {marks}" if marks else "") + ".", chosen, tuple(scored[1:8])
    best = f" (best candidate {scored[0].name}, strength {scored[0].strength:.3f})" if scored else ""
    first = f"The data does not answer the question: no {_wanted(qt)} in the retrieved evidence is supported well enough{best}."
    return first, None, tuple(scored[:8])


def _sentence_answer(qt: QuestionType, q: _Question, sentences: Sequence[_Sentence], order: Sequence[int],
                     passage_roots: Sequence[frozenset[str]], cite: _Citations
                     ) -> tuple[str, Candidate | None, tuple[Candidate, ...]]:
    """The first line, chosen and rejected sentences of a question a sentence answers (why, what,
    yes-no: "Yes"/"No" before it), from the sentences best first."""
    top = order[0] if order else None
    cover = _sentence_score(sentences[top], q, qt, passage_roots[sentences[top].passage]) if top is not None else 0.0
    if top is None or cover < (YES_NO_COVERAGE if qt.kind == "yes-no" else MIN_COVERAGE):
        return "The data does not answer the question: no retrieved passage covers enough of what it asks.", None, ()
    s = sentences[top]
    chosen = Candidate(s.text, None, round(cover, 6), (s.passage,), f"sentence covering {cover:.2f} of the question's terms")
    rejected = tuple(Candidate(sentences[k].text, None, round(q.coverage(sentences[k].tokens), 6), (sentences[k].passage,))
                     for k in order[1:4] if q.coverage(sentences[k].tokens) > 0)
    body = _HEADER.sub("", s.text.rstrip())
    if qt.kind == "yes-no":
        body = ("No" if _denies(s.text, q) else "Yes") + ": " + body
    marks = cite([s.passage])
    first = body if not marks else (body[:-1] + f" {marks}" + body[-1] if body[-1] in ".!?" else f"{body} {marks}")
    return first, chosen, rejected


def _evidence_lines(q: _Question, sentences: Sequence[_Sentence], pool: Sequence[int], first: str,
                    max_evidence: int) -> tuple[tuple[int, str], ...]:
    """The supporting evidence after the first line: up to ``max_evidence`` distinct sentences of
    ``pool`` (best first) that say something the question asks, each with its passage."""
    evidence: list[tuple[int, str]] = []
    seen: set[str] = {first}
    for k in pool:
        s = sentences[k]
        if s.text in seen or q.coverage(s.tokens) <= 0 or len(s.text) < 12:
            continue
        seen.add(s.text)
        evidence.append((s.passage, s.text))
        if len(evidence) >= max_evidence:
            break
    return tuple(evidence)


def _wanted(qt: QuestionType) -> str:
    if qt.kind == "how-many":
        return "number"
    if qt.kind == "when":
        return "time"
    if not qt.types:
        return "candidate"
    best = max(qt.types, key=lambda t: qt.types[t])
    return {"PERSON": "person", "ORGANIZATION": "organization", "GEO": "place", "EVENT": "event"}.get(best, best.lower())

