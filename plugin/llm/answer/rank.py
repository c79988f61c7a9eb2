"""The rank: named :data:`FEATURES` weighted by :data:`WEIGHTS`, each candidate's support in the evidence
(:class:`_Context`), answerability (:func:`_states_key`), and the span candidates of how-many and when."""

from __future__ import annotations

import copy
import dataclasses
import math
import re
from collections.abc import Sequence

from ..engine import Passage
from ..text import content_tokens, tokenize
from .antecedents import opening_pronoun, person_sentence
from .asked import _asked_verb, _asks_age, _called_noun, _key_terms, _names_only_asked, _qualified_act, _relative_verb, _states_age
from .candidates import _antecedent, _collect, _generic, _merge_aliases, _resolve_descriptions, _resolve_pronouns
from .descriptions import Description, description, named_by_head, resolve_scene, said_in, said_of
from .evidence import _acted, _names_the, _near, _role, _tied
from .lexicon import asked_kind, kind_fit
from .limits import clears
from .places import PLACE_TIE, RESTATED, _asked_subject, _restates, _sent_there
from .question import _GEO, _PERSON, QuestionType, _name_of, _Question, asked_form, classify
from .records import _ABOUT_ITS_MENTIONS, Candidate, _Cand, _display
from .relations import _anchors, _relation, _relation_support
from .sentence import _with_antecedents
from .speech import _quoted, _says_quoted, _speaker
from .times import (
    _DATE,
    _NUMBER,
    _ONE_PRONOUN,
    _UNIT_WORDS,
    _asked_unit,
    _counted,
    _counted_span,
    _counts,
    _names_deictic,
    _section_told,
    _told_on,
    _unheaded,
    _unit_values,
)
from .typed import asked_class, called, names_kind
from .words import _ADJECTIVE_END, _ARTICLES, _root, _roots, _Sentence, _sentences

