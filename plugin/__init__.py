"""ragprov: auditable graph-RAG answers as W3C PROV-O provenance in any RDF store.

Every retrieval stage is written as one SPARQL UPDATE of a template (``queries/``) in the store's
dialect, and read back with parameterised SPARQL queries that run on any RDF-star/RDF 1.2 store.

>>> import ragprov
>>> store = ragprov.open_store("memory:")
>>> trace = ragprov.Recorder(store).graph_rag("Who is Scrooge?")
>>> [t.query for t in ragprov.Navigator(store).list_traces()]
['Who is Scrooge?']
"""

from ._version import __version__
from .errors import (
    ConfigurationError,
    InvalidValueError,
    LLMError,
    LoadError,
    NotFoundError,
    ParameterError,
    PipelineError,
    QueryError,
    RagprovError,
    RecordingError,
    StoreError,
    StoreUnavailableError,
    TemplateError,
)

#: where each public name lives: imported on first use, so that ``import ragprov`` (and every
#: ``ragprov`` command) pays only for what it touches (PEP 562)
_LAZY = {
    **dict.fromkeys(("FACTS_GRAPH", "LIBRARY_GRAPH", "PROV", "RETRIEVAL_GRAPH", "SOURCE_GRAPH", "TG"), "namespaces"),
    **dict.fromkeys(("Navigator", "Trace", "TraceSummary"), "navigate"),
    **dict.fromkeys(("ChunkEvent", "ChunkSelection", "EdgeSelection", "EndOfSession", "ExplainEvent", "HopStats",
                     "Recorder", "Source", "event_from_json", "event_to_json"), "record"),
    **dict.fromkeys(("Catalog", "Dialect", "catalog", "render"), "sparql"),
    **dict.fromkeys(("EmbeddedStore", "EndpointConfig", "EndpointStore", "Store", "open_store"), "store"),
}

__all__ = [  # noqa: RUF022 (grouped by topic, in the order the docs present them; frozen by tests/core/test_public_api.py)
    "__version__",
    # stores
    "Store",
    "EmbeddedStore",
    "EndpointStore",
    "EndpointConfig",
    "open_store",
    # SPARQL
    "Dialect",
    "Catalog",
    "catalog",
    "render",
    # recording
    "Recorder",
    "EdgeSelection",
    "ChunkSelection",
    "HopStats",
    "ExplainEvent",
    "ChunkEvent",
    "EndOfSession",
    "Source",
    "event_to_json",
    "event_from_json",
    # navigation
    "Navigator",
    "Trace",
    "TraceSummary",
    # vocabulary and graphs
    "TG",
    "PROV",
    "RETRIEVAL_GRAPH",
    "SOURCE_GRAPH",
    "LIBRARY_GRAPH",
    "FACTS_GRAPH",
    # errors
    "RagprovError",
    "ConfigurationError",
    "InvalidValueError",
    "TemplateError",
    "ParameterError",
    "StoreError",
    "StoreUnavailableError",
    "QueryError",
    "NotFoundError",
    "RecordingError",
    "LoadError",
    "PipelineError",
    "LLMError",
]


def __getattr__(name: str):
    import importlib

    module = _LAZY.get(name)
    if module is None:  # a subpackage (ragprov.store, ...) reached as an attribute
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError:
            raise AttributeError(f"module 'ragprov' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

