"""ragprov: auditable graph-RAG answers as W3C PROV-O provenance in any RDF store.

Every retrieval stage is written as one SPARQL UPDATE of a template (``queries/``) in the store's
dialect, and read back with parameterised SPARQL queries that run on any RDF-star/RDF 1.2 store.

>>> import ragprov
>>> store = ragprov.open_store("memory:")
>>> trace = ragprov.Recorder(store).graph_rag("Who is Scrooge?")
>>> [t.query for t in ragprov.Navigator(store).list_traces()]
['Who is Scrooge?']
"""

__version__ = "0.1.0"

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
from .namespaces import FACTS_GRAPH, LIBRARY_GRAPH, PROV, RETRIEVAL_GRAPH, SOURCE_GRAPH, TG
from .navigate import Navigator, Trace, TraceSummary
from .record import (
    ChunkEvent,
    ChunkSelection,
    EdgeSelection,
    EndOfSession,
    ExplainEvent,
    HopStats,
    Recorder,
    Source,
    event_from_json,
    event_to_json,
)
from .sparql import Catalog, Dialect, catalog, render
from .store import EmbeddedStore, EndpointConfig, EndpointStore, Store, open_store

__all__ = [
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
