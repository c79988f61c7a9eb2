"""The offline answers to the question kinds that are not entities: how many (a number), when (a
time expression), yes-no (Yes/No from whether the best-aligned evidence affirms or denies the
question's terms) and why/what (the best-aligned sentence, without a relationship's header)."""

from __future__ import annotations

from ragprov.llm.answer import classify, extract_answer
from ragprov.llm.answer.question import _LEADING_PHRASE
from ragprov.llm.engine import Mention, Passage

PEOPLE = (Mention("EDGAR", "PERSON"), Mention("MIRA", "PERSON"))


def test_how_many_answers_a_number_never_a_person():
    ps = [Passage("Edgar had kept the lighthouse for eleven winters, and Mira brought him two lamps.", "c1", kind="chunk",
                  mentions=PEOPLE),
          Passage("EDGAR → MIRA: Mira visits Edgar at the lighthouse.", "c2", kind="fact", mentions=PEOPLE)]
    found = extract_answer("How many winters had Edgar kept the lighthouse?", ps)
    assert found.first_line == "The answer is eleven winters [1].", found.first_line
    assert found.chosen is not None and found.chosen.type == "NUMBER"
    assert all(c.type == "NUMBER" for c in found.rejected)  # the people are no candidates for a count
    # the number beside the noun the question counts, not another one of the same sentence
    assert extract_answer("How many lamps did Mira bring?", ps).first_line.startswith("The answer is two lamps")


def test_how_many_declines_when_no_number_counts_what_it_asks():
    ps = [Passage("Edgar and Mira walked along the shore and talked of the storm.", "c1", kind="chunk", mentions=PEOPLE)]
    found = extract_answer("How many ships sank in the storm?", ps)
    assert not found.answered and found.first_line.startswith("The data does not answer")
    assert "Edgar" not in found.first_line


def test_one_as_a_pronoun_is_no_count():
    ps = [Passage("No one on the island had seen the ships; one of them sank.", "c1", kind="chunk")]
    assert not extract_answer("How many ships did the islanders see?", ps).answered


def test_when_answers_a_time_expression():
    ps = [Passage("Edgar left the lighthouse three years ago, on a stormy night.", "c1", kind="chunk", mentions=PEOPLE),
          Passage("EDGAR → MIRA: Mira is Edgar's sister.", "c2", kind="fact", mentions=PEOPLE)]
    found = extract_answer("When did Edgar leave the lighthouse?", ps)
    assert found.first_line == "The answer is three years ago [1].", found.first_line
    assert found.chosen is not None and found.chosen.type == "DATE"
    ps = [Passage("Mira sailed home on Midsummer Eve, the day after the fair.", "c1", kind="chunk", mentions=PEOPLE)]
    assert "Midsummer Eve" in extract_answer("When did Mira sail home?", ps).first_line


def test_when_declines_without_a_time_expression():
    ps = [Passage("Edgar left the lighthouse with Mira.", "c1", kind="chunk", mentions=PEOPLE)]
    found = extract_answer("When did Edgar leave the lighthouse?", ps)
    assert not found.answered and "Mira" not in found.first_line


def test_yes_no_follows_the_denial_in_the_clause_of_the_question_terms():
    ps = [Passage("Edgar never repaired the old lamp.", "c1", kind="chunk", mentions=PEOPLE),
          Passage("The bridge is a recent addition, covering a gap they didn't want found.", "c2", kind="chunk")]
    assert extract_answer("Did Edgar repair the old lamp?", ps).first_line.startswith("No: Edgar never repaired")
    # the denial belongs to another clause: the sentence affirms what is asked
    assert extract_answer("Is the bridge a recent addition?", ps).first_line.startswith("Yes: The bridge")


def test_yes_no_declines_when_the_evidence_says_too_little_of_it():
    ps = [Passage("Edgar repaired the old lamp.", "c1", kind="chunk", mentions=PEOPLE)]
    found = extract_answer("Did Edgar sail a balloon to the moon?", ps)
    assert not found.answered and found.first_line.startswith("The data does not answer")


def test_why_prefers_a_sentence_giving_a_reason_and_drops_the_header():
    ps = [Passage("EDGAR → LIGHTHOUSE: Edgar left the lighthouse because the lamp had failed.", "c1", kind="fact",
                  mentions=(Mention("EDGAR", "PERSON"), Mention("LIGHTHOUSE", "GEO"))),
          Passage("Edgar left the lighthouse at dawn with his lamp.", "c2", kind="chunk", mentions=PEOPLE)]
    found = extract_answer("Why did Edgar leave the lighthouse?", ps)
    assert found.first_line == "Edgar left the lighthouse because the lamp had failed [1].", found.first_line


