"""``ragprov ask`` and ``ragprov demo`` through the real CLI entry point."""

from __future__ import annotations

import json
import re

import pytest

from ragprov.cli import cli, run
from ragprov.record import event_from_json

from . import graphs
from .conftest import FACTS
from .openai_stub import OpenAIStub


@pytest.fixture
def store_dir(tmp_path):
    from ragprov.store import EmbeddedStore

    s = EmbeddedStore(tmp_path / "store")
    graphs.build(s, FACTS)
    s.close()
    return str(tmp_path / "store")


def test_ask_graph_rag_explain_prints_stages_live_on_stderr(store_dir, capsys, monkeypatch):
    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    code = run(
        cli,
        [
            "ask",
            "graph-rag",
            "Who was Scrooge's business partner?",
            "-x",
            "--store",
            store_dir,
            "--facts-graph",
            str(FACTS.value),
        ],
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("The answer is Jacob Marley [1].\n")
    for needle in (
        "[question]", "question: Who was Scrooge's business partner?", "model: ragprov-offline-bm25/1",
        "[grounding]", "concepts: scrooge business partner, scrooge, business, partner",
        "[exploration]", "seed entities", "edges explored:", "hop 1:",
        "[focus]", "1. Ebenezer Scrooge —business partner of→ Jacob Marley", "why: concept",
        "[synthesis]", "sources (", "  - A Christmas Carol, p. 1, chunk 0", "trace: urn:trustgraph:question:",
    ):
        assert needle in err, needle
    assert "chunk <" not in err  # sources are named as on stdout; the chunk IRI is in --format json
    # stages appear in recording order
    assert err.index("[question]") < err.index("[grounding]") < err.index("[exploration]") < err.index("[focus]") < err.index("[synthesis]")


def test_ask_jsonl_streams_wire_events_and_json_summarises(store_dir, capsys, monkeypatch):
    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    assert run(cli, ["ask", "doc-rag", "Who was ill?", "--format", "jsonl", "--store", store_dir]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    events = [event_from_json(line) for line in lines]
    assert events[0].type == "explain" and events[-1].type == "end_of_session"
    assert any(e.type == "chunk" for e in events)
    assert run(cli, ["ask", "agent", "Who was ill?", "--format", "json", "--store", store_dir, "--facts-graph", FACTS.value]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["trace"].startswith("urn:trustgraph:agent:") and summary["termination_reason"] == "final-answer"
    assert summary["model"] == "ragprov-offline-bm25/1" and summary["sources"]


def test_ask_with_an_llm_url_and_a_bad_key_fails_in_one_line_without_the_key(store_dir, capsys):
    from .openai_stub import Reply

    with OpenAIStub(lambda req: Reply("bad key sk-secret-xyz", status=401)) as stub:
        code = run(
            cli,
            [
                "ask",
                "graph-rag",
                "Who?",
                "--store",
                store_dir,
                "--llm-url",
                stub.url,
                "--llm-model",
                "m",
                "--llm-key",
                "sk-secret-xyz",
            ],
        )
    out, err = capsys.readouterr()
    assert code == 1
    notice, error = err.strip().splitlines()
    assert error.startswith("error: the LLM at") and "HTTP 401" in error and "sk-secret-xyz" not in err + out
    # a directory store is written all or nothing: the question recorded before the LLM failed is not kept
    trace = re.search(r"nothing of the trace (\S+) was recorded: the store is as it was", notice).group(1)
    assert run(cli, ["trace", "incomplete", "--store", store_dir]) == 0
    assert trace not in capsys.readouterr().out


def test_ask_output_closed_early_still_completes_the_trace(store_dir, monkeypatch):
    """`ragprov ask … --format jsonl | head -c 10`: printing stops, the run (and its trace) does not."""
    from ragprov.cli.ask import run_question
    from ragprov.navigate import Navigator
    from ragprov.pipelines import GraphRag
    from ragprov.store import open_store

    written: list[str] = []

    def out(text, nl=True):
        if written:
            raise BrokenPipeError(32, "Broken pipe")
        written.append(text)

    store = open_store(store_dir)
    try:
        pipe = GraphRag(store, facts_graph=FACTS)
        summary = run_question(pipe, "Who was Scrooge's business partner?", explain=False, fmt="jsonl", out=out, err=lambda text: None)
        assert len(written) == 1 and summary["trace"]
        assert Navigator(store).trace(summary["trace"]).summary.complete
    finally:
        store.close()


def test_ask_rejects_a_bad_facts_graph(store_dir, capsys):
    assert run(cli, ["ask", "graph-rag", "Who?", "--store", store_dir, "--facts-graph", "not an iri"]) == 1
    assert "not an absolute IRI" in capsys.readouterr().err


def test_demo_runs_offline_and_keeps_its_store(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    store = tmp_path / "demo"
    assert run(cli, ["demo", "--store", str(store), "--max-edges", "3"]) == 0
    out, err = capsys.readouterr()
    text = out + err
    for needle in ("1. Load", "ragprov ask graph-rag", "[focus]", "The recorded trace of", "Lineage of its best edge",
                   "chunk ", "text: ", "Explore further", f"ragprov traces --store {store}"):
        assert needle in text, needle
    assert "text index: " in err and "store changed since its text index" not in err  # built at load, as `ragprov load` does
    # answers first: each question's answer opens with the name it asks for (the agent then repeats its tool's)
    firsts = [line for line in out.splitlines() if line.startswith("The answer is")]
    assert [f.split(" [")[0] for f in firsts][:4] == [
        "The answer is Fred", "The answer is Bob Cratchit", "The answer is Jacob Marley", "The answer is Bob Cratchit"]
    # the store is kept: the traces are there for the printed commands
    assert run(cli, ["traces", "--store", str(store), "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) >= 4


@pytest.mark.parametrize("mode", ["local", "global", "drift", "basic"])
def test_ask_microsoft_graphrag_modes(tmp_path_factory, capsys, monkeypatch, mode):
    import ragprov.loaders.graphrag as loader
    from ragprov.resources import data_dir
    from ragprov.store import EmbeddedStore

    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    path = tmp_path_factory.mktemp("cc") / "store"
    s = EmbeddedStore(path)
    loader.load_graphrag(s, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
    s.close()
    assert run(cli, ["ask", mode, "What happens to Tiny Tim?", "-x", "--format", "json", "--store", str(path)]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["trace"].startswith(f"urn:ragprov:{mode}:") and "Tim" in summary["answer"]
    assert "[exploration]" in err and "[focus]" in err and "[synthesis]" in err


def test_ask_with_a_streaming_llm_prints_the_answer_and_records_the_model(store_dir, capsys):
    from .conftest import scripted_reply

    with OpenAIStub(scripted_reply) as stub:
        code = run(cli, ["ask", "graph-rag", "Who is Scrooge's nephew?", "-x", "--store", store_dir, "--facts-graph", FACTS.value,
                         "--llm-url", stub.url, "--llm-model", "stub-model", "--llm-key", "sk-cli-secret"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out == "Fred is Scrooge's nephew [1].\n"
    assert "model: stub-model" in err and "prompt: graphrag-edge-scoring@1" in err and "tokens: 30 in, 6 out" in err
    assert "Fred —nephew of→ Ebenezer Scrooge" in err and "why: names the nephew" in err
    assert "sk-cli-secret" not in out + err


@pytest.mark.parametrize("kind", ["graph-rag", "doc-rag", "agent", "local", "global", "drift", "basic"])
def test_ask_buffered_sends_each_trace_as_one_update(store_dir, capsys, monkeypatch, kind):
    from ragprov.store import EmbeddedStore

    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    sent: list[str] = []
    update = EmbeddedStore.update
    monkeypatch.setattr(EmbeddedStore, "update", lambda self, text: (sent.append(text), update(self, text))[1])
    code = run(
        cli,
        [
            "ask",
            kind,
            "Who was Scrooge's business partner?",
            "--buffered",
            "-x",
            "--store",
            store_dir,
            "--facts-graph",
            str(FACTS.value),
        ],
    )
    _out, err = capsys.readouterr()
    assert code == 0, err
    assert "[question]" in err and ("[synthesis]" in err or "[conclusion]" in err)  # live events, stage by stage
    traces = err.count("[question]")  # an agent's tool call runs a sub-trace of its own
    assert len(sent) == traces, [t[:80] for t in sent]
