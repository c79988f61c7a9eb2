"""Microsoft GraphRAG basic search (``ragprov ask basic``): vector search over the text units of
the bundled Christmas Carol index, offline (hashed term-frequency vectors) and with a real local
OpenAI-compatible server (batched ``/embeddings`` requests, the Sources table, cited answers)."""

from __future__ import annotations

import re
import sqlite3

import numpy as np
import pytest
from pyoxigraph import NamedNode

import ragprov.loaders.graphrag as graphrag_loader
from ragprov.llm import LLMClient, LLMConfig, LLMEngine
from ragprov.llm.embeddings import BATCH_MAX_TOKENS, BATCH_SIZE
from ragprov.llm.tokens import encoding
from ragprov.namespaces import PROV, RDF, TG
from ragprov.pipelines import BasicSearch, BasicSearchParams, pipeline
from ragprov.record import EndOfSession, ExplainEvent
from ragprov.retrieve import FactsReader
from ragprov.retrieve.vectors import HashedEmbedder
from ragprov.store import EmbeddedStore

from .conftest import FACTS, carol_index, validate
from .openai_stub import OpenAIStub, Reply, system_text, user_text
from .test_graphrag import one, values

QUESTION = "Who was Scrooge's business partner?"


@pytest.fixture(scope="module")
def index():
    return carol_index()


def stages(events) -> dict[str, NamedNode]:
    return {e.stage: e.explain_id for e in events if isinstance(e, ExplainEvent)}


def text_units(store) -> set[NamedNode]:
    return {q.subject for q in store.raw.quads_for_pattern(None, RDF.type, TG.TextUnit, None)}


def test_offline_basic_search_records_the_nearest_text_units_and_answers(index):
    pipe = BasicSearch(index, facts_graph=FACTS)
    events = list(pipe.run(QUESTION))
    assert [e.stage for e in events if isinstance(e, ExplainEvent)] == ["question", "grounding", "exploration", "focus", "synthesis"]
    assert isinstance(events[-1], EndOfSession) and events[-1].sources
    s, ids = index, stages(events)
    question = ids["question"]
    assert question.value.startswith("urn:ragprov:basic:") and TG.BasicSearchQuestion in values(s, question, RDF.type)
    # the grounding says what was embedded and by which embedder
    assert one(s, ids["grounding"], TG.concept).value == QUESTION
    assert one(s, ids["grounding"], TG.prompt).value == "hashed-tf-embedding@1"
    assert one(s, ids["exploration"], PROV.wasDerivedFrom) == ids["grounding"]
    assert one(s, ids["focus"], PROV.wasDerivedFrom) == ids["exploration"]
    assert one(s, ids["synthesis"], PROV.wasDerivedFrom) == ids["focus"]

    # the candidates are the k=10 text units nearest the question, by an independent brute-force cosine
    records = pipe.reader.read_chunks()
    embedder = HashedEmbedder()
    matrix = embedder.embed([r.text for r in records])
    cosine = matrix @ embedder.embed([QUESTION])[0]
    nearest = {records[i].chunk for i in np.argsort(-cosine)[:10]}
    candidates = set(values(s, ids["exploration"], TG.candidate))
    assert candidates == nearest and candidates <= text_units(s)

    # the kept ones: text units, each with its similarity as its score, within the token budget
    kept = values(s, ids["focus"], TG.selectedItem)
    assert 1 <= len(kept) <= 10
    by_unit = {r.chunk: float(cosine[i]) for i, r in enumerate(records)}
    for sel in kept:
        assert one(s, sel, TG.itemKind).value == "text_unit"
        unit = one(s, sel, TG.item)
        assert unit in candidates
        assert float(one(s, sel, TG.score).value) == pytest.approx(by_unit[unit], abs=1e-5)
    assert sum(int(one(s, sel, TG.tokenCount).value) for sel in kept) <= BasicSearchParams().max_tokens
    # the answer's first line names the partner, and the synthesis rests on kept text units
    assert "Marley" in pipe.result.answer.splitlines()[0]
    assert set(values(s, ids["synthesis"], TG.supportedBy)) <= set(kept)
    validate(index)


def test_an_unanswerable_question_says_so(index):
    pipe = BasicSearch(index, facts_graph=FACTS)
    list(pipe.run("Which football team won the 1998 World Cup final in Paris?"))
    assert pipe.result.answer.splitlines()[0].startswith("The data does not answer")


