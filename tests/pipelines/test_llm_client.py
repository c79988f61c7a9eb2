"""The OpenAI-compatible client against a real local HTTP server: whole and streamed replies,
token usage, retries with backoff, clear errors, and the API key kept secret."""

from __future__ import annotations

import logging

import pytest

from ragprov.errors import ConfigurationError, LLMError
from ragprov.llm import LLMClient, LLMConfig, LLMEngine, OfflineEngine, engine_from_config

from .openai_stub import OpenAIStub, Reply

SECRET = "sk-test-0123456789abcdef"


def client(stub, **kw) -> LLMClient:
    sleeps: list[float] = []
    c = LLMClient(LLMConfig(url=stub.url, model="stub-model", api_key=SECRET, backoff=0.01, **kw), sleep=sleeps.append)
    c.sleeps = sleeps  # type: ignore[attr-defined]
    return c


def test_chat_whole_reply_with_usage_and_bearer_key():
    with OpenAIStub(lambda req: Reply("hello there", prompt_tokens=21, completion_tokens=2)) as stub:
        reply = client(stub).chat([{"role": "user", "content": "hi"}])
    assert (reply.text, reply.in_token, reply.out_token) == ("hello there", 21, 2)
    sent = stub.requests[0]
    assert sent["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert sent["json"]["model"] == "stub-model" and "stream" not in sent["json"]


def test_chat_stream_yields_deltas_then_usage():
    with OpenAIStub(lambda req: Reply("one two three", prompt_tokens=5, completion_tokens=3)) as stub:
        stream = client(stub).chat_stream([{"role": "user", "content": "count"}])
        pieces = list(stream)
    assert pieces == ["one ", "two ", "three"]
    assert (stream.text, stream.in_token, stream.out_token, stream.finish_reason) == ("one two three", 5, 3, "stop")
    assert stub.requests[0]["json"]["stream"] is True
    assert stub.requests[0]["json"]["stream_options"] == {"include_usage": True}


def test_retries_on_429_and_5xx_with_backoff_then_succeeds():
    script = iter([Reply(status=429, retry_after="0"), Reply(status=503), Reply("ok")])
    with OpenAIStub(lambda req: next(script)) as stub:
        c = client(stub)
        assert c.chat([{"role": "user", "content": "x"}]).text == "ok"
    assert len(stub.requests) == 3
    assert len(c.sleeps) == 2 and c.sleeps[0] == 0.0 and c.sleeps[1] > 0


def test_gives_up_after_max_retries_with_a_clear_error():
    with OpenAIStub(lambda req: Reply("overloaded", status=500)) as stub:
        c = client(stub, max_retries=2)
        with pytest.raises(LLMError, match="failed after 3 attempts: HTTP 500"):
            c.chat([{"role": "user", "content": "x"}])
    assert len(stub.requests) == 3


def test_client_errors_are_not_retried_and_never_show_the_key(caplog):
    caplog.set_level(logging.DEBUG)
    with OpenAIStub(lambda req: Reply(f"invalid key {SECRET}", status=401)) as stub:
        c = client(stub)
        with pytest.raises(LLMError) as info:
            c.chat([{"role": "user", "content": "x"}])
    assert len(stub.requests) == 1
    message = str(info.value)
    assert "HTTP 401" in message and "check the API key" in message
    assert SECRET not in message
    assert SECRET not in repr(c) and SECRET not in repr(c.config)
    assert SECRET not in caplog.text


def test_unreachable_server_is_an_llm_error():
    c = LLMClient(LLMConfig(url="http://127.0.0.1:9/v1", model="m", max_retries=1, backoff=0.0, connect_timeout=0.5), sleep=lambda s: None)
    with pytest.raises(LLMError, match="cannot connect"):
        c.chat([{"role": "user", "content": "x"}])


def test_embeddings_in_input_order():
    with OpenAIStub(lambda req: "") as stub:
        vectors = client(stub).embed(["a", "bbb"])
    assert vectors == [[1.0, float(ord("a") % 97)], [3.0, float(3 * ord("b") % 97)]]
    assert stub.requests[0]["path"] == "/v1/embeddings"


def test_configuration_from_arguments_or_environment():
    env = {"RAGPROV_LLM_URL": "http://127.0.0.1:1/v1", "RAGPROV_LLM_MODEL": "m1", "RAGPROV_LLM_API_KEY": SECRET}
    cfg = LLMConfig.from_env(env=env)
    assert (cfg.url, cfg.model, cfg.api_key) == ("http://127.0.0.1:1/v1", "m1", SECRET)
    assert LLMConfig.from_env(model="m2", env=env).model == "m2"
    assert LLMConfig.from_env(env={}) is None
    with pytest.raises(ConfigurationError, match="no LLM model"):
        LLMConfig.from_env(url="http://127.0.0.1:1/v1", env={})
    with pytest.raises(ConfigurationError, match="must start with http"):
        LLMConfig(url="localhost:1234", model="m")
    with pytest.raises(ConfigurationError, match="without a URL"):
        LLMConfig.from_env(model="m", env={})


def test_engine_choice(monkeypatch):
    monkeypatch.delenv("RAGPROV_LLM_URL", raising=False)
    assert isinstance(engine_from_config(), OfflineEngine)
    assert isinstance(engine_from_config(url="http://127.0.0.1:1/v1", model="m"), LLMEngine)


def test_credentials_in_the_url_are_never_shown(caplog):
    """``http://sk-SECRET@host/v1``: the URL's user info never reaches a repr, a log line or an error."""
    url_secret = "sk-SECRET-in-the-url"
    caplog.set_level(logging.DEBUG, logger="ragprov.llm.client")
    # nothing listens on port 1: connection errors, with retries logged
    cfg = LLMConfig(url=f"http://{url_secret}@127.0.0.1:1/v1", model="m", max_retries=1, backoff=0.0, connect_timeout=1.0)
    c = LLMClient(cfg, sleep=lambda s: None)
    with pytest.raises(LLMError) as caught:
        c.chat([{"role": "user", "content": "hi"}])
    message = str(caught.value)
    assert "127.0.0.1:1/v1/chat/completions" in message
    assert url_secret not in message + repr(cfg) + repr(c) + caplog.text
    with pytest.raises(LLMError) as caught:
        list(c.chat_stream([{"role": "user", "content": "hi"}]))
    assert url_secret not in str(caught.value)
    # user:password form, and a server that echoes them back in its error body
    with OpenAIStub(lambda req: Reply(f"bad credentials {url_secret}", status=401)) as stub:
        authed = stub.url.replace("http://", f"http://user:{url_secret}@")
        with pytest.raises(LLMError) as caught:
            LLMClient(LLMConfig(url=authed, model="m"), sleep=lambda s: None).chat([{"role": "user", "content": "hi"}])
    assert "HTTP 401" in str(caught.value) and url_secret not in str(caught.value) and "user:" not in str(caught.value)
    with pytest.raises(ConfigurationError) as caught:
        LLMConfig(url=f"ftp://{url_secret}@127.0.0.1/v1", model="m")
    assert url_secret not in str(caught.value)
