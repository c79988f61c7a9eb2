"""Fixtures for the pipeline tests: a recorder with a deterministic clock and ids, the hand-built
graph, a scripted OpenAI-compatible server, and trace checks (SHACL when ragprov.qc exists)."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from pyoxigraph import NamedNode

from ragprov.record import Recorder
from ragprov.store import EmbeddedStore

from . import graphs
from .openai_stub import OpenAIStub, Reply, system_text, user_text

FACTS = NamedNode("urn:graph:facts")


@pytest.fixture
def ids():
    counter = itertools.count(1)
    return lambda: f"00000000-0000-4000-8000-{next(counter):012d}"


@pytest.fixture
def recorder_for(clock, ids):
    return lambda store: Recorder(store, clock=clock, new_id=ids)


def carol_index() -> EmbeddedStore:
    """A fresh in-memory store with the bundled Christmas Carol Microsoft GraphRAG index loaded,
    facts in urn:graph:facts (a test module's own: its traces land there)."""
    import ragprov.loaders.graphrag as graphrag_loader
    from ragprov.resources import data_dir

    store = EmbeddedStore()
    graphrag_loader.load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", facts_graph=FACTS, show_progress=False)
    return store


@pytest.fixture
def carol_store():
    """An embedded store with the hand-built graph, facts in urn:graph:facts."""
    store = EmbeddedStore()
    graphs.build(store, FACTS)
    return store


def scripted_reply(request: dict) -> Reply:
    """What the scripted LLM answers, by prompt (recognised from its system message)."""
    system, user = system_text(request), user_text(request)
    if "extract search concepts" in system:
        return Reply('["Scrooge", "nephew"]', prompt_tokens=30, completion_tokens=6)
    if "select the knowledge-graph edges" in system:
        picks = []
        for line in user.splitlines():
            m = re.match(r"^(\d+) \| (.*)$", line)
            if m and "nephew" in m.group(2):
                picks.append(
                    {
                        "id": int(m.group(1)),
                        "score": 0.9,
                        "concept": "nephew",
                        "reasoning": f"names the nephew: {m.group(2)[:40]}",
                    }
                )
        return Reply("```json\n" + json.dumps(picks) + "\n```", prompt_tokens=200, completion_tokens=40)
    if "numbered facts" in system:
        return Reply("Fred is Scrooge's nephew [1].", prompt_tokens=120, completion_tokens=9)
    if "rerank text passages" in system:
        ids = [int(m) for m in re.findall(r"^\[(\d+)\]", user, re.M)]
        return Reply(json.dumps([{"id": i, "score": round(1 - i / 10, 2)} for i in ids][:2]), prompt_tokens=90, completion_tokens=12)
    if "numbered passages" in system:
        return Reply("Fred came into the counting-house [1].", prompt_tokens=80, completion_tokens=8)
    return Reply("unexpected prompt", status=400)


@pytest.fixture
def llm():
    """A scripted OpenAI-compatible server on 127.0.0.1 (stopped after the test)."""
    with OpenAIStub(scripted_reply) as stub:
        yield stub


def llm_engine(stub):
    from ragprov.llm import LLMClient, LLMConfig, LLMEngine

    return LLMEngine(LLMClient(LLMConfig(url=stub.url, model="stub-model", api_key="sk-never-recorded", max_retries=0)))


def trace_quads(store) -> list:
    """Every recorded trace of an embedded store: the retrieval graph plus the library documents
    it references (answer, thought and observation texts)."""
    from ragprov.namespaces import LIBRARY_GRAPH, RETRIEVAL_GRAPH

    raw = store.raw
    recorded = list(raw.quads_for_pattern(None, None, None, RETRIEVAL_GRAPH))
    referenced = {q.object for q in recorded if isinstance(q.object, NamedNode)}
    return recorded + [q for q in raw.quads_for_pattern(None, None, None, LIBRARY_GRAPH) if q.subject in referenced]


def validate(store) -> None:
    """SHACL-validate the recorded traces (``ragprov.qc.validate_trace``, the ontology's shapes)."""
    from ragprov.qc import validate_trace

    report = validate_trace(trace_quads(store))
    assert report.conforms, str(report)
