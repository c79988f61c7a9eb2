"""The document links a Microsoft GraphRAG focus writes (tg:restsOn, tg:traceRestsOn) are read
ahead by the recorder when the store keeps the command's updates until it ends (``ragprov ask``:
:func:`ragprov.store.staging.one_update`), and walked in the update otherwise: the trace is the
same either way (``Recorder.documents_ahead``)."""

from __future__ import annotations

import datetime as dt
import itertools

from pyoxigraph import BlankNode, NamedNode

from ragprov.namespaces import RETRIEVAL_GRAPH, TG
from ragprov.pipelines import DriftSearch, DriftSearchParams
from ragprov.record import ExplainEvent, Recorder
from ragprov.store import EmbeddedStore

from .conftest import FACTS, carol_index

LIBRARY = NamedNode("urn:graph:library")


class KeptStore(EmbeddedStore):
    """An in-memory store that keeps every update it sends (their text)."""

    def __init__(self):
        super().__init__()
        self.sent: list[str] = []

    def _update(self, sparql: str) -> None:
        self.sent.append(sparql)
        super()._update(sparql)


def _drift_trace(defer: bool) -> tuple[set, list[str], list]:
    store = carol_index()
    kept = KeptStore()
    kept.raw.extend(store.raw)  # the same index, in a store that keeps what it is sent
    ids = itertools.count()
    recorder = Recorder(kept, buffered=True, clock=lambda: dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
                        new_id=lambda: f"id{next(ids)}")
    if defer:
        kept.defer_updates()
    pipe = DriftSearch(kept, facts_graph=FACTS, recorder=recorder, params=DriftSearchParams(k_followups=2, depth=1, reduce_answers=3))
    events = [(e.stage, e.explain_triples, e.library_triples) for e in pipe.run("Who is Scrooge's nephew?") if isinstance(e, ExplainEvent)]
    if defer:
        kept.send_deferred()
    quads = {q for g in (RETRIEVAL_GRAPH, LIBRARY) for q in kept.raw.quads_for_pattern(None, None, None, g)}
    return quads, kept.sent, [*events, pipe.result.answer]


def test_the_trace_is_the_same_whether_the_document_links_are_read_ahead_or_walked():
    walked, walked_sent, walked_events = _drift_trace(defer=False)
    ahead, ahead_sent, ahead_events = _drift_trace(defer=True)
    assert not any(isinstance(t, BlankNode) for q in walked for t in (q.subject, q.object))  # isomorphic: equal
    links = {q for q in walked if q.predicate in (TG.restsOn, TG.traceRestsOn)}
    assert links  # the walk found documents: the comparison is not between two empty sets
    assert ahead == walked
    assert ahead_events == walked_events  # and the live stream shows each stage's triples as before, and the same answer
    # walked: each focus walks in its own update; read ahead: one update that walks nothing
    walk = "<http://www.w3.org/ns/prov#wasDerivedFrom>*"
    assert any(walk in text for text in walked_sent)
    assert len(ahead_sent) == 1 and walk not in ahead_sent[0] and "VALUES ?document" in ahead_sent[0]


def test_a_store_that_sends_each_update_at_once_walks_in_the_update():
    store = EmbeddedStore()
    recorder = Recorder(store)
    assert recorder.documents_ahead([], [NamedNode("urn:x")], []) is None  # not deferring: the update walks
    store.defer_updates()
    store.update("INSERT DATA { <urn:a> <urn:b> <urn:c> }")
    assert recorder.documents_ahead([], [], []) == []
    assert recorder.documents_ahead([], [NamedNode("urn:x")], []) == []  # nothing derives it: no document


def test_the_document_links_query_finds_nothing_for_nothing_kept():
    """The read-ahead query is safe on its own (not only behind the recorder's guard): with no edge and
    no item kept it reaches no document, though the store holds documents, in every dialect."""
    from ragprov.sparql.templates import render

    store = carol_index()
    for dialect in ("rdf12", "rdfstar", "reification"):
        assert list(store.select(render("record/document-links", dialect, edges=[], items=[], reports=[]))) == [], dialect
