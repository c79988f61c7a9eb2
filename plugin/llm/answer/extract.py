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
   capitalised spans of the passages' sentences; for "What/Which NOUN …?" the evidence's nouns WordNet makes
   kinds of NOUN ("calico" for "What fabric …?", :mod:`~ragprov.llm.answer.lexicon`), which then fit
   the question as a type does, and the best-aligned sentence's kind answers it. A sentence opening with He/She/They mentions
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
   more), weighted as their product (:data:`WEIGHTS`: ``bench/fit_answers.py`` fits others on all
   the bench's tuning questions; fitted ones rank better on questions left out, but did not gain
   first lines in the whole bench). The threshold below reads the product itself (the candidate's
   *strength*).
4. **State** the best candidate in one first line with its citation numbers, or — when no
   candidate clears :data:`MIN_SUPPORT` — say that the data does not answer the question (a who/which
   question, whose long description its answer's sentence covers little of, takes the first of the best
   few of the asked type that clears it, :func:`_decided`). The best
   candidate has no strength when its evidence never states the role the question asks ("Who is
   the captain of …?") nor the act and what it is done to ("Which company builds the engines?"),
   or the evidence at all not the relation asked: a name co-mentioned with the question's other
   words is no answer (:func:`_key_terms`, :func:`_states_key`); "What is the name of X's R?" asks a
   name the evidence says is the R (:func:`_tied`), and only a name answers a name-of question ("her
   husband" does not; nor does a name the act of "the man Belle married" is not said of, :func:`_acted`);
   an act on one singled out ("Who sent the last transmission?") must be said itself (:func:`_qualified_act`);
   a question that describes whom it asks by a relative clause ("the laundress who brought sheets …") is
   answered by a name the clause, or the role noun it describes, is said of — in the name's sentence or the
   nameless sentences after it — and such a name outranks the others; a description that names no one
   ("a man … stood outside the window") speaks of the name the next sentence identifies ("it's Ali Baba")
   (:mod:`.descriptions`); a who-question that asks an act's subject, object or possessor ("Who built …?",
   "Whom does X help?", "Whose face …?") is answered by the person in that slot of one of the best-aligned
   sentences that says the act and its argument — a name or a person noun phrase ("some Dutch merchant",
   "her cousin the baker") — over the names counted by frequency, unless it names the chosen one
   (:mod:`.doers`);
   "How old …?" takes only a number stated as the age of whom it asks about (:func:`_states_age`); "In
   which N …?" no sentence without that preposition before something new (:func:`_fills_slot`). A what /
   how question is answered by the best-aligned sentence, a why-question (or "What reason …?") by the
   best-aligned span giving a reason (:mod:`.reasons`: a sentence with a causal connective, one with
   the sentence after it that gives the reason — "Because …", "X explained their reasoning …" —, a
   dialogue turn answering a quoted "why" with the exchange before it; a sentence that points back —
   "And that's worth more than protocol." — is read with the one before it), without the "A → B:"
   header of a relationship; a yes-no question by
   "Yes" or "No" and the sentence that best states its predication (:mod:`.yesno`: its adjuncts —
   "visibly", "at night" — weigh little, a quotation over several sentences is one statement, a
   supposition weighs less): "No" when the focus of the question stands after a denial in its clause
   or a contrary word says it ("open" for "shut"; :func:`.yesno.denies`) or when it never says the act a
   do-question asks (:func:`.yesno.says_verb`), and no answer when the sentence states less than :data:`YES_NO_COVERAGE`.

The answer paths, tried in this order (:func:`_answer`, one small function each): "In which chapter …?" by
the part of the book its best-aligned sentence stands in (:func:`.times.part_answer`); a what-question by
the phrase in the slot its wh-word stands for (:func:`.slots.slot_answer`); a question a name, number or time
answers by the best candidate (steps 2–4) unless a phrase overrides it — a where-question's place after the
asked act (:func:`.slots.where_place`), a which-question's slot phrase when no candidate answers, a
when-question's event the asked act follows when no time does (:func:`.times.event_answer`), the person in
the asked slot of a who/which-question (:mod:`.doers`); a what-question by a thing written in lower case, of
the asked kind when it names one (:func:`_of_kind`); a why-question by its reason span; any other by the
best-aligned sentence.

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

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence

from ..engine import Passage
from .asked import _fills_slot, _slot
from .doers import who_slot
from .lexicon import asked_kind, is_a, kind_fit
from .limits import DECIDED_AMONG, MIN_COVERAGE, NAMED_COVERAGE, NAMED_KINDS, clears
from .question import _GEO, _PERSON, _TITLES, QuestionType, _Question, asked_form, asks_consequence, classify, stranded
from .rank import _SPAN_KINDS, _candidates, _question, _span_candidates, _without_unit
from .reasons import ranked_reasons
from .records import Candidate, Extraction
from .sentence import _HEADER, _IN_THE_END, _addressed, _sentence_score, _with_antecedents
from .slots import SLOT_SENTENCES, SLOT_SHARE, slot_answer, where_place
from .things import _thing_head
from .times import asked_part, event_answer, part_answer
from .words import _POSSESSIVE_END, _name_spans, _root, _roots, _Sentence, _sentences, root_tokens
from .yesno import YES_NO_COVERAGE, declefted, denies, says_verb, statement_score, with_quotations

# -- the answer ---------------------------------------------------------------------------------
#: an answer: its first line, the chosen candidate (None: not answered) and the candidates it outranked
_Answer = tuple[str, Candidate | None, tuple[Candidate, ...]]

_WHAT = ("what", "which")


def extract_answer(question: str, passages: Sequence[Passage], *, max_evidence: int = 6) -> Extraction:
    """The answer to ``question`` from ``passages`` (see the module docstring): the first answer path
    that applies (:func:`_answer`), then the evidence lines of the passages it cites."""
    a = _Asked.of(question, passages)
    cite = _Citations(passages)
    first, chosen, rejected = _answer(a, cite)
    pool = a.ranked([k for k in range(len(a.sentences)) if chosen is None or a.sentences[k].passage in chosen.support] or None)
    evidence = _evidence_lines(a.q, a.sentences, pool, first, max_evidence)
    return Extraction(a.qt, first, chosen is not None, chosen, rejected, evidence, tuple(cite.sources))


def _answer(a: _Asked, cite: _Citations) -> _Answer:
    """The dispatcher: the first path that answers ``a`` — the part of the book, the phrase in the asked slot, a
    name (number, time) with its overrides, a thing of the asked kind, a reason, else the best-aligned sentence."""
    if (part := _part_answer(a, cite)) is not None:
        return part
    if a.filled is not None and not a.qt.wants_name:  # the phrase in the slot the wh-word stands for
        return _slot_line(a.filled, None, "the phrase in the asked slot", a.sentences, a.scores, cite)
    if a.qt.wants_name and a.q.rest:
        return _named_overridden(a, cite)
    if (thing := _thing_answer(a, cite)) is not None:
        return thing
    if a.qt.kind == "why":  # the span stating the asked predicate and the reason given for it
        return _why_answer(a.question, a.qt, a.q, a.raw, cite)
    return _sentence_of_kind(a, cite)


@dataclasses.dataclass
class _Asked:
    """A question, typed (``qt``) and analysed (``q``), with the sentences of the evidence that answer it
    (``raw``: as the passages split; ``sentences``: as a why / yes-no question reads them) and, computed
    once when first needed, each sentence's score and the slot phrase a what-question asks."""

    question: str
    qt: QuestionType
    q: _Question
    sentences: Sequence[_Sentence]
    raw: Sequence[_Sentence]
    passages: Sequence[Passage]

    @classmethod
    def of(cls, question: str, passages: Sequence[Passage]) -> _Asked:
        qt = classify(question)
        sentences = raw = _sentences(passages)  # a why's reasons are spanned on the raw sentences (:func:`.reasons.reason_spans`)
        if qt.kind == "why":
            sentences = _with_antecedents(sentences)
        if qt.kind == "yes-no":  # "… in the end?": when, not what, the evidence must say
            question = declefted(_IN_THE_END.sub("", question))  # "Was it Ann who …?": "Did Ann …?"
            sentences = with_quotations(sentences)
        q = _question(question, passages, sentences)
        if qt.kind == "yes-no":
            sentences = _addressed(question, q, sentences)
        else:  # the readers of the asked slot parse the wh-clause, its frame only weighed (:func:`.question.asked_form`)
            question = asked_form(question)
        return cls(question, qt, q, sentences, raw, passages)

    def score(self, s: _Sentence) -> float:
        """How well sentence ``s`` answers (a yes-no question: how well it states the asked predication)."""
        if self.qt.kind == "yes-no":
            return statement_score(s, self.question, self.q, self._passage_roots[s.passage])
        return _sentence_score(s, self.q, self.qt)

    @functools.cached_property
    def _passage_roots(self) -> list[frozenset[str]]:
        return [_roots(p.text) for p in self.passages]

    @functools.cached_property
    def scores(self) -> list[float]:
        """Each sentence's :meth:`score`, computed once (the sentences are ranked up to three times)."""
        return [self.score(s) for s in self.sentences]

    def ranked(self, pool: Sequence[int] | None = None) -> list[int]:
        """The indices of the sentences (of ``pool``: all when None, sorted once), best first."""
        if pool is None:
            return list(self._order)
        return sorted(pool, key=self._rank_key)

    def _rank_key(self, k: int) -> tuple[float, int, int]:
        return -self.scores[k], self.sentences[k].passage, k

    @functools.cached_property
    def _order(self) -> tuple[int, ...]:
        return tuple(sorted(range(len(self.sentences)), key=self._rank_key))

    @functools.cached_property
    def kind(self) -> str | None:
        """The noun a what/which question asks a kind of (:func:`.lexicon.asked_kind`)."""
        return asked_kind(self.question) if self.qt.kind in _WHAT else None

    @functools.cached_property
    def filled(self) -> tuple[int, int, str] | None:
        """The phrase in the slot a what/which question asks (:func:`.slots.slot_answer`)."""
        return slot_answer(self.question, self.sentences, self.ranked(), self.scores, MIN_COVERAGE) if self.qt.kind in _WHAT else None


def _part_answer(a: _Asked, cite: _Citations) -> _Answer | None:
    """"In which chapter …?": the chapter the best-aligned sentence stands in (:func:`.times.part_answer`)."""
    asked = asked_part(a.question) if a.qt.kind in _WHAT else None
    if not asked:
        return None
    unit_free = _without_unit(a.q, asked)
    part = part_answer(asked, a.sentences, [_sentence_score(s, unit_free, a.qt) for s in a.sentences], MIN_COVERAGE)
    if part is None:
        return None
    return _slot_line(part, None, "the part of the book its best-aligned sentence stands in", a.sentences, a.scores, cite)


def _named_overridden(a: _Asked, cite: _Citations) -> _Answer:
    """A question a name, number or time answers: the best candidate (:func:`_named_answer`), unless a phrase
    overrides it (:func:`_phrase_override`: a where's place, a which's slot, a when's event) or, for a who/which
    question, the person in the asked slot (:func:`_doer_override`); a who/which question none of them answers, by
    the one candidate of the asked type its best-aligned sentence names (:func:`_sole_aligned`)."""
    named = _named_answer(a.question, a.qt, a.q, a.sentences, a.passages, cite)
    override = _phrase_override(a, named[1])
    if override is not None:
        found, type_, why = override
        return _slot_line(found, type_, why, a.sentences, a.scores, cite)
    answer = _doer_override(a, named, cite)
    if answer[1] is None and (sole := _sole_aligned(a, named[2])) is not None:  # the last resort of a who/which question
        return _answer_line(sole.name, cite(sole.support[:3])), sole, tuple(c for c in named[2] if c is not sole)
    return answer


#: how much of a who/which question the best-aligned sentence must cover for the one name of the asked type it
#: says to answer, though that name's support clears no limit (:func:`_sole_aligned`)
SOLE_ALIGNED = 0.4


def _sole_aligned(a: _Asked, ranked: Sequence[Candidate]) -> Candidate | None:
    """A who/which question no candidate answers well enough (``ranked``: the best, none clearing the limits) is
    answered by the one candidate of the asked type its best-aligned sentence names, when that sentence covers
    :data:`SOLE_ALIGNED` of it and the candidate's own best sentence :data:`~.limits.NAMED_COVERAGE`: the sentence
    saying most of what is asked says whom it asks ("A carpenter came by and built a shelf from the broken oar" for who
    built a shelf from the oar), though that one name is seldom repeated elsewhere; None when it names none or
    several (the evidence does not say which), or a candidate the question's key terms are not stated of.

    >>> said = [Passage("A carpenter came by and built a shelf from the broken oar.", "c")]
    >>> found = _Asked.of("Who built a shelf from the broken oar?", said)
    >>> carpenter = Candidate("carpenter", _PERSON, 0.01, (0,), cover=0.3, strength=0.006)
    >>> _sole_aligned(found, [carpenter]).name, _sole_aligned(found, [carpenter, dataclasses.replace(carpenter, name="shelf")])
    ('carpenter', None)
    >>> _sole_aligned(found, [dataclasses.replace(carpenter, strength=0.0)]) is None  # its key terms never said of it
    True
    """
    if a.qt.kind not in NAMED_KINDS or not a.sentences:
        return None
    top = a.ranked()[0]
    if a.scores[top] < SOLE_ALIGNED:
        return None
    text = a.sentences[top].text
    said = [c for c in ranked if a.qt.types.get(c.type or "", 0.0) >= 1.0 and _name_spans(c.name, text)]
    if len(said) != 1 or said[0].strength <= 0 or said[0].cover < NAMED_COVERAGE:
        return None
    return said[0]


def _phrase_override(a: _Asked, chosen: Candidate | None) -> tuple[tuple[int, int, str], str | None, str] | None:
    """The phrase (with its type and why) that answers instead of the candidate ``chosen``: for a where-question
    the place after the asked act in its best sentence (over a candidate when that sentence outranks it,
    :func:`.slots.where_place`); for a which-question no candidate answers, the phrase in the asked slot — either
    only from sentences that say the act asked ("In which city was Belle born?"); for a when-question no time
    answers, the event the asked act follows (:func:`.times.event_answer`)."""
    if a.qt.kind == "when":
        event = None if chosen is not None else event_answer(
            a.question, a.sentences, a.q.coverage, lambda w: bool(a.q.named) and a.q.links(w) == 1.0, lambda w: is_a(w, "event"))
        return None if event is None else (event, None, "the event introduced before the sentences that tell the asked act")
    if a.qt.kind == "where":
        found = where_place(a.question, a.sentences, a.ranked(), a.scores, MIN_COVERAGE, chosen.name if chosen else None,
                            _named_in(a.q.text, a.q))
        type_ = _GEO
    elif a.qt.kind == "which" and chosen is None:
        found, type_ = a.filled, None
    else:
        return None
    if found is None:
        return None
    return found, type_, "the phrase in the asked slot"


def _doer_override(a: _Asked, named: _Answer, cite: _Citations) -> _Answer:
    """A who/which question's answer: the person in the asked slot of an aligned sentence (:func:`.doers.who_slot`)
    over the ``named`` answer, unless it names the chosen one (:func:`_names_same`)."""
    if a.qt.kind not in NAMED_KINDS:
        return named
    _, chosen, rejected = named
    doer = who_slot(a.question, a.sentences, a.ranked(), a.scores)
    if doer is None:
        return named
    if _names_same(chosen, doer[2], a.sentences[doer[0]].text):
        return _fuller(named, doer[2])
    outranked = ((chosen,) if chosen is not None else ()) + rejected
    cite.sources.clear()  # numbered afresh: only the slot's passage is cited
    first, person, _ = _slot_line(doer, _PERSON, "the person in the asked slot of the aligned sentence", a.sentences, a.scores, cite)
    return first, person, outranked[:8]


def _fuller(named: _Answer, phrase: str) -> _Answer:
    """The ``named`` answer said by the slot's ``phrase`` when that is the chosen name with a title before it
    ("Master Ines" for "Ines": the text's own name for whom the act is said of; not a heading run into it).

    >>> ines, said = Candidate("Ines", _PERSON, 0.1, (0,)), ("The answer is Ines [1].",)
    >>> _fuller((*said, ines, ()), "Master Ines")[0], _fuller((*said, ines, ()), "Ines's aunt")[0]
    ('The answer is Master Ines [1].', 'The answer is Ines [1].')
    >>> _fuller((*said, ines, ()), "Chapter Ines")[0]
    'The answer is Ines [1].'
    """
    first, chosen, rejected = named
    said = _answer_line(chosen.name, "")[:-1] if chosen is not None else ""
    if chosen is None or any(_POSSESSIVE_END.search(w) for w in phrase.split()) or not phrase.endswith(chosen.name) \
            or phrase == chosen.name or not first.startswith(said):
        return named
    if not all(w.lower().rstrip(".") in _TITLES for w in phrase[: -len(chosen.name)].split()):
        return named
    return _answer_line(phrase, "")[:-1] + first[len(said):], dataclasses.replace(chosen, name=phrase), rejected


def _answer_line(name: str, marks: str) -> str:
    """The first line stating a chosen answer with its citation marks (none: no marks).

    >>> _answer_line("Ines", "[1, 2]"), _answer_line("Ines", "")
    ('The answer is Ines [1, 2].', 'The answer is Ines.')
    """
    return f"The answer is {name}" + (f" {marks}" if marks else "") + "."


def _thing_answer(a: _Asked, cite: _Citations) -> _Answer | None:
    """A what-question a common noun answers ("what creature …", what a preposition's object is, a kind of the
    asked noun, :func:`_of_kind`): a candidate (a person is no answer to a stranded preposition: "Bob Cratchit"
    is the clerk, not what he warms himself at) from passages that name whom the question names, written in
    lower case; None when there is none."""
    question, q = a.question, a.q
    if a.filled is not None or a.qt.wants_name or not q.rest or not (_thing_head(question, a.qt) or stranded(question) or a.kind):
        return None
    named = _named_answer(question, dataclasses.replace(a.qt, wants_name=True), q, a.sentences, a.passages, _Citations(a.passages),
                          not_of=frozenset({_PERSON}) if stranded(question) else frozenset())
    thing: _Answer | None = named
    if a.kind:
        # "In which N …?": only the best (its slot is checked later); only sentences speaking of whom the question names
        aligned = _aligned(a.ranked(), a.scores, a.sentences)
        thing = _of_kind(named, a.kind, aligned[:1] if _slot(question) else aligned, a.passages)
    if thing is None or thing[1] is None or not thing[1].name[:1].islower():
        return None
    cite(thing[1].support[:3])  # the same numbers as its first line
    return thing


def _sentence_of_kind(a: _Asked, cite: _Citations) -> _Answer:
    """The best-aligned sentence (:func:`_sentence_answer`); for a question asking "in" what, one saying what
    that preposition stands before (:func:`_slot`)."""
    slot = _slot(a.question) if a.qt.kind in _WHAT else None  # "In which state …?": "in" what the answer says
    follow = asks_consequence(a.q.text)  # "How did X react when …?": the sentence after the event's says it too
    return _sentence_answer(a.question, a.qt, a.q, a.sentences, a.ranked(), a.score, cite, slot, follow)


def _slot_line(found: tuple[int, int, str], type_: str | None, why: str, sentences: Sequence[_Sentence], scores: Sequence[float],
               cite: _Citations) -> tuple[str, Candidate, tuple[Candidate, ...]]:
    """The first line, chosen and rejected candidates of a phrase ``found`` in the asked slot: the index
    of the sentence aligned with the question (whose score is recorded), of the one saying the phrase
    (its reply or its follow-on), the phrase; both sentences' passages cited."""
    k, n, phrase = found
    support = tuple(dict.fromkeys((sentences[k].passage, sentences[n].passage)))
    chosen = Candidate(phrase, type_, round(scores[k], 6), support, why, cover=round(scores[k], 6))
    return _answer_line(phrase, cite(support)), chosen, ()


#: how many characters either side of a described person a name in apposition to it stands within ("Fan is …")
APPOSED = 24


def _names_same(chosen: Candidate | None, phrase: str, said: str) -> bool:
    """Whether the chosen candidate is the person a ``phrase`` in the asked slot of the sentence ``said``
    names: either's words hold the other's, or the phrase is a description (a common noun) and the
    sentence names the candidate beside it (in apposition: "Fan is Scrooge's sister who comes …").

    >>> _names_same(Candidate("Belinda", "PERSON", 0.1, (0,)), "Belinda Cratchit", ""), _names_same(None, "the baker", "")
    (True, False)
    >>> fan = Candidate("Fan", "PERSON", 0.1, (0,))
    >>> _names_same(fan, "his sister", "Fan is his sister who comes."), _names_same(fan, "his sister", "His sister comes.")
    (True, False)
    >>> _names_same(fan, "his sister", "His sister played an air which had been familiar to the child Fan.")
    False
    >>> _names_same(Candidate("Scrooge", "PERSON", 0.1, (0,)), "Scrooge's niece", "Scrooge's niece played.")
    False
    >>> _names_same(Candidate("Belinda Cratchit", "PERSON", 0.1, (0,)), "Miss Belinda", "")
    True
    >>> _names_same(Candidate("Bob Cratchit", "PERSON", 0.1, (0,)), "Belinda Cratchit", "")
    False
    """
    if chosen is None:
        return False
    possessed = re.sub(r"^.*['’]s?\s+", "", phrase)  # the possessed, not its possessor
    a, b = set(_roots(chosen.name)), set(_roots(possessed))
    if a and b and (a <= b or b <= a):
        return True
    first = [[w for w in root_tokens(n) if w not in _TITLES][:1] for n in (chosen.name, possessed) if n[:1].isupper()]
    if len(first) == 2 and first[0] and first[0] == first[1]:
        return True  # "Miss Belinda", "Belinda Cratchit": one first name
    at = said.find(phrase)
    beside = said[max(0, at - APPOSED):at] + " " + said[at + len(phrase):at + len(phrase) + APPOSED] if at >= 0 else ""
    return phrase.split()[-1].islower() and bool(_name_spans(chosen.name, beside))


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
                  ) -> _Answer:
    """The first line, chosen and rejected candidates of a question a name, number or time answers
    (none of the types ``not_of``)."""
    if qt.kind in _SPAN_KINDS:  # a count or a time, never an entity
        scored = _span_candidates(question, qt, q, sentences, passages)
    else:
        scored = [c for c, _ in _candidates(question, passages, qt, q, sentences) if c.type not in not_of]
    chosen = _decided(scored, qt)
    if chosen is not None:
        scored = [chosen] + [c for c in scored if c is not chosen]
        return _answer_line(chosen.name, cite(chosen.support[:3])), chosen, tuple(scored[1:8])
    best = f" (best candidate {scored[0].name}, strength {scored[0].strength:.3f})" if scored else ""
    first = f"The data does not answer the question: no {_wanted(qt)} in the retrieved evidence is supported well enough{best}."
    return first, None, tuple(scored[:8])


