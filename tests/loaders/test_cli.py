"""``ragprov load …``, ``ragprov lineage …`` and ``ragprov extraction show`` end to end on a disk store."""

from __future__ import annotations

import json

from ragprov.cli import cli
from ragprov.cli.common import run

from .helpers import GRAPHRAG, make_pdf


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = run(cli, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_load_and_trace_lineage(tmp_path, capsys, monkeypatch):
    store = str(tmp_path / "store")
    pdf = tmp_path / "carol.pdf"
    pdf.write_bytes(make_pdf(["Marley was dead.", "Scrooge signed it."]))
    code, out, err = _run(capsys, "load", "documents", str(pdf), "--chunk-size", "200", "--chunk-overlap", "0", "--store", store, "--json")
    assert code == 0, err
    doc = json.loads(out)["documents"][0]
    assert doc["pages"] == 2 and doc["chunks"] == 2 and not doc["skipped"]
    code, out, _ = _run(capsys, "load", "documents", str(pdf), "--chunk-size", "200", "--chunk-overlap", "0", "--store", store)
    assert code == 0 and "already loaded" in out

    facts = tmp_path / "facts.nt"
    facts.write_text('<urn:e:scrooge> <urn:r:signed> "the register"@en .\n')
    chunk = f"{doc['iri']}/p2/s200-o0/c0"
    code, out, err = _run(capsys, "load", "triples", str(facts), "--source", chunk, "--llm-model", "m", "--store", store)
    assert code == 0 and "1 fact(s)" in out, err

    code, out, err = _run(capsys, "lineage", "edge", "urn:e:scrooge", "<urn:r:signed>", '"the register"@en', "--store", store)
    assert code == 0, err
    assert "page 2" in out and doc["iri"] in out

    code, out, _ = _run(
        capsys,
        "lineage",
        "edge",
        "urn:e:scrooge",
        "urn:r:signed",
        '"the register"@en',
        "--store",
        store,
        "--format",
        "json",
    )
    (chain,) = json.loads(out)
    assert [n["kind"] for n in chain["chain"]] == ["chunk", "page", "document"]

    code, out, _ = _run(capsys, "extraction", "show", doc["iri"], "--store", store, "--format", "json")
    data = json.loads(out)
    assert len(data["pages"]) == 2 and len(data["statements"]) == 1

    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--store", store, "--format", "json")
    assert code == 0 and json.loads(out) == []

    # a trace that kept the edge: listed by its document link, with the kept items on request
    from pyoxigraph import Literal, NamedNode, Triple

    from ragprov.record import EdgeSelection, Recorder
    from ragprov.store import open_store

    edge = Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:signed"), Literal("the register", language="en"))

    def record(question: str, answer: str):
        """A GraphRAG trace that keeps ``edge``, recorded in the store."""
        with open_store(store) as opened:
            trace = Recorder(opened).graph_rag(question, model="m")
            trace.grounding(["register"])
            trace.exploration([edge.subject], edge_count=1)
            trace.focus([EdgeSelection(edge, score=1.0)])
            trace.synthesis(answer)
        return trace

    t = record("Who signed the register?", "Scrooge.")
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--store", store, "--format", "json")
    (listed,) = json.loads(out)
    assert code == 0 and listed["question"] == t.question.value and listed["stages"] and listed["items"] == [], err
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--items", "--store", store)
    assert code == 0 and "via" in out and "urn:ragprov:statement:" in out, err
    code, out, err = _run(capsys, "migrate", "document-links", "--dry-run", "--json", "--store", store)
    assert code == 0 and json.loads(out) == {"stages": 0, "links": 0, "traces": 0, "dry_run": True}, err

    # a page of the traces, newest first, and how many there are in all
    later = record("Who signed it again?", "Scrooge, again.")
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--limit", "1", "--store", store)
    assert code == 0 and later.question.value in out and t.question.value not in out, err
    assert "traces 1-1 of 2, newest first; --page 2 for the next, --all for every one" in err
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--limit", "1", "--page", "2", "--store", store)
    assert code == 0 and t.question.value in out and later.question.value not in out and "traces 2-2 of 2" in err, err
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--store", store)
    assert code == 0 and t.question.value in out and later.question.value in out and "of 2" not in err, err
    # a person at a terminal reads a page; piped to a program, every trace unless a page is asked for
    import ragprov.cli.lineage as lineage_cli

    monkeypatch.setattr(lineage_cli, "PAGE_SIZE", 1)
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--store", store)
    assert code == 0 and t.question.value in out and later.question.value in out, err
    monkeypatch.setattr(lineage_cli.sys.stdout, "isatty", lambda: True)
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--store", store)
    assert code == 0 and "traces 1-1 of 2" in err, err  # (the table, drawn for a terminal, wraps the IRIs)
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--limit", "1", "--format", "json", "--store", store)
    assert [a["question"] for a in json.loads(out)] == [later.question.value], err
    code, out, err = _run(capsys, "lineage", "document", doc["iri"], "--all", "--page", "2", "--store", store)
    assert code != 0 and "--all lists every trace" in err


def test_load_graphrag_and_errors(tmp_path, capsys):
    store = str(tmp_path / "store")
    code, out, err = _run(capsys, "load", "graphrag", str(GRAPHRAG["operation-dulce-v3"]), "--store", store, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["version"] == "3" and report["rows"]["relationships"] == 107 and report["quads"] > 0
    code, out, _ = _run(capsys, "load", "graphrag", str(GRAPHRAG["operation-dulce-v3"]), "--store", store)
    assert code == 0 and "already loaded" in out
    # errors are one line on stderr and exit 1
    code, out, err = _run(capsys, "load", "graphrag", str(tmp_path / "missing"), "--store", store)
    assert code == 1 and err.startswith("error: ") and "missing" in err and len(err.strip().splitlines()) == 1
    code, _, err = _run(capsys, "lineage", "edge", "urn:a", "urn:b", "urn:c", "--store", store)
    assert code == 1 and "no statement reifies this edge" in err
    code, _, err = _run(capsys, "lineage", "edge", '"lit"', "urn:b", "urn:c", "--store", store)
    assert code == 1 and "must be an IRI" in err
    code, _, err = _run(capsys, "extraction", "show", "urn:nothing", "--store", store)
    assert code == 1 and "no document" in err


def test_a_bulk_load_compacts_the_store_and_a_small_one_does_not(tmp_path, capsys, monkeypatch):
    """Compaction rewrites the whole store (time, and its size again in free disk): a load of a few
    quads leaves it to RocksDB; a bulk load (``COMPACT_AFTER`` quads or more) compacts; a compaction
    that fails is reported and the load stands."""
    import ragprov.cli.load as load_cli
    from ragprov.errors import StoreError
    from ragprov.store import EmbeddedStore

    store = str(tmp_path / "store")
    facts = tmp_path / "facts.nt"
    facts.write_text('<urn:e:a> <urn:r:b> "c" .\n')
    code, _, err = _run(capsys, "load", "triples", str(facts), "--source", "urn:doc:x", "--allow-unknown-source", "--store", store)
    assert code == 0 and "store compacted" not in err, err
    monkeypatch.setattr(load_cli, "COMPACT_AFTER", 1)
    facts.write_text('<urn:e:a> <urn:r:b> "d" .\n')
    code, _, err = _run(capsys, "load", "triples", str(facts), "--source", "urn:doc:x", "--allow-unknown-source", "--store", store)
    assert code == 0 and "store compacted" in err, err

    def full_disk(self):
        raise StoreError("the disk holding the store is full (a compaction failed)")

    monkeypatch.setattr(EmbeddedStore, "optimize", full_disk)
    facts.write_text('<urn:e:a> <urn:r:b> "e" .\n')
    code, out, err = _run(capsys, "load", "triples", str(facts), "--source", "urn:doc:x", "--allow-unknown-source", "--store", store)
    assert code == 0 and "was not compacted" in err and "1 fact(s)" in out, err
    reader = EmbeddedStore(store, read_only=True)
    try:
        assert {r["o"].value for r in reader.select("SELECT ?o WHERE { <urn:e:a> <urn:r:b> ?o }")} == {"c", "d", "e"}
    finally:
        reader.close()
