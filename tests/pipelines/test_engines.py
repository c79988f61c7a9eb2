"""Retrieval on every store engine (oxigraph embedded, oxigraph over HTTP, Jena, Virtuoso — whose
default graph is the union of all graphs): facts in ``urn:graph:facts``, provenance elsewhere."""

from __future__ import annotations

import pytest

from ragprov.namespaces import TG
from ragprov.pipelines import BasicSearch, DocRag, GraphRag
from ragprov.record import ExplainEvent, Recorder

from . import graphs
from .conftest import FACTS

pytestmark = pytest.mark.engine


def test_graphrag_reads_the_configured_facts_graph_on_every_engine(store):
    graphs.build(store, FACTS)
    pipe = GraphRag(store, recorder=Recorder(store), facts_graph=FACTS)
    events = list(pipe.run("Who was Scrooge's business partner?"))
    focus = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "focus")
    edges = [t.object for t in focus.explain_triples if t.predicate == TG.edge]
    assert edges[0] == graphs.fact("scrooge", "partner", "marley")
    assert all("secret" not in e.predicate.value for e in edges)  # the provenance decoy is never explored
    assert pipe.result.sources[0].chunk == graphs.chunk_iri("c0")
    assert pipe.result.sources[0].page == 1 and pipe.result.sources[0].title == "A Christmas Carol"
    assert "[1] A Christmas Carol, p. 1, chunk 0\n" in pipe.result.answer  # lineage/edge-sources, one query
    # the exploration reads labels from the facts graph only: entity seeds are real entities
    exploration = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "exploration")
    seeds = [t.object.value for t in exploration.explain_triples if t.predicate == TG.entity]
    assert seeds and all(s.startswith(graphs.E) for s in seeds)


def test_docrag_on_every_engine(store):
    graphs.build(store, FACTS)
    pipe = DocRag(store, recorder=Recorder(store))
    list(pipe.run("Who was ill, Tiny Tim?"))
    assert pipe.result.sources[0].chunk == graphs.chunk_iri("c2")


def test_basic_search_on_every_engine(store):
    """Vector search with no persistent index: the chunks are read through the templates and
    embedded in the reader; the nearest one is the chunk about Tiny Tim's illness."""
    graphs.build(store, FACTS)
    pipe = BasicSearch(store, recorder=Recorder(store), facts_graph=FACTS)
    events = list(pipe.run("Who was ill, Tiny Tim?"))
    focus = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "focus")
    items = {t.subject: t.object for t in focus.explain_triples if t.predicate == TG.item}
    scores = {t.subject: float(t.object.value) for t in focus.explain_triples if t.predicate == TG.score}
    assert set(scores) == set(items)
    assert items[max(scores, key=scores.__getitem__)] == graphs.chunk_iri("c2")