def _decided(scored: Sequence[Candidate], qt: QuestionType) -> Candidate | None:
    """The candidate of ``scored`` (best first) that states the answer to a question a name answers: the best if
    it clears the limits (:func:`~.limits.clears`: :data:`MIN_SUPPORT`, and a who/which question's best
    sentence covering :data:`NAMED_COVERAGE` of it, any other's :data:`MIN_COVERAGE`); else, for a who/which
    question, the first of the :data:`DECIDED_AMONG` best that
    does and is of the type asked (the rank orders by more than the support: a name the question's description
    is said of, weakly, comes before one the evidence states the relation asked of); None when there is none.

    >>> who = classify("Who mended the old clock in the hall?")
    >>> weak = Candidate("Ada", _PERSON, 0.2, (0,), cover=0.3, strength=0.01)
    >>> firm = Candidate("Bram", _PERSON, 0.1, (1,), cover=0.12, strength=0.05)
    >>> place = Candidate("Hall", _GEO, 0.1, (1,), cover=0.5, strength=0.5)
    >>> _decided([weak, firm], who).name, _decided([weak, place], who), _decided([firm], classify("What did Bram mend?"))
    ('Bram', None, None)
    """
    for n, c in enumerate(scored[:DECIDED_AMONG] if qt.kind in NAMED_KINDS else scored[:1]):
        if clears(c, qt.kind) and (n == 0 or qt.types.get(c.type or "", 0.0) >= 1.0):
            return c
    return None


