"""Yes-no questions: the sentence that states the asked predication, and whether it affirms or denies it.

A yes-no question asks whether a predication holds: a subject, a verb or a predicate adjective or
noun, its object. What only places or qualifies it — a manner adverb ("visibly"), a hedge ("usual"),
a time ("at night", "during his night with Scrooge", "when they arrived") — is an *adjunct*: a sentence
stating the predication need not repeat it, so it weighs :data:`ADJUNCT` of a term
(:func:`_adjuncts`). A sentence states the predication as far as it says its terms and speaks of the
names it uses (:func:`statement_score`; a quotation over several sentences is one statement,
:func:`with_quotations`; a supposition — "If he …" — weighs less). The *focus* is the part a denial
must reach: the thing an existential question asks about ("Is there a sword …?" → sword), the noun
of "Was it X's custom to …?", the predicate of "Is/Was X P?", else what follows the subject
(:func:`_focus`). A sentence denies the predication when the focus it says stands after a denial in
its clause, or when it says a *contrary* word (:func:`_contrary`: "open" for "shut", "unlocked" for
"locked", "smaller" for "big") that no denial reverses (:func:`denies`) — or said of the very noun asked ("a
small fire" for "a big fire") —; what "more … than", "rather than", "instead of" set aside is denied as after
"not". It denies it too when it says the relation asked the other way round ("Is A B's N?" — "B is A's N",
:func:`_reversed`), the act done with *another* one ("married another man", :func:`_another`), or the act in
another place, destination or source of the same kind as the one asked (a name for a name, a noun WordNet puts in
the same kind: :func:`_replaced`), the asked noun with another count, owner or adjective ("seven years" for "ten
years", "Carl's face" for "Ben's face", "a brisk pace" for "a slow pace": :func:`_other_modifier`), or the act asked
of a name done by another name (:func:`_other_doer`), or with another feeling ("with reverence" for "with contempt":
:func:`_other_feeling`). A cleft question ("Was it Ann who opened …?") is asked as a do-question (:func:`declefted`).
A sentence that never says the act a do-question asks
(:func:`says_verb`), or the predicate a copular one asks (:func:`says_predicate`: "Was the hut large?" — "The hut
stood by the lake."), does not state it: "No" — and one that never says the act ranks below one that says it
(:data:`UNSAID_ACT`). A pronoun speaks
of the one the nearest earlier sentence naming someone names (the nearest antecedent), not of any the passage named.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from ..text import content_tokens
from .antecedents import THIRD_PERSON as _THIRD_PERSON
from .antecedents import is_name_word, person_sentence, sentences_before
from .lexicon import ACT_SENSES, SENSES, _ancestors, _depth, _senses, _synsets, is_a, lemmas, manner_adverb, says_act
from .question import _LEADING_PHRASE, _TITLES, _Question
from .sentence import _IN_THE_END
from .times import _NUMBER, _TIMES_SAID
from .words import (
    _CLAUSE_MARK,
    _DETERMINERS,
    _FINITE_BE,
    _FIRST_AND_SECOND_PERSON,
    _NOT_ADVERBS,
    _POSSESSIVE_END,
    _SUBJECT_PRONOUNS,
    _any_of,
    _root,
    _roots,
    _Sentence,
    _word_roots,
    root_tokens,
)

#: the words that deny what follows them in their clause
_DENIALS = frozenset("not never no none nobody nothing neither nor cannot nowhere without "
                     # verbs that deny the act after them ("refused to give money", "failed to see")
                     "refuse refused refuses refusing fail failed fails failing decline declined declines declining "
                     "deny denied denies denying".split())

#: the least share of a yes-no question's terms (:func:`statement_score`) its best evidence sentence must state to answer it:
#: low, because nearly every yes-no question asked of a text is answerable (a decline is then always wrong), and a
#: sentence that speaks of the question's names while paraphrasing its predicate ("went to church") still answers it
YES_NO_COVERAGE = 0.3

#: the weight of an adjunct term (a manner adverb, a hedge, a time) against a term of the predication
ADJUNCT = 0.25

#: adjectives and adverbs that hedge a predication without changing what it says ("his usual custom")
_HEDGES = frozenset("usual usually customary normal normally typical typically habitual habitually ordinary "
                    "ordinarily actual actually truly certainly ever".split())

#: a time or a circumstance the predication is placed in: "at night", "during his night with X",
#: "when they arrived", "in the morning" (to the next comma or the end)
_TIME = re.compile(r"\b(?:(?:at|by|in|on|that|this|every|each|last)\s+(?:(?:the|that|this|his|her|their|its|one)\s+)?"
                   r"(?:night|nights|day|morning|evening|afternoon|noon|midnight|dawn|dusk|daytime|nighttime)\b"
                   r"|(?:during|throughout|when|while|whenever|until|as\s+soon\s+as)\b[^,;?]*)", re.I)


#: who says the predication holds ("according to Ann", "in Ann's view"): a source, no part of what is asked
_SOURCE = re.compile(r"\b(?:according\s+to|in\s+(?:the\s+)?(?:view|opinion|words)\s+of"
                     r"|in\s+(?:my|his|her|their|its|our|your|(?-i:[A-Z])[\w-]*['’]s?)\s+(?:view|opinion))\b[^,;?]*", re.I)

@functools.lru_cache(maxsize=256)
def _main(question: str) -> str:
    """A yes-no question without the phrases that open it (:data:`.question._LEADING_PHRASE`), from its auxiliary on.

    >>> _main("After the Ghost left, was the door still locked?"), _main("Was the door, too, locked?")
    ('was the door still locked?', 'Was the door, too, locked?')
    >>> _main("Should Ann, had she known, have stayed?"), _main("Ann left early, did she?")
    ('Should Ann, had she known, have stayed?', 'Ann left early, did she?')
    """
    return _opening(question)[1]


def _opening(question: str) -> tuple[str, str]:
    """A yes-no question split into the phrases that open it (:data:`.question._LEADING_PHRASE`) and its main clause.

    >>> _opening("At dusk, by the gate, was it Ann who sang?"), _opening("Was it Ann?")
    (('At dusk, by the gate, ', 'was it Ann who sang?'), ('', 'Was it Ann?'))
    """
    m = _LEADING_PHRASE.match(" ".join(question.split()))
    return (m.string[: m.start("main")], m.group("main")) if m else ("", question)


#: "Was it Ann who opened the door?", "Is it the clerk that keeps the key?": a cleft question (its main clause), the
#: one who did an act
_CLEFT = re.compile(r"^(?P<aux>is|was|are|were)\s+it\s+(?P<who>(?-i:[A-Z])[^\s?,]*(?:\s+[^\s?,]+){0,5}?"
                    r"|(?:the|a|an|his|her|their)(?:\s+[^\s?,]+){1,6}?)\s+(?:who|that)\s+(?P<rest>[^?]+?)\s*\?*\s*$", re.I)

#: the words that open a subject of a cleft's own clause ("… that the clerk kept", "… that he kept")
_OPENS_A_SUBJECT = _DETERMINERS | _SUBJECT_PRONOUNS | _FIRST_AND_SECOND_PERSON

#: the verbs that keep their place before the subject when a cleft question is asked directly (no "do")
_OWN_AUXILIARIES = _FINITE_BE | frozenset("has have had could can would will should might may must".split())


@functools.lru_cache(maxsize=256)
def declefted(question: str) -> str:
    """A cleft yes-no question asked directly: "Was it Ann who first opened the door?" → "Did Ann open the door
    first?" (the words before the verb after it, at the end); "was it Ann who was hurt?" → "was Ann hurt?"; any other
    question, a cleft whose clause has no verb WordNet knows and one whose clause has its own subject ("Was it Monday
    that Ann left?"), as it is.

    >>> declefted("Was it Ann who first opened the door?"), declefted("Is it the clerk that keeps the key?")
    ('Did Ann open the door first?', 'Does the clerk keep the key?')
    >>> declefted("After dark, was it Ann who was hurt?"), declefted("Was it cold?"), declefted("Was it Ann's habit to sing?")
    ('After dark, was Ann hurt?', 'Was it cold?', "Was it Ann's habit to sing?")
    >>> declefted("Was it Lowmoor that Ann visited?"), declefted("Was it the bell that the boy rang?")
    ('Was it Lowmoor that Ann visited?', 'Was it the bell that the boy rang?')
    """
    lead, main = _opening(question)
    m = _CLEFT.match(main)
    if m is None:
        return question
    words = m.group("rest").split()
    at = next((k for k, w in enumerate(words) if w.lower() in _OWN_AUXILIARIES or lemmas(w.lower(), "v")), None)
    if at is None:
        return question
    verb, before, after = words[at], words[:at], words[at + 1:]
    if any(w[0].isupper() or w.lower() in _OPENS_A_SUBJECT for w in before):
        return question  # the clause has a subject of its own: "Was it Monday that Ann left?" asks no doer
    aux = m.group("aux")
    if verb.lower() in _OWN_AUXILIARIES:
        head = verb.lower()
        parts = [m.group("who"), *before, *after]
    else:
        past = aux.lower() in ("was", "were")
        head = "did" if past else ("does" if aux.lower() == "is" else "do")
        parts = [m.group("who"), lemmas(verb.lower(), "v")[0], *after, *before]
    head = head.capitalize() if aux[0].isupper() else head
    return f"{lead}{head} {' '.join(parts)}?"


@functools.lru_cache(maxsize=256)
def _adjuncts(question: str) -> frozenset[str]:
    """The roots of a yes-no question's adjuncts: its manner adverbs, hedges and times.

    >>> sorted(_adjuncts("Does the Ghost visibly grow older during his night with Scrooge?"))
    ['night', 'scroog', 'visibl']
    >>> sorted(_adjuncts("Was it Scrooge's usual custom to double-lock himself in at night?"))
    ['night', 'usual']
    >>> sorted(_adjuncts("Does the family live in a friendly town?"))  # no adverb, no time: none
    []
    >>> sorted(_adjuncts("Did Scrooge once love Belle?"))  # "once" an adverb of time, not a clause
    []
    >>> sorted(_adjuncts("In the first briefing, does Alex agree?"))  # an opening phrase
    ['brief', 'first']
    >>> sorted(_adjuncts("Could the storm sink the ship, according to Ann?"))  # who says it: a source
    ['accord', 'ann']
    """
    main = _main(question)
    out = {_root(w) for w in re.findall(r"[a-z]+", main.lower())
           if w in _HEDGES or (w.endswith("ly") and len(w) > 5 and w not in _NOT_ADVERBS)}
    for m in _TIME.finditer(main):
        out.update(_roots(m.group(0)))
    for m in _SOURCE.finditer(main):
        out.update(_roots(m.group(0)))
    out.update(_roots(question[:len(question) - len(main)]))
    return frozenset(out)


#: pairs of contrary words (general English): one said of a thing denies the other
_CONTRARIES = ("open shut", "open closed", "ajar shut", "ajar closed",
               "alive dead", "awake asleep", "full empty", "present absent", "rich poor",
               "young old", "new old", "light dark", "happy sad", "true false", "right wrong", "early late",
               "hot cold", "warm cold", "safe dangerous", "friendly hostile", "kind cruel", "strong weak",
               "loud quiet", "loud silent", "fast slow", "wet dry", "clean dirty", "win lose", "accept refuse",
               "accept reject", "remember forget", "love hate", "succeed fail", "allow forbid", "include exclude",
               "same different", "together alone", "inside outside", "visible hidden", "guilty innocent",
               "married single", "sober drunk", "open locked", "ajar locked", "big small", "big little",
               "large small", "large little", "long short", "tall short", "high low", "wide narrow", "thick thin")

#: the prefixes that make a word the contrary of the word after them ("unlocked", "invisible", "dishonest");
#: all but un- and non- also begin words of their own ("display", "discover", "income", "inside"): those
#: negate only a word WordNet has as no noun nor verb (:func:`_contrary`)
_NEGATING_PREFIX = re.compile(r"^(?:(?P<sure>un|non-?)|in|im|il|ir|dis)(?=[a-z]{4,})")


#: the words of :data:`_CONTRARIES`
_CONTRARY_WORDS = frozenset(w for pair in _CONTRARIES for w in pair.split())


@functools.lru_cache(maxsize=1)
def _contrary_roots() -> Mapping[str, frozenset[str]]:
    """Each word root of :data:`_CONTRARIES` → the roots of its contraries, read-only (the cached value is shared).

    >>> sorted(_contrary_roots()["shut"])
    ['ajar', 'open']
    >>> _contrary_roots()["shut"] = frozenset()
    Traceback (most recent call last):
    TypeError: 'mappingproxy' object does not support item assignment
    """
    pairs: dict[str, set[str]] = {}
    for pair in _CONTRARIES:
        a, b = (_root(w) for w in pair.split())
        pairs.setdefault(a, set()).add(b)
        pairs.setdefault(b, set()).add(a)
    return MappingProxyType({k: frozenset(v) for k, v in pairs.items()})


def _comparative_bases(word: str) -> tuple[str, ...]:
    """The adjectives of :data:`_CONTRARIES` a word in "-er" or "-est" may be the comparative of, as English spells
    it: "smaller" → small, "bigger" → big, "larger" → large; none for another word, nor for a word WordNet knows as
    a noun ("cleaner", "opener", "shutter": one who cleans, a thing that opens or shuts).

    >>> _comparative_bases("smaller"), _comparative_bases("biggest"), _comparative_bases("door")
    (('small',), ('big',), ())
    >>> _comparative_bases("cleaner"), _comparative_bases("opener"), _comparative_bases("shutter")  # nouns
    ((), (), ())
    """
    m = re.fullmatch(r"([a-z]{2,}?)(i?)(er|est)", word)
    if m is None or lemmas(word, "n"):
        return ()
    stem = m.group(1)
    doubled = stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem
    bases = (stem + "y",) if m.group(2) else (stem, doubled, stem + "e")
    return tuple(b for b in dict.fromkeys(bases) if b in _CONTRARY_WORDS)


@functools.lru_cache(maxsize=1 << 14)
def _contrary(word: str) -> frozenset[str]:
    """The roots of the words ``word`` (lower case) is the contrary of: its pair in :data:`_CONTRARIES`,
    or the word after a negating prefix.

    >>> sorted(_contrary("open")), sorted(_contrary("unlocked")), sorted(_contrary("invisible"))
    (['close', 'lock', 'shut'], ['lock'], ['visibl'])
    >>> sorted(_contrary("smaller")), sorted(_contrary("bigger"))  # a comparative: its adjective's contraries
    (['big', 'larg'], ['littl', 'small'])
    >>> _contrary("under"), _contrary("door"), _contrary("uncle")  # no prefix, no pair: none
    (frozenset(), frozenset(), frozenset())
    >>> _contrary("display"), _contrary("discovered"), _contrary("income")  # words of their own
    (frozenset(), frozenset(), frozenset())
    >>> _contrary("opener"), _contrary("cleaner"), sorted(_contrary("opens"))  # nouns of their own, a form
    (frozenset(), frozenset(), ['close', 'lock', 'shut'])
    """
    nouns = lemmas(word, "n")
    if nouns and not set(nouns) & _CONTRARY_WORDS:
        return frozenset()  # a noun of its own ("opener", "shutters", "cleaner"), no form of a contrary
    out = set(_contrary_roots().get(_root(word), ()))
    for base in _comparative_bases(word):  # "smaller" is the contrary of what "small" is
        out.update(_contrary_roots().get(_root(base), ()))
    m = _NEGATING_PREFIX.match(word)
    if m and (m.group("sure") or not (lemmas(word, "n") or lemmas(word, "v"))):
        out.add(_root(word[m.end():]))
    return frozenset(out)


#: a yes-no question's auxiliary and subject: a determiner and a noun, or a capitalised name (with
#: "of": "the Ghost of Christmas Present"), or a pronoun
_SUBJECT = re.compile(r"^\s*\w+(?:n['’]t)?\s+(?:(?i:the|a|an|this|that|these|those|his|her|their|its|my|your|our)\s+[\w'’-]+"
                      r"|[A-Z][\w'’.-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'’.-]*)*|(?i:he|she|they|it|you|we|i))\b")

#: "Is there a N …?": the thing an existential question asks about
_THERE = re.compile(r"^\s*(?:is|are|was|were)\s+there\s+(?:(?:a|an|any|some|the|one|no)\s+)?(?P<np>(?:[a-z][\w-]*\s+){0,2}?"
                    r"[a-z][\w-]*)(?=\s+(?:in|on|at|inside|under|behind|near|with|of|for|that|which|who|to|from|among|by)\b"
                    r"|\s*[?.!]*$)", re.I)

#: "Was it X's (usual) N to V?": the noun the question asks of the act after it
_IT_NOUN = re.compile(r"^\s*(?:is|was|are|were)\s+it\s+(?:[\w'’-]+\s+){0,3}?(?P<n>[a-z][\w-]*)\s+to\s", re.I)


def _focus(question: str, q: _Question) -> frozenset[str]:
    """The roots of the part of a yes-no question a denial must reach: the thing an existential
    question asks about, the noun of "Is it N to …", the predicate of "Is/Was X P?" (:func:`_predicate`),
    else the question's descriptive terms after its subject (not its adjuncts).

    >>> f = lambda s: sorted(_focus(s, _Question(s, [])))
    >>> f("Is there a sword in the scabbard the Ghost wears?"), f("Was it Scrooge's usual custom to lock the door at night?")
    (['sword'], ['custom'])
    >>> f("Does the drone attack the team?"), f("Were the doors shut when they arrived?")
    (['attack', 'team'], ['shut'])
    >>> f("Does Jordan Hayes embrace fantastical theories?")  # a name for subject
    ['embrac', 'fantast', 'theori']
    >>> f("After the Ghost left, was the door still locked?")  # after an opening adjunct
    ['lock']
    >>> f("Did Ann's dog leave the house with a bone?")  # a possessive's noun is the subject's, no focus
    ['bone', 'hous', 'leav']
    """
    main = _main(question)
    for m in (_THERE.match(main), _IT_NOUN.match(main)):
        if m is not None:
            return frozenset({_root(m.group(m.lastgroup or 0).split()[-1].lower())})
    m = _SUBJECT.match(main)
    words = re.findall(r"[\w'’-]+", main[m.end():]) if m else []
    if m and re.search(r"['’]s?$", m.group(0)):
        words = words[1:]  # "Did Ann's dog bark?": the noun the possessive qualifies is the subject's
    after = [r for w in words for r in _word_roots(w)] if m else list(q.rest)
    terms = [t for t in after if t in q.rest and t not in _adjuncts(question)]
    predicate = _predicate(main, terms)
    return frozenset({predicate} if predicate else terms or q.rest)


def _predicate(question: str, terms: Sequence[str]) -> str | None:
    """The predicate of a copular question ("Was the knocker unusually large?" → large; "Is Sam the
    youngest member of the team?" → member, not the noun of its "of" phrase): its last descriptive
    term after the subject (``terms``, in order); None for a question of another verb.

    >>> p = lambda s: _predicate(s, [t for t in _Question(s, []).rest if t not in _adjuncts(s)])
    >>> p("Was Scrooge's door knocker unusually large?"), p("Is Sam the youngest member of the team?"), p("Does Sam run?")
    ('larg', 'member', None)
    """
    if not re.match(r"\s*(?:is|are|was|were)\b", question, re.I) or not terms:
        return None
    last, before = terms[-1], terms[:-1]
    if before and re.search(r"\bof\s+(?:(?:the|a|an|his|her|their|its)\s+)?[\w'’-]+\s*[?.!]*$", question, re.I):
        return before[-1]
    return last


def _weights(question: str, q: _Question) -> dict[str, float]:
    """The question's descriptive terms weighed as by ``q``, an adjunct at :data:`ADJUNCT` of its weight
    (unless every term is one)."""
    adj = _adjuncts(question)
    if all(t in adj for t in q.rest):
        return dict(q.weight)
    return {t: w * (ADJUNCT if t in adj else 1.0) for t, w in q.weight.items()}


#: a run of capitalised words in a question, "of (the)" inside it: a name ("the Ghost of Christmas Present")
_NAME_RUN = re.compile(r"(?<=\S\s)[A-Z][\w'’-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'’-]*)*")

#: the pronouns that name no place: the third-person ones and the speaker's and hearer's as objects
_NO_PLACE_PRONOUNS = _THIRD_PERSON | (_FIRST_AND_SECOND_PERSON - {"i", "we"})


@functools.lru_cache(maxsize=256)
def _names(question: str) -> tuple[tuple[str, ...], ...]:
    """The names a question uses, each as its words' roots (titles left out), those in its adjuncts not.

    >>> _names("Does the Ghost of Christmas Present grow older during his night with Scrooge?")
    (('ghost', 'christma', 'present'),)
    """
    adj = _adjuncts(question)
    out = []
    for m in _NAME_RUN.finditer(question):
        roots = tuple(r for w in m.group(0).split() if w.lower() not in _TITLES and w.lower() not in ("of", "the")
                      for r in _word_roots(w))
        if roots and not set(roots) <= adj:
            out.append(roots)
    return tuple(out)


def _linked(names: Sequence[tuple[str, ...]], tokens: frozenset[str] | set[str]) -> float:
    """The share of the names a text speaks of: by the first word of a name ("the Ghost" for the
    Ghost of Christmas Present) or by either word of a two-word one ("Hayes", "Jordan").

    >>> _linked([("ghost", "christma", "present"), ("jordan", "hay")], {"ghost", "hay"})
    1.0
    >>> _linked([("ghost", "christma", "present")], {"christma", "present"})  # not its head: another one
    0.0
    """
    if not names:
        return 1.0
    return sum(1 for n in names if n[0] in tokens or (len(n) <= 2 and n[-1] in tokens)) / len(names)


def _said(s: _Sentence, weights: dict[str, float], question: str = "") -> set[str]:
    """The question's terms a sentence says, itself, by a contrary word, or by a pronoun that opens it
    and stands for the question's subject (:func:`_antecedent`)."""
    said = {t for t in weights if t in s.tokens} | (_antecedent(s, question) & weights.keys())
    for w in re.findall(r"[a-z][a-z-]+", s.low):
        said.update(t for t in _contrary(w) if t in weights)
    return said


#: a sentence opened by a pronoun for a thing or things, its subject
_OPENS_WITH_IT = re.compile(r"^\W*(?:it|they|this|these)\b(?!\s+(?:is|was)\s+(?:not\s+)?(?:that|to|for)\b)", re.I)


# Not :mod:`.antecedents`' rule: a pronoun for a thing ("It was locked") looks back to the sentence just before,
# named or not, and stands for the question's own subject noun when that sentence says it.
def _antecedent(s: _Sentence, question: str) -> frozenset[str]:
    """The roots of a yes-no question's subject, a noun after a determiner ("was the door …?"), where the
    sentence opens with a pronoun ("It was double-locked") and the sentence before it says that noun: the
    pronoun stands for it. None for a subject that is a name (a name's pronouns count in :func:`_linked`).

    >>> q = "Was the door still locked?"
    >>> said = lambda text, before: sorted(_antecedent(_Sentence(0, text, _roots(text), before=before), q))
    >>> said("It was double-locked.", "He examined the door. ")
    ['door']
    >>> said("It was double-locked.", "He examined the window. "), said("He was double-locked.", "He examined the door. ")
    ([], [])
    """
    if not question or not _OPENS_WITH_IT.match(s.text):
        return frozenset()
    m = _SUBJECT.match(_main(question))
    if m is None or not re.search(r"\s(?i:the|a|an|this|that|these|those|his|her|their|its|my|your|our)\s+\S+$", m.group(0)):
        return frozenset()
    subject = _roots(m.group(0).split()[-1])
    return subject if subject and subject <= _roots(sentences_before(s.before)[-1]) else frozenset()


#: the weight of a question's verb said only by a noun after a determiner or a possessive ("his death" for "die")
NOMINAL = 0.5

#: what before a noun makes it name an event it does not state ("the death", "his death", "Tim's death", "the
#: potential death", "Tim's illness and death"): a determiner or a possessive, up to two words after it
_REFERRING = re.compile(r"(?:^|\s)(?:the|a|an|his|her|their|its|this|that|whose|[\w-]+['’]s?)\s+(?:[\w-]+\s+){0,2}$", re.I)


@functools.lru_cache(maxsize=256)
def _verb(question: str) -> str | None:
    """The root of the verb of a question asked with do ("Did Tiny Tim die …?" → die); None for other questions.

    >>> _verb("Did Tiny Tim die in the end?"), _verb("After he left, did the man speak?"), _verb("Was Tim ill?")
    ('die', 'speak', None)
    """
    word = _verb_word(question)
    return _root(word) if word else None


#: what may stand inside a do-question's subject before its verb: a denial, a coordinator ("Edgar and Mira")
_IN_SUBJECT = frozenset("not never and or".split())

#: what opens a modifier of the subject ("the man in the coat"): the preposition, then a determiner, then its noun
_SUBJECT_PREPOSITIONS = frozenset("of in at on with from by near".split())


@functools.lru_cache(maxsize=256)
def _verb_word(question: str) -> str | None:
    """The verb of a question asked with do, as written: the first word WordNet knows as a verb after its subject —
    a name or a noun phrase, with a possessive ("Edgar's dog"), a modifier ("the man in the coat"), a second name
    ("Edgar and Mira"), "not" and a manner adverb skipped ("Did Scrooge give …?" → give); None for other
    questions, and when the word there is no verb.

    >>> _verb_word("Does the Ghost of Christmas Present visibly grow older?"), _verb_word("Did the man speak?")
    ('grow', 'speak')
    >>> _verb_word("Did the bird fly away?"), _verb_word("Did he reply to the letter?"), _verb_word("Did Ann not go home?")
    ('fly', 'reply', 'go')
    >>> _verb_word("Did the man in the coat leave?"), _verb_word("Did Ann and Ben leave?"), _verb_word("Did Ann's dog bark?")
    ('leave', 'leave', 'bark')
    >>> _verb_word("Did the hired coach stop?"), _verb_word("Did the guard stop?")  # an adjective before the noun
    ('stop', 'stop')
    >>> _verb_word("Did the two quickly upstairs?") is None  # must not fire: no verb where the verb stands
    True
    """
    main = _main(question)
    m = _SUBJECT.match(main)
    if m is None or not re.match(r"\s*(?:do|does|did)(?:n['’]t)?\s", main, re.I):
        return None
    words = re.findall(r"[\w'’-]+", main[m.end():])
    last = m.group(0).split()[-1]
    # "Edgar's dog": the noun the possessive qualifies; "the hired coach": a word WordNet has as no noun qualifies the next
    i = 1 if re.search(r"['’]s?$", last) or (m.group(0).split()[-2].lower() in _DETERMINERS and not lemmas(last, "n")) else 0
    while i < len(words):
        word = words[i].lower()
        if word in _SUBJECT_PREPOSITIONS:  # "in the coat": the preposition, a determiner, its noun
            i += 2 + (i + 1 < len(words) and words[i + 1].lower() in _DETERMINERS)
        elif word in _IN_SUBJECT or words[i][0].isupper() or manner_adverb(word):
            i += 1
        else:
            return words[i] if lemmas(word, "v") else None
    return None


def says_verb(text: str, question: str) -> bool:
    """Whether a sentence says the verb of a question asked with do — a form of it, a verb WordNet puts in one
    synset with it (:func:`.lexicon.says_act`: "seized" for "grab") or its contrary ("refused" for "accept"); for a
    copular question ("Is/Was X P?"), whether it says the predicate (:func:`says_predicate`); true for a question of
    another form. A sentence about the question's names that never says the act asked does not
    state that it happened. A light verb (:func:`_light`) the sentence does not say is said by what it is done
    with (:func:`_done_with`).

    >>> says_verb("He went to church.", "Did Edgar go to church?"), says_verb("Edgar seized the rope.", "Did Edgar grab the rope?")
    (True, True)
    >>> says_verb("Edgar met two men collecting for the poor.", "Did Edgar give money to the poor?")
    False
    >>> says_verb("The men were poor.", "Were the men poor?")  # a copular question: its predicate is said
    True
    >>> says_verb("Ann died.", "Did Ann die in the end?"), says_verb("ANN SEIZED THE ROPE.", "Did Ann grab the rope?")
    (True, True)
    >>> says_verb("Ann ran.", "Did Ann not go home?"), says_verb("Ann ran.", "Did Ann's dog bark?")  # a light verb, a verb
    (False, False)
    >>> says_verb("Ann sat.", "Did the two quickly upstairs?")  # must not fire: no verb found, no decision
    True
    """
    verb = _verb_word(question)
    if verb is None:
        return says_predicate(text, question)
    root = _root(verb)
    words = [w.lower() for w in re.findall(r"[a-z][a-z'’-]*", text, re.I)]
    if any(root in _word_roots(w) or says_act(w, verb) for w in words):  # the verb's own form, or its synonym
        return True
    if _light(verb):  # "give money", "take an elevator", "go to his house": what it is done with says the act
        said = _roots(text)
        return all(t in said for t in _done_with(question, verb))
    return any(root in _contrary(w) for w in words)


#: "Is/Was X P?": a copular question (not "Is there …?", not "Was it N to …?")
_COPULAR = re.compile(r"^\s*" + _any_of(_FINITE_BE) + r"\s+(?!there\b)", re.I)


@functools.lru_cache(maxsize=256)
def _copular_heads(question: str) -> tuple[str, ...]:
    """The words that may head a copular question's predicate, lower case: the last word of the phrase after its
    subject, up to a preposition or a clause ("Was Edgar alive when …?" → alive; "Is Mira a trained nurse?" →
    nurse) — unless a pronoun there opens a clause of the subject's ("Was the door it came through locked?") —, and
    its last term (:func:`_predicate`: "Were the doors to the vault locked?" → locked); none for a question of another
    form; no adjunct.

    >>> _copular_heads("Was the wizard alive when the tale begins?"), _copular_heads("Is Ann a tax expert?")
    (('alive',), ('expert',))
    >>> _copular_heads("Were the gates to the vault locked?"), _copular_heads("Was the gate it came through double-locked?")
    (('locked',), ('locked',))
    >>> _copular_heads("Is there a dog?"), _copular_heads("Was it Ann's habit to sing?"), _copular_heads("Did Ann sing?")
    ((), (), ())
    """
    main = _main(question)
    m = _SUBJECT.match(main)
    if not _COPULAR.match(main) or m is None or _IT_NOUN.match(main):
        return ()
    rest = main[m.end():]
    first = _PHRASE_BREAK.split(_TIME.sub(",", rest), maxsplit=1)[0]
    clause = bool(set(re.findall(r"[a-z]+", first.lower())) & (_SUBJECT_PRONOUNS | _FIRST_AND_SECOND_PERSON))
    words = [] if clause else [w.lower() for w in re.findall(r"[A-Za-z][\w-]*", first) if content_tokens(w)][-1:]
    weights = [t for t in _roots(rest) if t not in _adjuncts(question)]
    last = _predicate(main, [t for t in root_tokens(rest) if t in weights])
    words += [w.lower() for w in content_tokens(rest) if _root(w.lower()) == last][:1]
    return tuple(w for w in dict.fromkeys(words) if _root(w) not in _adjuncts(question))


def says_predicate(text: str, question: str) -> bool:
    """Whether a sentence says the predicate of a copular question (:func:`_copular_heads`): the word itself, its
    contrary (:func:`denies` reads it), a noun WordNet puts in one synset with it ("Dr." for doctor), or a verb's
    form or synonym (a participle: "retrieved"); true for a question of another form. A sentence about the subject
    that never says what the question says it is does not state it.

    >>> q = "Is Ann a doctor?"
    >>> [says_predicate(t, q) for t in ("Dr. Ann Lee smiled.", "Ann is a doctor.", "Ann smiled.")]
    [True, True, False]
    >>> q = "Was the hut large?"
    >>> [says_predicate(t, q) for t in ("The hut was small.", "The hut was large.", "The hut stood by the lake.")]
    [True, True, False]
    """
    heads = _copular_heads(question)
    if not heads:
        return True
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w'’.-]*[\w.]|[A-Za-z]", text)]
    return any(_says_word(w if lemmas(w, "n") else w.rstrip("."), head) for head in heads for w in words)


def _says_word(word: str, head: str) -> bool:
    """Whether the text's ``word`` says the question's ``head``: a form of it, its contrary, a noun WordNet puts in one
    synset with it, or (a verb's participle) a verb's form or synonym.

    >>> _says_word("dr.", "doctor"), _says_word("small", "large"), _says_word("seized", "grabbed"), _says_word("hut", "large")
    (True, True, True, False)
    """
    root, nouns = _root(head), set(_synsets(head, "n", SENSES))
    if root in _word_roots(word) or root in _contrary(word) or (nouns and not nouns.isdisjoint(_synsets(word, "n", SENSES))):
        return True
    return bool(lemmas(head, "v")) and says_act(word, head)


def _light(verb: str) -> bool:
    """Whether a verb has so many senses (more than :data:`.lexicon.ACT_SENSES`) that it says little alone: "give",
    "take", "go" — the text says the act in other words ("visits his house", "the descent via elevator").

    >>> _light("give"), _light("take"), _light("attack"), _light("harm")
    (True, True, False, False)
    """
    return max((len(v) for v in _senses(verb, "v").values()), default=0) > ACT_SENSES


#: the words that end the phrase a light verb acts on
_PHRASE_BREAK = re.compile(r"(?<![\w-])(?:of|in|at|on|for|from|to|with|into|about|through|off|out|up|down|over|under|by|near|toward|"
                           r"towards|across|around|during|throughout|that|who|which|while|when|whenever|until|after|before|and|or)(?![\w-])|[,;?.!]")


def _done_with(question: str, verb: str) -> frozenset[str]:
    """The roots of what a light verb is done with: the first phrase after it that has content words in lower case
    — its object, else the object of a preposition of direction ("to", "into", "from") — without the question's
    adjuncts and times (:func:`_adjuncts`, :data:`_TIME`): "give the poor any money" → poor, money; "go to his
    house" → house; "die in the end" → nothing (an adjunct).

    >>> sorted(_done_with("Did he give the poor any money for the ball?", "give")), sorted(_done_with("Did he go to his house?", "go"))
    (['money', 'poor'], ['hous'])
    >>> sorted(_done_with("Did Ann die in the end?", "die")), sorted(_done_with("Did Ann go home at night?", "go"))
    ([], ['home'])
    >>> sorted(_done_with("Did the carriage stop at the inn?", "stop"))  # no object: the place it is done at
    ['inn']
    """
    at = re.search(r"\b" + re.escape(verb) + r"\b", question)
    rest = _IN_THE_END.sub(",", _TIME.sub(",", question[at.end():])) if at else ""
    adjuncts = _adjuncts(question)
    parts = _PHRASE_BREAK.split(rest)
    breaks = [""] + [m.group(0).lower() for m in _PHRASE_BREAK.finditer(rest)]
    for allowed in (_DIRECTIONS, _DIRECTIONS | _AT_PLACE):  # else the object of a preposition of place ("stop at the inn")
        for brk, phrase in zip(breaks, parts, strict=True):
            if brk not in allowed:
                continue  # an adjunct's phrase ("in the end", "for the ball")
            roots = _roots(" ".join(w for w in phrase.split() if w.islower())) - adjuncts  # a name there is linked apart
            if roots:
                return roots
    return frozenset()


#: what opens the phrase a light verb is done with: nothing (its object) or a preposition of direction
_DIRECTIONS = frozenset(("", "to", "into", "onto", "from", "toward", "towards"))

#: the prepositions of place whose object a light verb with no object nor direction is done with ("stop at the inn"):
#: the ones :data:`_PHRASE_BREAK` splits at, so not all of ``words._PLACE_PREPOSITIONS``, with "by" and "around"
_AT_PLACE = frozenset("at on in near by over under through across around".split())


def _nominal(s: _Sentence, verb: str) -> bool:
    """Whether a sentence says ``verb`` (a root) only by a noun after a determiner or a possessive, a noun
    that is no verb ("the death of Tiny Tim", "his death"): it names the event, it does not state it.

    >>> nominal = lambda text: _nominal(_Sentence(0, text, _roots(text)), "die")
    >>> nominal("Bob mourns his son's death."), nominal("Tiny Tim, who did not die, grew strong."), nominal("Tim was dead.")
    (True, False, False)
    >>> nominal("They mourn Tim's illness and death."), nominal("Death came for Tim.")  # no determiner: it states
    (True, False)
    """
    found = False
    for m in re.finditer(r"[A-Za-z][\w-]*", s.text):
        if verb not in _word_roots(m.group(0)):
            continue
        word = m.group(0).lower()
        if lemmas(word, "v") or not lemmas(word, "n") or not _REFERRING.search(s.text[:m.start()]):
            return False
        found = True
    return found


#: words that make a sentence a supposition, not a statement ("If he be like to die", "the potential death of …")
_HYPOTHETICAL = frozenset("if unless whether potential potentially possible possibly possibility perhaps maybe might "
                          "suppose supposing imagine imagined lest".split())

#: the weight of a sentence that never says the act a do-question asks (:func:`says_verb`) against one that does
UNSAID_ACT = 0.85

#: the weight of a supposition against a statement
HYPOTHETICAL = 0.75


def statement_score(s: _Sentence, question: str, q: _Question, passage: frozenset[str] = frozenset()) -> float:
    """How well a sentence states a yes-no question's predication: the weighted share of its terms
    the sentence says (adjuncts weigh :data:`ADJUNCT`; a contrary word says its term), times
    0.6 + 0.4 × the share of the names it speaks of (a pronoun, of those the nearest earlier sentence naming someone
    names (:func:`.antecedents.person_sentence`) — the nearest antecedent —, half as surely); :data:`UNSAID_ACT` of that when it never
    says the act a do-question asks (:func:`says_verb`); :data:`HYPOTHETICAL` of that for a supposition; half when it
    does not say the thing an existential question asks about ("Is there a dog …?"), and half when neither it nor its passage
    (``passage``: its word roots) names them all.

    >>> q = "Does the Ghost visibly grow older during his night with Scrooge?"
    >>> text = "While Scrooge stayed the same, the Ghost grew older."
    >>> statement_score(_Sentence(0, text, _roots(text)), q, _Question(q, []))
    0.8
    >>> s = _Sentence(0, "The Ghost smiled at night.", _roots("The Ghost smiled at night."))  # no predication: little
    >>> round(statement_score(s, q, _Question(q, [])), 3)
    0.085
    >>> q = "Is there a dog in the warehouse?"  # the thing an existential question asks about must be said
    >>> texts = ("A dog slept in the warehouse.", "He worked in the warehouse.")
    >>> [statement_score(_Sentence(0, t, _roots(t)), q, _Question(q, [])) for t in texts]
    [1.0, 0.25]
    """
    weights = _weights(question, q)
    names = _names(question)
    words = set(re.findall(r"[a-z]+", s.low))
    near = s.tokens | _roots(person_sentence(s.before)) if _THIRD_PERSON & words else s.tokens  # a pronoun: the nearest one named
    link = (_linked(names, s.tokens) + _linked(names, near)) / 2  # a pronoun speaks of them less surely than their name
    total = sum(weights.values())
    said = _said(s, weights, question)
    verb = _verb(question)
    weak = NOMINAL * weights[verb] if verb in said and _nominal(s, verb) else 0.0  # "his death" names, not states, it
    cover = ((sum(weights[t] for t in said) - weak) / total * (0.6 + 0.4 * link)) if total else link
    if _HYPOTHETICAL & words:
        cover *= HYPOTHETICAL
    if verb is not None and not says_verb(s.text, question):
        cover *= UNSAID_ACT  # a sentence that never says the act asked states less of it than one that does
    there = _THERE.match(_main(question))
    if there is not None and _root(there.group("np").split()[-1].lower()) not in said:
        cover *= 0.5  # "Is there a dog in the warehouse?": a sentence without the dog says nothing of it
    return cover * 0.5 if _linked(names, near | passage) < 1 else cover


#: "not only … but also", "not just": an addition, no denial
_NOT_ONLY = re.compile(r"\b(?:not|n['’]t)\s+(?:only|just|merely|simply|solely)\b", re.I)


#: what sets aside the thing after it for the one before it ("more curious than hostile", "walked rather than
#: rode", "instead of the coach"): what follows is denied, as after "not"
_SET_ASIDE = re.compile(r"\b(?:rather\s+than|instead\s+of|more\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+than)\b", re.I)

#: words after which what a denial left out is affirmed ("nothing … except that it was very large", "not X but Y")
_EXCEPTIONS = frozenset({"but", "except"})


def denies(text: str, question: str, q: _Question) -> bool:
    """Whether a sentence denies a yes-no question's predication: the focus (:func:`_focus`) it says —
    else, by weight, most of the terms it says — stands after a denial in its clause, or is said by a
    contrary word no denial reverses ("the doors stood open" denies that they were shut); a denial in
    another clause does not count.

    >>> q = "Is there a sword in the scabbard?"
    >>> denies("He wore a scabbard: but no sword was in it.", q, _Question(q, []))
    True
    >>> q = "Was it his custom to lock himself in?"
    >>> denies("He locked himself in, which was not his custom.", q, _Question(q, []))
    True
    >>> denies("He locked himself in, as was his custom; nobody saw him.", q, _Question(q, []))
    False
    >>> q = "Were the doors shut when they arrived?"
    >>> denies("When they arrived, the doors stood open.", q, _Question(q, [])), denies("The doors were not open.", q, _Question(q, []))
    (True, False)
    >>> q = "Were the doors to the vault shut tight?"  # a contrary says the predicate, though the focus is another word
    >>> [denies(t, q, _Question(q, [])) for t in ("The doors to the vault stood ajar.", "The doors to the vault were shut tight.")]
    [True, False]
    >>> q = "Is the panel a recent addition?"  # a denial in another clause, or before a comma, does not count
    >>> denies("This panel is a recent addition — covering something they didn't want found.", q, _Question(q, []))
    False
    >>> [denies(t, q, _Question(q, [])) for t in ("This panel is not a recent addition.", "No, this panel is a recent addition.")]
    [True, False]
    >>> q = "Was the room dark?"  # the word itself, said, outweighs its contrary said of another thing
    >>> denies("In the light of one candle the room was dark.", q, _Question(q, []))
    False
    >>> q = "Was the knocker large?"  # what "nothing … except" leaves out is affirmed
    >>> denies("There was nothing particular about the knocker except that it was very large.", q, _Question(q, []))
    False
    >>> q = "Did he give money to the poor?"  # a verb of refusal denies the act after it
    >>> denies("He refused to give money to the poor.", q, _Question(q, []))
    True
    >>> q = "Did Ann light a big fire?"  # a contrary said of the asked noun ("a small fire") denies its adjective
    >>> [denies(t, q, _Question(q, [])) for t in ("Ann lit a small fire.", "Ann lit a big fire.", "Ann lit a fire.")]
    [True, False, False]
    >>> q = "Was the dog hostile?"  # what "more … than", "rather than", "instead of" set aside is denied (:func:`_set_aside`)
    >>> [denies(t, q, _Question(q, [])) for t in ("The dog seemed more curious than hostile.", "The dog was hostile.")]
    [True, False]
    """
    if any(rule(text, question) for rule in _DENYING_RULES) or _replaced(text, question, q):
        return True
    weights, focus = _weights(question, q), _focus(question, q)
    said, contrary, qualified = _votes(_set_aside(text, question), question, weights)
    if qualified - said.keys():
        return True
    # the word itself, where the sentence says it, before its contrary; a state said only by its contrary is a predicate
    voted = {t: d for t, d in {**contrary, **said}.items() if t in focus or t not in said} or {**contrary, **said}
    return sum(weights[t] for t, d in voted.items() if d) > sum(weights[t] for t, d in voted.items() if not d)


def _set_aside(text: str, question: str) -> str:
    """``text`` read for denials: "not only … but also" adds, it does not deny ("not only" is left out); what
    "more … than", "rather than", "instead of" set aside is denied (a "not" after them), unless the question
    asks the comparison itself.

    >>> _set_aside("The dog seemed more curious than hostile.", "Was the dog hostile?")
    'The dog seemed more curious than not hostile.'
    >>> _set_aside("The dog seemed more curious than hostile.", "Was the dog more curious than hostile?")
    'The dog seemed more curious than hostile.'
    >>> _set_aside("He was not only her partner but also her sole friend.", "Was he her sole friend?")
    'He was   her partner but also her sole friend.'
    """
    text = _NOT_ONLY.sub(" ", text)
    if not _SET_ASIDE.search(question):  # "Was it more X than Y?" asks the comparison itself
        text = _SET_ASIDE.sub(lambda m: m.group(0) + " not", text)
    return text


def _votes(text: str, question: str, weights: dict[str, float]) -> tuple[dict[str, bool], dict[str, bool], set[str]]:
    """How ``text`` says each weighed term of the question: itself (whether after a denial in its clause),
    by a contrary word (whether no denial reverses it), and the terms a contrary word says of the noun the
    asked adjective qualifies ("a small fire" for "a big fire")."""
    said: dict[str, bool] = {}
    contrary: dict[str, bool] = {}  # a term a contrary word says: denied unless the word itself is
    qualified: set[str] = set()  # a term a contrary word says of the noun the asked adjective qualifies
    asked = _roots(question)
    qwords = [w.lower() for w in re.findall(r"[A-Za-z][\w-]*", question)]
    modified = {r: {x for w in qwords[k + 1:k + 3] for x in _word_roots(w)} - {r}  # the noun after each asked adjective
                for k, w in enumerate(qwords) for r in _word_roots(w)}
    denied = False
    for m in re.finditer(r"[A-Za-z][\w'’-]*|[,;:!?()\"“”—–]|--", text):
        tok = m.group(0).lower().strip("'’")
        if _CLAUSE_MARK.fullmatch(tok) or tok in _EXCEPTIONS:
            denied = False
        elif tok in _DENIALS or tok.endswith(("n't", "n’t")):
            denied = True
        else:
            for r in _word_roots(tok):
                if r in weights:
                    said.setdefault(r, denied)
            for r in (() if set(_word_roots(tok)) & asked else _contrary(tok)):  # the question's own word is no contrary
                if r in weights:
                    contrary.setdefault(r, not denied)
                    after = [x for w in re.findall(r"[a-z][\w-]*", text[m.end():].lower())[:2] for x in _word_roots(w)]
                    if not denied and r not in said and any(x in weights and x in modified.get(r, ()) for x in after):
                        qualified.add(r)  # "a small fire" for "a big fire": the contrary said of the asked thing
    return said, contrary, qualified


#: "Is A B's N?": a relation asked between two names (the possessor B, the one said to be its N)
_RELATION = re.compile(r"^\s*(?i:is|was|are|were)\s+(?P<ab>[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)+?)['’]s?"
                       r"\s+(?:[a-z][\w-]*\s+){0,2}?(?P<n>[a-z][\w-]*)\s*[?.!]*$")

def _reversed(text: str, question: str) -> bool:
    """Whether a sentence says the relation "Is A B's N?" asks the other way round: B is A's N — "A's N", "the N
    of/to/for A", "N … A" with A said first after the noun; never by a possessive pronoun ("Ann became his tutor":
    "his" may stand for B).

    >>> q = "Is Ann Ben's tutor?"
    >>> [_reversed(t, q) for t in ("Ben acts as a tutor to Ann.", "Ben is Ann's tutor.", "Ann smiled at her tutor.")]
    [True, True, False]
    >>> [_reversed(t, q) for t in ("Ann acts as a tutor to Ben.", "Ann is Ben's tutor.", "Ben thanked his tutor.")]
    [False, False, False]
    >>> _reversed("Ben is Ann's tutor.", "Is Ann a tutor?")  # no relation asked
    False
    >>> _reversed("Ben Hale acts as a tutor to Ann Lee.", "Is Ann Lee Ben Hale's tutor?")  # two names of two words
    True
    """
    m = _RELATION.match(" ".join(question.split()))
    if m is None:
        return False
    names = m.group("ab").split()  # two names side by side: half each, a middle word of an odd run to neither
    a, b = frozenset(_roots(" ".join(names[:len(names) // 2]))), frozenset(_roots(" ".join(names[-(len(names) // 2):])))
    noun = frozenset(_roots(m.group("n")))
    words = re.findall(r"[A-Za-z][\w'’-]*", text)
    roots = [frozenset(_word_roots(w)) for w in words]
    for k in range(len(words)):
        if not roots[k] & noun:
            continue
        before = words[k - 1] if k else ""
        if re.search(r"['’]s?$", before) and k:
            owner = roots[k - 1] | frozenset(_word_roots(_POSSESSIVE_END.sub("", before)))
            if owner & a or owner & b:
                return bool(owner & a)
        for r in roots[k + 1:k + 7]:
            if r & a or r & b:
                return bool(r & a)
    return False


#: what says an act had another doer or another object than the one asked ("married another man")
_ANOTHER = re.compile(r"^(?:\s+(?:to|with|by|for|at|in|on|into))?\s+(?:another|(?:a|an|some)\s+(?:different|other)"
                      r"|(?:someone|somebody|something)\s+else|elsewhere)\b", re.I)


def _another(text: str, question: str) -> bool:
    """Whether a sentence says the act a do-question asks (:func:`_verb_word`) done with another one than the one
    asked: "another", "a different", "someone else" right after its verb ("married another man"), where the sentence
    never says what the question names after its verb, and "another" is no time ("another time", "another day").

    >>> q = "Did Ann marry Ben?"
    >>> [_another(t, q) for t in ("Ann married another man.", "Ann was married to someone else.", "Ann married Ben.")]
    [True, True, False]
    >>> _another("Ann went elsewhere first, and then to Rome.", "Did Ann go to Rome?")  # the one asked, said later
    False
    >>> _another("Ann knocked another time at the door.", "Did Ann knock at the door?")  # a time
    False
    """
    verb = _verb_word(question)
    if verb is None:
        return False
    at = re.search(r"\b" + re.escape(verb) + r"\b", question)
    objects = _roots(question[at.end():] if at else "") - _adjuncts(question)
    if objects & _roots(text):
        return False  # what the question asks after its verb is said: the one asked, not another
    root = _root(verb)
    for m in re.finditer(r"[A-Za-z][\w'’-]*", text):
        if (root in _word_roots(m.group(0).lower()) or says_act(m.group(0).lower(), verb)) and _ANOTHER.match(text[m.end():]):
            after = re.match(r"[^A-Za-z]*(?:[A-Za-z]+\s+){0,3}?another\s+([a-z]+)", text[m.end():])
            if after and is_a(after.group(1), "time period"):
                continue  # "another time", "another day": when, not with whom
            return True
    return False


#: a phrase of place, destination or source, and the one it is (the preposition, a determiner or a possessor, up to
#: three words): "in the mainframe room", "to Ann", "at Ben's house"
_PLACE_PHRASE = re.compile(r"\b(?P<prep>(?i:in|inside|at|into|to|onto|within|from))\s+"
                           r"(?P<det>(?i:the|a|an|his|her|their|its|this|that)\s+)?"
                           r"(?P<np>(?:[\w'’-]+\s+){0,2}?[\w'’-]+?)(?=['’]s?\b|\s*[,;:.?!—–]|\s*$"
                           r"|\s+(?:of|in|at|on|to|by|for|with|when|while|after|before|during|and|or|but|that|who|which|where|as)\b)")

#: the least depth (hypernym steps below ``entity``) of the kind two nouns share for one to stand for the other's
#: kind: "kitchen" and "cellar" (rooms), "church" and "house" (a building, 6); not "room" and "gear" (an artifact, 4)
SAME_KIND = 5


@functools.lru_cache(maxsize=4096)
def _same_kind(a: str, b: str) -> bool:
    """Whether WordNet puts two nouns under one kind at least :data:`SAME_KIND` deep, in their first senses, as
    siblings: neither a kind of the other in any of those senses ("church" is a building, "kitchen" a room: the one
    may be the other, no other place).

    >>> _same_kind("kitchen", "cellar"), _same_kind("church", "house"), _same_kind("room", "gear"), _same_kind("room", "morning")
    (True, True, False, False)
    >>> _same_kind("building", "church"), _same_kind("room", "kitchen"), _same_kind("meal", "dinner")  # a kind of the other
    (False, False, False)
    """
    found = False
    for x in _synsets(a, "n", SENSES):
        for y in _synsets(b, "n", SENSES):
            if x == y or x in _ancestors(y) or y in _ancestors(x):
                return False
            found = found or any(_depth(z) >= SAME_KIND for z in _ancestors(x) & _ancestors(y))
    return found


def _place_heads(text: str) -> list[tuple[str, bool]]:
    """The ones a text's phrases of place (:data:`_PLACE_PHRASE`) name, each as its last word and whether that is
    a name (capitalised), and a possessor before the noun ("at Ben's house": Ben, house); "to" only before a
    determiner or a name ("to cook the meal" is no destination); no pronoun ("to her in Rome"), no time ("at Easter").

    >>> _place_heads("Ann worked at Ben's house in the old town.")
    [('Ben', True), ('house', False), ('town', False)]
    >>> _place_heads("Ann wanted to cook the meal."), _place_heads("Ann wrote to her at Easter."), _place_heads("Ann sat in the morning.")
    ([], [], [])
    """
    out = []
    for m in _PLACE_PHRASE.finditer(text):
        first, word = m.group("np").split()[0], m.group("np").split()[-1]
        if m.group("prep").lower() == "to" and not m.group("det") and not first[0].isupper():
            continue  # "to" before a verb: no destination
        if m.group("det") and _PHRASE_BREAK.fullmatch(first.lower()):
            continue  # "to her in Rome": "her" is the one, a pronoun
        if word.lower() in _NO_PLACE_PRONOUNS or is_a(word.lower(), "time period"):
            continue
        out.append((word, word[0].isupper()))
        rest = re.match(r"['’]s?\s+(?:[\w-]+\s+){0,2}?([a-z][\w-]*)\b", text[m.end():])
        if rest:
            out.append((rest.group(1), False))
    return out


def _replaced(text: str, question: str, q: _Question) -> bool:
    """Whether a sentence says the predication with another place, destination or source than the one a question
    asks ("Did Ann cook in the kitchen?" — "In the cellar, Ann cooked"): the question's phrase of place names one
    (:func:`_place_heads`) the sentence never says, while the sentence says a term of the predication and the question's
    other names and, in a
    phrase of its own, another of the same kind — another name for a name, a noun WordNet puts in the same kind
    (:func:`_same_kind`) for a noun.

    >>> q = "Did Ann cook the meal in the kitchen?"
    >>> [_replaced(t, q, _Question(q, [])) for t in ("In the cellar, Ann cooked the meal.", "Ann cooked the meal in the kitchen.",
    ...                                               "Ann cooked the meal in the morning.")]
    [True, False, False]
    >>> q = "Was Ann apprenticed to Ben?"
    >>> [_replaced(t, q, _Question(q, [])) for t in ("Ann was apprenticed at Carl's shop.", "Ann was apprenticed to Ben.")]
    [True, False]
    >>> _replaced("Carl was apprenticed at Dan's shop.", q, _Question(q, []))  # said of another: another predication
    False
    """
    main = _main(question)
    asked = [(w, name) for w, name in _place_heads(main) if _root(w.lower()) not in _adjuncts(question)]
    if not asked:
        return False
    said = _roots(text)
    if any(_root(w.lower()) in said for w, _ in asked):
        return False
    named = {_root(w.lower()) for w in re.findall(r"[A-Z][\w-]*", question)}
    asked_roots = {_root(w.lower()) for w, _ in asked}
    if not any(t in said for t in _focus(question, q) if t not in asked_roots):
        return False
    if _linked([n for n in _names(question) if not set(n) & asked_roots], said) < 1:
        return False  # not said of the question's own names: another predication
    for word, name in _place_heads(text):
        for a, a_name in asked:
            if a_name and name and _root(word.lower()) not in named and not (is_a(a.lower(), "location") or is_a(word.lower(), "location")):
                return True  # one person for another; never a place for a place (the one may hold the other) nor a person
            if not a_name and not name and lemmas(word.lower()) and _same_kind(a.lower(), word.lower()):
                return True
    return False


def _modified_nouns(text: str) -> list[tuple[str, str, str]]:
    """The nouns a text counts, gives an owner by name or qualifies by an adjective after a determiner, each as (the
    count's, the owner's or the adjective's words in lower case, the noun's root, the kind: count, owner, quality):
    "seven years" → ('seven', 'year', 'count'); "Ben's face" → ('ben', 'face', 'owner') (of an owner, the two words after
    it that are content words: the noun may follow an adjective); "a brisk pace" → ('brisk', 'pace', 'quality') (no
    noun for adjective: "the equipment bay", but a colour, after a determiner or "with": "with red fur").

    >>> _modified_nouns("Ann was dead these seven years; she saw Ben's face, a brisk pace and the equipment bay.")
    [('seven', 'year', 'count'), ('ben', 'face', 'owner'), ('brisk', 'pace', 'quality')]
    >>> _modified_nouns("a coat trimmed with red fur")
    [('red', 'fur', 'quality')]
    """
    out = []
    for m in _NUMBER.finditer(text):
        noun = re.match(r"[\s-]+([a-z][a-z-]*)", text[m.end():])
        if noun and m.group(0).lower() not in _TIMES_SAID:
            out.append((" ".join(m.group(0).lower().split()), _root(noun.group(1)), "count"))
    for m in re.finditer(r"\b([A-Z][\w-]*)['’]s?\s+([a-z][\w-]*)(?:\s+([a-z][\w-]*))?", text):
        if m.group(1).lower() not in _TITLES and content_tokens(m.group(1)):  # the noun, or an adjective and the noun
            out.extend((m.group(1).lower(), _root(w), "owner") for w in m.group(2, 3) if w and content_tokens(w))
    for m in re.finditer(r"\b(?i:a|an|the|his|her|their|its|my|your|our|this|that|with)\s+([a-z][\w-]*)\s+([a-z][\w-]*)", text):
        adjective, head = m.groups()
        if (content_tokens(adjective) and lemmas(head, "n") and not _NUMBER.fullmatch(adjective) and not manner_adverb(adjective)
                and (not lemmas(adjective, "n") or adjective in _CONTRARY_WORDS or is_a(adjective, "color"))):
            out.append((adjective, _root(head), "quality"))
    return out


def _other_modifier(text: str, question: str) -> bool:
    """Whether a sentence gives a noun the question counts, gives an owner or qualifies ("ten years", "Ben's face", "a
    slow pace") another count, owner by name or adjective ("seven years", "Carl's face", "a brisk pace"), and never says
    the question's: another thing than the one asked.

    >>> q = "Had Ann been dead for ten years?"
    >>> [_other_modifier(t, q) for t in ("Ann has been dead these seven years.", "Ann has been dead ten years.", "Ann was dead.")]
    [True, False, False]
    >>> q = "Did Ann see Ben's face in the mirror?"
    >>> [_other_modifier(t, q) for t in ("Ann saw Carl's face in the mirror.", "Ann saw Ben's face.", "Ann saw her face.")]
    [True, False, False]
    >>> q = "Did Ann set a slow pace?"
    >>> [_other_modifier(t, q) for t in ("Ann set a brisk pace.", "Ann set a slow, steady pace.", "Ann set the pace.")]
    [True, False, False]
    """
    asked = _modified_nouns(_main(question))
    if not asked:
        return False
    low = " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "
    for words, noun, kind in asked:
        if f" {words} " in low:
            continue
        if any(n == noun and k == kind and w != words for w, n, k in _modified_nouns(text)):
            return True
    return False


def _feelings_with(text: str) -> set[str]:
    """The feelings a text says an act is done with: the first noun WordNet puts under ``feeling`` in the five words
    after a "with", before a clause mark ("with contempt", "with something akin to reverence").

    >>> sorted(_feelings_with("Ann looked at him with something akin to reverence, then with a knife.")), _feelings_with("with care")
    (['reverence'], {'care'})
    """
    out = set()
    for m in re.finditer(r"\bwith\b([^,;:.!?—–()\"“”]*)", text, re.I):
        for w in re.findall(r"[a-z][\w-]*", m.group(1).lower())[:5]:
            if is_a(w, "feeling"):
                out.add(w)
                break
    return out


#: how many hypernym steps apart two feelings may be and still be one feeling ("terror" is a kind of "fear"), and
#: how many senses of each count ("fear"'s third is "reverence")
_FEELING_STEPS, _FEELING_SENSES = 2, 2


def _near(feeling: str, other: str) -> bool:
    """Whether two feeling nouns are one feeling: a shared synset of their first senses, or one a kind of the other
    within :data:`_FEELING_STEPS` hypernym steps ("disdain" and "contempt", "terror" and "fear"; not "fear" and
    "reverence", which meet only at "feeling").

    >>> _near("disdain", "contempt"), _near("terror", "fear"), _near("fury", "anger"), _near("fear", "reverence")
    (True, True, True, False)
    >>> _near("contempt", "reverence"), _near("anger", "joy")
    (False, False)
    """
    mine, theirs = _synsets(feeling, "n", _FEELING_SENSES), _synsets(other, "n", _FEELING_SENSES)

    def close(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        return any(p in b for s in a for p in _ancestors(s) if _depth(s) - _depth(p) <= _FEELING_STEPS)

    return bool(set(mine) & set(theirs)) or close(mine, theirs) or close(theirs, mine)


def _other_feeling(text: str, question: str) -> bool:
    """Whether a sentence says the act a do-question asks done with another feeling than the one it asks ("Did Ann
    look at it with contempt?" — "Ann looked at it with reverence"): the sentence says the act (:func:`says_verb`)
    and a feeling after "with" (:func:`_feelings_with`), none of them the asked one or near it (:func:`_near`:
    "with disdain" is no other feeling than "with contempt").

    >>> q = "Did Ann stare at the map with contempt?"
    >>> [_other_feeling(t, q) for t in ("Ann stared at the map with reverence.", "Ann stared at the map with open contempt.",
    ...                                 "Ann stared at the map.", "Ann sang with joy.", "Ann stared at the map with disdain.")]
    [True, False, False, False, False]
    """
    asked = _feelings_with(_main(question))
    if not asked or {_root(w) for w in asked} & _roots(text) or _verb_word(question) is None or not says_verb(text, question):
        return False
    said = _feelings_with(text)
    return bool(said) and not any(_near(w, a) for w in said for a in asked)


def _named_subject(question: str) -> frozenset[str]:
    """The roots of a do-question's subject when it is a name ("Did Ann Lee go …?" → ann, lee; titles left out); none
    for another subject (a pronoun, a noun, an owner's noun: "Did Ann's dog bark?").

    >>> sorted(_named_subject("Did Agent Ann Lee go home?")), _named_subject("Did Ann's dog bark?"), _named_subject("Did he go?")
    (['ann', 'lee'], frozenset(), frozenset())
    """
    main = _main(question)
    m = _SUBJECT.match(main)
    if m is None or _verb_word(question) is None or re.search(r"['’]s?$", m.group(0)):
        return frozenset()
    words = m.group(0).split()[1:]
    if not words or not words[0][0].isupper() or words[0].lower() in _THIRD_PERSON | _FIRST_AND_SECOND_PERSON:
        return frozenset()
    return frozenset(r for w in words if w.lower().rstrip(".") not in _TITLES for r in _word_roots(w))


def _other_doer(text: str, question: str) -> bool:
    """Whether a sentence says the act a do-question asks of a name done by another one: the nearest name before the
    sentence's first form of the verb (or synonym, :func:`.lexicon.says_act`) is another's, no pronoun stands between,
    and the sentence names the asked one neither before the verb nor after a "by" ("Did Ann open the door?" — "Ben
    opened the door").

    >>> q = "Did Ann open the door?"
    >>> [_other_doer(t, q) for t in ("Agent Ben opened the door.", "Ann opened the door.", "Ben and Ann opened the door.")]
    [True, False, False]
    >>> [_other_doer(t, q) for t in ("Ben said she opened the door.", "The door was opened by Ann.", "The door was open.")]
    [False, False, False]
    >>> [_other_doer(t, q) for t in ("When Ben left, the old man opened the door.", "Outside, the guard opened the door.",
    ...                              "Spring came and the clerk opened the door.")]
    [False, False, False]
    """
    subject, verb = _named_subject(question), _verb_word(question)
    if not subject or verb is None:
        return False
    words = list(re.finditer(r"[A-Za-z][\w'’-]*", text))
    at = next((k for k, m in enumerate(words) if says_act(m.group(0).lower(), verb)), None)
    if at is None or subject & _roots(text[:words[at].start()]) or re.search(r"\bby\b[^.;]*\b(?:" + "|".join(
            re.escape(w) for w in re.findall(r"[A-Z][\w-]*", _main(question))) + r")\b", text[words[at].end():]):
        return False
    for k in range(at - 1, -1, -1):
        w = words[k].group(0)
        if _CLAUSE_BREAK.search(text[words[k].end():words[k + 1].start()]) or w.lower() in _NO_NAMED_DOER:
            return False  # the verb's own clause ends here, or its subject is no name ("Outside, the guard opened")
        if is_name_word(w, k == 0):
            return True
    return False


#: what ends the verb's own clause looking back from it: a clause mark between two words
_CLAUSE_BREAK = re.compile(r"[,;:—–()]")

#: a word before the verb that says its subject is no name: a pronoun, a relative, or a determiner opening a noun phrase
_NO_NAMED_DOER = _SUBJECT_PRONOUNS | _FIRST_AND_SECOND_PERSON | _DETERMINERS | frozenset({"who", "which", "that"})


def _open_quote(text: str) -> bool:
    """Whether a text leaves a quotation open: its last double quote opens one (“, or " before a word
    and after a space or the start), not closes it (a passage cut inside a quotation starts with a closing one).

    >>> _open_quote('"I agree, Cruz.'), _open_quote('paramount," he said.'), _open_quote('He said "yes" twice.')
    (True, False, False)
    """
    quotes = list(re.finditer(r'["“”]', text))
    if not quotes:
        return False
    last = quotes[-1]
    if last.group(0) != '"':
        return last.group(0) == "“"
    return (last.start() == 0 or text[last.start() - 1] in " (—–-") and text[last.end():last.end() + 1].isalnum()


def with_quotations(sentences: Sequence[_Sentence]) -> list[_Sentence]:
    """The sentences, a quotation that runs over several of them (up to three) joined into one: what
    a speaker says in one breath is one statement ('"I agree, Agent Cruz. Protocol is paramount," he said.').

    >>> from .words import _sentences
    >>> from ..engine import Passage
    >>> joined = with_quotations(_sentences([Passage('"I agree, Cruz. Protocol is paramount," he said. He left.', "c")]))
    >>> [s.text for s in joined]
    ['"I agree, Cruz. Protocol is paramount," he said.', 'He left.']
    >>> len(with_quotations(_sentences([Passage('"I agree," he said. "Protocol is paramount." He left.', "c")])))
    3
    """
    out: list[_Sentence] = []
    k = 0
    while k < len(sentences):
        s, n = sentences[k], 1
        while (n < 3 and k + n < len(sentences) and sentences[k + n].passage == s.passage and _open_quote(s.text)):
            nxt = sentences[k + n]
            s = dataclasses.replace(s, text=f"{s.text} {nxt.text}", tokens=s.tokens | nxt.tokens, after=nxt.after)
            n += 1
        out.append(s)
        k += n
    return out


#: the rules each of which alone makes a sentence deny a yes-no question (:func:`denies`; with :func:`_replaced`,
#: which also reads the question's terms)
_DENYING_RULES: tuple[Callable[[str, str], bool], ...] = (_reversed, _another, _other_modifier, _other_doer, _other_feeling)
