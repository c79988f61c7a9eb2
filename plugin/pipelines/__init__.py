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
from typing import TYPE_CHECKING

from pyoxigraph import NamedNode

from .._lazy import lazy_names
from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ..retrieve import ChunkIndex, EntityIndex, FactsReader, FactsSchema
    from .agent import Agent, AgentParams
    from .base import Pipeline, RunResult, Timings, Tokens
    from .basic import BasicSearch, BasicSearchParams
    from .docrag import DocRag, DocRagParams
    from .graphrag import GraphRag, GraphRagParams
    from .msgraphrag import DriftSearch, DriftSearchParams, GlobalSearch, GlobalSearchParams, LocalSearch, LocalSearchParams

#: where each public name lives: imported on first use, so that a command running one pipeline
#: imports that pipeline's modules only (``ragprov ask drift`` needs neither the agent nor GraphRAG's)
_HOMES = {
    "ChunkIndex": "..retrieve", "EntityIndex": "..retrieve", "FactsReader": "..retrieve", "FactsSchema": "..retrieve",
    "Agent": ".agent", "AgentParams": ".agent",
    "Pipeline": ".base", "RunResult": ".base", "Timings": ".base", "Tokens": ".base",
    "BasicSearch": ".basic", "BasicSearchParams": ".basic",
    "DocRag": ".docrag", "DocRagParams": ".docrag",
    "GraphRag": ".graphrag", "GraphRagParams": ".graphrag",
    "DriftSearch": ".msgraphrag", "DriftSearchParams": ".msgraphrag", "GlobalSearch": ".msgraphrag",
    "GlobalSearchParams": ".msgraphrag", "LocalSearch": ".msgraphrag", "LocalSearchParams": ".msgraphrag",
}
#: the class of each pipeline name (see :data:`PIPELINES`)
_CLASSES = {"graph-rag": "GraphRag", "doc-rag": "DocRag", "agent": "Agent", "local": "LocalSearch", "global": "GlobalSearch",
            "drift": "DriftSearch", "basic": "BasicSearch"}


__getattr__, __dir__ = lazy_names(__name__, _HOMES)


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
    if kind not in _CLASSES:
        raise ConfigurationError(f"no pipeline {kind!r}; choose one of {', '.join(PIPELINES)}")
    cls = __getattr__(_CLASSES[kind])
    # with an LLM, the Microsoft GraphRAG modes take Microsoft's defaults (docs/microsoft-parameters.md)
    params = None
    if kind in ("local", "global", "drift", "basic"):
        from .microsoft import llm_of

        if llm_of(engine) is not None:
            from .microsoft_defaults import microsoft_params

            params = microsoft_params(kind)
    if not isinstance(community_level, Unset) or dynamic_selection is not None:
        params = _ms_options(kind, params or cls.params_type(), community_level, dynamic_selection)
    return cls(store, engine=engine, recorder=recorder, facts_graph=facts_graph, params=params)


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
