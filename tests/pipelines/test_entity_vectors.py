"""Local search's entity mapping by vector similarity (Microsoft's ``map_query_to_entities``):
the entities' ``title:description`` vectors kept in the text index (computed at load, kept on
reopen, refreshed by the next load when a description changes), the question mapped to entities
by an embeddings API's vectors (a real OpenAI-compatible server on 127.0.0.1) or by those an index
output shipped, and the trace naming the ranking and the embedder."""

from __future__ import annotations

import shutil
import sqlite3

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyoxigraph import NamedNode

import ragprov.loaders.graphrag as graphrag_loader
from ragprov.cli.explain import describe
from ragprov.llm import LLMClient, LLMConfig, LLMEngine
from ragprov.loaders.triples import load_triples
from ragprov.namespaces import TG
from ragprov.pipelines import DriftSearch, LocalSearch
from ragprov.record import ExplainEvent
from ragprov.resources import data_dir
from ragprov.retrieve import FactsReader
from ragprov.retrieve.entity_search import FUSED, VECTOR, map_query_to_entities
from ragprov.retrieve.reader import update_text_index
from ragprov.retrieve.vectors import HashedEmbedder, entity_text, text_digest
from ragprov.store import EmbeddedStore

from .conftest import FACTS, validate
from .openai_stub import OpenAIStub, Reply, system_text
from .test_graphrag import one, values
from .test_msllm import table_rows

CAROL = data_dir() / "graphrag" / "christmas-carol-v3"
QUESTION = "Who was Scrooge's business partner?"
#: an entity the question's words never name: only a vector can rank it first
FAR = "MISS FEZZIWIGS"


@pytest.fixture(scope="module")
def index():
    store = EmbeddedStore()
    graphrag_loader.load_graphrag(store, CAROL, facts_graph=FACTS, show_progress=False)
    return store


def stages(events) -> dict[str, NamedNode]:
    return {e.stage: e.explain_id for e in events if isinstance(e, ExplainEvent)}


def entity_iri(title: str) -> NamedNode:
    rows = pq.read_table(CAROL / "entities.parquet", columns=["id", "title"]).to_pylist()
    return NamedNode("urn:graphrag:entity:" + next(r["id"] for r in rows if r["title"] == title))


def kept_entities(store, focus: NamedNode) -> dict[NamedNode, NamedNode]:
    """The Focus's entity selections: entity → selection."""
    return {one(store, sel, TG.item): sel for sel in values(store, focus, TG.selectedItem)
            if one(store, sel, TG.itemKind).value == "entity"}


def count_embeddings(monkeypatch) -> list[list[str]]:
    """Every call of the offline embedder, with its texts."""
    calls: list[list[str]] = []
    embed = HashedEmbedder.embed
    monkeypatch.setattr(HashedEmbedder, "embed", lambda self, texts: (calls.append(list(texts)), embed(self, texts))[1])
    return calls


