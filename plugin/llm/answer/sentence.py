"""Answers that are a sentence: the role a yes-no question asks of the one it names,
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
from .reasons import _ANAPHORIC, reason_weight
from .words import (
    _root,
    _roots,
    _Sentence,
    _sentences,  # noqa: F401 (a doctest example uses it)
    )

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


# Not :mod:`.antecedents`: "That is why …", "And that's worth …" point back at all the sentence before says, no
# person or thing it names, so the two are read as one.
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


def _sentence_score(s: _Sentence, q: _Question, qt: QuestionType) -> float:
    """How well a sentence answers a why / what / how question (a yes-no one: :func:`.yesno.statement_score`):
    its coverage of the question's terms, a little more for a why-question when it gives a reason.

    >>> q, qt = _Question("Why did Edgar leave the lighthouse?", ["Edgar"]), classify("Why did Edgar leave the lighthouse?")
    >>> s = _Sentence(0, "Edgar left the lighthouse because of the storm.", _roots("Edgar left the lighthouse because of the storm."))
    >>> round(_sentence_score(s, q, qt), 2), round(_sentence_score(s, q, classify("What did Edgar leave?")), 2)
    (1.15, 1.0)
    """
    cover = q.coverage(s.tokens)
    if qt.kind == "why" and reason_weight(s.text):
        return cover * 1.15
    return cover