def test_question_kinds():
    assert [classify(q).kind for q in ("How long had Edgar kept it?", "What year did Mira leave?", "Didn't Edgar go?",
                                       "Which year's fair was it?", "Who kept the lighthouse?")] == [
        "how-many", "when", "yes-no", "when", "who"]


def test_a_yes_no_question_after_an_opening_phrase_of_any_kind():
    questions = ("Peering into the well, could Mira see the water?", "Standing by the gate, was Edgar waiting?",
                 "According to the keeper, did the lamp fail?", "With his coat torn, did Edgar go home?",
                 "After the storm, didn't the boat sink?", "In the village where she grew up, might Mira have friends?",
                 "Mira, Edgar, did they leave the mill?")
    assert [classify(q).kind for q in questions] == ["yes-no"] * len(questions)
    # not when a wh-phrase opens the opening phrase: that phrase asks
    assert [classify(q).kind for q in ("In which town, did Mira land?", "Standing by the gate, who waited?")] == ["which", "who"]


def test_a_question_tag_is_no_main_clause():
    assert _LEADING_PHRASE.match("Mira left the mill early, did she?") is None
    assert _LEADING_PHRASE.match("Mira left early, as a rule, didn't she?") is None
    assert _LEADING_PHRASE.match("At dawn, did she leave?").group("main") == "did she leave?"


def test_a_count_cites_only_the_passages_where_it_counts_the_asked_thing():
    ps = [Passage("Three ships reached the harbour before the storm.", "c1", kind="chunk"),
          Passage("Mira paid three coins for the rope.", "c2", kind="chunk")]
    found = extract_answer("How many ships reached the harbour?", ps)
    assert found.first_line == "The answer is Three ships [1].", found.first_line
    assert found.support == (0,)  # the coins' passage says "three" of something else


def test_only_one_of_the_asked_thing_is_a_count():
    ps = [Passage("Only one ship reached the harbour before the storm.", "c1", kind="chunk")]
    assert extract_answer("How many ships reached the harbour?", ps).first_line.startswith("The answer is one ship")


def test_a_verb_of_refusal_denies_the_act_after_it():
    ps = [Passage("Edgar refused to light the lamp that night.", "c1", kind="chunk", mentions=PEOPLE)]
    assert extract_answer("Did Edgar light the lamp?", ps).first_line.startswith("No")
    ps = [Passage("Edgar agreed to light the lamp that night.", "c1", kind="chunk", mentions=PEOPLE)]
    assert extract_answer("Did Edgar light the lamp?", ps).first_line.startswith("Yes")


def test_a_time_is_no_mere_since_clause():
    ps = [Passage("Edgar has kept the lamp since the storm ended.", "c1", kind="chunk", mentions=PEOPLE)]
    assert not extract_answer("When did Edgar keep the lamp?", ps).answered


def test_where_takes_a_lower_case_place_after_a_preposition_of_place():
    places = (*PEOPLE, Mention("HARBOURTON", "GEO"))
    ps = [Passage("Edgar sent the boy to the chandler's to buy a lamp.", "c1", kind="chunk", mentions=places),
          Passage("Mira walked along the shore of Harbourton.", "c2", kind="chunk", mentions=places)]
    found = extract_answer("Where did Edgar send the boy to buy a lamp?", ps)
    assert found.first_line == "The answer is chandler [1].", found.first_line
    # it must not fire where no lower-case place stands after a preposition: the named place answers
    assert extract_answer("Where did Mira walk?", ps).first_line == "The answer is Harbourton [1]."


def test_a_place_phrase_keeps_what_it_is_part_of():
    # "in the top storey of the granary": the storey of the granary, not no place (nor "storey" an adjective)
    ps = [Passage("While the rain fell, Edgar kept his maps and ledgers in the top storey of the granary.", "c1",
                  kind="chunk", mentions=PEOPLE)]
    first = extract_answer("Where did Edgar keep his maps while the rain fell?", ps).first_line
    assert first.startswith("The answer is top storey of the granary"), first


def test_a_named_place_the_sentence_ties_as_well_comes_before_a_lower_case_one():
    ps = [Passage("Mira sailed to Harbourton on a stormy night, and she slept at the inn.", "c1", kind="chunk",
                  mentions=(*PEOPLE, Mention("HARBOURTON", "GEO")))]
    assert extract_answer("Where did Mira sail?", ps).first_line.startswith("The answer is Harbourton")
    assert extract_answer("Where did Mira sleep?", ps).first_line.startswith("The answer is inn")


