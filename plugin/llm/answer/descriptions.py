"""A description that identifies whom a question asks about: "Who was the old dealer who bought the dead
man's belongings …?", "What is the name of the laundress who brought sheets, towels and teaspoons …?".

Such a question names the one it asks about by what it did or underwent (its relative clause), and
the evidence often says that in other words than the question's role noun ("a grey-haired rascal …
buying stolen … items" for "the old dealer who bought …") or with another form of its verb ("relief"
for "was relieved"). The role noun or the act said of a name is then not the only witness that the
evidence states what is asked of it: the clause itself, said where the name is — in a sentence naming
it, a short passage about it, or the sentences right after one naming it that name no one else
("Mrs. Dilber was next. Sheets and towels, … two old-fashioned silver teaspoons …") — is one too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Mapping, Sequence

from ..text import STOPWORDS
from .evidence import _tied, decayed_weight
from .question import _as_who, _Question
from .records import _Cand
from .words import _AUXILIARIES, _POSSESSIVE_END, _WORD, WINDOW, _root, _Sentence

#: "Who is/was the [modifiers] N who/that/whose CLAUSE?" (a "What is the name of …?" question read as "Who is …?")
_DESCRIBED = re.compile(r"^\s*who\s+(?:is|was|are|were)\s+(?:the|an?)\s+(?P<np>(?:[\w'’-]+,?\s+){1,5}?)(?P<rel>who|that|whose)\s+"
                        r"(?P<clause>.+?)[\s?.!]*$", re.I)

#: adverbs that may stand before a clause's verb ("who later married", "who then ran") or a noun phrase
#: (:mod:`.doers`: "then the clerk")
_ADVERBS = frozenset("also later then once still never finally soon first just only always often now at last again "
                     "ever already presently suddenly quickly slowly long ago".split())

#: how many nameless sentences after one naming a candidate still tell of it (the scene goes on about it)
SCENE_SENTENCES = 2


@dataclasses.dataclass(frozen=True)
class Description:
    """A question's relative clause: the root of its verb and the roots of its other content words."""

    verb: str
    terms: frozenset[str]
    head: str = ""  # the root of the noun it describes, when that is a role ("laundress"), not a bare "man" or "woman"
    owner: frozenset[str] = frozenset()  # the roots of the noun's possessor ("the debtor's wife": "debtor")


def description(question: str) -> Description | None:
    """The relative clause a "Who is the N who …?" or "What is the name of the N who …?" question asks by;
    None when it has none. The question's names ("Scrooge") are no terms: they say whom the act
    concerns, which :class:`~.question._Question` weighs already.

    >>> d = description("What is the name of the laundress who brought sheets, towels and silver teaspoons to sell?")
    >>> d.verb, sorted(d.terms)
    ('bring', ['sell', 'sheet', 'silver', 'teaspoon', 'towel'])
    >>> description("What is the first name of the debtor's wife who was relieved to hear the creditor had died?").verb
    'reliev'
    >>> sorted(description("What is the name of the elite group whose members convene in the briefing room?").terms)
    ['brief', 'member', 'room']
    >>> description("Who is the captain of the whaling ship?"), description("What is the name of the man Belle married?")
    (None, None)
    >>> sorted(description("Who was the young woman who released Scrooge and later married another man?").terms)
    ['anoth', 'man', 'marri']
    """
    m = _DESCRIBED.match(_as_who(" ".join(question.split())))
    if m is None:
        return None
    words = re.findall(r"[A-Za-z][\w'’-]*", m.group("clause"))
    if m.group("rel").lower() == "whose":
        words = words[1:] if words else words  # "whose members convene": the possessed noun, then the verb
        head = m.group("clause").split()[0] if m.group("clause").split() else ""
    else:
        head = ""
    verb, terms = "", set()
    for w in words:
        low = w.lower()
        if w[:1].isupper() or low in STOPWORDS or low in _AUXILIARIES:
            continue  # a name, a function word, an auxiliary
        if low in _ADVERBS:
            continue
        for part in re.split(r"[-'’]", low):
            if not part or part in STOPWORDS or len(part) < 3:
                continue
            if not verb:
                verb = _root(part)
            else:
                terms.add(_root(part))
    if head:
        terms.add(_root(head.lower()))
    terms.discard(verb)
    if not verb:
        return None
    np = m.group("np").replace(",", " ").split()
    head = re.sub(r"['’]s?$", "", np[-1]).lower() if np else ""
    owner = frozenset(_root(re.sub(r"['’]s?$", "", w).lower()) for w in np[:-1] if re.search(r"['’]s?$", w) and w[:1].islower())
    return Description(verb, frozenset(terms), "" if head in _ANYONE else _root(head), owner)