def test_entity_vectors_are_computed_at_load_kept_on_reopen_and_refreshed_by_the_next_load(tmp_path, monkeypatch):
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graphrag_loader.load_graphrag(store, CAROL, show_progress=False)
    update_text_index(store)  # what `ragprov load` does last
    sidecar = next(tmp_path.glob("store.ragprov-index*"))
    db = sqlite3.connect(sidecar)
    assert db.execute("SELECT embedder, min(dim), max(dim) FROM vector WHERE kind = 'entity' GROUP BY embedder").fetchall() == [
        ("hashed-tf-embedding@1", 1024, 1024)]
    db.close()
    # the same vectors, for the same entities, as a store without a persistent index computes per reader
    memory = EmbeddedStore()
    graphrag_loader.load_graphrag(memory, CAROL, show_progress=False)
    expected = FactsReader(memory).entity_vectors(HashedEmbedder())
    assert len(expected) > 500 and all(iri.startswith("urn:graphrag:entity") for iri in expected.iris)
    store.close()

    # reopened: the vectors are read, nothing is embedded again
    calls = count_embeddings(monkeypatch)
    store = EmbeddedStore(path)
    kept = FactsReader(store).entity_vectors(HashedEmbedder())
    assert calls == []
    assert kept.iris == expected.iris and np.allclose(kept.matrix, expected.matrix, atol=1e-6)

    # a description changed, then a second load: that entity alone is embedded again
    fezziwig = entity_iri("MR. FEZZIWIG")
    changed = "Mr. Fezziwig keeps a lighthouse on a northern rock."
    store.update(
        "PREFIX dcterms: <http://purl.org/dc/terms/> "
        f"DELETE {{ <{fezziwig.value}> dcterms:description ?d }} INSERT {{ <{fezziwig.value}> dcterms:description \"{changed}\" }} "
        f"WHERE {{ <{fezziwig.value}> dcterms:description ?d }}")
    facts = tmp_path / "more.nt"
    facts.write_text("<urn:e:lighthouse> <http://www.w3.org/2000/01/rdf-schema#label> \"lighthouse\" .\n")
    load_triples(store, facts, source="urn:test:notes", require_source=False, show_progress=False)
    update_text_index(store)
    text = entity_text("MR. FEZZIWIG", changed)
    assert [t for call in calls for t in call if ":" in t] == [text]
    db = sqlite3.connect(sidecar)
    assert db.execute("SELECT hash FROM vector WHERE kind = 'entity' AND iri = ?", (fezziwig.value,)).fetchone() == (text_digest(text),)
    db.close()
    refreshed = FactsReader(store).entity_vectors(HashedEmbedder())
    assert refreshed.similarity(HashedEmbedder().embed([text])[0], [fezziwig.value]) == {fezziwig.value: 1.0}
    # …and the question about the lighthouse now finds him
    ranking = map_query_to_entities(FactsReader(store), "Who keeps a lighthouse?", ["lighthouse"], limit=5, embedder=HashedEmbedder())
    assert fezziwig in ranking.entities
    store.close()


def test_offline_the_hashed_vectors_rank_again_a_lexical_pool_read_by_key(tmp_path, monkeypatch):
    """Offline, the vectors read are the lexical pool's (by key), never every entity's: the
    cost of a question does not grow with the index (100,000 entities are 400 MB of vectors).
    The ranking keeps the lexical search's entities, reordered with the vectors' similarity."""
    from ragprov.retrieve import entity_search
    from ragprov.retrieve.textindex import TextIndex

    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graphrag_loader.load_graphrag(store, CAROL, show_progress=False)
    update_text_index(store)

    def whole_table(self, embedder):
        raise AssertionError("every entity's vectors were read")

    read: list[int] = []
    by_key = TextIndex.entity_vectors_of
    monkeypatch.setattr(TextIndex, "entity_vectors", whole_table)
    monkeypatch.setattr(TextIndex, "entity_vectors_of", lambda self, e, iris: read.append(len(iris)) or by_key(self, e, iris))
    monkeypatch.setattr(entity_search, "POOL", 30)
    reader = FactsReader(store)
    concepts = ["Scrooge", "business partner"]
    ranking = map_query_to_entities(reader, QUESTION, concepts, limit=10, embedder=HashedEmbedder())
    pool = [m.iri for m in reader.entity_index().search(concepts, limit=30)]
    assert read == [30] and ranking.method == FUSED.format(HashedEmbedder().ref)
    assert len(ranking.entities) == 10 and set(ranking.entities) <= set(pool)
    assert set(ranking.similarity) == set(ranking.entities) and any(v > 0 for v in ranking.similarity.values())
    store.close()


def far_embedding(text: str) -> list[float]:
    """The question and the far entity point one way, every other text another."""
    return [1.0, 0.0, 0.0] if text == QUESTION or text.startswith(FAR + ":") else [0.0, 1.0, 0.0]


def local_reply(request: dict) -> Reply:
    system = system_text(request)
    if "extract search concepts" in system:
        return Reply('["Scrooge", "business partner"]')
    if "---Data tables---" in system:
        return Reply("The tables name them [Data: Entities (1)].")
    return Reply(status=400)