def test_a_lower_case_place_that_is_part_of_a_named_one_is_no_answer():
    ps = [Passage("The lift took Mira down into the depths of Harbourton.", "c1", kind="chunk",
                  mentions=(*PEOPLE, Mention("HARBOURTON", "GEO")))]
    assert extract_answer("Where did the lift take Mira?", ps).first_line.startswith("The answer is Harbourton")


def test_what_with_a_head_noun_no_type_answers_takes_the_noun_phrase_the_text_ties_to_the_question():
    ps = [Passage("A small drone hovered over the lab all night. Mira watched it from the window.", "c1", kind="chunk",
                  mentions=PEOPLE),
          Passage("Edgar repaired the old lamp in the lighthouse.", "c2", kind="chunk", mentions=PEOPLE)]
    assert extract_answer("What creature hovered over the lab?", ps).first_line == "The answer is small drone [1]."
    # it must not fire on what describes the question's own thing ("the old lamp" for its colour):
    # no phrase answers, and the best sentence does as before
    found = extract_answer("What colour was the lamp?", ps)
    assert found.first_line == "Edgar repaired the old lamp in the lighthouse [1].", found.first_line
    # a what-question without a head noun takes the phrase in the asked verb's slot (its object), not a noun phrase candidate
    assert extract_answer("What did Edgar repair?", ps).first_line == "The answer is the old lamp [1]."


def test_a_question_that_only_names_someone_is_still_answered_by_a_sentence():
    ps = [Passage("Edgar is the keeper of the lighthouse.", "c1", kind="chunk", mentions=PEOPLE)]
    assert extract_answer("Who is Edgar?", ps).first_line == "Edgar is the keeper of the lighthouse [1]."


def test_a_when_clause_after_a_time_narrows_it_and_a_heading_is_no_context():
    ps = [Passage("MIRA'S RETURN When Edgar woke it was dark. Mira said: 'Expect the boat to-morrow when the tide turns.'",
                  "c1", kind="chunk", mentions=PEOPLE)]
    found = extract_answer("When will the boat come?", ps)
    assert found.first_line == "The answer is to-morrow when the tide turns [1].", found.first_line
    # a question in quotation marks ("when will …") is no time, nor a list of years one time
    ps = [Passage("'When will the boat come?' asked Edgar. The boat came in 1843, 1851 and 1860.", "c1", kind="chunk")]
    assert extract_answer("When did the boat come?", ps).first_line == "The answer is 1843 [1]."


def test_a_date_in_italics_and_a_period_since_an_event_are_times():
    ps = [Passage("Your faithful friend, E. _December, 1843._", "c1", kind="chunk")]
    assert "December, 1843" in extract_answer("When is the letter from the faithful friend dated?", ps).first_line
    ps = [Passage("I have distrusted the lamp since the storm. It failed twice.", "c1", kind="chunk")]
    assert extract_answer("When did Edgar distrust the lamp?", ps).first_line.startswith("The answer is since the storm")


def test_a_count_in_the_scene_the_question_describes_beats_the_same_noun_counted_elsewhere():
    ps = [Passage("Mira hoped to catch Edgar coming late. The clock struck nine. No Edgar. He was full eighteen minutes "
                  "and a half behind his time. Later the guests came to the feast, and all sat at the long table of the "
                  "hall in the great house. Edgar was at home in five minutes.", "c1", kind="chunk", mentions=PEOPLE),
          Passage("Fiddlers played at the feast that night. The noise went on for five minutes.", "c2", kind="chunk")]
    found = extract_answer("How many minutes late is Edgar?", ps)
    assert found.first_line == "The answer is eighteen minutes and a half [1].", found.first_line
    # without the scene's words the count of the asked noun in the nearer sentence stands
    ps = [Passage("Edgar was at home in five minutes.", "c1", kind="chunk", mentions=PEOPLE)]
    assert extract_answer("How many minutes late is Edgar?", ps).first_line == "The answer is five minutes [1]."


