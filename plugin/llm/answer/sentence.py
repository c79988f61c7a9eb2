"""Answers that are a sentence: the yes-no denial test, the role a yes-no question asks of the one it names,
sentences that point back to the one before them, and the score of a sentence for why / what / how."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from ..engine import Passage  # noqa: F401 (a doctest example uses it)
from .question import (
    QuestionType,
    _Question,
    classify,  # noqa: F401 (a doctest example uses it)
)
from .words import (
    _CLAUSE_MARK,
    _root,
    _roots,
    _Sentence,
    _sentences,  # noqa: F401 (a doctest example uses it)
    _word_roots,
)

#: the words that deny what follows them in their clause
_DENIALS = frozenset("not never no none nobody nothing neither nor cannot nowhere without "
                     # verbs that deny the act after them ("refused to give money", "failed to see")
                     "refuse refused refuses refusing fail failed fails failing decline declined declines declining "
                     "deny denied denies denying".split())

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
            out[k] = _Sentence(s.passage, text, before.tokens | s.tokens, before.before, s.after, s.paragraph)
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
