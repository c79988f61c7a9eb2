"""Reading plain values out of result terms (shared by the lineage and facts views)."""

from __future__ import annotations

from pyoxigraph import Literal, NamedNode

__all__ = ["float_value", "int_value", "str_value"]


def int_value(term) -> int | None:
    """A literal's integer value, else ``None``.

    >>> from pyoxigraph import Literal
    >>> int_value(Literal("33")), int_value(Literal("x")), int_value(None)
    (33, None, None)
    """
    if isinstance(term, Literal):
        try:
            return int(term.value)
        except ValueError:
            return None
    return None


def str_value(term) -> str | None:
    """A literal's or IRI's string value, else ``None``."""
    return term.value if isinstance(term, (Literal, NamedNode)) else None


def float_value(term, default: float = 0.0) -> float:
    """A literal's numeric value, else ``default``."""
    if isinstance(term, Literal):
        try:
            return float(term.value)
        except ValueError:
            return default
    return default
