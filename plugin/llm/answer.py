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
   gazetteer the mentions make up), and — where nothing typed is known, e.g. plain documents —
   capitalised spans, numbers and dates of the passages' sentences.
3. **Score** each candidate by the independent evidence that supports it: for every passage
   (duplicates counted once) the best coverage of the question's terms by a sentence naming the
   candidate (or by the passage, for a structured mention), squared so that weak mentions add
   little, summed over passages; times how well its type fits the question; the entities the
   question itself names are excluded (and names that share words with them discounted), generic
   nouns ("the ghost", "the city" — names the text also uses in lower case) discounted.
4. **State** the best candidate in one first line with its citation numbers, or — when no
   candidate clears :data:`MIN_SUPPORT` — say that the data does not answer the question.

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
from collections.abc import Sequence

from .engine import Passage
from .text import content_tokens, split_sentences, tokenize

__all__ = ["MIN_COVERAGE", "MIN_SUPPORT", "Candidate", "Extraction", "QuestionType", "classify", "extract_answer"]

#: the least summed support a named answer needs (one passage covering the question fully gives 1)
MIN_SUPPORT = 0.1
#: the least share of the question's terms the best supporting sentence must cover
MIN_COVERAGE = 0.4

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

_YES_NO = re.compile(r"^(is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may|might)\b", re.I)
_NEGATION = re.compile(r"\b(not|never|no|none|nobody|nothing|neither|nor)\b|n't\b", re.I)
_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred "
                 "thousand").split()
_NUMBER = re.compile(r"\b(\d[\d,.]*|" + "|".join(_NUMBER_WORDS) + r")\b", re.I)
_MONTHS = "January February March April May June July August September October November December"
_DATE = re.compile(
    r"\b((?:\d{1,2} )?(?:" + "|".join(_MONTHS.split()) + r")(?: \d{1,2})?(?:,? \d{4})?|\d{4}|"
    r"(?:Christmas|New Year's) (?:Eve|Day|morning|night)|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)\b"
)
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
    if low.startswith("how many") or low.startswith("how much"):
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


# -- evidence as sentences ----------------------------------------------------------------------
@dataclasses.dataclass
class _Sentence:
    passage: int
    text: str
    tokens: frozenset[str]
    before: str = ""  # the passage's text before the sentence (for context windows across sentences)
    after: str = ""


def _sentences(passages: Sequence[Passage]) -> list[_Sentence]:
    out: list[_Sentence] = []
    for i, p in enumerate(passages):
        text = " ".join(p.text.split())
        for a, b in split_sentences(text):
            s = text[a:b].strip()
            if len(s) >= 3:
                out.append(_Sentence(i, s, frozenset(content_tokens(s)), text[max(0, a - 200) : a], text[b : b + 200]))
    return out


