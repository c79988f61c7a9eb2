"""Questions whose wh-word is not their first word: a frame before the wh-clause ("In the scene where …,
who …?", "According to X, why …?", "During …, where …?"), a phrase set off by commas after it ("Where, at
the feast, did …?") and a preposition before a bare what ("Into what …?"). The wh-clause decides the kind
and the slot asked; the frame's terms find the scene but weigh less than the clause's."""

from __future__ import annotations

import pytest

from ragprov.llm.answer import classify, extract_answer
from ragprov.llm.answer.question import FRAME, _Question, asked_form, wh_clause
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("Tom", "PERSON"), Mention("Anna", "PERSON"), Mention("Peter", "PERSON"))

STORY = [Passage("At the feast in the castle, Tom hid the key inside the old clock. The wizard turned the frog into a golden "
                 "carp. The bell rang at midnight and the girl saw a white owl on the roof. The baker sang loudly in the "
                 "square while Peter carried the lantern.", "tale, chunk 1", kind="chunk", mentions=PEOPLE)]


@pytest.mark.parametrize(("question", "kind"), [
    ("In the scene where the baker sings, who carries the lantern?", "who"),  # not "where": a relative in the frame
    ("During the feast at the castle, where did Tom hide the key?", "where"),
    ("According to the old sailor, why did the ship sink?", "why"),
    ("At the end of the play, how many candles are still burning?", "how-many"),
    ("When the bell rang at midnight, what did the girl see?", "what"),  # a when-clause frame: no when-question
    ("Where, at the feast, did Tom hide the key?", "where"),
    # the first ", wh-word" opens the clause; a later relative or when-clause belongs to it
    ("According to the old sailor, why did the ship sink, when the sea was calm?", "why"),
    ("At the market, what did Anna buy from the stall, which stood by the well?", "what"),
    ("In the scene where the baker sings, who carries the lantern, and why?", "who"),  # a comma inside the clause
])
def test_the_wh_clause_decides_the_kind(question, kind):
    assert classify(question).kind == kind


def test_the_frame_is_split_from_the_wh_clause():
    assert wh_clause("After the storm ended, what did Mira find?") == ("After the storm ended", "what did Mira find?")
    assert wh_clause("Where, at the feast, did Tom sit?") == ("at the feast", "Where did Tom sit?")
    assert wh_clause("What did Mira find after the storm ended?") == ("", "What did Mira find after the storm ended?")
    assert wh_clause("After the storm ended, did Mira stay?")[0] == ""  # a yes-no question's opening phrase: no frame here
    assert wh_clause("According to Anna, why did Tom leave, when the bell rang?") == (
        "According to Anna", "why did Tom leave, when the bell rang?")


def test_a_preposition_before_a_bare_what_is_read_at_the_clause_end():
    assert asked_form("Into what did the wizard turn the frog?") == "What did the wizard turn the frog into?"
    assert asked_form("In which room did they meet?") == "In which room did they meet?"  # a which-noun stays
    # the moved preposition ends the clause's first part, before what a comma adds
    assert asked_form("Into what did the wizard turn the frog, and why?") == "What did the wizard turn the frog into, and why?"


def test_the_frame_weighs_less_than_the_wh_clause():
    framed = _Question("At the feast in the castle, who hid the key?", [])
    plain = _Question("Who hid the key at the feast in the castle?", [])
    assert framed.weight["feast"] == pytest.approx(FRAME * plain.weight["feast"])
    assert framed.weight["key"] == pytest.approx(plain.weight["key"])
    aside = _Question("Where, at the feast, did Tom hide the key?", ["Tom"])
    assert aside.weight["feast"] < aside.weight["key"]


def test_a_yes_no_question_has_no_frame_to_weigh_less():
    # "In the end, is …, which …?": a relative after the yes-no clause is no wh-clause; every term weighs in full
    framed = _Question("In the end, is the baker cheerful, which pleases the town?", [])
    assert framed.weight["cheer"] == pytest.approx(framed.weight["town"])


def test_a_framed_who_question_names_the_doer_not_a_place():
    found = extract_answer("In the scene where the baker sings, who carries the lantern?", STORY)
    assert found.qtype.kind == "who" and found.first_line.startswith("The answer is Peter"), found.first_line


def test_a_framed_where_question_names_the_place():
    found = extract_answer("During the feast at the castle, where did Tom hide the key?", STORY)
    assert found.first_line.startswith("The answer is old clock"), found.first_line


def test_a_what_after_a_preposition_names_its_object():
    found = extract_answer("Into what did the wizard turn the frog?", STORY)
    assert found.first_line.startswith("The answer is a golden carp"), found.first_line


def test_a_what_question_whose_subject_is_a_person_noun_asks_no_person():
    assert classify("What did the girl see on the roof?").types == {}
    found = extract_answer("When the bell rang at midnight, what did the girl see on the roof?", STORY)
    assert "owl" in found.first_line and "Peter" not in found.first_line, found.first_line
