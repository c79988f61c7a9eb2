"""Fixtures for ``ragprov serve``: the bundled Christmas Carol index with a few recorded traces,
served by a real uvicorn server on 127.0.0.1 (stopped by the fixture), or by Starlette's TestClient."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed: pip install 'ragprov[serve]'")

from ragprov.loaders.graphrag import load_graphrag
from ragprov.pipelines import DocRag, GraphRag
from ragprov.resources import data_dir
from ragprov.serve.app import ServeConfig, create_app
from ragprov.store import open_store

QUESTIONS = (("graph-rag", "Who is Scrooge's nephew?"), ("doc-rag", "What did Scrooge say about Christmas? Humbug"))


def carol_with_traces(path=None):
    """The bundled Microsoft GraphRAG output of A Christmas Carol, plus one graph-rag and one doc-rag trace."""
    store = open_store(str(path) if path else "memory:")
    load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
    questions = {}
    for mode, question in QUESTIONS:
        pipe = (GraphRag if mode == "graph-rag" else DocRag)(store)
        for _ in pipe.run(question):
            pass
        questions[mode] = pipe.result.question
    return store, questions


@pytest.fixture(scope="session")
def carol():
    """(store, {mode: question IRI}) shared by the read-only tests of this folder."""
    store, questions = carol_with_traces()
    return store, questions


@contextlib.contextmanager
def running_server(app) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 on a free port; yields the base URL, stops the server."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="session")
def carol_server(carol) -> Iterator[str]:
    """A real server over the shared Christmas Carol store, no token."""
    store, _ = carol
    with running_server(create_app(store, ServeConfig())) as url:
        yield url
