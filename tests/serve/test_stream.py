"""A real uvicorn server on 127.0.0.1: 50 concurrent SSE clients each get a complete, correctly
ordered stream, matching the trace the store recorded; readers run while asks write."""

from __future__ import annotations

import concurrent.futures
import json
import time

import pytest
import requests

from ragprov import event_from_json
from ragprov.navigate import Navigator
from ragprov.record import ChunkEvent, EndOfSession, ExplainEvent
from ragprov.serve.app import ServeConfig, create_app

from .conftest import running_server

CLIENTS = 50
ORDER = {"graph-rag": ["question", "grounding", "exploration", "focus", "synthesis"],
         "doc-rag": ["question", "grounding", "exploration", "focus", "synthesis"]}
SUBJECTS = ("Scrooge", "Marley", "Tiny Tim", "Bob Cratchit", "Fezziwig", "Belle", "Fred", "the Ghost of Christmas Past",
            "the Ghost of Christmas Present", "the Ghost of Christmas Yet to Come")


def read_stream(base: str, mode: str, question: str) -> list[tuple[int, str, str]]:
    with requests.post(f"{base}/ask", json={"mode": mode, "question": question}, stream=True, timeout=(10, 600)) as resp:
        assert resp.status_code == 200, resp.text
        assert resp.headers["content-type"].startswith("text/event-stream")
        events, fields = [], {}
        for line in resp.iter_lines(decode_unicode=True):
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
            elif fields:
                events.append((int(fields["id"]), fields["event"], fields["data"]))
                fields = {}
        return events


@pytest.mark.slow
def test_fifty_concurrent_sse_clients_each_get_a_complete_ordered_stream(carol):
    store, questions = carol
    with running_server(create_app(store, ServeConfig(workers=4))) as base:
        jobs = [("graph-rag" if i % 2 == 0 else "doc-rag", f"Who is {SUBJECTS[i % len(SUBJECTS)]}? (client {i})") for i in range(CLIENTS)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=CLIENTS + 4) as pool:
            streams = [pool.submit(read_stream, base, mode, q) for mode, q in jobs]
            # Readers are served while the asks write.
            reads = [pool.submit(requests.get, f"{base}/traces/{questions['graph-rag'].value}", timeout=600) for _ in range(10)]
            assert all(r.result().status_code == 200 for r in reads)
            results = [f.result(timeout=900) for f in streams]
    nav = Navigator(store)
    traces = set()
    for (mode, question), events in zip(jobs, results, strict=False):
        assert [n for n, _, _ in events] == list(range(len(events))), "ids are consecutive from 0"
        decoded = [event_from_json(data) for _, _, data in events]
        assert isinstance(decoded[-1], EndOfSession) and sum(isinstance(e, EndOfSession) for e in decoded) == 1
        explains = [e for e in decoded if isinstance(e, ExplainEvent)]
        assert [e.stage for e in explains] == ORDER[mode]
        first_chunk = next(i for i, e in enumerate(decoded) if isinstance(e, ChunkEvent))
        assert all(isinstance(e, ExplainEvent) for e in decoded[:first_chunk]), "the retrieval stages come before the answer"
        end = decoded[-1]
        assert end.trace == explains[0].explain_id
        recorded = nav.trace(end.trace)
        assert recorded.summary.query == question and recorded.summary.complete
        assert [s.iri for s in recorded.stages] == [e.explain_id for e in explains[1:]]
        assert "".join(e.content for e in decoded if isinstance(e, ChunkEvent)) == recorded.answer
        traces.add(end.trace)
    assert len(traces) == CLIENTS


def test_a_client_that_leaves_mid_stream_does_not_stop_the_trace(carol):
    store, _ = carol
    with running_server(create_app(store, ServeConfig())) as base:
        with requests.post(
            f"{base}/ask", json={"mode": "graph-rag", "question": "Who is Belle? (left early)"}, stream=True, timeout=60
        ) as resp:
            lines = resp.iter_lines(decode_unicode=True)
            assert next(lines) == "id: 0"
            data = next(line for line in lines if line.startswith("data: "))
        question = json.loads(data[len("data: "):])["explain_id"]
        # the worker finishes the run: the server stays up and the trace completes
        for _ in range(300):
            listed = requests.get(f"{base}/traces", params={"q": "left early"}, timeout=30).json()["traces"]
            if listed and listed[0]["status"] == "complete":
                break
            time.sleep(0.1)
        assert listed and listed[0]["question"] == question and listed[0]["status"] == "complete"
