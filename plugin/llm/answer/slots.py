"""The slot a what-question asks: align the question's verb (or the word its stranded preposition
follows) with a sentence and take the noun phrase standing where the wh-word stands — the verb's
object ("What did she pull out of her bundle?"), the object of the question's preposition ("What is
Alex fidgeting with?"), the complement of "made of", the N of "the N of X" for "what N"
("From what stronghold …?": "in the stronghold of the Mansion House"). A pronoun object ("pressed
it down") stands for the noun phrase its clause took before ("seized the extinguisher-cap").
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Collection, Sequence

from ..text import STOPWORDS, content_tokens
from .asked import _SAYING
from .lexicon import LIGHT_NOUNS, OTHER_FIT, asked_kind, asked_noun, kind_fit, lemmas, says_act
from .places import _asked_subject, is_place
from .question import REASON_NOUNS as _REASON_NOUNS
from .words import (
    _AUXILIARIES,
    _DETERMINERS,
    _FINITE_BE,
    _FIRST_AND_SECOND_PERSON,
    _FIRST_AND_SECOND_POSSESSIVES,
    _PERSON_OBJECTS,
    _PERSON_POSSESSIVES,
    _PERSON_SUBJECTS,
    _PLACE_PREPOSITIONS,
    _POSSESSIVE_END,
    _POSSESSIVE_PRONOUNS,
    _PREPOSITIONS,
    _THING_OBJECTS,
    _root,
    _Sentence,
)

#: the words that open a noun phrase (a determiner, a possessive, a number word)
_OPENERS = _DETERMINERS | frozenset("some another every each one two three".split())

#: the particles and adverbs a verb may take before its object ("pull out", "pressed down")
_PARTICLES = frozenset("out down up off away back in on over forth about aside together again".split())

#: the prepositions a frame reads: a phrase after one is no object of the verb, one at the clause's end is stranded
#: (not the rarer ones of place, of exception and of time it never read: "aboard", "besides", "until")
_FRAME_PREPOSITIONS = _PREPOSITIONS - frozenset("aboard above below beneath besides beyond except inside outside past since "
                                                "throughout underneath until".split())

#: a word of a sentence and where it starts
_TOKEN = re.compile(r"[A-Za-z][\w'’-]*|[,;:!?.()\"“”—–]")

#: "What did X VERB …?", "What object did X press …?": the auxiliary after the wh-part and what follows it
_FRAME = re.compile(r"^\s*(?:(?P<p>[a-z]+)\s+)?(?i:what|which)(?:\s+(?:[a-z-]+\s+of\s+)?[a-z-]+)??\s+"
                    r"(?P<aux>is|was|are|were|do|does|did|has|had|have|will|would|can|could)\s+(?P<rest>.+?)[\s?.!]*$",
                    re.I)


@dataclasses.dataclass(frozen=True)
class Frame:
    """What a what-question asks: the words that may be its verb (lower-case, in order), the
    preposition whose object it asks (None: the verb's object), the word before that preposition
    and the noun it asks a kind of; ``subject``: it asks the verb's subject ("What approaches …?")."""

    verbs: tuple[str, ...]
    prep: str | None
    before_prep: str | None
    noun: str | None
    subject: bool = False


def frame(question: str) -> Frame | None:
    """The slot a "What (N) AUX SUBJECT VERB …?" question asks; None for other questions. Its verb
    is the first word after the subject (a name, or a determiner and a noun) that WordNet has as a
    verb; the preposition whose object it asks ends the question or follows the verb before no
    object ("fiddling with while walking"). A question opening with a preposition ("From what
    stronghold …?") asks only "the N of X".

    >>> frame("What approaches the team?").subject, frame("What does Mira carry?").subject
    (True, False)
    >>> frame("What did the charwoman pull out of her bundle?")
    Frame(verbs=('pull',), prep=None, before_prep=None, noun=None, subject=False)
    >>> frame("What was the chain made of?").prep, frame("What is Alex fidgeting with?")
    ('of', Frame(verbs=('fidgeting',), prep='with', before_prep='fidgeting', noun=None, subject=False))
    >>> frame("What was Sam fiddling with while walking the hallway?").prep, frame("What does the alien device emit?").verbs
    ('with', ('emit',))
    >>> frame("What did Cruz run their fingers over in the bay?")
    Frame(verbs=('run',), prep='over', before_prep='fingers', noun=None, subject=False)
    >>> frame("Which hut did Ines hide in, shaking with cold?").prep, frame("What did Ines hide, shaking with cold?").prep
    ('in', None)
    >>> frame("From what shelter did the harbour master order his crews?"), frame("Who did Mira meet?")
    (Frame(verbs=(), prep=None, before_prep=None, noun='shelter', subject=False), None)
    """
    m = _FRAME.match(" ".join(question.split()))
    if m is None:
        return _subject_frame(question)
    if m.group("p") and m.group("p").lower() not in _FRAME_PREPOSITIONS:
        return None
    if m.group("p"):
        return Frame((), None, None, asked_noun(question))
    rest = m.group("rest")
    cut = re.match(r"(?P<kept>.*?\b(?P<p>[a-z]+))\s*,", rest)
    if cut and cut.group("p") in _FRAME_PREPOSITIONS:  # "sit in, surrounded by …": the preposition before the comma is stranded
        rest = cut.group("kept")
    words = re.findall(r"[A-Za-z][\w'’-]*", rest)
    low = [w.lower() for w in words]
    prep = low[-1] if len(low) > 1 and low[-1] in _FRAME_PREPOSITIONS else None
    if prep == "of" and low[-2] == "made":
        return Frame(("made",), "of", "made", asked_noun(question))
    v = _verb_at(words, m.group("aux").lower() in _FINITE_BE)  # "What is Mira fidgeting with?": a participle
    if v is None or _root(low[v]) in _CLAUSE_VERBS or (asked_noun(question) or "").lower() in _REASON_NOUNS:
        return None  # "What did Sam hope everyone brought?": the slot is in the clause the verb takes
    at = len(low) - 1 if prep else _preposition_without_object(low, v)
    if at is not None:
        prep = low[at]
    before = low[at - 1] if at is not None and words[at - 1][:1].islower() and at - 1 >= v else None
    return Frame((low[v],), prep, before, asked_noun(question))


def _subject_frame(question: str) -> Frame | None:
    """The frame of "What VERBs …?" ("What approaches the team …?"): the word after "what" a verb, no
    auxiliary, stop word or asked noun; None otherwise."""
    subj = re.match(r"\s*(?i:what)\s+([a-z]+)\s+\S", question)
    if subj is not None and subj.group(1) not in _AUXILIARIES and subj.group(1) not in STOPWORDS \
            and lemmas(subj.group(1), "v") and asked_noun(question) is None:
        return Frame((subj.group(1),), None, None, None, subject=True)
    return None


def _preposition_without_object(low: Sequence[str], v: int) -> int | None:
    """Where a preposition without its object stands after the verb ``low[v]`` but before the question's
    end: before a conjunction or another preposition ("fiddling with while walking", "ran their fingers
    over in the bay"); None when none does."""
    return next((j for j in range(v + 1, len(low) - 1) if low[j] in _FRAME_PREPOSITIONS
                 and (low[j + 1] in _FRAME_PREPOSITIONS or _CONJUNCTION.match(low[j + 1]))), None)


#: verbs of saying, thinking and wanting: their object is a clause ("What does she say is good enough?")
_CLAUSE_VERBS = frozenset(_root(w) for w in "say tell think hope believe know wish want suppose expect claim remember "
                          "reckon guess imagine fear feel".split())

#: a word that opens a clause after a stranded preposition ("fiddling with while walking")
_CONJUNCTION = re.compile(r"^(?:while|when|as|before|after|during|since|until|because|if|and|but|or|to)$")


#: the forms of "do": as the question's verb, it asks an act, no thing in a slot
_DO = frozenset("do does did doing done".split())

#: the conjunctions that open an adverbial clause: a verb after one is that clause's
_SUBORDINATORS = frozenset("when while whenever before after because if since until unless though although once".split())

def _verb_at(words: Sequence[str], participle: bool = False) -> int | None:
    """The index of the verb after the subject of ``words`` (a question after its auxiliary): the
    first word after a name or a determiner's noun that WordNet has as a verb, before "do" or a conjunction
    opening another clause; with ``participle`` (after "is", "was"), only a participle (:func:`_participle`:
    "the signs on the steel doors written in").

    >>> _verb_at("Mira do when the storm came".split()), _verb_at("Mira fiddle with while walking".split())
    (None, 1)
    >>> doors = "the signs on the steel doors written in".split()
    >>> _verb_at(doors, True), _verb_at(doors), _verb_at("the keeper eyes".split(), True)
    (6, 4, None)
    """
    i = 0
    while i < len(words) and (words[i][:1].isupper() or words[i].lower() in _OPENERS):
        i += 1
    if i and words[i - 1].lower() in _OPENERS:
        i += 1  # the determiner's noun ("the charwoman pull")
    for k in range(i, len(words)):
        w = words[k].lower()
        if w in _DO or w in _SUBORDINATORS:
            return None  # "What did Mira do when the storm came?": an act is asked, and a later verb is another clause's
        if words[k][:1].islower() and w not in STOPWORDS and w not in _AUXILIARIES and lemmas(w, "v") \
                and (not participle or _participle(w)):
            return k
    return None


def _participle(word: str) -> bool:
    """Whether a word WordNet has as a verb may be a participle: another form than the verb's base that is no
    "-s" form ("fidgeting", "made", "written"; not "doors", "steel", nor a base that only ends like one: "queen", "open").

    >>> [_participle(w) for w in ("fidgeting", "made", "written", "doors", "steel", "clothed", "queen", "open")]
    [True, True, True, False, False, True, False, False]
    """
    return not word.endswith("s") and _inflected(word)


def _inflected(word: str) -> bool:
    """Whether WordNet has ``word`` as a form of a verb other than its base ("made", "began"; not "open")."""
    return any(base != word for base in lemmas(word, "v"))


def fill(fr: Frame, s: _Sentence, asked: frozenset[str], kind: str | None = None, before: str = "") -> str | None:
    """The phrase of sentence ``s`` in the slot ``fr`` asks (``asked``: the question's word roots,
    which the phrase must not only repeat; ``kind``: the kind of thing it asks, :func:`asked_kind`,
    which a phrase in the verb's slot must not be known as something else of; ``before``: the sentence before it, where
    a pronoun object's antecedent may stand); None when the sentence does not have it.

    >>> s = _Sentence(0, "Scrooge seized the ruler with such energy that the singer fled.", frozenset())
    >>> fill(frame("What does Scrooge grab to scare off the boy?"), s, frozenset({"scroog", "grab", "boy"}))
    'the ruler'
    >>> s = _Sentence(0, "He seized the extinguisher-cap, and by a sudden action pressed it down upon its head.", frozenset())
    >>> fill(frame("What object did Scrooge press down over its head?"), s, frozenset({"press", "head"}))
    'the extinguisher-cap'
    >>> s = _Sentence(0, "It is also a fact that Scrooge had seen it.", frozenset())
    >>> fill(frame("What does Scrooge see in the knocker?"), s, frozenset({"scroog", "see", "knocker"}))
    >>> s = _Sentence(0, "It was long; and it was made (for Scrooge observed it closely) of cash-boxes, keys, padlocks.", frozenset())
    >>> fill(frame("What was the chain made of?"), s, frozenset({"chain", "made"}))
    'cash-boxes, keys, padlocks'
    >>> s = _Sentence(0, "The harbour master, in the shelter of the old customs house, gave orders.", frozenset())
    >>> fill(frame("From what shelter did the harbour master order his crews?"), s, frozenset({"harbour", "master", "order"}))
    'the old customs house'

    It does not fire on a sentence whose verb has no object, nor on an object the question says:

    >>> s = _Sentence(0, "Scrooge seized upon the moment and left.", frozenset())
    >>> fill(frame("What does Scrooge grab to scare off the boy?"), s, frozenset({"scroog", "grab", "boy"}))
    >>> s = _Sentence(0, "When the clock struck eleven, the ball broke up.", frozenset())
    >>> fill(frame("Which tune does the fiddler strike up?"), s, frozenset({"fiddler", "strike"}), "tune")
    >>> s = _Sentence(0, "Scrooge grabbed the boy.", frozenset())
    >>> fill(frame("What does Scrooge grab to scare off the boy?"), s, frozenset({"scroog", "grab", "boy"}))
    """
    toks = [(t.group(0), t.start()) for t in _TOKEN.finditer(s.text)]
    low = [t.lower() for t, _ in toks]
    if fr.noun is not None:  # "the stronghold of the Mansion House" for "what stronghold"
        found = _of_noun(toks, low, fr.noun, asked)
        if found:
            return found
    if fr.subject:
        return _subject(toks, fr.verbs[0], asked)
    return _verb_slot(fr, toks, low, asked, kind, before)


def _of_noun(toks: Sequence[tuple[str, int]], low: Sequence[str], noun: str, asked: frozenset[str]) -> str | None:
    """The phrase X of "the N of X" in a place ("in the stronghold of X", not "the state of technology")."""
    for i in range(2, len(low) - 2):
        if _root(low[i]) == _root(noun) and low[i + 1] == "of" and low[i - 1] in _OPENERS and low[i - 2] in _FRAME_PREPOSITIONS:
            found = _text(_phrase(toks, low, i + 2, asked))
            if found:
                return found
    return None


def _verb_slot(fr: Frame, toks: Sequence[tuple[str, int]], low: Sequence[str], asked: frozenset[str], kind: str | None,
               before: str = "") -> str | None:
    """The phrase after a word saying the frame's verb (past its particles; with a preposition, after that
    preposition): a pronoun's antecedent for "it"/"them" (in the sentence, else the last thing the sentence
    ``before`` it names, :func:`_last_thing`); not a phrase known as no ``kind`` of the asked
    thing, nor one that only says the act again (a clause, no object)."""
    anchors = [fr.before_prep] if fr.before_prep else list(fr.verbs)
    if fr.prep == "of" and fr.before_prep == "made":
        anchors = ["made"]
    own = any(_form_of(w, a) for k, w in enumerate(low) for a in anchors  # the verb itself is said (as a verb, no
              if not (k and low[k - 1] in _DETERMINERS))                    # "a notice"): a synonym tells another act
    for i, w in enumerate(low):
        if not any(_form_of(w, a) or (not own and says_act(w, a)) for a in anchors):
            continue
        j = _after_particles(low, i + 1)
        if fr.prep is not None:
            at = _to_prep(low, j, fr.prep)
            if at is None:
                continue
            j = at + 1
        if j < len(low) and low[j] in _THING_OBJECTS:
            found = _antecedent(toks, i, asked) or _last_thing(before, asked)
        else:
            found = _text(_phrase(toks, low, j, asked))
        acts = {_root(a) for a in anchors}
        if found and _opens_with_verb(found):
            continue  # "the play began" for what the party played: a verb after the anchor, no object
        if found and kind is not None and kind_fit(_kind_part(found, kind), kind) <= OTHER_FIT:
            continue  # "the clock struck eleven" for which tune he struck up
        if found and not any(_root(w.lower()) in acts for w in re.findall(r"[A-Za-z][\w'’-]*", found)):
            return found  # "everyone's brought" for what Sam hoped everyone brought: a clause, no object
    return None


def _form_of(word: str, verb: str) -> bool:
    """Whether the text's ``word`` is a form of the question's ``verb`` (one root, or one WordNet lemma: "ran" of
    "run"), not another verb of its sense. A sentence saying the asked verb itself tells the asked act with it:
    "Ada had observed the change, but later noticed that the paint was red" does not answer what Ada noticed with
    "the change".

    >>> _form_of("noticed", "notice"), _form_of("ran", "run"), _form_of("observed", "notice"), _form_of("the", "run")
    (True, True, False, False)
    >>> s = _Sentence(0, "Ada had observed the change, but later noticed that the paint was red.", frozenset())
    >>> fill(frame("What did Ada notice about the paint?"), s, frozenset({"ada", "notic", "paint"}))
    >>> fill(frame("What did Ada notice?"), _Sentence(0, "Ada had observed the change.", frozenset()), frozenset({"ada", "notic"}))
    'the change'
    """
    if word == verb or _root(word) == _root(verb):
        return True
    forms = set(lemmas(word, "v"))
    return bool(forms) and not forms.isdisjoint(lemmas(verb, "v"))


def _opens_with_verb(phrase: str) -> bool:
    """Whether a phrase opens with an inflected verb WordNet has as no noun ("began", "contains items"): a clause
    goes on there, no noun phrase.

    >>> [_opens_with_verb(p) for p in ("began", "contains items taken", "smoking bishop", "the ruler", "gear")]
    [True, True, False, False, False]
    """
    first = phrase.split()[0]
    return first.islower() and not lemmas(first, "n") and _inflected(first)


def _subject(toks: Sequence[tuple[str, int]], verb: str, asked: frozenset[str]) -> str | None:
    """The thing that does the asked act in a sentence: the noun an "-ing" form of the verb qualifies
    ("an approaching drone"), or the lower-case noun phrase just before the verb ("the drone
    approached"); a name or a pronoun is no thing.

    >>> toks = [(t.group(0), t.start()) for t in _TOKEN.finditer("The whir of an approaching drone cut through.")]
    >>> _subject(toks, "approaches", frozenset({"approach"}))
    'drone'
    >>> toks = [(t.group(0), t.start()) for t in _TOKEN.finditer("As Sam approached, the hum grew.")]
    >>> _subject(toks, "approaches", frozenset({"approach"}))
    """
    low = [t.lower() for t, _ in toks]
    for i, w in enumerate(low):
        if i == 0 or not says_act(w, verb):
            continue
        if w.endswith("ing") and low[i - 1] in _OPENERS and i + 1 < len(low) and toks[i + 1][0][:1].islower() \
                and low[i + 1] not in STOPWORDS and _root(low[i + 1]) not in asked:
            return toks[i + 1][0]
        k = i - 1
        while k > 0 and toks[k][0][:1].islower() and low[k] not in STOPWORDS and low[k] not in _OPENERS:
            k -= 1
        if k < i - 1 and low[k] in _OPENERS:
            found = _phrase(toks, low, k, asked)
            if found and found[1] <= i:
                return found[0]
    return None


def _says(fr: Frame, s: _Sentence) -> bool:
    """Whether sentence ``s`` says the asked act (a word whose root is the question's verb's)."""
    acts = {_root(a) for a in ([fr.before_prep] if fr.before_prep else fr.verbs)}
    return any(_root(t.lower()) in acts for t in re.findall(r"[A-Za-z][\w'’-]*", s.text))


def _after_particles(low: Sequence[str], j: int) -> int:
    """The first word from ``j`` that is no particle nor -ly adverb ("pressed down", "quickly")."""
    while j < len(low) and (low[j] in _PARTICLES or low[j].endswith("ly")) and not (j + 1 < len(low) and low[j + 1] in _OPENERS
                                                                                  and low[j] in _FRAME_PREPOSITIONS):
        j += 1
    return j


def _to_prep(low: Sequence[str], j: int, prep: str) -> int | None:
    """The index of ``prep`` within the clause from ``j`` (a parenthesis skipped: "made (for …) of"), else None."""
    depth = 0
    for k in range(j, min(len(low), j + 12)):
        if low[k] == "(":
            depth += 1
        elif low[k] == ")":
            depth -= 1
        elif depth == 0 and low[k] == prep:
            return k
        elif depth == 0 and low[k] in ",;:.!?" and k > j + 4:
            return None
    return None


def _phrase(toks: Sequence[tuple[str, int]], low: Sequence[str], j: int, asked: frozenset[str]) -> tuple[str, int] | None:
    """The noun phrase opening at token ``j`` (``low``: the tokens lower-case) and the index just after
    it: a determiner and up to four words up to a function word or a mark, with "of X" after it (each
    "of" in turn) and a list of bare nouns ("cash-boxes, keys, padlocks"); None when none opens there
    or it says only the question's words.

    >>> toks = [(t.group(0), t.start()) for t in _TOKEN.finditer("It was made of a heap of keys, locks, chains, and purses.")]
    >>> _phrase(toks, [t.lower() for t, _ in toks], 4, frozenset())
    ('a heap of keys, locks, chains', 12)
    """
    end = _words_end(toks, low, j)
    if end is None:
        return None
    seg = j  # where the last "of X" opens: a list of bare nouns continues it
    while end + 1 < len(low) and low[end] == "of":
        tail = _words_end(toks, low, end + 1)
        if tail is None or not _names_thing(low, end + 1, tail):
            break
        seg, end = end + 1, tail
    end = _gerund_end(low, end)
    while (low[seg] not in _OPENERS and end + 2 < len(low) and low[end] == "," and low[end + 1] not in STOPWORDS
           and toks[end + 1][0][:1].islower() and low[end + 2] in (",", "and", "or", ".", ";")):
        end += 2  # a list of bare nouns ("cash-boxes, keys, padlocks")
    if not _names_thing(low, j, end):
        return None  # "every one", "something": no thing said
    words = [w for w in low[j:end] if w[:1].isalpha() and w not in STOPWORDS]
    if _root(words[-1]) in asked:
        return None  # a phrase ending on the question's word says the question's thing ("everyone's brought")
    return _tokens_text(toks, j, end), end


#: a verb contracted with its subject or its negation ("isn't", "we're", "it's"): no word of a noun phrase
_CONTRACTED = re.compile(r"^(?:[a-z]+n['’]t|[a-z]+['’](?:re|ll|ve|d|m)|(?:it|he|she|that|there|here|what|who|where)['’]s)$")


#: how many words a gerund clause after a possessive may run ("Nell's being a river pilot")
GERUND_WORDS = 8


def _gerund_end(low: Sequence[str], end: int) -> int:
    """The end of a noun phrase ``low[:end]`` that ends on a possessive before a gerund: the gerund's clause,
    up to a mark (a possessive names no thing by itself: "the thought of Nell's being a river pilot").

    >>> low = "at the thought of nell's being a river pilot ; and".split()
    >>> _gerund_end(low, 5), _gerund_end(low, 6), _gerund_end(low, 4)
    (9, 6, 4)
    """
    if not (0 < end < len(low) and _POSSESSIVE_END.search(low[end - 1]) and low[end].endswith("ing")):
        return end
    stop = end
    while stop < min(len(low), end + GERUND_WORDS) and low[stop][:1].isalpha():
        stop += 1
    return stop if stop < len(low) and not low[stop][:1].isalpha() else end


def _words_end(toks: Sequence[tuple[str, int]], low: Sequence[str], j: int) -> int | None:
    """The index after a determiner and up to four words from token ``j`` that are no function words; None
    when ``j`` opens no noun phrase (a mark, a preposition, an auxiliary, a function word, a bare determiner)."""
    if j >= len(toks) or not toks[j][0][:1].isalpha():
        return None
    if low[j] in _FRAME_PREPOSITIONS or low[j] in _AUXILIARIES or (low[j] in STOPWORDS and low[j] not in _OPENERS) \
            or _CONTRACTED.match(low[j]):
        return None
    end = j + 1 if low[j] in _OPENERS else j
    while end < len(low) and end - j < 5 and toks[end][0][:1].isalpha() and low[end] not in STOPWORDS and low[end] not in _AUXILIARIES \
            and not _CONTRACTED.match(low[end]):
        end += 1
    return None if end == j or (end == j + 1 and low[j] in _OPENERS) else end


def _names_thing(low: Sequence[str], j: int, end: int) -> bool:
    """Whether tokens ``j`` to ``end`` say a thing: a word that is no function word, light noun nor determiner."""
    return any(w[:1].isalpha() and w not in STOPWORDS and w not in LIGHT_NOUNS and w not in _OPENERS for w in low[j:end])


def _tokens_text(toks: Sequence[tuple[str, int]], j: int, end: int) -> str:
    """The text of tokens ``j`` to ``end`` (no space before a comma, semicolon or colon)."""
    return "".join(("" if t in ",;:" else " ") + t for t, _ in toks[j:end]).strip()


def _text(found: tuple[str, int] | None) -> str | None:
    """The text of a :func:`_phrase` found, if any."""
    return found[0] if found else None


def _takes_object(word: str) -> bool:
    """Whether the word before a noun phrase may be a verb taking it as its object: no preposition, no
    auxiliary or copula, no adverb ("is also a fact" says what something is)."""
    return (word not in _FRAME_PREPOSITIONS and word not in _AUXILIARIES and word not in STOPWORDS and not word.endswith("ly")
            and word[:1].isalpha())


# Not :mod:`.antecedents`' rule, which finds the person a pronoun stands for in an earlier sentence: "it"/"them"
# stand for a thing, most often the object an earlier verb of the same sentence took, a phrase this module reads.
def _antecedent(toks: Sequence[tuple[str, int]], i: int, asked: frozenset[str]) -> str | None:
    """The noun phrase a pronoun object after the verb at ``i`` stands for: the nearest one before it
    in the sentence that no preposition governs and no possessive opens ("seized the extinguisher-cap,
    and by a sudden action pressed it")."""
    low = [t.lower() for t, _ in toks]
    for k in range(i - 1, 0, -1):
        if low[k] in _OPENERS - {"his", "her", "their", "its", "our", "my", "your"} and _takes_object(low[k - 1]):
            found = _text(_phrase(toks, low, k, asked))
            if found:
                return found
    return None


#: the determiners that open a thing a later pronoun may stand for: an article or a demonstrative, no possessive
_THING_DETERMINERS = _DETERMINERS - _POSSESSIVE_PRONOUNS - _FIRST_AND_SECOND_POSSESSIVES


def _last_thing(text: str, asked: frozenset[str]) -> str | None:
    """The last noun phrase a sentence opens with an article or a demonstrative (not a possessive: "his
    head" is rarely what a later "it" stands for): the thing a pronoun in the next sentence stands for.

    >>> _last_thing("Ivo shuffled, and edged closer to the lantern.", frozenset())
    'the lantern'
    >>> _last_thing("Ivo shuffled at his bench.", frozenset()), _last_thing("", frozenset())
    (None, None)
    """
    toks = [(t.group(0), t.start()) for t in _TOKEN.finditer(text)]
    low = [t.lower() for t, _ in toks]
    for k in range(len(low) - 2, -1, -1):
        if low[k] in _THING_DETERMINERS:
            found = _phrase(toks, low, k, asked)
            return found[0] if found else None
    return None


#: how many of the best-aligned sentences the slot is looked for in, and the least share of the best one's score
#: each must have: the sentence that says the act may say less of the question's other words
SLOT_SENTENCES, SLOT_SHARE = 12, 0.3


def slot_answer(question: str, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
                least: float) -> tuple[int, int, str] | None:
    """The sentence aligned with the question, the sentence (their indices; one when it says it) and the
    phrase that fill the slot a what-question asks (:func:`frame`, :func:`fill`), from the
    :data:`SLOT_SENTENCES` best-aligned sentences (``order``, best first) that cover at least ``least`` of
    the question and :data:`SLOT_SHARE` of what the best covers (``scores``), or from the sentence after
    one of them that opens with a pronoun subject; None when the question asks no slot or none fills it.

    >>> ss = [_Sentence(0, "Scrooge sat down.", frozenset({"scroog", "sat"})),
    ...       _Sentence(1, "Scrooge seized the ruler, and the singer fled.", frozenset({"scroog", "seiz", "ruler"}))]
    >>> slot_answer("What does Scrooge grab?", ss, [0, 1], [0.5, 0.5], 0.15)
    (1, 1, 'the ruler')
    >>> slot_answer("What does Scrooge grab?", list(reversed(ss)), [0, 1], [0.5, 0.5], 0.15)
    (0, 0, 'the ruler')

    The best-aligned sentence saying the act with no phrase in the slot ends the search:

    >>> seen = [_Sentence(0, "Scrooge grabbed, in a fright, at nothing.", frozenset()), ss[1]]
    >>> slot_answer("What does Scrooge grab?", seen, [0, 1], [0.5, 0.5], 0.15)
    >>> ss = [_Sentence(0, "The chain was long.", frozenset()), _Sentence(0, "It was made of cash-boxes, keys.", frozenset())]
    >>> slot_answer("What was the chain made of?", ss, [0], [0.5, 0.0], 0.15)
    (0, 1, 'cash-boxes, keys')
    >>> slot_answer("What does Scrooge grab?", ss, [0, 1], [0.5, 0.1], 0.15), slot_answer("Who sat down?", ss, [0, 1], [1, 1], 0.1)
    (None, None)
    """
    fr = frame(question)
    replied = _reply(sentences, order, scores, least, _asked_words(fr, asked_noun(question)))
    if replied is not None:
        return replied
    filled = _filled(question, fr, sentences, order, scores, least) if fr is not None else None
    # after the phrase in the question's verb's slot: "He saw a ship called Hope, but boarded the Marlow" for which ship he boarded
    called = filled or _called(asked_noun(question), sentences, order, scores, least)
    if called is not None or fr is None:
        return called
    return _named_before(question, fr, sentences, order, scores, least)


#: "a game called Yes and No", "a tune named 'Sir Roger'": the name a text gives a thing of a noun (a quotation, or
#: capitalised words, the lower-case joining words between them included); a quotation closes at a quotation mark no
#: word character follows ("called 'Kim's Folly'": an apostrophe inside it does not close it)
_CALLED = re.compile(r"\s+(?:called|named|known\s+as)\s+(?:['‘“\"](?P<q>[^‘“\n]{1,60}?)['’”\"](?!\w)|"
                     r"(?P<n>[A-Z][\w'’-]*(?:\s+(?:(?:and|of|de|the|or)\s+)?[A-Z][\w'’-]*)*))")


def _called(noun: str | None, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
            least: float) -> tuple[int, int, str] | None:
    """For "What/Which NOUN …?", the name the best-aligned sentence (of those :func:`slot_answer` reads) that
    calls a thing of that noun by one gives it ("It was a game called Yes and No" for which game).

    >>> ss = [_Sentence(0, "They played at forfeits.", frozenset()),
    ...       _Sentence(0, "It was a game called Yes and No, where he thought.", frozenset())]
    >>> _called("game", ss, [0, 1], [0.5, 0.4], 0.15)
    (1, 1, 'Yes and No')

    A quoted name runs past an apostrophe inside it, up to the closing quotation mark:

    >>> _called("house", [_Sentence(0, "They lived in a house called 'Kim's Folly' by the sea.", frozenset())], [0], [0.5], 0.15)
    (0, 0, "Kim's Folly")

    Not a name given to another noun, nor for a question asking no noun:

    >>> _called("dance", ss, [0, 1], [0.5, 0.4], 0.15), _called(None, ss, [0, 1], [0.5, 0.4], 0.15)
    (None, None)

    :func:`slot_answer` reads it after the phrase in the slot of the question's verb:

    >>> ss = [_Sentence(0, "He saw a ship called Hope, but boarded the Marlow.", frozenset())]
    >>> slot_answer("Which ship did he board?", ss, [0], [0.5], 0.15)[2], slot_answer("Which ship did he see?", ss, [0], [0.5], 0.15)[2]
    ('the Marlow', 'Hope')
    """
    if noun is None:
        return None
    top = scores[order[0]] if order else 0.0
    for k in order[:SLOT_SENTENCES]:
        if scores[k] < max(least, SLOT_SHARE * top):
            break
        for m in _CALLED.finditer(sentences[k].text):
            before = re.findall(r"[A-Za-z][\w'’-]*", sentences[k].text[:m.start()])
            if before and _root(before[-1].lower()) == _root(noun.lower()):
                return k, k, (m.group("q") or m.group("n")).strip(" ,.;:!?")
    return None


def _filled(question: str, fr: Frame, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
            least: float) -> tuple[int, int, str] | None:
    """:func:`slot_answer`'s phrase in the slot of the question's own verb (``fr``)."""
    kind = asked_kind(question)
    asked = frozenset(_root(w.lower()) for w in re.findall(r"[A-Za-z][\w'’-]*", question))
    top = scores[order[0]] if order else 0.0
    subject, passed, named = _subject_roots(question), False, _subject_names(question)
    for k in _read(fr, sentences, order, scores, max(least, SLOT_SHARE * top)):
        for n in (k, k + 1):  # and the sentence after it that goes on about it ("It was made … of cash-boxes")
            if n == k or (n < len(sentences) and sentences[n].passage == sentences[k].passage and _GOES_ON.match(sentences[n].text)):
                s, last = _continued(sentences, n)
                before = sentences[n - 1].text if n and sentences[n - 1].passage == s.passage else ""
                # not the act of another: a sentence with no word of the name the question's subject is, nor a pronoun
                found = fill(fr, s, asked, kind, before) if (not passed or _says_subject(subject, s)) and _refers(named, s) else None
                if found:
                    return k, last, _kind_part(found, kind)
                if n == k == order[0] and not fr.subject and _says(fr, s):
                    # the best-aligned sentence says the act with no phrase there: a later one is about another; unless it has
                    # a thing of another kind there and not the question's subject ("When the clock struck eleven, …" for which
                    # tune the fiddler struck up): it tells another act, and a later one saying the subject may tell the asked
                    if not (kind and subject and not _says_subject(subject, s) and fill(fr, s, asked)):
                        return None
                    passed = True
    return None


def _subject_roots(question: str) -> frozenset[str]:
    """The root of the head noun (its last word) of the subject of a "What (N) AUX SUBJECT VERB …?" question's verb
    (:func:`frame`): not its adjectives, which many a sentence about another says.

    >>> _subject_roots("Which tune does the old fiddler strike up?"), _subject_roots("What approaches the team?")
    (frozenset({'fiddler'}), frozenset())
    >>> _says_subject(_subject_roots("Which tune does the old fiddler strike up?"), _Sentence(0, "The old man sang.", frozenset()))
    False
    """
    m = _FRAME.match(" ".join(question.split()))
    words = re.findall(r"[A-Za-z][\w'’-]*", m.group("rest")) if m else []
    v = _verb_at(words)
    head = [w.lower() for w in words[:v] if w.lower() not in STOPWORDS and w.lower() not in _OPENERS] if v else []
    return frozenset({_root(head[-1])}) if head else frozenset()


def _subject_names(question: str) -> frozenset[str]:
    """The roots of the capitalised words opening the subject of a "What (N) AUX SUBJECT VERB …?" question's verb (a name).

    >>> sorted(_subject_names("What does Ada Vance carry into the mine?")), _subject_names("What does the old clerk carry?")
    (['ada', 'vanc'], frozenset())
    >>> _subject_names("What was the net that Ada hauled made of?")
    frozenset()
    """
    m = _FRAME.match(" ".join(question.split()))
    words = re.findall(r"[A-Za-z][\w'’-]*", m.group("rest")) if m else []
    lead = list(itertools.takewhile(lambda w: w[:1].isupper(), words[:_verb_at(words) or 0]))  # not "the net that Ada hauled"
    return frozenset(_root(_POSSESSIVE_END.sub("", w.lower())) for w in lead)


#: the pronouns that may stand for a named subject in a sentence that does not name it (a dialogue's "I" and "we" too)
_REFERRING = _PERSON_SUBJECTS | _PERSON_OBJECTS | _PERSON_POSSESSIVES | _FIRST_AND_SECOND_PERSON | _FIRST_AND_SECOND_POSSESSIVES


def _refers(named: frozenset[str], s: _Sentence) -> bool:
    """Whether sentence ``s`` may speak of the named subject ``named`` (:func:`_subject_names`; none: any sentence may):
    it says a word of the name or a personal pronoun. "The crew is the team hired to bring in the harvest" does not
    say what Ada brings.

    >>> _refers(frozenset({"ada"}), _Sentence(0, "The crew was hired to bring in the harvest.", frozenset()))
    False
    >>> [_refers(frozenset({"ada"}), _Sentence(0, t, frozenset())) for t in ("Ada's pack held a lamp.", "She carried a lamp.")]
    [True, True]
    """
    if not named:
        return True
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w'’-]*", s.text)]
    return any(w in _REFERRING or _root(_POSSESSIVE_END.sub("", w)) in named for w in words)


def _says_subject(subject: frozenset[str], s: _Sentence) -> bool:
    """Whether sentence ``s`` says a word of the question's ``subject`` (:func:`_subject_roots`)."""
    return bool(subject & {_root(w.lower()) for w in re.findall(r"[A-Za-z][\w'’-]*", s.text)})


def _continued(sentences: Sequence[_Sentence], k: int) -> tuple[_Sentence, int]:
    """Sentence ``k`` with the ones after it in its passage that the splitter cut from it (up to two): while it
    leaves a parenthesis open or the next opens in lower case ("the fiddler (an artful dog, mind!" … "struck up
    'Sir Roger de Coverley.'"); and the index of the last one joined.

    >>> ss = [_Sentence(0, "Then the fiddler (a fine dog!", frozenset()), _Sentence(0, "A good man!)", frozenset()),
    ...       _Sentence(0, "struck up a jig.", frozenset()), _Sentence(0, "They danced.", frozenset())]
    >>> s, n = _continued(ss, 0); s.text, n
    ('Then the fiddler (a fine dog! A good man!) struck up a jig.', 2)
    >>> _continued(ss, 2)[1], _continued(ss, 3)[1]
    (2, 3)
    """
    s, n = sentences[k], k
    while n + 1 < min(len(sentences), k + 3) and sentences[n + 1].passage == s.passage and (
            s.text.count("(") > s.text.count(")") or sentences[n + 1].text[:1].islower()):
        n += 1
        s = dataclasses.replace(s, text=s.text + " " + sentences[n].text, tokens=s.tokens | sentences[n].tokens)
    return s, n


def _read(fr: Frame, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float], least: float) -> list[int]:
    """The sentences :func:`slot_answer` looks for the slot in, best-aligned first: the
    :data:`SLOT_SENTENCES` best that score ``least`` or more, then as many more of those that say the asked
    act (:func:`says_act`): only a sentence saying the act has the phrase in its slot, and one may say
    less of the question's other words than many that do not say it ("the soft whir of an approaching
    drone" for what approaches the team, below a dozen sentences about the team).

    >>> ss = [_Sentence(0, f"The team met {n}.", frozenset()) for n in range(13)] + [_Sentence(0, "A drone approached.", frozenset())]
    >>> _read(frame("What approaches the team?"), ss, list(range(14)), [0.5] * 13 + [0.2], 0.15)[-2:]
    [11, 13]
    >>> _read(frame("What approaches the team?"), ss, list(range(14)), [0.5] * 13 + [0.1], 0.15)[-2:]
    [10, 11]
    """
    pool = [k for k in order if scores[k] >= least]
    anchors = list(fr.verbs) if fr.before_prep in (None, *fr.verbs) else []  # a noun before the preposition says no act
    more = [k for k in pool[SLOT_SENTENCES:]
            if anchors and (_same_question(sentences[k].text, anchors) or _goes_on_saying(sentences, k, anchors))]
    return pool[:SLOT_SENTENCES] + more[:SLOT_SENTENCES]


