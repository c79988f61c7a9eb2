"""Who-slot filling: the person in the slot a who-question asks, read off the sentence that best aligns
the question's act.

"Who VERBs …?" and "Which (team) member VERBs …?" ask the subject of the act; "Whom does X VERB …?" and
"Who did X VERB …?" its object; "Whose N …?" the possessor of N (:func:`asked_act`). The asked verb must be a
lower-case word WordNet knows as a verb ("Who else …", "Who had the key?" ask none). The filler finds, among
the best-aligned sentences, a word saying the question's verb (:func:`.lexicon.says_act`: a form of it or a
WordNet synonym, "assisted" for "helps") and takes the noun phrase in the asked slot:

* the subject before the verb ("Scrooge's niece played well upon the harp"), past adverbs, auxiliaries
  and a relative pronoun ("…, who cried"); the subject of a copula before it ("Fan is Scrooge's sister
  who comes …");
* a pronoun subject ("she") stands for a person of its own sentence's words before it (after the last
  closing quotation mark), else of the sentence before it with its quotations left out — in each, the
  person phrase the words open with (past an opening adverb or conjunction and its comma: "Later, …"),
  else the first name not opening a sentence; a pronoun inside a quotation is the speaker's and answers
  nothing;
* the agent of a passive ("built by some Dutch merchant", "assisted by Belinda Cratchit");
* the subject after an inverted verb ("In came the housemaid, with her cousin the baker"): the first
  phrase the question does not itself name, of those the verb's subject joins with "with"/"and";
* for an object, the phrase right after the verb ("to assist a wretched woman");
* for "whose N" (N the head noun of the phrase "whose" opens, past its adjectives: "whose cheerful voice"), the
  name whose possessive precedes N ("Marley's face"), a person noun's possessive before it with its opener ("his
  nephew's house": "his nephew"), the person phrase after "the N of" ("the voice of his
  nephew") or "N belonging to", whom a possessive pronoun before N stands for (as a subject pronoun does; a
  speaker's pronoun, in double or single quotation marks, names nobody), and for an N said with "a" and owned
  by nobody, its owner in the next sentence ("cried a cheerful voice. It was the voice of …"); "his own N" is
  owned by the one the clause is about, even when the question names that one itself.

The phrase answers only when it is a person: a name (a capitalised word) or a noun WordNet knows as a
person or a social group ("merchant", "niece", "miners", "team"); never the question's own words; near the
verb, the question's first argument is said. For "Which N …?" a common-noun answer must be a kind of N
("which daughter": "the youngest daughter"), unless a group noun modifies N ("team member"). The caller
lets it beat the candidates counted by frequency only when the sentence is well aligned.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence

from .antecedents import looked_back, names_someone, within_reach
from .descriptions import _ADVERBS as _ADVERB
from .lexicon import is_a, lemmas, manner_adverb, says_act
from .question import _stranded_match, stranded
from .sentence import _HEADER
from .slots import _OPENERS
from .slots import _PARTICLES as _VERB_PARTICLES
from .words import _AUXILIARIES as _AUX
from .words import (
    _FIRST_AND_SECOND_PERSON,
    _OBJECT_PRONOUNS,
    _PERSON_OBJECTS,
    _PERSON_POSSESSIVES,
    _PERSON_SUBJECTS,
    _POSSESSIVE_END,
    _PREPOSITIONS,
    _SUBJECT_PRONOUNS,
    _any_of,
    _noun,
    _Sentence,
    root_tokens,
)

#: the least alignment score (:func:`.sentence._sentence_score`) of a sentence whose slot answers
STRONG = 0.25

#: the least share of the best alignment score a sentence whose slot answers has (it is among the best aligned)
NEAR_BEST = 0.8

#: how many of the best-aligned sentences are read for the asked act
READ = 5

#: the least share of the best alignment score of a sentence saying the asked act, when none of the best does
SAYS_BEST = 0.6

#: not :data:`.slots._TOKEN`: an abbreviation keeps its dot ("Mr. Fezziwig" is one phrase) and every mark is a token
_TOKEN = re.compile(r"[A-Za-z][\w'’-]*(?:\.(?=\s+[A-Z]))?|[^\w\s]")
#: the words that open a noun phrase (:data:`.slots._OPENERS`, and number words past three)
_NP_OPENERS = _OPENERS | frozenset("four five several".split())
_RELATIVE = frozenset({"who", "that", "which"})
#: words that end a noun phrase: prepositions, conjunctions, pronouns (not "her", also a possessive) and the like
_BOUNDARY = frozenset("of in on at to for from with by into onto upon over under about after before while and or but "
                      "nor as than when where whom whose who which that not no so if there here".split()) | _AUX \
    | (_SUBJECT_PRONOUNS | _OBJECT_PRONOUNS | _FIRST_AND_SECOND_PERSON) - {"her"}
_COPULA = frozenset("is was are were be been".split())
_WHO = re.compile(r"\bwho\s+(?:(?:[a-z]+ly|also|then|first|finally|later|once|never|ever|really)\s+)?"
                  r"(?:(?P<aux>did|does|do|will|would|could|can|had|has|have|is|was|are|were)\s+)?"
                  r"(?:(?:[a-z]+ly|also|then|first|finally|later|once|never|ever|really)\s+)?(?P<v>[a-z][a-z-]+)\b", re.I)
_WHOSE = re.compile(r"\bwhose\s+((?:[a-z][a-z-]*\s+){0,3}[a-z][a-z-]*)", re.I)
_AND_VERB = re.compile(r"\band\s+(?:[a-z]+ly\s+)?([a-z][a-z-]+)\b")
_WHICH = re.compile(r"^\W*which\s+(?P<words>(?:[a-z][a-z-]*\s+){1,3}[a-z][a-z-]*)", re.I)
_WHOM = re.compile(r"\bwhom\s+(?:do|does|did|will|would|can|could|should|had|has|have)\s+(?P<rest>.+?)\s*[?.!]*$", re.I)


def asked_act(question: str) -> tuple[str, tuple[str, ...]] | None:
    """The slot a who-question asks ("subject", "object" or "possessor") and the verbs that may say its
    act: the word after "who" (past adverbs and an auxiliary) — not a copula ("Who is X's wife?" asks a
    relation) — and the verbs "and" joins to it; for "whom does …", every lower-case verb after the
    auxiliary; for "whose N", the possessed noun N.

    >>> asked_act("At Fezziwig's ball, who comes in with the housemaid?")
    ('subject', ('comes',))
    >>> asked_act("In the game, who finally guessed the animal?")
    ('subject', ('guessed',))
    >>> asked_act("Who laid the cloth and sweetened the sauce?"), asked_act("Who invites him and is refused?")
    (('subject', ('laid', 'sweetened')), ('subject', ('invites',)))
    >>> asked_act("Whom does the old ghost cry at being unable to help?")
    ('object', ('cry', 'help'))
    >>> asked_act("Who did Scrooge see?"), asked_act("Who had the key?"), asked_act("Who else came?")
    (('object', ('see',)), None, None)
    >>> asked_act("Which team member fended off the drone?"), asked_act("Which ship carried the gold?")
    (('subject', ('fended',)), None)
    >>> asked_act("Which firm does Scrooge run?") is None
    True
    >>> asked_act("Whom does Sam regard as a mentor?")
    ('object', ('regard',))
    >>> asked_act("Whose face did Tom see in the window?")
    ('possessor', ('face',))
    >>> asked_act("Who is the founder of the project?") is None, asked_act("Who was sent to the shop?") is None
    (True, True)
    """
    m = _WHOSE.search(question)
    if m:
        return "possessor", (_possessed(m.group(1).split()),)
    m = _stranded_match(question, "who") or _WHOM.search(question)
    if m:
        return _object_verbs(m.group("rest"))
    head = _which_head(question)
    if head is not None:
        return "subject", head[1]
    m = _WHO.search(question)
    if not m or (m.group("aux") or "").lower() in _COPULA:
        return None
    v = m.group("v")
    if not (v.islower() and v not in _AUX | _NP_OPENERS and lemmas(v, "v")):
        if (m.group("aux") or "").lower() in {"do", "does", "did"}:  # "Who did Scrooge see?" asks the object
            verbs = _object_verbs(question[m.start("v"):])
            return verbs if verbs and verbs[1] else None
        return None  # "Who else …", "Who had the key?"
    joined = [j.group(1).lower() for j in _AND_VERB.finditer(question, m.end())]  # "… and sweetened the sauce"
    return "subject", (v, *(w for w in joined if w not in _AUX and lemmas(w, "v")))


def _possessed(words: Sequence[str]) -> str:
    """The head noun of the phrase "whose" opens (``words``, its first few): its last word WordNet knows as a
    noun before an auxiliary, a preposition or an inflected verb ends the phrase; its adjectives are modifiers.
    After a plural head a verb's plain form ends it too ("Whose sons work …": the verb agrees with the plural).

    >>> _possessed("loud voice called him".split()), _possessed("two-roomed house did the".split())
    ('voice', 'house')
    >>> _possessed("little sister came to".split()), _possessed("hands shook".split()), _possessed("idea was it".split())
    ('sister', 'hands', 'idea')
    >>> _possessed("sons work hard".split()), _possessed("men guard the gate".split()), _possessed("young men guard".split())
    ('sons', 'men', 'men')
    """
    head = words[0].lower()
    for word in words[1:]:
        low = word.lower()
        if low in _BOUNDARY or any(v != low for v in lemmas(low, "v")):
            break  # "did", "of", "came", "wished": the phrase has ended
        if lemmas(low, "v") and any(n != head for n in lemmas(head, "n")):
            break  # "sons work", "men guard": a plural subject, then its verb
        if lemmas(low, "n"):
            head = low
    return head


def _object_verbs(rest: str) -> tuple[str, tuple[str, ...]]:
    """The object slot of a question whose ``rest`` (after "whom/who do …") opens with its subject: the
    lower-case verbs after that subject — a name, or a determiner and its words up to a boundary word, the
    last of two or more of which is the verb ("the old ghost cry at …") — not right after a determiner.

    >>> _object_verbs("the old ghost cry at being unable to help?"), _object_verbs("the cooking?")
    (('object', ('cry', 'help')), ('object', ()))
    """
    words = re.findall(r"[A-Za-z][\w'’-]*", rest)
    n = 0
    if words and words[0].lower() in _NP_OPENERS:
        run = next((k for k in range(1, len(words)) if not words[k].islower() or words[k] in _BOUNDARY), len(words))
        n = run - 1 if run > 2 else run  # the determiner and its noun(s); the run's last word is the verb
    return "object", tuple(w for k, w in enumerate(words) if k >= n and w.islower() and w not in _AUX and lemmas(w, "v")
                           and (k == 0 or words[k - 1].lower() not in _NP_OPENERS))


def _which_head(question: str) -> tuple[str | None, tuple[str, ...]] | None:
    """For "Which (team) member VERBs …?": the kind the answer must be (the head noun, a person noun right
    before a verb; None when a group noun modifies it — "team member" says membership, not a kind) and the
    verbs asked; None for another question ("Which firm does Scrooge run?" asks an object).

    >>> _which_head("Which team member fended off the drone?"), _which_head("Which daughter fended off the drone?")
    ((None, ('fended',)), ('daughter', ('fended',)))
    >>> _which_head("Which firm does Scrooge run?") is None
    True
    """
    which = _WHICH.match(question)
    words = which.group("words").lower().split() if which else []
    for k, (n, v) in enumerate(itertools.pairwise(words[:4])):  # a person noun, then a verb
        if v in _AUX:
            break
        if lemmas(v, "v") and is_person(n):
            joined = [j.group(1).lower() for j in _AND_VERB.finditer(question, which.end() if which else 0)]
            group = k > 0 and is_a(_noun(words[k - 1]), "social_group")
            return None if group else n, (v, *(w for w in joined if w not in _AUX and lemmas(w, "v")))
    return None


def is_person(phrase: str) -> bool:
    """Whether a noun phrase names a person: its head (last word) is capitalised (a name), or a noun
    WordNet knows as a person or a social group (a hyphenated compound as one word when WordNet knows it, else by its
    last part's most frequent sense).

    >>> is_person("some Dutch merchant"), is_person("her cousin the baker"), is_person("Belinda Cratchit"), is_person("the tea-merchant")
    (True, True, True, True)
    >>> is_person("the cloth"), is_person("a glowing fire"), is_person(""), is_person("I’ve"), is_person("MAN")
    (False, False, False, False, False)
    >>> is_person("the side-board"), is_person("a mud-guard")  # compounds WordNet knows whole; not by their last part
    (False, False)
    """
    words = phrase.split()
    if not words:
        return False
    head = words[-1]
    if re.sub(r"['’].*", "", head).lower() in _BOUNDARY or (head.isupper() and len(head) > 1):
        return False  # a pronoun, a word shouted in a header ("MAN")
    if head[:1].isupper():
        return True
    if "-" in head and not lemmas(_noun(head.replace("-", "")), "n"):  # a compound WordNet lacks ("salt-merchant"):
        last = _noun(head.rsplit("-", 1)[-1])                            # its last part's most frequent sense
        return is_a(_noun(head), "person") or is_a(last, "person", 1)
    noun = _noun(head.replace("-", "")) if "-" in head else _noun(head)  # "watch-dog" is a watchdog
    return is_a(noun, "person") or is_a(noun, "social_group")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _np_forward(toks: Sequence[str], j: int) -> tuple[str, int]:
    """The person noun phrase starting at ``toks[j]`` (determiners, modifiers and nouns up to a boundary
    word, punctuation or a word only a verb), cut back to its last person head; and the index after the run.

    >>> _np_forward(_tokens("Mira asked the clerk."), 0), _np_forward(_tokens("saw a weary fisherman there"), 1)
    (('Mira', 1), ('a weary fisherman', 4))
    """
    while j < len(toks) and toks[j].lower() in _ADVERB:
        j += 1
    end = j
    while end < len(toks) and end - j < 7 and toks[end][:1].isalpha() and toks[end].lower() not in (_BOUNDARY | _ADVERB) - _NP_OPENERS \
            and not (_only_verb(toks[end]) and (end == 0 or toks[end - 1].lower() not in _NP_OPENERS)):
        end += 1  # a verb ends the phrase ("Mira asked …"); after a determiner it is a modifier ("a weary man")
    for stop in range(end, j, -1):
        phrase = " ".join(toks[j:stop])
        if toks[stop - 1].lower() not in _NP_OPENERS and is_person(phrase):
            return phrase, end
    return "", end


def _only_verb(word: str) -> bool:
    """Whether a lower-case word is one WordNet knows only as a verb ("asked"; not "clerk", which is a noun too).

    >>> _only_verb("asked"), _only_verb("clerk"), _only_verb("Asked"), _only_verb("xyzzy")
    (True, False, False, False)
    """
    return word.islower() and bool(lemmas(word, "v")) and not lemmas(word, "n")


def _opener(toks: Sequence[str]) -> int:
    """How many of the words before a pronoun subject open its sentence without naming anyone: a
    capitalised word WordNet knows neither as a noun nor as a verb (an adverb or a conjunction: "Later",
    "However") and the comma after it; a lone word right before the pronoun ("Today she …": a name is
    never written so).

    >>> _opener(_tokens("Later, she came.")), _opener(_tokens("Mira came.")), _opener(_tokens("Then, she came."))
    (2, 0, 0)
    >>> _opener(_tokens("Today"))
    1
    """
    if len(toks) == 1:
        return 1
    if len(toks) < 2 or toks[1] != "," or not toks[0][:1].isupper() or lemmas(toks[0], "n") or lemmas(toks[0], "v"):
        return 0
    return 2


def _np_backward(toks: Sequence[str], i: int) -> tuple[str, int]:
    """The noun phrase ending at ``toks[i]``, back to its determiner, a boundary word or punctuation
    ("of" inside a name: "the Ghost of Christmas Past"); and its start.

    >>> _np_backward(_tokens("Then, Scrooge's niece played"), 3), _np_backward(_tokens("so the Ghost of Christmas Past came"), 5)
    (("Scrooge's niece", 2), ('the Ghost of Christmas Past', 1))
    >>> _np_backward(_tokens("at supper Oswin's niece played"), 3)
    ("Oswin's niece", 2)
    """
    start = i
    while start > 0 and i - start < 7:
        low = toks[start].lower()
        if low in _NP_OPENERS or not toks[start - 1][:1].isalpha() or (
                re.search(r"['’]s?$", low) and not toks[start - 1][:1].isupper()):
            break  # a determiner, a possessive ("at supper Oswin's niece") or punctuation opens the phrase
        before = toks[start - 1].lower()
        named_of = before == "of" and start > 1 and toks[start][:1].isupper() and toks[start - 2][:1].isupper()
        if before in _BOUNDARY - _NP_OPENERS and not named_of:
            break
        start -= 1
    return " ".join(toks[start:i + 1]), start


def _pronoun_antecedent(before: Sequence[str]) -> str:
    """Whom a pronoun after ``before`` stands for: the person phrase ``before`` opens with ("The
    undertaker's man is …"), else its first name (a run of capitalised words not opening a sentence).

    >>> _pronoun_antecedent(_tokens("The old man is a dealer.")), _pronoun_antecedent(_tokens("Then Bob Cratchit came."))
    ('The old man', 'Bob Cratchit')
    >>> _pronoun_antecedent(_tokens("Later,")), _pronoun_antecedent(_tokens("Later")), _pronoun_antecedent(_tokens("asked the clerk."))
    ('', '', '')
    """
    phrase, _ = _np_forward(before, _opener(before))
    if phrase:
        return phrase
    for j in range(1, len(before)):
        if before[j][:1].isupper() and is_person(before[j]) and before[j].lower() not in _NP_OPENERS and before[j - 1] not in ".!?":
            k = j
            while k + 1 < len(before) and before[k + 1][:1].isupper():
                k += 1
            return " ".join(before[j:k + 1])
    return ""


#: the particles that open a clause with an inverted verb ("In came …") or follow a verb ("pressed down")
_PARTICLES = _VERB_PARTICLES - {"over", "about", "aside", "together", "again"}
_JOINS = (("with",), (",", "with"), ("and",), (",", "and"))


def _agent(toks: Sequence[str], i: int) -> list[str] | None:
    """The agent of a passive verb at ``toks[i]`` ("built by some Dutch merchant"): a list of one
    person phrase or none; None when the verb is not followed by "by"."""
    j = i + 1
    while j < len(toks) and toks[j].lower() in _ADVERB:
        j += 1
    if j >= len(toks) or toks[j].lower() != "by":
        return None
    phrase, _ = _np_forward(toks, j + 1)
    return [phrase] if phrase else []


def _inverted(toks: Sequence[str], i: int) -> list[str] | None:
    """The subjects after a verb that follows a clause-opening particle ("In came the housemaid, with
    her cousin the baker"); None when the verb is not inverted."""
    b = i - 1
    while b >= 0 and toks[b].lower() in _ADVERB:
        b -= 1
    if b < 0 or toks[b].lower() not in _PARTICLES or (b > 0 and toks[b - 1][:1].isalpha() and toks[b - 1].lower() not in _ADVERB):
        return None
    found, j = [], i + 1
    while j < len(toks):
        phrase, end = _np_forward(toks, j)
        if not phrase:
            break
        found.append(phrase)
        join = next((js for js in _JOINS if tuple(t.lower() for t in toks[end:end + len(js)]) == js), None)
        if join is None:
            break
        j = end + len(join)
    return found


def _quoted(toks: Sequence[str], b: int) -> bool:
    """Whether ``toks[b]`` stands inside a quotation (an opening mark before it is not closed).

    >>> _quoted(_tokens('"They will go," he said.'), 1), _quoted(_tokens('"Go," he said.'), 4)
    (True, False)
    """
    marks = [t for t in toks[:b] if t in ('"', "“", "”")]
    return marks.count('"') % 2 == 1 or marks.count("“") > marks.count("”")


def _unquoted(toks: Sequence[str]) -> list[str]:
    """The tokens outside quotations (marks included): a name a speaker says is no antecedent of the narrator's pronoun.

    >>> _unquoted(_tokens('"Bob is here," said Mira.'))
    ['"', '"', 'said', 'Mira', '.']
    """
    return [t for n, t in enumerate(toks) if not (_quoted(toks, n) and _quoted(toks, n + 1))]


def _subjects(toks: Sequence[str], i: int, previous: str) -> list[str]:
    """The person phrases that may be the subject of the verb at ``toks[i]`` (see the module docstring; ``previous``:
    the sentence a pronoun looks back to, :func:`_looked_back_to`)."""
    i = _light_verb(toks, i)
    for special in (_agent(toks, i), _inverted(toks, i)):
        if special is not None:
            return special
    b = i - 1
    while b >= 0 and (toks[b].lower() in _ADVERB | _AUX or manner_adverb(toks[b])):
        b -= 1
    who = b >= 0 and toks[b].lower() == "who"
    if b >= 0 and toks[b].lower() in _RELATIVE:
        b -= 1 + (b > 0 and toks[b - 1] == ",")
    elif b > 0 and toks[b] == ",":  # "The harbour master, in the shelter of the customs house, gave orders"
        return _set_off_subject(toks, b)
    if b < 0 or not toks[b][:1].isalpha():
        return []
    if toks[b].lower() == "and":  # "Fred showed kindness and offered help": the subject of the clause "and" goes on
        b = _clause_subject(toks, b)
        if b < 0:
            return []
    if toks[b].lower() in _PERSON_SUBJECTS:
        if _quoted(toks, b):  # '"They will ward it off," X said': the speaker's word, not the narrator's
            return []
        closed = max((c + 1 for c in range(b) if _quoted(toks, c) and not _quoted(toks, c + 1)), default=0)
        name = _pronoun_antecedent(toks[closed:b]) or _named_before(previous)
        return [name] if name else []
    phrase, start = _np_backward(toks, b)
    if start > 1 and toks[start - 1].lower() in _COPULA:  # "Fan is Scrooge's sister who comes …": the copula's subject
        named, _ = _np_backward(toks, start - 2)
        if is_person(named) and named[:1].isupper():
            return [named]
    if who and not is_person(phrase):  # "the boy at the pump, who whistled …": "who" speaks of a person
        phrase = _before_phrases(toks, start)
    return [phrase] if is_person(phrase) else []


#: the verbs that say an act by the noun after them ("gave orders": ordered; "paid a visit": visited)
_LIGHT_VERBS = frozenset("give make pay issue".split())  # not "take": "took orders" is another's act


def _light_verb(toks: Sequence[str], i: int) -> int:
    """The index of the light verb (:data:`_LIGHT_VERBS`) whose object, the noun ``toks[i]``, says the act ("The
    mayor gave orders": "gave"), past a determiner; else ``i``.

    >>> toks = _tokens("The mayor gave orders and paid a visit.")
    >>> [toks[_light_verb(toks, toks.index(w))] for w in ("orders", "visit", "mayor")]
    ['gave', 'paid', 'mayor']
    >>> toks = _tokens("The waiter took orders from the guests.")  # the guests ordered: "take" is no light verb here
    >>> toks[_light_verb(toks, toks.index("orders"))]
    'orders'
    """
    if not toks[i].islower() or not lemmas(toks[i], "n"):
        return i
    b = i - 1 - (i > 1 and toks[i - 1].lower() in _NP_OPENERS)
    return b if b >= 0 and toks[b].islower() and _LIGHT_VERBS & set(lemmas(toks[b], "v")) else i


def _set_off_subject(toks: Sequence[str], b: int) -> list[str]:
    """The subject of a verb after a phrase set off by commas (``toks[b]`` the closing one): the person phrase
    opening the sentence before the opening comma, the phrase between them opened by a preposition or a
    person phrase in apposition ("The harbour master, in the shelter of the customs house, gave orders").

    >>> toks = _tokens("The old miller, in the shade of his mill, gave orders.")
    >>> _set_off_subject(toks, 9), _set_off_subject(_tokens("Later, Ines, her cousin, left."), 6)
    (['The old miller'], ['Ines'])
    >>> _set_off_subject(_tokens("She saw the miller, in the mill, left."), 8)
    []
    >>> _set_off_subject(_tokens("The mill, old and dark, fell."), 6)
    []
    """
    c = next((c for c in range(b - 1, max(-1, b - 16), -1) if not toks[c][:1].isalnum()), -1)
    if c < 1 or toks[c] != "," or c + 1 >= b:
        return []
    inner, end = _np_forward(toks, c + 1)
    if toks[c + 1].lower() not in _PREPOSITIONS and not (inner and end == b):
        return []
    phrase, start = _np_backward(toks, c - 1)
    return [phrase] if is_person(phrase) and start == _opener(toks[:start]) else []


def _before_phrases(toks: Sequence[str], start: int) -> str:
    """The person phrase before the (at most two) phrases a preposition opens that end at ``toks[start]``'s phrase,
    of which a relative "who" after them speaks ("the boy at the pump, who …": "the boy"); "" when none is.

    >>> toks = _tokens("He nodded to the boy at the pump, who whistled.")
    >>> _before_phrases(toks, toks.index("the", 6)), _before_phrases(_tokens("the box on the shelf"), 3)
    ('the boy', '')
    """
    for _ in range(2):
        if start < 2 or toks[start - 1].lower() not in _PREPOSITIONS:
            return ""
        phrase, start = _np_backward(toks, start - 2)
        if is_person(phrase):
            return phrase
    return ""


#: the coordinators that, after a comma, open a new clause ("…, and the boy ran")
_COORDINATORS = frozenset({"and", "but", "or"})


def _clause_subject(toks: Sequence[str], b: int) -> int:
    """The index of the last word of the subject of the clause a verb after ``toks[b]`` ("and") goes on: the
    noun phrase (or pronoun) opening that clause — after the last clause mark (";", ":", a closing quotation, a
    comma and a coordinator) before ``b``, past an opening adverb and its comma —, when a verb of its own follows it before "and"; -1
    when there is none.

    >>> toks = _tokens("Mr. Scrooge's nephew showed kindness and offered help")
    >>> toks[_clause_subject(toks, 6)], _clause_subject(_tokens("the guests and offered"), 2)
    ('nephew', -1)
    >>> _clause_subject(_tokens("This community centers around the Cratchit family's dinner, with sauce and mashed potatoes"), 13)
    -1
    >>> toks = _tokens("Later, she laid the cloth and sweetened the sauce")
    >>> toks[_clause_subject(toks, 6)]
    'she'

    A comma and a coordinator open a clause too: not the first clause's subject for a verb of the second:

    >>> toks = _tokens("Kim laughed, and the boy ran and fetched the coat")
    >>> toks[_clause_subject(toks, 7)]
    'boy'
    """
    marks = [c + 1 for c in range(b) if toks[c] in (";", ":", "”") or (toks[c] == '"' and _quoted(toks, c))]
    marks += [c + 2 for c in range(b - 1) if toks[c] == "," and toks[c + 1].lower() in _COORDINATORS]
    start = max(marks, default=0)
    start += _opener(toks[start:b])
    if start >= b:
        return -1
    if toks[start].lower() in _PERSON_SUBJECTS:
        end = start + 1
    else:
        phrase, end = _np_forward(toks, start)
        if not phrase:
            return -1
    v = end
    while v < b and toks[v].lower() in _ADVERB | _AUX:
        v += 1
    copular = not _COPULA.isdisjoint(t.lower() for t in toks[end:v])  # "The clerk is kind and signed …"
    if v >= b or not (copular or (toks[v].islower() and lemmas(toks[v], "v"))) or re.search(r"['’]s?$", toks[end - 1]):
        return -1  # "the guests and offered": no verb right after the phrase; "the family's … and mashed": a possessor
    return end - 1


def _objects(toks: Sequence[str], i: int, prep: str | None = None) -> list[str]:
    """The person phrase right after the verb at ``toks[i]`` (past adverbs and a particle); with a stranded ``prep``
    the phrase after that preposition, within a few words of the verb in its clause ("went to the fair with Tom").

    >>> _objects(_tokens("She went to the fair with her cousin the baker."), 1, "with")
    ['her cousin the baker']

    A possessive there is the owner of what the preposition stands before ("to the baker's shop", "to the baker's"),
    not whom it asks:

    >>> _objects(_tokens("The boy was sent to the baker's shop."), 3, "to"), _objects(_tokens("She ran to the baker's."), 1, "to")
    ([], [])
    """
    if prep is not None:
        at = next((j for j in range(i + 1, min(len(toks), i + 8)) if toks[j].lower() == prep or not toks[j][:1].isalpha()), None)
        if at is None or toks[at].lower() != prep:
            return []
        phrase, _ = _np_forward(toks, at + 1)
        return [phrase] if phrase and not _POSSESSIVE_END.search(phrase) else []
    j = i + 1
    while j < len(toks) and toks[j].lower() in _ADVERB | _PARTICLES:
        j += 1
    phrase, _ = _np_forward(toks, j)
    return [phrase] if phrase else []


#: how many words either side of the text's verb must hold the question's argument
WINDOW = 15

_GROUPS = re.compile(r"\b(?:of|in|on|at|to|for|from|with|by|into|onto|upon|over|under|about|after|before|while|as|during|"
                     r"and|that|who|which)\b|[,;:]", re.I)


def _arguments(question: str, verb: str) -> frozenset[str]:
    """The roots of the question's first argument after its ``verb`` that says more than names: its
    words up to the next preposition ("the harp" of "plays the harp at Fred's party"; "the housemaid"
    of "comes in with the housemaid"); of a question whose arguments are all names, those names.

    >>> sorted(_arguments("Who plays the harp at Fred's Christmas party?", "plays"))
    ['harp']
    >>> sorted(_arguments("Who visits Scrooge on Christmas Eve as a ghost?", "visits"))
    ['ghost']
    >>> sorted(_arguments("Who wrote A Christmas Carol?", "wrote"))
    ['carol', 'christma']
    """
    m = re.search(r"\b" + re.escape(verb) + r"\b(.*)$", question, re.I)
    names: set[str] = set()
    for group in _GROUPS.split(m.group(1) if m else ""):
        words = re.findall(r"[A-Za-z][\w'’-]*", group)
        plain = set(root_tokens(" ".join(w for w in words if w.islower())))
        if plain:
            return frozenset(plain)
        names |= set(root_tokens(" ".join(words)))
    return frozenset(names)


def _argued(toks: Sequence[str], i: int, phrase: str, arguments: frozenset[str]) -> bool:
    """Whether the words around the verb at ``toks[i]``, the answer ``phrase`` apart, say one of the
    question's ``arguments`` (none asked: yes)."""
    near = set(root_tokens(" ".join(toks[max(0, i - WINDOW):i + WINDOW + 1]))) - set(root_tokens(phrase))
    return not arguments or not arguments.isdisjoint(near)


def _own(phrase: str, asked: frozenset[str]) -> bool:
    """Whether a phrase is made of the question's own words (it names what the question names)."""
    roots = set(root_tokens(phrase))
    return not roots or roots <= asked


def _of_kind(phrase: str, kind: str | None) -> bool:
    """Whether a phrase answers "Which KIND …?": a name written as one ("Miss Belinda", not "catch Bob"), or
    a common noun WordNet makes the kind or a kind of it ("which ghost": not "Scrooge's nephew").

    >>> _of_kind("Miss Belinda", "daughter"), _of_kind("catch Bob Cratchit", "daughter"), _of_kind("his nephew", "ghost")
    (True, False, False)
    >>> _of_kind("the youngest daughter", "daughter"), _of_kind("the baker", None)
    (True, True)
    """
    if kind is None:
        return True
    head = phrase.split()[-1]
    if head[:1].isupper():
        return phrase[:1].isupper()
    return _noun(head) == kind or is_a(_noun(head), kind)


def _possessor(text: str, noun: str, previous: str = "", following: str = "") -> str:
    """The person that possesses ``noun`` in ``text`` (modifiers between allowed), or "": a name's possessive
    before it ("Rosa's face"; what the name owns ends at a word only a verb), or a person noun's, with the word
    opening its phrase ("his nephew's house"); the person phrase after "of" or "belonging to" past it ("the
    voice of the boy's uncle"; not "a cup of tea"); for a possessive pronoun before it ("his house"), whom the
    pronoun stands for (:func:`_nearest_person`: the person phrase nearest before it in its sentence, else the
    sentence ``previous``'s, :func:`_pronoun_antecedent`; inside a quotation, nobody). A noun said with
    "a"/"an" owned by nobody yet ("a tall hat fell.") is owned by whom the sentence ``following`` says
    possesses it ("It was the hat of …").

    >>> _possessor("not a door, but Rosa's face.", "face"), _possessor("He hid his face.", "face")
    ('Rosa', '')
    >>> _possessor("He praised Ines's deft touch and drive.", "touch"), _possessor("Ines's coat and the hat", "hat")
    ('Ines', '')
    >>> _possessor("Tom's dog heard voices in the hall.", "voice"), _possessor("He drank a cup of tea.", "cup")
    ('', '')
    >>> _possessor("It was the voice of the old miller, who sang.", "voice"), _possessor("the coat belonging to Ines", "coat")
    ('the old miller', 'Ines')
    >>> _possessor("Ann met Tom, and Tom showed her his house.", "house")
    'Tom'
    >>> _possessor("Then the clerk tidied his desk.", "desk", "Ann came home."), _possessor("He tidied his desk.", "desk", "Ann came.")
    ('the clerk', 'Ann')
    >>> _possessor('"Leave his cottage," she said.', "cottage")
    ''
    >>> _possessor("'Leave his cottage,' said Ines.", "cottage", "Oswin came.")
    ''
    >>> _possessor("'Rain is coming,' said Ines, and closed her window.", "window")
    'Ines'
    >>> _possessor("He walked to his nephew's little house.", "house"), _possessor("It was Kim's uncle's hat.", "hat")
    ('his nephew', "Kim's uncle")
    >>> _possessor("A tall hat fell.", "hat", following="It was the hat of Oswin."), _possessor("The hat of gold fell.", "hat")
    ('Oswin', '')
    """
    name = _named_possessor(text, noun)
    if name:
        return name
    spans = [m.span() for m in _TOKEN.finditer(text)]
    toks = [text[a:b] for a, b in spans]
    quotes = _quotations(text)
    indefinite = False
    for i, tok in enumerate(toks):
        if tok.islower() and _noun(tok) == _noun(noun):
            owner, b = _owner_at(toks, spans, i, quotes, previous)
            if owner:
                return owner
            indefinite = indefinite or (b >= 0 and toks[b].lower() in ("a", "an"))
    return _possessor(following, noun) if indefinite and following else ""


def _named_possessor(text: str, noun: str) -> str:
    """The name whose possessive stands before ``noun`` in ``text`` ("Rosa's face"), or "": what the name owns
    ends at a word only a verb ("Tom's dog heard voices")."""
    for m in _POSSESSOR.finditer(text):
        owned = list(itertools.takewhile(lambda w: w not in _BOUNDARY and not _only_verb(w), m.group("n").split()))
        if any(w == noun.lower() or _noun(w) == _noun(noun) for w in owned):
            name = m.group("x")
            if is_person(name) and name[:1].isupper():
                return name
    return ""


#: the words an owner's noun phrase does not reach back past: a person's possessive or an indefinite article
_OWNER_STOPS = _PERSON_POSSESSIVES | {"a", "an"}


def _owner_at(toks: Sequence[str], spans: Sequence[tuple[int, int]], i: int, quotes: Sequence[tuple[int, int]],
              previous: str) -> tuple[str, int]:
    """The owner of the noun ``toks[i]`` (:func:`_possessor`: the person after "of"/"belonging to", a person
    noun's possessive before it, whom a possessive pronoun before it stands for), or "", with the index of
    the word before its modifiers (where an "a"/"an" would stand)."""
    j = i + 1
    if toks[j:j + 1] == ["of"] or [t.lower() for t in toks[j:j + 2]] == ["belonging", "to"]:
        phrase, _ = _np_forward(toks, j + 1 if toks[j] == "of" else j + 2)
        if phrase and _names_one_person(phrase):  # "a cup of tea" names no owner
            return _POSSESSIVE_END.sub("", phrase), i
    b = i - 1
    while b >= 0 and b > i - 4 and toks[b].islower() and toks[b] not in _BOUNDARY and toks[b] not in _OWNER_STOPS:
        if _POSSESSIVE_END.search(toks[b]) and is_person(_POSSESSIVE_END.sub("", toks[b])):
            # "his nephew's house": a person noun's possessive, with what opens its phrase ("his", "Kim's", "the")
            opener = toks[b - 1] if b > 0 and (toks[b - 1].lower() in _NP_OPENERS or _POSSESSIVE_END.search(toks[b - 1])) else ""
            return " ".join(filter(None, (opener, _POSSESSIVE_END.sub("", toks[b])))), b
        b -= 1  # past the noun's modifiers
    if b >= 0 and toks[b].lower() in _PERSON_POSSESSIVES:
        return _pronoun_owner(toks, spans, b, quotes, previous), b
    return "", b


def _pronoun_owner(toks: Sequence[str], spans: Sequence[tuple[int, int]], b: int, quotes: Sequence[tuple[int, int]],
                   previous: str) -> str:
    """Whom the possessive pronoun ``toks[b]`` stands for (:func:`_nearest_person` after the last closed
    quotation, else :func:`_named_before` of the sentence ``previous``), or ""
    inside a quotation (a speaker's "his" is not the narrator's)."""
    at = spans[b][0]
    if _quoted(toks, b) or any(x <= at < y for x, y in quotes):
        return ""
    closed = max((c + 1 for c in range(b) if _quoted(toks, c) and not _quoted(toks, c + 1)), default=0)
    ended = max((y for _, y in quotes if y <= at), default=0)  # after the last quotation in single marks
    closed = max(closed, next(c for c in range(b + 1) if spans[c][0] >= ended))
    return _nearest_person(toks, closed, b) or _named_before(previous)


def _named_before(previous: str) -> str:
    """Whom a narrator's pronoun stands for when its own sentence names no one before it: the person phrase
    (:func:`_pronoun_antecedent`) of the sentence ``previous`` it looks back to, past that one's quotations (a
    name a speaker says is no antecedent of the narrator's pronoun).

    >>> _named_before("'Tom is here,' said Ines."), _named_before('"Tom is here," said Ines.'), _named_before("")
    ('Ines', 'Ines', '')
    """
    return _pronoun_antecedent(_unquoted(_tokens(_without_quotations(previous))))


def _looked_back_to(sentences: Sequence[_Sentence], k: int) -> str:
    """The text of the sentence a pronoun in sentence ``k`` looks back to (:func:`.antecedents.looked_back`), or "".

    >>> from ragprov.llm.answer.words import _sentences
    >>> from ragprov.llm.engine import Passage
    >>> ss = _sentences([Passage("Ines rose. The bell rang. She left.", "c"), Passage("He came.", "d")])
    >>> _looked_back_to(ss, 2), _looked_back_to(ss, 3)
    ('Ines rose.', '')
    """
    before = [_HEADER.sub("", sentences[j].text) for j in within_reach(sentences, k)]
    back = looked_back(before, names_someone)
    return before[back] if back is not None else ""


#: a quotation in single marks ("'Go home,' she said"): an opening mark at a word's start, a closing one after
#: the quotation's last punctuation, before a space or the end ("'Bob'" is a name in marks, not a quotation)
_QUOTE_OPENS = re.compile(r"(?:^|(?<=\s))['‘]")
_QUOTE_CLOSES = re.compile(r"[,.!?;:—-]['’](?=\s|$)")


def _quotations(text: str) -> list[tuple[int, int]]:
    """The spans of the quotations in single marks in ``text``, each from its opening mark to the first closing
    one after it on its line; the next one opens after it. One pass over the marks, the closings found by
    bisection: a long line of marks that never close costs no more than its length (a pattern that looks ahead
    from every opening to the line's end costs its square).

    >>> _quotations("'Go home,' she said. 'Bob' came; 'tis late.\\n'Yes.' 'No!' ")
    [(0, 10), (44, 50), (51, 56)]
    >>> _quotations("'Go home,\\n' she said.")
    []
    """
    closes = [m.start() for m in _QUOTE_CLOSES.finditer(text)]  # where each closing's punctuation stands
    out: list[tuple[int, int]] = []
    for m in _QUOTE_OPENS.finditer(text):
        start = m.start()
        if out and start < out[-1][1]:
            continue  # inside the quotation before it
        k = bisect.bisect_left(closes, start + 1)
        line_end = text.find("\n", start)
        if k < len(closes) and (line_end < 0 or closes[k] < line_end):
            out.append((start, closes[k] + 2))
    return out


def _without_quotations(text: str) -> str:
    """``text`` with each quotation in single marks (:func:`_quotations`) replaced by a space.

    >>> _without_quotations("'Go home,' she said; 'Stay.' Ann left.")
    '  she said;   Ann left.'
    """
    out, at = [], 0
    for a, b in _quotations(text):
        out += [text[at:a], " "]
        at = b
    return "".join(out) + text[at:]


def _names_one_person(phrase: str) -> bool:
    """Whether a person phrase names one person: a name, or a noun WordNet knows as a person (not a social
    group only, as "tea" — a party — is).

    >>> _names_one_person("the old miller"), _names_one_person("Ines"), _names_one_person("tea")
    (True, True, False)
    """
    head = phrase.split()[-1]
    return head[:1].isupper() or is_a(_noun(head), "person")


def _nearest_person(toks: Sequence[str], start: int, end: int) -> str:
    """The person phrase nearest before ``toks[end]`` (a possessive pronoun) from ``toks[start]`` on, past
    object pronouns: whom the pronoun stands for, the subject of its clause as a rule ("Ann met Tom, and
    Tom showed her his house": Tom), else the last person its sentence has named; "" when none is.

    >>> _nearest_person(_tokens("Ann met Tom, and Tom showed her his house."), 0, 8)
    'Tom'
    >>> _nearest_person(_tokens("Later, the clerk saw his desk."), 0, 6), _nearest_person(_tokens("Later, he saw his desk."), 0, 5)
    ('the clerk', '')
    """
    words = ["," if t.lower() in _PERSON_PRONOUNS_AND_LINKS or _past(t) else t for t in toks[:end]]
    j, last = start + _opener(toks[start:end]), ""
    while j < end:
        phrase, after = _np_forward(words, j)
        while phrase and not _names_one_person(phrase):
            phrase = phrase.rsplit(" ", 1)[0] if " " in phrase else ""  # "Oswin sat down": "down" names no one
        if phrase and (" " in phrase or not phrase.islower()):  # a bare lower-case word ("sat down") is no person phrase
            last = phrase
        j = after if phrase and after > j else j + 1
    return last


def _past(word: str) -> bool:
    """Whether a lower-case word is a verb's inflected form not in -s ("sat", "rode"; not "guards", "read").

    >>> _past("sat"), _past("guards"), _past("read"), _past("Sat")
    (True, False, False, False)
    """
    return word.islower() and not word.endswith("s") and any(v != word for v in lemmas(word, "v"))


#: the words that link a clause to the one before it ("…; yet the clerk …"): no part of a person phrase
_LINKS = frozenset({"yet", "so", "then", "thus", "hence"})

#: the words that end a person phrase looking back from a verb: a person's pronoun or a link
_PERSON_PRONOUNS_AND_LINKS = _PERSON_SUBJECTS | _PERSON_OBJECTS | _LINKS

_POSSESSOR = re.compile(r"(?P<x>(?:[A-Z][\w-]*\s+){0,3}[A-Z][\w-]*)['’]s?\s+(?P<n>(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)")


def who_slot(question: str, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float]
             ) -> tuple[int, int, str] | None:
    """The person in the slot a who-question asks (:func:`asked_act`), from the first of the
    :data:`READ` best-aligned sentences (``order``, ``scores``) at least :data:`STRONG` (and :data:`NEAR_BEST`
    of the best score) that says the
    asked act of a person not the question's own: (its index twice, the phrase); None when there is none. When
    none of those says the asked act at all, a subject is read from the best that do, down to :data:`SAYS_BEST`.

    >>> from ragprov.llm.answer.words import _sentences
    >>> from ragprov.llm.engine import Passage
    >>> ss = _sentences([Passage("The fireplace was an old one, built by some Dutch merchant long ago.", "c")])
    >>> who_slot("Who built the old fireplace?", ss, [0], [0.6])
    (0, 0, 'some Dutch merchant')
    >>> who_slot("Who built the old fireplace?", ss, [0], [0.2]) is None  # not aligned well enough
    True
    >>> who_slot("Who painted the old fireplace?", ss, [0], [0.6]) is None  # the act is not said
    True
    >>> def slot(text, question):
    ...     ss = _sentences([Passage(text, "c")])
    ...     return who_slot(question, ss, list(range(len(ss)))[::-1], [0.6] * len(ss))
    >>> slot('"Bob is coming," she said, and then she opened the door.', "Who opened the door?") is None  # a speaker's name
    True
    >>> slot("Later, she opened the door.", "Who opened the door?") is None, slot("Mira came. Later, she opened it.", "Who opened it?")
    (True, (1, 1, 'Mira'))
    >>> slot("The engineer fended off the drone.", "Which team member fended off the drone?")
    (0, 0, 'The engineer')
    >>> slot("The engineer fended off the drone.", "Which daughter fended off the drone?") is None  # not of the kind asked
    True
    """
    asked = asked_act(question)
    if asked is None:
        return None
    slot, verbs = asked
    prep = stranded(question, "who") if slot == "object" else None
    own = frozenset(root_tokens(question))
    head = _which_head(question) if slot == "subject" else None
    kind = _noun(head[0]) if head and head[0] else None
    arguments = {v: _arguments(question, v) if slot == "subject" else frozenset() for v in verbs}
    for k in _who_read(sentences, order, scores, verbs if slot == "subject" else ()):
        if slot == "possessor":
            found = _whose_owner(sentences, k, verbs[0], own)
        else:
            found = _filler(sentences, k, slot, verbs, own, arguments, kind, prep)
        if found is not None:
            return k, k, found
    return None


def _who_read(sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float], verbs: Sequence[str]) -> list[int]:
    """The sentences :func:`who_slot` reads (``order``: best first): the :data:`READ` best-aligned, at least :data:`STRONG`
    and :data:`NEAR_BEST` of the best score; when none of them says the asked act (``verbs``; none: no matter),
    the best that do, down to :data:`SAYS_BEST` of it."""
    best = scores[order[0]] if order else 0.0
    near = [k for k in order[:READ] if scores[k] >= max(STRONG, NEAR_BEST * best)]
    if not verbs or any(_says_the_act(sentences[k].text, verbs) for k in near):
        return near
    return [k for k in order if scores[k] >= max(STRONG, SAYS_BEST * best) and _says_the_act(sentences[k].text, verbs)][:READ]


def _says_the_act(text: str, verbs: Sequence[str]) -> bool:
    """Whether ``text`` has a lower-case word saying one of the asked ``verbs`` (:func:`.lexicon.says_act`).

    >>> _says_the_act("The porter locked the gate.", ("locks",)), _says_the_act("The porter sat.", ("locks",))
    (True, False)
    """
    return any(says_act(w, v) for w in set(re.findall(r"\b[a-z][\w'’-]*", text)) - _AUX for v in verbs)


#: a person's possessive, as a regex alternation ("his own N")
_PERSON_POSSESSIVE = _any_of(_PERSON_POSSESSIVES)


def _whose_owner(sentences: Sequence[_Sentence], k: int, noun: str, own: frozenset[str]) -> str | None:
    """The owner of ``noun`` in sentence ``k`` (:func:`_possessor`, its neighbours in its passage read too) when
    the question does not name it itself — unless the sentence says "his own N": then the owner is the one the
    clause is about, whom the question may name (the nearest person before "his own", :func:`_nearest_person`)."""
    s = sentences[k]
    following = sentences[k + 1].text if k + 1 < len(sentences) and sentences[k + 1].passage == s.passage else ""
    owner = _possessor(_HEADER.sub("", s.text), noun, _looked_back_to(sentences, k), following)
    reflexive = re.search(r"\b" + _PERSON_POSSESSIVE + r"\s+own\s+(?:[a-z][\w-]*\s+)?" + re.escape(noun) + r"\b", s.text, re.I)
    return owner if owner and (reflexive or not _own(owner, own)) else None


def _filler(sentences: Sequence[_Sentence], k: int, slot: str, verbs: Sequence[str], own: frozenset[str],
            arguments: dict[str, frozenset[str]], kind: str | None, prep: str | None = None) -> str | None:
    """The phrase in the asked ``slot`` (subject or object) of a word of sentence ``k`` that says one of the
    asked ``verbs``: not the question's ``own`` words, near the verb when the question says its argument, of
    the asked ``kind`` (the ``arguments`` of each verb: :func:`_arguments`); with a stranded ``prep`` the object of
    that preposition (:func:`.question.stranded`)."""
    s = sentences[k]
    toks = _tokens(_HEADER.sub("", s.text))
    previous = _looked_back_to(sentences, k)
    for i, tok in enumerate(toks):
        verb = next((v for v in verbs if tok.islower() and tok not in _AUX and says_act(tok, v)), None)
        if verb is None:
            continue
        found = _subjects(toks, i, previous) if slot == "subject" else _objects(toks, i, prep)
        for phrase in found:
            if not _own(phrase, own) and _argued(toks, i, phrase, arguments[verb]) and _of_kind(phrase, kind):
                return phrase
    return None