class _Question:
    """The question's terms split into the names it mentions and the rest, with coverage weights."""

    def __init__(self, question: str, names: Sequence[str]):
        self.tokens = list(dict.fromkeys(content_tokens(question)))
        asked = set(self.tokens)
        folded = " " + " ".join(tokenize(question)) + " "
        self.named: set[str] = set()
        self.names: set[tuple[str, ...]] = set()
        for name in set(names):
            toks = content_tokens(name)
            if not toks or not set(toks) <= asked or re.search(r"['’(]", name) or f" {' '.join(tokenize(name))} " not in folded:
                continue
            # a name the question writes as a name (capitalised), not a common noun ("his wife")
            m = _name_pattern(name).search(question)
            if m and m.group(0)[:1].isupper():
                self.named.update(toks)
                self.names.add(tuple(toks))
        # a surname alone names the person ("Scrooge's partner" names "Ebenezer Scrooge"), unless
        # it qualifies a noun ("the Cratchit family")
        singles = {}
        for m in re.finditer(r"(?<![\w'’])([A-Z][\w'’-]*)(?:\s+([a-z][\w-]*))?", question):
            if m.start() == 0 or re.match(r"\s*[A-Z]", question[m.end(1):]) or re.search(r"[A-Z][\w'’-]*\s+$", question[: m.start()]):
                continue
            following = m.group(2) or ""
            possessive = re.search(r"['’]s?$", m.group(1)) is not None
            if not possessive and (following in _HEAD_TYPES or following.rstrip("s") in _HEAD_TYPES):
                continue
            token = content_tokens(m.group(1))
            if token:
                singles[token[-1]] = m.group(1)
        for name in set(names):
            toks = content_tokens(name)
            if len(toks) > 1 and toks[-1] in singles and not re.search(r"['’(]", name):
                self.named.add(toks[-1])
                self.names.add(tuple(toks))
        self.rest = [t for t in self.tokens if t not in self.named]
        self.weight = {t: (0.5 if t in self.named else 1.0) for t in self.tokens}
        self.total = sum(self.weight.values())

    def coverage(self, tokens: frozenset[str] | set[str]) -> float:
        if not self.total:
            return 0.0
        return sum(w for t, w in self.weight.items() if t in tokens) / self.total

    def overlap(self, name: str) -> float:
        """How much a candidate is the question's own: 1 for a name made of the question's words
        or a longer form of a name it uses ("Ebenezer Scrooge" when it asks about "Scrooge"),
        else the share of its words that are names the question uses, halved."""
        toks = content_tokens(name)
        if not toks or set(toks) <= set(self.tokens) or any(_affix(named, toks) for named in self.names):
            return 1.0
        return 0.5 * sum(1 for t in toks if t in self.named) / len(toks)


# -- candidates ---------------------------------------------------------------------------------
@dataclasses.dataclass
class _Cand:
    key: str
    name: str
    type: str | None
    mentions: set[int] = dataclasses.field(default_factory=set)  # passages naming it structurally
    hits: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)  # (sentence, start, end) naming it
    surfaces: list[str] = dataclasses.field(default_factory=list)


def _key(name: str) -> str:
    return " ".join(tokenize(name))


@functools.lru_cache(maxsize=4096)  # the same names recur across a DRIFT run's answers (re's own cache holds 512)
def _name_pattern(name: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.findall(r"[\w'’.-]+", name) if w]
    return re.compile(r"(?<![\w])" + r"[\s\-]+".join(words) + r"(?:['’]s)?(?![\w])", re.I)


#: evidence kinds that are *about* the entities they mention (a fact about its two ends, an
#: entity's description); a chunk, report or answer only names them somewhere in its text
_ABOUT_ITS_MENTIONS = frozenset({"text", "fact", "relationship", "entity", "claim"})


def _collect(passages: Sequence[Passage], sentences: Sequence[_Sentence], qt: QuestionType) -> dict[str, _Cand]:
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
    # the gazetteer: every known name, found in every sentence
    known = sorted(cands.values(), key=lambda c: (-len(c.key), c.key))
    patterns = [(c, _name_pattern(c.name), frozenset(content_tokens(c.name))) for c in known]
    for k, s in enumerate(sentences):
        for c, pattern, words in patterns:
            if words and not words <= s.tokens:
                continue
            for match in pattern.finditer(s.text):
                c.hits.append((k, match.start(), match.end()))
                c.surfaces.append(match.group(0))
    if qt.kind == "how-many":
        _spans(cands, sentences, _NUMBER, "NUMBER")
    elif qt.kind == "when":
        _spans(cands, sentences, _DATE, "DATE")
    elif not cands:
        _spans(cands, sentences, _CAPITALISED, None)
    return cands


def _spans(cands: dict[str, _Cand], sentences: Sequence[_Sentence], pattern: re.Pattern[str], kind: str | None) -> None:
    for k, s in enumerate(sentences):
        for m in pattern.finditer(s.text):
            name = m.group(0).strip(" .,'’-")
            if kind is None and (len(name) < 2 or not content_tokens(name)):
                continue  # "The", "He": a capitalised function word is not a name
            key = _key(name)
            if not key:
                continue
            c = cands.setdefault(key, _Cand(key, name, kind))
            c.hits.append((k, m.start(), m.end()))
            c.surfaces.append(name)


