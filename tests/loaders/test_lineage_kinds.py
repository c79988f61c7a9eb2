"""`lineage document` for every trace kind, without walking the retrieval graph.

Two GraphRAG indexes share one store (A Christmas Carol, Operation Dulce). Each pipeline answers a
question about each; for every trace kind, the Carol document lists the Carol trace (its kind,
its answer, the items that tie it) and not the Dulce trace, and the other way round.
"""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from ragprov.loaders.graphrag import load_graphrag
from ragprov.navigate.lineage import Lineage
from ragprov.pipelines import (
    Agent,
    BasicSearch,
    BasicSearchParams,
    DocRag,
    DriftSearch,
    DriftSearchParams,
    GlobalSearch,
    GlobalSearchParams,
    GraphRag,
    LocalSearch,
    LocalSearchParams,
)
from ragprov.record import Recorder
from ragprov.resources import data_dir
from ragprov.store import EmbeddedStore

from .helpers import GRAPHRAG

FACTS = NamedNode("urn:graph:facts")
TG = "https://trustgraph.ai/ns/"

QUESTIONS = {"carol": "Who is Tiny Tim?", "dulce": "Who is Alex Mercer?"}


def _document(store, title: str) -> NamedNode:
    rows = store.select(
        "SELECT ?d WHERE { GRAPH <urn:graph:source> { ?d a <https://trustgraph.ai/ns/Document> ; "
        f"<http://purl.org/dc/elements/1.1/title> ?t . FILTER(CONTAINS(LCASE(STR(?t)), {title!r})) }} }}"
    )
    (row,) = rows
    return row["d"]


@pytest.fixture(scope="module")
def index():
    store = EmbeddedStore()
    load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS, show_progress=False)
    # its own namespace: community IRIs are numbered per index
    load_graphrag(store, GRAPHRAG["operation-dulce-v3"], facts_graph=FACTS, namespace="urn:dulce:", show_progress=False)
    return store


def _pipelines(store):
    recorder = Recorder(store)
    options = dict(recorder=recorder, facts_graph=FACTS)
    return {
        "graph-rag": GraphRag(store, **options),
        "doc-rag": DocRag(store, **options),
        "agent": Agent(store, **options),
        "local": LocalSearch(store, params=LocalSearchParams(max_tokens=4000), **options),
        "global": GlobalSearch(store, params=GlobalSearchParams(max_level=0), **options),
        "drift": DriftSearch(store, params=DriftSearchParams(k_followups=1, depth=1, reduce_answers=2), **options),
        # the 3 nearest text units (the Dulce index has 5: with Microsoft's k=10 the rest come from the Carol)
        "basic": BasicSearch(store, params=BasicSearchParams(k=3), **options),
    }


@pytest.mark.parametrize("kind", ["graph-rag", "doc-rag", "agent", "local", "global", "drift", "basic"])
def test_document_lists_the_answers_that_used_it_and_no_other(index, kind):
    pipe = _pipelines(index)[kind]
    questions = {}
    for corpus, text in QUESTIONS.items():
        list(pipe.run(text))
        questions[corpus] = pipe.result.question
    lineage = Lineage(index, facts_graph=FACTS)
    docs = {"carol": _document(index, "carol"), "dulce": _document(index, "dulce")}
    for corpus, doc in docs.items():
        answers = lineage.document_answers(doc)
        mine = [a for a in answers if questions[corpus] in (a.question, a.parent_question)]
        assert mine, f"{kind}: {corpus} document does not list its own trace: {[a.to_json() for a in answers]}"
        other = "dulce" if corpus == "carol" else "carol"
        assert all(questions[other] not in (a.question, a.parent_question) for a in answers), (kind, corpus)
        for a in mine:
            assert a.stages and a.query and a.started and a.kind
            assert a.answers, a.to_json()
        # the document links the stages recorded list what the link-free look-ups find, item for item
        with_items = lineage.document_answers(doc, items=True)
        tied = lineage.document_answers(doc, unlinked=True, items=True)
        assert [_same(a) for a in with_items] == [_same(a) for a in tied], (kind, corpus)
        assert all(a.items for a in with_items if a in mine or a.question in {m.question for m in mine})
        top = [a for a in mine if a.question == questions[corpus]]
        sub = [a for a in mine if a.parent_question == questions[corpus]]
        if kind == "agent":
            assert sub and {a.kind for a in sub} <= {"graph-rag", "doc-rag"}
        elif kind == "drift":
            assert sub and {a.kind for a in sub} == {"local"}
        else:
            assert top and top[0].kind == kind
        # a first page lists the newest traces alike
        page = lineage.document_answers(doc, limit=len(answers))
        assert [_same(a) for a in page] == [_same(a) for a in answers], (kind, corpus)
        (first,) = lineage.document_answers(doc, limit=1)
        assert _same(first) == _same(answers[0])
        # pages of every size after one another list them all, newest first; each says how many in all
        whole = lineage.document_page(doc)
        assert whole.total == len(answers)
        assert not whole.partly_linked, kind  # every trace this ragprov records carries its trace link
        for size in (1, 2):
            pages = [lineage.document_page(doc, limit=size, offset=o) for o in range(0, len(answers) + size, size)]
            assert {p.total for p in pages} == {len(answers)} and not pages[-1].answers
            assert [_same(a) for p in pages for a in p.answers] == [_same(a) for a in answers], (kind, corpus, size)


def _same(answer) -> dict:
    """An answer's JSON with its lists in one order (the two ways of reading find items in different orders)."""
    return {k: sorted(v) if isinstance(v, list) else v for k, v in answer.to_json().items()}
