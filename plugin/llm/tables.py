"""Microsoft GraphRAG's context tables: what its query modes put in the prompt, built from ragprov's
retrieved items.

Microsoft GraphRAG sends its context as delimiter-separated tables, each opened by a line
``-----Name-----`` and a header row, one record per line, first column ``id`` (the item's
``human_readable_id``, which answers cite as ``[Data: Entities (5, 7)]``). The tables are
``Entities`` (id, entity, description, number of relationships), ``Relationships`` (id, source,
target, description, weight), ``Claims`` (id, entity, type, status, description), ``Sources``
(text units: id, text), ``Reports`` (local: id, title, content; global: id, title, content,
rank) and ``Conversation History`` (turn, content). A table is filled in rank order while it fits
its token budget, counted with tiktoken (:mod:`ragprov.llm.tokens`); rows are never cut.

Every row remembers the index item it shows (``item``) and the trace item that recorded it
(``selection``: a kept local-search item, a map point…), so that citations resolve back to IRIs
(:meth:`ContextTables.find`).

>>> t = Table("Entities", ("id", "entity", "description"))
>>> _ = t.add("5", ("SCROOGE", "A miser"), item="urn:e:5")
>>> print(t.render(), end="")
-----Entities-----
id|entity|description
5|SCROOGE|A miser
>>> ContextTables([t]).find("entities", "5").item
'urn:e:5'
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Callable, Iterable, Sequence

__all__ = ["DELIMITER", "ContextTables", "Table", "TableRow", "cell", "fit_rows"]

#: Microsoft GraphRAG's ``column_delimiter``
DELIMITER = "|"


def cell(value: object) -> str:
    """A table cell: the value's text on one line (newlines would end the record).

    >>> cell("two\\nlines ")
    'two lines'
    >>> cell(None), cell(3.0)
    ('', '3.0')
    """
    if value is None:
        return ""
    return " ".join(str(value).split())


@dataclasses.dataclass(frozen=True)
class TableRow:
    """One record: its ``id`` (what answers cite), the other cells, and what it shows."""

    id: str
    cells: tuple[str, ...]
    item: str | None = None
    selection: str | None = None

    def line(self, delimiter: str = DELIMITER) -> str:
        return delimiter.join((self.id, *self.cells))


@dataclasses.dataclass
class Table:
    """A named table: header (``id`` first) and rows."""

    name: str
    header: tuple[str, ...]
    rows: list[TableRow] = dataclasses.field(default_factory=list)

    def add(self, id: str, cells: Sequence[object], *, item: str | None = None, selection: str | None = None) -> TableRow:
        row = TableRow(cell(id), tuple(cell(c) for c in cells), item, selection)
        self.rows.append(row)
        return row

    def head(self, delimiter: str = DELIMITER) -> str:
        return f"-----{self.name}-----\n" + delimiter.join(self.header) + "\n"

    def render(self, delimiter: str = DELIMITER) -> str:
        """The table as Microsoft sends it (empty when it has no rows)."""
        if not self.rows:
            return ""
        return self.head(delimiter) + "".join(row.line(delimiter) + "\n" for row in self.rows)


def fit_rows(table: Table, count: Callable[[str], int], max_tokens: int, *, delimiter: str = DELIMITER) -> Table:
    """A copy of ``table`` with the rows, in order, that fit ``max_tokens`` together with the
    table's head (Microsoft's rule: stop at the first row that would overflow).

    >>> t = Table("Sources", ("id", "text"))
    >>> for n in range(5): _ = t.add(str(n), ["word " * 10])
    >>> len(fit_rows(t, lambda s: len(s.split()), 25).rows)
    2
    """
    used = count(table.head(delimiter))
    kept: list[TableRow] = []
    for row in table.rows:
        tokens = count(row.line(delimiter) + "\n")
        if used + tokens > max_tokens:
            break
        used += tokens
        kept.append(row)
    return Table(table.name, table.header, kept)


#: the names answers use for each table (Microsoft's prompts also say "Sources" for text units)
_ALIASES = {"text units": "sources", "text_units": "sources", "covariates": "claims", "community reports": "reports"}


@dataclasses.dataclass
class ContextTables:
    """The tables of one prompt, in the order they are sent."""

    tables: list[Table]

    def text(self, delimiter: str = DELIMITER) -> str:
        """All non-empty tables, separated by a blank line (Microsoft's ``context_chunks``)."""
        parts = [t.render(delimiter).rstrip("\n") for t in self.tables]
        return "\n\n".join(p for p in parts if p)

    def rows(self) -> Iterable[tuple[Table, TableRow]]:
        for table in self.tables:
            for row in table.rows:
                yield table, row

    def find(self, dataset: str, id: str) -> TableRow | None:
        """The row ``id`` of the table named ``dataset`` (case and spacing ignored), if sent."""
        name = " ".join(dataset.lower().split())
        name = _ALIASES.get(name, name)
        for table in self.tables:
            if table.name.lower() == name:
                return next((r for r in table.rows if r.id == id.strip()), None)
        return None


def csv_table(name: str, header: Sequence[str], records: Iterable[Sequence[str]], delimiter: str = DELIMITER) -> str:
    """A table written as pandas' ``to_csv(sep=delimiter, index=False)`` writes it (quoted where
    a value holds the delimiter, a quote or a newline), as Microsoft writes its conversation history.

    >>> print(csv_table("Conversation History", ["turn", "content"], [["user", "Who is a|b?"]]), end="")
    -----Conversation History-----
    turn|content
    user|"Who is a|b?"
    """
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(records)
    return f"-----{name}-----\n" + out.getvalue()