def _goes_on_saying(sentences: Sequence[_Sentence], k: int, anchors: Sequence[str]) -> bool:
    """Whether the sentence after ``k`` goes on about what ``k`` says (:data:`_GOES_ON`, same passage) and says the
    asked act: "The chain he drew was clasped about him." "It was made … of cash-boxes".

    >>> ss = [_Sentence(0, "The chain was long.", frozenset()), _Sentence(0, "It was made of keys.", frozenset())]
    >>> _goes_on_saying(ss, 0, ["made"]), _goes_on_saying(ss, 0, ["forged"]), _goes_on_saying(ss, 1, ["made"])
    (True, False, False)
    """
    n = k + 1
    return (n < len(sentences) and sentences[n].passage == sentences[k].passage and bool(_GOES_ON.match(sentences[n].text))
            and _same_question(sentences[n].text, anchors))


#: "having taken them down": a verb of the question whose object is a pronoun standing for what it asks
_PRONOUN_OBJECT = re.compile(r"\b([a-z][\w-]*)\s+(?:them|it)\b")

#: a turn of dialogue that only names a thing ("'Bed-curtains!'"): up to three words and a mark
_NAMING_TURN = re.compile(r"^[\W_]*([A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,2})[\W_]*$")

#: how many sentences before a pronoun the turn naming its thing may be
TURN_REACH = 4


