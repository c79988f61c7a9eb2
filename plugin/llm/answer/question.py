"""The question typed: :class:`QuestionType`, :func:`classify`, the head nouns of which/what questions and
the entity types they ask, and :class:`_Question` (the question's terms and names)."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence

from ..text import content_tokens, tokenize
from .lexicon import lemmas
from .words import (
    _AUXILIARIES,
    _DETERMINERS,
    _FIRST_AND_SECOND_PERSON,
    _PERSON_WH,
    _POSSESSIVE_END,
    _PREPOSITIONS,
    _SUBJECT_PRONOUNS,
    _WH_WORDS,
    _affix,
    _any_of,
    _name_pattern,
    _noun,
    _root,
    _Sentence,
)

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

#: the nouns that ask for a reason ("What reason did X give …?", "What was the purpose of …?"): the
#: question asks why, and a clause answers it, not a noun phrase (:mod:`.reasons`, :mod:`.slots`)
REASON_NOUNS = frozenset("reason reasons purpose purposes motive motives cause causes explanation explanations".split())

#: a question asking for a reason by one of :data:`REASON_NOUNS` ("What reason …?", "For what purpose …?")
_ASKS_REASON = re.compile(r"(?:for\s+)?what\s+(?:(?:is|was|were|are)\s+(?:the\s+)?)?(?:" + "|".join(sorted(REASON_NOUNS)) + r")\b")

#: an auxiliary or its negative, as a regex: what opens a yes-no question, or the clause after a frame
_AUXILIARY = r"(?:is|are|was|were|am|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must)(?:n['’]t)?\b"
_YES_NO = re.compile(r"^" + _AUXILIARY, re.I)


@dataclasses.dataclass(frozen=True)
class QuestionType:
    """What kind of answer a question wants: ``kind`` (who, where, when, how-many, which, what,
    why, how, yes-no), the entity types that fit (type → weight; empty: any), and whether a named
    thing (an entity, number or date) answers it or a sentence does.

    >>> classify("Who was Scrooge's partner?").types
    {'PERSON': 1.0, 'ORGANIZATION': 0.5}
    >>> classify("Which company did Scrooge run?").types
    {'ORGANIZATION': 1.0, 'PERSON': 0.3}
    >>> classify("Which team member fended off the drone?").types, classify("Which team leads?").types
    ({'PERSON': 1.0, 'ORGANIZATION': 0.3}, {'ORGANIZATION': 1.0, 'PERSON': 0.3})
    >>> classify("Which storybook figure appeared?").types, classify("Which storybook appeared?").types
    ({'PERSON': 1.0, 'ORGANIZATION': 0.3}, {})
    >>> classify("What does Scrooge's clerk warm himself at?").types, classify("What did the girl see on the roof?").types
    ({}, {})
    >>> classify("Why does Marley visit Scrooge?").wants_name, classify("Did Scrooge change?").kind
    (False, 'yes-no')
    >>> classify("In what year was the book published?").kind, classify("In which city does it happen?").kind
    ('when', 'which')
    >>> [classify(q).kind for q in ("Isn't Marley dead?", "How long has Marley been dead?", "What year did it end?",
    ...                             "How long ago did he die?", "What time is it?", "What timepiece is it?", "How did he die?")]
    ['yes-no', 'how-many', 'when', 'when', 'when', 'what', 'how']
    >>> classify("When he calls at the house, where does the girl say her master is?").kind, classify("When does he call, and where?").kind
    ('where', 'when')
    >>> classify("After the Ghost left, was the door locked?").kind, classify("In the first briefing, does Alex agree?").kind
    ('yes-no', 'yes-no')
    >>> classify("In which city, after the war, did he live?").kind  # a wh-word in the opening phrase: it asks
    'which'
    >>> classify("Once inside, how often did he call?").kind, classify("When he woke, was it dark?").kind
    ('how-many', 'yes-no')
    >>> [classify(q).kind for q in ("In the scene where the baker sings, who carries the lantern?",  # the wh-clause asks
    ...                             "During the feast, where does he hide the key?", "According to Anna, why did it burn?",
    ...                             "When the bell rings, what does she see?", "Where, at the feast, does he sit?")]
    ['who', 'where', 'why', 'what', 'where']
    """

    kind: str
    types: dict[str, float]
    wants_name: bool


def classify(question: str) -> QuestionType:
    """The :class:`QuestionType` of ``question`` (from its wh-word and, for which/what, its head noun)."""
    text = " ".join(question.strip().split())
    main = _LEADING_WHEN.match(text) or _LEADING_PHRASE.match(text)
    if main and re.match(_AUXILIARY, main.group("main"), re.I):  # "When he woke, was it dark?": the main clause asks
        text = main.group("main")
    # "In the scene where …, who …?", "Where, at the party, does …?": the wh-clause asks, in the readers' form
    # ("With what should he be boiled?" asks what, though a "who" follows)
    text = _asked(wh_clause(text)[1])
    low = text.lower()
    words = re.findall(r"[a-z']+", low)
    first = words[0] if words else ""
    if re.match(r"how\s+long\s+ago\b|(?:(?:in|on|at|by|during|since|until|from)\s+)?(?:what|which)\s+"
                r"(?:time|year|day|date|month|hour|night|season)s?\b", low):  # "In what year …", "At what hour …"
        return QuestionType("when", {_EVENT: 1.0}, True)
    if re.match(r"how\s+(?:many|much|long|old|often|far)\b", low):
        return QuestionType("how-many", {}, True)
    if first in _PERSON_WH:
        return QuestionType("who", {_PERSON: 1.0, _ORG: 0.5}, True)
    if first == "where":
        return QuestionType("where", {_GEO: 1.0, _ORG: 0.5}, True)
    if first == "when":
        return QuestionType("when", {_EVENT: 1.0}, True)
    if first == "why" or _ASKS_REASON.match(low):
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
        if w in _PERSON_WH:
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


#: a question that opens with a when-clause ("When Scrooge calls at his nephew's house, where does the girl
#: say …?", not "When does …?"): its main clause after the comma, opened by a wh-word or an auxiliary, says what is asked
_LEADING_WHEN = re.compile(r"^when\s+(?!" + _AUXILIARY + r")"
                           r"[^,?]+,\s+(?P<main>(?:" + _any_of(_WH_WORDS - {"when"}) + r"\b|" + _AUXILIARY + r").*)$", re.I)

#: the prepositions that may stand before a wh-word ("Into what …?", "With whom …?", "On which day …?"): not a
#: comparison's ("as", "like", "than"), an exception's ("besides", "except"), nor "aboard", "along", "throughout", "underneath"
_WH_PREPOSITIONS = _PREPOSITIONS - frozenset("aboard along as besides except like than throughout underneath".split())

#: a wh-phrase opening a clause: a wh-word, perhaps after a preposition ("Into what", "With whom")
_WH_PHRASE = r"(?:" + _any_of(_WH_PREPOSITIONS) + r"\s+)?" + _any_of(_WH_WORDS) + r"\b"

#: a question tag after a statement ("…, did she?", "…, wasn't it?"): it asks whether the statement before it holds
_TAG = _AUXILIARY + r"\s+(?:not\s+)?(?:he|she|it|they|you|we|i|there|that|this)\s*[?.!]*$"

#: a yes-no question that opens with phrases or clauses of its own, each ended by a comma, none opened by a
#: wh-phrase ("After the Ghost left, was the door …?", "Peering into the well, could she …?", "Ann, Ben, did they
#: …?"; not "In which city, …?"), the question not itself opened by its auxiliary: its main clause after the last
#: of them, opened by an auxiliary and no question tag, asks
_LEADING_PHRASE = re.compile(r"^(?!" + _AUXILIARY + r")(?:(?!(?:(?:" + _any_of(_WH_PREPOSITIONS) + r"|according\s+to)\s+)*"
                             + _any_of(_WH_WORDS) + r"\b)[^,?]+,\s+)+?(?P<main>(?!" + _TAG + r")" + _AUXILIARY + r".*)$", re.I)

#: a question opening with a subordinate clause that a when/where opens ("When the bell rings, who …?")
_SUBORDINATE = re.compile(r"^(?:when|where|whenever|wherever)\s+(?!" + _AUXILIARY + r")[^?]*?,", re.I)

#: a wh-phrase, then a phrase set off by commas ("Where, at the party, does …?", "In which city, after the war, did …?")
_PARENTHESIS = re.compile(r"^(?P<wh>" + _WH_PHRASE + r"(?:\s+[\w'’-]+){0,3}?),\s+(?P<frame>[^,?]+),\s+"
                          r"(?P<rest>" + _AUXILIARY + r".*)$", re.I)

#: an opening that names what the answer is not ("Besides the deserts, where …?"): the whole question asks
_EXCLUDING = r"(?:besides|apart\s+from|aside\s+from|other\s+than|except|excepting|in\s+addition\s+to)\b"

#: a question that opens with neither an auxiliary nor an exclusion, the frame of which may end at a ", wh-phrase"
_MAY_BE_FRAMED = re.compile(r"^(?!" + _AUXILIARY + r"|" + _EXCLUDING + r")", re.I)

#: a comma (or the end of a statement before it: "Tom hides a key; where does he put it?") before a wh-phrase:
#: where a wh-clause may start after its frame
_WH_SPLIT = re.compile(r"[,;:.]\s+(?=" + _WH_PHRASE + r")", re.I)

#: the wh-words that also open a relative clause ("Tom, who was tall, …", "the inn, in which they slept, …")
_RELATIVE_OPENING = re.compile(r"(?:" + _any_of(_WH_PREPOSITIONS) + r"\s+)?(?:who|whom|whose|which|where|when)\b", re.I)

#: what may follow a comma inside a wh-clause: a conjunction, another wh-phrase or an auxiliary ("…, and why?")
_GOES_ON_ASKING = re.compile(r"(?:and|or|but|nor|" + _any_of(_WH_WORDS) + r")\b|" + _AUXILIARY, re.I)


def _clause_start(text: str) -> int | None:
    """Where the wh-clause after a frame starts in ``text``: the first ", wh-phrase" that does not open a
    relative clause set off by commas inside the frame ("After Tom, who was tall, left the inn, what …?": the
    relative closes with a comma and the frame's own clause goes on, "left the inn", before a later ", wh-phrase");
    a clause's own later commas stay in it ("…, who carries the lantern, and why?"). None: no such comma.

    >>> text = "After Tom, who was tall, left the inn, what did Ann buy?"
    >>> text[_clause_start(text):], _clause_start("Who came?")
    ('what did Ann buy?', None)
    """
    points = [m.end() for m in _WH_SPLIT.finditer(text)]
    if not points:
        return None
    for here, later in zip(points, [*points[1:], None], strict=True):
        if later is not None and _RELATIVE_OPENING.match(text, here):
            closed = re.search(r",\s+(\S+)", text[here:later])
            if closed is not None and not _GOES_ON_ASKING.match(closed.group(1)):
                continue  # a relative clause inside the frame: the frame goes on after it
        return here
    return None


def wh_clause(question: str) -> tuple[str, str]:
    """The question split into the frame that sets its scene and the wh-clause that asks (the frame
    empty when it has none): a phrase or clause before the wh-phrase ("In the scene where …,", "After …,",
    "According to …,", "When X happens,"), or a phrase set off by commas after it ("Where, at the party,
    does …?" asks "Where does …?"). A question opening with its wh-phrase ("Into what …?", "When does
    …?") has no frame; a yes-no question's opening phrase is no frame here (:data:`_LEADING_PHRASE`).
    A frame may hold a relative clause set off by commas (:func:`_clause_start`); a wh-word left at the end of
    a statement ("The cook came in with whom?") is moved to the front first (:func:`_fronted`).

    >>> wh_clause("In the scene where the baker sings, who carries the lantern?")
    ('In the scene where the baker sings', 'who carries the lantern?')
    >>> wh_clause("When the bell rings, what does the girl see?"), wh_clause("When does the bell ring, and why?")
    (('When the bell rings', 'what does the girl see?'), ('', 'When does the bell ring, and why?'))
    >>> wh_clause("Where, at the party, does the host keep his coins?")
    ('at the party', 'Where does the host keep his coins?')
    >>> wh_clause("According to the old sailor, into what did the tide turn?"), wh_clause("Into what did it turn?")
    (('According to the old sailor', 'into what did the tide turn?'), ('', 'Into what did it turn?'))
    >>> wh_clause("After the storm, did the boat sink?"), wh_clause("Is it true that, after all, who won?")
    (('', 'After the storm, did the boat sink?'), ('', 'Is it true that, after all, who won?'))
    >>> wh_clause("Besides the harbour, where did the ship call?")  # a frame naming what the answer is not: all of it asks
    ('', 'Besides the harbour, where did the ship call?')
    >>> wh_clause("When the mayor, who was late, reached the hall, whom did he greet?")
    ('When the mayor, who was late, reached the hall', 'whom did he greet?')
    >>> wh_clause("Tom hides a key in the hall. Where does he put it?")
    ('Tom hides a key in the hall', 'Where does he put it?')
    """
    text = _fronted(" ".join(question.strip().split()))
    if re.match(_WH_PHRASE, text, re.I):
        start = _clause_start(text) if _SUBORDINATE.match(text) else None
        if start is not None:  # "When the bell rings, who …?"
            return text[:start].rstrip(",;:. "), text[start:]
        m = _PARENTHESIS.match(text)
        if m:
            return m.group("frame"), f"{m.group('wh')} {m.group('rest')}"
        return "", text
    start = _clause_start(text) if _MAY_BE_FRAMED.match(text) else None
    if start is not None:
        return text[:start].rstrip(",;:. "), text[start:]
    return "", text


#: the subject pronouns of every person: a verb after one is finite in any form ("they want")
_ALL_SUBJECTS = _SUBJECT_PRONOUNS | (_FIRST_AND_SECOND_PERSON - {"me", "us"})

#: function words that are no verb of a clause, whatever verbs WordNet spells like them ("like" is one)
_NO_VERB = _DETERMINERS | frozenset("some any no every each one two three not "
                                     "of in on at to from with by for into about as like than".split())


def _finite(words: Sequence[str]) -> tuple[int, bool] | None:
    """The index of the finite verb after the subject of a statement's ``words`` (from the second word on), and
    whether it is an auxiliary: the first auxiliary, past form ("laughed", "saw") or -s form ("says") that WordNet
    has as a verb; an -s form the noun has too ("chains") only after a name, a pronoun or a determiner's noun
    ("the clerk says"), a plain form only after a pronoun ("they want"); no -ing form. None: no such verb.

    >>> _finite("the two young Pipers laughed at".split()), _finite("little Mira says the hut is like".split())
    ((4, False), (2, False))
    >>> _finite("the chains rattled".split()), _finite("Scrooge had set his heart".split()), _finite("the old box".split())
    ((2, False), (1, True), None)
    """
    for k in range(1, len(words)):
        w, before = words[k].lower(), words[k - 1]
        if w in _AUXILIARIES - {"be", "been", "being"}:
            return k, True
        if not words[k].islower() or w in _NO_VERB or w.endswith("ing") or not (bases := lemmas(w, "v")):
            continue
        inflected = any(b != w for b in bases)
        if w.endswith("s") and not w.endswith("ss"):
            named = before[:1].isupper() or before.lower() in _ALL_SUBJECTS or (k > 1 and words[k - 2].lower() in _DETERMINERS)
            if inflected and (named or not lemmas(w, "n")):
                return k, False
        elif inflected or before.lower() in _ALL_SUBJECTS:
            return k, False
    return None


def _base(verb: str) -> str:
    """The plain form of a verb ("laughed" → "laugh", "saw" → "see"); the word itself when it is one."""
    low = verb.lower()
    return next((b for b in lemmas(low, "v") if b != low), low)


def _inverted(wh: str, words: Sequence[str], tail: str = "") -> str | None:
    """The question asking ``wh`` of a statement (its ``words``, ``tail`` after them): its auxiliary moved
    before its subject ("the team is being pulled into" → "what is the team being pulled into"), else "do"
    in the verb's tense before it and the verb in its plain form ("the cook came in with" → "whom did the
    cook come in with"); None when the statement has no finite verb.

    >>> _inverted("What", "the two young Pipers laughed at".split(), "?")
    'What did the two young Pipers laugh at?'
    >>> _inverted("whom", "Tom is sitting beside".split(), "?"), _inverted("what", "little Mira says the hut is like".split())
    ('whom is Tom sitting beside?', 'what does little Mira say the hut is like')
    """
    found = _finite(words)
    if found is None:
        return None
    k, aux = found
    subject = [words[0].lower() if words[0].lower() in _DETERMINERS else words[0], *words[1:k]]
    if aux:
        return " ".join([wh, words[k].lower(), *subject, *words[k + 1 :]]) + tail
    verb = words[k].lower()
    do = "do" if _base(verb) == verb else "does" if verb.endswith("s") else "did"
    return " ".join([wh, do, *subject, _base(verb), *words[k + 1 :]]) + tail


#: a statement whose last words are a wh-word, perhaps after a preposition ("The cook came in with whom?", "…, the
#: team is being pulled into what?"): the phrases before it that end in commas are its frame
_IN_SITU = re.compile(r"^(?P<lead>(?:[^,?]+,\s+)*?)(?P<statement>(?!" + _any_of(_WH_WORDS) + r"\b|" + _AUXILIARY + r")[^,?]+?)"
                      r"(?:\s+(?P<p>" + _any_of(_WH_PREPOSITIONS) + r"))?\s+(?P<wh>what|whom|who|where|when)\s*(?P<end>[?.!]*)$", re.I)


def _fronted(question: str) -> str:
    """A statement that asks by a wh-word at its end ("The prize is twice the size of whom?") as the question
    English asks with the wh-word first ("Whom is the prize twice the size of?"), its frame kept before it;
    any other question as it is.

    >>> _fronted("At the feast, the cook came in with whom?"), _fronted("Who came in with the cook?")
    ('At the feast, whom did the cook come in with?', 'Who came in with the cook?')
    """
    m = _IN_SITU.match(question)
    if m is None:
        return question
    wh = m.group("wh").lower() if m.group("lead") else m.group("wh").capitalize()
    tail = (" " + m.group("p").lower() if m.group("p") else "") + (m.group("end") or "?")
    asked = _inverted(wh, m.group("statement").split(), tail)
    return question if asked is None else m.group("lead") + asked


#: "Who is it that sings?", "What was it (that) the girl saw?": a cleft question, the clause after "it" asks
_CLEFT = re.compile(r"^(?P<wh>(?:" + _any_of(_WH_PREPOSITIONS) + r"\s+)?(?:who|whom|what|where|when|why|how|which(?:\s+[a-z-]+)?))\s+"
                    r"(?:is|was|are|were)\s+it\s+(?P<rel>(?:that|who|which)\s+)?(?P<rest>[^?]+?)\s*(?P<end>[?.!]*)$", re.I)


def _uncleft(clause: str) -> str:
    """A cleft question as the plain question it stresses: "Who is it that sings?" → "Who sings?", "What was it
    (that) the girl saw?" → "What did the girl see?"; "What is it made of?" (no clause after "it") stays.

    >>> _uncleft("Who is it that sings the song?"), _uncleft("What was it the old man saw by the well?")
    ('Who sings the song?', 'What did the old man see by the well?')
    >>> _uncleft("What is it that Tom had hidden in the box?"), _uncleft("What is it made of?")
    ('What had Tom hidden in the box?', 'What is it made of?')
    >>> _uncleft("What is it that little Anna says the house is like?")
    'What does little Anna say the house is like?'
    """
    m = _CLEFT.match(clause)
    if m is None:
        return clause
    words = m.group("rest").split()
    first = words[0]
    if first.islower() and first not in _DETERMINERS and first not in _ALL_SUBJECTS:
        if not m.group("rel"):
            return clause  # "What is it made of?", "What is it like?": "it" is the subject
        if lemmas(first, "v"):  # "… that sings": the subject is asked
            return f"{m.group('wh')} {m.group('rest')}{m.group('end') or '?'}"
    return _inverted(m.group("wh"), words, m.group("end") or "?") or clause


#: "By whom was X sent?", "Who was X sent by?": a passive asking its agent, asked as its active ("Who sent X?")
_BY_WHOM = (re.compile(r"^by\s+whom\s+(?:is|was|are|were|has\s+been|have\s+been|had\s+been)\s+(?P<rest>[^?]+?)\s*(?P<end>[?.!]*)$", re.I),
            re.compile(r"^whom?\s+(?:is|was|are|were|has\s+been|have\s+been|had\s+been)\s+(?P<rest>[^?]+?)\s+by\s*(?P<end>[?.!]*)$", re.I))


def _participle(word: str) -> bool:
    """Whether ``word`` may be a past participle: a lower-case inflected verb form, no -s or -ing form."""
    return word.islower() and word not in _NO_VERB and not word.endswith(("s", "ing")) and any(b != word for b in lemmas(word, "v"))


def _active(clause: str) -> str:
    """A question asking the agent of a passive as the active question "Who VERBed X …?" (the participle,
    and those "and" joins to it, before what it was done to).

    >>> _active("By whom was the old mill built?"), _active("Who were the letters signed and sealed by?")
    ('Who built the old mill?', 'Who signed and sealed the letters?')
    >>> _active("By whom was Tom sent to the market at dawn?"), _active("By whom is it?")
    ('Who sent Tom to the market at dawn?', 'By whom is it?')
    """
    m = next((m for m in (p.match(clause) for p in _BY_WHOM) if m is not None), None)
    if m is None:
        return clause
    words = m.group("rest").split()
    k = next((k for k in range(1, len(words)) if _participle(words[k])), None)
    if k is None:
        return clause
    end = k + 1
    while end + 1 < len(words) and words[end] == "and" and _participle(words[end + 1]):
        end += 2
    return " ".join(["Who", *words[k:end], *words[:k], *words[end:]]) + (m.group("end") or "?")


#: "What does X turn out to be?", "What did X seem to want?": the verb of what X turns out, seems, appears to do asks
#: (the main clause's: its plain form after "do" and its subject, not "… when the answer turns out to be …")
_RAISED = re.compile(r"^[^,]*?\b(?:do|does|did)\s+[^,]+?\s+(?P<raised>(?:turn\s+out|seem|appear|prove|happen)\s+to\s+)"
                     r"(?P<verb>[a-z]+)\b", re.I)


def _unraised(clause: str) -> str:
    """A question asking what X turns out, seems or appears to do as what X does ("What does the box turn out to
    hold?" → "What does the box hold?"), and to be as what X is ("What did the noise turn out to be?" → "What was
    the noise?").

    >>> _unraised("What does the box turn out to hold?"), _unraised("What did the noise turn out to be?")
    ('What does the box hold?', 'What was the noise?')
    >>> _unraised("What happens to the ship?"), _unraised("Who cheers when the guess turns out to be right?")
    ('What happens to the ship?', 'Who cheers when the guess turns out to be right?')
    """
    m = _RAISED.match(clause)
    if m is None or m.group("verb") in _NO_VERB or not lemmas(m.group("verb"), "v"):
        return clause
    plain = clause[: m.start("raised")] + clause[m.end("raised") :]
    be = re.match(r"^(?P<wh>.*?)\b(?P<do>do|does|did)\s+(?P<subject>.+?)\s+be\b\s*", plain, re.I)
    if be is None:
        return plain
    copula = {"do": "are", "does": "is", "did": "was"}[be.group("do").lower()]
    rest = plain[be.end() :]
    return f"{be.group('wh')}{copula} {be.group('subject')}{' ' if rest[:1].isalnum() else ''}{rest}"


#: "Which of the Ns …?": asks which N, as "Which Ns …?" does
_PARTITIVE = re.compile(r"^which\s+of\s+(?:the|his|her|their|its|our|your|these|those)\s+"
                        r"(?:(?:two|three|four|five|six|seven|eight|nine|ten|many|several|\d+)\s+)?(?=[a-z])", re.I)

#: "Into what does the wizard turn the frog?", "To whom did she give it?": a preposition before a bare what/which
#: or whom, then the auxiliary
#: (what the clause adds after a comma, "…, and why?", stays after the preposition)
_PIED_PIPED = re.compile(r"^(?P<p>" + _any_of(_WH_PREPOSITIONS) + r")\s+(?P<wh>what|which|whom)\s+(?P<rest>" + _AUXILIARY
                         + r"[^?,]*?)\s*(?P<tail>,[^?]*?)?\s*(?P<end>[?.!]*)$", re.I)


def asked_form(question: str) -> str:
    """The wh-clause of ``question`` (:func:`wh_clause`) in the form the slot readers parse: "which of the Ns" as
    "which Ns", a cleft unclefted (:func:`_uncleft`), a passive asking its agent made active
    (:func:`_active`), "turn out / seem to" dropped (:func:`_unraised`), and a preposition before a bare what/which
    or whom moved to the end of the clause, where English also puts it ("Into what did the wizard turn the frog?" asks
    "What did the wizard turn the frog into?"); a what/which before its noun ("In which room …?", "In what year
    …?") stays, as does any other question.

    >>> asked_form("After the storm ended, into what did the wizard turn the frog?")
    'What did the wizard turn the frog into?'
    >>> asked_form("In which room did they meet?"), asked_form("Who came?"), asked_form("To whom did Tom give the key?")
    ('In which room did they meet?', 'Who came?', 'Whom did Tom give the key to?')
    >>> asked_form("Who was it that Anna met?")
    'Who did Anna meet?'
    >>> asked_form("Which of the old sailors sang?"), asked_form("Which of the three sailors sang?")
    ('Which old sailors sang?', 'Which sailors sang?')
    """
    return _asked(wh_clause(question)[1])


def _asked(clause: str) -> str:
    """A wh-clause in the form the slot readers parse (:func:`asked_form`)."""
    clause = _unraised(_active(_uncleft(_PARTITIVE.sub("Which ", clause))))
    m = _PIED_PIPED.match(clause)
    if m is None:
        return clause
    return f"{m.group('wh').capitalize()} {m.group('rest')} {m.group('p').lower()}{m.group('tail') or ''}{m.group('end') or '?'}"


#: "How did X react / feel …?", "What happens to X when …?", "What did X do after …?": what follows an event is asked
_CONSEQUENCE = re.compile(r"\bhow\s+(?:did|does|do|was|were|is|are|had|has|will|would)\s+[^?]+?\s+(?:react|respond|feel|reply|behave)"
                          r"|\bwhat\s+(?:happens|happened|happen|will\s+happen|(?:did|does|do)\s+[^?]+?\s+do)\s+[^?]*?"
                          r"\b(?:when|after|as|once|while|upon)\b", re.I)


def asks_consequence(question: str) -> bool:
    """Whether ``question`` asks what someone did or felt, or what happened, upon an event: its answer is told
    by the sentence that follows the one telling the event, as often as by that sentence.

    >>> asks_consequence("How did Anna react when the bell rang?"), asks_consequence("What happens to the boat after the storm?")
    (True, True)
    >>> asks_consequence("What did Tom do when he saw the fire?"), asks_consequence("How did Tom open the box?")
    (True, False)
    >>> asks_consequence("What happens to the boat?"), asks_consequence("When the storm broke, what did the boat do?")
    (False, True)
    """
    frame, clause = wh_clause(question)  # "When the storm broke, what …?": the frame tells the event
    return _CONSEQUENCE.search(question) is not None or (bool(frame) and _FOLLOWS.match(clause) is not None)


#: "what happened", "what did X do": after a frame telling an event, what follows it is asked
_FOLLOWS = re.compile(r"what\s+(?:happens|happened|happen|(?:did|does|do)\s+[^?]+?\s+do)\b", re.I)


#: the prepositions a who- or what-question may leave at its end, whose object it asks ("Who did Ann go to the fair
#: with?", "What did Mira cut the rope with?")
_STRANDABLE = frozenset("about after against at behind beside by for from in inside into near of on onto over through "
                        "to toward towards under upon with".split())

#: "Who/Whom/What AUX … PREP?", perhaps with a clause of time after the preposition ("… talking to when the bell rang?")
_STRANDED = re.compile(r"^\W*(?P<wh>whom?|what)\s+" + _AUXILIARY + r"\s+"
                       r"(?P<rest>\S.*?)\s+(?P<p>" + _any_of(_STRANDABLE) + r")"
                       r"(?:,?\s+(?:when|while|as|after|before|until|since)\s+[^?]*)?\s*[?.!]*$", re.I)


def _stranded_match(question: str, wh: str) -> re.Match[str] | None:
    """The match of :data:`_STRANDED` on a question opened by ``wh`` ("who" also stands for "whom"); else None."""
    m = _STRANDED.match(" ".join(question.split()))  # one space between words: the pattern backtracks over runs of them
    return m if m is not None and m.group("wh").lower().startswith(wh) else None


def stranded(question: str, wh: str = "what") -> str | None:
    """The preposition a question opened by ``wh`` ("who", "whom" or "what") ends with, whose object it asks
    ("Whom did Nell sail with?" → with); None for a question opened otherwise, or ending otherwise.

    >>> stranded("What did the smith mend the gate with?"), stranded("Who did Nell walk to the mill with?", "who")
    ('with', 'with')
    >>> stranded("Whom was Nell waving to when the cart passed?", "who")  # a clause of time after it
    'to'
    >>> stranded("What did Nell carry to the mill?"), stranded("Who came with Nell?", "who"), stranded("Who did Nell sit by?")
    (None, None, None)
    """
    m = _stranded_match(question, wh)
    return m.group("p").lower() if m else None


#: "What is the name of NP?" asks what "Who/what is NP?" asks, a name
#: ("What is the first name of NP?": a part of the name, asked as the name is)
_NAME_OF = re.compile(r"^\s*(?:what|which)(?:['’]s|\s+(?:is|was|are|were))\s+the\s+(?:(?:first|last|full|given|christian|"
                      r"family|maiden|real)\s+)?names?\s+of\s+(?P<np>.+?)[\s?.!]*$", re.I)

#: what ends a noun phrase's head: a preposition or a relative word after it
_NP_END = re.compile(r"\s+(?:of|in|at|on|aboard|for|from|with|among|to|by|who|whom|whose|that|which|when|while|before|after|during)\b.*$")


def _name_of(question: str) -> str | None:
    """The noun phrase a "What is the name of …?" question asks the name of, lower-case modifiers
    before a named possessor dropped ("young Scrooge's schoolmaster" → "Scrooge's schoolmaster");
    None for other questions.

    >>> _name_of("What is the name of young Scrooge's schoolmaster?"), _name_of("What was the name of the ship?")
    ("Scrooge's schoolmaster", 'the ship')
    >>> _name_of("What is the plan of the squad?") is None, _name_of("Whose name is on the stone?") is None
    (True, True)
    >>> _name_of("What is the first name of Fred's wife?"), _name_of("What is the first scene of the play?")
    ("Fred's wife", None)
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
    >>> _np_head("the elite group whose members convene in the briefing room")  # a "whose" clause is no part of the head
    'group'
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
    if rest[:1] and rest[0] in ("did", "does", "do"):
        return None  # "What does the girl see?": the noun after the auxiliary is its subject, not the head of the asked phrase
    for n, w in enumerate(rest[:6]):
        if w in skip:
            continue
        possessor = w.endswith("'s")
        w = w.rstrip("'s") if possessor else w
        if w == "name" or w == "names":
            continue
        following = rest[n + 1] if n + 1 < len(rest) else ""
        if not possessor and (following in _HEAD_TYPES or following.rstrip("s") in _HEAD_TYPES):
            continue  # "which team member", "which storybook figure": the last noun of a compound is its head ("Scrooge's clerk" is none)
        for form in (w, w[:-1] if w.endswith("s") else w):
            if form in _HEAD_TYPES:
                return dict(_HEAD_TYPES[form])
        return None
    return None


#: how much a term only the frame before the wh-clause has weighs against the clause's own (:func:`wh_clause`)
FRAME = 0.3

#: titles that belong to a name but do not tell people apart by themselves
_TITLES = frozenset("mr mrs miss ms dr doctor agent sir lady lord old young master captain professor".split())

#: titles that tell a man from a woman ("Mrs. Fezziwig" is not "Mr. Fezziwig")
_FORMS_OF_ADDRESS = frozenset("mr mrs miss ms sir lady lord master madam".split())

#: the forms of address of a woman: the bare surname of "Mrs. Fezziwig" names another, her husband
_WOMEN_ADDRESSED = frozenset("mrs miss ms lady madam".split())


def _single_names(question: str, names: Sequence[str]) -> tuple[dict[str, str], set[str]]:
    """The surnames or first names a question writes alone, each word with the word as written, unless it
    qualifies a noun ("the Cratchit family"); and those of them a title before it makes a name the evidence
    knows ("Mrs. Cratchit": not every Cratchit). Neither the question's first word nor one after another
    capitalised word but a title is one.

    >>> _single_names("Who met Edgar's partner, the Kell family and Tim?", []), _single_names("Who is Mrs. Kell?", ["Mrs. Kell"])
    (({'edgar': "Edgar's", 'tim': 'Tim'}, set()), ({'mrs': 'Mrs', 'kell': 'Kell'}, {'kell'}))
    """
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
    return singles, titled


class _Question:
    """The question's terms (word roots) split into the names it mentions and the descriptive
    rest (the relation or description asked about), each weighted by how rare it is in the
    evidence (a word every sentence has tells candidates apart less than a rare one)."""

    def __init__(self, question: str, names: Sequence[str], sentences: Sequence[_Sentence] = (),
                 kinds: dict[str, str | None] | None = None):
        kinds = kinds or {}
        #: the question as asked, its frame too: a value or name it says is no answer (:func:`asked_form` drops the frame)
        self.text = question
        content = content_tokens(question)
        self.tokens = list(dict.fromkeys(_root(t) for t in content))
        # "What is the name of the operation at Dulce?": the answer may be made of the question's words
        self.asks_name = re.search(r"\b(?:name|names|called|title)\b", question, re.I) is not None
        #: the entity types of the names the question uses (a person's name inside a firm's is not the firm)
        self.kinds: dict[tuple[str, ...], set[str | None]] = {}
        self.names: set[tuple[str, ...]] = set()
        named = self._whole_names(question, names, kinds, set(content)) | self._short_names(question, names, kinds)
        # every capitalised word inside the question is a name it uses ("A Christmas Carol", "Dulce")
        for m in re.finditer(r"(?<=\S\s)([A-Z][\w'’-]*)", question):
            named.update(content_tokens(m.group(1)))
        self.named = {_root(t) for t in named}
        self.rest = [t for t in self.tokens if t not in self.named]
        self._weigh(question, sentences)
        # a name the question uses that no evidence has: the evidence is about something else
        missing = [t for t in self.named if not any(t in s.tokens for s in sentences)]
        self.found = 1.0 - 0.8 * len(missing) / len(self.named) if self.named and sentences else 1.0

    def _use(self, toks: list[str], kind: str | None) -> None:
        self.names.add(tuple(toks))
        self.kinds.setdefault(tuple(toks), set()).add(kind)

    def _whole_names(self, question: str, names: Sequence[str], kinds: dict[str, str | None], asked: set[str]) -> set[str]:
        """The words of the names the question writes whole, as names (capitalised; not "his wife"), each used."""
        folded = " " + " ".join(tokenize(question)) + " "
        named: set[str] = set()
        for name in set(names):
            toks = content_tokens(name)
            if not toks or not set(toks) <= asked or re.search(r"['’(]", name) or f" {' '.join(tokenize(name))} " not in folded:
                continue
            m = _name_pattern(name).search(question)
            if m and m.group(0)[:1].isupper():
                named.update(toks)
                self._use(toks, kinds.get(name))
        return named

    def _short_names(self, question: str, names: Sequence[str], kinds: dict[str, str | None]) -> set[str]:
        """The words of the names of people the question names by a surname or first name alone ("Scrooge's
        partner" names "Ebenezer Scrooge", "Sam" names "Sam Rivera"; :func:`_single_names`), each used."""
        singles, titled = _single_names(question, names)
        named: set[str] = set()
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
                self._use(toks, kinds.get(name))
        return named

    def _weigh(self, question: str, sentences: Sequence[_Sentence]) -> None:
        """Each descriptive term's weight (:attr:`weight`), the asked head noun (:attr:`head`) and their sum."""
        n = len(sentences) + 1
        df = {t: sum(1 for s in sentences if t in s.tokens) for t in self.rest}
        # smoothed inverse sentence frequency; a word no sentence has weighs at most as a plain
        # word (it tells no candidate apart)
        self.weight = {t: 0.5 + min(2.0, math.log((n + 5) / (df[t] + 5))) for t in self.rest}
        self.weight = {t: min(1.0, w) if not df[t] else w for t, w in self.weight.items()}
        # the frame before the wh-clause ("After the storm, what …?") finds the scene; the clause says what is asked
        frame, clause = wh_clause(question)
        if frame and classify(question).kind != "yes-no":  # "In the end, is X kind, which …?": no wh-clause asks
            asked = {_root(t) for t in content_tokens(clause)}
            self.weight = {t: w if t in asked else w * FRAME for t, w in self.weight.items()}
        # the head noun of "which company …" says what kind of thing answers, which the type
        # already weighs; what is asked about it is the rest ("builds the submarine engines")
        self.head = head = _which_head(asked_form(question))
        if head in self.weight and len(self.weight) > 1:
            self.weight[head] *= 0.6
        self.desc_total = sum(self.weight.values())

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
