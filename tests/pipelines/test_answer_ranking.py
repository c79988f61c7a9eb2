"""How the offline answer extraction ranks its candidates: the relations a sentence states with a
possessive pronoun or "has a … named …", names the text introduces, a name's own words, and the
weighted sum of named features the rank is."""

from __future__ import annotations

import math

import pytest

from ragprov.llm.answer import FEATURES, candidate_features, candidates, extract_answer, question, rank, records, words
from ragprov.llm.engine import Mention, Passage


def _about(source: str, name: str, kind_of: str, text: str) -> Passage:
    """An entity's description passage ("NAME: text"), naming the entity as its one mention."""
    return Passage(f"{name}: {text}", source, kind="entity", mentions=(Mention(name, kind_of),))


def _point(text: str, *names: str) -> Passage:
    return Passage(text, f"report {text[:40]}", kind="point", mentions=tuple(Mention(n, "PERSON") for n in names))


def test_a_possessive_pronoun_standing_for_the_questions_possessor_states_the_relation():
    ps = [_point("The community is centered around Bob Cratchit, his wife Mrs. Cratchit, and their children, "
                 "including Peter, Martha, and Tiny Tim.", "BOB CRATCHIT", "MRS. CRATCHIT", "TINY TIM"),
          _point("The relationships among Bob Cratchit, his wife, Tiny Tim, and the town illustrate the family's love.",
                 "BOB CRATCHIT", "TINY TIM"),
          _point("Key entities include Bob Cratchit, his wife and children (notably Tiny Tim), and their home.",
                 "BOB CRATCHIT", "TINY TIM")]
    found = extract_answer("Who is Bob Cratchit's wife?", ps)
    assert found.first_line.startswith("The answer is Mrs. Cratchit"), found.first_line
    assert "states the relation asked" in found.chosen.why
    # a name after a comma may be the next item of a list: Tiny Tim is not taken for the wife
    tim = next(c for c in found.rejected if c.name == "Tiny Tim")
    assert "states the relation" not in tim.why


def test_a_relation_the_possessor_has_names_the_one_introduced_even_if_no_entity_is_known_by_it():
    ps = [_about("entity 1", "SCROOGE", "PERSON", "Scrooge is uncle to Fred, his only nephew, and has a sister named Fan."),
          Passage("FRED → TOPPER: Topper is interested in one of Scrooge's niece's sisters at Fred's party.", "rel 2",
                  kind="relationship", mentions=(Mention("FRED", "PERSON"), Mention("TOPPER", "PERSON")))]
    found = extract_answer("Who was Scrooge's little sister?", ps)
    assert found.first_line == "The answer is Fan [1].", found.first_line
    assert "states the relation asked" in found.chosen.why


def test_the_questions_words_a_name_says_are_no_evidence_about_it():
    ps = [_about("e1", "GHOST OF CHRISTMAS PAST", "PERSON", "The Ghost of Christmas Past appears to Scrooge at night."),
          _about("e2", "JACOB MARLEY", "PERSON", "Marley appears to Scrooge to warn him.")]
    found = extract_answer("Who appears as a ghost to warn Scrooge?", ps)
    assert found.first_line.startswith("The answer is Jacob Marley"), found.first_line
    assert found.rejected[0].name == "Ghost of Christmas Past" and found.rejected[0].score < 0.8 * found.chosen.score
    # the which-noun is no such word: "Christmas holidays" is a holiday because its name says so
    ps = [Passage("Scrooge despises the Christmas holidays, calling them humbug.", "c1", kind="chunk",
                  mentions=(Mention("CHRISTMAS HOLIDAYS", "EVENT"), Mention("SCROOGE", "PERSON")))]
    assert extract_answer("Which holiday does Scrooge despise?", ps).first_line.startswith("The answer is Christmas holidays")


def _two_candidates() -> list[Passage]:
    # Tiny Tim is the better supported; Peter Cratchit comes first in retrieval order
    return [_about("e1", "PETER CRATCHIT", "PERSON", "Peter Cratchit helps at the Christmas dinner."),
            _about("e2", "TINY TIM", "PERSON", "Tiny Tim sings a song about a lost child travelling in the snow."),
            Passage("TINY TIM → BOB CRATCHIT: Tiny Tim sings a song at the Christmas dinner.", "r3", kind="relationship",
                    mentions=(Mention("TINY TIM", "PERSON"), Mention("BOB CRATCHIT", "PERSON")))]


