"""``[Data: …]`` citations in a Microsoft-GraphRAG-style answer, resolved to the items they name.

Microsoft GraphRAG asks the model to back each point with references to the context tables by
record id: ``[Data: Entities (5, 7); Relationships (23); Reports (2, +more)]`` (at most five ids,
then ``+more``). :func:`parse_citations` reads every such block (``;`` or ``,`` between datasets,
as models write both); :func:`resolve_citations` maps each ``(dataset, id)`` to the table row that
was sent, and keeps a note for each id that names nothing in the context (a hallucinated or
mistyped reference), which the trace records instead of a source.

>>> parse_citations("Marley was his partner [Data: Entities (5, 7); Reports (2, +more)].")
[Citation(dataset='Entities', id='5'), Citation(dataset='Entities', id='7'), Citation(dataset='Reports', id='2')]
>>> parse_citations("[Data: Sources (15, 16), Reports (1), Entities (5)]")[2:]
[Citation(dataset='Reports', id='1'), Citation(dataset='Entities', id='5')]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from .tables import ContextTables, TableRow

__all__ = ["Citation", "Resolved", "parse_citations", "resolve_citations"]

_BLOCK = re.compile(r"\[\s*Data\s*:\s*(.*?)\]", re.S | re.I)
_DATASET = re.compile(r"([A-Za-z][A-Za-z _-]*?)\s*\(([^()]*)\)")


@dataclasses.dataclass(frozen=True)
class Citation:
    """One cited record: the table's name as the answer spells it, and the record id."""

    dataset: str
    id: str


def parse_citations(text: str) -> list[Citation]:
    """Every ``(dataset, id)`` cited in ``text``, in order, each once (``+more`` dropped)."""
    out: list[Citation] = []
    for block in _BLOCK.finditer(text):
        for m in _DATASET.finditer(block.group(1)):
            dataset = " ".join(m.group(1).split())
            for raw in m.group(2).split(","):
                ident = raw.strip()
                if not ident or ident.lower().lstrip("+").strip() == "more":
                    continue
                c = Citation(dataset, ident)
                if c not in out:
                    out.append(c)
    return out


@dataclasses.dataclass(frozen=True)
class Resolved:
    """What the citations of an answer name: the rows sent (in citation order, each once) and a
    note per citation that names no row of the context."""

    rows: tuple[TableRow, ...]
    notes: tuple[str, ...]
    #: the trace items the answer rests on, when the caller decides them (global search: the map
    #: points that cite a cited report); else those that recorded the cited rows
    supported: tuple[str, ...] | None = None

    @property
    def items(self) -> tuple[str, ...]:
        """The index items cited (entities, relationships, claims, text units, reports), each once."""
        return tuple(dict.fromkeys(r.item for r in self.rows if r.item))

    @property
    def selections(self) -> tuple[str, ...]:
        """The trace items (kept items, map points) the cited rows stand for, each once."""
        if self.supported is not None:
            return self.supported
        return tuple(dict.fromkeys(r.selection for r in self.rows if r.selection))


def resolve_citations(text: str, tables: ContextTables | Sequence[ContextTables]) -> Resolved:
    """Resolve the citations of ``text`` against the tables that were sent (several prompts'
    tables are searched in order: global search's map batches).

    >>> from ragprov.llm.tables import Table
    >>> t = Table("Entities", ("id", "entity")); _ = t.add("5", ["SCROOGE"], item="urn:e:5")
    >>> r = resolve_citations("Yes [Data: Entities (5, 99)]", ContextTables([t]))
    >>> r.items, r.notes
    (('urn:e:5',), ('the answer cites Entities (99), which is not in the context sent',))
    """
    contexts = [tables] if isinstance(tables, ContextTables) else list(tables)
    rows: list[TableRow] = []
    notes: list[str] = []
    for c in parse_citations(text):
        row = next((r for ctx in contexts if (r := ctx.find(c.dataset, c.id)) is not None), None)
        if row is None:
            notes.append(f"the answer cites {c.dataset} ({c.id}), which is not in the context sent")
        elif row not in rows:
            rows.append(row)
    return Resolved(tuple(rows), tuple(notes))