def _named_before(question: str, fr: Frame, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
                  least: float) -> tuple[int, int, str] | None:
    """When the question refers to what it asks by a pronoun object of another of its verbs ("What did she
    pull out of her bundle, having taken them down …?"), the thing a sentence saying that act on a pronoun
    ("you took 'em down") stands for: the nearest turn before it, in its passage, that only names a made
    thing ("'Bed-curtains!'", :data:`_NAMING_TURN`; WordNet knows its head as an artifact).

    >>> ss = [_Sentence(0, "'Bed-curtains!'", frozenset()), _Sentence(0, "'Ah!'", frozenset()),
    ...       _Sentence(0, "'You took 'em down, rings and all?'", frozenset())]
    >>> q = "What did she pull out of her bundle, having taken them down?"
    >>> _named_before(q, frame(q), ss, [2, 0, 1], [0.0, 0.0, 0.5], 0.15)
    (2, 0, 'Bed-curtains')

    A turn naming no made thing, or a question with no pronoun object, has none:

    >>> _named_before(q, frame(q), ss[1:], [1, 0], [0.0, 0.5], 0.15)
    >>> _named_before("What did she pull out?", frame("What did she pull out?"), ss, [2, 0, 1], [0.0, 0.0, 0.5], 0.15)

    A long run of marks after the words is read once (no pair of overlapping repeats):

    >>> _NAMING_TURN.match("'Ah" + "!?" * 6000 + ".x") is None, _NAMING_TURN.match("'Ah" + "!?" * 6000 + "'").group(1)
    (True, 'Ah')
    """
    verbs = [m.group(1) for m in _PRONOUN_OBJECT.finditer(question) if m.group(1) not in fr.verbs and lemmas(m.group(1), "v")]
    if not verbs:
        return None
    for k in _read(dataclasses.replace(fr, verbs=tuple(verbs), before_prep=None), sentences, order, scores, least):
        low = [t.lower() for t in re.findall(r"[A-Za-z][\w'’-]*", sentences[k].text)]
        if not any(says_act(w, v) and low[i + 1] in ("them", "it", "em") for i, w in enumerate(low[:-1]) for v in verbs):
            continue
        for n in range(k - 1, max(-1, k - 1 - TURN_REACH), -1):
            m = _NAMING_TURN.match(sentences[n].text)
            if sentences[n].passage != sentences[k].passage:
                break
            if m and kind_fit(m.group(1).split()[-1].split("-")[-1], "artifact") == 1:
                return k, n, m.group(1)
    return None


