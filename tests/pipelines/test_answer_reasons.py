"""Why-questions answered by the reason the evidence gives (:mod:`ragprov.llm.answer.reasons`): a
causal connective in the sentence stating what is asked, a sentence after it pointing back with the
reason, a dialogue turn answering a quoted why — and none of these where the form is absent."""

from __future__ import annotations

from ragprov.llm.answer import classify, extract_answer
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("EDGAR", "PERSON"), Mention("MIRA", "PERSON"))


def _chunk(text: str, source: str = "c1") -> Passage:
    return Passage(text, source, kind="chunk", mentions=PEOPLE)


def test_a_reply_to_a_quoted_why_answers_with_the_exchange():
    ps = [_chunk("'You keep the lamp lit all night,' said Mira.\n\n'Tell me why?'\n\n"
                 "'The fishing boats come home in the dark,' replied Edgar.\n\nMira nodded and left the lamp burning all night.")]
    found = extract_answer("Why does Edgar keep the lamp lit all night?", ps)
    assert found.first_line == "'Tell me why?' 'The fishing boats come home in the dark,' replied Edgar [1].", found.first_line


def test_a_reply_saying_because_beats_a_plain_reply_and_a_why_asked_back_is_no_answer():
    ps = [_chunk("'Why?'\n\n'Why did you marry?' said Edgar.\n\n'Because I fell in love,' said Mira.\n\n"
                 "'Why marry at all?' said Edgar.\n\n'Good night,' said Mira.")]
    found = extract_answer("What reason did Mira give for marrying?", ps)
    assert found.qtype.kind == "why"
    assert found.first_line == "'Why did you marry?' said Edgar. 'Because I fell in love,' said Mira [1].", found.first_line


def test_a_sentence_after_the_one_stating_the_question_that_explains_it_is_joined_to_it():
    ps = [_chunk("Edgar stopped at a plain grey panel in the hallway. It looked out of place. "
                 "Mira explained her reasoning: the paint on it was still wet. The hallway was long.")]
    found = extract_answer("Why did the panel in the hallway look out of place?", ps)
    assert "It looked out of place. Mira explained her reasoning: the paint on it was still wet" in found.first_line, found.first_line


def test_a_clause_joined_by_for_gives_the_reason_over_a_sentence_saying_as_much_without_one():
    ps = [_chunk("Edgar had a very small fire, but Mira's fire was so small that it looked like one coal. "
                 "But she couldn't add coal to it, for Edgar kept the coal-box in his own room.")]
    found = extract_answer("Why couldn't Mira add coal to her fire?", ps)
    assert "coal-box" in found.first_line, found.first_line


def test_no_reason_form_no_reason_span():
    # "Why, …!" is surprise, not a question asked; a narrator's why is answered by nobody: the
    # sentence that best states what is asked answers, alone
    for said, reply in (("'Why, how late you are!'", False), ("'Why are you so late?'", True)):
        ps = [_chunk(f"{said} said Edgar.\n\n'The tide was high,' replied Mira.\n\nMira was late again that night.")]
        found = extract_answer("Why was Mira late?", ps)
        assert found.first_line == (f"{said} said Edgar. 'The tide was high,' replied Mira [1]." if reply
                                    else "Mira was late again that night [1]."), found.first_line
    ps = [_chunk("Why did Edgar not go on?\n\nMira laid her work upon the table. Edgar did not go on.")]
    found = extract_answer("Why did Edgar not go on?", ps)
    assert found.first_line == "Edgar did not go on [1].", found.first_line


def test_what_reason_and_for_what_purpose_ask_why():
    assert [classify(q).kind for q in ("What reason did Edgar give?", "For what purpose did Mira come?",
                                       "What was the reason for the storm?", "What reasonable price did Edgar ask?")] == [
        "why", "why", "why", "what"]


def test_a_reply_in_text_without_paragraphs_is_the_next_quotation_past_the_speech_tag():
    ps = [_chunk("The storm rose. 'Is there oil in the lamp?' asked Mira. 'There is.' 'Would it burn all night?' asked Mira. "
                 "'All night, and longest in a storm.' 'Why longest in a storm?' asked Mira. 'Because the ships need it most.' "
                 "The lamp burned on.")]
    found = extract_answer("Why does the lamp burn longest in a storm?", ps)
    assert found.first_line == "'Why longest in a storm?' asked Mira. 'Because the ships need it most.' [1]", found.first_line


def test_a_sentence_pointing_back_by_its_subject_is_not_joined_twice():
    ps = [_chunk("Mira came late. Edgar kept the lamp lit all night. That explains why the ship came home safe.")]
    found = extract_answer("Why did the ship come home safe when Mira came late?", ps)
    assert found.first_line.count("Edgar kept the lamp lit all night.") == 1, found.first_line
    assert "That explains why the ship came home safe" in found.first_line, found.first_line


def test_a_why_is_quoted_only_after_an_opening_quote_and_the_search_is_bounded():
    import re

    from ragprov.llm.answer.reasons import _ASKS_WHY, _replies, asks_why
    from ragprov.llm.answer.words import _sentences

    # must not fire: the "'" of a contraction or a possessive opens no quotation
    assert not asks_why("He didn't know why they left?")
    assert not asks_why("Edgar's mother never asked why they left?")
    assert asks_why("Mira turned: 'Why did they leave?'")
    # every quantifier of the pattern is bounded (no "*", "+" or "{n,}"), so a search tries a match of
    # bounded length from each position: its time is linear in the text's length
    assert re.search(r"(?<!\\)[*+]|\{\d*,\}", _ASKS_WHY.pattern) is None, _ASKS_WHY.pattern
    long = "'" + "it was late and the lamp was lit " * 1900 + "why did they go on?"
    assert len(long) > 60_000 and not asks_why(long)  # the why is too far from the quote
    assert _replies(_sentences([Passage(long + "\n\n'Because the boats were out,' said Edgar.", "c")])) == []


def test_a_why_answer_records_the_shown_text_s_coverage_and_its_reason_weight_apart():
    ps = [_chunk("Edgar left the lighthouse because of the storm. Mira stayed.")]
    found = extract_answer("Why did Edgar leave the lighthouse?", ps)
    assert found.chosen is not None and found.chosen.score > 1  # the score ranks: coverage more by the reason weight
    assert found.chosen.why == "reason span: coverage 1.00, reason weight 0.25", found.chosen.why
    assert found.chosen.cover == 1.0


def test_every_noun_asking_for_a_reason_asks_why_and_is_covered_by_a_reason_span():
    from ragprov.llm.answer.question import REASON_NOUNS
    from ragprov.llm.answer.reasons import _REASON_WORDS
    from ragprov.llm.answer.words import _root

    for noun in ("reason", "purpose", "motive", "cause", "explanation"):
        assert classify(f"What {noun} did Mira give for leaving?").kind == "why", noun
        assert noun in REASON_NOUNS and _root(noun) in _REASON_WORDS, noun
    assert classify("What did Mira give for leaving?").kind != "why"  # must not fire: no reason noun
