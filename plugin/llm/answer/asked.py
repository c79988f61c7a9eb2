"""What the question asks: its key terms (the role, the act and what it is done to), its verb and the noun
it asks the name of."""

from __future__ import annotations

import itertools
import re

from ..text import STOPWORDS, content_tokens
from .question import _as_who, _name_of, _Question
from .relations import _relation
from .words import _AUXILIARIES, _PREPOSITIONS, _root, _roots


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
    """The roots of the role or relation noun the question asks its answer to be and whether it is a relation
    (which :func:`_states_key` reads loosely) and whether the name is tied to it (:func:`_noun_terms`); else, for
    "Who VERBs …?" ("Which NOUN VERBs …?"), the act and what it is done to (:func:`_act_terms`); no terms when the
    question asks neither.

    >>> [sorted(_key_terms(q)[0]) for q in ("Who is the captain of the whaling ship?", "Who was the jovial old merchant?",
    ...                                     "Who is Tiny Tim's father?", "Who is a miserly money-lender?")]
    [['captain'], ['merchant'], ['boy', 'child', 'daughter', 'father', 'girl', 'son'], ['lender']]
    >>> _key_terms("Who is Tiny Tim's father?")[1:], _key_terms("What is the name of young Scrooge's schoolmaster?")
    ((True, False), (frozenset({'schoolmast'}), False, True))
    >>> _key_terms("Who is the captain of the whaling ship?")[1:], _key_terms("What is the name of the captain of the ship?")[1:]
    ((False, False), (False, True))
    >>> [sorted(_key_terms(q)[0]) for q in ("Who commands the alien fleet?", "Who steps into the role of leader?")]
    [['command', 'fleet'], ['lead', 'step']]
    >>> _key_terms("What is the name of the man Belle married?"), _key_terms("Who was the man Belle married?")[0]
    ((frozenset({'marri'}), False, True), frozenset())
    """
    found = _noun_terms(question)
    if found is not None:
        return found
    return _act_terms(_as_who(" ".join(question.split())))


def _noun_terms(question: str) -> tuple[frozenset[str], bool, bool] | None:
    """The terms of the noun the question asks its answer to be: a kinship or work relation ("Who is X's R?",
    with the relation's converses; loose), the noun a name is "called" by, the act of a relative clause after
    the noun a name is asked of, or a role ("Who is the R (of …)?", "Who was the kind-hearted old R?"); None
    when it asks none of these.

    >>> _noun_terms("What is the name of the crew's navigator?")
    (frozenset({'navig'}), False, True)
    >>> sorted(_noun_terms("What is the boy beside the well called?")[0]), _noun_terms("Who mends the nets?")
    (['boy'], None)
    """
    tied, act = _name_of(question) is not None, _relative_verb(question)
    question = _as_who(" ".join(question.split()))
    rel = _relation(question)
    if rel is not None:  # a kinship or work relation (it has a converse) is loose; a role must be said of its holder
        return frozenset(_root(w) for w in (rel.head, *rel.converse)) - {""}, bool(rel.converse), not rel.converse
    called = _called_noun(question)
    if called is not None:  # "What is the girl … called?": the evidence must say of the name that it is the girl's
        return frozenset({called}), False, False
    if act:  # "What is the name of the man Belle married?": the act must be said of the name
        return frozenset({act}), False, True
    m = _ASKED_ROLE.match(question)
    if m is not None and m.group("r").lower() not in _AUXILIARIES and m.group("r").lower() not in STOPWORDS:
        return frozenset({_last_root(m.group("r"))}), False, tied
    return None


def _act_terms(question: str) -> tuple[frozenset[str], bool, bool]:
    """For "Who VERBs …?" ("Which NOUN VERBs …?", ``question`` as a who-question) the roots of the verb and of
    the head of each phrase after it, of which the evidence must have one: summaries and pronouns word what
    someone does in many ways ("He barked", "a dealer who purchases"), but evidence that has neither the act
    nor what it is done to, with or where, is about something else. A verb of saying has none (quoted words say
    what was said, in their own words), nor has a question whose verb is none.

    >>> sorted(_act_terms("Which miller grinds the barley?")[0]), _act_terms("Who whispers to the guard?")
    (['barley', 'grind'], (frozenset(), False, False))
    >>> [sorted(_act_terms(q)[0]) for q in ("Who is kind and patient?", "Who asks Nell whether she will stay?")]
    [[], []]
    >>> _act_terms("Which cart beside the mill did the boy push?")  # a preposition after the noun: no act asked
    (frozenset(), False, False)
    """
    m = _ASKED_ACT.match(question)
    if m is None or not _act_verb(m.group("v")) or _root(m.group("v")) in _SAYING:
        return frozenset(), False, False
    # the head of each phrase of the rest: its last word before a preposition, a conjunction or the end
    heads = [p.split()[-1] for p in re.split(r"\b" + _ACT_BREAK + r"\b", m.group("o")) if p.split()]
    return frozenset(_last_root(w) for w in (m.group("v"), *heads) if w[:1].islower() and w not in STOPWORDS) - {""}, True, False


