"""The offline answers to who-questions whose answer is the person in the slot the question asks
(:mod:`ragprov.llm.answer.doers`): the subject or passive agent of the aligned sentence's act, a
person described by a common noun phrase, the subject after an inverted verb, the object of
"whom", the possessor of "whose N" — beating a name the evidence mentions more often; and the
questions the rule must leave alone."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.answer.doers import asked_act, who_slot
from ragprov.llm.answer.words import _sentences
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("EDGAR", "PERSON"), Mention("MIRA", "PERSON"), Mention("OSWIN", "PERSON"))


def _chunk(text: str, source: str = "c1") -> Passage:
    return Passage(text, source, kind="chunk", mentions=PEOPLE)


#: a frequent name the frequency-based rank prefers, in passages around the answer
_CROWD = [_chunk("Edgar walked to the harbour with Mira. Edgar saw the lighthouse. Edgar laughed.", "c2"),
          _chunk("Edgar and Oswin spoke of the lighthouse and the old harbour wall.", "c3")]


def test_the_passive_agent_is_a_person_noun_phrase():
    ps = [_chunk("The lighthouse was an old one, built by some Flemish mason long ago, and painted white."), *_CROWD]
    found = extract_answer("Who built the old lighthouse by the harbour?", ps)
    assert found.first_line == "The answer is some Flemish mason [1].", found.first_line
    assert found.chosen is not None and found.chosen.type == "PERSON"


def test_the_subject_of_the_act_beats_a_frequent_name():
    ps = [_chunk("At supper Oswin's niece played sweetly upon the lute, and Edgar listened."), *_CROWD]
    assert extract_answer("Who plays the lute at supper?", ps).first_line == "The answer is Oswin's niece [1]."


def test_an_inverted_subject_the_question_does_not_name():
    ps = [_chunk("In came the fisherman, with his cousin the sailmaker."), *_CROWD]
    assert "his cousin the sailmaker" in extract_answer("Who comes in with the fisherman?", ps).first_line


def test_whom_and_whose():
    ps = [_chunk("Mira pitied the old beggar, and she longed to assist a lonely widow with a child."), *_CROWD]
    assert "lonely widow" in extract_answer("Whom does Mira long to help?", ps).first_line
    ps = [_chunk("Edgar looked into the pool, and saw not the water, but Oswin's face."), *_CROWD]
    assert extract_answer("Whose face does Edgar see in the pool?", ps).first_line.startswith("The answer is Oswin")


def test_the_slot_must_say_the_asked_act_and_argument():
    # the act is said of another argument ("the lute", not "the drum"): no slot answer
    ps = [_chunk("At supper Oswin's niece played sweetly upon the lute, and Edgar listened."), *_CROWD]
    assert "niece" not in extract_answer("Who plays the drum at supper?", ps).first_line
    # the act is not said at all: the rule stays silent and nothing is invented
    ps = [_chunk("The lighthouse was an old one, built by some Flemish mason long ago."), *_CROWD]
    assert "mason" not in extract_answer("Who painted the old lighthouse?", ps).first_line
    # a copula asks a relation, not an act's slot
    assert "mason" not in extract_answer("Who is the keeper of the lighthouse?", ps).first_line


def test_a_description_beside_the_chosen_name_keeps_the_name():
    ps = [_chunk("Mira is Oswin's younger sister who comes to fetch him home."),
          _chunk("Mira came to the school. Mira smiled at Oswin.", "c2")]
    assert extract_answer("Who comes to fetch Oswin home?", ps).first_line.startswith("The answer is Mira")



def _slot(text: str, question: str):
    ss = _sentences([Passage(text, "c")])
    return who_slot(question, ss, list(range(len(ss)))[::-1], [0.6] * len(ss))


def test_who_did_x_verb_asks_the_object():
    assert asked_act("Who did Oswin see at the harbour?") == ("object", ("see",))
    found = _slot("At the harbour Oswin saw a weary fisherman mending his nets.", "Who did Oswin see at the harbour?")
    assert found is not None and found[2] == "a weary fisherman"
    # "did" as the main verb ("did the cooking") asks no act; a determiner or "else" is no verb
    assert asked_act("Who did the cooking?") is None and asked_act("Who had the key?") is None
    assert asked_act("Who else came to the harbour?") is None


def test_a_pronoun_outside_a_quotation_does_not_stand_for_a_name_inside_it():
    assert _slot('"Oswin is coming," she said, and then she unbarred the harbour gate.', "Who unbarred the harbour gate?") is None
    found = _slot('"Oswin is coming," said Mira. Then she unbarred the gate.', "Who unbarred the gate?")
    assert found is not None and found[2] == "Mira"


def test_an_opening_adverb_or_a_verb_is_no_person():
    assert _slot("Later, she unbarred the gate.", "Who unbarred the gate?") is None
    assert _slot("Today she unbarred the gate.", "Who unbarred the gate?") is None
    assert _slot("Edgar asked the clerk. Then he unbarred the gate.", "Who unbarred the gate?") == (1, 1, "Edgar")


def test_which_team_member_takes_a_common_noun_of_any_person_kind():
    assert _slot("The engineer fended off the drone.", "Which team member fended off the drone?") == (0, 0, "The engineer")
    assert _slot("The engineer fended off the drone.", "Which daughter fended off the drone?") is None