#: the support of a sentence that states the relation a relational question asks, of the candidate
RELATION_SUPPORT = 1.0


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
    ("the Schoolmaster") is none (:func:`_names_only_asked`); so is a name the relative clause asking it
    ("the man Belle married") does not say did or underwent the act with Belle (:func:`_acted`), and a name
    asked by a relation ("What is the name of Fred's wife?") needs a sentence stating it of the name; an act
    on one singled out ("Who sent the last transmission …?") needs the act itself (:func:`_qualified_act`)."""
    if not ctx.key:
        return True
    if _names_only_asked(c.name, ctx.q):
        return False
    if _fits_description(c, ctx):
        return True  # the relative clause the question asks by, or its role noun, said of the name (:mod:`.descriptions`)
    if ctx.relative:  # "the name of the man Belle married": the act done by or to it, with Belle
        return any(_acted(ctx.sentences[k].text, a, b, ctx.key) and ctx.q.links(ctx.sentences[k].tokens) > 0
                   for k, a, b in c.hits)
    if ctx.key_is_loose and ctx.relational and ctx.proper:
        # "the name of Fred's wife": a sentence naming it and Fred with the relation, not as another's ("Fred's wife")
        return any(ctx.q.links(ctx.sentences[k].tokens) > 0 and _unpossessed(ctx.sentences[k].text, ctx.key) for k, _, _ in c.hits)
    if ctx.key_is_loose and ctx.relational:
        return any(ctx.key & t for t in ctx.passage_tokens)
    if ctx.key_is_loose:  # an act: anywhere in a passage that names the candidate
        if ctx.act and not _said_of(c, ctx, {ctx.act}):
            return False  # an act on one singled out ("the last transmission"): the act itself, said of it
        return any(ctx.key & ctx.passage_tokens[i] for i in {ctx.sentences[k].passage for k, _, _ in c.hits} | c.mentions)
    elif ctx.key_is_tied:  # a role whose holder's name is asked: in its name ("Captain Hook"), or said of it
        return bool(ctx.key & _roots(c.name)) or any(_tied(ctx.sentences[k].text, a, b, ctx.key) for k, a, b in c.hits)
    return _said_of(c, ctx, ctx.key)


def _unpossessed(text: str, key: frozenset[str]) -> bool:
    """Whether a sentence has a relation noun of ``key`` (roots) that no name possesses: "Scrooge meets
    Fred's wife" speaks of Fred's wife, another than Scrooge; "Fan calls Scrooge her dear brother" of Fan.

    >>> _unpossessed("Scrooge meets Fred's wife.", frozenset({"wife"})), _unpossessed("Fan calls him her brother.", frozenset({"brother"}))
    (False, True)
    """
    return any(_root(m.group(0).lower()) in key and not _POSSESSED.search(text, 0, m.start())
               for m in re.finditer(r"[A-Za-z]+", text))


#: a name's possessive just before a noun ("Fred's |", "Fred's young |")
_POSSESSED = re.compile(r"[A-Za-z]['’]s?\s+(?:[a-z]+\s+)?$")


def _said_of(c: _Cand, ctx: _Context, key: frozenset[str] | set[str]) -> bool:
    """Whether a term of ``key`` is said of the candidate: in its name, in a sentence naming it or in
    a short passage about it."""
    said = set(_roots(c.name))
    for k, _, _ in c.hits:
        said |= ctx.sentences[k].tokens
    for i in c.mentions:
        if ctx.passages[i].kind in _SHORT_ABOUT:
            said |= ctx.passage_tokens[i]
    return bool(key & said)


#: the kinds of passage that are short statements about their mentions (not a whole text unit)
_SHORT_ABOUT = frozenset({"fact", "relationship", "entity", "claim"})

#: the plainness of a lower-case place phrase (:func:`_place_phrases`) for a where-question: a name
#: that the evidence supports as well still comes first
PHRASE_PLAIN = 0.7

#: the features a candidate's rank is a weighted sum of (logs of the factors the evidence gives it;
#: see :func:`_features`), and their weights: the product of the factors. ``bench/fit_answers.py``
#: fits weights on the bench's tuning questions to see whether others would rank better: in stop 27,
#: fitted on all 373 (with five more features, tried and dropped), they put an expected answer first in
#: 83.6 % of the extractions left out by question against 82.3 % for these, but lost 2 first lines net in
#: the whole bench (the rank also decides which candidate's strength the threshold reads), so none replace these
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
    proper: bool = False  # "What is the name of …?": a name answers, not a common noun nor a description (:func:`_name_of`)
    relative: bool = False  # "What is the name of the man Belle married?": the act must be said of it (:func:`_relative_verb`)
    act: str | None = None  # "Who sent the last transmission?": the verb the evidence must state (:func:`_qualified_act`)
    quoted: Sequence[tuple[str, ...]] = ()  # the words the question quotes (:func:`_quoted`)
    described: Description | None = None  # "Who was the old dealer who bought …?": the clause it asks by (:func:`description`)
    named_at: dict[int, list[tuple[int, int]]] = dataclasses.field(default_factory=dict)  # per sentence, the names' spans
    fits_described: dict[str, bool] = dataclasses.field(default_factory=dict)  # per candidate key, :func:`_fits_description`

    def __post_init__(self) -> None:
        #: each passage's text as compared for sameness (the same text counts once)
        self.keys = [" ".join(p.text.split()).lower() for p in self.passages]
        self.n_passages = len(set(self.keys))
        self.structured = any(p.kind in _ABOUT_ITS_MENTIONS for p in self.passages)
        self.cover = [self.q.coverage(s.tokens) for s in self.sentences]
        self.top_cover = max(self.cover, default=0.0)


def _mention_support(c: _Cand, ctx: _Context, is_kind: frozenset[str] = frozenset()) -> tuple[dict[int, float], int, float, float]:
    """Per passage, how well the candidate's best mention there is supported (:func:`_near`, the
    asked verb's role, the speaker of quoted words, the relation asked); how many sentences state
    the relation of it; how well the best-aligned sentence naming it matches the question,
    relative to the best-aligned sentence of all the evidence (1: it is named there); and the
    share of the question's descriptive terms that the sentences naming it and the passages about
    it have together (``joint``; the words its own name says do not count). ``is_kind``: the roots of
    the noun a "what NOUN" question asks, of which the candidate is a kind: its name says them ("calico" says "fabric")."""
    q, sentences = ctx.q, ctx.sentences
    per_passage: dict[int, float] = {}
    related, aligned = 0, 0.0
    # a place the text names by what happens there: its name says the question's words
    own = frozenset(t for t in _roots(c.name) if t in q.weight) if ctx.qt.kind == "where" else frozenset()
    own |= is_kind
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
            said = _utterance_cover(q, [sentences[j] for j in spoken], ctx.quoted)
            near = max(near, 0.9 * said * (0.6 + 0.4 * q.links(ctx.passage_tokens[s.passage])))
        stated = _relation_support(s, a, b, ctx.anchors[k]) if k in ctx.anchors else 0.0
        if stated < 0:
            near *= 0.3  # described by the converse role: the question's own side of the relation
        elif stated:
            # the sentence states the relation the question asks, of this name ("Fan is Scrooge's sister")
            near, related = max(near, RELATION_SUPPORT * stated), related + 1
        if ctx.called and _names_the(s.text, a, b, ctx.called):
            near = max(near, RELATION_SUPPORT)  # "This girl is Want" for what the girl is called
        if ctx.described is not None and (told := said_in(ctx.described, (k, a, b), sentences, ctx.named_at)):
            near = max(near, q.coverage(told))  # the question's clause said of it, over the sentences that tell it
        per_passage[s.passage] = max(per_passage.get(s.passage, 0.0), near)
    # a passage about the candidate (a relationship's end, an entity's description) supports it
    # as far as it covers the question, and more when the candidate's name stands next to the
    # words that do ("MRS. DILBER → SCROOGE: Mrs. Dilber is a laundress" is about both, a laundress one)
    covered: set[str] = set()
    for k, _, _ in c.hits:
        covered |= sentences[k].tokens
    for i in c.mentions:
        covered |= ctx.passage_tokens[i]
    joint = q.describes((covered - says) | is_kind)
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


def _utterance_cover(q: _Question, said: Sequence[_Sentence], quoted: Sequence[tuple[str, ...]]) -> float:
    """How much of the question one speaker's words in one turn say: the question's terms in all
    its sentences together (an utterance states in several sentences what the question paraphrases
    in one); all of it when they say the words the question quotes.

    >>> q = _Question("Who believes the signal patterns are a structured anomaly?", [])
    >>> said = [_Sentence(0, t, _roots(t)) for t in ('"The patterns are… off," Sam admitted.', '"It is a structured anomaly."')]
    >>> round(_utterance_cover(q, said, ()), 2), round(q.coverage(said[1].tokens), 2)
    (0.6, 0.4)
    >>> asked = "Who answers with 'You can count on me'?"
    >>> q, said = _Question(asked, []), [_Sentence(0, t, _roots(t)) for t in ('"Thank you," Jordan said.', '"You can count on me."')]
    >>> _utterance_cover(q, said, _quoted(asked)), _utterance_cover(q, said[:1], _quoted(asked))
    (1.0, 0.0)
    """
    if quoted and _says_quoted(" ".join(s.text for s in said), quoted):
        return 1.0
    return q.coverage(frozenset().union(*(s.tokens for s in said)))


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


def _score(c: _Cand, ctx: _Context, generic: bool, kind: str | None = None, typed: bool = False) -> tuple[Candidate, tuple[float, ...]]:
    """The candidate with its rank score (the weighted sum of its :data:`FEATURES`, as a factor)
    and its strength (support × type fit × novelty × plainness × spread × how much of the question's
    names the evidence has: what the unanswerable threshold reads); and its features. The joint
    coverage ranks candidates but is not part of the strength: that the evidence of none says all
    the question asks is no reason to say the data does not answer it. ``kind``: the kind of thing a what/which
    question asks (:func:`.lexicon.asked_kind`); ``typed``: whether the evidence or WordNet calls the candidate the
    noun the question asks (:func:`.typed.called`, :func:`.typed.names_kind`), which makes it fit that kind."""
    q, qt = ctx.q, ctx.qt
    # "What fabric …": a kind of fabric (WordNet's) fits, and says "fabric" where it stands; a thing it knows as another does not
    fit = 1.0 if typed else kind_fit(c.name, kind, c.type) if kind else 1.0  # called the asked noun: it fits
    said = _roots(kind) & frozenset(q.weight) if fit == 1 and kind else frozenset()
    per_passage, related, aligned, joint = _mention_support(c, ctx, said)
    support, best_cover, order = _support(per_passage, ctx.keys)
    type_fit = qt.types.get(c.type or "", 0.1 if c.type and c.type not in ("NUMBER", "DATE") else 0.6) if qt.types else fit
    novelty = 1.0 - q.overlap(c.name, c.type)
    if qt.kind == "where" and _restates(c.name, q.tokens):
        novelty *= RESTATED  # the question's own setting ("at his nephew's house, where …")
    plain = _plain(c, qt, generic, q.head)
    # a name in most of the evidence is its topic, not the answer: weighted down like a common term
    named_in = len(c.mentions | {ctx.sentences[k].passage for k, _, _ in c.hits})
    spread = min(1.0, math.log(1 + (ctx.n_passages + 3) / max(1, named_in)) / math.log(4))
    joint = 1 - JOINT + JOINT * joint  # ranks, but does not decide whether the data answers
    strength = support * type_fit * novelty * plain * spread * q.found
    if strength <= 0:
        return Candidate(_display(c), c.type, 0.0, (), "", 0.0), ()
    if ctx.proper and (plain < 1 or not any(ch.isupper() for ch in _display(c))):
        # what the question asks the name of is named by a name: "her husband", "the matron" or
        # "Scrooge's niece" say who, but are not the name asked, and do not rank
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
    if qt.types.get(_PERSON, 0.0) >= 1.0:  # a description naming no one: the name the scene introduces next
        resolve_scene(cands, sentences, q, lambda c: _antecedent(c, q, generic))
    ctx = _Context(sentences, passages, q, qt, [_roots(p.text) for p in passages], _anchors(question, sentences),
                   _asked_verb(question), _relation(question) is not None, *_key_terms(question), _called_noun(question),
                   _asked_subject(question), _name_of(question) is not None, _relative_verb(question) is not None,
                   _qualified_act(question), _quoted(question), description(question))
    if ctx.key and not ctx.key_is_loose:
        _resolve_descriptions(cands, sentences, q, generic, ctx.key)
    for c in cands.values():  # the names in each sentence (a common noun or a noun phrase names no one)
        for k, a, b in ([] if c.phrase or c.key in generic else c.hits):
            ctx.named_at.setdefault(k, []).append((a, b))
    wanted = [t for t, w in qt.types.items() if w >= 1.0]
    cls = asked_class(question) if qt.kind in ("what", "which") else None
    kind = (asked_kind(question) or cls) if qt.kind in ("what", "which") and not qt.types else None
    merged = _merge_aliases(cands, generic, _roots(q.text), wanted)
    typed = {m.key: cls is not None and _typed(m, cls, sentences) for m in merged}
    scored = [(c, f, c.score > 0 and _identified(m, ctx), typed[m.key] and clears(c, qt.kind)) for m in merged
              for c, f in [_score(m, ctx, m.key in generic, kind, typed[m.key])]]
    # a name the question's description or role noun is said of outranks one it is not, and says so
    if len({i for c, _, i, _ in scored if c.score > 0}) > 1:
        scored = [(dataclasses.replace(c, why=c.why + _IDENTIFIED[i]) if c.score > 0 else c, f, i, t) for c, f, i, t in scored]
    # one the evidence or WordNet calls the asked N outranks one it does not ("which of the spirits": not a man never called one)
    if len({t for c, _, _, t in scored if c.score > 0}) > 1:
        scored = [(dataclasses.replace(c, score=round(c.score * (1.0 if t else UNTYPED), 6), why=c.why + _TYPED[t])
                   if c.score > 0 else c, f, i, t) for c, f, i, t in scored]
    scored.sort(key=lambda cfit: (not cfit[2], -cfit[0].score, cfit[0].name))
    return [(c, f) for c, f, _, _ in scored if c.score > 0]


#: the share of its rank a candidate keeps when the evidence never calls it the noun a which-question asks
#: ("which ghost") and calls another, which could answer, one
UNTYPED = 0.5

#: what a candidate's recorded why says of its rank when some are called the asked noun and some not
_TYPED = {True: "; called the asked noun", False: f"; never called the asked noun: rank times {UNTYPED:g}"}


def _typed(c: _Cand, cls: str, sentences: Sequence[_Sentence]) -> bool:
    """Whether the candidate is a ``cls`` (:func:`.typed.asked_class`): its name says so or the evidence calls it one."""
    return names_kind(_display(c), cls) or called(_display(c), c.hits, sentences, cls)


#: what a candidate's recorded why says of its rank when some are identified by the question's description and some not
_IDENTIFIED = {True: "; identified by the question's description: ranks before those that are not",
               False: "; not identified by the question's description: ranks after those that are"}


def _identified(c: _Cand, ctx: _Context) -> bool:
    """Whether the evidence says of the candidate itself what the question identifies its answer by:
    its relative clause ("the laundress who brought sheets …", :mod:`.descriptions`) or the role noun
    that clause describes (:func:`named_by_head`), or — with no clause — its role
    noun as the name's predicate or in apposition to it ("Who is the cybersecurity expert …?": "Sam
    Rivera is a technical expert", not a name beside "cybersecurity"; :func:`_tied`). True when the
    question asks neither (a relation, an act), so that the rank alone orders the candidates."""
    if ctx.described is not None:
        return _fits_description(c, ctx)
    if ctx.key and not (ctx.key_is_loose or ctx.key_is_tied or ctx.relative or ctx.called):
        return bool(ctx.key & _roots(c.name)) or any(ctx.key & ctx.sentences[k].tokens and _tied(ctx.sentences[k].text, a, b, ctx.key)
                                                     for k, a, b in c.hits)
    return True


def _fits_description(c: _Cand, ctx: _Context) -> bool:
    """Whether the question's relative clause (:func:`said_of`) or the role noun it describes
    (:func:`named_by_head`) is said of the candidate; False when the question has no clause. Read once
    per candidate: the answerability rule (:func:`_states_key`) and the rank (:func:`_identified`) both ask."""
    if ctx.described is None:
        return False
    if c.key not in ctx.fits_described:
        ctx.fits_described[c.key] = (said_of(ctx.described, c.hits, ctx.sentences, ctx.named_at)
                                     or named_by_head(ctx.described, c.hits, ctx.sentences))
    return ctx.fits_described[c.key]


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
    return _candidates(asked_form(question), passages, qt, q, sentences)


# -- answers that are not entities: counts, times, yes-no, sentences ------------------------------
#: the question kinds answered by a span of the text (a number, a time), never by an entity
_SPAN_KINDS = ("how-many", "when")

#: how much the question's terms in the scene around a count or a time (the text either side of its
#: sentence in its passage) weigh against those near it: "eighteen minutes … behind his time" after
#: "catch Bob Cratchit coming late!" answers how late Bob is, not "home in five minutes" at a party
SCENE = 0.8


def _of_subject(s: _Sentence, q: _Question) -> bool:
    """Whether a sentence speaks of what the question names: it names it, or opens with a pronoun (a speaker's too,
    :func:`.antecedents.opening_pronoun`) after the sentence it looks back to names it (:func:`.antecedents.person_sentence`:
    "Tiny Tim sat down. He was nine years old.").

    >>> ss = _sentences([Passage('Tiny Tim sat down. He was nine. "Nine," she said. Bob was forty.', "c")])
    >>> [_of_subject(s, _Question("How old is Tiny Tim?", [])) for s in ss]
    [True, True, True, False]
    """
    return q.links(s.tokens) > 0 or (opening_pronoun(s.text, spoken=True) is not None and q.links(_roots(person_sentence(s.before))) > 0)


#: how much the question's terms in the few sentences from a time of the asked unit (:func:`_stating`)
#: support it: among the values of one kind, the one told with the asked act is the answer
STATED = 1.0


def _stating(sentences: Sequence[_Sentence], q: _Question, after: int = 2) -> list[float]:
    """Per sentence, how much of the question the text from it to ``after`` sentences on (in its
    passage) says: an act and the time it happens are often told in a sentence or two
    ("… the clock, which pointed to the hour of seven. He … called out …: 'No more work to-night.'").

    >>> ss = _sentences([Passage("The clock pointed to seven. He called out: no more work. Later the clock struck nine.", "c")])
    >>> q = _Question("What hour does the clock show when he calls them to stop work?", [], ss)
    >>> [round(x, 2) for x in _stating(ss, q)]
    [0.56, 0.56, 0.16]
    """
    out = []
    for k, s in enumerate(sentences):
        words = set(s.tokens)
        for j in range(k + 1, min(len(sentences), k + 1 + after)):
            if sentences[j].passage == s.passage:
                words |= sentences[j].tokens
        out.append(q.coverage(words))
    return out


def _span_values(question: str, qt: QuestionType, sentences: Sequence[_Sentence]) -> tuple[list[list[tuple[int, int, str]]], str | None]:
    """Per sentence, the values a how-many or when question takes its answer from (span and text):
    the numbers, or the time expressions — only the values of the unit the question asks in (the
    hours of "What hour …", :func:`_asked_unit`) when the evidence has any; and that unit.

    >>> ss = _sentences([Passage("On Christmas Eve he promised to come on a Sunday.", "c")])
    >>> _span_values("On which day of the week did he promise to come?", classify("On which day of the week …?"), ss)
    ([[(42, 48, 'Sunday')]], 'weekday')
    >>> _span_values("What day did he promise to come?", classify("What day did he promise to come?"), ss)
    ([[(3, 16, 'Christmas Eve'), (42, 48, 'Sunday')]], None)
    >>> _span_values("In what year did he come?", classify("In what year did he come?"), ss)[1]  # no year said: any time
    """
    unit = _asked_unit(question) if qt.kind == "when" else None
    if unit is not None:
        values = [_unit_values(s.text, unit) for s in sentences]
        if any(values):
            return values, unit
    pattern = _NUMBER if qt.kind == "how-many" else _DATE
    return [[(m.start(), m.end(), m.group(0)) for m in pattern.finditer(s.text)] for s in sentences], None


#: how much of their weight the words naming the unit a time is asked in keep ("hour", "day of the year"):
#: they say what kind of value answers more than what happens then, yet a sentence saying them speaks of
#: such a time ("of all the good days in the year, on Christmas Eve" for the day of the year a story begins)
UNIT_KEEP = 0.5


def _without_unit(q: _Question, unit: str | None, keep: float = 0.0) -> _Question:
    """The question with the words that name the unit its answer is in ("chapter", "hour", "day of the
    week") weighing ``keep`` of their weight (none: a heading says a chapter, not the sentence telling
    the act).

    >>> q = _Question("On what day of the year does the voyage begin?", [])
    >>> half = _without_unit(q, "calendar", 0.5).weight
    >>> sorted(_without_unit(q, "calendar").weight), [round(w / q.weight["day"], 1) for w in half.values()]
    (['begin', 'voyag'], [0.5, 0.5, 1.0, 1.0])
    """
    if unit is None:
        return q
    q = copy.copy(q)
    units = {_root(u) for u in _UNIT_WORDS[unit]}
    q.weight = {t: w * keep if t in units else w for t, w in q.weight.items() if keep or t not in units}
    q.desc_total = sum(q.weight.values())
    return q


def _narrowed(found: dict[str, tuple[dict[int, float], list[tuple[float, str]]]], said_at: Sequence[tuple[int, str]],
              sentences: Sequence[_Sentence]) -> None:
    """A time restated narrower in the next two sentences of its passage ("It ends to-night." …
    "To-night at midnight.") or by its calendar name ("'To-day!' replied the boy. 'Why, CHRISTMAS
    DAY.'", :func:`.times._names_deictic`) is that narrower time: the narrower one takes its support there.

    >>> found = {"to night": ({0: 0.4}, [(0.4, "to-night")]), "to night at midnight": ({0: 0.0}, [(0.0, "To-night at midnight")])}
    >>> ss = _sentences([Passage("It ends to-night. To-night! To-night at midnight.", "c")])
    >>> _narrowed(found, [(0, "to night"), (1, "to night"), (2, "to night at midnight")], ss); [f[0] for f in found.values()]
    [{0: 0.0}, {0: 0.4}]
    >>> found = {"to night": ({0: 0.4}, []), "to night at midnight": ({0: 0.0}, [])}  # said before: no restatement
    >>> _narrowed(found, [(0, "to night at midnight"), (2, "to night")], ss); found["to night at midnight"][0]
    {0: 0.0}
    >>> found = {"to day": ({0: 0.5}, [(0.5, "To-day")]), "christmas day": ({0: 0.1}, [(0.1, "CHRISTMAS DAY")])}
    >>> ss = _sentences([Passage("'To-day!' replied the boy. 'Why, CHRISTMAS DAY.'", "c")])
    >>> _narrowed(found, [(0, "to day"), (2, "christmas day")], ss); [f[0] for f in found.values()]
    [{0: 0.0}, {0: 0.5}]
    """
    for k, key in said_at:
        for j, other in said_at:
            if k < j <= k + 2 and sentences[j].passage == sentences[k].passage and (other.startswith(key + " ")
                                                                                   or _names_deictic(key, other)):
                per, wider = found[other][0], found[key][0]
                at = sentences[k].passage
                if wider.get(at, 0.0) > per.get(at, 0.0):
                    moved = wider[at]
                    per[at], wider[at] = moved, 0.0
                    found[other][1].append((moved, found[other][1][-1][1] if found[other][1] else other))


def _span_candidates(question: str, qt: QuestionType, q: _Question, sentences: Sequence[_Sentence],
                     passages: Sequence[Passage]) -> list[Candidate]:
    """The numbers (how many) or time expressions (when) of the evidence as candidate answers — never
    an entity — each supported, passage by passage, by how well the words around it match the
    question (:func:`_near`) and, for a count, by what it counts (:func:`_counts`); a value the
    question itself says is not an answer, nor, for "How old …?", a number not stated as an age
    (:func:`_states_age`) in a sentence naming whom the question asks about; the words naming the unit
    asked ("day of the year") count :data:`UNIT_KEEP` of their weight. Best first."""
    values, unit = _span_values(question, qt, sentences)
    q = _without_unit(q, unit, UNIT_KEEP)
    found = _spans_found(question, qt, q, sentences, passages, values, unit)
    return _spans_ranked(found, [" ".join(p.text.split()).lower() for p in passages], q, qt)


def _spans_found(question: str, qt: QuestionType, q: _Question, sentences: Sequence[_Sentence], passages: Sequence[Passage],
                 values: Sequence[Sequence[tuple[int, int, str]]], unit: str | None
                 ) -> dict[str, tuple[dict[int, float], list[tuple[float, str]]]]:
    """Each value :func:`_span_candidates` weighs (by its key): its support per passage (how well the words
    around it match the question, see there) and each of its spans as said with that support."""
    counted = _counted(question) if qt.kind == "how-many" else frozenset()
    asked = " ".join(tokenize(q.text))  # the frame's values too ("the boy in Sunday clothes": no Sunday)
    passage_tokens = [_roots(p.text) for p in passages]
    found: dict[str, tuple[dict[int, float], list[tuple[float, str]]]] = {}
    scene: dict[str, float] = {}
    age = qt.kind == "how-many" and _asks_age(question)
    # a day the calendar names is told in the sentence telling the act; an hour often a sentence or two before it
    states = _stating(sentences, q, after=0 if unit == "calendar" else 2) if unit is not None else [0.0] * len(sentences)
    said_at: list[tuple[int, str]] = []
    for k, (s, said, stated) in enumerate(zip(sentences, values, states, strict=True)):
        for a, b, value in said:
            if age and not (_states_age(s.text, a, b) and _of_subject(s, q)):
                continue  # "How old is X?": only a number the text gives as an age, of X
            if (qt.kind == "how-many" and value.lower() == "one" and _ONE_PRONOUN.search(s.text[max(0, a - 12) : a])
                    and _counts(s, a, b, counted) < 2):
                continue  # "the one", "that one" — unless it counts the asked thing ("only one ghost")
            key = " ".join(tokenize(_ARTICLES.sub("", value)))
            if not key or f" {key} " in f" {asked} ":
                continue
            t, at = _unheaded(s, a)
            near = _near(t, a - at, b - at, q, passage_tokens[s.passage])
            if unit is None and qt.kind == "when":  # a time closing its sentence: the next one may tell the act,
                # or the section it closes what it dates
                stated = max(_told_on(sentences, k, t.tokens, b, q.coverage), _section_told(sentences, k, b, q.coverage))
            if s.text not in scene:
                scene[s.text] = q.describes(_roots(f"{s.before} {s.after}") | s.tokens)
            weight = SCENE if qt.kind == "how-many" else SCENE / 2
            near *= 1.0 - weight / 2 + weight * scene[s.text]
            near = min(1.0, max(near, STATED * stated) * _counts(s, a, b, counted))
            per, shown = found.setdefault(key, ({}, []))
            per[s.passage] = max(per.get(s.passage, 0.0), near)
            said_at.append((k, key))
            shown.append((near, _counted_span(s, a, b, counted) if qt.kind == "how-many" else _ARTICLES.sub("", value)))
    if qt.kind == "when":
        _narrowed(found, said_at, sentences)
    return found


def _spans_ranked(found: dict[str, tuple[dict[int, float], list[tuple[float, str]]]], keys: Sequence[str],
                  q: _Question, qt: QuestionType) -> list[Candidate]:
    """The values :func:`_spans_found` found as candidates (``keys``: each passage's text, folded), each
    supported by the passages where it is said at least half as well as at best; best first."""
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
