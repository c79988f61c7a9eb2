"""Microsoft GraphRAG 3.x's query defaults, and the settings ragprov's modes use with an LLM.

:data:`PARAMETERS` lists every query parameter of Microsoft GraphRAG's local, global and DRIFT
search (``graphrag.config.defaults``, ``graphrag.query.factory`` and the ``graphrag query`` CLI)
beside ragprov's option name and the value ragprov uses with an LLM configured
(``docs/microsoft-parameters.md`` is this table; a test checks both against Microsoft's own
``graphrag.config.defaults``). :func:`microsoft_params` gives the mode's settings with those
values; the offline engine keeps the modes' own defaults.

>>> microsoft_params("local").community_prop
0.15
>>> microsoft_params("drift").local.text_unit_prop
0.9
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..llm.embeddings import BATCH_MAX_TOKENS, BATCH_SIZE
from ..llm.history import MAX_TURNS
from ..llm.microsoft import DEFAULT_RESPONSE_TYPE
from .basic import BasicSearchParams
from .microsoft import MAP_MAX_LENGTH, REDUCE_MAX_LENGTH
from .msgraphrag import DriftSearchParams, GlobalSearchParams, LocalSearchParams

__all__ = ["MAP_MAX_LENGTH", "PARAMETERS", "REDUCE_MAX_LENGTH", "Parameter", "microsoft_params", "parameters_table"]

@dataclasses.dataclass(frozen=True)
class Parameter:
    """One query parameter: its mode, Microsoft's name (``section.field`` of its config, or where
    it is fixed), Microsoft's default, ragprov's option and the value ragprov uses with an LLM."""

    mode: str
    microsoft: str
    default: Any
    ragprov: str
    value: Any
    note: str = ""


PARAMETERS: tuple[Parameter, ...] = (
    # local search
    Parameter("local", "local_search.top_k_entities", 10, "LocalSearchParams.top_k_entities", 10),
    Parameter("local", "local_search.top_k_relationships", 10, "LocalSearchParams.top_k_relationships", 10),
    Parameter("local", "local_search.max_context_tokens", 12_000, "LocalSearchParams.max_tokens", 12_000,
              "counted with tiktoken for the configured model"),
    Parameter("local", "local_search.text_unit_prop", 0.5, "LocalSearchParams.text_unit_prop", 0.5),
    Parameter("local", "local_search.community_prop", 0.15, "LocalSearchParams.community_prop", 0.15,
              "the offline engine keeps 0.25"),
    Parameter("local", "local_search.conversation_history_max_turns", 5, "ragprov.llm.history.MAX_TURNS", MAX_TURNS,
              "user turns only, latest first, as Microsoft's factory sets it"),
    Parameter("local", "query CLI --response-type / search response_type", DEFAULT_RESPONSE_TYPE, "--response-type", DEFAULT_RESPONSE_TYPE,
              "the API default; Microsoft's CLI writes it \"Multiple Paragraphs\""),
    Parameter("local", "query CLI --community-level", 2, "LocalSearchParams.max_level", 2,
              "`--community-level`: only reports of communities at that level or coarser are candidates"),
    # global search
    Parameter("global", "query CLI --community-level", 2, "GlobalSearchParams.max_level", 2,
              "`--community-level`: every report at that level or coarser (Microsoft's level roll-up groups its "
              "communities table by the community's own title, so it keeps them all too)"),
    Parameter("global", "query CLI --dynamic-community-selection", False, "GlobalSearchParams.dynamic_selection", False,
              "`--dynamic-community-selection`: rated from the root level down, recorded as a tg:CommunitySelection stage; "
              "offline the rating is each report's BM25 coverage of the question on the same 0-5 scale"),
    Parameter("global", "global_search.dynamic_search_threshold", 1, "GlobalSearchParams.rating_threshold", 1,
              "a report rated at least this is relevant"),
    Parameter("global", "global_search.dynamic_search_keep_parent", False, "GlobalSearchParams.keep_parent", False),
    Parameter("global", "global_search.dynamic_search_num_repeats", 1, "GlobalSearchParams.rating_repeats", 1,
              "the most frequent rating wins (the lowest on a tie)"),
    Parameter("global", "global_search.dynamic_search_use_summary", False, "GlobalSearchParams.use_summary", False,
              "the LLM rates the report's full content (its summary with True)"),
    Parameter("global", "global_search.dynamic_search_max_level", 2, "GlobalSearchParams.dynamic_max_level", 2,
              "the deepest level rated whole when nothing above it was relevant"),
    Parameter("global", "DynamicCommunitySelection concurrent_coroutines", 8, "GlobalSearchParams.rating_concurrency", 8,
              "with an LLM, rating requests in flight at once; every rating is recorded, in the reports' order"),
    Parameter("global", "global_search.max_context_tokens", 12_000, "GlobalSearchParams.batch_tokens", 12_000,
              "one map batch of reports"),
    Parameter("global", "global_search.data_max_tokens", 12_000, "GlobalSearchParams.reduce_tokens", 12_000,
              "the analysts' points sent to the reduce step"),
    Parameter("global", "global_search.map_max_length", 1000, "ragprov.pipelines.microsoft.MAP_MAX_LENGTH", MAP_MAX_LENGTH,
              "words"),
    Parameter("global", "global_search.reduce_max_length", 2000, "ragprov.pipelines.microsoft.REDUCE_MAX_LENGTH",
              REDUCE_MAX_LENGTH, "words"),
    Parameter("global", "build_community_context random_state", 86, "GlobalSearchParams.seed", 86, "the report shuffle"),
    Parameter("global", "concurrent_requests", 25, "GlobalSearchParams.concurrency", 25,
              "with an LLM, map requests in flight at once; one MapResult per batch, recorded in batch order"),
    # DRIFT search
    Parameter("drift", "drift_search.drift_k_followups", 20, "DriftSearchParams.k_followups", 3,
              "Microsoft runs the k best pending actions per epoch; ragprov follows k follow-ups of every action (a tree), "
              "so its k stays small"),
    Parameter("drift", "drift_search.n_depth", 3, "DriftSearchParams.depth", 2, "see k_followups"),
    Parameter("drift", "drift_search.primer_folds", 5, "DriftSearchParams.primer_reports", 5,
              "ragprov's primer reads the best 5 reports in one prompt"),
    Parameter("drift", "query CLI --community-level", 2, "DriftSearchParams.max_level", 2,
              "`--community-level`: the primer's reports, and the follow-up local searches' (`DriftSearchParams.local.max_level`)"),
    Parameter("drift", "drift_search.local_search_text_unit_prop", 0.9, "DriftSearchParams.local.text_unit_prop", 0.9),
    Parameter("drift", "drift_search.local_search_community_prop", 0.1, "DriftSearchParams.local.community_prop", 0.1),
    Parameter("drift", "drift_search.local_search_top_k_mapped_entities", 10, "DriftSearchParams.local.top_k_entities", 10),
    Parameter("drift", "drift_search.local_search_top_k_relationships", 10, "DriftSearchParams.local.top_k_relationships", 10),
    Parameter("drift", "drift_search.local_search_max_data_tokens", 12_000, "DriftSearchParams.local.max_tokens", 12_000),
    Parameter("drift", "drift_search.concurrency", 32, "(none)", 1, "follow-ups run one after another, each a recorded sub-trace"),
    # basic search
    Parameter("basic", "basic_search.k", 10, "BasicSearchParams.k", 10, "the text units nearest the question by cosine similarity"),
    Parameter("basic", "basic_search.max_context_tokens", 12_000, "BasicSearchParams.max_tokens", 12_000,
              "the Sources table, counted with tiktoken for the configured model"),
    Parameter("basic", "embed_text.batch_size", 16, "ragprov.llm.embeddings.BATCH_SIZE", BATCH_SIZE,
              "texts per /embeddings request (offline: the hashed term-frequency vector, no requests)"),
    Parameter("basic", "embed_text.batch_max_tokens", 8191, "ragprov.llm.embeddings.BATCH_MAX_TOKENS", BATCH_MAX_TOKENS,
              "tokens per /embeddings request"),
)


def microsoft_params(kind: str) -> Any:
    """The settings of mode ``kind`` (``local``, ``global``, ``drift``, ``basic``) with an LLM configured."""
    values = {(p.mode, p.ragprov.rsplit(".", 1)[-1]): p.value for p in PARAMETERS}

    def local(mode: str) -> LocalSearchParams:
        fields = ("top_k_entities", "top_k_relationships", "max_tokens", "community_prop", "text_unit_prop", "max_level")
        return LocalSearchParams(**{f: values[mode, f] for f in fields})

    if kind == "local":
        return local("local")
    if kind == "global":
        fields = ("max_level", "batch_tokens", "reduce_tokens", "seed", "dynamic_selection", "rating_threshold", "keep_parent",
                  "rating_repeats", "use_summary", "dynamic_max_level", "concurrency", "rating_concurrency")
        return GlobalSearchParams(**{f: values["global", f] for f in fields})
    if kind == "drift":
        return DriftSearchParams(primer_reports=values["drift", "primer_reports"], k_followups=values["drift", "k_followups"],
                                 depth=values["drift", "depth"], max_level=values["drift", "max_level"], local=local("drift"))
    if kind == "basic":
        return BasicSearchParams(k=values["basic", "k"], max_tokens=values["basic", "max_tokens"])
    raise ValueError(f"no Microsoft GraphRAG mode {kind!r}")


def parameters_table() -> str:
    """:data:`PARAMETERS` as the Markdown table of ``docs/microsoft-parameters.md``."""
    lines = ["| mode | Microsoft GraphRAG parameter | Microsoft default | ragprov option | ragprov with an LLM | note |",
             "| --- | --- | --- | --- | --- | --- |"]
    for p in PARAMETERS:
        lines.append(f"| {p.mode} | `{p.microsoft}` | {p.default!r} | `{p.ragprov}` | {p.value!r} | {p.note} |")
    return "\n".join(lines) + "\n"