#: a question in the text's dialogue that asks what or which
_ASKED_IN_TEXT = re.compile(r"^\W*(?:what|which)\b[^?]*\?\W*$", re.I)


#: a speech tag set apart from its quotation ("he rejoined.", "said Joe."): a short lower-case sentence
_SPEECH_TAG = re.compile(r"^\W*[a-z][\w'’-]*(?:\s+[\w'’.-]+){0,3}[.!]?\W*$")


def _asked_words(fr: Frame | None, noun: str | None) -> tuple[str, ...]:
    """The words a question the text asks must share with the user's for its reply to answer: the
    asked noun (:func:`asked_noun`) and the slot's verbs (:func:`frame`); none when the question asks no slot."""
    return () if fr is None else ((noun,) if noun else ()) + tuple(fr.verbs)


def _same_question(text: str, words: Sequence[str]) -> bool:
    """Whether a question of the text says one of the user's asked ``words`` (:func:`_asked_words`): a
    word of the asked noun's or verb's root, or a verb of one synset with it (:func:`says_act`)."""
    return any(says_act(t.lower(), w) for t in re.findall(r"[A-Za-z][\w'’-]*", text) for w in words)


def _reply(sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float], least: float,
           words: Sequence[str]) -> tuple[int, int, str] | None:
    """The reply a what-question the text's dialogue asks itself gets: among the sentences
    :func:`slot_answer` reads, a what/which question saying one of the user's asked ``words``
    (:func:`_same_question`) whose next sentence (a short turn of eight words or fewer, no question)
    answers it ("'What Idol has displaced you?' 'A golden one.'").

    >>> ss = [_Sentence(0, "'What Idol has displaced you?'", frozenset()), _Sentence(0, "'A golden one.'", frozenset())]
    >>> _reply(ss, [0], [0.5, 0.0], 0.15, ("idol",))
    (0, 1, 'A golden one')
    >>> _reply([ss[0], _Sentence(0, "he rejoined.", frozenset()), ss[1]], [0], [0.5, 0.0, 0.0], 0.15, ("displace",))
    (0, 2, 'A golden one')
    >>> _reply([ss[0], _Sentence(0, "'Why do you ask me that, when you know it so well?'", frozenset())], [0], [0.5, 0.0], 0.15, ("idol",))

    The text's question must ask what the user's does (its noun or its act), and a question that asks no slot has none:

    >>> ss = [_Sentence(0, "'What shall he eat for supper tonight?'", frozenset()), _Sentence(0, "'Gruel, as always.'", frozenset())]
    >>> _reply(ss, [0], [0.5, 0.0], 0.15, ("drink",)), _reply(ss, [0], [0.5, 0.0], 0.15, ())
    (None, None)
    >>> _reply(ss, [0], [0.5, 0.0], 0.15, ("eat",))
    (0, 1, 'Gruel, as always')
    """
    top = scores[order[0]] if order else 0.0
    for k in order[:SLOT_SENTENCES]:
        if scores[k] < max(least, SLOT_SHARE * top):
            break
        n = k + 1
        while n < len(sentences) and _SPEECH_TAG.match(sentences[n].text):
            n += 1  # "'What Idol has displaced you?' he rejoined.": the tag of the question, not the reply
        if not _ASKED_IN_TEXT.match(sentences[k].text) or not _same_question(sentences[k].text, words) \
                or n >= len(sentences) or sentences[n].passage != sentences[k].passage:
            continue
        turn = sentences[n].text.strip(" '\"‘’“”_*.!")
        if turn and "?" not in turn and len(turn.split()) <= 8 and turn[:1].isalpha():
            return k, n, turn
    return None