def test_the_rank_is_the_weighted_sum_of_the_features_and_the_threshold_reads_the_strength():
    found = candidate_features("Who sings a song at the Christmas dinner?", _two_candidates())
    assert [c.name for c, _ in found][:1] == ["Tiny Tim"]
    for cand, features in found:
        assert len(features) == len(FEATURES)
        # the unfitted weights: the rank is the product of the factors, the strength too (all the
        # question's names are in the evidence) but for the joint coverage, which only ranks (a
        # candidate whose evidence never states the question's key term has no strength)
        joint = math.exp(features[FEATURES.index("joint")])
        if "never states" in cand.why:
            assert cand.strength == 0 and cand.score > 0
        else:
            assert cand.score == pytest.approx(cand.strength * joint, rel=1e-4, abs=1e-6)


def test_the_subject_said_to_be_the_relation_noun_is_a_weaker_witness_of_it():
    ps = [_point("The family's composition includes Bob Cratchit, Mrs. Cratchit, Peter, Tiny Tim, and other children.",
                 "BOB CRATCHIT", "TINY TIM"),
          _point("Bob Cratchit is depicted as a devoted father and husband, mourning Tiny Tim in the room above their home "
                 "and caring deeply for his family's well-being.", "BOB CRATCHIT", "TINY TIM"),
          _point("The Cratchit children, including Peter, Tiny Tim, and their siblings, are loving towards one another.", "TINY TIM")]
    found = extract_answer("Who is Peter Cratchit's father?", ps)
    assert found.first_line.startswith("The answer is Bob Cratchit"), found.first_line
    assert "states the relation asked" in found.chosen.why


def test_the_fit_moves_the_weights_toward_the_feature_that_picks_the_right_candidates():
    np = pytest.importorskip("numpy")
    from bench import fit_answers

    first = FEATURES.index("first")
    rng = np.random.default_rng(7)
    data = []
    for n in range(30):
        x = rng.normal(size=(4, len(FEATURES)))
        right = np.zeros(4, dtype=bool)
        right[int(np.argmin(x[:, first]))] = True  # the right one always came first in retrieval order
        data.append((n, x, right))
    w = fit_answers.fit(data, l2=0.01, steps=500)
    assert w[first] < -0.5
    assert fit_answers.top1(data, w) > fit_answers.top1(data, np.array(rank.WEIGHTS)) + 0.3


def _marley() -> list[Passage]:
    return [_about("e1", "MARLEY'S GHOST", "EVENT", "Marley's Ghost comes to Scrooge wearing a chain, to warn him."),
            _about("e2", "JACOB MARLEY", "PERSON", "Jacob Marley was Scrooge's partner; his ghost warns Scrooge."),
            _about("e3", "GHOST OF CHRISTMAS PAST", "PERSON", "The Ghost of Christmas Past comes to Scrooge.")]


def test_a_possessive_name_joins_its_owner_only_when_the_question_asks_for_its_head_noun():
    # asked for a ghost, "Marley's Ghost" is the one meant by Marley's name: one candidate with
    # the evidence of both passages, of the person type the question wants
    asked = {c.name: c for c, _ in candidate_features("Which ghost comes to warn Scrooge, wearing a chain?", _marley())}
    assert "Marley's Ghost" not in asked and set(asked["Jacob Marley"].support) == {0, 1}, asked
    assert asked["Jacob Marley"].type == "PERSON"
    # asked for a person, the ghost is another entity than the man
    partner = {c.name: c for c, _ in candidate_features("Who was Scrooge's partner?", _marley())}
    assert set(partner["Jacob Marley"].support) == {1}, partner


def test_a_possessive_name_whose_owner_is_ambiguous_stays_apart():
    ps = [*_marley()[:1], Passage("SCROOGE AND MARLEY: the firm of Scrooge and Marley keeps its sign.", "e4",
                                  kind="entity", mentions=(Mention("SCROOGE AND MARLEY", "ORGANIZATION"),))]
    names = {c.name for c, _ in candidate_features("Which ghost comes to warn Scrooge, wearing a chain?", ps)}
    assert {"Scrooge and Marley", "Marley's Ghost"} <= names, names


def test_among_thousands_of_names_each_short_name_folds_into_its_one_full_name():
    def cands() -> dict[str, records._Cand]:
        out = {}
        for i in range(2500):
            for name in (f"Given{i}", f"Given{i} Family{i}"):
                out[words._key(name)] = records._Cand(words._key(name), name, "PERSON", {i}, [(i, 0, 1)])
        return out

    # every given name folds into its one full name (found through the index of first and last
    # words, not a scan of every pair: the old pairwise scan took seconds here)
    kept = candidates._merge_aliases(cands(), set())
    assert len(kept) == 2500 and all(len(c.key.split()) == 2 for c in kept)
    assert {c.key for c in kept} == {words._key(f"Given{i} Family{i}") for i in range(2500)}


