"""Lineage on every engine: edge → statement → chunk → page → document, document → answers,
document → extraction; in our tg:reifies form and TrustGraph's tg:contains form."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal, NamedNode, Quad, Triple

from ragprov.errors import NotFoundError
from ragprov.loaders.documents import load_documents
from ragprov.loaders.graphrag import load_graphrag
from ragprov.loaders.triples import load_triples
from ragprov.navigate.lineage import Lineage
from ragprov.record.recorder import ChunkSelection, EdgeSelection, Recorder
from ragprov.sparql.escape import sparql_term

from .helpers import GRAPHRAG, ReificationStore, make_pdf

TG = "https://trustgraph.ai/ns/"
PROV = "http://www.w3.org/ns/prov#"
SCROOGE = NamedNode("urn:e:scrooge")
PARTNER = NamedNode("urn:r:partnerOf")
MARLEY = NamedNode("urn:e:marley")
EDGE = Triple(SCROOGE, PARTNER, MARLEY)
LITERAL_EDGE = Triple(MARLEY, NamedNode("urn:r:note"), Literal('dead "as a door-nail"', language="en"))


def _load_pdf_and_facts(store, tmp_path):
    pdf = tmp_path / "carol.pdf"
    pdf.write_bytes(make_pdf(["Stave One. Marley's Ghost.", "Scrooge and Marley were partners for many years."]))
    (doc,) = load_documents(store, [pdf], chunk_size=500, chunk_overlap=0, show_progress=False).documents
    chunk = f"{doc.iri}/p2/s500-o0/c0"
    facts = tmp_path / "facts.nt"
    facts.write_text(f"{EDGE} .\n{LITERAL_EDGE} .\n")
    load_triples(store, facts, source=chunk, show_progress=False)
    return doc, chunk


def _record_partner_and_stave(store, chunk, clock, *, reasoning=None):
    """Record a GraphRAG trace that keeps EDGE and a DocRAG trace that keeps ``chunk``: the recorder and the two traces."""
    recorder = Recorder(store, clock=clock)
    g = recorder.graph_rag("Who was Scrooge's partner?", model="offline")
    g.grounding(["partner"])
    g.exploration([SCROOGE], edge_count=2)
    g.focus([EdgeSelection(EDGE, reasoning=reasoning, score=0.9, concept="partner")])
    g.synthesis("Marley.")
    d = recorder.doc_rag("What is Stave One?", model="offline")
    d.grounding(["stave"])
    d.exploration([NamedNode(chunk)])
    d.focus([ChunkSelection(NamedNode(chunk), score=0.5)])
    d.synthesis("Marley's Ghost.")
    return recorder, g, d


def test_edge_to_page_and_document(store, tmp_path):
    doc, chunk = _load_pdf_and_facts(store, tmp_path)
    lineage = Lineage(store)
    for edge in (EDGE, LITERAL_EDGE):
        (chain,) = lineage.edge_sources(edge)
        assert [n.kind for n in chain.nodes] == ["chunk", "page", "document"]
        assert chain.chunk.iri.value == chunk and chain.chunk.chunk_index == 0 and chain.chunk.char_offset == 0
        assert chain.page.page_number == 2
        assert chain.document.iri.value == doc.iri and chain.document.mime_type == "application/pdf"
        assert chain.document.page_count == 2
        assert "page 2" in str(chain) and "chunk 0" in str(chain)
    # an edge nobody loaded has no sources; a near miss (other object) neither
    assert lineage.edge_sources(Triple(SCROOGE, PARTNER, NamedNode("urn:e:fezziwig"))) == []


def test_document_answers_graph_rag_and_doc_rag(store, tmp_path, clock):
    doc, chunk = _load_pdf_and_facts(store, tmp_path)
    recorder, g, _ = _record_partner_and_stave(store, chunk, clock, reasoning="names the partner")
    other = recorder.graph_rag("Unrelated?", model="offline")
    other.grounding(["x"])
    other.exploration([SCROOGE], edge_count=1)
    other.focus([EdgeSelection(Triple(SCROOGE, PARTNER, NamedNode("urn:e:nobody")), score=0.1)])
    other.synthesis("?")

    listed = Lineage(store).document_answers(doc.iri)  # by the links the stages recorded, without the items
    assert [(a.query, a.items, len(a.stages)) for a in listed] == [("What is Stave One?", [], 2), ("Who was Scrooge's partner?", [], 1)]
    answers = Lineage(store).document_answers(doc.iri, items=True)
    assert [a.question for a in answers] == [a.question for a in listed]
    by_query = {a.query: a for a in answers}
    assert set(by_query) == {"Who was Scrooge's partner?", "What is Stave One?"}, [a.to_json() for a in answers]
    graph = by_query["Who was Scrooge's partner?"]
    assert graph.question == g.question and graph.edges == [EDGE]
    assert graph.answers and graph.answers[0].value.startswith("urn:trustgraph:prov:synthesis:")
    assert graph.answer_documents
    docrag = by_query["What is Stave One?"]
    assert docrag.chunks == [NamedNode(chunk)] and docrag.edges == []
    assert answers[0].query == "What is Stave One?"  # newest first
    with pytest.raises(NotFoundError, match="no document"):
        Lineage(store).document_answers("urn:ragprov:doc:unknown")

    # traces recorded before the link: found by the link-free look-ups, until migrated
    _unlink(store)
    unlinked = Lineage(store).document_answers(doc.iri, items=True)
    assert [_same(a) for a in unlinked] == [_same(a) for a in answers]
    assert _migrate(store, dry_run=True) == {"stages": 3, "links": 3, "traces": 2}
    assert _migrate(store) == {"stages": 3, "links": 3, "traces": 2}
    assert _migrate(store, dry_run=True) == {"stages": 0, "links": 0, "traces": 0}
    assert [_same(a) for a in Lineage(store).document_answers(doc.iri, items=True)] == [_same(a) for a in answers]

    # traces recorded with their stages' links only (before the trace link): the same step adds it
    _unlink(store, stages=False)
    assert _migrate(store, dry_run=True) == {"stages": 0, "links": 0, "traces": 2}
    assert _migrate(store) == {"stages": 0, "links": 0, "traces": 2}
    assert _migrate(store, dry_run=True) == {"stages": 0, "links": 0, "traces": 0}
    assert [_same(a) for a in Lineage(store).document_answers(doc.iri, items=True)] == [_same(a) for a in answers]

    # a store recorded by an older ragprov and then by this one: one trace linked, the other not.
    # Every trace is still listed (the link-free look-ups), in order, and the page says so
    (row,) = store.select(
        "PREFIX tg: <https://trustgraph.ai/ns/> SELECT ?t WHERE { GRAPH <urn:graph:retrieval> { ?t tg:traceRestsOn ?d } } LIMIT 1"
    )
    linked_trace = row["t"]
    store.update("PREFIX tg: <https://trustgraph.ai/ns/> DELETE WHERE { GRAPH <urn:graph:retrieval> { "
                 f"{sparql_term(linked_trace)} tg:traceRestsOn ?doc }} }}")
    page = Lineage(store).document_page(doc.iri, limit=1)
    assert page.partly_linked and page.total == len(answers)
    whole = Lineage(store).document_page(doc.iri)  # every trace: told by the stages no linked trace holds
    assert whole.partly_linked and [a.question for a in whole.answers] == [a.question for a in answers]
    assert [a.question for a in page.answers] == [a.question for a in answers[:1]]
    assert [_same(a) for a in Lineage(store).document_answers(doc.iri, items=True)] == [_same(a) for a in answers]
    assert _migrate(store) == {"stages": 0, "links": 0, "traces": 1}
    assert not Lineage(store).document_page(doc.iri, limit=1).partly_linked
    assert not Lineage(store).document_page(doc.iri).partly_linked


def test_import_of_an_older_export_links_its_traces(store, tmp_path, clock, capsys):
    """An export from a ragprov that linked stages (tg:restsOn) but not traces (tg:traceRestsOn):
    ``ragprov import`` adds the trace links (one ASK stopping at the first stage whose trace lacks
    its link, then the migration), says so, and an export with every link gets nothing."""
    from ragprov.cli import cli, run
    from ragprov.cli.migrate import document_links, link_imported
    from ragprov.sparql.templates import catalog
    from ragprov.store import open_store
    from ragprov.store.transfer import export_store

    doc, chunk = _load_pdf_and_facts(store, tmp_path)
    _record_partner_and_stave(store, chunk, clock)
    trace_links = lambda s: {(r["t"], r["d"]) for r in s.select(  # noqa: E731
        "PREFIX tg: <https://trustgraph.ai/ns/> SELECT ?t ?d WHERE { GRAPH <urn:graph:retrieval> { ?t tg:traceRestsOn ?d } }")}
    recorded = trace_links(store)
    assert len(recorded) == 2
    current = tmp_path / "current.nq"
    current.write_bytes(export_store(store))
    unlinked_traces = catalog().render("migrate/unlinked-traces", store.dialect)
    assert not store.ask(unlinked_traces) and link_imported(store) is None  # every trace linked: nothing to do
    _unlink(store, stages=False)
    assert store.ask(unlinked_traces)
    older = tmp_path / "older.nq"
    older.write_bytes(export_store(store))

    def _import(source) -> str:
        capsys.readouterr()
        target = tmp_path / source.stem
        assert run(cli, ["import", str(source), "--store", str(target)]) == 0
        return capsys.readouterr().err

    err = _import(older)
    assert "added 2 trace link(s) (tg:traceRestsOn" in err and "stage(s)" not in err, err
    imported = open_store(str(tmp_path / "older"))
    try:
        assert trace_links(imported) == recorded  # the links the recorder wrote, no more
        assert document_links(imported, dry_run=True) == {"stages": 0, "links": 0, "traces": 0}
        page = Lineage(imported).document_page(doc.iri, limit=10)
        assert not page.partly_linked and page.total == 2
    finally:
        imported.close()
    err = _import(current)
    assert "imported" in err and "trace link" not in err, err
    # the same on the source store's engine: the ASK finds the stage links, the migration links
    assert link_imported(store) == {"stages": 0, "links": 0, "traces": 2}
    assert trace_links(store) == recorded and link_imported(store) is None


def _unlink(store, *, stages: bool = True) -> None:
    """Remove the document links (the trace links; and the stages' unless ``stages`` is False): a
    store recorded before ragprov wrote them."""
    store.update("PREFIX tg: <https://trustgraph.ai/ns/> DELETE WHERE { GRAPH <urn:graph:retrieval> { ?trace tg:traceRestsOn ?doc } }")
    if stages:
        store.update("PREFIX tg: <https://trustgraph.ai/ns/> DELETE WHERE { GRAPH <urn:graph:retrieval> { ?stage tg:restsOn ?doc } }")


def _same(answer) -> dict:
    """An answer's JSON with its lists in one order."""
    return {k: sorted(v) if isinstance(v, list) else v for k, v in answer.to_json().items()}


def _migrate(store, *, dry_run: bool = False) -> dict:
    from ragprov.cli.migrate import document_links

    return document_links(store, dry_run=dry_run)


def test_extraction_of_a_document(store, tmp_path):
    doc, chunk = _load_pdf_and_facts(store, tmp_path)
    ex = Lineage(store).extraction(doc.iri)
    assert ex.document.kind == "document" and ex.document.title == "carol"
    assert [p.page_number for p in ex.pages] == [1, 2]
    assert len(ex.chunks) == 2 and {c.parents[0].value for c in ex.chunks} == {p.iri.value for p in ex.pages}
    assert {s.fact for s in ex.statements} == {EDGE, LITERAL_EDGE}
    assert all(s.derived_from == (NamedNode(chunk),) for s in ex.statements)
    with pytest.raises(NotFoundError):
        Lineage(store).extraction("urn:ragprov:doc:unknown")


def test_graphrag_relationships_reach_their_documents(store):
    load_graphrag(store, GRAPHRAG["operation-dulce-v3"], show_progress=False)
    lineage = Lineage(store)
    rows = store.select(
        "SELECT ?s ?p ?o WHERE { ?p <http://www.w3.org/2000/01/rdf-schema#subPropertyOf> <https://trustgraph.ai/ns/relatedTo> . "
        "?s ?p ?o } ORDER BY ?p LIMIT 5"
    )
    assert len(rows) == 5
    for r in rows:
        chains = lineage.edge_sources(Triple(r["s"], r["p"], r["o"]))
        assert chains and all(c.document is not None and c.document.kind == "document" for c in chains)
        assert all([n.kind for n in c.nodes] == ["chunk", "document"] for c in chains)


def test_many_edges_in_one_query(store):
    """A trace view with provenance asks for all its edges at once: one query, the same chains."""
    load_graphrag(store, GRAPHRAG["operation-dulce-v3"], show_progress=False)
    rows = store.select(
        "SELECT ?s ?p ?o WHERE { ?p <http://www.w3.org/2000/01/rdf-schema#subPropertyOf> <https://trustgraph.ai/ns/relatedTo> . "
        "?s ?p ?o } ORDER BY ?p LIMIT 6"
    )
    edges = [Triple(r["s"], r["p"], r["o"]) for r in rows] + [Triple(NamedNode("urn:x:a"), NamedNode("urn:x:b"), NamedNode("urn:x:c"))]

    class Counting:
        def __init__(self, inner):
            self.inner, self.dialect, self.queries = inner, inner.dialect, 0

        def select(self, sparql):
            self.queries += 1
            return self.inner.select(sparql)

    counting = Counting(store)
    many = Lineage(counting).edges_sources(edges)
    assert counting.queries == 1
    assert many[edges[-1]] == []  # nothing reifies an unknown edge
    for edge in edges[:-1]:
        assert many[edge] and [str(c) for c in many[edge]] == [str(c) for c in Lineage(store).edge_sources(edge)]


def test_trustgraph_contains_form(store):
    """TrustGraph writes `?subgraph tg:contains <<s p o>>`, with pages and chunks typed only prov:Entity."""
    from ragprov.sparql.quads import insert_data

    doc, page, chunk, sg = (NamedNode(f"urn:tg:{x}") for x in ("doc", "doc/p1", "doc/p1/c0", "subgraph"))
    entity = NamedNode(PROV + "Entity")
    rdf_type = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    g = NamedNode("urn:graph:source")
    quads = [
        Quad(doc, rdf_type, NamedNode(TG + "Document"), g),
        Quad(doc, NamedNode("http://purl.org/dc/elements/1.1/title"), Literal("TrustGraph doc"), g),
        Quad(page, rdf_type, entity, g),
        Quad(page, NamedNode(TG + "pageNumber"), Literal("1", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")), g),
        Quad(page, NamedNode(PROV + "wasDerivedFrom"), doc, g),
        Quad(chunk, rdf_type, entity, g),
        Quad(chunk, NamedNode(TG + "chunkIndex"), Literal("0", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")), g),
        Quad(chunk, NamedNode(PROV + "wasDerivedFrom"), page, g),
        Quad(sg, NamedNode(TG + "contains"), EDGE, g),
        Quad(sg, NamedNode(PROV + "wasDerivedFrom"), chunk, g),
    ]
    store.update(insert_data(quads, store.dialect))
    (chain,) = Lineage(store).edge_sources(EDGE)
    assert chain.statement == sg
    assert [n.kind for n in chain.nodes] == ["chunk", "page", "document"]
    assert chain.document.title == "TrustGraph doc"
    ex = Lineage(store).extraction(doc)
    assert [s.fact for s in ex.statements] == [EDGE]


def test_reification_dialect_joins_extraction_and_traces(tmp_path, clock):
    store = ReificationStore()
    doc, _chunk = _load_pdf_and_facts(store, tmp_path)
    (chain,) = Lineage(store).edge_sources(EDGE)
    assert chain.document.iri.value == doc.iri
    recorder = Recorder(store, clock=clock)
    g = recorder.graph_rag("Partner?", model="offline")
    g.grounding(["partner"])
    g.exploration([SCROOGE], edge_count=1)
    g.focus([EdgeSelection(EDGE, score=1.0)])
    g.synthesis("Marley.")
    (answer,) = Lineage(store).document_answers(doc.iri, items=True)
    assert answer.edges == [EDGE] and answer.question == g.question


def test_sample_edges(memory_store):
    with pytest.raises(NotFoundError):
        Lineage(memory_store).any_edge()
    load_graphrag(memory_store, GRAPHRAG["operation-dulce-v3"], show_progress=False)
    assert isinstance(Lineage(memory_store).any_edge(), Triple)


def test_link_free_pages_are_slices_of_one_newest_first_list(tmp_path):
    """Traces without the document link (recorded before it, or by TrustGraph) are paged like
    linked ones: every page a slice of the same newest-first list, none repeated or skipped —
    with a clock going backwards, so the store's order is not the time order."""
    import datetime as dt
    import itertools

    from ragprov.store import open_store

    store = open_store("memory:")
    doc, chunk = _load_pdf_and_facts(store, tmp_path)
    start, tick = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc), itertools.count()
    recorder = Recorder(store, clock=lambda: start - dt.timedelta(minutes=next(tick)))
    for i in range(6):
        trace = recorder.doc_rag(f"Q{i}?", model="offline")
        trace.grounding(["s"])
        trace.exploration([NamedNode(chunk)])
        trace.focus([ChunkSelection(NamedNode(chunk), score=0.5)])
        trace.synthesis("A.")
    _unlink(store)
    lineage = Lineage(store)
    every = lineage.document_page(doc.iri)
    assert [a.query for a in every.answers] == [f"Q{i}?" for i in range(6)]  # newest (Q0) first
    pages = [lineage.document_page(doc.iri, limit=2, offset=k) for k in (0, 2, 4)]
    assert [a.query for p in pages for a in p.answers] == [a.query for a in every.answers]
    assert all(p.total == 6 for p in pages)
