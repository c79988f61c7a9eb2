"""ROBOT-style checks of the ontology: the SPARQL queries of ``ontology/checks/*.rq``, run with
pyoxigraph, each returning one row per problem at the severity ``ontology/checks/profile.tsv`` gives it."""


from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pyoxigraph import (
    RdfFormat,
    Store,
)

from ..errors import ConfigurationError

if TYPE_CHECKING:  # pragma: no cover
    pass
from pyoxigraph import QuerySolutions

from ._common import _ontology_dir, _short, _text
from .plain import _FORMATS


class Severity(str, enum.Enum):
    """How bad a QC problem is. ``ERROR`` fails ``ragprov ontology check`` and the tests."""

    ERROR = "ERROR"
    WARN = "WARN"
    INFO = "INFO"

    @property
    def rank(self) -> int:
        """0 for ERROR, 1 for WARN, 2 for INFO (sorting order)."""
        return ("ERROR", "WARN", "INFO").index(self.value)


@dataclass(frozen=True)
class Check:
    """One QC query of ``ontology/checks``, with the metadata of its header."""

    name: str
    path: Path
    title: str
    description: str
    solution: str
    severity: Severity
    query: str


@dataclass(frozen=True)
class Problem:
    """One row returned by a QC check: the offending term, and the property and value at fault."""

    check: str
    severity: Severity
    entity: str
    property: str | None
    value: str | None
    title: str

    def to_dict(self) -> dict[str, str | None]:
        """The problem as JSON-ready values."""
        return {"check": self.check, "severity": self.severity.value, "entity": self.entity,
                "property": self.property, "value": self.value, "title": self.title}

    def __str__(self) -> str:
        parts = [f"{self.severity.value} {self.check}: {_short(self.entity)}"]
        if self.property:
            parts.append(_short(self.property))
        if self.value is not None:
            parts.append(_short(self.value) if _IRI_LIKE.match(self.value) else repr(self.value))
        return " ".join(parts) + f" — {self.title}"


_IRI_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s\"<>]+$")


_HEADER_LINE = re.compile(r"^#\s*(title|severity|description|solution):\s*(.*)$")


def _parse_header(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = _HEADER_LINE.match(line)
        if m:
            key = m.group(1)
            fields[key] = m.group(2).strip()
        elif key and line.startswith("#   "):
            fields[key] += " " + line[1:].strip()
        else:
            key = None
    return fields


def _read_profile(path: Path) -> dict[str, Severity]:
    profile: dict[str, Severity] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if cells[0] == "check":
            continue
        if len(cells) != 2 or cells[1].strip() not in Severity.__members__:
            raise ConfigurationError(f"{path}:{n}: expected 'check<TAB>ERROR|WARN|INFO', got {line!r}")
        profile[cells[0].strip()] = Severity(cells[1].strip())
    return profile


def list_checks(checks_dir: Path | None = None) -> list[Check]:
    """The QC checks, in profile order; severities come from ``profile.tsv``.

    A check missing from the profile keeps the severity of its header; a profile entry without a
    query file is a configuration error.
    """
    folder = Path(checks_dir) if checks_dir else _ontology_dir() / "checks"
    files = {p.stem: p for p in sorted(folder.glob("*.rq"))}
    profile_path = folder / "profile.tsv"
    profile = _read_profile(profile_path) if profile_path.exists() else {}
    missing = sorted(set(profile) - set(files))
    if missing:
        raise ConfigurationError(f"{profile_path} lists checks with no query file: {', '.join(missing)}")
    checks = []
    for name in [*profile, *sorted(set(files) - set(profile))]:
        text = files[name].read_text(encoding="utf-8")
        head = _parse_header(text)
        try:
            severity = profile.get(name) or Severity(head.get("severity", "ERROR"))
        except ValueError:
            raise ConfigurationError(f"{files[name]}: unknown severity {head.get('severity')!r}") from None
        checks.append(
            Check(name, files[name], head.get("title", name), head.get("description", ""),
                  head.get("solution", ""), severity, text)
        )
    return checks


def _load_store(path: Path) -> Store:
    store = Store()
    try:
        store.load(path=str(path), format=_FORMATS.get(path.suffix.lstrip(".").lower(), RdfFormat.TURTLE))
    except (OSError, SyntaxError, ValueError) as exc:
        raise ConfigurationError(f"cannot read {path}: {exc}") from exc
    return store


def run_checks(ontology_path: Path | str | None = None, *, checks: Iterable[str] | None = None,
               checks_dir: Path | None = None) -> list[Problem]:
    """Run the QC checks over an ontology file (default: the packaged ``ragprov.ttl``).

    ``checks`` restricts the run to the named checks. Problems come sorted by severity, check and
    term; an empty list means the ontology passes.
    """
    path = Path(ontology_path) if ontology_path else _ontology_dir() / "ragprov.ttl"
    store = _load_store(path)
    selected = list_checks(checks_dir)
    if checks is not None:
        wanted = set(checks)
        unknown = wanted - {c.name for c in selected}
        if unknown:
            raise ConfigurationError(f"unknown QC check(s): {', '.join(sorted(unknown))}")
        selected = [c for c in selected if c.name in wanted]
    problems: list[Problem] = []
    for check in selected:
        try:
            rows = store.query(check.query)
        except SyntaxError as exc:
            raise ConfigurationError(f"QC check {check.path} is not valid SPARQL: {exc}") from exc
        if not isinstance(rows, QuerySolutions):
            raise ConfigurationError(f"QC check {check.path} is not a SELECT query")
        for row in rows:
            entity = _text(row["entity"]) or ""
            problems.append(Problem(check.name, check.severity, entity, _text(row["property"]),
                                    _text(row["value"]), check.title))
    problems.sort(key=lambda p: (p.severity.rank, p.check, p.entity, p.property or "", p.value or ""))
    return problems