#: nouns that describe anyone: said of a name, they do not say it is the one the question describes
_ANYONE = frozenset("man men woman women person people one boy girl child children lady gentleman fellow someone thing".split())


def named_by_head(d: Description, hits: Sequence[tuple[int, int, int]], sentences: Sequence[_Sentence]) -> bool:
    """Whether a sentence names a candidate as what the question describes — its role noun as the
    name's predicate or in apposition to it, with the noun's possessor in the sentence ("Caroline, wife
    of one of Scrooge's debtors" for "the debtor's wife who …"; "Mrs. Dilber, a laundress"): that says
    who it is, though not what the clause says of it. A noun that describes anyone ("the young woman
    who …") names no one by itself.

    >>> from ragprov.llm.answer.words import _sentences
    >>> from ragprov.llm.engine import Passage
    >>> ss = _sentences([Passage("Caroline, wife of one of Scrooge's debtors. Belle, a wife and mother.", "c")])
    >>> d = description("What is the first name of the debtor's wife who was relieved to hear the creditor had died?")
    >>> d.head, sorted(d.owner), named_by_head(d, [(0, 0, 8)], ss), named_by_head(d, [(1, 0, 5)], ss)
    ('wife', ['debtor'], True, False)
    >>> named_by_head(description("Who was the young woman who released Scrooge from their engagement?"), [(0, 0, 8)], ss)
    False
    """
    if not d.head:
        return False
    for k, a, b in hits:
        tokens = sentences[k].tokens
        if d.head in tokens and d.owner <= tokens and _tied(sentences[k].text, a, b, {d.head}):
            return True
    return False


def _kin(a: str, b: str) -> bool:
    """Whether two word roots are one word's forms: equal, one the other's beginning when long enough
    to tell ("deliver", "deliveri"), or a verb's and its noun's that end in v and f ("reliev" and "relief",
    "griev" and "grief"); not "die" and "dig", nor "convey" and "conven".

    >>> _kin("reliev", "relief"), _kin("die", "dig"), _kin("convey", "conven"), _kin("deliver", "deliveri")
    (True, False, False, True)
    """
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if len(short) >= 5 and long.startswith(short):
        return True
    return len(a) == len(b) >= 4 and a[:-1] == b[:-1] and {a[-1], b[-1]} == {"v", "f"}


def _has(tokens: Collection[str], root: str) -> bool:
    return root in tokens or any(_kin(root, t) for t in tokens if t[:1] == root[:1])


def says(d: Description, tokens: Collection[str]) -> bool:
    """Whether a text (its word roots) says the clause: its verb and one more of its words, or —
    in other words than its verb — at least three of its other words and three quarters of them.

    >>> d = description("What is the name of the laundress who brought sheets, towels and silver teaspoons to sell?")
    >>> says(d, {"next", "sheet", "towel", "silver", "teaspoon", "boot"}), says(d, {"sheet", "towel", "bring"})
    (True, True)
    >>> says(d, {"sheet", "towel", "bed"}), says(d, {"bring", "bundl"})  # must NOT: too little of it
    (False, False)
    """
    others = sum(1 for t in d.terms if _has(tokens, t))
    if _has(tokens, d.verb):
        return others >= 1
    return len(d.terms) >= 3 and 4 * others >= 3 * len(d.terms)