def _kind_part(phrase: str, kind: str | None) -> str:
    """The part of "X of Y" that is a kind of what the question asks (``kind``: :func:`asked_kind`), when
    only Y is ("the sleek surface of a radio transmitter" for a piece of equipment); else the phrase.

    >>> _kind_part("the sleek surface of a radio transmitter", "equipment"), _kind_part("a box of matches", None)
    ('a radio transmitter', 'a box of matches')
    >>> _kind_part("the stronghold of the Mansion House", "stronghold")
    'the stronghold of the Mansion House'
    """
    head, of, tail = phrase.partition(" of ")
    if kind is None or not of or kind_fit(head, kind) == 1 or kind_fit(tail, kind) != 1:
        return phrase
    return tail


#: a sentence that opens with a pronoun subject goes on about what the sentence before it said
_GOES_ON = re.compile(r"^\W*(?:It|They|He|She)\b")


#: "Where did the apprentices sleep?", "Where does the vibration seem to come from?"
_WHERE = re.compile(r"^\s*(?i:where)\s+(?:is|was|are|were|do|does|did|has|had|have|will|would|can|could)\s+(?P<rest>.+?)[\s?.!]*$")



def where_answer(question: str, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
                 least: float) -> tuple[int, int, str] | None:
    """For "Where AUX SUBJECT VERB …?", the sentence (its index, twice: aligned and saying it) and the place phrase after the
    question's verb in its clause (a preposition of place and a noun phrase; the question's stranded
    preposition when it ends with one: "come from"), from the sentences :func:`slot_answer` reads.

    >>> ss = [_Sentence(0, "He stood with Scrooge beside him in a baker's doorway, and sprinkled incense.", frozenset())]
    >>> where_answer("Where does the Spirit stand while sprinkling incense?", ss, [0], [0.5], 0.15)
    (0, 0, "a baker's doorway")
    >>> where_answer("Where does the Spirit sleep?", ss, [0], [0.5], 0.15), where_answer("Who stands there?", ss, [0], [1], 0.1)
    (None, None)

    A phrase WordNet does not know as a place says no place (:func:`is_place`):

    >>> ss = [_Sentence(0, "He stood in a fit of rage and sang.", frozenset())]
    >>> where_answer("Where does the Spirit stand while singing?", ss, [0], [0.5], 0.15)

    A stranded preposition takes the place its subject is said with, under another verb; a verb does not:

    >>> ss = [_Sentence(0, "There was a hum that seemed to rise from the cellars of the inn.", frozenset())]
    >>> where_answer("Where does the hum that wakes the guests come from?", ss, [0], [0.5], 0.15)
    (0, 0, 'the cellars of the inn')
    >>> where_answer("Where does the hum that wakes the guests come?", ss, [0], [0.5], 0.15)
    """
    m = _WHERE.match(" ".join(question.split()))
    words = re.findall(r"[A-Za-z][\w'’-]*", m.group("rest")) if m else []
    v = _verb_at(words)
    if v is None:
        return None
    verb, last = words[v].lower(), words[-1].lower()
    preps = frozenset({last}) if last in _PLACE_PREPOSITIONS and len(words) > v + 1 else _PLACE_PREPOSITIONS
    asked = frozenset(_root(w.lower()) for w in re.findall(r"[A-Za-z][\w'’-]*", question))
    # a stranded preposition ("come from") asks the place its subject ("the vibration") is said with, whatever the verb
    subject = _asked_subject(question) if len(preps) == 1 else None
    top = scores[order[0]] if order else 0.0
    for k in order[:SLOT_SENTENCES]:
        if scores[k] < max(least, SLOT_SHARE * top):
            break
        found = _place_after(sentences[k], verb, preps, asked, subject)
        if found:
            return k, k, found
    return None


