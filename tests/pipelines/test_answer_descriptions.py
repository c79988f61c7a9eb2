"""Descriptions: a question that identifies whom it asks about by a relative clause ("the laundress who
brought sheets …") is answered by the name the clause is said of — in its sentence, in the nameless
sentences after it, or by the name the next sentence identifies — and not by a name merely beside it."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.engine import Mention, Passage

_PEOPLE = (Mention("MRS. DILBER", "PERSON"), Mention("OLD JOE", "PERSON"), Mention("ALI BABA", "PERSON"),
           Mention("SCROOGE", "PERSON"))


def _chunk(text: str) -> Passage:
    return Passage(text, "carol, chunk 30", kind="chunk", mentions=_PEOPLE)


def test_the_clause_said_after_the_name_answers():
    ps = [_chunk("Old Joe sat by the stove and lit his pipe. Mrs. Dilber was next. Sheets and towels, a little "
                 "wearing apparel, two old-fashioned silver teaspoons, and a few boots. Joe chalked the sums on the wall.")]
    found = extract_answer("What is the name of the laundress who brought sheets, towels and silver teaspoons to sell?", ps)
    assert found.first_line.startswith("The answer is Mrs. Dilber"), found.first_line


def test_a_name_the_clause_is_not_said_of_does_not_answer():
    # the sheets follow a sentence naming Joe, not her: nothing says she brought them
    ps = [_chunk("Mrs. Dilber laughed at the door. Old Joe was next. Sheets and towels, two silver teaspoons, and a few boots.")]
    found = extract_answer("What is the name of the laundress who brought sheets, towels and silver teaspoons to sell?", ps)
    assert not found.first_line.startswith("The answer is Mrs. Dilber"), found.first_line


def test_the_name_the_next_sentence_identifies_answers():
    ps = [_chunk("The Ghost pointed to the boy reading near the fire. Suddenly a man in foreign garments stood outside the "
                 "window, with an axe stuck in his belt, and leading an ass laden with wood. 'Why, it's Ali Baba!' Scrooge "
                 "exclaimed in ecstasy.")]
    found = extract_answer("Which storybook figure, with an axe in his belt and an ass laden with wood, appeared outside "
                           "the window?", ps)
    assert found.first_line.startswith("The answer is Ali Baba"), found.first_line


def test_a_name_merely_next_is_not_identified():
    ps = [_chunk("The Ghost pointed to the boy reading near the fire. Suddenly a man in foreign garments stood outside the "
                 "window, with an axe stuck in his belt, and leading an ass laden with wood. Ali Baba laughed at the boy.")]
    found = extract_answer("Which storybook figure, with an axe in his belt and an ass laden with wood, appeared outside "
                           "the window?", ps)
    assert not found.first_line.startswith("The answer is Ali Baba"), found.first_line


def test_the_recorded_why_says_a_name_ranks_first_for_being_identified_by_the_description():
    ps = [_chunk("Old Joe sat by the stove and lit his pipe. Mrs. Dilber was next. Sheets and towels, a little wearing "
                 "apparel, two old-fashioned silver teaspoons, and a few boots. Old Joe chalked the sums for the sheets, "
                 "towels and teaspoons on the wall. Old Joe said the towels were worth nothing.")]
    found = extract_answer("What is the name of the laundress who brought sheets, towels and silver teaspoons to sell?", ps)
    assert found.chosen is not None and found.chosen.name == "Mrs. Dilber", found.first_line
    assert found.chosen.why.endswith("; identified by the question's description: ranks before those that are not"), found.chosen.why
    assert [c.why.endswith("not identified by the question's description: ranks after those that are")
            for c in found.rejected if c.name == "Old Joe"] == [True]
