"""What-questions whose slot phrase was read from the wrong word or cut short (:mod:`ragprov.llm.answer.slots`):
after "is"/"was" the question's verb is a participle, and "do" or a later clause gives none; a possessive before a
gerund runs on through its clause; a contracted verb, or any inflected verb, opens no noun phrase; a pronoun object
stands for the last thing the sentence before named."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.answer.slots import fill, frame, slot_answer
from ragprov.llm.answer.words import _Sentence
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("EDGAR", "PERSON"), Mention("MIRA", "PERSON"))


def _chunk(text: str, source: str = "c1") -> Passage:
    return Passage(text, source, kind="chunk", mentions=PEOPLE)


def _s(text: str) -> _Sentence:
    return _Sentence(0, text, frozenset())


def test_after_is_or_was_the_verb_is_a_participle():
    assert frame("What language are the signs on the iron gates written in?").verbs == ("written",)
    assert frame("What colour are the keeper's eyes?") is None
    assert frame("What is Mira fiddling with?").verbs == ("fiddling",)


def test_a_possessive_before_a_gerund_runs_on_through_its_clause():
    ss = [_s("The girls smiled warmly at the thought of Nell's being a river pilot; and Nell frowned.")]
    found = slot_answer("What did the girls smile warmly at?", ss, [0], [0.5], 0.15)
    assert found == (0, 0, "the thought of Nell's being a river pilot")


def test_a_contracted_verb_opens_no_noun_phrase():
    s = _s("'If I'm right, what we're staring at isn't a storm—it's a signal.'")
    assert fill(frame("What are they staring at?"), s, frozenset({"stare"})) is None


def test_a_pronoun_object_stands_for_the_last_thing_the_sentence_before_named():
    ps = [_chunk("Ivo shuffled, and edged closer to the lantern. He had a sudden plan of signalling the boat with it, "
                 "and waking the crew below.")]
    found = extract_answer("What did Ivo have a sudden plan of signalling the boat with?", ps)
    assert found.first_line == "The answer is the lantern [1].", found.first_line


def test_a_question_asking_an_act_has_no_slot_and_a_later_clause_gives_no_verb():
    assert frame("What did Mira do when the storm came?") is None
    assert frame("What does Edgar do after the bell rings?") is None
    assert frame("What did Mira mend while the storm raged?").verbs == ("mend",)


def test_a_verb_after_the_anchor_is_no_object():
    ss = [_s("Before the play began, the guests sat down in the hall.")]
    assert slot_answer("What were the guests playing in the hall?", ss, [0], [0.5], 0.15) is None


def test_a_sentence_saying_the_asked_verb_itself_is_not_read_at_its_synonym():
    s = _s("Edgar had observed the crack at dawn, and at noon he noticed that the mast was bent.")
    assert fill(frame("What did Edgar notice about the mast?"), s, frozenset({"edgar", "notic", "mast"})) is None
    assert fill(frame("What did Edgar notice?"), _s("Edgar had observed the crack at dawn."), frozenset({"edgar", "notic"})) == "the crack"
    ps = [_chunk("Edgar had observed the crack at dawn, and at noon he noticed that the mast was bent.")]
    found = extract_answer("What did Edgar notice about the mast at noon?", ps)
    assert not found.first_line.startswith("The answer is") and "was bent" in found.first_line, found.first_line
