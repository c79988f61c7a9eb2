"""The one HTTP client of ragprov: a keep-alive session, one retry policy, and secrets scrubbed
from whatever a server sends back. The SPARQL endpoint store and the LLM client both use it.

:func:`send` retries what is worth retrying (an error the caller's ``retry_error`` accepts, an
answer its ``retry_response`` accepts) with exponential backoff, honouring ``Retry-After``, and
returns the last answer whatever its status: the caller turns an error status into its own error.
A request that never got an answer raises :class:`RequestFailed` with the last error.

>>> policy = RetryPolicy(retries=3, backoff=0.5, max_backoff=2.0)
>>> [policy.delay(n) for n in range(4)]
[0.5, 1.0, 2.0, 2.0]
>>> Scrubber("s3cret", None)("token s3cret; Authorization: Basic dXNlcjpwdw==")
'token ***; Authorization: Basic ***'
>>> redact("http://user:pw@127.0.0.1:7878/query")
'http://127.0.0.1:7878/query'
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

import requests
from requests.adapters import HTTPAdapter

__all__ = ["RETRY_STATUSES", "RequestFailed", "RetryPolicy", "Scrubber", "new_session", "redact", "send"]

RETRY_STATUSES = frozenset({429, 502, 503, 504})
"""Answers that say "not now": too many requests, a gateway or the service unavailable."""

# An Authorization header's value as a server may echo it back in an error body.
_AUTH_VALUE = re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?(?:basic|bearer|digest)?\s*)[^\s'\",}]+")


def redact(url: str) -> str:
    """``url`` without any user name or password in it (for messages and logs)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username or parts.password:
        host = parts.hostname or ""
        if parts.port:
            host += f":{parts.port}"
        parts = parts._replace(netloc=host)
    return urllib.parse.urlunsplit(parts)


class Scrubber:
    """Blanks the given secrets, and any ``Authorization`` value, out of text that could reach a
    user (servers echo requests in their error bodies). Secrets shorter than ``min_length`` are
    left alone (a two-letter user name would blank every word it is part of)."""

    def __init__(self, *secrets: str | None, min_length: int = 1):
        self.secrets = [s for s in secrets if s and len(s) >= min_length]

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return _AUTH_VALUE.sub(r"\1***", text)


@dataclasses.dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to try again: ``retries`` more attempts after the first, the
    n-th after ``backoff * 2**n`` seconds (plus up to ``jitter`` of that at random), at most
    ``max_backoff``; a server's ``Retry-After`` (in seconds) is honoured up to ``max_backoff``."""

    retries: int = 3
    backoff: float = 0.2
    max_backoff: float = math.inf
    jitter: float = 0.0

    @property
    def attempts(self) -> int:
        return 1 + max(0, self.retries)

    def delay(self, attempt: int, response: requests.Response | None = None) -> float:
        """Seconds to wait before attempt ``attempt + 1`` (``attempt`` counts from 0)."""
        if response is not None:
            after = response.headers.get("Retry-After")
            if after:
                try:
                    return min(float(after), self.max_backoff)
                except ValueError:
                    pass
        base = self.backoff * (2**attempt)
        if self.jitter:
            base += random.uniform(0, base * self.jitter)
        return min(base, self.max_backoff)


class RequestFailed(Exception):
    """No answer: the last connection error or timeout, after ``attempts`` tries."""

    def __init__(self, error: requests.RequestException, attempts: int):
        super().__init__(str(error))
        self.error = error
        self.attempts = attempts


def new_session(*, pool: int = 10) -> requests.Session:
    """A session that keeps connections alive (up to ``pool`` per host) and says who is asking."""
    session = requests.Session()
    adapter = HTTPAdapter(pool_connections=pool, pool_maxsize=pool)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.headers["User-Agent"] = "ragprov"
    return session


def _always(_: object) -> bool:
    return True


def send(
    session: requests.Session,
    method: str,
    url: str,
    *,
    policy: RetryPolicy,
    retry_error: Callable[[requests.RequestException], bool] = _always,
    retry_response: Callable[[requests.Response], bool] = lambda r: r.status_code in RETRY_STATUSES,
    sleep: Callable[[float], None] = time.sleep,
    on_retry: Callable[[int, str, float], None] | None = None,
    **kwargs: Any,
) -> requests.Response:
    """``session.request(method, url, **kwargs)`` under ``policy``: the first answer below 400,
    or the last answer (retries spent, or not worth retrying); :class:`RequestFailed` when no
    attempt got an answer. ``on_retry(attempt, what failed, delay)`` is told before each wait."""
    for attempt in range(policy.attempts):
        last = attempt == policy.attempts - 1
        try:
            response = session.request(method, url, **kwargs)
        except (requests.ConnectionError, requests.Timeout) as e:
            if last or not retry_error(e):
                raise RequestFailed(e, attempt + 1) from None
            what, answer = f"{type(e).__name__}", None
        else:
            if response.status_code < 400 or last or not retry_response(response):
                return response
            what, answer = f"HTTP {response.status_code}", response
        delay = policy.delay(attempt, answer)
        if on_retry is not None:
            on_retry(attempt, what, delay)
        sleep(delay)
    raise AssertionError("unreachable")  # the last attempt always returns or raises