def _merge_aliases(cands: dict[str, _Cand]) -> list[_Cand]:
    """Fold a name into a longer one of the same type that contains all its words ("JACOB" into
    "JACOB MARLEY"); the longer name is kept."""
    items = sorted(cands.values(), key=lambda c: (-len(c.key.split()), c.key))
    kept: list[_Cand] = []
    for c in items:
        set(c.key.split())
        host = next(
            (
                h
                for h in kept
                if h.type == c.type and not re.search(r"['’(]", h.name) and _affix(c.key.split(), h.key.split())
            ),
            None,
        )
        if host is None:
            kept.append(c)
            continue
        host.mentions |= c.mentions
        host.hits = sorted(set(host.hits) | set(c.hits))
        host.surfaces.extend(c.surfaces)
    return kept


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


def _generic(c: _Cand, sentences: Sequence[_Sentence]) -> bool:
    """A "name" the text also writes in lower case mid-sentence is a common noun (the ghost, the city)."""
    plain = re.sub(r"^(the|a|an)\s+", "", c.name.lower())
    if not plain or not plain[0].isalpha():
        return False
    texts = [s.text for s in sentences if plain in s.text]  # the only ones the pattern can match
    if not texts:
        return False
    pattern = re.compile(r"(?<=[a-z,;] )" + re.escape(plain) + r"\b")
    return any(pattern.search(t) for t in texts)


#: words either side of a mention that count as its context
WINDOW = 10


def _near(s: _Sentence, a: int, b: int, q: _Question) -> float:
    """How well a mention at ``s.text[a:b]`` is supported: its sentence's coverage of the question,
    blended with the coverage by the words around it (a name next to "partner" beats a name at
    the far end of a long sentence that says "partner")."""
    before = (s.before + " " + s.text[:a]).split()[-WINDOW:]
    after = (s.text[b:] + " " + s.after).split()[:WINDOW]
    window = frozenset(content_tokens(" ".join([*before, s.text[a:b], *after])))
    return 0.3 * q.coverage(s.tokens) + 0.7 * q.coverage(window)


def _score(c: _Cand, sentences: Sequence[_Sentence], passages: Sequence[Passage], q: _Question, qt: QuestionType) -> Candidate:
    per_passage: dict[int, float] = {}
    for k, a, b in c.hits:
        s = sentences[k]
        per_passage[s.passage] = max(per_passage.get(s.passage, 0.0), _near(s, a, b, q))
    for i in c.mentions:
        cov = q.coverage(frozenset(content_tokens(passages[i].text)))
        per_passage[i] = max(per_passage.get(i, 0.0), cov)
    # independent evidence: the same text (or source) counted once
    # independent evidence, with diminishing returns: the best passage counts fully, the next
    # half, then a quarter… (a name that is everywhere is the topic, not the answer)
    seen: set[str] = set()
    support = 0.0
    best_cover = 0.0
    order: list[int] = []
    for i in sorted(per_passage, key=lambda i: (-per_passage[i], i)):
        cov = per_passage[i]
        key = " ".join(passages[i].text.split()).lower()
        if key in seen or cov <= 0:
            continue
        seen.add(key)
        support += cov * cov * 0.5 ** len(order)
        best_cover = max(best_cover, cov)
        order.append(i)
    type_fit = qt.types.get(c.type or "", 0.1 if c.type and c.type not in ("NUMBER", "DATE") else 0.6) if qt.types else 1.0
    novelty = 1.0 - q.overlap(c.name)
    # a name the evidence only ever writes in lower case, or also writes as a common noun
    lower_only = bool(c.surfaces) and not any(x[:1].isupper() for x in c.surfaces)
    generic = 0.2 if lower_only or _generic(c, sentences) else 1.0
    score = support * type_fit * novelty * generic
    why = (f"support {support:.3f} from {len(order)} passage(s), best coverage {best_cover:.2f}; "
           f"type {c.type or 'unknown'} fit {type_fit:g}; novelty {novelty:.2f}" + ("; generic noun" if generic < 1 else ""))
    return Candidate(_display(c), c.type, round(score, 6), tuple(order), why, round(best_cover, 6))


