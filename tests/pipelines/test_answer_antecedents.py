"""Whom a person pronoun stands for (:mod:`ragprov.llm.answer.antecedents`): the candidates' step, the who-slot
filler and a yes-no question's score look back to one sentence, the nearest one before that names someone."""

from __future__ import annotations

from ragprov.llm.answer.antecedents import looked_back, opening_pronoun, person_sentence
from ragprov.llm.answer.candidates import _gazetteer, _resolve_pronouns
from ragprov.llm.answer.doers import _looked_back_to, _named_before
from ragprov.llm.answer.question import _PERSON, _Question
from ragprov.llm.answer.records import _Cand
from ragprov.llm.answer.words import _sentences
from ragprov.llm.engine import Passage

#: a pronoun after a sentence that names no one: it stands for the person named in the one before that
TEXT = "Ines met the clerk at the mill. The wheel creaked. She left at dusk."


def _resolved(text: str, question: str = "Who left at dusk?") -> dict[str, list[str]]:
    ss = _sentences([Passage(text, "c")])
    cands = {n: _Cand(n.lower(), n, _PERSON) for n in ("Ines", "Oswin")}
    _gazetteer(cands, ss)
    _resolve_pronouns(cands, ss, _Question(question, []), set())
    return {n: [ss[k].text[a:b] for k, a, b in c.hits] for n, c in cands.items()}


def test_every_caller_looks_back_past_a_sentence_naming_no_one_to_the_same_person():
    ss = _sentences([Passage(TEXT, "c")])
    assert _resolved(TEXT)["Ines"] == ["Ines", "She"]
    assert _named_before(_looked_back_to(ss, 2)) == "Ines"
    assert person_sentence(ss[2].before) == "Ines met the clerk at the mill."


def test_the_nearest_sentence_naming_someone_wins_and_the_reach_is_bounded():
    assert _resolved("Ines slept. Oswin woke. He left.") == {"Ines": ["Ines"], "Oswin": ["Oswin", "He"]}
    # the candidates' step passes over a sentence that names only whom the question names
    assert _resolved("Ines slept. Oswin woke. They left.", "Who left Oswin?")["Ines"] == ["Ines", "They"]
    # must not fire: the one named is out of reach, or another passage's
    assert _resolved("Ines slept. The wheel creaked. The mill shook. She left.")["Ines"] == ["Ines"]
    ss = _sentences([Passage("Ines slept.", "c"), Passage("She left.", "d")])
    assert _looked_back_to(ss, 1) == "" and looked_back([], bool) is None


def test_a_speakers_pronoun_is_no_mention_but_speaks_of_the_one_named():
    assert opening_pronoun("“She left,” said Oswin.") is None
    assert opening_pronoun("“She left,” said Oswin.", spoken=True) == (1, 4)
    assert opening_pronoun("“Go,” she said.") == (6, 9)


def test_a_name_that_is_also_a_verb_names_someone_and_a_title_ends_no_sentence():
    ss = _sentences([Passage("Ines rose. Bob came in. He sat by the fire.", "c")])
    assert _named_before(_looked_back_to(ss, 2)) == "Bob"  # "Bob" is a verb's plain form too
    ss = _sentences([Passage("Ines rose. Went the bell. He sat by the fire.", "c")])
    assert _named_before(_looked_back_to(ss, 2)) == "Ines"  # "Went" is capitalised only for opening its sentence
    ss = _sentences([Passage("Ines spoke to Mr. Hale at noon. The bell rang. She left at dusk.", "c")])
    assert person_sentence(ss[2].before) == "Ines spoke to Mr. Hale at noon."
