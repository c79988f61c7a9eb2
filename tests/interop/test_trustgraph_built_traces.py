"""ragprov reads traces built by TrustGraph's OWN builders (trustgraph-base 2.11.1) as they are.

The traces (a GraphRAG, a DocRAG and an agent session whose tool ran a GraphRAG sub-trace) and the
extraction provenance of their document come from ``tests/interop/trustgraph_built.py``, which
calls only ``trustgraph.provenance``'s builder functions. They are serialised and brought in with
``ragprov import``, then every view runs through the CLI: ``traces``, ``trace show`` in each
format, ``--show-provenance``, ``trace stage``, ``trace delete`` (one trace, a sub-trace refused,
retention). What ragprov shows is compared with what TrustGraph's own reader finds in the same store.
"""

from __future__ import annotations

import datetime as _dt
import json

import pytest

pytest.importorskip("trustgraph.provenance", reason="pip install 'ragprov[test]' (trustgraph-base)")

import pyoxigraph as ox
from trustgraph.api.explainability import ExplainabilityClient

from ragprov.cli import cli
from ragprov.cli.common import run
from ragprov.navigate import Navigator
from ragprov.store import EmbeddedStore, open_store
from ragprov.store.transfer import import_store

from . import trustgraph_built as tb
from .trustgraph_flow import StoreFlow

BUILT = tb.build()
RETRIEVAL = ox.NamedNode("urn:graph:retrieval")


