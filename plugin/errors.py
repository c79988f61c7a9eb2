"""One rooted error tree for everything ragprov raises on purpose.

Catch :class:`RagprovError` to handle every failure ragprov reports; the CLI turns any of them into
one line on stderr and a non-zero exit. Anything else escaping ragprov is a bug.

::

    RagprovError
    ├── ConfigurationError        a store URL, dialect, option or environment value is unusable
    ├── InvalidValueError         a value cannot enter SPARQL or the ontology (bad IRI, language tag…)
    ├── TemplateError             a template is missing, malformed, or rendered with wrong parameters
    │   └── ParameterError        declared parameters and supplied values disagree
    ├── StoreError                the store refused or failed a request
    │   ├── StoreUnavailableError the store could not be reached (connection, timeout, 5xx)
    │   └── QueryError            the store rejected a query or update (syntax, 4xx)
    │       └── RequestTooLargeError  …for its size alone (HTTP 413, Virtuoso SP031): send it in parts
    ├── NotFoundError             a trace, stage, template or document does not exist
    ├── RecordingError            a stage was recorded out of order or twice
    ├── LoadError                 input to a loader is unreadable or inconsistent (names file/row/column)
    └── PipelineError             a retrieval pipeline cannot proceed (LLM reply unusable, no data)
        └── LLMError              the LLM endpoint failed or answered something unusable

Each error's message is one actionable sentence: what was wrong, and what to do.
"""

from __future__ import annotations

__all__ = [
    "ConfigurationError",
    "InvalidValueError",
    "LLMError",
    "LoadError",
    "NotFoundError",
    "ParameterError",
    "PipelineError",
    "QueryError",
    "RagprovError",
    "RecordingError",
    "RequestTooLargeError",
    "StoreError",
    "StoreUnavailableError",
    "TemplateError",
]


class RagprovError(Exception):
    """The root of every error ragprov raises on purpose."""


class ConfigurationError(RagprovError):
    """A store URL, dialect, option or environment value is unusable."""


class InvalidValueError(RagprovError, ValueError):
    """A value cannot be written into SPARQL: an invalid IRI, language tag, datatype or number."""


class TemplateError(RagprovError):
    """A query template is missing, malformed, or was rendered incorrectly."""


class ParameterError(TemplateError):
    """The parameters given to a template are not the ones its header declares."""


class StoreError(RagprovError):
    """The store refused or failed a request."""

    status: int | None = None
    """The HTTP status the store answered with, when it answered (None: no answer, or not HTTP)."""


class StoreUnavailableError(StoreError):
    """The store could not be reached: connection refused, timeout, or a server error."""


class QueryError(StoreError):
    """The store rejected a query or an update (syntax, unsupported feature, permission)."""


class RequestTooLargeError(QueryError):
    """The store refused a request for its size alone (HTTP 413; Virtuoso SP031, the SQL it compiles
    an ``INSERT DATA`` into is too long): nothing was applied, and the same data in smaller parts is
    accepted."""


class NotFoundError(RagprovError, LookupError):
    """A trace, stage, template or document does not exist."""


class RecordingError(RagprovError):
    """A trace stage was recorded out of order, twice, or after the trace ended."""


class LoadError(RagprovError):
    """Input to a loader is unreadable or inconsistent; the message names file, table, row, column."""


class PipelineError(RagprovError):
    """A retrieval pipeline cannot proceed."""


class LLMError(PipelineError):
    """The LLM endpoint failed or answered something unusable."""
