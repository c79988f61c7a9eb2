"""The recorded graph, pinned: every trace kind, recorded with a fixed clock and fixed ids over a
small extraction (so that every stage's document links are computed), gives exactly the quads of
``tests/core/golden/recorded-traces.<dialect>.nq`` (canonical N-Quads: sorted lines).

A change that only makes recording cheaper (the templates' text, the filters, the recorder's own
code) must leave these files as they are. A change of the recorded shape rewrites them, on purpose:
``python -m tests.core.test_recorded_shape`` (and says so: readers and bench caches depend on it).
"""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from ragprov.record import EdgeSelection, Recorder
from ragprov.record.answer import AnswerSupport, CandidateRecord
from ragprov.sparql import Dialect
from ragprov.sparql.templates import render
from ragprov.store import EmbeddedStore

from .builders import agent_trace, doc_rag_trace, graph_rag_inputs, record_graph_rag

GOLDEN = Path(__file__).parent / "golden"
DIALECTS = (Dialect.RDF12, Dialect.REIFICATION)
FACTS = NamedNode("urn:graph:facts")
E = "urn:e:1:"


def _clock():
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    counter = itertools.count()
    return lambda: start + dt.timedelta(milliseconds=1500 * next(counter))


def _ids():
    counter = itertools.count()
    return lambda: f"g{next(counter)}"


def _edges() -> list[Triple]:
    """The edges graph_rag_inputs(1) keeps (the first five are extracted from the Carol's chunk)."""
    return [s.edge for s in graph_rag_inputs(1, edges=8)["selections"]]


def _source(store: EmbeddedStore) -> None:
    """Two documents, a page and a chunk each; statements for some edges; entities extracted from the
    chunks; a community of those entities with its report (in the facts graph)."""
    d = store.dialect
    lines = []
    for doc in ("carol", "dulce"):
        lines += [
            f"<urn:doc:{doc}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://trustgraph.ai/ns/Document> <urn:graph:source> .",
            f"<urn:doc:{doc}/p1> <http://www.w3.org/ns/prov#wasDerivedFrom> <urn:doc:{doc}> <urn:graph:source> .",
            f"<urn:doc:{doc}/c0> <http://www.w3.org/ns/prov#wasDerivedFrom> <urn:doc:{doc}/p1> <urn:graph:source> .",
        ]
    for i in range(4):
        lines.append(f"<{E}{i}> <http://www.w3.org/ns/prov#wasDerivedFrom> <urn:doc:carol/c0> <urn:graph:source> .")
        lines.append(f"<urn:comm:1> <https://trustgraph.ai/ns/hasMember> <{E}{i}> <{FACTS.value}> .")
    lines.append(f"<urn:report:1> <https://trustgraph.ai/ns/community> <urn:comm:1> <{FACTS.value}> .")
    for i in range(2):  # the DocRAG trace's chunks
        lines.append(f"<urn:doc:1/c{i}> <http://www.w3.org/ns/prov#wasDerivedFrom> <urn:doc:carol/p1> <urn:graph:source> .")
    lines.append("<urn:unit:dulce> <http://www.w3.org/ns/prov#wasDerivedFrom> <urn:doc:dulce/c0> <urn:graph:source> .")
    store.load("\n".join(lines) + "\n", format="nquads")
    activity = NamedNode("urn:load:1")
    for n, edge in enumerate(_edges()[:6]):
        chunk = NamedNode("urn:doc:carol/c0" if n < 5 else "urn:doc:dulce/c0")
        store.update(render("extract/statement", d, statement=NamedNode(f"urn:stmt:{n}"), fact=edge, derived_from=[chunk],
                            activity=activity))


def _support(items: list[NamedNode]) -> AnswerSupport:
    return AnswerSupport(
        answer="Jacob Marley", kind="who", supported_by=tuple(items[:2]),
        candidates=(CandidateRecord("Jacob Marley", 0.9, True, "PERSON", tuple(items[:1]), "named twice"),
                    CandidateRecord("Bob \"Cratchit\"\n", 0.25, False)),
        cited=tuple(items[1:3]), notes=("[Data: Reports (99)] names nothing",),
    )


