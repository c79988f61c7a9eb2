"""The persistent text index (ragprov.retrieve.textindex) on the real Microsoft GraphRAG fixtures:
the same top-k as a from-scratch in-process BM25 build, survives reopen, updated by a second load,
and a store changed behind its back is noticed."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from ragprov.resources import data_dir
from ragprov.retrieve import ChunkIndex, EntityIndex, FactsReader
from ragprov.retrieve.lexical import content_tokens, extract_concepts
from ragprov.retrieve.reader import update_text_index
from ragprov.retrieve.textindex import INDEX_ENV, StoredEntityIndex, TextIndex, index_location
from ragprov.store import EmbeddedStore

from .conftest import FACTS

graphrag_loader = pytest.importorskip("ragprov.loaders.graphrag")
CAROL = data_dir() / "graphrag" / "christmas-carol-v3"
QUESTIONS = [
    "Who is Tiny Tim?",
    "What does the Ghost of Christmas Past show Scrooge?",
    "How is Scrooge related to Fred?",
    "Bob Cratchit family Christmas dinner",
    "Marley's chains and the counting-house",
    "spirit",
]


@pytest.fixture(autouse=True)
def _no_index_override(monkeypatch):
    monkeypatch.delenv(INDEX_ENV, raising=False)


@pytest.fixture
def carol_dir(tmp_path):
    """An on-disk store with the Christmas Carol index loaded and its text index built (as `ragprov load` does)."""
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graphrag_loader.load_graphrag(store, CAROL, facts_graph=FACTS, show_progress=False)
    report = update_text_index(store, facts_graph=FACTS)
    assert report is not None and report.written > 100 and report.removed == 0
    store.close()
    return path


def test_index_lives_beside_a_directory_store_and_nowhere_for_memory(tmp_path, monkeypatch):
    assert index_location(EmbeddedStore()) is None
    assert index_location(EmbeddedStore(tmp_path / "s")) == tmp_path / "s.ragprov-index.sqlite"
    monkeypatch.setenv(INDEX_ENV, str(tmp_path / "elsewhere.sqlite"))
    assert index_location(EmbeddedStore()) == tmp_path / "elsewhere.sqlite"


def test_same_top_k_as_a_from_scratch_build(carol_dir, capsys):
    store = EmbeddedStore(carol_dir)
    reader = FactsReader(store, facts_graph=FACTS)
    stored_entities, stored_chunks = reader.entity_index(), reader.chunk_index()
    assert type(stored_entities).__name__ == "StoredEntityIndex"
    assert "bringing it up to date" not in capsys.readouterr().err  # built at load time, not here
    scratch_entities = EntityIndex(*reader.read_entities())
    scratch_chunks = ChunkIndex(reader.read_chunks())
    assert len(stored_entities) == len(scratch_entities) > 50 and len(stored_chunks) == len(scratch_chunks) > 5
    for question in QUESTIONS:
        concepts = extract_concepts(question)
        assert stored_entities.search(concepts, limit=10) == scratch_entities.search(concepts, limit=10), question
        assert stored_chunks.search(concepts, limit=5) == scratch_chunks.search(concepts, limit=5), question


def test_survives_reopen_without_rebuilding(carol_dir, capsys):
    size = (carol_dir.parent / "store.ragprov-index.sqlite").stat().st_size
    first = FactsReader(EmbeddedStore(carol_dir), facts_graph=FACTS).entity_index().search(["tiny tim"], limit=3)
    second_reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    assert second_reader.entity_index().search(["tiny tim"], limit=3) == first and first[0].label == "TINY TIM"
    assert "bringing it up to date" not in capsys.readouterr().err
    assert (carol_dir.parent / "store.ragprov-index.sqlite").stat().st_size == size


def test_a_second_load_updates_it(carol_dir, tmp_path):
    from ragprov.loaders.triples import load_triples

    facts = tmp_path / "more.nt"
    facts.write_text('<urn:x:fezziwig-ball> <http://www.w3.org/2000/01/rdf-schema#label> "Zanzibar Quokka" .\n', encoding="utf-8")
    store = EmbeddedStore(carol_dir)
    load_triples(store, str(facts), source="urn:x:notes", facts_graph=FACTS, require_source=False, show_progress=False)
    report = update_text_index(store, facts_graph=FACTS)
    assert report.written == 1 and report.removed == 0 and report.kept > 100  # only the new entity is written
    found = FactsReader(store, facts_graph=FACTS).entity_index().search(["quokka"], limit=1)
    assert [m.iri for m in found] == [NamedNode("urn:x:fezziwig-ball")]


def _aggregated_bounds(index: TextIndex, least: int) -> dict:
    return {(f, t): (df, tf, n) for f, t, df, tf, n in index.db.execute(
        "SELECT field, term, count(*), max(tf), min(length) FROM posting GROUP BY field, term HAVING count(*) > ?", (least,))}


def test_common_words_bounds_are_kept_at_load_time_and_trusted_only_as_written(carol_dir, tmp_path, monkeypatch):
    """The ``bound`` table (a common word's document count, highest tf and shortest field) is
    written by the load, kept up to date by a second load (the words it touched), and not trusted
    once the postings changed without it (another writer): then the aggregates are read as before."""
    import sqlite3

    from ragprov.loaders.triples import load_triples
    from ragprov.retrieve import textindex

    monkeypatch.setattr(textindex, "BOUND_MIN", 5)  # enough common words in the fixture
    monkeypatch.setattr(textindex, "_BOUNDS_ALL", textindex._BOUNDS_ALL.replace("> 64", "> 5"))
    store = EmbeddedStore(carol_dir)
    location = index_location(store)
    db = sqlite3.connect(location)
    with db:
        db.execute("DELETE FROM meta WHERE key = 'bound'")  # as a file written before the table: recomputed whole
    db.close()
    facts = tmp_path / "more.nt"
    facts.write_text('<urn:x:quokka> <http://www.w3.org/2000/01/rdf-schema#label> "Christmas Quokka" .\n'
                     '<urn:x:quokka> <http://purl.org/dc/terms/description> "a ghost of Christmas" .\n', encoding="utf-8")
    for n in range(2):  # a full recomputation, then an incremental update of the touched words
        if n:
            load_triples(store, str(facts), source="urn:x:notes", facts_graph=FACTS, require_source=False, show_progress=False)
        update_text_index(store, facts_graph=FACTS)
        index = TextIndex.open(location)
        expected = _aggregated_bounds(index, 5)
        assert index._bounds_current() and len(expected) > 20
        assert {(f, t): (df, tf, ln) for f, t, df, tf, ln in index.db.execute("SELECT * FROM bound")} == expected
        label = textindex.FIELD_IDS["entity", "label"]
        assert index.frequency("entity", "label", "christmas") == expected[label, "christmas"][0]
        index.close()
    reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    scratch = EntityIndex(*reader.read_entities())
    index = TextIndex.open(location)
    index.db.execute("UPDATE bound SET df = 1, tf = 1, length = 1000")  # what the bounds would say if nobody noticed
    index.db.execute("INSERT INTO doc (kind, iri, hash, data) VALUES ('chunk', 'urn:x:another-writer', '', '{}')")
    assert not index._bounds_current()
    for question in QUESTIONS:
        concepts = extract_concepts(question)
        assert index.entities().search(concepts, limit=5) == scratch.search(concepts, limit=5), question
    index.close()


def test_a_store_changed_behind_its_back_is_noticed(carol_dir, tmp_path, capsys):
    from ragprov.loaders.triples import load_triples

    facts = tmp_path / "more.nt"
    facts.write_text('<urn:x:fezziwig-ball> <http://www.w3.org/2000/01/rdf-schema#label> "Zanzibar Quokka" .\n', encoding="utf-8")
    store = EmbeddedStore(carol_dir)
    load_triples(
        store, str(facts), source="urn:x:notes", facts_graph=FACTS, require_source=False, show_progress=False
    )  # the index is not told
    reader = FactsReader(store, facts_graph=FACTS)
    assert [m.iri for m in reader.entity_index().search(["quokka"], limit=1)] == [NamedNode("urn:x:fezziwig-ball")]
    assert "the store changed since its text index was built" in capsys.readouterr().err
    assert TextIndex.open(index_location(store)).stamp == reader.load_stamp()


def test_an_unusable_index_falls_back_to_memory(carol_dir, capsys):
    index_file = carol_dir.parent / "store.ragprov-index.sqlite"
    index_file.write_bytes(b"not a database" * 100)
    reader = FactsReader(EmbeddedStore(carol_dir), facts_graph=FACTS)
    assert reader.entity_index().search(["tiny tim"], limit=1)[0].label == "TINY TIM"
    assert "cannot be used" in capsys.readouterr().err


def _names(index, texts):
    return [[(node.value, label) for node, label in found] for found in index.named_in(texts)]


def test_named_in_finds_the_same_names_as_a_from_scratch_build(carol_dir, tmp_path, monkeypatch):
    from ragprov.loaders.triples import load_triples

    store = EmbeddedStore(carol_dir)
    facts = tmp_path / "more.nt"
    facts.write_text('<urn:x:quokka> <http://www.w3.org/2000/01/rdf-schema#label> "Zanzibar Quokka" .\n', encoding="utf-8")
    load_triples(store, str(facts), source="urn:x:notes", facts_graph=FACTS, require_source=False, show_progress=False)
    update_text_index(store, facts_graph=FACTS)  # a second write: anchors of the new entity only
    reader = FactsReader(store, facts_graph=FACTS)
    texts = [r.text for r in reader.read_chunks()[:6]] + ["Scrooge met a Zanzibar quokka and Tiny Tim.", ""]
    stored = _names(reader.entity_index(), texts)
    assert stored == _names(EntityIndex(*reader.read_entities()), texts)
    assert ("urn:x:quokka", "Zanzibar Quokka") in stored[-2] and stored[-1] == []
    assert sum(map(len, stored)) > 20
    assert _names(reader.entity_index(), texts[::-1]) == stored[::-1]  # again: from what the first look-up kept
    monkeypatch.setattr(StoredEntityIndex, "NAMED_KEPT", 3)  # more texts than it keeps: looked up afresh
    assert _names(reader.entity_index(), texts[:2]) == stored[:2] and _names(reader.entity_index(), texts) == stored


def test_an_index_of_an_older_format_is_rebuilt_by_the_next_reader(carol_dir, capsys):
    import sqlite3

    location = carol_dir.parent / "store.ragprov-index.sqlite"
    db = sqlite3.connect(location)
    with db:
        db.execute("UPDATE meta SET value = '5' WHERE key = 'version'")  # before the bound table and entity vectors
    db.close()
    index = TextIndex.open(location)
    assert index.db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == ("6",)
    assert len(index) == 0 and index.stamp is None
    index.close()
    reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    named = [label for _, label in reader.entity_index().named_in(["Tiny Tim is Bob Cratchit's son"])[0]]
    assert "bringing it up to date" in capsys.readouterr().err
    assert {"TINY TIM", "BOB CRATCHIT", "TIM CRATCHIT"} <= set(named) and "SCROOGE" not in named


def _store_reader(carol_dir):
    """A reader of the same store that never looks at the persistent index."""
    reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    reader._text_index = None
    return reader


def test_local_context_and_reports_read_from_the_index_equal_the_stores(carol_dir, capsys):
    from ragprov.retrieve import context

    indexed = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    plain = _store_reader(carol_dir)
    assert indexed.text_index() is not None
    for question in QUESTIONS:
        entities = [m.iri for m in indexed.entity_index().search(extract_concepts(question), limit=10)]
        rows = indexed.entity_context(entities)
        assert sorted(rows, key=str) == sorted(plain.entity_context(entities), key=str) and rows, question
        candidates = context.local_candidates(entities, rows)
        items = [c["item"] for kind in candidates.values() for c in kind]
        assert indexed.item_texts(items) == plain.item_texts(items)
        # the index's candidates: the same, ranked alike, each with the token estimate of its text
        stored = indexed.local_context(entities)
        assert {k: [{f: v for f, v in c.items() if f != "estimate"} for c in cs] for k, cs in stored.items()} == candidates
        for level in (0, 1, 2):  # the community level: the index's levels agree with the store's
            by_index = [c["item"] for c in indexed.local_context(entities, max_level=level)["report"]]
            assert by_index == [c["item"] for c in plain.local_context(entities, max_level=level)["report"]], (question, level)
        texts = plain.item_texts(items)
        estimates = [c["estimate"] for cs in stored.values() for c in cs]
        assert estimates == [context.approx_tokens(context.item_text(c, *texts.get(c["item"], (None, None))))
                             for cs in stored.values() for c in cs], question
        for tokens in (12_000, 3_000):
            def kept(cands, texts, tokens=tokens):
                return context.select_local(cands, texts, entity_scores={}, max_tokens=tokens, community_prop=0.25,
                                            text_unit_prop=0.5, top_k_relationships=10)
            lazy = indexed.item_texts(items)
            assert kept(stored, lazy) == [{**k, "estimate": k["tokens"]} for k in kept(candidates, texts)]
            assert lazy.read == {k["item"] for k in kept(stored, lazy)}  # texts read for the kept items only
        units = [c["item"] for c in candidates["text_unit"]]
        assert context.unit_sources(indexed, units) == context.unit_sources(plain, units)
        assert [indexed.citation(s) for s in context.unit_sources(indexed, units).values()] == [
            plain.citation(s) for s in context.unit_sources(plain, units).values()]
    assert indexed.item_texts([NamedNode("urn:x:not-an-item")]) == {}
    for level in (None, 0, 2):
        reports = indexed.community_reports(level)
        assert reports == plain.community_reports(level) and reports
    assert "bringing it up to date" not in capsys.readouterr().err


def test_common_words_read_for_the_candidates_only_give_the_same_top_k(carol_dir, monkeypatch):
    """With every word in more than a few entities counted as common, most searches rank the
    entities a rarer word found and read the common words' postings for those alone: the same
    winners and scores as every posting read (and as a from-scratch build)."""
    reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    scratch = EntityIndex(*reader.read_entities())
    monkeypatch.setattr(StoredEntityIndex, "COMMON", 4)
    calls: list[bool] = []
    totals = StoredEntityIndex._totals
    monkeypatch.setattr(StoredEntityIndex, "_totals", lambda self, queries, only: calls.append(only is None) or totals(self, queries, only))
    pruned = 0
    for question in [*QUESTIONS, "Scrooge and the ghost", "Tiny Tim Christmas dinner", "Fezziwig ball dance", "Who is Belle?", "Topper"]:
        concepts = extract_concepts(question)
        for limit in (1, 3, 10):
            calls.clear()
            index = TextIndex.open(index_location(reader.store))  # nothing read yet
            assert index.entities().search(concepts, limit=limit) == scratch.search(concepts, limit=limit), (question, limit)
            pruned += True not in calls  # ranked without reading every posting
            index.close()
    assert pruned >= 3, pruned


def test_common_words_read_for_candidates_are_read_once_per_index(carol_dir, monkeypatch):
    """DRIFT's local searches share one index object: a common word's postings read for one
    search's candidates are kept, and a later search reads them only for entities no search
    asked for yet — the same winners and scores as a from-scratch build either way, and a second
    round of the same searches reads no common word's postings at all."""
    reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    scratch = EntityIndex(*reader.read_entities())
    monkeypatch.setattr(StoredEntityIndex, "COMMON", 4)
    index = TextIndex.open(index_location(reader.store))
    statements: list[str] = []
    index.db.set_trace_callback(statements.append)
    questions = [*QUESTIONS, "Scrooge and the ghost", "Tiny Tim Christmas dinner", "the spirit of Christmas", "Christmas ghost spirit"]
    rounds = []
    for _ in range(2):
        statements.clear()
        for question in questions:
            concepts = extract_concepts(question)
            assert index.entities().search(concepts, limit=10) == scratch.search(concepts, limit=10), question
        rounds.append(sum("FROM posting WHERE" in s and " AND doc IN (" in s for s in statements))  # a common word read for candidates
    index.close()
    assert rounds[0] > 0 and rounds[1] == 0, rounds


def test_bounded_scoring_of_common_words_gives_the_same_top_k(carol_dir, monkeypatch):
    """When the candidates a rarer word found cannot settle the top k, every label posting is read
    and each candidate bounded (label shares below, common description words at their ceiling
    above): only those whose bound reaches the k-th best are scored. The same winners and scores
    as a from-scratch build, and most such searches settled by the bounds (few entities scored)."""
    reader = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    scratch = EntityIndex(*reader.read_entities())
    monkeypatch.setattr(StoredEntityIndex, "COMMON", 4)
    settled: list[int] = []
    bounded = StoredEntityIndex._bounded

    def spy(self, queries, candidates, unread, limit):
        found = bounded(self, queries, candidates, unread, limit)
        settled.append(len(candidates) if found is not None else -1)
        return found

    scored: list[int] = []
    totals = StoredEntityIndex._totals
    monkeypatch.setattr(StoredEntityIndex, "_bounded", spy)
    monkeypatch.setattr(StoredEntityIndex, "_totals", lambda self, queries, only: scored.append(len(only) if only is not None else -1)
                        or totals(self, queries, only))
    fewer = 0
    for question in [*QUESTIONS, "Scrooge and the ghost", "Tiny Tim Christmas dinner", "the spirit of Christmas", "Scrooge's nephew Fred",
                     "Christmas ghost spirit", "Who is Scrooge?"]:
        concepts = extract_concepts(question)
        for limit in (1, 3, 10):
            settled.clear()
            scored.clear()
            index = TextIndex.open(index_location(reader.store))
            assert index.entities().search(concepts, limit=limit) == scratch.search(concepts, limit=limit), (question, limit)
            if settled and settled[-1] > 0:
                fewer += scored[-1] < settled[-1]  # fewer entities scored than the candidates
            index.close()
    assert fewer >= 3, fewer


def test_primer_reports_and_report_levels_from_the_index_keep_to_the_community_level(carol_dir):
    """DRIFT's primer reports (``best_reports``) and the levels local search filters by, read from
    the index, stay within the community level and agree with the store's."""
    from ragprov.retrieve import context

    indexed = FactsReader(EmbeddedStore(carol_dir, read_only=True), facts_graph=FACTS)
    plain = _store_reader(carol_dir)
    assert indexed.report_levels() == plain.report_levels() and set(indexed.report_levels().values()) == {0, 1, 2, 3}
    levels = indexed.report_levels()
    for question in QUESTIONS:
        query = [t for c in extract_concepts(question) for t in content_tokens(c)]
        everything = [r["report"] for r in context.best_reports(indexed, query, limit=200, max_level=None)]
        for level in (0, 1, 2):
            top = [r["report"] for r in context.best_reports(indexed, query, limit=5, max_level=level)]
            # the best 5 of the reports at that level or coarser, in the index's order
            assert top == [r for r in everything if levels[r] <= level][:5], (question, level)
            # read from the index (the ranked reports only), each report as the store's reader reads it
            assert context.best_reports(indexed, query, limit=5, max_level=level) == [
                next(r for r in plain.community_reports(level) if r["report"] == report) for report in top], (question, level)
