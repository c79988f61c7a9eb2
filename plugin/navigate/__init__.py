"""Navigating stored provenance: traces (list, show, stage, incomplete, delete) and lineage."""

from .model import Selection, Stage, Trace, TraceSummary
from .traces import TRACE_KINDS, Navigator

__all__ = ["Navigator", "Trace", "TraceSummary", "Stage", "Selection", "TRACE_KINDS"]
