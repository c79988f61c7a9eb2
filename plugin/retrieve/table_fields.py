"""The columns of Microsoft GraphRAG's context tables for index items (``retrieve/graphrag-table-fields``):
the human-readable id answers cite, entity degree, relationship weight, report content and rating,
claim subject, type and status. :mod:`ragprov.llm.tables` renders the tables from them."""

from __future__ import annotations

from collections.abc import Sequence

from pyoxigraph import NamedNode

from ._batch import batches

__all__ = ["table_fields"]


def table_fields(reader, items: Sequence[NamedNode]) -> dict[NamedNode, dict[str, str]]:
    """``item → {field: value}`` (first value of each field) for index items."""
    out: dict[NamedNode, dict[str, str]] = {}
    for batch in batches(list(dict.fromkeys(items))):
        for row in reader._select("retrieve/graphrag-table-fields", facts_graph=reader.facts_graph, items=list(batch)):
            out.setdefault(row["item"], {}).setdefault(row["field"].value, row["value"].value)
    return out
