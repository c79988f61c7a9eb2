"""The offline engine on the bundled A Christmas Carol GraphRAG output: questions about the main
characters and events select edges whose sources are chunks that mention them, the answer is built
from those edges, and the same question gives the same answer and edges."""

from __future__ import annotations

import re

import pytest
from pyoxigraph import NamedNode

from ragprov.namespaces import LIBRARY_GRAPH, TG
from ragprov.pipelines import DocRag, GraphRag
from ragprov.record import ExplainEvent

from .conftest import FACTS, carol_index, validate


@pytest.fixture(scope="module")
def carol():
    return carol_index()


def chunk_text(store, chunk: NamedNode) -> str:
    return next(store.raw.quads_for_pattern(chunk, TG.content, None, LIBRARY_GRAPH)).object.value


def selected_edges(events):
    focus = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "focus")
    return [t.object for t in focus.explain_triples if t.predicate == TG.edge]


@pytest.mark.parametrize(
    "question, mention",
    [
        ("Who is Tiny Tim?", r"\bTim\b"),
        ("Who was Jacob Marley?", r"\bMarley\b"),
        ("What happens at Fezziwig's Christmas ball?", r"\bFezziwig\b"),
        ("What does the Ghost of Christmas Yet to Come show Scrooge?", r"\bSpirit|Phantom|Ghost\b"),
    ],
)
def test_selected_edges_rest_on_chunks_that_mention_the_subject(carol, question, mention):
    pipe = GraphRag(carol, facts_graph=FACTS)
    events = list(pipe.run(question))
    edges = selected_edges(events)
    assert edges, question
    origins = pipe.origins(edges[:5])  # an edge's statements' chunks, a seed's description's entity's
    for edge in edges[:5]:
        chunks = [s.chunk for s in origins.get(edge, []) if s.chunk is not None]
        assert chunks, f"no source chunk for {edge}"
        assert any(re.search(mention, chunk_text(carol, c), re.I) for c in chunks), (question, edge)
    # the answer is extracted from the selected edges: its first line states it with citations,
    # and the passages it rests on are selected edges
    first = pipe.result.answer.splitlines()[0]
    assert re.search(r"\[\d+\]\.?$", first), first
    assert pipe.result.answered and pipe.result.support.support
    assert all(pipe.result.passages[i].item.startswith("urn:trustgraph:prov:edge:") for i in pipe.result.support.support)
    assert "Sources:\n[1] a-christmas-carol.txt, chunk " in pipe.result.answer
    assert {s.title for s in pipe.result.sources} == {"a-christmas-carol.txt"}


def test_same_question_twice_same_answer_and_edges(carol):
    first = GraphRag(carol, facts_graph=FACTS)
    a = selected_edges(list(first.run("Who is Scrooge's nephew?")))
    second = GraphRag(carol, facts_graph=FACTS)
    b = selected_edges(list(second.run("Who is Scrooge's nephew?")))
    assert a == b and first.result.answer == second.result.answer
    assert "FRED" in first.result.answer
    validate(carol)


def test_docrag_on_the_text_units(carol):
    pipe = DocRag(carol)
    list(pipe.run("What did Scrooge say about Christmas? Humbug"))
    assert "Humbug" in pipe.result.answer or "humbug" in pipe.result.answer
    assert pipe.result.sources and pipe.result.sources[0].chunk is not None
