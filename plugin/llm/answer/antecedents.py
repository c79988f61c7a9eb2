"""Whom a person pronoun stands for, said once for the answer step: the narrator's pronoun a sentence opens
with (:func:`opening_pronoun`) looks back to the nearest sentence before it in its passage that names
someone (:func:`looked_back`, :func:`person_sentence`), and stands for a person that sentence names.

Each caller reads the person off that sentence in its own terms: the candidates' step by its first named
candidate, passing over a sentence that names only whom the question names (:func:`.candidates._resolve_pronouns`:
a chain of pronouns runs past it), the who-slot filler by its noun-phrase grammar
(:func:`.doers._named_before`), a yes-no question's score and the ranking of counts and times by its words
(:func:`.yesno.statement_score`, :func:`.rank._of_subject`).

Kept apart, as they ask something else: what a pronoun for a thing stands for ("pressed it down", "It was
locked": :func:`.slots._antecedent`, :func:`.yesno._antecedent`) and a sentence that points back at the whole
clause before it ("That is why …": :func:`.sentence._with_antecedents`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from ..text import content_tokens, split_sentences
from .lexicon import lemmas
from .question import _TITLES
from .words import _OBJECT_PRONOUNS, _POSSESSIVE_PRONOUNS, _SUBJECT_PRONOUNS, _Sentence

_T = TypeVar("_T")

#: how many sentences back a pronoun looks for the one that names whom it stands for
REACH = 2

#: a pronoun opening a sentence (past the marks that may open it: "(He …", "_He …_", "'He …"), or right
#: after the quotation that opens it ('"I've got this," they declared', "“I don’t know,” she said": a
#: "’" before a letter closes no quotation); a possessive one ("Their fingers paused …, whispering,
#: “…”") stands for the owner of what follows. One opening a quotation ('"They will …," Carl said') is
#: the speaker's, no mention of the person named before, though the sentence speaks of them
_OPENING = re.compile(r"^(?P<lead>[_*(\s'\"“‘]*)(?:[“\"‘'](?:[^”\"’]|’(?=\w))*[,!?…—-][”\"’']\s+(?P<q>he|she|they)"
                      r"|(?P<p>he|she|they|his|her|their))\b", re.I)

#: the third-person pronouns, by which a sentence speaks of someone (or something) its passage named before it
THIRD_PERSON = _SUBJECT_PRONOUNS | _OBJECT_PRONOUNS | _POSSESSIVE_PRONOUNS | {"hers"}


def opening_pronoun(text: str, spoken: bool = False) -> tuple[int, int] | None:
    """The span of the narrator's person pronoun a sentence opens with (:data:`_OPENING`), or None; with
    ``spoken``, one opening a quotation too (a speaker's pronoun speaks of someone named before, though it is no
    mention the narrator makes).

    >>> [opening_pronoun(t) for t in ("She left.", "“Go,” he said.", "(Their boat sank.)", "Then she left.")]
    [(0, 3), (6, 8), (1, 6), None]
    >>> opening_pronoun("“His boat,” said Ana."), opening_pronoun("“His boat,” said Ana.", spoken=True)
    (None, (1, 4))
    """
    m = _OPENING.match(text)
    if m is None or (not spoken and m.group("p") and re.search(r"[\"“‘']", m.group("lead"))):
        return None
    return m.span("p" if m.group("p") else "q")


def capitalised_as_first(word: str) -> bool:
    """Whether a sentence's first word is capitalised only for being first: an adverb in -ly or an inflected
    verb ("Suddenly", "Went", "Turning"). A verb's plain form may be a name ("Bob", "Will", "Jack").

    >>> [capitalised_as_first(w) for w in ("Suddenly", "Went", "Turning", "Bob", "Will", "Ines")]
    [True, True, True, False, False, False]
    """
    low = word.lower()
    forms = lemmas(low, "v")
    return low.endswith("ly") or (bool(forms) and low not in forms)


def is_name_word(word: str, first: bool) -> bool:
    """Whether a word of a sentence is a word of a name: capitalised, a content word, no title nor pronoun, and
    (``first``: the sentence's first word) not capitalised only for being first (:func:`capitalised_as_first`).

    >>> [is_name_word(w, False) for w in ("Ines", "Mr.", "She", "lamp")], is_name_word("Went", True), is_name_word("Bob", True)
    ([True, False, False, False], False, True)
    """
    return (word[:1].isupper() and bool(content_tokens(word)) and word.lower().rstrip(".") not in _TITLES | THIRD_PERSON
            and not (first and capitalised_as_first(word)))


def names_someone(sentence: str) -> bool:
    """Whether a sentence names someone: it has a word of a name (:func:`is_name_word`).

    >>> names_someone("Ines rose."), names_someone("She dressed."), names_someone("The cat met Oswin.")
    (True, False, True)
    >>> names_someone("Suddenly the bell rang."), names_someone("Bob came in.")
    (False, True)
    """
    return any(is_name_word(m.group(0), k == 0) for k, m in enumerate(re.finditer(r"[A-Za-z][\w'’-]*", sentence)))


def looked_back(before: Sequence[_T], names: Callable[[_T], bool]) -> int | None:
    """Which of the sentences ``before`` a sentence (in its passage, in order) a person pronoun in it looks
    back to: the nearest of the last :data:`REACH` that ``names`` someone (:func:`names_someone`; the
    candidates' step: one naming a candidate the question does not name), else the last; None when there is none.

    >>> looked_back(["Ines rose.", "She dressed."], names_someone), looked_back(["It woke."], names_someone)
    (0, 0)
    >>> looked_back(["Ines rose.", "The bell rang.", "It rang again."], names_someone), looked_back([], names_someone)
    (2, None)
    >>> looked_back(["Ines rose.", "Oswin came."], names=lambda s: "Ines" in s)
    0
    """
    for back in range(len(before) - 1, max(-1, len(before) - 1 - REACH), -1):
        if names(before[back]):
            return back
    return len(before) - 1 if before else None


def within_reach(sentences: Sequence[_Sentence], k: int) -> list[int]:
    """The indices of the sentences a pronoun in sentence ``k`` may look back to: the :data:`REACH` before it in its passage.

    >>> within_reach([_Sentence(0, "a", frozenset()), _Sentence(1, "b", frozenset()), _Sentence(1, "c", frozenset())], 2)
    [1]
    """
    return [j for j in range(max(0, k - REACH), k) if sentences[j].passage == sentences[k].passage]


def sentences_before(before: str) -> list[str]:
    """The sentences of the text before a sentence in its passage (``before``), split as the answer step splits
    passages (:func:`..text.split_sentences`: "Mr. Hale" is no sentence end).

    >>> sentences_before("Ines met Mr. Hale. She dressed. "), sentences_before("")
    (['Ines met Mr. Hale.', 'She dressed.'], [''])
    """
    text = before.strip()
    return [text[a:b].strip() for a, b in split_sentences(text)] or [""]


def person_sentence(before: str) -> str:
    """The sentence of the text before a sentence (``before``) that a person pronoun looks back to (:func:`looked_back`).

    >>> person_sentence("Ines rose. She dressed. "), person_sentence("The bell rang. "), person_sentence("")
    ('Ines rose.', 'The bell rang.', '')
    """
    sentences = sentences_before(before)
    back = looked_back(sentences, names_someone)
    return sentences[back] if back is not None else ""
