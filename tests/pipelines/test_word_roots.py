"""The answer step matches a question's words to its evidence's by their roots (the Snowball English
stemmer, irregular forms first taken to their word): the forms of one word meet, words that only
look alike do not."""

from __future__ import annotations

import pytest

from ragprov.llm.answer import extract_answer, root_tokens
from ragprov.llm.answer.words import _root
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("ANNA BELL", "PERSON"), Mention("CARL DUNN", "PERSON"), Mention("EVA FOX", "PERSON"))


@pytest.mark.parametrize("a, b", [
    ("lives", "living"), ("comes", "coming"), ("came", "coming"), ("took", "taking"), ("wrote", "written"),
    ("men", "man"), ("children", "child"), ("family", "familial"), ("mentorship", "mentor"),
    ("apprenticed", "apprentice"), ("experienced", "experience"), ("leadership", "leader"), ("leads", "leader"),
])
def test_the_forms_of_one_word_meet(a, b):
    assert _root(a) == _root(b)


@pytest.mark.parametrize("a, b", [
    ("shoulder", "should"), ("father", "fat"), ("manner", "man"), ("porter", "portly"), ("general", "generous"),
    ("worship", "wor"), ("likelihood", "like"), ("daughter", "daught"),
])
def test_words_that_only_look_alike_do_not(a, b):
    assert _root(a) != _root(b)


def test_root_tokens_are_the_roots_of_the_content_words_in_order():
    assert root_tokens("The clerks were living in Camden Town; Bob lived there too.") == [
        "clerk", "live", "camden", "town", "bob", "live"]


def ask(question: str, text: str) -> str:
    return extract_answer(question, [Passage(text, "c1", kind="chunk", mentions=PEOPLE)]).first_line


def test_a_question_verb_meets_its_other_forms_in_the_evidence():
    # "lives" meets "living" (the hand-written stripper cut "living" to "liv" and "lives" to "live")
    assert ask("Who lives by the old mill?",
               "Carl Dunn worked by the old mill all winter. Anna Bell was living by the old mill then.") == "The answer is Anna Bell [1]."


def test_a_noun_of_state_meets_its_noun():
    assert ask("Who was Eva Fox's mentor?",
               "Carl Dunn met Eva Fox at the station. Anna Bell showed Eva Fox a protective mentorship.") == "The answer is Anna Bell [1]."
