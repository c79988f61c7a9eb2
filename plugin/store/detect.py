"""Finding out which dialect a store speaks, by asking it (three cheap ASK probes at most).

RDF 1.2 triple terms are tried first: pyoxigraph 0.5 also accepts ``<< s p o >>`` but reads it as
an RDF 1.2 reifier, so a store that parses ``<<( )>>`` must be taken as ``rdf12``. Jena ≤ 5.3
rejects ``<<( )>>`` and accepts ``<< >>``: ``rdfstar``. A store that rejects both (Virtuoso 7,
QLever, Neptune) gets ``reification``.
"""

from __future__ import annotations

from ..errors import QueryError
from ..sparql.dialect import Dialect

__all__ = ["PROBES", "detect_dialect"]

PROBES: list[tuple[Dialect, str]] = [
    (Dialect.RDF12, "ASK { ?s <urn:ragprov:probe> <<( <urn:ragprov:s> <urn:ragprov:p> <urn:ragprov:o> )>> }"),
    (Dialect.RDFSTAR, "ASK { ?s <urn:ragprov:probe> << <urn:ragprov:s> <urn:ragprov:p> <urn:ragprov:o> >> }"),
]


def detect_dialect(store) -> Dialect:
    """The dialect ``store`` accepts (syntax errors on the probes are expected, other errors raise)."""
    for dialect, probe in PROBES:
        try:
            store.query(probe)
        except QueryError:
            continue
        return dialect
    return Dialect.REIFICATION
