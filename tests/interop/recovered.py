"""What TrustGraph's own reader recovers from ragprov traces, before and after the session shape.

    python -m tests.interop.recovered

"Before" reads ``fixtures/traces-before-session-shape.nq`` (recorded by ragprov at 43f4f15);
"after" records the same three traces (GraphRAG, reranked DocRAG, agent with a GraphRAG
sub-trace) with the current recorder. The reader is ``trustgraph-base``'s ExplainabilityClient.
"""

from __future__ import annotations

from pathlib import Path

from trustgraph.api.explainability import ExplainabilityClient

from ragprov.record import Recorder
from ragprov.store import open_store
from tests.core.builders import agent_trace, doc_rag_trace, graph_rag_trace
from tests.interop.trustgraph_flow import StoreFlow

FIXTURE = Path(__file__).parent / "fixtures" / "traces-before-session-shape.nq"


def recovered(store, graph_q: str, doc_q: str, agent_q: str) -> dict[str, int]:
    client = ExplainabilityClient(StoreFlow(store), retry_delay=0, max_retries=1)
    g, d, a = client.fetch_graphrag_trace(graph_q), client.fetch_docrag_trace(doc_q), client.fetch_agent_trace(agent_q)
    return {
        "top-level sessions listed": len(client.list_sessions()),
        "GraphRAG stages (of 4)": sum(1 for k in ("grounding", "exploration", "focus", "synthesis") if g[k]),
        "DocRAG stages (of 3)": sum(1 for k in ("grounding", "exploration", "synthesis") if d[k]),
        "selected edges with reasoning and score": sum(
            1 for e in (g["focus"].edge_selections if g["focus"] else []) if e.reasoning and e.score is not None
        ),
        "agent steps": len(a["steps"]),
        "embedded sub-traces": sum(1 for s in a["steps"] if isinstance(s, dict)),
    }


def main() -> None:
    before = open_store("memory:")
    before.load(FIXTURE.read_bytes(), format="nquads")
    old = recovered(before, "urn:trustgraph:question:old-0", "urn:trustgraph:docrag:old-1", "urn:trustgraph:agent:old-2")
    after = open_store("memory:")
    r = Recorder(after)
    g, d = graph_rag_trace(r, edges=3, seeds=2, concepts=2), doc_rag_trace(r)
    a, _ = agent_trace(r)
    new = recovered(after, g.question.value, d.question.value, a.question.value)
    print(f"{'TrustGraph reader recovers':42} {'before':>7} {'after':>7}")
    for key in new:
        print(f"{key:42} {old[key]:>7} {new[key]:>7}")


if __name__ == "__main__":
    main()
