"""Answer extraction finds a name in a sentence by string search (``_name_spans``) exactly where the
name's regular expression (``_name_pattern``) finds it: compared on generated names and texts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragprov.llm.answer.words import _name_pattern, _name_spans

WORDS = ["Jacob", "Marley", "jacob", "MARLEY", "Mr.", "O'Neil", "Bob", "Cratchit", "Tim", "x", "Ebenezer", "İstanbul", "ß"]
GLUE = [" ", "  ", "-", " - ", "'s ", "’s ", "s ", ", ", ".", "_", "\n", "ab", ""]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
       st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(GLUE)), max_size=12))
def test_name_spans_are_the_patterns_matches(name_words, pieces):
    name = " ".join(name_words)
    text = "".join(w + g for w, g in pieces)
    assert _name_spans(name, text) == [m.span() for m in _name_pattern(name).finditer(text)]


def test_name_spans_examples():
    text = "Old Jacob  Marley's ghost; jacob-marley, Jacob Marleys."
    assert _name_spans("Jacob Marley", text) == [(4, 19), (27, 39)]
    assert _name_spans("Tim", "Tiny Tim's crutch; Timothy") == [(5, 10)]