@pytest.fixture
def store_dir(tmp_path, capsys):
    source = tmp_path / "trustgraph.nq"
    source.write_bytes(BUILT.nquads())
    path = str(tmp_path / "store")
    code, _, err = _run(capsys, "import", str(source), "--store", path)
    assert code == 0, err
    assert f"imported {len(BUILT.quads)} quads" in err
    assert "linked 4 stage(s) of traces built by TrustGraph to their documents (4 link(s)" in err
    return path


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = run(cli, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _show(capsys, store: str, question: str, *extra: str) -> tuple[int, str, str]:
    return _run(capsys, "trace", "show", question, "--store", store, *extra)


def _json(capsys, *argv: str):
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def _retrieval_quads(path: str) -> set[ox.Quad]:
    store = EmbeddedStore(path, read_only=True)
    try:
        return set(store.raw.quads_for_pattern(None, None, None, RETRIEVAL))
    finally:
        store.close()


def test_traces_lists_the_top_level_sessions_with_their_times(store_dir, capsys):
    listed = _json(capsys, "traces", "--store", store_dir, "--format", "json")
    # newest first; the agent's sub-trace is not a session of its own
    assert [(t["question"], t["kind"]) for t in listed] == [
        (BUILT.agent, "AgentQuestion"), (BUILT.doc_rag, "DocRagQuestion"), (BUILT.graph_rag, "GraphRagQuestion"),
    ]
    # TrustGraph writes the time as a plain literal on the question: read as a time all the same
    assert [t["started"] for t in listed] == [
        "2026-11-20T10:10:00.500000+00:00", "2026-11-20T10:05:00+00:00", "2026-11-20T10:00:00.123456+00:00",
    ]
    code, out, err = _run(capsys, "traces", "--store", store_dir)
    assert code == 0, err
    assert "2026-11-20 10:10:00" in out and BUILT.sub_trace not in out
    only_agents = _json(capsys, "traces", "--store", store_dir, "--format", "json", "--type", "agent")
    assert [t["question"] for t in only_agents] == [BUILT.agent]


def test_graph_rag_trace_shows_every_stage_and_edge_in_trustgraph_order(store_dir, capsys):
    trace = _json(capsys, "trace", "show", BUILT.graph_rag, "--store", store_dir, "--format", "json")
    assert trace["query"] == "Who was Scrooge's partner?"
    assert [s["kind"] for s in trace["stages"]] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    focus = trace["stages"][2]
    # no tg:rank: the order TrustGraph kept them in (its selection IRIs end in 0, 1, 2)
    assert [s["iri"].rsplit(":", 1)[1] for s in focus["selections"]] == ["0", "1", "2"]
    assert [(s["reasoning"], s["score"], s["concept"]) for s in focus["selections"]] == [
        (e["reasoning"], e["score"], e["concept"]) for e in tb.EDGES
    ]
    assert [s["edge"]["tr"]["p"]["i"] for s in focus["selections"]] == [e["edge"][1].iri for e in tb.EDGES]

    # the same stages and edges as TrustGraph's own reader finds in this store
    store = EmbeddedStore(store_dir, read_only=True)
    try:
        theirs = ExplainabilityClient(StoreFlow(store), retry_delay=0, max_retries=1).fetch_graphrag_trace(BUILT.graph_rag)
    finally:
        store.close()
    assert [s["iri"] for s in trace["stages"]] == [theirs[k].uri for k in ("grounding", "exploration", "focus", "synthesis")]
    # (its reader keeps no order: the edges in store order)
    assert sorted((s.reasoning, float(s.score)) for s in theirs["focus"].edge_selections) == sorted(
        (s["reasoning"], s["score"]) for s in focus["selections"]
    )

    code, text, err = _show(capsys, store_dir, BUILT.graph_rag)
    assert code == 0, err
    assert "explored 17 edges from 2 entities" in text and "tokens: in 10, out 3" in text
    assert text.index("#1 ") < text.index("partner-of") < text.index("#2 ") < text.index("dead-years") < text.index("#3 ")
    assert "score 0.930" in text and "score 0.250" in text
    assert "ended: not recorded" in text  # TrustGraph records no end time; the trace has its answer


def test_doc_rag_chunk_selections_are_read_from_tg_document(store_dir, capsys):
    trace = _json(capsys, "trace", "show", BUILT.doc_rag, "--store", store_dir, "--format", "json")
    assert [s["kind"] for s in trace["stages"]] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    assert trace["stages"][1]["properties"]["chunkCount"] == [{"t": "l", "v": "4"}]
    focus = trace["stages"][2]
    assert [(s["chunk"], s["score"]) for s in focus["selections"]] == [(tb.CHUNKS[2], 3.5), (tb.CHUNKS[0], 1.0)]
    code, text, err = _show(capsys, store_dir, BUILT.doc_rag)
    assert code == 0, err
    assert "retrieved 4 chunks" in text
    assert f"#1 chunk <{tb.CHUNKS[2]}>  score 3.500" in text and f"#2 chunk <{tb.CHUNKS[0]}>  score 1.000" in text


def test_agent_trace_is_separated_from_its_sub_trace(store_dir, capsys):
    trace = _json(capsys, "trace", "show", BUILT.agent, "--store", store_dir, "--format", "json")
    assert [s["kind"] for s in trace["stages"]] == ["Analysis", "Observation", "Analysis", "Observation", "Conclusion"]
    first = trace["stages"][0]
    assert [t["question"] for t in first["subtraces"]] == [BUILT.sub_trace]
    assert first["properties"]["action"] == [{"t": "l", "v": "knowledge-query"}]
    assert trace["stages"][3]["properties"]["toolError"] == [{"t": "l", "v": "connection refused"}]

    # the sub-trace shows its own GraphRAG stages, and none of the agent's that follow it
    sub = _json(capsys, "trace", "show", BUILT.sub_trace, "--store", store_dir, "--format", "json")
    assert [s["kind"] for s in sub["stages"]] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    assert all("/i" not in s["iri"] for s in sub["stages"])

    # the agent's steps are the ones TrustGraph's reader walks, the sub-trace the one it embeds
    store = EmbeddedStore(store_dir, read_only=True)
    try:
        theirs = ExplainabilityClient(StoreFlow(store), retry_delay=0, max_retries=1).fetch_agent_trace(BUILT.agent)
    finally:
        store.close()
    steps = [s for s in theirs["steps"] if not isinstance(s, dict)]
    embedded = [s for s in theirs["steps"] if isinstance(s, dict)]
    assert [s["iri"] for s in trace["stages"]] == [s.uri for s in steps]
    assert [e["question"].uri for e in embedded] == [BUILT.sub_trace]
    assert [s["iri"] for s in sub["stages"]] == [embedded[0]["trace"][k].uri for k in ("grounding", "exploration", "focus", "synthesis")]

    code, text, err = _show(capsys, store_dir, BUILT.agent)
    assert code == 0, err
    assert f"sub-trace: GraphRagQuestion <{BUILT.sub_trace}>" in text
    assert "Grounding" not in text


@pytest.mark.parametrize("fmt", ["mermaid", "dot", "html"])
def test_every_format_draws_every_trace(store_dir, capsys, fmt):
    for question, marker in ((BUILT.graph_rag, "partner-of"), (BUILT.doc_rag, "Focus"), (BUILT.agent, "Conclusion")):
        code, out, err = _show(capsys, store_dir, question, "--format", fmt)
        assert code == 0, (question, err)
        assert marker in out, (question, fmt)


def test_show_provenance_follows_each_edge_to_its_document(store_dir, capsys):
    code, text, err = _show(capsys, store_dir, BUILT.graph_rag, "--show-provenance")
    assert code == 0, err
    sources = [line for line in text.splitlines() if line.strip().startswith("from:")]
    assert len(sources) == len(tb.EDGES)
    for line in sources:
        # TrustGraph's tg:contains subgraph → chunk → page → document
        assert tb.SUBGRAPH in line and tb.CHUNKS[2] in line and tb.PAGE in line and "'A Christmas Carol'" in line


def test_trace_stage_shows_a_focus_with_its_selections(store_dir, capsys):
    focus = f"urn:trustgraph:prov:focus:{tb.GRAPH_SID}"
    code, text, err = _run(capsys, "trace", "stage", focus, "--store", store_dir)
    assert code == 0, err
    assert "#1 " in text and "score 0.930" in text and "why: gives the full name" in text
    stage = _json(capsys, "trace", "stage", f"{BUILT.doc_rag}/focus", "--store", store_dir, "--format", "json")
    assert [s["chunk"] for s in stage["selections"]] == [tb.CHUNKS[2], tb.CHUNKS[0]]


def test_trace_delete_takes_the_agent_with_its_sub_trace_and_nothing_else(store_dir, capsys):
    before = _retrieval_quads(store_dir)
    code, _, err = _run(capsys, "trace", "delete", BUILT.sub_trace, "--store", store_dir, "-y")
    assert code == 1 and f"run by {BUILT.agent}" in err and "nothing deleted" in err
    assert _retrieval_quads(store_dir) == before

    code, _, err = _run(capsys, "trace", "delete", BUILT.agent, "--store", store_dir, "-y")
    assert code == 0, err
    after = _retrieval_quads(store_dir)
    ids = (tb.AGENT_SID, tb.SUB_SID)
    assert not [q for q in after if any(i in str(q) for i in ids)]
    assert after == {q for q in before if not any(i in str(q) for i in ids)}
    listed = _json(capsys, "traces", "--store", store_dir, "--format", "json")
    assert [t["question"] for t in listed] == [BUILT.doc_rag, BUILT.graph_rag]


def test_retention_counts_trustgraph_start_times(store_dir, capsys):
    code, out, err = _run(capsys, "trace", "delete", "--before", "2026-11-20T10:07:00Z", "--dry-run", "--store", store_dir)
    assert code == 0, err
    assert "2 top-level trace(s)" in out + err
    code, _, err = _run(capsys, "trace", "delete", "--before", "2026-11-20T10:07:00Z", "--store", store_dir, "-y")
    assert code == 0, err
    assert [t["question"] for t in _json(capsys, "traces", "--store", store_dir, "--format", "json")] == [BUILT.agent]


def test_every_engine_reads_trustgraph_built_traces(store):
    """The same reading on every engine and dialect (in the reification dialect, TrustGraph's
    quoted edges become rdf:Statement nodes on import)."""
    import_store(store, BUILT.nquads())
    nav = Navigator(store)
    assert [s.question.value for s in nav.list_traces()] == [BUILT.agent, BUILT.doc_rag, BUILT.graph_rag]
    assert nav.list_traces(since=_dt.datetime(2026, 11, 20, 10, 7, tzinfo=_dt.timezone.utc))[0].question.value == BUILT.agent
    graph = nav.trace(BUILT.graph_rag)
    assert [s.kind for s in graph.stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    assert [s.score for s in graph.stage("Focus").selections] == [0.93, 0.5, 0.25]
    agent = nav.trace(BUILT.agent)
    assert [s.kind for s in agent.stages] == ["Analysis", "Observation", "Analysis", "Observation", "Conclusion"]
    assert nav.caller(BUILT.sub_trace).value == BUILT.agent
    nav.delete(BUILT.agent)
    assert [s.question.value for s in nav.list_traces()] == [BUILT.doc_rag, BUILT.graph_rag]


def test_the_fixture_is_trustgraph_s_own_output():
    """Guard: the fixture holds what TrustGraph writes (plain literals, no rank, no session)."""
    store = open_store("memory:")
    import_store(store, BUILT.nquads())
    quads = list(store.raw.quads_for_pattern(None, None, None, RETRIEVAL))
    score = ox.NamedNode("https://trustgraph.ai/ns/score")
    assert {q.object.datatype.value for q in quads if q.predicate == score} == {"http://www.w3.org/2001/XMLSchema#string"}
    assert not [q for q in quads if q.predicate.value.endswith("#wasGeneratedBy") or q.predicate.value.endswith("/rank")]


def _their_graph_rag_traces(store) -> dict[str, object]:
    """Every GraphRAG trace TrustGraph's own reader finds in ``store``: its top-level sessions and
    the sub-traces embedded in its agent traces, by question IRI."""
    client = ExplainabilityClient(StoreFlow(store), retry_delay=0, max_retries=1)
    out: dict[str, object] = {}
    for question in client.list_sessions():
        if question.question_type == "graph-rag":
            out[question.uri] = client.fetch_graphrag_trace(question.uri)
        elif question.question_type == "agent":
            for step in client.fetch_agent_trace(question.uri)["steps"]:
                if isinstance(step, dict) and step["question"].question_type == "graph-rag":
                    out[step["question"].uri] = step["trace"]
    return out


def _their_edge_roots(store, trace) -> set[str]:
    """The roots TrustGraph's CLI walk (``show_explain_trace.trace_edge_provenance``) reaches from
    each edge the trace's Focus kept."""
    from trustgraph.cli.show_explain_trace import trace_edge_provenance

    flow = StoreFlow(store)
    client = ExplainabilityClient(flow, retry_delay=0, max_retries=1)
    roots = set()
    for selection in trace["focus"].edge_selections:
        for chain in trace_edge_provenance(flow, None, selection.edge, {}, client):
            roots.add(chain[-1]["uri"])
    return roots


def test_lineage_document_finds_every_trace_that_kept_what_was_extracted_from_it(store_dir, capsys):
    """``lineage document`` over traces TrustGraph built: every GraphRAG trace whose kept edges
    TrustGraph's own walk traces to the document (the agent's sub-trace with the agent that ran it),
    and the DocRAG trace whose kept chunks derive from it."""
    store = EmbeddedStore(store_dir, read_only=True)
    try:
        theirs = _their_graph_rag_traces(store)
        expected_graph = {q: t["focus"].uri for q, t in theirs.items() if tb.DOCUMENT in _their_edge_roots(store, t)}
    finally:
        store.close()
    assert set(expected_graph) == {BUILT.graph_rag, BUILT.sub_trace}  # the judge found both

    found = _json(capsys, "lineage", "document", tb.DOCUMENT, "--store", store_dir, "--format", "json")
    by_question = {a["question"]: a for a in found}
    assert set(by_question) == {*expected_graph, BUILT.doc_rag}
    for question, focus in expected_graph.items():
        assert by_question[question]["stages"] == [focus]
        assert by_question[question]["answers"] == [f"urn:trustgraph:prov:synthesis:{question.rsplit(':', 1)[1]}"]
    assert by_question[BUILT.sub_trace]["parent_question"] == BUILT.agent
    assert by_question[BUILT.graph_rag]["parent_question"] is None
    assert by_question[BUILT.graph_rag]["query"] == "Who was Scrooge's partner?" and by_question[BUILT.graph_rag]["kind"] == "graph-rag"
    # DocRAG: its Exploration kept the chunks themselves, its Focus chunk selections (tg:document)
    assert sorted(by_question[BUILT.doc_rag]["stages"]) == [f"{BUILT.doc_rag}/exploration", f"{BUILT.doc_rag}/focus"]
    assert by_question[BUILT.doc_rag]["answers"] == [f"{BUILT.doc_rag}/synthesis"]
    # newest first, with TrustGraph's plain-literal start times
    assert [a["question"] for a in found] == [BUILT.sub_trace, BUILT.doc_rag, BUILT.graph_rag]

    # --items: the kept edges (through TrustGraph's tg:contains subgraph) and chunks
    items = {a["question"]: a for a in _json(capsys, "lineage", "document", tb.DOCUMENT, "--store", store_dir,
                                                "--format", "json", "--items")}
    assert items[BUILT.graph_rag]["statements"] == [tb.SUBGRAPH]
    assert len(items[BUILT.graph_rag]["edges"]) == len(tb.EDGES)
    assert set(items[BUILT.doc_rag]["chunks"]) == set(tb.CHUNKS)  # the Exploration kept all four

    code, text, err = _run(capsys, "lineage", "document", tb.DOCUMENT, "--store", store_dir)
    assert code == 0, err
    assert "no recorded answer" not in err
    assert f"{BUILT.sub_trace} (run by {BUILT.agent})" in text

    # a page or a chunk given as the document: the traces that kept what derives from it
    from_page = _json(capsys, "lineage", "document", tb.PAGE, "--store", store_dir, "--format", "json")
    assert [a["question"] for a in from_page] == [a["question"] for a in found]
    from_chunk = _json(capsys, "lineage", "document", tb.CHUNKS[2], "--store", store_dir, "--format", "json")
    assert [a["question"] for a in from_chunk] == [BUILT.sub_trace, BUILT.graph_rag]  # its subgraph's edges


def test_trustgraph_traces_that_reached_their_end_are_complete(tmp_path, capsys):
    """TrustGraph records no end time: its trace is complete when it reached the stage its reader
    stops at (a Synthesis, or an agent's Conclusion), and listed as incomplete when it did not."""
    unfinished = tb.build_unfinished()
    source = tmp_path / "tg.nq"
    source.write_bytes(BUILT.nquads() + unfinished.nquads())
    path = str(tmp_path / "store")
    assert _run(capsys, "import", str(source), "--store", path)[0] == 0

    listed = {t["question"]: t["status"] for t in _json(capsys, "traces", "--store", path, "--format", "json")}
    for question in (BUILT.graph_rag, BUILT.doc_rag, BUILT.agent, *unfinished.complete):
        if question in listed:  # (a sub-trace is not listed)
            assert listed[question] == "complete", question
    for question in unfinished.incomplete:
        assert listed[question] == "incomplete", question
    code, out, err = _run(capsys, "traces", "--store", path)
    assert code == 0, err
    assert {line.split("\t")[3]: line.split("\t")[2] for line in out.splitlines()[1:]} == listed

    incomplete = [t["question"] for t in _json(capsys, "trace", "incomplete", "--store", path, "--format", "json")]
    assert sorted(incomplete) == sorted(unfinished.incomplete)

    # trace show says the same
    for question in unfinished.incomplete:
        assert "ended: not ended (incomplete)" in _show(capsys, path, question)[1], question
    for question in (BUILT.graph_rag, BUILT.doc_rag, BUILT.agent, *unfinished.complete):
        assert "ended: not recorded" in _show(capsys, path, question)[1], question


def test_every_engine_reads_lineage_and_completeness_of_trustgraph_built_traces(store):
    """lineage document and completeness over TrustGraph's traces, on every engine and dialect."""
    from ragprov.cli.migrate import link_unnamed_stages
    from ragprov.navigate.lineage import Lineage

    unfinished = tb.build_unfinished()
    import_store(store, BUILT.nquads() + unfinished.nquads())
    assert link_unnamed_stages(store) is not None  # what `ragprov import` runs after importing
    found = Lineage(store).document_answers(tb.DOCUMENT)
    # the unfinished traces (a day later) kept the same edges and chunks: those with a Focus or an
    # Exploration, answered or not, come first
    cut = tb.UNFINISHED_SIDS
    assert [a.question.value for a in found] == [
        f"urn:trustgraph:question:{cut['supervisor_rag']}", f"urn:trustgraph:question:{cut['agent_sub']}",
        f"urn:trustgraph:docrag:{cut['doc_rag']}", f"urn:trustgraph:question:{cut['graph_rag']}",
        BUILT.sub_trace, BUILT.doc_rag, BUILT.graph_rag,
    ]
    assert [a.answers for a in found[2:4]] == [[], []]
    # the agent that ran each sub-trace: the nearest (a supervisor's sub-agent, not the supervisor)
    assert found[0].parent_question.value == f"urn:trustgraph:agent:{cut['supervisor_sub']}"
    assert found[1].parent_question.value == f"urn:trustgraph:agent:{cut['agent']}"
    assert found[4].parent_question.value == BUILT.agent
    assert {s.value for s in found[5].stages} == {f"{BUILT.doc_rag}/exploration", f"{BUILT.doc_rag}/focus"}
    with_items = {a.question.value: a for a in Lineage(store).document_answers(tb.DOCUMENT, items=True)}
    assert len(with_items[BUILT.graph_rag].edges) == len(tb.EDGES)
    nav = Navigator(store)
    status = {s.question.value: s.complete for s in nav.list_traces(limit=50)}
    assert status == {BUILT.graph_rag: True, BUILT.doc_rag: True, BUILT.agent: True,
                      **{q: True for q in unfinished.complete if q in status}, **{q: False for q in unfinished.incomplete}}
    assert sorted(s.question.value for s, _ in nav.incomplete()) == sorted(unfinished.incomplete)
    cut = tb.UNFINISHED_SIDS
    supervisor, sub_agent = (f"urn:trustgraph:agent:{cut[k]}" for k in ("supervisor", "supervisor_sub"))
    assert nav.caller(f"urn:trustgraph:question:{cut['supervisor_rag']}").value == sub_agent  # the nearest agent
    assert nav.caller(sub_agent).value == supervisor
    # deleting the supervisor takes its sub-agent and the sub-agent's sub-trace, and nothing else
    before = {s.question.value for s in nav.list_traces(limit=50)}
    nav.delete(supervisor)
    assert {s.question.value for s in nav.list_traces(limit=50)} == before - {supervisor}
    left = store.select("SELECT DISTINCT ?s WHERE { GRAPH <urn:graph:retrieval> { ?s ?p ?o } }")
    assert not [r["s"].value for r in left if any(cut[k] in r["s"].value for k in ("supervisor", "supervisor_sub", "supervisor_rag"))]


def test_a_store_of_both_kinds_lists_newest_first(store, clock):
    """ragprov's traces (typed xsd:dateTime on their session) and TrustGraph's (a plain literal on
    the question, with or without fractional seconds) in one store sort as times, newest first, on
    every engine; `since` filters both alike, and each has its completeness."""
    import_store(store, BUILT.nquads())  # TrustGraph's: 10:00:00.123456, 10:05:00, 10:10:00.5 on 2026-11-20
    times = iter([_dt.datetime(2026, 11, 20, 10, 2, tzinfo=_dt.timezone.utc), _dt.datetime(2026, 11, 20, 10, 7, tzinfo=_dt.timezone.utc),
                  _dt.datetime(2026, 11, 20, 10, 10, 0, 400000, tzinfo=_dt.timezone.utc),
                  _dt.datetime(2026, 11, 20, 9, 59, 59, tzinfo=_dt.timezone.utc)])
    from ragprov.record import Recorder

    from ..core.builders import doc_rag_trace, graph_rag_trace

    current = [next(times)]

    def tick():
        return current[0]

    recorder = Recorder(store, clock=tick)
    ours = {}
    for name in ("at 10:02", "at 10:07", "at 10:10:00.4", "at 09:59:59"):
        if name == "at 10:07":
            ours[name] = doc_rag_trace(recorder, 7).question
        elif name == "at 09:59:59":
            unfinished = recorder.graph_rag("never finished")
            unfinished.grounding(["x"])
            ours[name] = unfinished.question
        else:
            ours[name] = graph_rag_trace(recorder, len(ours), edges=2).question
        current[0] = next(times, current[0])
    listed = Navigator(store).list_traces(limit=50)
    assert [s.question.value for s in listed] == [
        BUILT.agent, ours["at 10:10:00.4"].value, ours["at 10:07"].value, BUILT.doc_rag, ours["at 10:02"].value,
        BUILT.graph_rag, ours["at 09:59:59"].value,
    ]
    assert [s.started for s in listed] == sorted((s.started for s in listed), reverse=True)
    assert [s.complete for s in listed] == [True] * 6 + [False]
    since = Navigator(store).list_traces(since=_dt.datetime(2026, 11, 20, 10, 5, tzinfo=_dt.timezone.utc))
    assert [s.question.value for s in since] == [BUILT.agent, ours["at 10:10:00.4"].value, ours["at 10:07"].value, BUILT.doc_rag]
    assert [s.question.value for s in Navigator(store).list_traces(limit=3)] == [s.question.value for s in listed[:3]]


def test_supervisor_agents_show_the_steps_trustgraph_s_reader_walks(tmp_path, capsys):
    """TrustGraph's supervisor pattern (Decomposition, a sub-agent, Findings, Synthesis) and its
    sub-agent (a ReAct agent whose tool ran a GraphRAG sub-trace): ragprov shows the steps
    TrustGraph's reader walks, of the kinds it names, in its order; the sub-agent is a sub-trace."""
    unfinished = tb.build_unfinished()
    source = tmp_path / "tg.nq"
    source.write_bytes(unfinished.nquads())
    path = str(tmp_path / "store")
    assert _run(capsys, "import", str(source), "--store", path)[0] == 0
    cut = tb.UNFINISHED_SIDS
    store = EmbeddedStore(path, read_only=True)
    try:
        client = ExplainabilityClient(StoreFlow(store), retry_delay=0, max_retries=1)
        theirs = {q: client.fetch_agent_trace(f"urn:trustgraph:agent:{cut[q]}") for q in ("supervised", "supervisor", "supervisor_sub")}
    finally:
        store.close()
    for key, trace in theirs.items():
        question = f"urn:trustgraph:agent:{cut[key]}"
        ours = _json(capsys, "trace", "show", question, "--store", path, "--format", "json")
        steps = [s for s in trace["steps"] if not isinstance(s, dict)]
        assert [(s["kind"], s["iri"]) for s in ours["stages"]] == [(type(s).__name__, s.uri) for s in steps], key
        embedded = [s["question"].uri for s in trace["steps"] if isinstance(s, dict)]
        assert [t["question"] for s in ours["stages"] for t in s["subtraces"] if t["kind"] != "AgentQuestion"] == embedded, key
    # the supervisor's sub-agent hangs from its Decomposition (TrustGraph's reader does not walk into it)
    supervisor = _json(capsys, "trace", "show", f"urn:trustgraph:agent:{cut['supervised']}", "--store", path, "--format", "json")
    assert supervisor["stages"][0]["subtraces"][0]["question"] == f"urn:trustgraph:agent:{cut['supervised']}-sub"
    code, text, err = _show(capsys, path, f"urn:trustgraph:agent:{cut['supervised']}")
    assert code == 0, err
    assert "1. Decomposition" in text and "goal: Marley" in text and "2. Finding" in text and "3. Synthesis" in text
    for fmt, marker in (("mermaid", "Decomposition"), ("dot", "Finding")):
        code, out, err = _show(capsys, path, f"urn:trustgraph:agent:{cut['supervised']}", "--format", fmt)
        assert code == 0 and marker in out, (fmt, err)
    # one step in detail
    code, text, err = _run(capsys, "trace", "stage", f"urn:trustgraph:agent:{cut['supervised']}/decompose", "--store", path)
    assert code == 0 and text.startswith("Decomposition") and "goal: Marley" in text, err


def _ragprov_trace_on_trustgraph_facts(store, when: _dt.datetime):
    """A GraphRAG trace ragprov records (its document link written with its Focus) that kept one of
    the facts TrustGraph extracted from the document."""
    from pyoxigraph import Triple

    from ragprov.record import EdgeSelection, Recorder

    fact = tb.FACTS[0]
    edge = Triple(ox.NamedNode(fact.s.iri), ox.NamedNode(fact.p.iri), ox.NamedNode(fact.o.iri))
    t = Recorder(store, clock=lambda: when).graph_rag("Whose partner was Marley?", model="test-model/1")
    t.grounding(["Marley"])
    t.exploration([edge.subject], edge_count=3)
    t.focus([EdgeSelection(edge, reasoning="names the partner", score=0.9)])
    t.synthesis("Scrooge's.")
    return t


def test_a_document_both_kinds_rest_on_lists_both_by_their_links(store):
    """ragprov's trace links its document when it is recorded; TrustGraph's are linked by
    `ragprov migrate document-links` (what `ragprov import` runs for them): then `lineage document`
    finds both by the link, newest first, on every engine, and the link-free look-ups agree."""
    from ragprov.cli.migrate import document_links, link_unnamed_stages
    from ragprov.navigate.lineage import Lineage

    store.bulk_extend(list(BUILT.quads))  # TrustGraph wrote to a shared store: nothing linked yet
    ours = _ragprov_trace_on_trustgraph_facts(store, _dt.datetime(2026, 11, 20, 10, 10, tzinfo=_dt.timezone.utc))
    expected = [BUILT.sub_trace, ours.question.value, BUILT.doc_rag, BUILT.graph_rag]  # 10:10:00.5, 10:10, 10:05, 10:00
    lineage = Lineage(store)
    # TrustGraph's stages name no question until linked: neither look-up can place them in a trace
    assert [a.question.value for a in lineage.document_answers(tb.DOCUMENT)] == [ours.question.value]
    assert [a.question.value for a in lineage.document_answers(tb.DOCUMENT, unlinked=True)] == [ours.question.value]

    # 3 Focus, 1 DocRAG Exploration; 3 traces (on their questions: TrustGraph's carry their start)
    assert document_links(store, dry_run=True) == {"stages": 4, "links": 4, "traces": 3}
    assert link_unnamed_stages(store) == {"stages": 4, "links": 4, "traces": 3}
    assert document_links(store, dry_run=True) == {"stages": 0, "links": 0, "traces": 0}
    assert link_unnamed_stages(store) is None  # every stage names its question now: one ASK, nothing written

    linked = lineage.document_answers(tb.DOCUMENT)
    assert [a.question.value for a in linked] == expected
    assert [a.parent_question.value if a.parent_question else None for a in linked] == [BUILT.agent, None, None, None]
    assert {s.value for s in linked[2].stages} == {f"{BUILT.doc_rag}/exploration", f"{BUILT.doc_rag}/focus"}
    assert [a.answers[0].value for a in linked] == [
        f"urn:trustgraph:prov:synthesis:{tb.SUB_SID}", ours.last.value, f"{BUILT.doc_rag}/synthesis",
        f"urn:trustgraph:prov:synthesis:{tb.GRAPH_SID}",
    ]
    assert [a.question.value for a in lineage.document_answers(tb.DOCUMENT, limit=2)] == expected[:2]
    # the link-free look-ups agree with the links
    assert [a.question.value for a in lineage.document_answers(tb.DOCUMENT, unlinked=True)] == expected
    # TrustGraph's reader still reads its traces as before
    nav = Navigator(store)
    assert [s.kind for s in nav.trace(BUILT.graph_rag).stages] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    nav.delete(BUILT.agent)
    assert [a.question.value for a in lineage.document_answers(tb.DOCUMENT)] == expected[1:]


def test_import_links_trustgraph_built_stages(store_dir, capsys):
    """`ragprov import` links the stages of TrustGraph's traces that kept items to their documents
    (the fixture's import printed it); nothing is left for `migrate document-links`."""
    code, out, err = _run(capsys, "migrate", "document-links", "--dry-run", "--store", store_dir)
    assert code == 0 and "would add 0 document link(s) to 0 stage(s) and 0 to traces" in out, err  # the import linked them
    store = EmbeddedStore(store_dir, read_only=True)
    try:
        restson, trace_link = ox.NamedNode("https://trustgraph.ai/ns/restsOn"), ox.NamedNode("https://trustgraph.ai/ns/traceRestsOn")
        links = {(q.subject.value, q.object.value) for q in store.raw.quads_for_pattern(None, restson, None, RETRIEVAL)}
        traces = {(q.subject.value, q.object.value) for q in store.raw.quads_for_pattern(None, trace_link, None, RETRIEVAL)}
    finally:
        store.close()
    # each trace on its question, which carries its start (TrustGraph's traces have no session)
    assert traces == {(BUILT.graph_rag, tb.DOCUMENT), (BUILT.sub_trace, tb.DOCUMENT), (BUILT.doc_rag, tb.DOCUMENT)}
    assert links == {(f"urn:trustgraph:prov:focus:{tb.GRAPH_SID}", tb.DOCUMENT), (f"urn:trustgraph:prov:focus:{tb.SUB_SID}", tb.DOCUMENT),
                     (f"{BUILT.doc_rag}/focus", tb.DOCUMENT), (f"{BUILT.doc_rag}/exploration", tb.DOCUMENT)}