def said_of(d: Description, hits: Sequence[tuple[int, int, int]], sentences: Sequence[_Sentence],
            named_at: Mapping[int, Collection[tuple[int, int]]]) -> bool:
    """Whether the clause is said of a candidate: in a sentence naming it (``hits``) together with the
    nameless sentences of its passage right after it (up to :data:`SCENE_SENTENCES`; ``named_at``: the
    sentences that name anyone, with the spans of the names). The one a "who/that …" clause describes
    does its act: where the sentence has the clause's verb, the name is the last before it, as its
    subject ("MRS. DILBER → OLD JOE: Mrs. Dilber brings stolen goods to Old Joe to sell" says the
    bringing of Mrs. Dilber, not of Old Joe).

    >>> from ragprov.llm.answer.words import _sentences
    >>> from ragprov.llm.engine import Passage
    >>> ss = _sentences([Passage("Mrs. Dilber was next. Sheets and towels, and two silver teaspoons. Joe paid.", "c")])
    >>> d = description("What is the name of the laundress who brought sheets, towels and silver teaspoons to sell?")
    >>> said_of(d, [(0, 0, 11)], ss, {0: [(0, 11)], 2: [(0, 3)]}), said_of(d, [(2, 0, 3)], ss, {0: [(0, 11)], 2: [(0, 3)]})
    (True, False)
    >>> said_of(d, [(0, 0, 11)], ss, {0: [(0, 11)], 1: [(0, 6)], 2: [(0, 3)]})  # must NOT: the list follows one naming another
    False
    >>> ss = _sentences([Passage("OLD JOE: Mrs. Dilber brings sheets and towels to Old Joe to sell.", "c")])
    >>> spans = {0: [(0, 7), (9, 20), (49, 56)]}
    >>> said_of(d, [(0, 9, 20)], ss, spans), said_of(d, [(0, 0, 7)], ss, spans), said_of(d, [(0, 49, 56)], ss, spans)
    (True, False, False)
    """
    return any(said_in(d, hit, sentences, named_at) for hit in hits)


def said_in(d: Description, hit: tuple[int, int, int], sentences: Sequence[_Sentence],
            named_at: Mapping[int, Collection[tuple[int, int]]]) -> frozenset[str]:
    """The word roots of the text that says the clause of the name at ``hit`` (its sentence and the
    nameless ones after it, see :func:`said_of`); empty when it does not say it there."""
    k, _, b = hit
    s = sentences[k]
    if _has(s.tokens, d.verb) and not any(
            m.start() >= b and _kin(_root(m.group(0).lower()), d.verb)
            and not any(b <= x and y <= m.start() for x, y in named_at.get(k, ()))  # no other name between
            for m in _WORD.finditer(s.text)):
        return frozenset()  # the act is said, but not with this name as its subject
    tokens = set(s.tokens)
    for j in range(k + 1, min(len(sentences), k + 1 + SCENE_SENTENCES)):
        if sentences[j].passage != s.passage or j in named_at:
            break
        tokens |= sentences[j].tokens
    return frozenset(tokens) if says(d, tokens) else frozenset()


#: how well a sentence naming no one must match the question, against the best-matching sentence, to be
#: a description of whom the next sentence names (:func:`resolve_scene`)
SCENE_ALIGNED = 0.8


#: what stands before a name a sentence identifies someone by: "it's (dear old) X", "that was X", "his name is X", "named X"
_IDENTIFIED = re.compile(r"(?:\b(?:it|that|this|he|she|there)\s*(?:['’]s|\s+is|\s+was)|\bnamed|\bcalled|\bname\s+(?:is|was))"
                         r"\s+(?:[a-z][\w-]*\s+){0,3}$", re.I)