def _place_after(s: _Sentence, verb: str, preps: frozenset[str], asked: frozenset[str], subject: str | None = None) -> str | None:
    """The noun phrase after the first of ``preps`` that follows ``verb`` (its root or a synonym), or
    the noun ``subject`` (a root), in its clause; "the very walls" is "the walls".

    >>> _place_after(_Sentence(0, "It came from the very walls of the shaft.", frozenset()), "come", frozenset({"from"}), frozenset())
    'the walls of the shaft'
    """
    toks = [(t.group(0), t.start()) for t in _TOKEN.finditer(s.text)]
    toks = [t for n, t in enumerate(toks) if not (t[0].lower() == "very" and n and toks[n - 1][0].lower() in _OPENERS)]
    low = [t.lower() for t, _ in toks]
    for i, w in enumerate(low):
        if not says_act(w, verb) and (subject is None or _root(w) != subject):
            continue
        for j in range(i + 1, min(len(low) - 1, i + 12)):
            if low[j] in ";.!?:" or (low[j] in ("and", "but") and j > i + 1):
                break
            if low[j] in preps and low[j + 1] in _OPENERS - {"this", "that", "these", "those"}:
                found = _text(_phrase(toks, low, j + 1, asked))
                if found and is_place(found):
                    return found
    return None