def _fact(a: str, b: str, text: str, n: int) -> Passage:
    return Passage(f"{a.upper()} → {b.upper()}: {text}", f"doc, chunk {n}", kind="relationship",
                   mentions=(Mention(a.upper(), "PERSON"), Mention(b.upper(), "PERSON")))


def test_the_candidate_whose_evidence_together_says_all_that_is_asked_beats_one_repeating_part(monkeypatch):
    ps = [_fact("Nora Vale", "Ivo Stark", "Nora Vale visits Ivo Stark in the evening.", 1),
          _fact("Nora Vale", "Ivo Stark", "Nora Vale visits Ivo Stark again at night.", 2),
          _fact("Otto Brand", "Ivo Stark", "Otto Brand visits Ivo Stark.", 3),
          _fact("Otto Brand", "Ivo Stark", "Otto Brand came to warn Ivo Stark.", 4)]
    found = extract_answer("Who visits Ivo Stark to warn him?", ps)
    assert found.first_line.startswith("The answer is Otto Brand"), found.first_line
    assert "joint coverage 1.00" in found.chosen.why
    # it must not fire where the other one's evidence says it all: "in the evening" is hers
    assert extract_answer("Who visits Ivo Stark in the evening?", ps).first_line.startswith("The answer is Nora Vale")
    # without the joint coverage, her two "visits" outweigh his "visits" and "warn"
    monkeypatch.setattr(rank, "JOINT", 0.0)
    assert extract_answer("Who visits Ivo Stark to warn him?", ps).first_line.startswith("The answer is Nora Vale")


def test_a_which_noun_question_takes_a_lower_case_name_ending_in_that_noun():
    ps = [Passage("MAINFRAME ROOM: A central hub within Dulce base, with imposing doors standing ajar.", "entity 1",
                  kind="entity", mentions=(Mention("MAINFRAME ROOM", "GEO"),)),
          Passage("MAINFRAME ROOM → DULCE BASE: The mainframe room is a central hub located within Dulce base.", "rel 2",
                  kind="relationship", mentions=(Mention("MAINFRAME ROOM", "GEO"), Mention("DULCE BASE", "GEO"))),
          Passage("DULCE BASE: The base has imposing doors; the mainframe room is its central hub.", "entity 3",
                  kind="entity", mentions=(Mention("DULCE BASE", "GEO"),))]
    assert extract_answer("Which room's doors stand ajar at the central hub?", ps).first_line.startswith(
        "The answer is mainframe room")
    # not for a noun the question does not ask for: "which base" keeps the name
    assert extract_answer("Which base has a central hub?", ps).first_line.startswith("The answer is Dulce base")


def test_a_womans_form_of_address_sets_her_apart_from_the_bare_surname(monkeypatch):
    ps = [_fact("Fezziwig", "Mrs. Fezziwig", "Fezziwig and Mrs. Fezziwig are husband and wife.", 1),
          _fact("Caroline", "Caroline's husband", "Caroline's husband owed money and came home late.", 2)]
    found = extract_answer("Who is Mrs. Fezziwig's husband?", ps)
    assert found.first_line.startswith("The answer is Fezziwig"), found.first_line
    # the possessor of another's husband is not the one asked for
    assert all(c.name != "Caroline" or "states the relation" not in c.why for c in found.rejected)
    # Mr. Fezziwig is Fezziwig: the question's own one, not the answer
    assert not extract_answer("Who is Mr. Fezziwig's wife?", ps).first_line.startswith("The answer is Fezziwig ")
    monkeypatch.setattr(question, "_WOMEN_ADDRESSED", frozenset())
    monkeypatch.setattr(candidates, "_WOMEN_ADDRESSED", frozenset())
    assert not extract_answer("Who is Mrs. Fezziwig's husband?", ps).first_line.startswith("The answer is Fezziwig")


def test_a_woman_named_in_the_question_leaves_other_names_to_be_answers():
    """Only her bare surname is set apart; another person the question names stays its own."""
    ps = [_fact("Mrs. Fezziwig", "Dick Wilkins", "Dick Wilkins danced with Mrs. Fezziwig while Scrooge watched.", 1),
          _fact("Scrooge", "Dick Wilkins", "Scrooge watched Dick Wilkins dance.", 2)]
    found = extract_answer("Who danced with Mrs. Fezziwig while Scrooge watched?", ps)
    assert found.first_line.startswith("The answer is Dick Wilkins"), found.first_line


