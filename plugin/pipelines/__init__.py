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

import dataclasses

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


class Unset:
    """The type of :data:`UNSET`: an option left out (``None`` means something for some options)."""


UNSET = Unset()


def pipeline(kind: str, store, *, engine=None, recorder=None, facts_graph: NamedNode | None = None,
             community_level: int | Unset | None = UNSET, dynamic_selection: bool | None = None):
    """A pipeline by name, one of :data:`PIPELINES` (its default parameters; with an LLM, the
    Microsoft GraphRAG modes take Microsoft's, :mod:`.microsoft_defaults`).

    ``community_level`` (``local``, ``global``, ``drift``; ``None``: every level) and
    ``dynamic_selection`` (``global``) are Microsoft's ``--community-level`` and
    ``--dynamic-community-selection``; left out, the mode's default applies.

    >>> from ragprov.store import open_store
    >>> type(pipeline("drift", open_store("memory:"))).__name__
    'DriftSearch'
    >>> pipeline("global", open_store("memory:"), community_level=1, dynamic_selection=True).params.max_level
    1
    """
    classes = {cls.kind: cls for cls in (GraphRag, DocRag, Agent, LocalSearch, GlobalSearch, DriftSearch, BasicSearch)}
    if kind not in classes:
        raise ConfigurationError(f"no pipeline {kind!r}; choose one of {', '.join(PIPELINES)}")
    # with an LLM, the Microsoft GraphRAG modes take Microsoft's defaults (docs/microsoft-parameters.md)
    params = microsoft_params(kind) if kind in ("local", "global", "drift", "basic") and llm_of(engine) is not None else None
    if not isinstance(community_level, Unset) or dynamic_selection is not None:
        params = _ms_options(kind, params or classes[kind].params_type(), community_level, dynamic_selection)
    return classes[kind](store, engine=engine, recorder=recorder, facts_graph=facts_graph, params=params)


def _ms_options(kind: str, params, community_level: int | Unset | None, dynamic_selection: bool | None):
    if kind not in ("local", "global", "drift"):
        raise ConfigurationError(f"--community-level and --dynamic-community-selection apply to local, global and drift search, not {kind}")
    if dynamic_selection and kind != "global":
        raise ConfigurationError(f"--dynamic-community-selection applies to global search, not {kind}")
    if isinstance(community_level, int) and community_level < 0:
        raise ConfigurationError("--community-level must be 0 or more")
    changes: dict = {} if dynamic_selection is None or kind != "global" else {"dynamic_selection": dynamic_selection}
    if not isinstance(community_level, Unset):
        changes["max_level"] = community_level
        if kind == "drift":
            changes["local"] = dataclasses.replace(params.local, max_level=community_level)
    return dataclasses.replace(params, **changes)