def test_with_an_embeddings_api_local_search_ranks_entities_by_its_vectors(index):
    lexical = FactsReader(index, facts_graph=FACTS).entity_index().search(["Scrooge", "business partner"], limit=20)
    far = entity_iri(FAR)
    assert far not in [m.iri for m in lexical]  # the lexical search does not find it at all

    with OpenAIStub(local_reply, embed=far_embedding) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="gpt-4o", embedding_model="text-embedding-3-small", max_retries=0)))
        pipe = LocalSearch(index, engine=llm, facts_graph=FACTS)
        events = list(pipe.run(QUESTION))
    ids = stages(events)
    # the question, then the entities' title:description texts in batches of at most 16
    embedded = [r["json"]["input"] for r in stub.requests if r["path"].endswith("/embeddings")]
    assert embedded[0] == [QUESTION] and all(len(batch) <= 16 for batch in embedded[1:])
    texts = [t for batch in embedded[1:] for t in batch]
    assert any(t.startswith(FAR + ":The three Miss Fezziwigs") for t in texts) and len(texts) > 500
    # the API's vectors ranked the entities: the far entity first, with its similarity
    assert pipe.result.tokens.in_token > 0
    exploration, focus = ids["exploration"], ids["focus"]
    assert one(index, exploration, TG.embeddingModel).value == "embeddings:text-embedding-3-small@api"
    assert one(index, exploration, TG.prompt).value == VECTOR.format("embeddings:text-embedding-3-small@api")
    assert far in values(index, exploration, TG.entity)
    selection = kept_entities(index, focus)[far]
    assert float(one(index, selection, TG.similarity).value) == pytest.approx(1.0)
    assert float(one(index, selection, TG.score).value) == pytest.approx(1.0)
    system = system_text(stub.chat_requests()[-1]["json"])
    assert table_rows(system, "Entities")[0][1] == FAR  # Microsoft's Entities table, in the ranking's order
    validate(index)

    # a second question in the same process: the entities' vectors were kept, only the question is sent
    with OpenAIStub(local_reply, embed=far_embedding) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="gpt-4o", embedding_model="text-embedding-3-small", max_retries=0)))
        list(LocalSearch(index, engine=llm, facts_graph=FACTS, reader=pipe.reader).run("Who is Tiny Tim?"))
    assert [r["json"]["input"] for r in stub.requests if r["path"].endswith("/embeddings")] == [["Who is Tiny Tim?"]]


def test_the_entity_embeddings_a_graphrag_output_ships_are_read_and_used(tmp_path, capsys):
    from ragprov.cli import cli, run

    output = tmp_path / "output"
    shutil.copytree(CAROL, output)
    rows = pq.read_table(output / "entities.parquet", columns=["id", "title"]).to_pylist()
    chosen = next(r["id"] for r in rows if r["title"] == "MR. FEZZIWIG")
    vectors = [[0.0, 0.0, 1.0] if r["id"] == chosen else [1.0, 0.0, 0.0] for r in rows]
    pq.write_table(pa.table({"id": [r["id"] for r in rows], "embedding": vectors}), output / "embeddings.entity_description.parquet")
    store_path = tmp_path / "store"
    assert run(cli, ["load", "graphrag", str(output), "--store", str(store_path)]) == 0
    assert f"{len(rows)} entity vector(s) from embeddings.entity_description.parquet kept" in capsys.readouterr().err

    store = EmbeddedStore(store_path)
    question = [0.0, 0.0, 1.0]
    with OpenAIStub(local_reply, embed=lambda t: question if t == QUESTION else [1.0, 0.0, 0.0]) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="text-embedding-3-small", max_retries=0)))
        pipe = LocalSearch(store, engine=llm)
        ids = stages(list(pipe.run(QUESTION)))
    # only the question was embedded: the output's vectors of the same dimension ranked the entities
    assert [r["json"]["input"] for r in stub.requests if r["path"].endswith("/embeddings")] == [[QUESTION]]
    assert one(store, ids["exploration"], TG.embeddingModel).value == "graphrag-output:entity_description@3d"
    selection = kept_entities(store, ids["focus"])[NamedNode(f"urn:graphrag:entity:{chosen}")]
    assert float(one(store, selection, TG.similarity).value) == pytest.approx(1.0)

    # an API of another dimension: its own vectors of the entities, computed once and kept in the index
    with OpenAIStub(local_reply, embed=lambda t: far_embedding(t)[:2]) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="text-embedding-3-small", max_retries=0)))
        ids = stages(list(LocalSearch(store, engine=llm).run(QUESTION)))
        first = sum(r["path"].endswith("/embeddings") for r in stub.requests)
        list(LocalSearch(store, engine=llm).run(QUESTION))  # a new reader: the vectors come from the index
        second = sum(r["path"].endswith("/embeddings") for r in stub.requests) - first
    assert first > 1 and second == 1
    assert one(store, ids["exploration"], TG.embeddingModel).value == "embeddings:text-embedding-3-small@api"
    assert entity_iri(FAR) in values(store, ids["exploration"], TG.entity)
    store.close()