def test_a_name_whose_evidence_never_states_the_asked_role_does_not_answer():
    # the names stand near the question's other words ("whaling", "ship"), but no evidence says
    # that anyone is its captain: the data does not answer
    ps = [_point("Ned Land sailed on the whaling ship as a harpooner by trade.", "NED LAND"),
          _point("Ned Land and Pierre Aronnax sailed on the whaling ship.", "NED LAND", "PIERRE ARONNAX"),
          _point("The whaling ship left port; Pierre Aronnax kept a journal.", "PIERRE ARONNAX")]
    found = extract_answer("Who is the captain of the whaling ship?", ps)
    assert not found.answered, found.first_line
    assert found.first_line.startswith("The data does not answer the question")
    assert "never states captain" in found.rejected[0].why


def test_a_name_whose_evidence_states_the_asked_role_answers():
    # the same evidence, but one sentence says who its captain is: the rule must not fire
    ps = [_point("Captain of the whaling ship was Ned Land, a harpooner by trade.", "NED LAND"),
          _point("Ned Land and Pierre Aronnax sailed on the whaling ship.", "NED LAND", "PIERRE ARONNAX"),
          _point("The whaling ship left port; Pierre Aronnax kept a journal.", "PIERRE ARONNAX")]
    found = extract_answer("Who is the captain of the whaling ship?", ps)
    assert found.first_line.startswith("The answer is Ned Land"), found.first_line
    assert "never states" not in found.chosen.why


def test_evidence_without_the_asked_act_or_what_it_is_done_to_does_not_answer():
    # "alien" is everywhere, but neither "command" nor "fleet": the evidence is about something else
    ps = [_point("Taylor Cruz studied the alien signal on the monitors while Alex Mercer watched.", "TAYLOR CRUZ", "ALEX MERCER"),
          _point("The alien signal pulsed above Dulce; Taylor Cruz kept the squad on alert.", "TAYLOR CRUZ"),
          _point("Alex Mercer and Taylor Cruz argued about the alien signal.", "ALEX MERCER", "TAYLOR CRUZ")]
    found = extract_answer("Who commands the alien fleet?", ps)
    assert not found.answered and found.first_line.startswith("The data does not answer the question"), found.first_line
    assert "never states" in found.rejected[0].why
    # one sentence says who commands it: the rule must not fire
    ps[2] = _point("Alex Mercer commanded the alien fleet after the first contact.", "ALEX MERCER")
    found = extract_answer("Who commands the alien fleet?", ps)
    assert found.first_line.startswith("The answer is Alex Mercer"), found.first_line
    # a verb of saying is stated by the quoted words, not by the verb
    said = [_point("“Second thoughts, Mercer?” It was Taylor Cruz’s voice.", "TAYLOR CRUZ", "ALEX MERCER")]
    assert "never states" not in (extract_answer("Who asks Mercer whether he has second thoughts?", said).chosen or
                                  extract_answer("Who asks Mercer whether he has second thoughts?", said).rejected[0]).why


def test_a_possessive_pronoun_opening_a_sentence_stands_for_the_person_named_before():
    ps = [Passage("Sam Rivera sat alone in a cramped office. Their fingers paused over the keyboard as they leaned back, "
                  "whispering to thin air, \"What secrets are you hiding from us?\" Outside, Taylor Cruz paced the hall.",
                  "chunk 1", kind="chunk", mentions=(Mention("SAM RIVERA", "PERSON"), Mention("TAYLOR CRUZ", "PERSON"))),
          Passage("Taylor Cruz kept secrets from the team and whispered orders.", "chunk 2", kind="chunk",
                  mentions=(Mention("TAYLOR CRUZ", "PERSON"),))]
    found = extract_answer("Who whispers 'What secrets are you hiding from us?'", ps)
    assert found.first_line.startswith("The answer is Sam Rivera"), found.first_line


def test_a_possessive_pronoun_is_the_owner_not_the_thing_owned():
    # "His father" is not the one "His" stands for: Peter is no father
    ps = [Passage("Peter Cratchit wore a collar. His father stood by the fire.", "chunk 1", kind="chunk",
                  mentions=(Mention("PETER CRATCHIT", "PERSON"),)),
          Passage("Bob Cratchit is a father who stood by the fire.", "chunk 2", kind="chunk",
                  mentions=(Mention("BOB CRATCHIT", "PERSON"),))]
    found = extract_answer("Who is the father that stood by the fire?", ps)
    assert found.first_line.startswith("The answer is Bob Cratchit"), found.first_line


