"""Arbitrary quads as one ``INSERT DATA`` request in a dialect (for bulk paths and remote loads).

Every term goes through :func:`~ragprov.sparql.escape.sparql_term` or the dialect's quoting.

>>> from pyoxigraph import NamedNode, Literal, Quad
>>> q = Quad(NamedNode("urn:s"), NamedNode("urn:p"), Literal("o"), NamedNode("urn:g"))
>>> print(insert_data([q], Dialect.RDF12))
INSERT DATA {
GRAPH <urn:g> {
<urn:s> <urn:p> "o" .
}
}
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pyoxigraph import DefaultGraph, Quad, Triple

from ..errors import InvalidValueError
from .dialect import Dialect
from .escape import sparql_term

__all__ = ["insert_data", "spell_triple"]


def spell_triple(triple: Triple, dialect: Dialect) -> list[str]:
    """``s p o .`` for one triple (object may be quoted), plus its reification in that dialect."""
    if isinstance(triple.subject, Triple):
        raise InvalidValueError("quoted triples in subject position are not portable between stores")
    obj = triple.object
    if isinstance(obj, Triple):
        lines = [f"{sparql_term(triple.subject)} {sparql_term(triple.predicate)} {dialect.quote(obj)} ."]
        for t in dialect.reification_triples(obj):
            lines.append(f"{sparql_term(t.subject)} {sparql_term(t.predicate)} {sparql_term(t.object)} .")
        return lines
    return [f"{sparql_term(triple.subject)} {sparql_term(triple.predicate)} {sparql_term(obj)} ."]


def insert_data(quads: Iterable[Quad], dialect: Dialect) -> str:
    """One INSERT DATA holding ``quads``, grouped by graph (default-graph quads outside GRAPH)."""
    by_graph: dict[object, list[str]] = defaultdict(list)
    for q in quads:
        by_graph[q.graph_name].extend(spell_triple(q.triple, dialect))
    parts = ["INSERT DATA {"]
    for graph, lines in by_graph.items():
        if isinstance(graph, DefaultGraph):
            parts.extend(lines)
        else:
            parts.append(f"GRAPH {sparql_term(graph)} {{")
            parts.extend(lines)
            parts.append("}")
    parts.append("}")
    return "\n".join(parts)