def test_offline_the_trace_names_the_hashed_vector_and_drift_maps_its_follow_ups_alike(index):
    pipe = LocalSearch(index, facts_graph=FACTS)
    events = list(pipe.run("Which city does Scrooge live in?"))
    ids = stages(events)
    exploration = ids["exploration"]
    # what `ask -x` prints of the stage says it in words
    shown = describe(next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "exploration"))
    assert ("  entities ranked by: BM25 and vector similarity fused by reciprocal rank; vectors: hashed-tf-embedding@1, "
            "a deterministic hashed term-frequency text vector (offline, no model)") in shown
    assert one(index, exploration, TG.embeddingModel).value == "hashed-tf-embedding@1"
    assert one(index, exploration, TG.prompt).value == FUSED.format("hashed-tf-embedding@1") == "entity-rrf-bm25+hashed-tf-embedding@1"
    kept = kept_entities(index, ids["focus"])
    assert kept and all(-1.0 <= float(one(index, sel, TG.similarity).value) <= 1.0 for sel in kept.values())
    # the recorded scores are the fused ones, best first in the Focus
    scores = [float(one(index, sel, TG.score).value) for sel in sorted(kept.values(), key=lambda s: int(one(index, s, TG.rank).value))]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 2 / 61 for s in scores)
    validate(index)

    drift = DriftSearch(index, facts_graph=FACTS)
    events = [e for e in drift.run("Who was Scrooge's business partner?") if isinstance(e, ExplainEvent)]
    explorations = [e.explain_id for e in events if e.stage == "exploration" and "/local:" not in e.explain_id.value]
    local = [e.explain_id for e in events if e.stage == "exploration" and e.explain_id.value.startswith("urn:ragprov:local:")]
    assert explorations and local
    assert {one(index, x, TG.embeddingModel).value for x in local} == {"hashed-tf-embedding@1"}


def test_without_a_working_embeddings_api_local_search_ranks_offline_and_the_trace_says_so(index, caplog):
    # the server answers /embeddings with vectors of different lengths: unusable (an LLMError)
    with OpenAIStub(local_reply, embed=lambda t: [1.0] * (1 + len(t) % 2)) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="gpt-4o", max_retries=0)))
        pipe = LocalSearch(index, engine=llm, facts_graph=FACTS)
        ids = stages(list(pipe.run(QUESTION)))
    assert any(r["path"].endswith("/embeddings") for r in stub.requests)
    assert "the embeddings API failed" in caplog.text
    assert one(index, ids["exploration"], TG.embeddingModel).value == "hashed-tf-embedding@1"
    assert one(index, ids["exploration"], TG.prompt).value == FUSED.format("hashed-tf-embedding@1")
    assert pipe.result.answer.startswith("The tables name them")