def _aligned(order: Sequence[int], scores: Sequence[float], sentences: Sequence[_Sentence]) -> list[_Sentence]:
    """The best-aligned sentences (``order``: best first) a kind of the asked noun is looked for in: the
    :data:`~.slots.SLOT_SENTENCES` best that cover :data:`MIN_COVERAGE` and :data:`~.slots.SLOT_SHARE` of what the best covers."""
    least = max(MIN_COVERAGE, SLOT_SHARE * scores[order[0]]) if order else 1.0
    return [sentences[k] for k in order[:SLOT_SENTENCES] if scores[k] >= least]


def _of_kind(found: _Answer, kind: str, aligned: Sequence[_Sentence],
             passages: Sequence[Passage]) -> _Answer | None:
    """A "What NOUN …" question's answer among the candidates ``found`` (first line, chosen, rejected): a
    kind of the asked noun (:func:`kind_fit`) that the best-aligned sentence naming one names (``aligned``:
    :func:`_aligned`, best first; below the best, only as a thing, :func:`_names`) — the sentence that says
    most of what is asked says the answer, though summaries may cover more of the question's words
    without naming any kind — else the chosen candidate
    if it is such a kind; None when there is none (a thing WordNet knows as another kind is no answer).

    >>> from ragprov.llm.answer.words import _Sentence
    >>> calico, joe = Candidate("calico", None, 0.01, (0,)), Candidate("old Joe", "PERSON", 0.2, (0,))
    >>> top = [_Sentence(0, "The woman sells the dead man's goods to Joe.", frozenset()),
    ...        _Sentence(0, "If calico is not good enough, nothing is.", frozenset())]
    >>> _of_kind(("The answer is old Joe [1].", joe, (calico,)), "fabric", top, [Passage("…", "c")])[:2]
    ('The answer is calico [1].', Candidate(name='calico', type=None, score=0.01, support=(0,), why='', cover=0.0, strength=0.0))
    >>> _of_kind(("The answer is old Joe [1].", joe, (calico,)), "fabric", top[:1], [Passage("…", "c")]) is None
    True
    """
    _, chosen, rejected = found
    kinds = [c for c in ([chosen] if chosen else []) + list(rejected) if kind_fit(c.name, kind, c.type) == 1]
    said = next((hit for hit in ([c for c in kinds if _names(s.text, c.name, strict=n > 0)] for n, s in enumerate(aligned)) if hit), [])
    pick = said[0] if said else chosen if chosen is not None and chosen in kinds else None
    if pick is None:
        return None
    if pick is chosen:
        return found
    others = tuple(c for c in ([chosen] if chosen else []) + list(rejected) if c is not pick)
    return _answer_line(pick.name, _Citations(passages)(pick.support[:3])), pick, others


