"""Typed which-questions: "Which N …?", "Which of the Ns …?" are answered by one the evidence calls an N (or whose
name says it is one) over one it never does (:mod:`ragprov.llm.answer.typed`), and only a phrase said of the name
itself calls it one."""

from __future__ import annotations

from ragprov.llm.answer import extract_answer
from ragprov.llm.answer.typed import asked_class, called, is_kind_word, names_kind
from ragprov.llm.answer.words import _roots, _Sentence
from ragprov.llm.engine import Mention, Passage


def _chunk(text: str, cid: str, name: str) -> Passage:
    return Passage(text, cid, kind="chunk", mentions=(Mention(name, "PERSON"),))


def _sentence(text: str) -> list[_Sentence]:
    return [_Sentence(0, text, _roots(text))]


def test_which_n_is_one_called_an_n_over_one_more_supported():
    ps = [_chunk("Oswin wore a green cloak to the fair.", "c1", "OSWIN"),
          _chunk("At dusk Oswin wore the green cloak again.", "c2", "OSWIN"),
          _chunk("Greyling, a marsh spirit, wore a green cloak.", "c3", "GREYLING")]
    found = extract_answer("Which spirit wore a green cloak?", ps)
    assert found.first_line == "The answer is Greyling [1].", found.first_line
    assert any("never called the asked noun" in c.why for c in found.rejected if c.name == "Oswin")


def test_the_asked_class_of_a_which_question():
    assert asked_class("Which of the four sailors rowed ashore?") == "sailor"
    assert asked_class("Which of Mr. Tallow's daughters sang?") == "daughter"
    assert asked_class("What kind of merchant was the old man?") == "merchant"
    assert asked_class("Which lantern's wick burned out?") == "lantern"  # a lantern is asked, not a wick
    assert asked_class("Which of them rowed ashore?") is None and asked_class("What did he light?") is None


def test_called_needs_apposition_or_a_predicate_not_a_neighbour():
    text = "Mira, a young sailor, met Abel by the old sailor's boat."
    mira, abel = (0, 0, 4), (0, text.index("Abel"), text.index("Abel") + 4)
    assert called("Mira", [mira], _sentence(text), "sailor") and called("Mira", [mira], _sentence(text), "person")
    assert not called("Abel", [abel], _sentence(text), "sailor")
    assert not called("Abel", [(0, 0, 4)], _sentence("Abel is not a sailor."), "sailor")


def test_a_list_or_a_verb_phrase_after_a_name_does_not_call_it():
    listed = "The crew met Abel, Mira, a sailor, and Ned."
    at = listed.index("Mira")
    assert not called("Mira", [(0, at, at + 4)], _sentence(listed), "sailor")  # the next item of a list
    joining = "Abel, greeting the guests, joined the dance."
    assert not called("Abel", [(0, 0, 4)], _sentence(joining), "dance")
    both = "Abel and Mira are both sailors."
    assert called("Mira", [(0, 9, 13)], _sentence(both), "sailor")  # a bare plural predicate after "are"


def test_a_rare_sense_or_a_group_is_no_kind_of_the_asked_noun():
    assert not is_kind_word("house", "firm") and not is_kind_word("well", "vessel") and is_kind_word("ship", "vessel")
    assert not names_kind("Sam Rook", "weapon") and not names_kind("the Three Spirits", "spirit")
    assert names_kind("the Spectre of the Mill", "spectre") and names_kind("Captain Rook", "captain")