def _act_verb(word: str) -> bool:
    """Whether the word after "Who" ("Which NOUN") can be the verb a "Who VERBs …?" question asks the act of: not an
    auxiliary, a function word or a preposition ("Which birds beneath the eaves was he told to feed?" asks no act
    "beneath" the answer does).

    >>> _act_verb("fended"), _act_verb("was"), _act_verb("beneath"), _act_verb("the")
    (True, False, False, False)
    """
    return word not in _AUXILIARIES and word not in STOPWORDS and word.lower() not in _PREPOSITIONS


#: "Who is the N [that] X VERBed …", "Who is the N who/that VERBs …": a noun a relative clause after it says what was
#: done by or to (the noun is the first word after which the clause starts)
_NOUN = r"^(?i:who\s+(?:is|was|are|were)\s+(?:the|an?))\s+(?:[a-z][\w'’-]*\s+){0,3}?[a-z][\w-]*\s+"
_AUX = r"(?:(?:had|has|have|was|were|is|are|did|does|do|would|will)\s+)?"
_RELATIVE = (re.compile(_NOUN + r"(?:(?:whom|that)\s+)?(?:[A-Z][\w'’.-]*\s+)+" + _AUX + r"(?P<v>[a-z][a-z'-]*)\b"),
             re.compile(_NOUN + r"(?:(?:whom|that)\s+)?(?:he|she|they|we|you|I)\s+" + _AUX + r"(?P<v>[a-z][a-z'-]*)\b"),
             re.compile(_NOUN + r"(?:who|that|which)\s+" + _AUX + r"(?P<v>[a-z][a-z'-]*)\b"))


def _relative_verb(question: str) -> str | None:
    """The root of the verb of the relative clause a "What is the name of the N …?" question asks
    the name by ("the man Belle married", "the boy who carried the turkey"); None when the noun
    has none ("the captain of the ship").

    >>> _relative_verb("What is the name of the man Belle married?"), _relative_verb("What is the name of the boy who ran?")
    ('marri', 'run')
    >>> _relative_verb("What is the name of the captain of the ship?"), _relative_verb("What is the name of Fred's wife?")
    (None, None)
    >>> _relative_verb("Who is the father that stood by the fire?") is None
    True
    """
    if _name_of(question) is None:
        return None  # "Who is the father that stood by the fire?" asks the role, said in many ways
    who = _as_who(" ".join(question.split()))
    for pattern in _RELATIVE:
        m = pattern.match(who)
        if m is not None and m.group("v") not in _AUXILIARIES and m.group("v") not in STOPWORDS:
            return _root(m.group("v"))
    return None


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


#: "What is the girl under the robe called?", "What was the ship named?": the noun whose name is asked
_CALLED_ASK = re.compile(r"^(?:what|who)\s+(?:is|was|are|were)\s+(?:the|this|that)\s+(?P<np>[a-z].*?)\s+(?:called|named)\s*[?.!]*$",
                         re.I)

#: the prepositions the stop-word list lacks: a noun phrase ends before them ("the girl beneath the sail")
_UNLISTED_PREPOSITIONS = _PREPOSITIONS - STOPWORDS


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
    words = list(itertools.takewhile(lambda w: w not in STOPWORDS and w not in _UNLISTED_PREPOSITIONS, m.group("np").lower().split()))
    return _root(words[-1]) if words else None  # the noun ends before its first function word


#: "How old is/was X?", "How old were they when …?": an age is asked
_HOW_OLD = re.compile(r"^\s*how\s+old\b", re.I)

#: a number stated as an age: "N years old", "N-year-old", "N years of age", "aged N", "at the age of N", "age N"
_AGE_AFTER = re.compile(r"^[\s-]*(?:(?:years?|months?)[\s-]+(?:old|of\s+age)\b|(?:year|month)s?-old\b)", re.I)
_AGE_BEFORE = re.compile(r"\b(?:aged|age(?:\s+of)?)\s+(?:about\s+|only\s+|just\s+)?$", re.I)


def _asks_age(question: str) -> bool:
    """Whether the question asks someone's age ("How old is Tiny Tim?").

    >>> _asks_age("How old is Tiny Tim?"), _asks_age("How long has Marley been dead?")
    (True, False)
    """
    return _HOW_OLD.match(question) is not None


