"""Documents: text, Markdown and PDF become Document → Page → Chunk with offsets and activities."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragprov.loaders.documents import chunk_spans, document_iri, load_documents

from .helpers import make_pdf

Q = """PREFIX tg: <https://trustgraph.ai/ns/>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX dc: <http://purl.org/dc/elements/1.1/>
"""


def _chunks(store, doc: str):
    q = Q + f"""SELECT ?page ?n ?chunk ?i ?off ?len ?text WHERE {{
      GRAPH <urn:graph:source> {{ ?page prov:wasDerivedFrom <{doc}> ; tg:pageNumber ?n .
        ?chunk prov:wasDerivedFrom ?page ; tg:chunkIndex ?i ; tg:charOffset ?off ; tg:charLength ?len }}
      GRAPH <urn:graph:library> {{ ?chunk tg:content ?text }} }} ORDER BY ?n ?i"""
    return [(int(r["n"].value), int(r["i"].value), int(r["off"].value), int(r["len"].value), r["text"].value) for r in store.select(q)]


def test_markdown_document_pages_chunks_and_activities(store, tmp_path):
    text = "# A Christmas Carol\n\nMarley was dead: to begin with. There is no doubt whatever about that.\n"
    f = tmp_path / "carol.md"
    f.write_text(text)
    report = load_documents(store, [f], chunk_size=30, chunk_overlap=5, show_progress=False)
    (doc,) = report.documents
    assert doc.iri == document_iri(f.read_bytes()) and doc.title == "A Christmas Carol" and doc.pages == 1
    rows = _chunks(store, doc.iri)
    assert len(rows) == doc.chunks >= 3
    for _page, _i, off, length, chunk_text in rows:
        assert chunk_text == text[off : off + length]
    assert rows[-1][2] + rows[-1][3] == len(text)
    q = Q + f"""ASK {{ GRAPH <urn:graph:source> {{
        <{doc.iri}> a tg:Document ; dc:title "A Christmas Carol" ; tg:mimeType "text/markdown" ; tg:pageCount 1 ; dc:source ?src .
        ?chunk tg:chunkIndex 0 ; prov:wasGeneratedBy ?act .
        ?act a prov:Activity ; tg:chunkSize 30 ; tg:chunkOverlap 5 ; prov:used ?page ; prov:startedAtTime ?t ;
             tg:componentVersion ?v ; prov:wasAssociatedWith ?agent .
        ?agent a prov:SoftwareAgent .
        ?page prov:wasGeneratedBy ?pageAct . ?pageAct prov:used <{doc.iri}> }} }}"""
    assert store.ask(q)


def test_pdf_one_page_per_pdf_page(store, tmp_path):
    f = tmp_path / "two.pdf"
    f.write_bytes(make_pdf(["Scrooge signed the register.", "Marley was dead as a door-nail."]))
    report = load_documents(store, [f], chunk_size=1000, chunk_overlap=0, show_progress=False)
    (doc,) = report.documents
    assert doc.mime_type == "application/pdf" and doc.pages == 2 and doc.chunks == 2
    rows = _chunks(store, doc.iri)
    assert [(r[0], r[4]) for r in rows] == [(1, "Scrooge signed the register."), (2, "Marley was dead as a door-nail.")]


def test_loading_twice_adds_nothing(store, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("Bob Cratchit worked for Scrooge. " * 20)
    load_documents(store, [f], chunk_size=100, chunk_overlap=10, show_progress=False)
    before = store.count()
    report = load_documents(store, [f], chunk_size=100, chunk_overlap=10, show_progress=False)
    assert report.quads == 0 and report.documents[0].skipped
    assert store.count() == before


def test_a_requested_rechunking_adds_new_chunks_of_the_same_document(memory_store, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("Tiny Tim. " * 50)
    a = load_documents(memory_store, [f], chunk_size=100, chunk_overlap=10, show_progress=False).documents[0]
    b = load_documents(memory_store, [f], chunk_size=200, chunk_overlap=0, show_progress=False, rechunk=True).documents[0]
    assert a.iri == b.iri and not b.skipped
    q = Q + "SELECT (COUNT(?d) AS ?n) WHERE { GRAPH <urn:graph:source> { ?d a tg:Document } }"
    assert memory_store.select(q)[0]["n"].value == "1"


def test_folder_of_documents(memory_store, tmp_path):
    (tmp_path / "a.txt").write_text("one")
    (tmp_path / "b.md").write_text("# Two\n")
    (tmp_path / "ignored.bin").write_bytes(b"\x00\x01")
    report = load_documents(memory_store, [tmp_path], show_progress=False)
    assert sorted(d.title for d in report.documents) == ["Two", "a"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \n"), max_size=300), st.integers(1, 40), st.integers(0, 39))
def test_chunk_spans_cover_the_text(text, size, overlap):
    overlap = overlap % size
    spans = chunk_spans(text, size, overlap)
    if not text:
        assert spans == []
        return
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    for (s1, e1), (s2, _e2) in itertools.pairwise(spans):
        assert s1 < s2 <= e1  # progress, no gap
    assert all(0 < e - s <= size for s, e in spans)


def test_a_second_chunking_is_refused_unless_asked_for(store, tmp_path):
    from ragprov.errors import LoadError
    from ragprov.loaders import load_documents

    book = tmp_path / "book.txt"
    book.write_text("one two three four five six seven eight nine ten\n" * 40, encoding="utf-8")
    load_documents(store, [book], chunk_size=200, chunk_overlap=20, show_progress=False)
    before = store.count()
    with pytest.raises(LoadError, match="already loaded with chunk size 200 and overlap 20"):
        load_documents(store, [book], chunk_size=500, chunk_overlap=50, show_progress=False)
    assert store.count() == before
    assert load_documents(store, [book], chunk_size=200, chunk_overlap=20, show_progress=False).documents[0].skipped
    report = load_documents(store, [book], chunk_size=500, chunk_overlap=50, show_progress=False, rechunk=True)
    assert report.documents[0].chunks > 0 and store.count() > before
    starts = store.select(
        "SELECT ?t WHERE { GRAPH <urn:graph:source> { ?a <http://www.w3.org/ns/prov#used> ?d ; "
        "<http://www.w3.org/ns/prov#startedAtTime> ?t . ?d a <https://trustgraph.ai/ns/Document> } }"
    )
    assert len(starts) == 1, "the pages were extracted once: their activity keeps one start time"


def test_a_file_name_that_is_not_utf8_is_refused(store, tmp_path):
    import os

    from ragprov.errors import LoadError
    from ragprov.loaders import load_documents

    name = os.fsdecode(b"n\xffame.txt")
    path = tmp_path / name
    path.write_text("Marley was dead.", encoding="utf-8")
    with pytest.raises(LoadError, match="not valid UTF-8"):
        load_documents(store, [path], show_progress=False)
    assert store.count() == 0