def test_why_joins_a_sentence_pointing_back_to_the_one_before_it_that_gives_the_reason():
    ps = [Passage("Mira watched Edgar. His steady hand never shakes in a storm. And that's worth more than the lamp. "
                  "The lamp was old and Mira kept it.", "c1", kind="chunk", mentions=PEOPLE)]
    found = extract_answer("Why does Mira value Edgar's hand more than the lamp?", ps)
    assert found.first_line.startswith("His steady hand never shakes in a storm. And that's worth more"), found.first_line
    # a sentence whose own subject is named does not take the sentence before it
    ps = [Passage("Mira watched Edgar. His steady hand never shakes. And Edgar's hand is worth more than the lamp.", "c1",
                  kind="chunk", mentions=PEOPLE)]
    assert extract_answer("Why is Edgar's hand worth more than the lamp?", ps).first_line.startswith("And Edgar's hand")


def test_a_title_as_form_of_address_states_the_role_a_yes_no_question_asks():
    ps = [Passage("EDGAR → MIRA: Dr. Edgar Vane rowed Mira out to the lighthouse.", "c1", kind="fact", mentions=PEOPLE)]
    assert extract_answer("Is Edgar a doctor?", ps).first_line.startswith("Yes: Dr. Edgar Vane rowed")
    assert not extract_answer("Is Edgar a captain?", ps).answered  # another role than the title says
    assert not extract_answer("Is Mira a doctor?", ps).answered  # the title is another person's


def test_what_is_the_noun_called_takes_the_name_a_copula_gives_that_noun():
    text = ("Mira lifted the sail, and two children crouched beneath it. 'This boy is Tobin. This girl is Wren,' "
            "said Mira to Edgar. The girl is Edgar's.")
    ps = [Passage(text, "c1", kind="chunk")]
    assert extract_answer("What is the girl beneath the sail called?", ps).first_line.startswith("The answer is Wren")
    assert extract_answer("What is the boy beneath the sail called?", ps).first_line.startswith("The answer is Tobin")


def test_the_noun_an_asked_act_qualifies_is_the_thing_that_does_it():
    ps = [Passage("Mira found the hidden hatch. Then the low hum of an approaching boat broke the silence.", "c1",
                  kind="chunk", mentions=PEOPLE)]
    found = extract_answer("What approaches Mira after she finds the hatch?", ps)
    assert "boat" in [c.name for c in (found.chosen, *found.rejected) if c is not None]
    assert "approaching boat" not in found.first_line


def test_in_the_end_places_a_yes_no_question_in_time_and_is_no_term_the_evidence_must_say():
    ps = [Passage("EDGAR → MIRA: Edgar rowed back to the lighthouse with Mira.", "c1", kind="fact", mentions=PEOPLE)]
    assert extract_answer("Does Edgar row back to the lighthouse in the end?", ps).first_line.startswith("Yes: Edgar rowed")
    # "the end of the pier" is a place, a term the evidence must say
    assert not extract_answer("Does Edgar row to the end of the pier?", ps).answered


def test_a_bare_noun_standing_for_the_passage_entity_named_by_it_is_no_place_of_its_own():
    house = (Mention("EDGAR", "PERSON"), Mention("EDGAR'S HOUSE", "GEO"))
    ps = [Passage("EDGAR → HARBOURTON: Edgar lives in Harbourton.", "c1", kind="fact",
                  mentions=(Mention("EDGAR", "PERSON"), Mention("HARBOURTON", "GEO"))),
          *(Passage(f"EDGAR → EDGAR'S HOUSE: Edgar lives in the house, {w}.", f"c{n}", kind="fact", mentions=house)
            for n, w in enumerate(("happily", "quietly", "gladly"), start=2))]
    assert extract_answer("Where does Edgar live?", ps).first_line.startswith("The answer is Harbourton")
    # a bare noun no entity of its passage is named by still answers
    ps = [Passage("Mira sailed to Harbourton on a stormy night, and Edgar lives in the house.", "c1", kind="chunk",
                  mentions=(*PEOPLE, Mention("HARBOURTON", "GEO")))]
    assert extract_answer("Where does Edgar live?", ps).first_line.startswith("The answer is house")


def test_what_a_question_ends_with_a_preposition_for_is_that_preposition_s_object_in_the_act_s_clause():
    ps = [Passage("Edgar came in from the storm, and Mira tried to warm herself at the stove; Edgar sat at the table.", "c1",
                  kind="chunk", mentions=PEOPLE)]
    assert extract_answer("What does Mira try to warm herself at?", ps).first_line == "The answer is the stove [1]."
    # only that preposition's object: nothing stands after "with", so the best sentence answers as before
    assert not extract_answer("What does Mira try to warm herself with?", ps).first_line.startswith("The answer is")