# -- the answer ---------------------------------------------------------------------------------
def extract_answer(question: str, passages: Sequence[Passage], *, max_evidence: int = 6) -> Extraction:
    """The answer to ``question`` from ``passages`` (see the module docstring)."""
    qt = classify(question)
    sentences = _sentences(passages)
    names = [m.name for p in passages for m in p.mentions]
    q = _Question(question, names)
    cands = _collect(passages, sentences, qt)
    sources: list[str] = []

    def cite(indices: Sequence[int]) -> str:
        marks = []
        for i in indices:
            for src in (passages[i].source or "").split(" ;; "):
                if src:
                    if src not in sources:
                        sources.append(src)
                    mark = f"[{sources.index(src) + 1}]"
                    if mark not in marks:
                        marks.append(mark)
        return " ".join(marks)

    def ranked_sentences(pool: Sequence[int] | None = None) -> list[int]:
        idx = range(len(sentences)) if pool is None else pool
        return sorted(idx, key=lambda k: (-q.coverage(sentences[k].tokens), sentences[k].passage, k))

    chosen: Candidate | None = None
    rejected: tuple[Candidate, ...] = ()
    describe = not qt.wants_name or not q.rest
    if not describe:
        scored = [_score(c, sentences, passages, q, qt) for c in _merge_aliases(cands)]
        scored = [c for c in scored if c.score > 0]
        scored.sort(key=lambda c: (-c.score, c.name))
        if scored and scored[0].score >= MIN_SUPPORT and scored[0].cover >= MIN_COVERAGE:
            chosen, rejected = scored[0], tuple(scored[1:8])
            marks = cite(chosen.support[:3])
            first = f"The answer is {chosen.name}" + (f" {marks}" if marks else "") + "."
        else:
            rejected = tuple(scored[:8])
            best = f" (best candidate {scored[0].name}, score {scored[0].score:.3f})" if scored else ""
            first = f"The data does not answer the question: no {_wanted(qt)} in the retrieved evidence is supported well enough{best}."
    else:
        order = ranked_sentences()
        top = order[0] if order else None
        cover = q.coverage(sentences[top].tokens) if top is not None else 0.0
        if top is not None and cover >= MIN_COVERAGE:
            s = sentences[top]
            chosen = Candidate(s.text, None, round(cover, 6), (s.passage,), f"sentence covering {cover:.2f} of the question's terms")
            rejected = tuple(
                Candidate(sentences[k].text, None, round(q.coverage(sentences[k].tokens), 6), (sentences[k].passage,))
                for k in order[1:4] if q.coverage(sentences[k].tokens) > 0
            )
            body = s.text.rstrip()
            if qt.kind == "yes-no":
                body = ("No" if _NEGATION.search(s.text) else "Yes") + ": " + body
            marks = cite([s.passage])
            first = body if not marks else (body[:-1] + f" {marks}" + body[-1] if body[-1] in ".!?" else f"{body} {marks}")
        else:
            first = "The data does not answer the question: no retrieved passage covers enough of what it asks."
    evidence: list[tuple[int, str]] = []
    pool = ranked_sentences([k for k in range(len(sentences)) if chosen is None or sentences[k].passage in chosen.support] or None)
    seen: set[str] = {first}
    for k in pool:
        s = sentences[k]
        if s.text in seen or q.coverage(s.tokens) <= 0 or len(s.text) < 12:
            continue
        seen.add(s.text)
        evidence.append((s.passage, s.text))
        if len(evidence) >= max_evidence:
            break
    return Extraction(qt, first, chosen is not None, chosen, rejected, tuple(evidence), tuple(sources))


def _wanted(qt: QuestionType) -> str:
    if qt.kind == "how-many":
        return "number"
    if qt.kind == "when":
        return "time or event"
    if not qt.types:
        return "candidate"
    best = max(qt.types, key=lambda t: qt.types[t])
    return {"PERSON": "person", "ORGANIZATION": "organization", "GEO": "place", "EVENT": "event"}.get(best, best.lower())