#: a word before an adjective said of something ("turned uncomfortably cold", "was cold"): the word after it names no thing
_PREDICATIVE = re.compile(r"(?:\b[a-z]+ly|\b(?:is|was|were|are|be|been|turned|turns|grew|grows|became|becomes|felt|feels|seemed|"
                          r"seems|looked|looks|so|too|very|quite|more|most))\s+$", re.I)


def _names(text: str, name: str, strict: bool) -> bool:
    """Whether sentence ``text`` says the candidate ``name`` (a whole word); ``strict``: as a thing, not an
    adjective said of something ("he turned uncomfortably cold" names no illness, :data:`_PREDICATIVE`).

    >>> _names("If calico is not good enough, nothing is.", "calico", True)
    True
    >>> _names("He turned uncomfortably cold.", "cold", False), _names("He turned uncomfortably cold.", "cold", True)
    (True, False)
    """
    found = re.finditer(r"(?<![\w'’])" + re.escape(name.lower()) + r"(?![\w'’])", text.lower())
    return any(not strict or not _PREDICATIVE.search(text[: m.start()]) for m in found)


def _sentence_answer(question: str, qt: QuestionType, q: _Question, sentences: Sequence[_Sentence], order: Sequence[int],
                     score: Callable[[_Sentence], float], cite: _Citations, slot: tuple[str, ...] | None = None,
                     follow: bool = False) -> _Answer:
    """The first line, chosen and rejected sentences of a question a sentence answers (why, what,
    yes-no: "Yes"/"No" before it), from the sentences best first. A question asking the object of a
    preposition (``slot``: "In which state …?") is not answered by a sentence without one before
    something the question does not say (:func:`_fills_slot`): that repeats the question's own words. A question
    asking what follows an event (``follow``: "How did X react when …?") is answered by the sentence and the next
    of its passage."""
    top = order[0] if order else None
    cover = score(sentences[top]) if top is not None else 0.0
    if top is None or cover < (YES_NO_COVERAGE if qt.kind == "yes-no" else MIN_COVERAGE):
        return "The data does not answer the question: no retrieved passage covers enough of what it asks.", None, ()
    if slot and not _fills_slot(sentences[top].text, slot, frozenset(q.tokens)):
        return "The data does not answer the question: the passage that covers it most does not say what it asks.", None, ()
    s = sentences[top]
    chosen = Candidate(s.text, None, round(cover, 6), (s.passage,), f"sentence covering {cover:.2f} of the question's terms")
    rejected = tuple(Candidate(sentences[k].text, None, round(q.coverage(sentences[k].tokens), 6), (sentences[k].passage,))
                     for k in order[1:4] if q.coverage(sentences[k].tokens) > 0)
    body = _HEADER.sub("", s.text.rstrip())
    if follow and top + 1 < len(sentences) and sentences[top + 1].passage == s.passage:  # and what follows it
        body = f"{body} {_HEADER.sub('', sentences[top + 1].text.rstrip())}"
    if qt.kind == "yes-no":
        body = ("No" if denies(s.text, question, q) or not says_verb(s.text, question) else "Yes") + ": " + body
    marks = cite([s.passage])
    first = body if not marks else (body[:-1] + f" {marks}" + body[-1] if body[-1] in ".!?" else f"{body} {marks}")
    return first, chosen, rejected