def _states_age(text: str, a: int, b: int) -> bool:
    """Whether the number at ``text[a:b]`` is stated as an age ("nine years old", "a five-year-old",
    "aged seventy"); a number of anything else ("32 pages", "seventy years of gloom") is none.

    >>> text = "A boy nine years old, aged ten, a six-year-old and seventy years of toil."
    >>> [_states_age(text, text.index(n), text.index(n) + len(n)) for n in ("nine", "ten", "six", "seventy")]
    [True, True, True, False]
    """
    return _AGE_AFTER.match(text[b:]) is not None or _AGE_BEFORE.search(text[max(0, a - 20) : a]) is not None


#: words that single out one of many ("the last transmission", "the first ghost", "the only survivor", "the
#: youngest son"): what is done to or by that one is one act, not any act of its kind
_QUALIFIERS = frozenset("last first final latest earliest only sole second third fourth fifth next previous "
                        "youngest eldest oldest".split())


#: the roots of verbs that join a subject to what it is ("became a second father"), not an act
_COPULAS = frozenset(_root(w) for w in "become became becomes remain remained remains seem seemed seems stay stayed".split())


def _qualified_act(question: str) -> str | None:
    """The root of the verb of a "Who VERBs …?" ("Which NOUN VERBs …?") question whose object is
    singled out by a qualifier ("Who sent the last transmission …?"): the evidence must state that
    act of the answer, not only what it is done to (a name beside "the last transmission logs"
    did not send the last transmission); None for other questions.

    >>> _qualified_act("Who sent the last transmission from Dulce before it went silent?")
    'send'
    >>> _qualified_act("Who sent the transmission from Dulce?"), _qualified_act("Who is the last of the ghosts?")
    (None, None)
    >>> _qualified_act("Who became a second father to Tiny Tim?") is None  # a copula states a role, not an act
    True
    """
    m = _ASKED_ACT.match(" ".join(question.split()))
    if m is None or not _act_verb(m.group("v")) or _root(m.group("v")) in _SAYING | _COPULAS:
        return None
    phrase = re.split(r"\b" + _ACT_BREAK + r"\b", m.group("o"))[0]
    return _root(m.group("v")) if set(phrase.lower().split()) & _QUALIFIERS else None


#: "In which state is …?", "Over what drink does …?": the preposition whose object the question asks
_SLOT_ASK = re.compile(r"^\s*(?P<p>in|on|at|over|under|into|from|to|with|inside|within|near)\s+(?:which|what)\s+[a-z]", re.I)

#: the prepositions that say what each asked one says ("in which state": "in", "inside", "within")
_SLOT_FORMS = {"in": ("in", "inside", "within", "into"), "on": ("on", "upon", "onto"), "into": ("into", "in"),
               "inside": ("inside", "in", "within"), "within": ("within", "in", "inside"), "to": ("to", "into", "toward", "towards")}


def _slot(question: str) -> tuple[str, ...] | None:
    """The prepositions a "PREP which/what NOUN …?" question asks the object of: its answer is
    the thing after one of them in the sentence that answers ("over a Christmas bowl of smoking
    bishop"); None for other questions.

    >>> _slot("In which state is the crash site?"), _slot("Over what drink do they talk?"), _slot("Which state is it in?")
    (('in', 'inside', 'within', 'into'), ('over',), None)
    """
    m = _SLOT_ASK.match(question)
    return None if m is None else _SLOT_FORMS.get(m.group("p").lower(), (m.group("p").lower(),))


def _fills_slot(text: str, forms: tuple[str, ...], asked: frozenset[str]) -> bool:
    """Whether a sentence has one of the prepositions ``forms`` before a phrase saying something the
    question does not (a content word whose root is not in ``asked``): "in New Mexico" fills "In
    which state is the crash site?"; "retrieved from the crash site" does not, nor does "in the crash site".

    >>> asked = _roots("In which state is the crash site where the circuitry was found?")
    >>> _fills_slot("It was found near Roswell in New Mexico.", ("in",), asked)
    True
    >>> _fills_slot("Hayes probed the circuitry retrieved from the crash site.", ("in",), asked)
    False
    >>> _fills_slot("The circuitry was found in the crash site near the old road.", ("in",), asked)
    False
    """
    for m in re.finditer(r"\b(?:" + "|".join(forms) + r")\s+([^.;:!?,()]*)", text, re.I):
        words = m.group(1).lower().split()
        while words and words[0] in STOPWORDS:
            words.pop(0)  # "the", "a", "his": the phrase's head comes after
        phrase = list(itertools.takewhile(lambda w: w not in STOPWORDS and w not in _UNLISTED_PREPOSITIONS, words))
        if any(t not in asked for w in phrase for t in _roots(w)):
            return True
    return False
