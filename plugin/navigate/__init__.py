"""Navigating stored provenance: traces (list, show, stage, incomplete, delete) and lineage."""

from .model import Selection, Stage, Trace, TraceSummary
from .traces import TRACE_KINDS, Navigator

__all__ = ["TRACE_KINDS", "Navigator", "Selection", "Stage", "Trace", "TraceSummary"]
