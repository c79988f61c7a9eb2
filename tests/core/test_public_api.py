"""The public API is frozen: changing ``ragprov.__all__`` is a deliberate act that edits this test."""

import ragprov

FROZEN = [
    "__version__",
    "Store", "EmbeddedStore", "EndpointStore", "EndpointConfig", "open_store",
    "Dialect", "Catalog", "catalog", "render",
    "Recorder", "EdgeSelection", "ChunkSelection", "HopStats", "ExplainEvent", "ChunkEvent", "EndOfSession",
    "Source", "event_to_json", "event_from_json",
    "Navigator", "Trace", "TraceSummary",
    "TG", "PROV", "RETRIEVAL_GRAPH", "SOURCE_GRAPH", "LIBRARY_GRAPH", "FACTS_GRAPH",
    "RagprovError", "ConfigurationError", "InvalidValueError", "TemplateError", "ParameterError", "StoreError",
    "StoreUnavailableError", "QueryError", "NotFoundError", "RecordingError", "LoadError", "PipelineError", "LLMError",
]


def test_public_api_is_frozen():
    assert list(ragprov.__all__) == FROZEN
    for name in FROZEN:
        assert hasattr(ragprov, name), name


def test_every_error_descends_from_the_root():
    errors = [getattr(ragprov, n) for n in FROZEN if n.endswith("Error")]
    assert all(issubclass(e, ragprov.RagprovError) for e in errors)
    doc = ragprov.errors.__doc__
    assert all(e.__name__ in doc for e in errors), "the drawn hierarchy names every error"
