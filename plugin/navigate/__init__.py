"""Navigating stored provenance: traces (list, show, stage, incomplete, delete) and lineage.

The names below are imported on first use, so that a command importing one helper of this
package (retrieval reads ``_terms``) does not load the rest with it (``lineage`` imports ``traces``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .model import Selection, Stage, Trace, TraceSummary
    from .traces import TRACE_KINDS, Navigator

__all__ = ["TRACE_KINDS", "Navigator", "Selection", "Stage", "Trace", "TraceSummary"]

_HOMES = {"Selection": ".model", "Stage": ".model", "Trace": ".model", "TraceSummary": ".model",
          "TRACE_KINDS": ".traces", "Navigator": ".traces"}


__getattr__, __dir__ = lazy_names(__name__, _HOMES)