#: "Besides the deserts, where …?", "Apart from X, where …": the place the question names and sets aside
_BESIDES = re.compile(r"^\s*(?:besides|apart\s+from|aside\s+from|other\s+than|except(?:\s+for)?|in\s+addition\s+to)\s+"
                      r"(?P<x>[^,?]+),\s*(?P<rest>(?i:where)\b.+)$", re.I)

#: the words that join a second member to a first ("in the deserts and in the forums")
_COORDINATORS = frozenset("and or nor".split())


def set_aside(question: str) -> tuple[str, str] | None:
    """The phrase a "Besides X, where …?" question sets aside and the where-question after it; None
    for a question that sets nothing aside.

    >>> set_aside("Apart from the harbour, where did the ship call?")
    ('the harbour', 'where did the ship call?')
    >>> set_aside("Where did the ship call besides?")
    """
    m = _BESIDES.match(" ".join(question.split()))
    return (m.group("x").strip(), m.group("rest")) if m else None


def besides_place(question: str, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
                  least: float) -> tuple[int, int, str] | None:
    """For "Besides X, where …?", the place the aligned sentence joins to X: the noun phrase after the
    coordinator (and a preposition) that follows X's head noun within three words — "whispered in the
    deserts above and in the corners of the forums" gives "the corners of the forums" for "Besides
    the deserts, where was it whispered?". The sentence must also say the question's words (it is
    read in the order of ``order``, above ``least``).

    >>> ss = [_Sentence(0, "The tale was told in the hill villages and in the smoky taverns of the port, they say.", frozenset())]
    >>> besides_place("Besides the hill villages, where was the tale told?", ss, [0], [0.5], 0.15)
    (0, 0, 'the smoky taverns of the port')
    >>> besides_place("Where was the tale told?", ss, [0], [0.5], 0.15)

    X must be followed by a coordinator: a place said alone is no second member.

    >>> ss = [_Sentence(0, "The tale was told in the hill villages, long ago.", frozenset())]
    >>> besides_place("Besides the hill villages, where was the tale told?", ss, [0], [0.5], 0.15)
    """
    aside = set_aside(question)
    heads = [w for w in re.findall(r"[A-Za-z][\w'’-]*", aside[0].lower()) if w not in STOPWORDS] if aside else []
    if not heads:
        return None
    nouns = {_root(w) for w in heads}
    top = scores[order[0]] if order else 0.0
    for k in order[:SLOT_SENTENCES]:
        if scores[k] < max(least, SLOT_SHARE * top):
            break
        found = _joined_to(sentences[k], nouns)
        if found:
            return k, k, found
    return None


def _joined_to(s: _Sentence, nouns: set[str]) -> str | None:
    """The noun phrase joined by a coordinator (and a preposition of place) to a word of ``nouns`` in ``s``."""
    toks = [(t.group(0), t.start()) for t in _TOKEN.finditer(s.text)]
    low = [t.lower() for t, _ in toks]
    for i, w in enumerate(low):
        if _root(w) not in nouns:
            continue
        for j in range(i + 1, min(len(low) - 1, i + 4)):
            if not low[j][:1].isalpha():
                break
            if low[j] in _COORDINATORS:
                n = j + 2 if low[j + 1] in _PLACE_PREPOSITIONS else j + 1
                found = _text(_phrase(toks, low, n, frozenset(nouns))) if n < len(low) and low[n] in _OPENERS else None
                if found and is_place(found):
                    return found
                break
    return None


def where_place(question: str, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float], least: float,
                chosen: str | None, names: Collection[Sequence[str]] = ()) -> tuple[int, int, str] | None:
    """The place phrase that answers a where-question instead of the ranked candidate ``chosen``
    (None: none was supported): the place joined to what a "Besides X, where …?" sets aside
    (:func:`besides_place`), or the reply to the text's own where-question (:func:`where_reply`);
    else the place after the question's verb in its best-aligned sentence (:func:`where_answer`)
    or the place its scene is set in (:func:`scene_place`), when nothing was chosen, or when that
    sentence is the best aligned of all and says one of the question's ``names`` (token tuples),
    but not the chosen place (:func:`_outranks`).
    """
    aside = besides_place(question, sentences, order, scores, least) or where_reply(question, sentences, order, scores, least)
    if aside is not None:
        return aside
    placed = where_answer(question, sentences, order, scores, least)
    said = sentences[placed[0]] if placed is not None else None
    if placed is None and order and scores[order[0]] >= least:  # no place after the act: the place its scene is set in
        scene = scene_place(sentences, order[0])
        if scene is not None:
            placed, window = (order[0], scene[0], scene[1]), sentences[scene[0] : order[0] + 1]
            said = _Sentence(window[0].passage, " ".join(w.text for w in window), frozenset().union(*(w.tokens for w in window)))
    if placed is None or said is None or chosen is None:
        return placed
    # the sentences aligned as well as the place's (and saying the noun whose place is asked, if the question has one):
    # one that says the chosen place makes the place no surer than the ranking
    subject = _asked_subject(question)
    rivals = [sentences[k] for k in order[:SLOT_SENTENCES] if k != placed[0] and scores[k] >= scores[placed[0]]
              and (subject is None or subject in sentences[k].tokens)]
    top = scores[order[0]] if order else 0.0
    return placed if _outranks(placed, said, chosen, rivals, scores[placed[0]] >= top, names) else None


def _outranks(placed: tuple[int, int, str], s: _Sentence, chosen: str, rivals: Sequence[_Sentence], best: bool,
              names: Collection[Sequence[str]]) -> bool:
    """Whether the place after the asked act in sentence ``s`` beats the ranked candidate ``chosen``:
    ``s`` aligns best with the question (``best``) and says one of its ``names`` if it has any (a
    sentence about someone else's act is no answer: "He works in a cell"), the chosen place is neither the place
    found (a word of it) nor said in full in a sentence aligned as well (``rivals``), and the place says more
    than a bare noun WordNet knows ("the house") where a name was chosen.

    >>> s = _Sentence(0, "The boy was sent by Mira to the fish market at dawn.", frozenset({"boy", "sent", "mira", "fish", "market"}))
    >>> other = _Sentence(0, "Mira lived near Harbour Street.", frozenset())
    >>> _outranks((0, 0, "the fish market"), s, "Harbour Street", [], True, [("mira",)])
    True
    >>> _outranks((0, 0, "the fish market"), s, "Harbour Street", [other], True, [("mira",)])  # as well aligned, says it
    False
    >>> _outranks((0, 0, "the fish market"), s, "Harbour", [other], False, [("mira",)])  # a better-aligned sentence
    False
    >>> _outranks((0, 0, "the fish market"), s, "Harbour Street", [], True, [("tom",)])  # someone else's act
    False
    >>> _outranks((0, 0, "the market"), s, "Harbour Street", [], True, [("mira",)])  # a bare noun, a name chosen
    False
    >>> _outranks((0, 0, "the fish market"), s, "fish market", [], True, [("mira",)])  # said in it: the same place
    False
    >>> _outranks((0, 0, "the fish market"), s, "Harbour Street", [], True, [("ent",)])  # a name inside a word ("sent") is not said
    False
    >>> s = _Sentence(0, "Mira slept in a small attic, the harbour lamps below her.", frozenset({"mira", "slept", "attic"}))
    >>> _outranks((0, 0, "a small attic"), s, "harbour", [], True, [("mira",)])  # said in it, but not as the place asked
    True
    """
    if not best or (names and not any(t in s.tokens or re.search(rf"\b{re.escape(t)}\b", s.low) for name in names for t in name)):
        return False
    said = content_tokens(chosen)
    if any(re.search(rf"\b{re.escape(w)}", placed[2].lower()) for w in said):
        return False
    if said and any(all(re.search(rf"\b{re.escape(w)}", r.low) for w in said) for r in rivals):
        return False
    words = [w for w in re.findall(r"[a-z][\w-]*", placed[2].lower()) if w not in STOPWORDS and w not in _OPENERS]
    bare = len(words) == 1 and bool(lemmas(words[0], "n"))
    return not (bare and chosen[:1].isupper())


#: a where-question the text's dialogue asks, in quotation marks ("'Where is he, my love?' said Scrooge."; not the
#: narrator's "Where had the years gone?")
_WHERE_IN_TEXT = re.compile(r"^\W*[\"“‘'][^\w\"“‘']*where\b[^?]*\?|^[^\w\"“‘']*where\b[^?]*\?\s*[\"”’']", re.I)


#: how many sentences before a quoted where-question may say what it asks about (short turns of dialogue)
CONTEXT_SENTENCES = 4


