"""Recording traces: the Recorder (one update per stage) and the events it yields."""

from .events import (
    ChunkEvent,
    EndOfSession,
    Event,
    ExplainEvent,
    Source,
    event_from_json,
    event_to_json,
    term_from_wire,
    term_to_wire,
)
from .recorder import (
    AgentTrace,
    ChunkSelection,
    DocRagTrace,
    EdgeSelection,
    GraphRagTrace,
    HopStats,
    Recorder,
)

__all__ = [
    "AgentTrace",
    "ChunkEvent",
    "ChunkSelection",
    "DocRagTrace",
    "EdgeSelection",
    "EndOfSession",
    "Event",
    "ExplainEvent",
    "GraphRagTrace",
    "HopStats",
    "Recorder",
    "Source",
    "event_from_json",
    "event_to_json",
    "term_from_wire",
    "term_to_wire",
]