def _why_answer(question: str, qt: QuestionType, q: _Question, sentences: Sequence[_Sentence], cite: _Citations
                ) -> _Answer:
    """The first line, chosen and rejected spans of a why-question: the sentences (or a sentence)
    that best state what it asks together with the reason they give (:mod:`.reasons`)."""
    spans, scores, weights, order = ranked_reasons(question, q, sentences)
    scored = {id(s): scores[k] for k, s in enumerate(spans)}
    first, chosen, rejected = _sentence_answer(question, qt, q, spans, order, lambda s: scored[id(s)], cite)
    if chosen is not None:  # the shown text's own coverage (0-1), the reason weight apart
        cover = q.coverage(_roots(spans[order[0]].text))
        chosen = dataclasses.replace(chosen, cover=round(cover, 6),
                                     why=f"reason span: coverage {cover:.2f}, reason weight {weights[order[0]]:.2f}")
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


def _named_in(question: str, q: _Question) -> set[tuple[str, ...]]:
    """The names a question says: the known names (token tuples) and the root of each capitalised word after its first.

    >>> sorted(_named_in("Where does Mira sleep on Midsummer Eve?", _Question("Where does Mira sleep?", [])))
    [('eve',), ('midsumm',), ('mira',)]
    """
    words = re.findall(r"(?<=\s)[A-Z][a-z][\w-]*", question)
    return set(q.names) | {(_root(w.lower().removesuffix("'s")),) for w in words}