def _where_words(question: str) -> set[str] | None:
    """The roots of the words after "where" in a question but its names, auxiliaries and verbs of saying
    (:data:`.asked._SAYING`, by their base form); None for no where-question.

    >>> sorted(_where_words("Where did the boy say his captain went?")), _where_words("Who went?")
    (['boy', 'captain', 'go'], None)
    """
    m = re.search(r"\bwhere\b(?P<rest>.+)$", question, re.I)
    if m is None:
        return None
    words = [w.lower() for w in re.findall(r"(?<![\w'’-])[a-z][\w'’-]*", m.group("rest"))]
    return {_root(w) for w in words if w not in STOPWORDS and w not in _AUXILIARIES
            and not {_root(w), *map(_root, lemmas(w, "v"))} & _SAYING}


def _near_aligned(k: int, aligned: dict[int, int]) -> int | None:
    """The best rank (``aligned``: sentence index → rank) among the sentences of sentence ``k``'s scene (from
    :data:`SCENE_SENTENCES` before it: short turns of dialogue count one each) to :data:`CONTEXT_SENTENCES` after
    it (its tag and reply), or None when none is aligned.

    >>> _near_aligned(20, {12: 3, 30: 0}), _near_aligned(20, {5: 0, 25: 1})
    (3, None)
    """
    return min((aligned[j] for j in range(k - SCENE_SENTENCES, k + CONTEXT_SENTENCES + 1) if j in aligned), default=None)


def where_reply(question: str, sentences: Sequence[_Sentence], order: Sequence[int], scores: Sequence[float],
                least: float) -> tuple[int, int, str] | None:
    """The place a where-question the text's dialogue asks is given in reply: a quoted "Where …?" near the
    sentences aligned with the question (the :data:`SLOT_SENTENCES` best in ``order`` covering ``least``, nearest
    the best first) that, with the :data:`CONTEXT_SENTENCES` before it (a pronoun asks about what they said:
    "'Is your master at home?' … 'Where is he?'"), says a word of the user's question other than its names
    and verbs of saying, and the next turn's phrase after a preposition of place ("'He's in the dining-room,
    sir.'").

    >>> ss = [_Sentence(0, "'Is your captain aboard?' asked the clerk.", frozenset()), _Sentence(0, "'Where is he, then?'", frozenset()),
    ...       _Sentence(0, "said the clerk.", frozenset()), _Sentence(0, "'He's in the chart-room, sir, with the mate.'", frozenset())]
    >>> where_reply("When the clerk comes aboard, where does the boy say his captain is?", ss, [0, 1, 2, 3], [0.5, 0, 0, 0], 0.15)
    (1, 3, 'the chart-room')

    The text's question must be about what the user's asks, near what aligns with it, and in quotation marks:

    >>> where_reply("Where does the boy say the cook is?", ss, [0, 1, 2, 3], [0.5, 0, 0, 0], 0.15)
    >>> where_reply("When the clerk comes aboard, where does the boy say his captain is?", ss, [0, 1, 2, 3], [0.1, 0, 0, 0], 0.15)
    >>> told = [ss[0], _Sentence(0, "Where was he, then?", frozenset()), ss[3]]
    >>> where_reply("When the clerk comes aboard, where does the boy say his captain is?", told, [0, 1, 2], [0.5, 0, 0], 0.15)

    A name is no word it shares (names are said everywhere):

    >>> where_reply("Where does Captain Hale say the clerk is?", [_Sentence(0, "'Where is he, Captain?'", frozenset()), ss[3]],
    ...             [0, 1], [0.5, 0.5], 0.15)
    """
    asked = _where_words(question)
    aligned = {k: r for r, k in enumerate(k for k in order[:SLOT_SENTENCES] if scores[k] >= least)}
    if not asked or not aligned:
        return None
    near = {k: _near_aligned(k, aligned) for k, s in enumerate(sentences) if _WHERE_IN_TEXT.match(s.text)}
    for k in sorted((k for k, r in near.items() if r is not None), key=lambda k: (near[k], k)):
        s, n = sentences[k], k + 1
        while n < len(sentences) and _SPEECH_TAG.match(sentences[n].text):
            n += 1  # "'Where is he?' said Scrooge.": the tag of the question, not the reply
        if n >= len(sentences) or sentences[n].passage != s.passage:
            continue
        said = " ".join(t.text for t in sentences[max(0, k - CONTEXT_SENTENCES) : k + 1] if t.passage == s.passage)
        if not asked & {_root(w.lower()) for w in re.findall(r"[A-Za-z][\w'’-]*", said)}:
            continue
        found = _reply_place(sentences[n].text)
        if found is not None:
            return k, n, found
    return None


def _reply_place(text: str) -> str | None:
    """The phrase after the first preposition of place and a determiner in a reply, if it is a place.

    >>> _reply_place("'He's in the chart-room, sir.'"), _reply_place("'In a minute,' he said.")
    ('the chart-room', None)
    """
    toks = [(t.group(0), t.start()) for t in _TOKEN.finditer(text)]
    low = [t.lower() for t, _ in toks]
    for j in range(len(low) - 1):
        if low[j] in _PLACE_PREPOSITIONS and low[j + 1] in _OPENERS - {"this", "that", "these", "those"}:
            found = _text(_phrase(toks, low, j + 1, frozenset()))
            return found if found and is_place(found) else None
    return None


#: a noun phrase: a determiner and up to five words, adjectives joined by "and" ("a bleak and desert moor")
_SCENE_NP = (r"((?:a|an|the)\s+(?:[a-z][\w'’-]*\s+(?:and\s+)?){0,4}?[a-z][\w'’-]*)"
             r"(?=\s*(?:[,.;:!?—–]|\s(?:inside|in|of|on|at|where|which|that|with|before)\b|$))")

#: the phrases that set a scene's place: "there stood a lighthouse", "A deserted corridor … stretched
#: before her", "they stood upon a bleak moor"
_SCENE = (re.compile(r"\bthere\s+(?:stood|was|were|lay|rose|stretched|loomed|sat)\s+" + _SCENE_NP, re.I),
          re.compile(r"^\W*" + _SCENE_NP.replace("(?:a|an|the)", "(?:[Aa]|[Aa]n|[Tt]he)", 1)
                     + r"(?:\s+(?:inside|in|of|within)\s+the\s+[a-z][\w-]*)?\s+(?:stretched|lay|loomed|opened|spread)\b"),
          re.compile(r"\b(?:stood|found\s+themselves|arrived)\s+(?:upon|on|in|at|inside)\s+" + _SCENE_NP, re.I))

#: how many sentences before the aligned one its scene's place may be set (short turns of dialogue count one each)
SCENE_SENTENCES = 10

#: a scene break ("*", "## Chapter 2") opening a sentence
_SCENE_BREAK = re.compile(r"^\s*(?:\\?\*|#)")


def scene_place(sentences: Sequence[_Sentence], k: int, back: int = SCENE_SENTENCES) -> tuple[int, str] | None:
    """The place the scene of sentence ``k`` is set in: the last phrase that sets one (:data:`_SCENE`)
    in it or in the ``back`` sentences of its passage before it, after any scene break; its
    sentence's index and the phrase.

    >>> ss = [_Sentence(0, "Out on a reef there stood a solitary tower.", frozenset()),
    ...       _Sentence(0, "Even here, two keepers had made a fire.", frozenset()), _Sentence(0, "They sang.", frozenset())]
    >>> scene_place(ss, 2)
    (0, 'a solitary tower')
    >>> scene_place([_Sentence(0, "* A deserted corridor inside the base stretched before her.", frozenset())], 0)
    (0, 'a deserted corridor')
    >>> scene_place([_Sentence(0, "They stood upon a bleak and desert moor, in the dark.", frozenset())], 0)
    (0, 'a bleak and desert moor')

    A scene break ends the search, and a phrase that is no place is none:

    >>> scene_place([ss[0], _Sentence(0, "* The keepers sang.", frozenset()), ss[2]], 2)
    >>> scene_place([_Sentence(0, "There stood a long silence.", frozenset())], 0)
    """
    for n in range(k, max(-1, k - back - 1), -1):
        s = sentences[n]
        if s.passage != sentences[k].passage:
            break
        text = _SCENE_BREAK.sub("", s.text).lstrip(" *\\")
        found = [m for p in _SCENE for m in p.finditer(text)]
        for m in sorted(found, key=lambda m: -m.start()):
            if is_place(m.group(1)):
                first, _, rest = m.group(1).partition(" ")
                return n, f"{first.lower()} {rest}"  # "A deserted corridor" opening its sentence: "a deserted corridor"
        if _SCENE_BREAK.match(s.text):
            break
    return None
