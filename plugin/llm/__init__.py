"""Language models for the pipelines: an OpenAI-compatible client, prompts, and the offline engine.

:func:`engine_from_config` picks the engine: the LLM when a URL is configured (arguments or
``RAGPROV_LLM_URL``), else the deterministic offline engine.
"""

from __future__ import annotations

import os

from .engine import (
    AnswerStream,
    Choice,
    EdgeText,
    Engine,
    LLMEngine,
    MapPoint,
    Passage,
    ReactStep,
    Step,
    Tool,
    Turn,
    parse_json_list,
    parse_react,
)
from .env import KEY_ENV, MODEL_ENV, URL_ENV
from .offline import OFFLINE_MODEL, OfflineEngine
from .prompt import Prompt, load_prompt, prompt_ids

__all__ = [
    "KEY_ENV",
    "MODEL_ENV",
    "OFFLINE_MODEL",
    "URL_ENV",
    "AnswerStream",
    "Choice",
    "Completion",
    "EdgeText",
    "Engine",
    "LLMClient",
    "LLMConfig",
    "LLMEngine",
    "MapPoint",
    "OfflineEngine",
    "Passage",
    "Prompt",
    "ReactStep",
    "Step",
    "StreamedCompletion",
    "Tool",
    "Turn",
    "engine_from_config",
    "load_prompt",
    "parse_json_list",
    "parse_react",
    "prompt_ids",
]


def __getattr__(name: str):
    """The HTTP client's names load on first use (PEP 562): the offline engine needs no requests."""
    if name in ("Completion", "LLMClient", "LLMConfig", "StreamedCompletion"):
        from . import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def engine_from_config(
    *, url: str | None = None, model: str | None = None, api_key: str | None = None, response_type: str | None = None, **options,
) -> Engine:
    """The LLM engine if a URL is given or ``RAGPROV_LLM_URL`` is set, else the offline engine.
    ``response_type`` (Microsoft GraphRAG's, default "multiple paragraphs") shapes the LLM's answers
    in the Microsoft modes; the offline engine writes its own extractive answer."""
    if not (url or os.environ.get(URL_ENV) or model or api_key):
        return OfflineEngine()
    from .client import LLMClient, LLMConfig

    config = LLMConfig.from_env(url=url, model=model, api_key=api_key, **options)
    if config is None:
        return OfflineEngine()
    if response_type:
        return LLMEngine(LLMClient(config), response_type=response_type)
    return LLMEngine(LLMClient(config))
