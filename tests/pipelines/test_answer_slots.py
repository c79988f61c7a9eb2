"""The offline answers to what-questions whose answer is the phrase in the slot the wh-word stands
for (:mod:`ragprov.llm.answer.slots`): the verb's object, the object of a stranded preposition,
"made of", "in the N of X", the subject of "What VERBs …?", the reply to the same question asked
in the text's dialogue; and a where-question's place after the asked act."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("EDGAR", "PERSON"), Mention("MIRA", "PERSON"))


def _chunk(text: str, source: str = "c1") -> Passage:
    return Passage(text, source, kind="chunk", mentions=PEOPLE)


def test_the_object_of_a_synonym_of_the_asked_verb():
    ps = [_chunk("Edgar walked to the harbour at dawn."),
          _chunk("Edgar seized the lantern with such haste that the gulls scattered.", "c2")]
    found = extract_answer("What did Edgar grab to scare off the gulls?", ps)
    assert found.first_line == "The answer is the lantern [1].", found.first_line
    assert found.chosen is not None and found.chosen.support == (1,)


def test_a_pronoun_object_is_the_noun_phrase_its_clause_took_before():
    ps = [_chunk("Mira lifted the brass cap, and by a quick movement pressed it down over the flame.")]
    assert extract_answer("What object did Mira press down over the flame?", ps).first_line == "The answer is the brass cap [1]."


def test_made_of_and_a_stranded_preposition():
    ps = [_chunk("The net was heavy. It was made (as Mira saw) of ropes, corks, hooks, and floats.")]
    assert extract_answer("What was the net that Edgar hauled made of?", ps).first_line.startswith("The answer is ropes, corks")
    ps = [_chunk("Mira, fidgeting with the corner of a map, said nothing at all.")]
    assert "the corner of a map" in extract_answer("What was Mira fidgeting with while Edgar spoke?", ps).first_line


def test_the_n_of_x_answers_from_what_n():
    ps = [_chunk("The Warden, in the fortress of the old Tide Keep, gave orders to his guards to bar the gate.")]
    assert extract_answer("From what fortress did the Warden order his guards to bar the gate?", ps).first_line \
        == "The answer is the old Tide Keep [1]."


def test_what_verbs_asks_the_thing_that_does_it():
    ps = [_chunk("Before Mira could speak, the hum of an approaching boat broke the silence.")]
    assert extract_answer("What approaches the pier after Mira finds the key?", ps).first_line == "The answer is boat [1]."


def test_the_reply_to_the_question_asked_in_dialogue():
    ps = [_chunk("'Another love has taken my place.' 'What love has taken your place?' he asked. 'A love of gold.'")]
    assert "A love of gold" in extract_answer("What kind of love did Mira say had taken her place?", ps).first_line


def test_where_takes_the_place_after_the_asked_act():
    # a plain document: no place candidate is supported enough, the act's own place answers
    ps = [Passage("The sight pleased the keeper, for he stood with a boy beside him in a baker's doorway, and sang.", "c1")]
    assert extract_answer("Where does the keeper stand while singing?", ps).first_line == "The answer is a baker's doorway [1]."


def test_the_place_after_the_act_beats_a_named_place_the_sentence_only_echoes_a_word_of():
    # "the glow of a dozen lanterns" says a word of "lantern room", not that she sits there: the attic answers
    places = (*PEOPLE, Mention("LANTERN ROOM", "GEO"))
    ps = [Passage("Mira sat alone in a narrow attic, the glow of a dozen lanterns around her.", "c1", kind="chunk", mentions=places),
          Passage("The lantern room held the keeper's maps. Mira often visited the lantern room.", "c2", kind="chunk", mentions=places)]
    first = extract_answer("Where does Mira sit alone surrounded by glowing lanterns?", ps).first_line
    assert first.startswith("The answer is a narrow attic"), first


def test_no_slot_answer_without_the_asked_act_or_with_the_question_own_words():
    # the sentence says another act: a sentence answers as before, no phrase is made up
    ps = [_chunk("Edgar walked along the shore and talked of the storm.")]
    assert not extract_answer("What did Edgar grab to scare off the gulls?", ps).first_line.startswith("The answer is")
    # the verb's object is what the question itself names: no answer from it
    ps = [_chunk("Edgar grabbed the gulls at dawn.")]
    assert not extract_answer("What did Edgar grab to scare off the gulls?", ps).first_line.startswith("The answer is the gulls")
    # a verb of saying takes a clause: no phrase after "say" answers
    ps = [_chunk("Mira said a few words about the storm.")]
    assert "a few words" not in extract_answer("What fabric did Mira say was good enough?", ps).first_line


def test_no_reply_to_a_question_the_text_asks_about_another_act():
    # the text asks what he eats, the user what he drinks: its reply does not answer
    ps = [_chunk("'What shall Edgar eat for supper tonight?' 'Gruel, as always.'")]
    assert "Gruel" not in extract_answer("What did Edgar drink with his supper?", ps).first_line


def test_where_takes_no_phrase_that_is_no_place():
    # "in a fit of rage" says how he stood, not where: it is no answer, nor a place candidate
    ps = [Passage("The sight angered the keeper, for he stood in a fit of rage, and sang.", "c1")]
    found = extract_answer("Where does the keeper stand while singing?", ps)
    assert "fit of rage" not in found.first_line
    assert found.chosen is None or found.chosen.type != "GEO" or "rage" not in found.chosen.name


def test_a_list_after_of_is_taken_whole():
    ps = [_chunk("The net was long. It was made of a heap of ropes, corks, hooks, and floats.")]
    first = extract_answer("What was the net made of?", ps).first_line
    assert first.startswith("The answer is a heap of ropes, corks, hooks"), first


def test_a_reply_records_the_score_of_the_question_it_answers():
    # the reply's own sentence says little of the question: the text's question aligned with it is recorded and cited
    ps = [_chunk("'What shall Edgar eat for supper tonight?' 'Gruel, as always.'")]
    found = extract_answer("What did Edgar eat for supper?", ps)
    assert found.first_line == "The answer is Gruel, as always [1].", found.first_line
    assert found.chosen is not None and found.chosen.score > 0 and found.chosen.support == (0,)


def test_the_answer_steps_closed_word_classes_are_written_once_and_read_in_parts():
    """Each module's prepositions and pronouns are a part of the one class in :mod:`~ragprov.llm.answer.words`."""
    from ragprov.llm.answer import asked, doers, question, slots, words, yesno

    for part in (slots._FRAME_PREPOSITIONS, slots._PLACE_PREPOSITIONS, question._WH_PREPOSITIONS, asked._UNLISTED_PREPOSITIONS,
                 yesno._SUBJECT_PREPOSITIONS):
        assert part <= words._PREPOSITIONS, sorted(part - words._PREPOSITIONS)
    pronouns = words._SUBJECT_PRONOUNS | words._OBJECT_PRONOUNS | words._POSSESSIVE_PRONOUNS | words._FIRST_AND_SECOND_PERSON
    assert doers._PERSON_SUBJECTS | doers._PERSON_OBJECTS | slots._THING_OBJECTS | yesno._NO_PLACE_PRONOUNS - {"hers"} <= pronouns
    assert "it" not in doers._PERSON_SUBJECTS | doers._PERSON_OBJECTS and "him" not in slots._THING_OBJECTS
    assert words._PERSON_WH < words._WH_WORDS
