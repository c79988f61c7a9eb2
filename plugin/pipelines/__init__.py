"""Retrieval pipelines that record every stage as provenance and stream events (§9).

- :class:`GraphRag`: concepts → seed entities → subgraph expansion → edge selection → sources →
  synthesis (TrustGraph style).
- :class:`DocRag`: concepts → chunk retrieval → optional reranking → synthesis.
- :class:`Agent`: ReAct over ``knowledge-query`` (GraphRAG) and ``document-query`` (DocRAG).
- :class:`LocalSearch`, :class:`GlobalSearch`, :class:`DriftSearch`, :class:`BasicSearch`: Microsoft
  GraphRAG's query modes over a loaded index (basic search: vector search over the text units).

Each ``run(question)`` is a generator of :mod:`ragprov.record.events` events; afterwards the
pipeline's ``result`` (:class:`RunResult`) holds the answer, sources, tokens and stage timings.
:func:`pipeline` builds one by name. Engines come from :mod:`ragprov.llm` (the offline engine by
default).
"""

from __future__ import annotations

from pyoxigraph import NamedNode

from ..errors import ConfigurationError
from ..retrieve import ChunkIndex, EntityIndex, FactsReader, FactsSchema
from .agent import Agent, AgentParams
from .base import Pipeline, RunResult, Timings, Tokens
from .basic import BasicSearch, BasicSearchParams
from .docrag import DocRag, DocRagParams
from .graphrag import GraphRag, GraphRagParams
from .microsoft import llm_of
from .microsoft_defaults import microsoft_params
from .msgraphrag import DriftSearch, DriftSearchParams, GlobalSearch, GlobalSearchParams, LocalSearch, LocalSearchParams

__all__ = [
    "PIPELINES",
    "Agent",
    "AgentParams",
    "BasicSearch",
    "BasicSearchParams",
    "ChunkIndex",
    "DocRag",
    "DocRagParams",
    "DriftSearch",
    "DriftSearchParams",
    "EntityIndex",
    "FactsReader",
    "FactsSchema",
    "GlobalSearch",
    "GlobalSearchParams",
    "GraphRag",
    "GraphRagParams",
    "LocalSearch",
    "LocalSearchParams",
    "Pipeline",
    "RunResult",
    "Timings",
    "Tokens",
    "pipeline",
]

PIPELINES = ("graph-rag", "doc-rag", "agent", "local", "global", "drift", "basic")


def pipeline(kind: str, store, *, engine=None, recorder=None, facts_graph: NamedNode | None = None):
    """A pipeline by name, one of :data:`PIPELINES` (its default parameters; with an LLM, the
    Microsoft GraphRAG modes take Microsoft's, :mod:`.microsoft_defaults`).

    >>> from ragprov.store import open_store
    >>> type(pipeline("drift", open_store("memory:"))).__name__
    'DriftSearch'
    """
    classes = {cls.kind: cls for cls in (GraphRag, DocRag, Agent, LocalSearch, GlobalSearch, DriftSearch, BasicSearch)}
    if kind not in classes:
        raise ConfigurationError(f"no pipeline {kind!r}; choose one of {', '.join(PIPELINES)}")
    # with an LLM, the Microsoft GraphRAG modes take Microsoft's defaults (docs/microsoft-parameters.md)
    params = microsoft_params(kind) if kind in ("local", "global", "drift", "basic") and llm_of(engine) is not None else None
    return classes[kind](store, engine=engine, recorder=recorder, facts_graph=facts_graph, params=params)