def _record_all(recorder: Recorder) -> None:
    # GraphRAG, with an answer's support and every optional part
    inputs = graph_rag_inputs(1, edges=8)
    t = recorder.graph_rag(inputs["query"], model="test-model/1", session_id="graph")
    t.grounding(inputs["concepts"], in_token=120, out_token=30, prompt="extract-concepts@1")
    t.exploration(inputs["entities"][:5], edge_count=30, hops=inputs["hops"])
    t.focus(inputs["selections"] + [EdgeSelection(Triple(NamedNode("urn:e:x"), NamedNode("urn:r:y"), Literal("z", language="en")))],
            in_token=800, out_token=200, prompt="select-edges@1")
    t.synthesis(inputs["answer"], in_token=600, out_token=80, prompt="synthesize@1", support=_support(t.selection_iris))
    record_graph_rag(recorder, graph_rag_inputs(2, concepts=2, seeds=3, edges=2))
    # DocRAG (reranked), agent with a GraphRAG sub-trace, agent with a failed tool
    doc_rag_trace(recorder, 1)
    agent_trace(recorder, 1)
    agent_trace(recorder, 2, fail_tool=True)
    _record_microsoft(recorder)


def _record_microsoft(recorder: Recorder) -> None:
    units = [NamedNode("urn:doc:carol/c0"), NamedNode("urn:unit:dulce")]
    edge = _edges()[0]
    # local
    local = recorder.microsoft("local", "Who is Tiny Tim?", model="offline", session_id="local")
    local.grounding(["Tiny Tim"])
    local.exploration([NamedNode(f"{E}0")], [NamedNode(f"{E}0"), NamedNode("urn:report:1"), *units])
    local.focus([
        {"iri": NamedNode(f"{local.question.value}/item/1"), "item": NamedNode("urn:report:1"), "kind": "report", "rank": 1,
         "score": 0.5, "tokens": 120, "edge": None},
        {"iri": NamedNode(f"{local.question.value}/item/2"), "item": NamedNode("urn:rel:1"), "kind": "relationship", "rank": 2,
         "score": None, "tokens": 12, "edge": edge},
        {"iri": NamedNode(f"{local.question.value}/item/3"), "item": units[1], "kind": "text-unit", "rank": 3,
         "score": 1.0, "tokens": None, "edge": None},
    ], derived_from=[local.last], prompt="local-context@1")
    local.synthesis("Tiny Tim is Bob's son.", support=_support([NamedNode(f"{local.question.value}/item/1")]))
    # global, with community selection and two map steps
    glob = recorder.microsoft("global", "What are the themes?", model="offline", session_id="global", previous_turn=local.last)
    glob.grounding(["themes"])

    class Rating:
        def __init__(self, rank, kept):
            self.report, self.level, self.rating, self.rank, self.kept = NamedNode(f"urn:report:{rank}"), rank - 1, 5.0 - rank, rank, kept
            self.reason = "relevant" if kept else None

    glob.community_selection([Rating(1, True), Rating(2, False)], threshold=2.0, prompt="rate@1", in_token=10, out_token=2)
    batch = NamedNode(f"{glob.question.value}/batch/1")
    exploration = glob.exploration([], [NamedNode("urn:report:1")],
                                   batches=[{"iri": batch, "number": 1, "reports": [NamedNode("urn:report:1")]}]).explain_id
    points = []
    for n in (1, 2):
        result = glob.stage_iri(f"map/{n}")
        mine = [{"iri": NamedNode(f"{result.value}/point/1"), "content": f"Point {n}", "score": 80.0 / n,
                 "reports": [NamedNode("urn:report:1")]}]
        glob.map_result(n, batch, mine, exploration=exploration, in_token=50, out_token=20, prompt="map@1")
        points += [p["iri"] for p in mine]
    glob.focus([], derived_from=[glob.stage_iri("map/1"), glob.stage_iri("map/2")], points=points, prompt="reduce@1")
    glob.synthesis("Redemption.", in_token=100, out_token=10)
    # DRIFT: primer and one follow-up answered by a local sub-trace
    drift = recorder.microsoft("drift", "How does Scrooge change?", model="offline", session_id="drift")
    drift.grounding(["Scrooge"])
    drift.exploration([NamedNode(f"{E}1")], [NamedNode("urn:report:1")])
    primer = drift.drift_action(0, derived_from=[drift.last], query="How does Scrooge change?", depth=0, score=40.0,
                                follow_ups=["Who visits him?", "When?"], answer="He repents.", sub_trace=None, prompt="primer@1")
    action1 = drift.action_iri(1)
    sub = recorder.microsoft("local", "Who visits him?", model="offline", used=action1, session_id="drift-sub")
    sub.grounding(["visits"])
    sub.exploration([], [units[0]])
    sub.focus([{"iri": NamedNode(f"{sub.question.value}/item/1"), "item": units[0], "kind": "text-unit", "rank": 1,
                "score": None, "tokens": 30, "edge": None}], derived_from=[sub.last])
    sub.synthesis("Three spirits.")
    drift.drift_action(1, derived_from=[primer.explain_id, sub.last], query="Who visits him?", depth=1, score=None,
                       follow_ups=[], answer="Three spirits.", sub_trace=sub.question, prompt=None)
    drift.focus([{"iri": NamedNode(f"{drift.question.value}/item/1"), "item": action1, "kind": "action", "rank": 1,
                  "score": 0.7, "tokens": None, "edge": None}], derived_from=[action1])
    drift.synthesis("He repents, visited by three spirits.")
    # basic
    basic = recorder.microsoft("basic", "Who is Fred?", session_id="basic")
    basic.grounding([])
    basic.exploration([], units)
    basic.focus([{"iri": NamedNode(f"{basic.question.value}/item/{n}"), "item": u, "kind": "text-unit", "rank": n,
                  "score": 1.0 / n, "tokens": 40, "edge": None} for n, u in enumerate(units, start=1)], derived_from=[basic.last])
    basic.synthesis("Scrooge's nephew.")


