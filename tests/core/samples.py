"""Valid parameters for each core template, so tests can render and run every one of them."""

from __future__ import annotations

import datetime as dt

from pyoxigraph import Literal, NamedNode, Triple

from ragprov.namespaces import TG, XSD

T0 = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.timezone.utc)
Q = NamedNode("urn:trustgraph:question:sample")
S = NamedNode("urn:trustgraph:question:sample/session")
AGENT_S = NamedNode("urn:trustgraph:agent:sample/session")
EDGE = Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partnerOf"), NamedNode("urn:e:marley"))
LIT_EDGE = Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:age"), Literal("60", datatype=XSD.integer))


def samples() -> dict[str, dict]:
    """Template name → parameters, in an order that builds one coherent trace of each kind."""
    return {
        "record/question": dict(
            question=Q,
            session=S,
            question_type=TG.GraphRagQuestion,
            label="GraphRAG question",
            query="Who is Scrooge?",
            started=T0,
            software=NamedNode("urn:ragprov:software:test"),
            software_label="ragprov test",
            model="offline",
            used=None,
            informed_by=None,
        ),
        "record/grounding": dict(
            grounding=NamedNode("urn:trustgraph:prov:grounding:sample"),
            question=Q,
            session=S,
            generated=T0,
            concepts=["Scrooge", "partner"],
            in_token=10,
            out_token=5,
            prompt="extract-concepts@1",
        ),
        "record/exploration": dict(
            exploration=NamedNode("urn:trustgraph:prov:exploration:sample"),
            question=Q,
            derived_from=NamedNode("urn:trustgraph:prov:grounding:sample"),
            session=S,
            generated=T0,
            edge_count=12,
            entities=[NamedNode("urn:e:scrooge")],
            hops=[{"iri": NamedNode("urn:trustgraph:prov:hop:sample:1"), "hop": 1, "candidates": 40, "kept": 12}],
        ),
        "record/focus": dict(
            focus=NamedNode("urn:trustgraph:prov:focus:sample"),
            question=Q,
            derived_from=NamedNode("urn:trustgraph:prov:exploration:sample"),
            session=S,
            generated=T0,
            selections=[
                {
                    "iri": NamedNode("urn:trustgraph:prov:edge:sample:1"),
                    "edge": EDGE,
                    "rank": 1,
                    "reasoning": "names Scrooge",
                    "score": 0.9,
                    "concept": "Scrooge",
                },
                {
                    "iri": NamedNode("urn:trustgraph:prov:edge:sample:2"),
                    "edge": LIT_EDGE,
                    "rank": 2,
                    "reasoning": None,
                    "score": None,
                    "concept": None,
                },
            ],
            in_token=None,
            out_token=None,
            prompt=None,
        ),
        "record/synthesis": dict(
            synthesis=NamedNode("urn:trustgraph:prov:synthesis:sample"),
            derived_from=NamedNode("urn:trustgraph:prov:focus:sample"),
            session=S,
            generated=T0,
            also_derived_from=None,
            document=NamedNode("urn:trustgraph:answer:sample"),
            content="Scrooge was Marley's partner.",
            in_token=100,
            out_token=20,
            prompt="synthesize@1",
        ),
        "record/chunk-exploration": dict(
            exploration=NamedNode("urn:trustgraph:docrag:sample/exploration"),
            question=NamedNode("urn:trustgraph:docrag:sample"),
            derived_from=NamedNode("urn:trustgraph:docrag:sample/grounding"),
            session=NamedNode("urn:trustgraph:docrag:sample/session"),
            generated=T0,
            chunk_count=2,
            chunks=[NamedNode("urn:doc:1/c0"), NamedNode("urn:doc:1/c1")],
        ),
        "record/chunk-focus": dict(
            focus=NamedNode("urn:trustgraph:docrag:sample/focus"),
            question=NamedNode("urn:trustgraph:docrag:sample"),
            derived_from=NamedNode("urn:trustgraph:docrag:sample/exploration"),
            session=NamedNode("urn:trustgraph:docrag:sample/session"),
            generated=T0,
            selections=[
                {
                    "iri": NamedNode("urn:trustgraph:docrag:sample/chunk/1"),
                    "chunk": NamedNode("urn:doc:1/c1"),
                    "rank": 1,
                    "score": 2.5,
                }
            ],
            in_token=None,
            out_token=None,
            prompt="bm25-rerank@1",
        ),
        "record/analysis": dict(
            analysis=NamedNode("urn:trustgraph:agent:sample/i1"),
            session=AGENT_S,
            derived_from=NamedNode("urn:trustgraph:agent:sample"),
            generated=T0,
            step=1,
            thought_entity=NamedNode("urn:trustgraph:agent:sample/i1/thought"),
            document=NamedNode("urn:trustgraph:agent:sample/i1/thought/content"),
            thought="I should look this up.",
            action="knowledge-query",
            arguments='{"question": "Who is Scrooge?"}',
            in_token=None,
            out_token=None,
            prompt=None,
        ),
        "record/observation": dict(
            observation=NamedNode("urn:trustgraph:agent:sample/i1/observation"),
            derived_from=NamedNode("urn:trustgraph:agent:sample/i1"),
            session=AGENT_S,
            generated=T0,
            step=1,
            document=NamedNode("urn:trustgraph:agent:sample/i1/observation/content"),
            content="Scrooge is a miser.",
            duration=0.25,
            tool_error=None,
        ),
        "record/conclusion": dict(
            conclusion=NamedNode("urn:trustgraph:agent:sample/final"),
            session=AGENT_S,
            derived_from=NamedNode("urn:trustgraph:agent:sample/i1/observation"),
            generated=T0,
            document=NamedNode("urn:trustgraph:answer:agent-sample"),
            content="A miser.",
            termination_reason="final-answer",
            in_token=None,
            out_token=None,
        ),
        "trace/list": dict(kind=None, since=None, limit=10),
        "trace/show": dict(question=Q),
        "trace/stage": dict(stage=NamedNode("urn:trustgraph:prov:focus:sample")),
        "trace/incomplete": dict(before=None, limit=10),
        "trace/exists": dict(question=Q),
        "trace/roots_before": dict(before=T0 + dt.timedelta(days=1)),
        "trace/labels": dict(terms=[NamedNode("urn:e:scrooge")], facts_graph=None),
        "trace/resolve": dict(candidates=[Q, NamedNode("urn:trustgraph:docrag:sample")]),
        "trace/caller": dict(question=Q),
        "trace/answered": dict(questions=[Q, NamedNode("urn:trustgraph:docrag:sample")]),
        "trace/delete": dict(question=Q, questions=None, legacy=None),
    }


def all_update_samples() -> dict[str, dict]:
    """Valid parameters for every update template of the catalog: the core ones above, the
    extraction ones of the loader tests, and the search-mode ones of the pipeline tests."""
    from ragprov.sparql import catalog
    from tests.loaders.test_templates import CASES
    from tests.pipelines.test_retrieve_templates import RECORD

    out = {name: params for name, params in samples().items() if catalog().info(name).kind == "update"}
    out.update({name: params for name, (params, _) in CASES.items()})
    out.update({name: {k: (T0 if k == "generated" else v) for k, v in params.items()} for name, params in RECORD.items()})
    return out
