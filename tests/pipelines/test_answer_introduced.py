"""A name the text introduces becomes a candidate answer even when the index knows other names: one
a speaker gives as their own ("I am the Keeper of Lanterns") or one a speaker points at ("This bird is
Doubt"), not only one "named" or "called" so."""

from __future__ import annotations

from ragprov.llm.answer import candidate_features, extract_answer
from ragprov.llm.engine import Mention, Passage

KNOWN = Passage("MIRA → OLD TOM: Old Tom keeps the boats Mira rows.", "tides, chunk 1", kind="relationship",
                mentions=(Mention("MIRA", "PERSON"), Mention("OLD TOM", "PERSON")))


def test_a_speakers_own_name_is_a_candidate():
    said = Passage("A grey figure stood in the surf. 'I am the Keeper of Lanterns, and I rose from the sea to warn you,' "
                   "it told Mira.", "tides, chunk 2")
    for question in ("Who rose from the sea to warn Mira?", "Which spirit rose from the sea to warn Mira?"):
        assert extract_answer(question, [KNOWN, said]).first_line == "The answer is Keeper of Lanterns [1]."


def test_a_name_pointed_at_is_a_candidate():
    said = Passage("Two small birds sat on the sill beside Mira. 'This bird is Hope. This bird is Doubt. Fear the second "
                   "above all,' the old woman told Mira.", "tides, chunk 3")
    found = candidate_features("Which of the two birds on the sill was Mira told to fear above all?", [KNOWN, said])
    assert {"Hope", "Doubt"} <= {c.name for c, _ in found}
