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
    "Recorder",
    "GraphRagTrace",
    "DocRagTrace",
    "AgentTrace",
    "EdgeSelection",
    "ChunkSelection",
    "HopStats",
    "ExplainEvent",
    "ChunkEvent",
    "EndOfSession",
    "Source",
    "Event",
    "event_to_json",
    "event_from_json",
    "term_to_wire",
    "term_from_wire",
]
