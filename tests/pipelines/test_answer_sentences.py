"""Offline answers from plain text (DocRAG chunks, basic search's text units): who said the
quoted words a question asks about, across the sentences a quotation runs over; a name heading a
chain of appositions."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.answer.relations import _anchors, _relation_support
from ragprov.llm.answer.speech import _speaker
from ragprov.llm.answer.words import _sentences
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("ANNA BELL", "PERSON"), Mention("CARL DUNN", "PERSON"), Mention("EVA FOX", "PERSON"))


def chunk(text: str) -> Passage:
    return Passage(text, "c1", kind="chunk", mentions=PEOPLE)


def speakers(text: str, name: str, where: str = "") -> list[list[str]]:
    """Per mention of ``name`` (in sentences holding ``where``), the quoted sentences it is the speaker of."""
    ss = _sentences([chunk(text)])
    out = []
    for k, s in enumerate(ss):
        start = s.text.find(name)
        if start >= 0 and where in s.text:
            out.append([ss[j].text for j in sorted(_speaker(ss, k, start, start + len(name)))])
    return out


def test_the_name_after_a_closing_quote_said_the_whole_quotation():
    text = ('Eva looked up. "You two need to stop the idle talk. We have doors to secure," Carl Dunn cut in, '
            "stepping between them. Anna nodded.")
    assert speakers(text, "Carl Dunn") == [['"You two need to stop the idle talk.',
                                            'We have doors to secure," Carl Dunn cut in, stepping between them.']]
    found = extract_answer("Who tells them to stop the idle talk?", [chunk(text)])
    assert found.first_line.startswith("The answer is Carl Dunn"), found.first_line


def test_the_speaker_before_the_quotation_and_a_voice_before_it():
    text = ("Anna Bell, never one to keep quiet, added, \"I've read the old ship logs. Nothing in them adds up.\" "
            "Carl shrugged. Later, Eva's voice came through the radio. \"I'd laugh if we met pirates down there.\"")
    assert speakers(text, "Anna Bell")[0][0].startswith("Anna Bell, never one")
    assert speakers(text, "Eva")[0] == ["\"I'd laugh if we met pirates down there.\""]
    assert extract_answer("Who jokes about meeting pirates?", [chunk(text)]).first_line.startswith("The answer is Eva Fox")


def test_a_reaction_after_a_quotation_that_names_its_speaker_is_not_its_speaker():
    # must not fire: Carl shrugs after Anna's words; Eva's nod comes before words Carl says himself
    text = ("Anna Bell, never one to keep quiet, added, \"I've read the old ship logs. Nothing in them adds up.\" "
            "Carl shrugged. Eva nodded, calm. \"Trust,\" Carl mused, \"is all we have.\" "
            "\"Fine,\" he said, meeting Eva's gaze.")
    assert speakers(text, "Carl", "shrugged") == [[]]
    assert speakers(text, "Eva", "nodded") == [[]]
    assert speakers(text, "Eva's", "gaze") == [[]]
    assert speakers(text, "Carl", "mused")[0][0].startswith('"Trust," Carl mused')
    found = extract_answer("Who has read the old ship logs?", [chunk(text)])
    assert found.first_line.startswith("The answer is Anna Bell"), found.first_line


def test_a_name_in_apposition_to_a_description_then_the_relation_states_it():
    """'Anna Bell, a tall widow, an old friend of Carl's.': the name heads the chain of appositions
    (a description of up to three words between); a verb between does not make one."""

    def states(text: str, question: str) -> float:
        ss = _sentences([chunk(text)])
        anchors = _anchors(question, ss)
        start = ss[0].text.find("Anna Bell")
        return _relation_support(ss[0], start, start + len("Anna Bell"), anchors.get(0, []))

    assert states("Anna Bell, a tall quiet widow, an old friend of Carl Dunn.", "Who is Carl Dunn's old friend?") > 0
    assert states("Anna Bell met a tall quiet widow, an old friend of Carl Dunn.", "Who is Carl Dunn's old friend?") == 0


def test_a_pronoun_after_the_quotation_opening_a_sentence_is_the_person_named_before():
    text = ('Eva Fox was the first to react. "I have this," they declared, fingers on the controls, '
            "to ward off the drone.")
    assert extract_answer("Who wards off the drone?", [chunk(text)]).first_line.startswith("The answer is Eva Fox")
    # must not fire: a pronoun inside the quotation is not its speaker's mention
    text = 'Eva Fox was the first to react. "They will ward off the drone," Carl Dunn declared.'
    assert extract_answer("Who wards off the drone?", [chunk(text)]).first_line.startswith("The answer is Carl Dunn")


def test_a_title_in_quotation_marks_is_not_words_someone_said():
    # must not fire: a title, or a quotation no comma or colon introduces, has no speaker
    text = ("As the publisher of 'The Old Ship Logs,' Carl Dunn is well known. "
            "Anna Bell read 'The Old Ship Logs' twice.")
    assert speakers(text, "Carl Dunn") == [[]]
    assert speakers(text, "Anna Bell") == [[]]
    # a verb of saying between the closing quote and the name still makes a speaker
    assert speakers("'It is late,' said Carl Dunn.", "Carl Dunn") == [["'It is late,' said Carl Dunn."]]


def test_a_relation_asked_is_not_words_said():
    # must not fire for "Who is X's R?": the one who speaks of "your father" is not the father
    text = ('Eva Fox waited by the fire. Anna Bell smiled at her. "There is your father at the door, your father!" '
            "Then Carl Dunn came in, and Eva ran to her father.")
    found = extract_answer("Who is Eva Fox's father?", [chunk(text)])
    assert not found.first_line.startswith("The answer is Anna Bell"), found.first_line
