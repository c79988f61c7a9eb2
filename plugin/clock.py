"""The one clock: the current time in UTC, and ISO 8601 dates read as UTC times.

>>> utcnow().tzinfo
datetime.timezone.utc
>>> parse_time("2026-01-31")
datetime.datetime(2026, 1, 31, 0, 0, tzinfo=datetime.timezone.utc)
>>> parse_time("2026-01-31T12:00:00Z").hour
12
"""

from __future__ import annotations

import datetime as _dt

from .errors import InvalidValueError

__all__ = ["parse_time", "utcnow"]


def utcnow() -> _dt.datetime:
    """Now, timezone-aware, in UTC (what every recorded time and file note uses)."""
    return _dt.datetime.now(_dt.timezone.utc)


def parse_time(value: str, *, what: str | None = None) -> _dt.datetime:
    """An ISO 8601 date or date-time (``Z`` allowed); one without a zone is UTC. ``what`` names the
    value in the error (``since``)."""
    try:
        t = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        named = f"{what}: " if what else ""
        raise InvalidValueError(
            f"{named}not an ISO 8601 date or date-time: {value!r} (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)"
        ) from None
    return t if t.tzinfo else t.replace(tzinfo=_dt.timezone.utc)
