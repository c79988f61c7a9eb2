"""Navigating stored provenance: traces (list, show, stage, incomplete, delete) and lineage.

The names below are imported on first use, so that a command importing one helper of this
package (retrieval reads ``_terms``) does not load the rest with it (``lineage`` imports ``traces``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Selection, Stage, Trace, TraceSummary
    from .traces import TRACE_KINDS, Navigator

__all__ = ["TRACE_KINDS", "Navigator", "Selection", "Stage", "Trace", "TraceSummary"]

_HOMES = {"Selection": ".model", "Stage": ".model", "Trace": ".model", "TraceSummary": ".model",
          "TRACE_KINDS": ".traces", "Navigator": ".traces"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
