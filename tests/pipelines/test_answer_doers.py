"""The offline answers to who-questions whose answer is the person in the slot the question asks
(:mod:`ragprov.llm.answer.doers`): the subject or passive agent of the aligned sentence's act, a
person described by a common noun phrase, the subject after an inverted verb, the object of
"whom", the possessor of "whose N" — beating a name the evidence mentions more often; and the
questions the rule must leave alone."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.answer.doers import _possessor, asked_act, who_slot
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


def test_whose_asks_the_possessor_of_the_head_noun_not_of_its_adjective():
    # "Whose tidy cottage …": the possessed noun is "cottage" (the adjective is no noun of the text)
    ss = _sentences([_chunk("Edgar admired, in silence, Oswin's cottage by the harbour wall.")])
    assert who_slot("Whose tidy cottage did Edgar admire?", ss, [0], [0.9]) == (0, 0, "Oswin")


def test_whose_reads_the_noun_of_a_person_and_a_possessive_pronoun():
    # "the voice of X": the person phrase after "of" possesses the noun
    ps = [_chunk("Edgar stood on the quay. It was the voice of the old ferryman, who called across the water."), *_CROWD]
    assert "ferryman" in extract_answer("Whose voice called across the water to Edgar?", ps).first_line
    # "his cottage": the pronoun stands for the nearest person before it, the subject of its own clause
    ss = _sentences([_chunk("Edgar rented a room in town, and the landlord painted his little cottage.")])
    assert who_slot("Whose little cottage did Edgar see painted?", ss, [0], [0.9]) == (0, 0, "the landlord")
    # "Ann met Tom, and Tom showed her his house": Tom, not the sentence's first person
    assert _possessor("Ann met Tom, and Tom showed her his house.", "house") == "Tom"
    # "a cup of tea": the phrase after "of" names no person; nor does a name own past its verb
    assert _possessor("He drank a cup of tea.", "cup") == ""
    assert _possessor("Tom's dog heard voices in the hall.", "voice") == ""


def test_a_speakers_possessive_in_single_marks_names_nobody():
    # "'… his cottage,' said Mira": the speaker's "his" is not the narrator's; no person of her sentence owns it
    assert _possessor("'Burn his cottage tonight,' said Mira to the Duke.", "cottage", "Oswin came in.") == ""
    # outside the marks the narrator's "his" stands for the nearest person before it (not Mira, whom "his" cannot name)
    assert _possessor("Mira scolded the Duke, and burnt his cottage.", "cottage", "Oswin came in.") == "the Duke"


def test_a_noun_said_with_a_owned_in_the_next_sentence():
    # "a loud bag lay …" names no owner; the next sentence does ("It was the bag of …")
    ps = [_chunk("A heavy bag lay by the harbour gate all morning. It was the bag of Oswin's sister, "
                 "who had gone to buy bread."), *_CROWD]
    assert "Oswin's sister" in extract_answer("Whose heavy bag lay by the harbour gate?", ps).first_line



def test_his_own_noun_is_owned_by_the_one_the_question_names():
    # "signed … his own letter": the possessor is the clause's subject, though the question names him itself
    ss = _sentences([_chunk("Oswin sat down at the desk and signed with a pen his own letter.")])
    assert who_slot("Whose letter does Oswin sign at the desk?", ss, [0], [0.9]) == (0, 0, "Oswin")
    # another person earlier in the sentence is not whom "his own" names
    ss = _sentences([_chunk("Mira waited while Oswin signed with a pen his own letter.")])
    assert who_slot("Whose letter does Oswin sign with a pen?", ss, [0], [0.9]) == (0, 0, "Oswin")
    # without "own" the question's own name is no answer
    ss = _sentences([_chunk("Oswin sat down at the desk and signed with a pen his letter.")])
    assert who_slot("Whose letter does Oswin sign at the desk?", ss, [0], [0.9]) is None


def test_a_person_nouns_possessive_owns_the_noun_after_it():
    # "his cousin's cottage": the cousin owns it, not whom "his" stands for
    ss = _sentences([_chunk("Oswin walked at dusk to his cousin's little cottage by the mill.")])
    assert who_slot("Whose little cottage did Oswin walk to at dusk?", ss, [0], [0.9]) == (0, 0, "his cousin")


def test_whose_ends_the_possessed_noun_at_a_plural_subjects_verb():
    # "Whose sons work hard?": the verb after a plural head is no part of the noun phrase
    assert asked_act("Whose sons work hard?") == ("possessor", ("sons",))
    assert asked_act("Whose men guard the gate?") == ("possessor", ("men",))
    assert asked_act("Whose tidy cottage did Edgar admire?") == ("possessor", ("cottage",))


def test_a_long_unclosed_quotation_in_single_marks_is_read_in_linear_time():
    """Many word-initial marks that never close: each once, not each to the line's end (a pattern looking
    ahead from every mark took 24 s of CPU here, the pass takes ~0.03 s); the marks still close a quotation where
    one ends. The bound is on this process's CPU time, so a loaded machine does not trip it."""
    import time

    from ragprov.llm.answer.doers import _quotations, _without_quotations

    text = "'" + " 'twas a night" * 20000 + "."
    start = time.process_time()
    assert _quotations(text) == []
    assert _without_quotations(text) == text
    assert time.process_time() - start < 2.0
    assert _possessor("He closed his door.", "door", "'Rain is coming,' said Ines. 'twas" + " 'twas a night" * 20) == "Ines"
    assert _quotations("'Go home,' said Mira. 'Stay,' said Oswin.") == [(0, 10), (22, 29)]


