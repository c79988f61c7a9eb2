"""WordNet answer typing (issue 11): the vendored tables, and "What NOUN …?" answered by a kind of the noun."""

from __future__ import annotations

import threading
from importlib import resources

from ragprov.llm.answer import extract_answer
from ragprov.llm.answer import lexicon as lx
from ragprov.llm.engine import Mention, Passage


def test_tables_ship_small_with_their_licence():
    data = resources.files("ragprov").joinpath("data/wordnet")
    assert len(data.joinpath("lexicon.sqlite").read_bytes()) < 8 * 1024 * 1024
    notice = data.joinpath("NOTICE.md").read_text(encoding="utf-8")
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in notice


def test_look_ups_work_on_any_thread():
    found: list[bool] = []
    t = threading.Thread(target=lambda: found.append(lx.is_a("flannel", "fabric")))
    t.start()
    t.join()
    assert found == [True]
    assert not lx.is_a("flannel", "weapon")


def _passages() -> list[Passage]:
    return [
        Passage("'Putting it on him to be buried in, to be sure,' replied the woman. 'Old Joe laughed at the woman.' "
                "If calico is not good enough to bury him in, nothing is good enough.", "carol, chunk 7",
                mentions=(Mention("OLD JOE", "PERSON"),)),
        Passage("OLD JOE: Old Joe buys what the woman took from the dead man, and the woman says it is good enough.",
                "carol, entity", kind="entity", mentions=(Mention("OLD JOE", "PERSON"),)),
    ]


def test_a_what_noun_question_takes_a_kind_of_the_noun():
    found = extract_answer("What fabric does the woman say is good enough to bury the dead man in?", _passages())
    assert found.first_line.startswith("The answer is calico"), found.first_line


def test_no_kind_of_the_noun_in_the_evidence_no_person_for_it():
    # the evidence names no weapon: the person is no answer to "What weapon …"
    found = extract_answer("What weapon does the woman say is good enough to bury the dead man in?", _passages())
    assert not found.first_line.startswith("The answer is"), found.first_line
