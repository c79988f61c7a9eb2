"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions and embeddings API
with scripted replies (whole or streamed as server-sent events), for the pipeline tests.

``reply`` decides each chat reply from the request: a callable ``(request_json) -> str`` or a
``Reply`` (text plus optional HTTP status for scripted failures); ``embed``, each embedded
text's vector. Every request is kept in
``requests`` (path, headers, JSON body) so tests can check what was sent.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclasses.dataclass
class Reply:
    text: str = ""
    status: int = 200
    prompt_tokens: int = 11
    completion_tokens: int = 7
    retry_after: str | None = None
    #: whether the server reports token usage (some servers never do)
    usage: bool = True


class OpenAIStub:
    def __init__(self, reply: Callable[[dict], Any], *, embed: Callable[[str], list[float]] | None = None):
        self.reply = reply
        #: each text's vector (default: its length and a checksum of its characters)
        self.embed = embed or (lambda t: [float(len(t)), float(sum(map(ord, t)) % 97)])
        self.requests: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.requests.append({"path": self.path, "headers": dict(self.headers), "json": body})
                if self.path.endswith("/embeddings"):
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    data = [{"index": i, "embedding": stub.embed(t)} for i, t in enumerate(inputs)]
                    return self._json(
                        200,
                        {
                            "object": "list",
                            "data": data,
                            "model": body.get("model"),
                            "usage": {"prompt_tokens": 3, "total_tokens": 3},
                        },
                    )
                if not self.path.endswith("/chat/completions"):
                    return self._json(404, {"error": {"message": "not found"}})
                r = stub.reply(body)
                if not isinstance(r, Reply):
                    r = Reply(str(r))
                if r.status != 200:
                    headers = {"Retry-After": r.retry_after} if r.retry_after else {}
                    return self._json(r.status, {"error": {"message": r.text or "scripted failure"}}, headers)
                if body.get("stream"):
                    return self._stream(body, r)
                whole = {
                    "id": "chatcmpl-1", "object": "chat.completion", "model": body.get("model"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": r.text}, "finish_reason": "stop"}],
                }
                if r.usage:
                    whole["usage"] = {"prompt_tokens": r.prompt_tokens, "completion_tokens": r.completion_tokens,
                                      "total_tokens": r.prompt_tokens + r.completion_tokens}
                return self._json(200, whole)

            def _json(self, status, data, headers=None):
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

            def _stream(self, body, r: Reply):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                words = r.text.split(" ")
                pieces = [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]
                self.wfile.write(b": keep-alive comment\n\n")
                for piece in pieces:
                    chunk = {
                        "object": "chat.completion.chunk",
                        "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
                    }
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                final = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(final)}\n\n".encode())
                if r.usage and (body.get("stream_options") or {}).get("include_usage"):
                    counts = {"prompt_tokens": r.prompt_tokens, "completion_tokens": r.completion_tokens}
                    usage = {"object": "chat.completion.chunk", "choices": [], "usage": counts}
                    self.wfile.write(f"data: {json.dumps(usage)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def chat_requests(self) -> list[dict]:
        return [r for r in self.requests if r["path"].endswith("/chat/completions")]

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def system_text(request: dict) -> str:
    """The system message of a chat request (tests route replies on it)."""
    return next((m["content"] for m in request["messages"] if m["role"] == "system"), "")


def user_text(request: dict) -> str:
    return next((m["content"] for m in reversed(request["messages"]) if m["role"] == "user"), "")
