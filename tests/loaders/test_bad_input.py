"""Bad input: a clear error naming the file, table, row and column — and the store left exactly as it was."""

from __future__ import annotations

import json
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ragprov.errors import LoadError
from ragprov.loaders.documents import load_documents
from ragprov.loaders.graphrag import load_graphrag
from ragprov.loaders.triples import load_triples

from .helpers import copy_fixture, make_pdf, quad_set


@pytest.fixture
def seeded(memory_store):
    memory_store.update('INSERT DATA { <urn:x:a> <urn:x:b> "kept" . GRAPH <urn:graph:source> { <urn:x:c> <urn:x:d> <urn:x:e> } }')
    return memory_store


def _rewrite(folder, table: str, fn) -> None:
    path = folder / f"{table}.parquet"
    pq.write_table(fn(pq.read_table(path)), path)


def _set(t: pa.Table, column: str, row: int, value) -> pa.Table:
    values = t.column(column).to_pylist()
    values[row] = value
    return t.set_column(t.column_names.index(column), column, pa.array(values, type=t.schema.field(column).type))


def _graphrag_fails(store, folder, *needles: str, **options) -> str:
    before = quad_set(store)
    with pytest.raises(LoadError) as info:
        load_graphrag(store, folder, show_progress=False, **options)
    message = str(info.value)
    for needle in needles:
        assert re.search(needle, message), (needle, message)
    assert quad_set(store) == before
    return message


@pytest.fixture
def dulce(tmp_path):
    return copy_fixture("operation-dulce-v3", tmp_path)


def test_missing_folder(seeded, tmp_path):
    _graphrag_fails(seeded, tmp_path / "nope", "nope", "no such GraphRAG output folder")


def test_missing_table(seeded, dulce):
    (dulce / "entities.parquet").unlink()
    _graphrag_fails(seeded, dulce, "operation-dulce-v3", r"missing table entities\.parquet")


def test_empty_folder_names_both_spellings(seeded, tmp_path):
    (tmp_path / "out").mkdir()
    _graphrag_fails(seeded, tmp_path / "out", r"create_final_documents\.parquet")


def test_missing_column(seeded, dulce):
    _rewrite(dulce, "relationships", lambda t: t.drop_columns(["source"]))
    _graphrag_fails(seeded, dulce, r"relationships\.parquet", "table 'relationships'", "no column 'source'")


def test_wrong_column_type(seeded, dulce):
    _rewrite(dulce, "entities", lambda t: t.set_column(t.column_names.index("title"), "title", pa.array(range(t.num_rows))))
    _graphrag_fails(seeded, dulce, r"entities\.parquet", "column 'title'", "type int64", "expected str")


def test_null_entity_id(seeded, dulce):
    _rewrite(dulce, "entities", lambda t: _set(t, "id", 3, None))
    _graphrag_fails(seeded, dulce, "table 'entities', row 3, column 'id'", "non-empty id")


def test_duplicate_entity_title(seeded, dulce):
    titles = pq.read_table(dulce / "entities.parquet").column("title").to_pylist()
    _rewrite(dulce, "entities", lambda t: _set(t, "title", 5, titles[1]))
    _graphrag_fails(seeded, dulce, "row 5, column 'title'", "duplicate entity title", "also row 1")


def test_relationship_naming_unknown_entity(seeded, dulce):
    _rewrite(dulce, "relationships", lambda t: _set(t, "target", 7, "NOBODY AT ALL"))
    _graphrag_fails(
        seeded, dulce, r"relationships\.parquet", "row 7, column 'target'", "unknown entity 'NOBODY AT ALL'",
        unknown_entities="error",
    )


def test_relationship_with_unknown_text_unit(seeded, dulce):
    _rewrite(dulce, "relationships", lambda t: _set(t, "text_unit_ids", 2, ["no-such-unit"]))
    _graphrag_fails(seeded, dulce, "row 2, column 'text_unit_ids'", "unknown text unit 'no-such-unit'")


def test_relationship_without_text_units(seeded, dulce):
    _rewrite(dulce, "relationships", lambda t: _set(t, "text_unit_ids", 0, []))
    _graphrag_fails(seeded, dulce, "row 0, column 'text_unit_ids'", "no text unit")


def test_text_unit_with_broken_document_link(seeded, dulce):
    _rewrite(dulce, "text_units", lambda t: _set(t, "document_id", 4, "missing-doc"))
    _graphrag_fails(seeded, dulce, r"text_units\.parquet", "row 4, column 'document_id'", "unknown document 'missing-doc'")


def test_report_naming_unknown_community(seeded, dulce):
    _rewrite(dulce, "community_reports", lambda t: _set(t, "community", 1, 999))
    _graphrag_fails(seeded, dulce, r"community_reports\.parquet", "row 1, column 'community'", "unknown community 999")