def resolve_scene(cands: Mapping[str, _Cand], sentences: Sequence[_Sentence], q: _Question, eligible: Callable[[_Cand], bool]) -> None:
    """A sentence that says what the question asks but names no one — a description ("Suddenly a man in
    foreign garments … stood outside the window, with an axe stuck in his belt") — speaks of the person
    the next sentence of its passage names first, when it names them by identifying someone ("'Why, it's
    Ali Baba!' Scrooge exclaimed"; "that was X", "his name is X", "named X"): the name the scene introduces.
    A name merely next (the one who answers in a dialogue) is not it. That name gets a mention in the description, where its words match the
    question best. Only a sentence aligned with the question about as well as the best one
    (:data:`SCENE_ALIGNED`) counts; a name the question uses, or one that is no person
    (``eligible``), is not the one described; a possessor ("Scrooge's") is not either.

    >>> from ragprov.llm.answer.words import _sentences
    >>> from ragprov.llm.engine import Passage
    >>> ss = _sentences([Passage("A man stood outside the window with an axe. 'It's Ali Baba!' cried Scrooge. Fan came.", "c")])
    >>> cands = {n: _Cand(n.lower(), n, "PERSON") for n in ("Ali Baba", "Scrooge", "Fan")}
    >>> for c in cands.values():
    ...     c.hits.extend((k, m.start(), m.end()) for k, s in enumerate(ss) for m in re.finditer(c.name, s.text))
    >>> q = _Question("Who stood outside the window with an axe, as Scrooge saw?", ["Scrooge", "Ali Baba", "Fan"], ss)
    >>> resolve_scene(cands, ss, q, lambda c: q.overlap(c.name) < 1)
    >>> [(n, [k for k, _, _ in c.hits]) for n, c in cands.items()]
    [('Ali Baba', [1, 0]), ('Scrooge', [2]), ('Fan', [3])]
    >>> two = _sentences([Passage("A man stood outside the window with an axe. Ali Baba laughed.", "c")])
    >>> one = {"ali baba": _Cand("ali baba", "Ali Baba", "PERSON", hits=[(1, 0, 8)])}
    >>> resolve_scene(one, two, q, lambda c: True); one["ali baba"].hits  # must NOT: the next sentence does not identify him
    [(1, 0, 8)]
    >>> q = _Question("Who came?", ["Scrooge", "Ali Baba", "Fan"], ss)  # must NOT: no sentence naming no one says it
    >>> resolve_scene(cands, ss, q, lambda c: q.overlap(c.name) < 1); [k for k, _, _ in cands["Fan"].hits]
    [3]
    """
    cover = [q.describes(s.tokens) for s in sentences]
    top = max(cover, default=0.0)
    if top <= 0:
        return
    named: dict[int, list[tuple[int, int, _Cand]]] = {}
    for c in cands.values():
        for k, a, b in c.hits:
            named.setdefault(k, []).append((a, b, c))
    for k, s in enumerate(sentences):
        if cover[k] < SCENE_ALIGNED * top or k + 1 >= len(sentences) or sentences[k + 1].passage != s.passage:
            continue
        if any(eligible(c) for _, _, c in named.get(k, ())):
            continue  # the sentence names someone who may be the answer: no description without a name
        nxt = sentences[k + 1].text
        following = sorted(((a, b, c) for a, b, c in named.get(k + 1, ()) if eligible(c)), key=lambda f: f[0])
        first = following[0] if following else None
        if first is not None and _IDENTIFIED.search(nxt, 0, first[0]) and not _POSSESSIVE_END.search(nxt[first[0] : first[1]]):
            at = _best_window(s, q)
            first[2].hits.append((k, at, at))


def _best_window(s: _Sentence, q: _Question) -> int:
    """Where in a sentence the question's descriptive terms stand closest together: the start of the word
    around which their weight, each counted less the further it stands (as :func:`~.evidence._near`
    counts it), is greatest.

    >>> from ragprov.llm.answer.words import _sentences
    >>> from ragprov.llm.engine import Passage
    >>> s = _sentences([Passage("A man, real and distinct to look at, stood outside the window.", "c")])[0]
    >>> s.text[_best_window(s, _Question("Who stood outside the window?", [], [s])):]
    'the window.'
    """
    starts, _, roots = s.words
    best, at = -1.0, 0
    for i in range(len(roots)):
        distance: dict[str, int] = {}
        for j in range(max(0, i - WINDOW), min(len(roots), i + WINDOW + 1)):
            for r in roots[j]:
                if r in q.weight:
                    distance[r] = min(distance.get(r, WINDOW + 1), abs(i - j))
        score = sum(decayed_weight(q.weight[t], d) for t, d in distance.items())
        if score > best:
            best, at = score, starts[i]
    return at
