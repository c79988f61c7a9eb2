"""Traces recorded before the TrustGraph-readable shape (the question was the activity and
generated the first stage; a sub-trace's question used the Analysis) stay readable by every view.

``fixtures/traces-before-session-shape.nq`` was recorded by ragprov at commit 43f4f15 (the last
commit before the change) with ``tests/core/builders.py``: a GraphRAG trace, a reranked DocRAG
trace, and an agent trace whose tool ran a GraphRAG sub-trace.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragprov.navigate import Navigator
from ragprov.store import open_store

FIXTURE = Path(__file__).parent / "fixtures" / "traces-before-session-shape.nq"
GRAPH_Q, DOC_Q, AGENT_Q, SUB_Q = (
    "urn:trustgraph:question:old-0", "urn:trustgraph:docrag:old-1", "urn:trustgraph:agent:old-2",
    "urn:trustgraph:question:old-3",
)


@pytest.fixture
def nav():
    store = open_store("memory:")
    store.load(FIXTURE.read_bytes(), format="nquads")
    return Navigator(store)


def test_older_traces_are_listed_without_their_sub_traces(nav):
    listed = {s.question.value: s for s in nav.list_traces()}
    assert set(listed) == {GRAPH_Q, DOC_Q, AGENT_Q}
    assert all(s.started is not None and s.complete for s in listed.values())
    assert listed[GRAPH_Q].model == "test-model/1"


def test_older_traces_show_every_stage_in_order(nav):
    assert [s.kind for s in nav.trace(GRAPH_Q).stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    assert [s.kind for s in nav.trace(DOC_Q).stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    agent = nav.trace(AGENT_Q)
    assert [s.kind for s in agent.stages] == ["Analysis", "Observation", "Conclusion"]
    assert agent.stages[0].content == "I should query the knowledge graph."
    assert agent.stages[1].content == "Marley was Scrooge's partner."
    assert [t.question.value for t in agent.stages[0].subtraces] == [SUB_Q]
    assert agent.summary.started is not None and agent.summary.complete
    assert len(nav.trace(GRAPH_Q).stage("Focus").selections) == 3


def test_an_older_sub_trace_names_its_caller_and_deletes_with_it(nav):
    assert nav.caller(SUB_Q).value == AGENT_Q
    nav.delete(AGENT_Q)
    assert {s.question.value for s in nav.list_traces()} == {GRAPH_Q, DOC_Q}
    assert not nav.store.ask("ASK { GRAPH <urn:graph:retrieval> { <urn:trustgraph:question:old-3> ?p ?o } }")