def test_a_relative_who_after_a_prepositional_phrase_speaks_of_the_person_before_it():
    ps = [_chunk("Edgar nodded at last to the weary ferryman in the boat, who quickly lowered his lantern, and Mira sighed."), *_CROWD]
    assert "ferryman" in extract_answer("Who lowers his lantern?", ps).first_line
    # "who" after a thing with no person before its phrase: no slot answer, nobody invented
    ps = [_chunk("Edgar looked at the boat in the mud, which quickly sank."), *_CROWD]
    line = extract_answer("Who sank?", ps).first_line
    assert "mud" not in line and "boat" not in line, line


def test_a_subject_before_a_phrase_set_off_by_commas_and_a_light_verb():
    ps = [_chunk("The harbour master, in the tower of the old Customs House, gave orders to his boatmen to stay ashore."), *_CROWD]
    line = extract_answer("Who ordered the boatmen to stay ashore?", ps).first_line
    assert "harbour master" in line and "Customs House" not in line, line


def test_a_verb_joined_to_a_copular_clause_keeps_its_subject():
    ps = [_chunk("The ferryman is kind to strangers and rowed the widow across the bay."), *_CROWD]
    assert "ferryman" in extract_answer("Who rowed the widow across the bay?", ps).first_line


def test_a_title_the_slot_says_before_the_chosen_name():
    ps = [_chunk("A stern voice in the yard called, 'Carry out Master Oswin's trunk, now!'"), *_CROWD]
    assert extract_answer("Whose trunk did a stern voice in the yard call for?", ps).first_line.startswith("The answer is Master Oswin")


def test_a_possessive_after_a_stranded_preposition_is_an_owner_not_whom_it_asks():
    ps = [_chunk("Mira sent the boy to the chandler's shop to fetch candles."),
          _chunk("The candles were sent to Oswin as a gift from Mira."), *_CROWD]
    line = extract_answer("Who does Mira send the candles to?", ps).first_line
    assert "chandler" not in line, line


def test_a_hyphenated_person_noun_owns():
    # WordNet lacks the compound; its last part is a person noun
    assert _possessor("The salt-merchant’s sheds stood below the harbour wall.", "sheds") == "The salt-merchant"
    assert _possessor("The stone-wall's sheds stood below the harbour.", "sheds") == ""
