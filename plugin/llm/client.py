"""An OpenAI-compatible chat-completions and embeddings client over ``requests``.

Works with OpenAI, vLLM, Ollama (``/v1``), llama.cpp server and LM Studio: anything that speaks
``POST {url}/chat/completions`` and ``POST {url}/embeddings``. Streaming uses server-sent events
(``data: {...}`` lines, ending ``data: [DONE]``); token usage is asked for with
``stream_options.include_usage`` and taken from whatever the server reports.

Configuration comes from keyword arguments or the environment (``RAGPROV_LLM_URL``,
``RAGPROV_LLM_MODEL``, ``RAGPROV_LLM_API_KEY``). The API key is a secret: it is sent only in the
``Authorization`` header and never appears in a repr, a log line, an error message or a trace.
Credentials written into the URL itself (``http://user:pass@host/v1``) are sent by ``requests`` as
basic authentication and are likewise removed wherever the URL is shown.

>>> cfg = LLMConfig(url="http://127.0.0.1:9/v1", model="m", api_key="sk-secret")
>>> "sk-secret" in repr(cfg)
False
>>> cfg.chat_url
'http://127.0.0.1:9/v1/chat/completions'
>>> LLMConfig(url="http://sk-secret@127.0.0.1:9/v1", model="m")
LLMConfig(url='http://127.0.0.1:9/v1', model='m', timeout=120.0)
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import requests

from ..errors import ConfigurationError, LLMError
from ..http import RequestFailed, RetryPolicy, Scrubber, new_session, redact, send
from .env import KEY_ENV, MODEL_ENV, URL_ENV

__all__ = [
    "KEY_ENV",
    "MODEL_ENV",
    "URL_ENV",
    "Completion",
    "LLMClient",
    "LLMConfig",
    "StreamedCompletion",
]

log = logging.getLogger(__name__)


_RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


@dataclasses.dataclass(frozen=True, repr=False)
class LLMConfig:
    """Where the LLM is and how to talk to it. ``api_key`` is excluded from repr and comparisons;
    the repr shows the URL without credentials."""

    url: str
    model: str
    api_key: str | None = dataclasses.field(default=None, repr=False, compare=False)
    timeout: float = 120.0
    connect_timeout: float = 10.0
    max_retries: int = 4
    backoff: float = 0.5
    max_backoff: float = 20.0
    embedding_model: str | None = None

    def __repr__(self) -> str:
        return f"LLMConfig(url={self.shown_url!r}, model={self.model!r}, timeout={self.timeout!r})"

    def __post_init__(self) -> None:
        if not self.url or not self.url.startswith(("http://", "https://")):
            raise ConfigurationError(
                f"the LLM URL must start with http:// or https:// (got {redact(self.url)!r}); "
                f"pass --llm-url or set {URL_ENV}, e.g. http://localhost:11434/v1"
            )
        if not self.model:
            raise ConfigurationError(f"no LLM model given: pass --llm-model or set {MODEL_ENV}")
        if self.max_retries < 0 or self.timeout <= 0:
            raise ConfigurationError("max_retries must be >= 0 and timeout > 0")

    @property
    def base(self) -> str:
        return self.url.rstrip("/")

    @property
    def shown_url(self) -> str:
        """The URL as messages show it: without any user name or password."""
        return redact(self.url)

    @property
    def chat_url(self) -> str:
        return self.base + "/chat/completions"

    @property
    def embeddings_url(self) -> str:
        return self.base + "/embeddings"

    @classmethod
    def from_env(
        cls,
        *,
        url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        env: Mapping[str, str] | None = None,
        **options: Any,
    ) -> LLMConfig | None:
        """The configuration from arguments, falling back to the environment; ``None`` when no URL
        is configured anywhere (the caller then uses the offline engine)."""
        env = os.environ if env is None else env
        url = url or env.get(URL_ENV) or None
        if url is None:
            if model or api_key:
                raise ConfigurationError(f"an LLM model or key was given without a URL: pass --llm-url or set {URL_ENV}")
            return None
        return cls(
            url=url,
            model=model or env.get(MODEL_ENV) or "",
            api_key=api_key or env.get(KEY_ENV) or None,
            **options,
        )


@dataclasses.dataclass(frozen=True)
class Completion:
    """A whole reply: its text and the tokens the server says it used (``None`` when unreported)."""

    text: str
    in_token: int | None
    out_token: int | None
    model: str
    finish_reason: str | None = None


class StreamedCompletion:
    """An iterator over the text deltas of a streamed reply; after it is exhausted, ``text``,
    ``in_token``, ``out_token`` and ``finish_reason`` hold the totals."""

    def __init__(self, deltas: Iterator[tuple[str, dict[str, Any]]], model: str):
        self._deltas = deltas
        self.model = model
        self.parts: list[str] = []
        self.in_token: int | None = None
        self.out_token: int | None = None
        self.finish_reason: str | None = None
        self.done = False

    def __iter__(self) -> Iterator[str]:
        for text, meta in self._deltas:
            usage = meta.get("usage")
            if usage:
                self.in_token = usage.get("prompt_tokens", self.in_token)
                self.out_token = usage.get("completion_tokens", self.out_token)
            if meta.get("finish_reason"):
                self.finish_reason = meta["finish_reason"]
            if text:
                self.parts.append(text)
                yield text
        self.done = True

    @property
    def text(self) -> str:
        return "".join(self.parts)


class LLMClient:
    """Chat completions (whole or streamed) and embeddings against one OpenAI-compatible server.

    ``session`` and ``sleep`` are injectable for tests. Retries: connection errors, timeouts and
    HTTP 408/409/429/5xx, up to ``config.max_retries`` times, with exponential backoff and jitter
    (``Retry-After`` honoured when the server sends it).
    """

    def __init__(self, config: LLMConfig, *, session: requests.Session | None = None, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self.session = session or new_session()
        self.sleep = sleep
        self.policy = RetryPolicy(retries=config.max_retries, backoff=config.backoff, max_backoff=config.max_backoff, jitter=0.5)
        url = urllib.parse.urlsplit(config.url)  # the key, and any credentials written into the URL
        self._redact = Scrubber(config.api_key, url.password, url.username, min_length=4)

    def __repr__(self) -> str:
        return f"LLMClient(url={self.config.shown_url!r}, model={self.config.model!r})"

    @property
    def model(self) -> str:
        return self.config.model

    # -- HTTP ----------------------------------------------------------------------------------
    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        return headers

    def _post(self, url: str, payload: dict[str, Any], *, stream: bool) -> requests.Response:
        def told(attempt: int, what: str, delay: float) -> None:
            log.info("LLM request to %s failed (%s); retry %d in %.2fs", redact(url), what, attempt + 1, delay)

        try:
            response = send(self.session, "POST", url, policy=self.policy, sleep=self.sleep, on_retry=told,
                            retry_response=lambda r: r.status_code in _RETRY_STATUS, data=json.dumps(payload),
                            headers=self._headers(), timeout=(self.config.connect_timeout, self.config.timeout), stream=stream)
        except RequestFailed as e:
            last = (f"no reply within {self.config.timeout:g}s" if isinstance(e.error, requests.Timeout)
                    else f"cannot connect ({type(e.error).__name__})")
            raise self._failed(url, last) from None
        if response.status_code < 400:
            return response
        last = f"HTTP {response.status_code}: {self._redact(response.text[:300].strip())}"
        if response.status_code in _RETRY_STATUS:
            raise self._failed(url, last)
        hint = " (check the API key)" if response.status_code in (401, 403) else ""
        raise LLMError(f"the LLM at {redact(url)} refused the request: {last}{hint}")

    def _failed(self, url: str, last: str) -> LLMError:
        return LLMError(
            f"the LLM at {redact(url)} failed after {self.config.max_retries + 1} attempts: {last}; "
            "check that the server is running and the URL is right"
        )

    def _json(self, response: requests.Response, url: str) -> dict[str, Any]:
        try:
            data = response.json()
        except ValueError:
            raise LLMError(f"the LLM at {redact(url)} did not answer with JSON: {self._redact(response.text[:200])!r}") from None
        if not isinstance(data, dict):
            raise LLMError(f"the LLM at {redact(url)} answered an unexpected JSON value")
        return data

    # -- chat ----------------------------------------------------------------------------------
    def _payload(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        temperature: float | None,
        max_tokens: int | None,
        stream: bool,
        extra: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": self.config.model, "messages": [dict(m) for m in messages]}
        if temperature is not None:
            payload["temperature"] = temperature
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        if stream:
            payload["stream"] = True
            payload["stream_options"] = {"include_usage": True}
        if extra:
            payload.update(extra)
        return payload

    def chat(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Completion:
        """One whole reply to ``messages`` (``[{"role": "system"|"user"|"assistant", "content": …}]``)."""
        url = self.config.chat_url
        data = self._json(
            self._post(
                url,
                self._payload(messages, temperature=temperature, max_tokens=max_tokens, stream=False, extra=extra),
                stream=False,
            ),
            url,
        )
        try:
            choice = data["choices"][0]
            text = choice["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise LLMError(f"the LLM at {redact(url)} answered without choices[0].message.content") from None
        usage = data.get("usage") or {}
        return Completion(
            text=text,
            in_token=usage.get("prompt_tokens"),
            out_token=usage.get("completion_tokens"),
            model=str(data.get("model") or self.config.model),
            finish_reason=choice.get("finish_reason"),
        )

    def chat_stream(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> StreamedCompletion:
        """A streamed reply: iterate the result for text deltas; totals are set once it is exhausted.

        The request is sent (and retried) before this returns, so connection errors surface here.
        """
        url = self.config.chat_url
        response = self._post(
            url,
            self._payload(messages, temperature=temperature, max_tokens=max_tokens, stream=True, extra=extra),
            stream=True,
        )
        ctype = response.headers.get("Content-Type", "")
        if "text/event-stream" not in ctype:
            # A server that ignores "stream": a whole JSON reply is one delta.
            data = self._json(response, url)
            try:
                text = data["choices"][0]["message"]["content"] or ""
            except (KeyError, IndexError, TypeError):
                raise LLMError(f"the LLM at {redact(url)} answered without choices[0].message.content") from None
            meta = {"usage": data.get("usage"), "finish_reason": data["choices"][0].get("finish_reason")}
            return StreamedCompletion(iter([(text, meta)]), self.config.model)
        return StreamedCompletion(self._events(response, url), self.config.model)

    def _events(self, response: requests.Response, url: str) -> Iterator[tuple[str, dict[str, Any]]]:
        try:
            for raw in response.iter_lines(decode_unicode=False):
                if not raw:
                    continue
                line = raw.decode("utf-8", errors="replace")
                if line.startswith(":") or not line.startswith("data:"):
                    continue  # SSE comments and other fields
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                try:
                    event = json.loads(data)
                except ValueError:
                    raise LLMError(f"the LLM at {redact(url)} streamed a line that is not JSON: {self._redact(data[:120])!r}") from None
                if "error" in event:
                    raise LLMError(f"the LLM at {redact(url)} reported an error mid-stream: {self._redact(str(event['error'])[:200])}")
                text = ""
                meta: dict[str, Any] = {"usage": event.get("usage")}
                for choice in event.get("choices") or []:
                    delta = choice.get("delta") or {}
                    text += delta.get("content") or ""
                    if choice.get("finish_reason"):
                        meta["finish_reason"] = choice["finish_reason"]
                yield text, meta
        except requests.RequestException as e:
            raise LLMError(f"the stream from the LLM at {redact(url)} broke off ({type(e).__name__}); retry the question") from None
        finally:
            response.close()

    # -- embeddings ----------------------------------------------------------------------------
    def embed(self, texts: Sequence[str], *, model: str | None = None) -> list[list[float]]:
        """One vector per text, in order."""
        if not texts:
            return []
        url = self.config.embeddings_url
        payload = {"model": model or self.config.embedding_model or self.config.model, "input": list(texts)}
        data = self._json(self._post(url, payload, stream=False), url)
        try:
            items = sorted(data["data"], key=lambda d: d.get("index", 0))
            vectors = [[float(x) for x in item["embedding"]] for item in items]
        except (KeyError, TypeError, ValueError):
            raise LLMError(f"the embeddings API at {redact(url)} answered without data[].embedding") from None
        if len(vectors) != len(texts):
            raise LLMError(f"the embeddings API at {redact(url)} returned {len(vectors)} vectors for {len(texts)} texts")
        return vectors
