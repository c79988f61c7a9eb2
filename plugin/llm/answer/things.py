"""Things that are not names: noun phrases and the head noun a what-question asks for."""

from __future__ import annotations

import re

from ..text import STOPWORDS
from .lexicon import asked_noun
from .question import _HEAD_TYPES, QuestionType, classify
from .words import _AUXILIARIES, _root

#: a determiner and up to three lower-case words anywhere ("a small drone", "the word")
_NOUN_PHRASE = re.compile(r"(?<![\w'’])((?:[Tt]he|[Aa]n?|his|her|their|its|our|my|your)(?:\s+[a-z][\w'’-]*){1,3})")

def _thing_head(question: str, qt: QuestionType | None = None) -> str | None:
    """The head noun of a "what/which NOUN …" question that no entity type answers ("What creature
    hovered …?" → creature); None for "What does …", "What is …" and a typed head ("which company").

    >>> _thing_head("What creature hovered over the lab?"), _thing_head("Which tool did Mira use?")
    ('creatur', 'tool')
    >>> _thing_head("What does Mira use?"), _thing_head("Which company builds it?"), _thing_head("What Cratchit child?")
    (None, None, None)
    """
    w = asked_noun(question)  # the one parser of the head: a verb or a name after the wh-word is none
    if w is None:
        return None
    w = w.lower()
    if w in _AUXILIARIES or w in STOPWORDS or w in _HEAD_TYPES or w.rstrip("s") in _HEAD_TYPES:
        return None
    if (qt or classify(question)).kind not in ("what", "which"):  # the caller's parse when it has one
        return None
    return _root(w)
