"""The one HTTP client (``ragprov.http``): retries under one policy, against a real server on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
import requests

from ragprov.http import RequestFailed, RetryPolicy, Scrubber, new_session, send


class _Flaky(BaseHTTPRequestHandler):
    """Answers the first ``fail`` requests with ``status`` (and a Retry-After of 0), then 200."""

    fail = 2
    status = 503
    seen: ClassVar[list[str]] = []

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).seen.append(self.headers.get("User-Agent", ""))
        if len(type(self).seen) <= type(self).fail:
            self.send_response(type(self).status)
            self.send_header("Retry-After", "0")
            body = b"Authorization: Bearer sk-leaked"
        else:
            self.send_response(200)
            body = b"ok"
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    _Flaky.seen = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def test_transient_answers_are_retried_on_one_kept_alive_session(server):
    waits: list[float] = []
    response = send(new_session(), "POST", server, policy=RetryPolicy(retries=3, backoff=5.0), sleep=waits.append, data=b"x")
    assert response.status_code == 200 and response.text == "ok"
    assert waits == [0.0, 0.0]  # Retry-After: 0 honoured
    assert set(_Flaky.seen) == {"ragprov"}


def test_the_last_answer_is_returned_when_retries_are_spent(server):
    waits: list[float] = []
    response = send(new_session(), "POST", server, policy=RetryPolicy(retries=1), sleep=waits.append, data=b"x")
    assert response.status_code == 503 and len(waits) == 1
    assert Scrubber("sk-leaked")(response.text) == "Authorization: Bearer ***"


def test_an_answer_not_worth_retrying_is_returned_at_once(server):
    response = send(new_session(), "POST", server, policy=RetryPolicy(retries=3), sleep=lambda s: None,
                    retry_response=lambda r: False, data=b"x")
    assert response.status_code == 503 and len(_Flaky.seen) == 1


def test_no_answer_raises_request_failed_after_every_attempt():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    waits: list[float] = []
    with pytest.raises(RequestFailed) as caught:
        send(new_session(), "POST", f"http://127.0.0.1:{port}/", policy=RetryPolicy(retries=2, backoff=0.1),
             sleep=waits.append, timeout=2)
    assert caught.value.attempts == 3 and isinstance(caught.value.error, requests.ConnectionError)
    assert waits == [0.1, 0.2]


def test_an_error_the_caller_will_not_retry_fails_at_once():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(RequestFailed) as caught:
        send(new_session(), "POST", f"http://127.0.0.1:{port}/", policy=RetryPolicy(retries=5), retry_error=lambda e: False,
             sleep=lambda s: None, timeout=2)
    assert caught.value.attempts == 1