def test_vectors_are_computed_at_load_and_kept_in_the_text_index(tmp_path, monkeypatch):
    from ragprov.resources import data_dir
    from ragprov.retrieve.reader import update_text_index

    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graphrag_loader.load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
    update_text_index(store)  # what `ragprov load` does last
    sidecar = next(tmp_path.glob("store.ragprov-index*"))
    db = sqlite3.connect(sidecar)
    rows = db.execute("SELECT embedder, count(*), min(dim), max(dim) FROM vector WHERE kind = 'chunk' GROUP BY embedder").fetchall()
    db.close()
    assert rows == [("hashed-tf-embedding@1", len(text_units(store)), 1024, 1024)]

    # a query reads them: only the question is embedded
    embedded: list[int] = []
    embed = HashedEmbedder.embed
    monkeypatch.setattr(HashedEmbedder, "embed", lambda self, texts: (embedded.append(len(texts)), embed(self, texts))[1])
    pipe = BasicSearch(store)
    list(pipe.run(QUESTION))
    assert embedded == [1] and pipe.result.selected >= 1


def _sources(system: str) -> list[list[str]]:
    m = re.search(r"-----Sources-----\nid\|text\n((?:[^\n]*\n?)*?)(?:\n\n|\n---|$)", system)
    return [line.split("|", 1) for line in m.group(1).splitlines() if line.strip()] if m else []


def basic_reply(request: dict) -> Reply:
    system = system_text(request)
    rows = _sources(system)
    if not rows:
        return Reply(status=400)
    return Reply(f"Jacob Marley was Scrooge's partner [Data: Sources ({rows[0][0]}, 99999, +more)].")


def test_with_an_llm_embeddings_are_batched_and_the_sources_table_is_cited(index):
    with OpenAIStub(basic_reply) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="gpt-4o", max_retries=0)), response_type="a single sentence")
        pipe = pipeline("basic", index, engine=llm, facts_graph=FACTS)
        events = list(pipe.run(QUESTION))
    embeddings = [r["json"] for r in stub.requests if r["path"].endswith("/embeddings")]
    units = pipe.reader.read_chunks()
    # the question alone, then the text units in batches (at most 16 texts and 8191 tokens each)
    o200k = encoding("o200k_base")
    query, *batches = embeddings
    assert query["input"] == [QUESTION] and query["model"] == "gpt-4o"
    assert len(batches) > 1 and all(1 <= len(b["input"]) <= BATCH_SIZE for b in batches)
    assert all(len(b["input"]) == 1 or sum(len(o200k.encode(t)) for t in b["input"]) <= BATCH_MAX_TOKENS for b in batches)
    assert [t for b in batches for t in b["input"]] == [r.text for r in units]

    (chat,) = stub.chat_requests()
    system = system_text(chat["json"])
    assert user_text(chat["json"]) == QUESTION and "a single sentence" in system
    rows = _sources(system)
    assert 1 <= len(rows) <= 10 and "-----Sources-----\nid|text\n" in system
    # the rows are the kept text units, each under its human_readable_id
    ids = stages(events)
    kept = {one(index, sel, TG.item) for sel in values(index, ids["focus"], TG.selectedItem)}
    hrids = {one(index, unit, TG.humanReadableId).value for unit in kept}
    assert {r[0] for r in rows} == hrids
    assert one(index, ids["grounding"], TG.prompt).value == "embeddings:gpt-4o@api"
    assert one(index, ids["focus"], TG.prompt).value == "embeddings:gpt-4o@api"  # the text units' vectors too
    # the cited row is recorded as the synthesis's source, the unknown id as a note
    cited = set(values(index, ids["synthesis"], TG.cites))
    assert len(cited) == 1 and one(index, next(iter(cited)), TG.humanReadableId).value == rows[0][0]
    assert one(index, ids["synthesis"], TG.citationNote).value == "the answer cites Sources (99999), which is not in the context sent"
    assert one(index, ids["synthesis"], TG.prompt).value == "ms-basic-search@1"
    assert pipe.result.answer.startswith("Jacob Marley was Scrooge's partner")
    validate(index)


def test_api_vectors_are_kept_for_the_next_question(tmp_path):
    from ragprov.resources import data_dir
    from ragprov.retrieve.reader import update_text_index

    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graphrag_loader.load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
    update_text_index(store)
    with OpenAIStub(basic_reply) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="gpt-4o", max_retries=0)))
        list(pipeline("basic", store, engine=llm).run(QUESTION))
        first = sum(r["path"].endswith("/embeddings") for r in stub.requests)
        reader = FactsReader(store)  # a new process would read the index the same way
        list(BasicSearch(store, engine=llm, reader=reader).run("Who is Tiny Tim?"))
        second = sum(r["path"].endswith("/embeddings") for r in stub.requests) - first
    assert first > 1 and second == 1  # the text units' vectors were kept; only the new question is embedded


