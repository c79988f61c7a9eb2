"""The text modes' evidence (:mod:`ragprov.pipelines.evidence`): an e-book's licence after its
END marker is left out of the answer's evidence unless the question is about it."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from ragprov.loaders.documents import load_documents
from ragprov.pipelines import pipeline
from ragprov.pipelines.evidence import BodyMarkers, drop_matter, matter_spans
from ragprov.record import Recorder
from ragprov.retrieve.indexes import ChunkRecord
from ragprov.store import open_store

STORY = ("*** START OF THE PROJECT GUTENBERG EBOOK THE MILL ***\n\n"
         "Martha Grey works at the old mill by the river. Every morning she walks to the mill.\n\n"
         "Her brother Tom keeps the accounts at the mill.\n\n"
         "*** END OF THE PROJECT GUTENBERG EBOOK THE MILL ***\n\n")
LICENCE = ("Creating the works from print editions not protected by U.S. copyright law means that no one "
           "owns a United States copyright in these works. Michael Hart founded the Project Gutenberg works "
           "and the Foundation. ") * 3


def test_units_after_the_end_marker_are_back_matter():
    doc = NamedNode("urn:x:doc")
    units = [ChunkRecord(NamedNode(f"urn:x:{i}"), t, doc, index=i)
             for i, t in enumerate([STORY[:60], STORY[60:], LICENCE, "More licence."])]
    markers = BodyMarkers(units)
    backs = [markers.matter(u).has_matter for u in units]
    assert backs == [False, True, True, True]
    split = markers.matter(units[1])
    assert not split.back(0) and split.back(len(units[1].text) - 5)
    # another document's units are not this one's matter
    other = ChunkRecord(NamedNode("urn:x:o"), "Licence words.", NamedNode("urn:x:other"), index=9)
    assert not markers.matter(other).has_matter


def test_the_licence_is_dropped_for_a_story_question_and_kept_for_its_own():
    texts = [STORY, LICENCE]
    matters = [matter_spans(STORY), matter_spans(LICENCE, after_body=True)]
    story = drop_matter("Where does Martha Grey work?", texts, matters)
    assert story[1] is None and "END OF" not in story[0] and "Martha Grey works" in story[0]
    assert drop_matter("Who founded Project Gutenberg?", texts, matters) == texts


@pytest.mark.parametrize("mode", ["doc-rag", "basic"])
def test_the_text_modes_answer_from_the_story_not_the_licence(tmp_path, mode):
    path = tmp_path / "mill.txt"
    path.write_text("Title: The Mill\n\n" + STORY + LICENCE, encoding="utf-8")
    store = open_store("memory:")
    load_documents(store, [path], chunk_size=160, chunk_overlap=0)
    pipe = pipeline(mode, store, recorder=Recorder(store))
    for _ in pipe.run("Where does Martha Grey work?"):
        pass
    assert pipe.result.passages and not any("United States" in p.text for p in pipe.result.passages)
    assert "United States" not in pipe.result.answer.splitlines()[0]
    for _ in pipe.run("Who founded Project Gutenberg?"):
        pass
    assert any("Michael Hart" in p.text for p in pipe.result.passages)