def test_claim_with_unknown_text_unit(seeded, dulce):
    _rewrite(dulce, "covariates", lambda t: _set(t, "text_unit_id", 9, "gone"))
    _graphrag_fails(seeded, dulce, r"covariates\.parquet", "row 9, column 'text_unit_id'", "unknown text unit 'gone'")


def test_community_with_unknown_member(seeded, dulce):
    _rewrite(dulce, "communities", lambda t: _set(t, "entity_ids", 0, ["ghost"]))
    _graphrag_fails(seeded, dulce, r"communities\.parquet", "row 0, column 'entity_ids'", "unknown entity 'ghost'")


def test_non_integer_community_level(seeded, dulce):
    _rewrite(dulce, "communities", lambda t: t.set_column(t.column_names.index("level"), "level", pa.array(["one"] * t.num_rows)))
    _graphrag_fails(seeded, dulce, "row 0, column 'level'", "expected an integer, got 'one'")


def test_corrupt_parquet_file(seeded, dulce):
    (dulce / "covariates.parquet").write_bytes(b"PAR1 this is not parquet")
    _graphrag_fails(seeded, dulce, r"covariates\.parquet", "table 'covariates' is not a readable Parquet file")


def test_unknown_policy(seeded, dulce):
    _graphrag_fails(seeded, dulce, "unknown_entities must be one of", unknown_entities="guess")


# -- documents -----------------------------------------------------------------------------------
def _documents_fail(store, paths, *needles: str, **options) -> None:
    before = quad_set(store)
    with pytest.raises(LoadError) as info:
        load_documents(store, paths, show_progress=False, **options)
    for needle in needles:
        assert re.search(needle, str(info.value)), (needle, str(info.value))
    assert quad_set(store) == before


def test_non_utf8_text_names_file_and_offset(seeded, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("fine text")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("first line\ncaf\xe9".encode("latin-1"))
    # the good file comes first: still nothing is written
    _documents_fail(seeded, [good, bad], r"latin1\.txt", "not UTF-8", "offset 14", "line 2")


def test_unreadable_pdf(seeded, tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF")
    _documents_fail(seeded, [bad], r"broken\.pdf", "PDF")


def test_truncated_pdf(seeded, tmp_path):
    bad = tmp_path / "cut.pdf"
    bad.write_bytes(make_pdf(["one", "two"])[:120])
    _documents_fail(seeded, [bad], r"cut\.pdf")


def test_missing_document_file(seeded, tmp_path):
    _documents_fail(seeded, [tmp_path / "absent.md"], r"absent\.md", "no such file")


def test_bad_chunk_options(seeded, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("text")
    _documents_fail(seeded, [f], "overlap", chunk_size=10, chunk_overlap=10)
    _documents_fail(seeded, [f], "chunk size", chunk_size=0)


# -- triples -------------------------------------------------------------------------------------
def _triples_fail(store, path, *needles: str, **options) -> None:
    before = quad_set(store)
    options.setdefault("source", "urn:x:c")
    with pytest.raises(LoadError) as info:
        load_triples(store, path, show_progress=False, **options)
    for needle in needles:
        assert re.search(needle, str(info.value)), (needle, str(info.value))
    assert quad_set(store) == before


def test_ntriples_syntax_error(seeded, tmp_path):
    f = tmp_path / "facts.nt"
    f.write_text('<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> "unterminated .\n')
    _triples_fail(seeded, f, r"facts\.nt", "not valid ntriples")


def test_blank_node_fact(seeded, tmp_path):
    f = tmp_path / "facts.ttl"
    f.write_text("<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> [ <urn:c> 1 ] .\n")
    _triples_fail(seeded, f, r"facts\.ttl", "fact [23]", "blank node")


def test_json_fact_missing_object(seeded, tmp_path):
    f = tmp_path / "facts.json"
    f.write_text(json.dumps([{"s": "urn:a", "p": "urn:b", "o": "x"}, {"s": "urn:a", "p": "urn:b"}]))
    _triples_fail(seeded, f, r"facts\.json", "fact 2", "missing 'o'")


def test_json_fact_bad_iri(seeded, tmp_path):
    f = tmp_path / "facts.json"
    f.write_text(json.dumps([{"s": "not an iri", "p": "urn:b", "o": "x"}]))
    _triples_fail(seeded, f, r"facts\.json", "fact 1", "'s'", "not an absolute IRI")


def test_unknown_source(seeded, tmp_path):
    f = tmp_path / "facts.nt"
    f.write_text("<urn:a> <urn:b> <urn:c> .\n")
    _triples_fail(seeded, f, "source <urn:x:nowhere> is not a document, page or chunk", source="urn:x:nowhere")


def test_unknown_triples_format(seeded, tmp_path):
    f = tmp_path / "facts.xyz"
    f.write_text("")
    _triples_fail(seeded, f, r"facts\.xyz", "--format")