def test_the_embeddings_a_graphrag_output_ships_are_read_and_used(tmp_path, capsys):
    """An output with ``embeddings.text_unit_text.parquet``: ``ragprov load graphrag`` keeps its
    vectors, and basic search with an embeddings API of the same dimension searches them (only
    the question is sent to ``/embeddings``); the trace names them."""
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    from ragprov.cli import cli, run
    from ragprov.resources import data_dir

    output = tmp_path / "output"
    shutil.copytree(data_dir() / "graphrag" / "christmas-carol-v3", output)
    units = pq.read_table(output / "text_units.parquet", columns=["id", "human_readable_id"]).to_pylist()
    # the stub embeds a text as [len(text), sum of its code points % 97]: one text unit gets the
    # question's direction exactly, every other one a direction far from it
    query = [float(len(QUESTION)), float(sum(map(ord, QUESTION)) % 97)]
    chosen = units[7]["id"]
    vectors = [query if u["id"] == chosen else [-query[1] + n, query[0]] for n, u in enumerate(units)]
    pq.write_table(pa.table({"id": [u["id"] for u in units], "embedding": vectors}), output / "embeddings.text_unit_text.parquet")
    store_path = tmp_path / "store"
    assert run(cli, ["load", "graphrag", str(output), "--store", str(store_path)]) == 0
    assert f"{len(units)} text-unit vector(s) from embeddings.text_unit_text.parquet kept" in capsys.readouterr().err

    store = EmbeddedStore(store_path)
    with OpenAIStub(basic_reply) as stub:
        llm = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="text-embedding-3-small", max_retries=0)))
        pipe = pipeline("basic", store, engine=llm)
        events = list(pipe.run(QUESTION))
    embedded = [r["json"]["input"] for r in stub.requests if r["path"].endswith("/embeddings")]
    assert embedded == [[QUESTION]]
    ids = stages(events)
    assert one(store, ids["focus"], TG.prompt).value == "graphrag-output:text_unit_text@2d"
    nearest = values(store, ids["exploration"], TG.candidate)
    best = max(values(store, ids["focus"], TG.selectedItem), key=lambda sel: float(one(store, sel, TG.score).value))
    assert float(one(store, best, TG.score).value) == pytest.approx(1.0)
    assert one(store, best, TG.item).value == f"urn:graphrag:text_unit:{chosen}" and one(store, best, TG.item) in nearest

    # offline, the output's vectors cannot serve (a query needs the same embedder): the hashed ones do
    offline = BasicSearch(store)
    list(offline.run(QUESTION))
    assert offline.result.selected >= 1


def test_chat_basic_links_each_turn_to_the_previous_answer(tmp_path):
    import json

    from click.testing import CliRunner

    from ragprov.cli import cli
    from ragprov.resources import data_dir

    store_dir = tmp_path / "store"
    loaded = CliRunner().invoke(cli, ["load", "graphrag", str(data_dir() / "graphrag" / "christmas-carol-v3"), "--store", str(store_dir)])
    assert loaded.exit_code == 0, loaded.output
    result = CliRunner().invoke(cli, ["chat", "basic", "--store", str(store_dir), "--format", "json"],
                                input="Who was Scrooge's business partner?\nWho is his clerk?\n")
    assert result.exit_code == 0, result.output
    answers = [json.loads(part) for part in re.split(r"(?m)^(?=\{)", result.stdout) if part.strip()]
    assert [a["trace"].split(":")[2] for a in answers] == ["basic", "basic"]
    store = EmbeddedStore(store_dir)
    links = [(q.subject, q.object) for q in store.raw.quads_for_pattern(None, TG.previousTurn, None, None)]
    assert links == [(NamedNode(answers[1]["trace"]), NamedNode(answers[0]["trace"] + "/synthesis"))]


def test_ask_basic_explains_the_embedder_and_each_similarity(tmp_path, capsys, monkeypatch):
    from ragprov.cli import cli, run
    from ragprov.resources import data_dir

    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    graphrag_loader.load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
    store.close()
    assert run(cli, ["ask", "basic", QUESTION, "-x", "--store", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("The answer is Jacob Marley")
    assert "[grounding]" in err and "prompt: hashed-tf-embedding@1" in err
    kept = re.findall(r"^\s+\d+\. text_unit: .*, \d+ tokens, similarity (0\.\d{3})$", err, re.M)
    assert 1 <= len(kept) <= 10 and all(0 < float(s) < 1 for s in kept)


@pytest.mark.parametrize(("question", "expected"), [
    ("Who is Scrooge's clerk?", "Cratchit"),
    ("Who is the crippled youngest son of Bob Cratchit?", "Tim"),  # the index's TINY TIM and TIM CRATCHIT: one boy
    ("Who was Scrooge's employer when he was an apprentice?", "Fezziwig"),
])
def test_the_first_line_names_the_answer(index, question, expected):
    pipe = BasicSearch(index, facts_graph=FACTS)
    list(pipe.run(question))
    first = pipe.result.answer.splitlines()[0]
    assert first.startswith("The answer is") and expected in first
