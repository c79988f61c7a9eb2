"""When-questions and "In which chapter …?" end to end through :func:`extract_answer`: a deictic time
named by the calendar, the part of the book a heading places the act in, the event an act follows,
the date closing a section — each with a question the rule must leave alone."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.engine import Passage

_DIALOGUE = Passage("'What's to-day?' cried Scrooge, calling downward to a boy in Sunday clothes. 'EH?' returned the boy. "
                    "'To-day!' replied the boy. 'Why, CHRISTMAS DAY.' Scrooge laughed.", "c1")


def test_a_deictic_time_takes_the_calendar_name_said_just_after_it():
    found = extract_answer("When does Scrooge call down to the boy in Sunday clothes?", [_DIALOGUE])
    assert found.answered and found.chosen is not None and found.chosen.name == "CHRISTMAS DAY", found.first_line


def test_a_deictic_time_with_no_calendar_name_after_it_stays_itself():
    p = Passage("'What's to-day?' cried Scrooge, calling downward to a boy in Sunday clothes. 'EH?' returned the boy.", "c1")
    found = extract_answer("When does Scrooge call down to the boy in Sunday clothes?", [p])
    assert found.chosen is None or "christmas" not in found.chosen.name.lower(), found.first_line


_CHAPTERS = Passage("## Chapter 1\n\nThe team met. Inside a secluded equipment bay, Cruz began checking over gear.\n\n"
                    "## Chapter 2\n\nSam Rivera sat alone in a cramped office with a dozen servers.", "c2")


def test_the_chapter_is_the_heading_before_the_best_aligned_sentence():
    found = extract_answer("In which chapter does Cruz check the gear in the equipment bay?", [_CHAPTERS])
    assert found.first_line.startswith("The answer is Chapter 1"), found.first_line
    found = extract_answer("In which chapter does Sam sit in the cramped office?", [_CHAPTERS])
    assert found.first_line.startswith("The answer is Chapter 2"), found.first_line


def test_a_chapter_nothing_aligns_with_is_not_answered():
    found = extract_answer("In which chapter does the general launch the missiles?", [_CHAPTERS])
    assert "Chapter" not in found.first_line, found.first_line


_ELEVATOR = Passage("The exchange was cut short by a shudder that ran through the elevator, subtle.\n\n"
                    "Cruz was the first to react. \"Systems check. Now,\" Cruz barked out, masking the moment.", "c3")


def test_an_act_no_time_is_said_for_follows_the_event_introduced_before_it():
    found = extract_answer("When did Cruz bark out the order 'Systems check. Now'?", [_ELEVATOR])
    assert found.answered and "shudder" in found.first_line, found.first_line


def test_a_when_question_about_no_ones_act_gets_no_event():
    found = extract_answer("When did the exchange happen in the elevator?", [_ELEVATOR])
    assert "shudder" not in found.first_line, found.first_line


_FRONT = Passage("Title: A Christmas Carol. Release date: December 24, 2007 [eBook #1] Language: English. "
                 "PRINTED IN BRITAIN PREFACE I have endeavoured in this Ghostly little book to raise the Ghost of an Idea. "
                 "May it haunt their house pleasantly. Their faithful Friend, C. D. _December, 1843._ "
                 "CHARACTERS Bob Cratchit, clerk to Ebenezer Scrooge.", "c4")


def test_a_date_closing_a_section_dates_it():
    found = extract_answer("When is the preface of the book dated?", [_FRONT])
    assert found.first_line.startswith("The answer is December, 1843"), found.first_line


def test_a_date_closing_no_section_the_question_names_does_not_win():
    found = extract_answer("When was the eBook released?", [_FRONT])
    assert "2007" in found.first_line, found.first_line


_GOOD_DAYS = Passage("Once upon a time, of all the good days in the year, on Midsummer Eve, the old captain sat busy in his cabin.", "c5")


def test_a_sentence_saying_the_asked_unit_speaks_of_such_a_time():
    other = Passage("The log records a storm on the twenty-fifth of December.", "c6")
    found = extract_answer("On what day of the year does the voyage begin?", [other, _GOOD_DAYS])
    assert found.first_line.startswith("The answer is Midsummer Eve"), found.first_line


def test_the_asked_unit_alone_does_not_outweigh_the_act_told():
    told = Passage("The voyage began on the twenty-fifth of December, in the rain.", "c7")
    found = extract_answer("On what day of the year does the voyage begin?", [_GOOD_DAYS, told])
    assert "December" in found.first_line, found.first_line
