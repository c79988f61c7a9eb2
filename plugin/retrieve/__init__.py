"""Retrieval: every fact a pipeline reads (mirrors ``queries/retrieve/``).

- :mod:`.reader` — :class:`FactsReader`: entities, neighbourhoods, labels, chunks, edge sources;
- :mod:`.context` — Microsoft GraphRAG's local/global/DRIFT context and token budgets;
- :mod:`.indexes` — the lexical (BM25) entity and chunk indexes, :mod:`.textindex` their
  persistent form maintained at load time;
- :mod:`.lexical` — tokens, stopwords, concepts and BM25 (shared with the offline engine);
- :mod:`.schema`, :mod:`.terms` — which predicates are facts, and how terms and sources are named.

Pipelines read facts here and write provenance through the recorder; they never query a store.
"""

from .indexes import ChunkIndex, ChunkRecord, EntityIndex, EntityMatch
from .reader import FactsReader
from .schema import FactsSchema
from .terms import EdgeOrigin, local_name, source_citation, term_text

__all__ = [
    "ChunkIndex",
    "ChunkRecord",
    "EdgeOrigin",
    "EntityIndex",
    "EntityMatch",
    "FactsReader",
    "FactsSchema",
    "local_name",
    "source_citation",
    "term_text",
]
