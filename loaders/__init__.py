"""Loaders: documents, knowledge triples and Microsoft GraphRAG index output into a ragprov store.

Each loader checks all of its input before it writes anything (a bad input is a
:class:`~ragprov.errors.LoadError` naming file, table, row and column, and leaves the store as it
was), derives every IRI from the content (loading twice adds nothing), records extraction-time
provenance in ``urn:graph:source`` in the shapes of the ``queries/extract/*`` templates, and writes
in batches through the Store protocol's bulk path.

- :func:`load_documents` (:mod:`ragprov.loaders.documents`): text, Markdown, PDF → Document → Page → Chunk.
- :func:`load_triples` (:mod:`ragprov.loaders.triples`): N-Triples, Turtle, JSON facts → facts + Statements.
- :func:`load_graphrag` (:mod:`ragprov.loaders.graphrag`): GraphRAG output v0.3–v3 → entities,
  relationships, communities, reports, claims, text units, documents.

The names are imported lazily, so ``import ragprov.loaders`` stays cheap (pyarrow, pypdf load on use).
"""

from __future__ import annotations

from typing import Any

__all__ = ["load_documents", "load_graphrag", "load_triples"]

_WHERE = {"load_documents": "documents", "load_triples": "triples", "load_graphrag": "graphrag"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
