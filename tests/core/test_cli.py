"""The CLI: every command takes --store / $RAGPROV_STORE; errors are one line and a non-zero exit."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ragprov.cli import cli
from ragprov.cli import run as cli_run
from ragprov.record import Recorder
from ragprov.store import EmbeddedStore

from .builders import agent_trace, graph_rag_trace


@pytest.fixture
def disk_store(tmp_path, clock):
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    recorder = Recorder(store, clock=clock)
    g = graph_rag_trace(recorder, 1, edges=3)
    a, _sub = agent_trace(recorder, 2)
    store.close()  # releases the directory for the CLI processes
    return path, g, a


def ragprov(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run(
        [sys.executable, "-m", "ragprov.cli", *args], capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120
    )


def test_traces_table_and_json(disk_store):
    path, g, a = disk_store
    out = ragprov("traces", "--store", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["question"] for r in rows] == [a.question.value, g.question.value]
    assert [r["status"] for r in rows] == ["complete", "complete"]
    table = ragprov("traces", "--store", str(path))
    assert "GraphRagQuestion" in table.stdout and "complete" in table.stdout


def test_store_from_environment(disk_store):
    path, _g, a = disk_store
    out = ragprov("traces", "--format", "json", "--type", "agent", env={"RAGPROV_STORE": str(path)})
    assert [r["question"] for r in json.loads(out.stdout)] == [a.question.value]


@pytest.mark.parametrize("fmt", ["text", "json", "mermaid", "dot"])
def test_trace_show_formats(disk_store, fmt):
    path, g, _a = disk_store
    out = ragprov("trace", "show", g.question.value, "--store", str(path), "--format", fmt)
    assert out.returncode == 0, out.stderr
    if fmt == "json":
        data = json.loads(out.stdout)
        assert [s["kind"] for s in data["stages"]] == ["Grounding", "Exploration", "Focus", "Synthesis"]
        assert data["stages"][2]["selections"][0]["edge"]["t"] == "t"
    elif fmt == "text":
        assert "Focus" in out.stdout and "score 1.000" in out.stdout and "answer: Answer 1" in out.stdout
    elif fmt == "mermaid":
        assert out.stdout.startswith("flowchart TD") and "-->|selected|" in out.stdout
    else:
        assert out.stdout.startswith("digraph trace {") and "selected" in out.stdout


def test_trace_stage_and_bare_ids(disk_store):
    path, g, _a = disk_store
    focus = g.events[3].explain_id.value
    out = ragprov("trace", "stage", focus, "--store", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Focus") and "#3" in out.stdout
    data = json.loads(ragprov("trace", "stage", focus, "--store", str(path), "--format", "json").stdout)
    assert [sel["rank"] for sel in data["selections"]] == [1, 2, 3]
    by_id = ragprov("trace", "show", g.id, "--store", str(path), "--format", "json")
    assert json.loads(by_id.stdout)["question"] == g.question.value
    provenance = json.loads(ragprov("trace", "show", g.id, "--store", str(path), "--format", "json", "--show-provenance").stdout)
    assert all(sel["sources"] == [] for sel in provenance["stages"][2]["selections"])  # nothing loaded: no sources


def test_read_commands_never_create_a_store(tmp_path):
    missing, other = tmp_path / "missing", tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    for args in (["traces"], ["trace", "incomplete"], ["lineage", "document", "urn:x:doc"], ["export"]):
        out = ragprov(*args, "--store", str(missing))
        assert out.returncode == 1 and "no ragprov store at" in out.stderr, (args, out.stderr)
        out = ragprov(*args, "--store", str(other))
        assert out.returncode == 1 and "holds other files" in out.stderr, (args, out.stderr)
    assert not missing.exists() and [p.name for p in other.iterdir()] == ["notes.txt"]


def test_a_failed_write_leaves_no_new_store_behind(tmp_path):
    bad = tmp_path / "bad.nq"
    bad.write_text("this is not N-Quads")
    target = tmp_path / "new-store"
    out = ragprov("import", str(bad), "--store", str(target))
    assert out.returncode == 1 and "bad.nq" in out.stderr
    assert not target.exists()


def test_agent_trace_shows_sub_trace(disk_store):
    path, _g, a = disk_store
    out = ragprov("trace", "show", a.question.value, "--store", str(path))
    assert "sub-trace: GraphRagQuestion" in out.stdout and "action: knowledge-query" in out.stdout


def test_trace_delete_and_incomplete(disk_store):
    path, g, a = disk_store
    assert ragprov("trace", "delete", g.question.value, "--store", str(path)).returncode == 0
    rows = json.loads(ragprov("traces", "--store", str(path), "--format", "json").stdout)
    assert [r["question"] for r in rows] == [a.question.value]
    out = ragprov("trace", "incomplete", "--store", str(path), "--format", "json")
    assert json.loads(out.stdout) == []
    assert ragprov("trace", "delete", "--before", "2100-01-01", "--store", str(path)).returncode == 0
    assert json.loads(ragprov("traces", "--store", str(path), "--format", "json").stdout) == []


def test_query_list_render_run(disk_store):
    path, g, a = disk_store
    listing = ragprov("query", "list")
    assert "trace/show" in listing.stdout and "record/focus" in listing.stdout
    show = ragprov("query", "show", "trace/list")
    assert "limit: integer" in show.stdout
    rendered = ragprov("query", "render", "trace/show", "-p", f"question={g.question.value}", "--dialect", "reification")
    assert rendered.returncode == 0 and "rdf-syntax-ns#" not in rendered.stdout.split("WHERE")[0]
    run = ragprov("query", "run", "trace/list", "-p", "limit=1", "--store", str(path), "--format", "json")
    assert json.loads(run.stdout)[0]["question"]["i"] == a.question.value
    ask = ragprov("query", "run", "trace/exists", "-p", f"question={g.question.value}", "--store", str(path))
    assert ask.stdout.strip() == "true"


@pytest.mark.parametrize(
    "args, message",
    [
        (["trace", "show", "urn:x>"], "not an absolute IRI"),
        (["trace", "show", "urn:trustgraph:question:none"], "no trace with question"),
        (["query", "render", "nope"], "no query template named 'nope'"),
        (["query", "render", "trace/list", "-p", "limit=x"], "not an integer"),
        (["query", "render", "trace/list", "-p", "bogus=1"], "takes no parameter 'bogus'"),
        (["traces", "--store", "ftp://x"], "unknown store location"),
        (["traces", "--since", "yesterday"], "not an ISO 8601"),
        (["trace", "delete"], "give either"),
        (["traces", "--store", "memory:x"], "unknown store location"),
        (["ask", "graph-rag", "Who is \udcff Marley"], "not valid Unicode"),
        (["traces", "--store", "http://127.0.0.1:9/ds"], "unreachable"),
    ],
)
def test_errors_are_one_clear_line(args, message):
    out = ragprov(*args, env={"RAGPROV_STORE": "memory:"})
    assert out.returncode != 0
    assert message in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) <= 3


def test_in_process_runner_returns_exit_codes():
    assert cli_run(cli, ["query", "list"]) == 0
    assert cli_run(cli, ["trace", "show", "urn:x>"]) == 1
    assert cli_run(cli, ["traces", "--limit", "0"]) == 2  # a usage error keeps click's status
