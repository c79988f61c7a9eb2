"""Bad input gets a clear error and changes nothing (issue 13, items 5–8, 12, 13, 15)."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pyoxigraph as ox
import pytest
from pyoxigraph import NamedNode

from ragprov.cli import cli, run
from ragprov.errors import RagprovError
from ragprov.record import EdgeSelection, Recorder
from ragprov.sparql.templates import render
from ragprov.store import EmbeddedStore, open_store
from tests.core.builders import graph_rag_trace
from tests.faults.faults import quad_count
from tests.faults.sparql_server import SparqlServer

ROOT = Path(__file__).resolve().parents[2]
GRAPHRAG = ROOT / "plugin" / "data" / "graphrag" / "christmas-carol-v3"


def _cli(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = run(cli, list(args))
    out, err = capsys.readouterr()
    return code, out + err


# -- item 5: internal errors become clear messages ---------------------------------------------
def test_export_into_a_missing_directory(tmp_path, capsys):
    store = tmp_path / "store"
    assert run(cli, ["load", "documents", str(ROOT / "README.md"), "--store", str(store)]) == 0
    code, text = _cli(capsys, "export", "--store", str(store), "-o", str(tmp_path / "missing" / "x.nq"))
    assert code == 1 and "does not exist" in text and "internal error" not in text


def test_import_of_a_binary_file(tmp_path, capsys):
    binary = tmp_path / "data.nq"
    binary.write_bytes(bytes(range(256)) * 4)
    code, text = _cli(capsys, "import", str(binary), "--store", "memory:")
    assert code == 1 and "is not N-Quads text" in text and "internal error" not in text


@pytest.mark.parametrize("url", ["http://[::1", "http://user:pw@[::1/x", "http://127.0.0.1:port/ds"])
def test_an_unparseable_endpoint_url(url, capsys):
    code, text = _cli(capsys, "traces", "--store", url)
    assert code == 1 and "not a valid endpoint URL" in text and "internal error" not in text
    assert "pw" not in text


def _copy(tmp_path: Path) -> Path:
    out = tmp_path / "graphrag"
    shutil.copytree(GRAPHRAG, out)
    return out


def test_a_parquet_table_with_a_duplicated_column(tmp_path, capsys):
    out = _copy(tmp_path)
    table = pq.read_table(out / "entities.parquet")
    pq.write_table(table.append_column("title", table.column("title")), out / "entities.parquet")
    code, text = _cli(capsys, "load", "graphrag", str(out), "--store", str(tmp_path / "store"))
    assert code == 1 and "more than one column named 'title'" in text and "entities.parquet" in text
    assert not (tmp_path / "store").exists()


# -- item 6: NaN and infinite weights fail at once, with their row ------------------------------
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
def test_a_non_finite_weight_is_refused_with_its_row_before_anything_is_written(tmp_path, capsys, bad):
    out = _copy(tmp_path)
    table = pq.read_table(out / "relationships.parquet")
    weights = table.column("weight").to_pylist()
    weights[700] = bad
    i = table.schema.get_field_index("weight")
    pq.write_table(table.set_column(i, "weight", pa.array(weights, pa.float64())), out / "relationships.parquet")
    store = EmbeddedStore()
    with pytest.raises(RagprovError, match=r"relationships.parquet.*row 700, column 'weight': expected a finite number"):
        from ragprov.loaders.graphrag import load_graphrag

        load_graphrag(store, out, show_progress=False)
    assert store.count() == 0


# -- item 7: empty files are not a silent success ------------------------------------------------
@pytest.mark.parametrize("name, command", [
    ("empty.txt", ["load", "documents"]),
    ("blank.md", ["load", "documents"]),
    ("empty.ttl", ["load", "triples", "--allow-unknown-source", "--source", "urn:x:doc"]),
    ("empty.nt", ["load", "triples", "--allow-unknown-source", "--source", "urn:x:doc"]),
])
def test_an_empty_file_says_so_and_fails(tmp_path, capsys, name, command):
    path = tmp_path / name
    path.write_text("\n  \n" if name.startswith("blank") else ("# a comment, no triples\n" if name.endswith(".ttl") else ""))
    store = tmp_path / "store"
    code, text = _cli(capsys, *command[:2], str(path), *command[2:], "--store", str(store))
    assert code == 1 and ("is empty" in text or "holds no triples" in text), text
    assert not store.exists()


# -- item 8: the Recorder raises ragprov's own errors --------------------------------------------
@pytest.mark.parametrize("call", [
    lambda s: Recorder(None),
    lambda s: Recorder("memory:"),
    lambda s: Recorder(s).graph_rag("q", session_id="a b>"),
    lambda s: Recorder(s).graph_rag("q", used="not an iri"),
    lambda s: Recorder(s).graph_rag("q").grounding("one string, not a list"),
    lambda s: Recorder(s).graph_rag("q").grounding([1, 2]),
    lambda s: _explored(Recorder(s)).focus(["urn:x:edge"]),
    lambda s: _explored(Recorder(s)).focus("urn:x:edge"),
], ids=["no-store", "a-location-string", "bad-session-id", "bad-used", "concepts-str", "concepts-ints",
        "selections-strs", "selections-str"])
def test_the_recorder_raises_ragprov_errors_on_wrong_input(call):
    store = open_store("memory:")
    with pytest.raises(RagprovError):
        call(store)


def _explored(recorder: Recorder):
    trace = recorder.graph_rag("q")
    trace.grounding(["a"])
    trace.exploration([NamedNode("urn:x:e")], 1)
    return trace


def test_the_recorder_still_takes_good_input():
    store = open_store("memory:")
    trace = _explored(Recorder(store))
    trace.focus([EdgeSelection(ox.Triple(NamedNode("urn:x:s"), NamedNode("urn:x:p"), NamedNode("urn:x:o")), "why", 1.0)])
    trace.synthesis("answer")


# -- item 12: credentials echoed by a server are never printed -----------------------------------
def test_an_error_body_echoing_the_authorization_header_is_not_printed(capsys):
    with SparqlServer(echo_headers=True) as server:
        url = server.url.replace("http://", "http://alice:s3cret-pw@")
        code, text = _cli(capsys, "traces", "--store", url, "--dialect", "rdf12")
    assert code == 1 and "headers were" in text  # the body is shown…
    assert "s3cret-pw" not in text and "YWxpY2U6czNjcmV0LXB3" not in text  # …without the credentials
    assert "Basic ***" in text


def test_a_token_echoed_by_a_server_is_not_in_the_error():
    with SparqlServer(echo_headers=True) as server:
        store = open_store(server.url, dialect="rdf12", token="tok-123456", retries=0)
        with pytest.raises(RagprovError) as e:
            store.query("ASK {}")
    assert "tok-123456" not in str(e.value)


# -- item 13: the iri filter validates every IRI, a NamedNode too ---------------------------------
def test_a_crafted_named_node_never_reaches_the_query_text():
    crafted = next(iter(ox.parse(b"<urn:a} ; DROP ALL ; {> <urn:p> <urn:o> .", format=ox.RdfFormat.N_TRIPLES, lenient=True)))
    assert "DROP ALL" in crafted.subject.value  # a lenient parse (as loaders use) makes such a NamedNode
    with pytest.raises(RagprovError, match="not an absolute IRI"):
        render("trace/exists", "rdf12", question=crafted.subject)
    lit = next(iter(ox.parse(b'<urn:a> <urn:p> "x"^^<urn:t} ; DROP ALL ; {> .', format=ox.RdfFormat.N_TRIPLES, lenient=True)))
    from ragprov.sparql.escape import sparql_term

    with pytest.raises(RagprovError):
        sparql_term(lit.object)


# -- item 15: trace delete --before counts, has a dry run, and asks on a terminal -----------------
def test_trace_delete_before_counts_and_dry_runs(tmp_path, capsys, clock):
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    recorder = Recorder(store, clock=clock)
    for i in range(3):
        graph_rag_trace(recorder, i, edges=2)
    store.close()
    before = quad_count(path)
    code, text = _cli(capsys, "trace", "delete", "--before", "2100-01-01", "--dry-run", "--store", str(path))
    assert code == 0 and "would delete 3 top-level trace(s)" in text
    assert quad_count(path) == before
    code, text = _cli(capsys, "trace", "delete", "--before", "2100-01-01", "--store", str(path))
    assert code == 0 and "deleted 3 top-level trace(s)" in text
    code, text = _cli(capsys, "trace", "delete", "--before", "2100-01-01", "--store", str(path))
    assert code == 0 and "nothing to delete" in text


def test_trace_delete_before_asks_on_a_terminal(tmp_path, monkeypatch, clock):
    from click.testing import CliRunner

    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graph_rag_trace(Recorder(store, clock=clock), 1, edges=2)
    store.close()
    before = quad_count(path)
    import ragprov.cli.traces as traces_cli

    monkeypatch.setattr(traces_cli, "_on_a_terminal", lambda: True)
    args = ["trace", "delete", "--before", "2100-01-01", "--store", str(path)]
    result = CliRunner().invoke(cli, args, input="n\n")
    assert "delete 1 top-level trace(s)" in result.output and "[y/N]" in result.output
    assert result.exit_code != 0 and quad_count(path) == before
    result = CliRunner().invoke(cli, args, input="y\n")
    assert result.exit_code == 0 and "deleted 1 top-level trace(s)" in result.output and quad_count(path) < before
