"""Errors as RFC 9457 problem details: ``application/problem+json`` with type, title, status, detail.

Every error ragprov raises on purpose maps to a 4xx (or 503 for an unreachable store) with its
one-sentence message as ``detail``; anything else is a 500 whose body says only that it is a bug
(the traceback goes to the server's log, never to the client).

>>> from ragprov.errors import NotFoundError
>>> problem_of(NotFoundError("no trace x"))
(404, {'type': 'https://ragprov.dev/problems/not-found', 'title': 'Not found', 'status': 404, 'detail': 'no trace x'})
"""

from __future__ import annotations

from typing import Any

from ..errors import (
    ConfigurationError,
    InvalidValueError,
    NotFoundError,
    PipelineError,
    RagprovError,
    StoreUnavailableError,
    TemplateError,
)

__all__ = ["PROBLEM_TYPE", "problem", "problem_of"]

PROBLEM_TYPE = "https://ragprov.dev/problems/"
MEDIA_TYPE = "application/problem+json"

_BY_ERROR: tuple[tuple[type[BaseException], int, str, str], ...] = (
    (NotFoundError, 404, "not-found", "Not found"),
    (InvalidValueError, 422, "invalid-value", "Invalid value"),
    (TemplateError, 422, "invalid-parameter", "Invalid parameter"),
    (ConfigurationError, 422, "invalid-option", "Invalid option"),
    (StoreUnavailableError, 503, "store-unavailable", "Store unavailable"),
    (PipelineError, 422, "pipeline-failed", "The pipeline could not answer"),
    (RagprovError, 400, "bad-request", "Bad request"),
)


def problem(status: int, slug: str, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    """A problem-details object (``type`` is ``PROBLEM_TYPE + slug``)."""
    return {"type": PROBLEM_TYPE + slug, "title": title, "status": status, "detail": detail, **extra}


def problem_of(error: BaseException) -> tuple[int, dict[str, Any]]:
    """The status and problem body for an exception (a 500 for anything not a ragprov error)."""
    for cls, status, slug, title in _BY_ERROR:
        if isinstance(error, cls):
            return status, problem(status, slug, title, str(error))
    return 500, problem(
        500, "internal-error", "Internal error",
        f"an unexpected {type(error).__name__} (a bug in ragprov: the server log has the traceback; please report it)",
    )