def recorded(dialect: Dialect, *, buffered: bool = False) -> str:
    """Every trace kind recorded into a fresh store over the small extraction: its canonical N-Quads."""
    store = EmbeddedStore()
    store.dialect = dialect
    _source(store)
    _record_all(Recorder(store, clock=_clock(), new_id=_ids(), buffered=buffered))
    lines = store.dump(format="nquads").decode("utf-8").splitlines()
    return "".join(sorted(line + "\n" for line in lines if line.strip()))


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.value)
def test_recorded_quads_are_the_golden_ones(dialect):
    got = recorded(dialect)
    expected = (GOLDEN / f"recorded-traces.{dialect.value}.nq").read_text(encoding="utf-8")
    assert got == expected, "the recorded graph changed: if on purpose, rewrite with python -m tests.core.test_recorded_shape"


def test_the_golden_traces_hold_document_links_of_every_kind():
    """The fixture exercises what it pins: each kind's kept items tie it to the Carol document."""
    golden = (GOLDEN / "recorded-traces.rdf12.nq").read_text(encoding="utf-8")
    links = [line for line in golden.splitlines() if "<https://trustgraph.ai/ns/restsOn>" in line]
    for stage in ("urn:trustgraph:prov:focus:graph", "urn:trustgraph:docrag:", "urn:ragprov:local:local/focus",
                  "urn:ragprov:global:global/focus", "urn:ragprov:local:drift-sub/focus", "urn:ragprov:basic:basic/focus"):
        assert any(line.startswith(f"<{stage}") and "<urn:doc:carol>" in line for line in links), stage
    assert any("<urn:doc:dulce>" in line for line in links)


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.value)
def test_buffered_recording_writes_the_same_quads(dialect):
    assert recorded(dialect, buffered=True) == (GOLDEN / f"recorded-traces.{dialect.value}.nq").read_text(encoding="utf-8")


class _Capture:
    def __init__(self, dialect: Dialect):
        self.dialect = dialect
        self.updates: list[str] = []

    def update(self, sparql: str) -> None:
        self.updates.append(sparql)


def test_rdfstar_updates_are_the_rdf12_ones_with_rdfstar_quoting():
    """No pyoxigraph reads RDF-star ``<< >>`` as a triple term: that dialect is pinned through the
    RDF 1.2 golden, its text being the RDF 1.2 text with only the quoting spelled differently."""
    rdf12, rdfstar = _Capture(Dialect.RDF12), _Capture(Dialect.RDFSTAR)
    _record_all(Recorder(rdf12, clock=_clock(), new_id=_ids()))
    _record_all(Recorder(rdfstar, clock=_clock(), new_id=_ids()))
    assert len(rdf12.updates) == len(rdfstar.updates) > 50
    assert any("<<( " in u for u in rdf12.updates)
    for a, b in zip(rdf12.updates, rdfstar.updates, strict=True):
        assert a.replace("<<( ", "<< ").replace(" )>>", " >>") == b


if __name__ == "__main__":  # python -m tests.core.test_recorded_shape: rewrite the golden files
    GOLDEN.mkdir(exist_ok=True)
    for d in DIALECTS:
        path = GOLDEN / f"recorded-traces.{d.value}.nq"
        path.write_text(recorded(d), encoding="utf-8")
        print(f"{path}: {len(path.read_text(encoding='utf-8').splitlines())} quads")
