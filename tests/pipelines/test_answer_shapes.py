"""Question shapes that say what they ask in another order than "WH AUX SUBJECT VERB …?": a frame holding a
relative clause or an aside set off by commas ("After Tom, who was tall, left, what …?"), "which of the Ns", a
wh-word left at the end of a statement ("The baker gave it to whom?"), a
cleft ("Who was it that …?", "What was it the miller found?"), a passive asking its agent ("By whom was the mill
built?"), a preposition left at the end of a who-question ("Who did Tom go with?"), "turn out / seem to",
and a question asking what follows an event ("How did X react when …?"), which the next sentence tells."""

from __future__ import annotations

import pytest

from ragprov.llm.answer import classify, extract_answer
from ragprov.llm.answer.question import asked_form, wh_clause
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("Tom", "PERSON"), Mention("Mira", "PERSON"))

STORY = [Passage("At the fair in the village, the miller found a silver ring in the sack. The baker gave the warm loaf to the "
                 "shepherd. The old mill by the river was built by the carpenter's son. Tom went to the dance with his cousin "
                 "the weaver. The noise in the cellar turned out to be a stray goat. Mira hid the lantern under the stairs.",
                 "tale, chunk 1", kind="chunk", mentions=PEOPLE)]


@pytest.mark.parametrize(("question", "frame", "clause"), [
    # a relative clause set off by commas belongs to the frame: the frame's own clause goes on after it
    ("After the mayor, who was late, reached the hall, where did he sit?",
     "After the mayor, who was late, reached the hall", "where did he sit?"),
    ("When the mayor, whose coat was wet, reached the hall, whom did he greet?",
     "When the mayor, whose coat was wet, reached the hall", "whom did he greet?"),
    # an aside set off by commas inside a when-clause
    ("When the clerk, shivering, asks for coal, what does the master say?",
     "When the clerk, shivering, asks for coal", "what does the master say?"),
])
def test_a_frame_may_hold_a_clause_set_off_by_commas(question, frame, clause):
    assert wh_clause(question) == (frame, clause)


def test_the_kind_is_the_wh_clause_s_not_the_relative_s():
    assert classify("After the mayor, who was late, reached the hall, where did he sit?").kind == "where"
    assert classify("Before Anna, who had no coat, went home, what did she buy?").kind == "what"


def test_a_statement_before_the_question_is_its_frame():
    assert wh_clause("Tom hides a key in the hall; where does he put it?") == ("Tom hides a key in the hall", "where does he put it?")
    assert classify("Anna finds a coin in the hay. Where does she take it?").kind == "where"


@pytest.mark.parametrize(("question", "asked"), [
    ("At the fair, the baker gave the warm loaf to whom?", "whom did the baker give the warm loaf to?"),
    ("The lantern is twice the size of what?", "What is the lantern twice the size of?"),
    ("Who is it that keeps the keys?", "Who keeps the keys?"),
    ("What was it the old miller found in the sack?", "What did the old miller find in the sack?"),
    ("What is it that Anna had hidden under the stairs?", "What had Anna hidden under the stairs?"),
    ("By whom were the letters signed and sealed?", "Who signed and sealed the letters?"),
    ("Who was the gate opened by?", "Who opened the gate?"),
    ("What does the parcel turn out to hold?", "What does the parcel hold?"),
    ("What did the shadow turn out to be?", "What was the shadow?"),
    ("Which of the old sailors sang the song?", "Which old sailors sang the song?"),
])
def test_the_asked_form_says_the_question_in_wh_order(question, asked):
    assert asked_form(question) == asked


@pytest.mark.parametrize(("question", "answer"), [
    ("Who was it that gave the warm loaf to the shepherd?", "baker"),
    ("By whom was the old mill by the river built?", "carpenter's son"),
    ("Who did Tom go to the dance with?", "cousin the weaver"),
    ("Whom did Tom go to the dance with, when the fair was over?", "cousin the weaver"),
    ("To whom did the baker give the warm loaf?", "shepherd"),
    ("With whom did Tom go to the dance?", "cousin the weaver"),
])
def test_the_answer_is_the_one_asked(question, answer):
    found = extract_answer(question, STORY)
    assert answer in found.first_line, (question, found.first_line)


EVENTS = [Passage("The mill stood by the river. At noon the great bell of the tower rang out over the square. Anna dropped her "
                  "basket and wept. Later the miller closed his shutters.", "tale, chunk 2", kind="chunk",
                  mentions=(Mention("Anna", "PERSON"),))]


@pytest.mark.parametrize("question", ["How did Anna react when the great bell of the tower rang out at noon?",
                                      "What happened when the great bell of the tower rang out over the square?"])
def test_what_follows_an_event_is_told_by_the_next_sentence(question):
    found = extract_answer(question, EVENTS)
    assert "dropped her basket" in found.first_line, found.first_line