def test_a_surname_the_question_writes_with_a_title_names_only_that_person():
    # "Mrs. Cratchit", a name the evidence knows, is not every Cratchit: her daughter can answer
    q = question._Question("Who helps Mrs. Cratchit lay the cloth?", ["Mrs. Cratchit", "Belinda Cratchit"])
    assert q.overlap("Mrs. Cratchit") == 1.0 and q.overlap("Belinda Cratchit") < 0.5
    # a bare surname still names the person's longer name ("Scrooge" is "Ebenezer Scrooge")
    q = question._Question("Who was Scrooge's partner?", ["Scrooge", "Ebenezer Scrooge"])
    assert q.overlap("Ebenezer Scrooge") == 1.0
    # and a titled surname the evidence knows no such name of extends as before ("Mr. Topper" for "Topper")
    q = question._Question("Who dances with Mr. Fezziwig?", ["Fezziwig", "Joe Fezziwig"])
    assert q.overlap("Joe Fezziwig") == 1.0


def _chunk(text: str, *names: str) -> Passage:
    return Passage(text, f"story {text[:30]}", kind="chunk", mentions=tuple(Mention(n, "PERSON") for n in names))


DIALOGUE = ('"I know what you\'re thinking," Jordan Hayes remarked, approaching Mercer. Their voice was low. '
            '"This feels like more than a rescue mission, doesn\'t it?"\n\n'
            'Alex Mercer turned, his features a mask of uneasy resolve. "It\'s like we\'re being pulled into someone else\'s game. '
            'Not just observers or participants, but... pawns."\n\n'
            'Jordan gave a short nod, their analytical mind racing. "I\'ve felt that way since the briefing."\n\n'
            'Later, on the elevator, Alex praised their sharp analysis. "Thank you, Alex," Jordan said. "You can count on me."')


@pytest.mark.parametrize("flat", [False, True])
def test_the_speaker_of_the_quotation_that_states_the_act_answers_who_says_it(flat):
    # the beat opening a paragraph names the speaker of its quotation, not of the one before it;
    # without paragraph breaks, a beat between two quotations is the next one's
    text = " ".join(DIALOGUE.split()) if flat else DIALOGUE
    ps = [_chunk(text, "Jordan Hayes", "Alex Mercer")]
    assert extract_answer("Who says the team is being pulled into someone else's game, as pawns?", ps).chosen.name == "Alex Mercer"
    # the words the question quotes, said in the quotation after the attribution
    assert extract_answer("Who answers Alex's praise with 'You can count on me'?", ps).chosen.name == "Jordan Hayes"
    # must not: a question the dialogue does not speak to stays unanswered
    assert not extract_answer("Who commands the alien fleet?", ps).answered


def test_a_sentence_opening_with_a_pronoun_past_marks_or_curly_speech_is_of_the_subject():
    from ragprov.llm.answer.question import _Question
    from ragprov.llm.answer.rank import _of_subject
    from ragprov.llm.answer.words import _sentences

    q = _Question("How old is Tiny Tim?", [])
    for opening in ("(He was nine.)", "_He was nine._", "'He was nine.'", "“I don’t know,” she said.", "“Nine,” he said."):
        s = _sentences([Passage("Tiny Tim sat down. " + opening, "c")])
        assert [_of_subject(x, q) for x in s] == [True, True], opening
    # must not fire: no pronoun opens it, and a pronoun inside a word is none
    for opening in ("Bob was forty.", "(There was snow.)", "“I don’t know,” Bob said.", "Hence the snow."):
        s = _sentences([Passage("Tiny Tim sat down. " + opening, "c")])
        assert [_of_subject(x, q) for x in s] == [True, False], opening


def test_the_fit_refuses_a_held_out_split_before_loading_any_question(tmp_path, capsys):
    pytest.importorskip("numpy")
    from bench import fit_answers

    held = tmp_path / "held.jsonl"
    held.write_text('{"split": "check-x", "question": "Which lamp did the porter light?"}\n', encoding="utf-8")
    tuning = tmp_path / "tuning.jsonl"
    tuning.write_text('{"question": "Who rang the bell?"}\n', encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        fit_answers._tuning([tuning, held])
    out = capsys.readouterr()
    assert "check-x" in str(refused.value) and "porter" not in str(refused.value) + out.out + out.err
    assert fit_answers._tuning([tuning]) == [{"split": "train", "question": "Who rang the bell?"}]
    assert {p.name for p in fit_answers.TUNING} >= {"answers-yesno.jsonl", "answers-whose.jsonl", "answers-frames.jsonl"}
