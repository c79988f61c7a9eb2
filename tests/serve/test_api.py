"""The HTTP API, route by route: reads, writes behind the bearer token, and bad input as problem
details (never a 500). Starlette's TestClient: no socket needed; `test_stream.py` uses a real server."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from ragprov import event_from_json
from ragprov.errors import ConfigurationError
from ragprov.record import ChunkEvent, EndOfSession, ExplainEvent
from ragprov.serve import check_bind
from ragprov.serve.app import STATIC_DIR, ServeConfig, create_app

TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(carol):
    store, _ = carol
    with TestClient(create_app(store, ServeConfig())) as c:
        yield c


@pytest.fixture
def guarded(carol):
    """A client of a server whose writes need the token."""
    store, _ = carol
    with TestClient(create_app(store, ServeConfig(token=TOKEN))) as c:
        yield c


def assert_problem(response, status: int, *words: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["title"] and body["type"].startswith("https://")
    for word in words:
        assert word in body["detail"], body
    assert "Traceback" not in response.text
    return body


def sse_events(text: str) -> list[tuple[int, str, str]]:
    """(id, event name, data) of each server-sent event in ``text``."""
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n"))
        out.append((int(fields["id"]), fields["event"], fields["data"]))
    return out


# -- the page and the description ---------------------------------------------------------------
def test_health(client):
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["writes_need_token"] is False
    assert "graph-rag" in body["modes"] and body["dialect"] == "rdf12"


def test_openapi_describes_every_route(client):
    schema = client.get("/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert set(paths) == {"/health", "/ask", "/traces", "/traces/{ref}", "/traces/{ref}/stages/{n}",
                          "/lineage/edge", "/lineage/node", "/lineage/document"}
    assert set(paths["/traces/{ref}"]) == {"get", "delete"}
    assert paths["/ask"]["post"]["requestBody"]["content"]["application/json"]["schema"]["required"] == ["mode", "question"]
    for path, ops in paths.items():
        for op in ops.values():
            assert op["summary"] and op["responses"], path


def test_the_page_and_its_assets_are_served_and_need_no_network(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        assert client.get(src).status_code == 200, src
    for path in STATIC_DIR.iterdir():
        text = path.read_text(encoding="utf-8")
        remote = [u for u in re.findall(r"https?://[^\s\"'`)]+", text) if not u.startswith("http://www.w3.org/")]
        assert not remote, f"{path.name} loads from the network: {remote}"


# -- traces ---------------------------------------------------------------------------------------
def test_list_traces_filters_and_pages(client, carol):
    _, questions = carol
    every = client.get("/traces?limit=500").json()
    listed = {t["question"] for t in every["traces"]}
    assert {q.value for q in questions.values()} <= listed and every["next"] is None
    docs = client.get("/traces?kind=doc-rag").json()["traces"]
    assert docs and {t["kind"] for t in docs} == {"DocRagQuestion"}
    found = client.get("/traces", params={"q": "scrooge's NEPHEW"}).json()["traces"]
    assert questions["graph-rag"].value in {t["question"] for t in found}
    assert all("nephew" in t["query"].lower() for t in found)
    paged, url = [], "/traces?limit=1"
    while url:
        page = client.get(url).json()
        assert len(page["traces"]) <= 1
        paged += [t["question"] for t in page["traces"]]
        url = page["next"]
    assert paged == [t["question"] for t in every["traces"]]
    assert client.get("/traces?since=2999-01-01").json()["traces"] == []


@pytest.mark.parametrize("query, word", [("kind=nope", "unknown trace kind"), ("since=yesterday", "ISO 8601"),
                                         ("limit=0", "limit"), ("limit=x", "whole number"), ("offset=-1", "offset")])
def test_list_traces_bad_input(client, query, word):
    assert_problem(client.get(f"/traces?{query}"), 422, word)


def test_show_trace_by_iri_and_by_session_id(client, carol):
    _, questions = carol
    q = questions["graph-rag"]
    body = client.get(f"/traces/{q.value}").json()
    assert body["question"] == q.value and body["query"] == "Who is Scrooge's nephew?"
    assert [s["kind"] for s in body["stages"]] == ["Grounding", "Exploration", "Focus", "Synthesis"]
    focus = body["stages"][2]
    assert focus["candidates"]["considered"] > focus["candidates"]["kept"] == len(focus["selections"]) > 0
    first = focus["selections"][0]
    assert first["edge_view"]["s"]["label"] and first["reasoning"] and first["score"] is not None
    assert first["edge_view"]["key"] in body["lineage"]
    assert body["answer"] and body["citations"] and all(c["chunk"] for c in body["citations"])
    by_id = client.get("/traces/" + q.value.rsplit(":", 1)[1]).json()
    assert by_id["question"] == q.value


def test_doc_rag_trace_lists_the_chunks_not_kept(client, carol):
    _, questions = carol
    body = client.get(f"/traces/{questions['doc-rag'].value}").json()
    focus = next(s for s in body["stages"] if s["kind"] == "Focus")
    kept = {s["chunk"] for s in focus["selections"]}
    cand = focus["candidates"]
    assert cand["not_kept"] and not kept & set(cand["not_kept"])
    assert cand["considered"] == len(kept) + len(cand["not_kept"])
    assert all(re.fullmatch(r"a-christmas-carol\.txt, chunk \d+", sel["source_label"]) for sel in focus["selections"])
    assert kept <= set(body["chunks"]) and all(c["chunk"] in body["chunks"] for c in body["citations"])


def test_show_stage(client, carol):
    _, questions = carol
    q = questions["graph-rag"].value
    stage = client.get(f"/traces/{q}/stages/3").json()
    assert stage["kind"] == "Focus" and stage["number"] == 3 and stage["selections"]
    assert_problem(client.get(f"/traces/{q}/stages/9"), 404, "no stage 9")
    assert_problem(client.get(f"/traces/{q}/stages/0"), 404)


@pytest.mark.parametrize("ref, status", [("urn:trustgraph:question:no-such-trace", 404), ("no-such-session", 404),
                                         ("not an iri", 422)])
def test_unknown_or_malformed_trace(client, ref, status):
    assert_problem(client.get(f"/traces/{ref}"), status)


# -- lineage --------------------------------------------------------------------------------------
def test_edge_lineage_reaches_the_sentence(client, carol):
    _, questions = carol
    trace = client.get(f"/traces/{questions['graph-rag'].value}").json()
    key = trace["stages"][2]["selections"][0]["edge_view"]["key"]
    body = client.get("/lineage/edge", params={"edge": key}).json()
    chain = body["chains"][0]
    assert [n["kind"] for n in chain["chain"]][-1] == "document" and chain["document"]["title"] == "a-christmas-carol.txt"
    a, b = chain["highlight"]
    sentence = chain["text"][a:b].lower()
    assert "nephew" in sentence and "scrooge" in sentence
    assert body == trace["lineage"][key]


@pytest.mark.parametrize("query, status, word", [("", 422, "edge"), ("edge=nonsense", 422, "N-Triples"),
                                                 ("edge=<urn:a> <urn:b>", 422, "N-Triples")])
def test_edge_lineage_bad_input(client, query, status, word):
    assert_problem(client.get(f"/lineage/edge?{query}"), status, word)


def test_an_edge_nothing_reifies_has_no_chain(client):
    assert client.get("/lineage/edge", params={"edge": "<urn:x:a> <urn:x:b> <urn:x:c>"}).json()["chains"] == []


def test_chunk_lineage(client, carol):
    _, questions = carol
    trace = client.get(f"/traces/{questions['doc-rag'].value}").json()
    chunk = next(s for s in trace["stages"] if s["kind"] == "Focus")["selections"][0]["chunk"]
    body = client.get("/lineage/node", params={"node": chunk, "terms": "humbug"}).json()
    assert body["chain"][0]["iri"] == chunk and body["document"]["kind"] == "document"
    a, b = body["highlight"]
    assert "humbug" in body["text"][a:b].lower()
    assert_problem(client.get("/lineage/node", params={"node": "urn:x:nothing"}), 404)
    assert_problem(client.get("/lineage/node"), 422, "node")


def test_document_answers(client, carol):
    _, questions = carol
    trace = client.get(f"/traces/{questions['graph-rag'].value}").json()
    document = next(iter(trace["lineage"].values()))["chains"][0]["document"]["iri"]
    body = client.get("/lineage/document", params={"document": document}).json()
    assert body["document"]["title"] == "a-christmas-carol.txt"
    assert {q.value for q in questions.values()} <= {a["question"] for a in body["answers"]}
    assert_problem(client.get("/lineage/document", params={"document": "urn:x:no-document"}), 404)


# -- writes ---------------------------------------------------------------------------------------
def test_ask_streams_the_events_of_the_python_api(guarded):
    with guarded.stream("POST", "/ask", json={"mode": "graph-rag", "question": "Who is Tiny Tim?"}, headers=AUTH) as resp:
        assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/event-stream")
        text = "".join(resp.iter_text())
    events = sse_events(text)
    assert [n for n, _, _ in events] == list(range(len(events)))
    decoded = [event_from_json(data) for _, _, data in events]
    assert [name for _, name, _ in events] == [
        {ExplainEvent: "explain", ChunkEvent: "chunk", EndOfSession: "end_of_session"}[type(e)] for e in decoded]
    assert isinstance(decoded[0], ExplainEvent) and isinstance(decoded[-1], EndOfSession)
    assert decoded[-1].trace == decoded[0].explain_id and decoded[-1].sources
    assert any(isinstance(e, ChunkEvent) for e in decoded)
    assert any(t.predicate.value.endswith("/selectedEdge") for e in decoded if isinstance(e, ExplainEvent) for t in e.explain_triples)
    shown = guarded.get(f"/traces/{decoded[0].explain_id.value}").json()
    assert [s["iri"] for s in shown["stages"]] == [e.explain_id.value for e in decoded[1:] if isinstance(e, ExplainEvent)]


def test_ask_takes_the_modes_options(guarded):
    def explored_entities(options):
        body = {"mode": "graph-rag", "question": "Who is Belle?", "options": options}
        with guarded.stream("POST", "/ask", json=body, headers=AUTH) as resp:
            events = [event_from_json(d) for _, _, d in sse_events("".join(resp.iter_text()))]
        explore = next(e for e in events if isinstance(e, ExplainEvent) and e.stage == "exploration")
        return sum(t.subject == explore.explain_id and t.predicate.value.endswith("/entity") for t in explore.explain_triples)

    assert explored_entities({"entity_limit": 2, "max_hops": 1}) == 2
    assert explored_entities({}) > 2


@pytest.mark.parametrize("body, word", [
    ({"mode": "nope", "question": "x"}, "unknown mode"),
    ({"mode": "graph-rag", "question": ""}, "empty"),
    ({"mode": "graph-rag", "question": "   "}, "empty"),
    ({"mode": "graph-rag"}, "empty"),
    ({"mode": "graph-rag", "question": 42}, "empty"),
    ({"mode": "graph-rag", "question": "x" * 2001}, "at most 2000"),
    ({"mode": "graph-rag", "question": "x", "extra": 1}, "unknown field"),
    ({"mode": "graph-rag", "question": "x", "options": {"no_such": 1}}, "unknown option"),
    ({"mode": "graph-rag", "question": "x", "options": {"triple_limit": 0}}, "at least 1"),
    ({"mode": "graph-rag", "question": "x", "options": []}, "options"),
    (["graph-rag", "x"], "JSON object"),
])
def test_ask_bad_input(guarded, body, word):
    assert_problem(guarded.post("/ask", json=body, headers=AUTH), 422, word)


def test_ask_bad_bodies(guarded):
    assert_problem(guarded.post("/ask", content=b"{not json", headers=AUTH), 422, "not JSON")
    assert_problem(guarded.post("/ask", content=b" " * (64 * 1024 + 1), headers=AUTH), 413, "at most")
    assert_problem(guarded.get("/ask"), 405)


def test_writes_need_the_token_reads_do_not(guarded, carol):
    _, questions = carol
    ask = {"mode": "graph-rag", "question": "Who is Fezziwig?"}
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}, {"Authorization": f"Basic {TOKEN}"}):
        r = guarded.post("/ask", json=ask, headers=headers)
        assert_problem(r, 401, "bearer token")
        assert r.headers["www-authenticate"].startswith("Bearer")
        assert_problem(guarded.delete(f"/traces/{questions['graph-rag'].value}", headers=headers), 401)
    assert guarded.get(f"/traces/{questions['graph-rag'].value}").status_code == 200


def test_delete_a_trace(guarded):
    with guarded.stream("POST", "/ask", json={"mode": "doc-rag", "question": "Who is Fezziwig?"}, headers=AUTH) as resp:
        question = json.loads(sse_events("".join(resp.iter_text()))[-1][2])["trace"]
    assert guarded.delete(f"/traces/{question}", headers=AUTH).json() == {"deleted": question}
    assert_problem(guarded.get(f"/traces/{question}"), 404)
    assert_problem(guarded.delete(f"/traces/{question}", headers=AUTH), 404, "nothing deleted")


def test_serve_refuses_to_listen_beyond_loopback_without_a_token():
    check_bind("127.0.0.1", None)
    check_bind("::1", None)
    check_bind("0.0.0.0", "tok")
    with pytest.raises(ConfigurationError, match="--token"):
        check_bind("0.0.0.0", None)
    with pytest.raises(ConfigurationError):
        check_bind("192.168.1.10", "")


def test_a_pipeline_that_fails_mid_answer_ends_the_stream_with_an_error_event(carol):
    """The LLM (a real local OpenAI-compatible server) fails after the question is recorded: the
    stream carries the events so far, then one `error` event with a problem body; no traceback."""
    from ragprov.llm import LLMClient, LLMConfig, LLMEngine

    from ..pipelines.openai_stub import OpenAIStub, Reply

    store, _ = carol
    with OpenAIStub(lambda request: Reply("overloaded", status=503)) as stub:
        engine = LLMEngine(LLMClient(LLMConfig(url=stub.url, model="stub-model", api_key="sk-never-shown", max_retries=0)))
        with TestClient(create_app(store, ServeConfig(engine=engine))) as client, \
                client.stream("POST", "/ask", json={"mode": "graph-rag", "question": "Who is Topper?"}) as resp:
            assert resp.status_code == 200
            events = sse_events("".join(resp.iter_text()))
    assert next(name for _, name, _ in events) == "explain" and events[-1][1] == "error"
    problem = json.loads(events[-1][2])
    assert problem["status"] >= 400 and problem["detail"] and "sk-never-shown" not in events[-1][2]
    assert "Traceback" not in events[-1][2]


def test_a_bug_is_a_problem_body_without_a_traceback(carol, monkeypatch):
    from ragprov.serve import views

    def broken(*args, **kwargs):
        raise RuntimeError("an internal detail")

    monkeypatch.setattr(views, "trace_view", broken)
    store, questions = carol
    with TestClient(create_app(store, ServeConfig()), raise_server_exceptions=False) as client:
        body = assert_problem(client.get(f"/traces/{questions['graph-rag'].value}"), 500, "RuntimeError", "bug")
    assert "an internal detail" not in body["detail"]


def test_an_agents_citations_resolve_through_its_sub_traces(guarded):
    with guarded.stream("POST", "/ask", json={"mode": "agent", "question": "Who was Jacob Marley?"}, headers=AUTH) as resp:
        question = json.loads(sse_events("".join(resp.iter_text()))[-1][2])["trace"]
    body = guarded.get(f"/traces/{question}").json()
    assert any(s["subtraces"] for s in body["stages"])
    cites = body["citations"]
    assert cites and all(c["chunk"] for c in cites)
    assert [c["at"] for c in cites] == sorted(c["at"] for c in cites)
    assert all(body["answer"][c["at"]:].startswith(f"[{c['n']}] {c['label']}") for c in cites)
