"""One trace as a self-contained HTML file: the explorer's trace view with its data inlined.

What ``ragprov trace show ID --format html`` writes. The page's CSS and JavaScript (the same files
the server serves) and the trace's data — stages, selected edges with their lineage and supporting
sentences, the chunks it kept — are inlined, so the file opens anywhere with no server and no
network.

>>> from ragprov.store import open_store
>>> from ragprov.record import Recorder
>>> store = open_store("memory:")
>>> trace = Recorder(store).graph_rag("Who is Marley?")
>>> html = trace_html(store, trace.question)
>>> html.startswith("<!doctype html>") and 'id="ragprov-data"' in html and "<script src" not in html
True
"""

from __future__ import annotations

import html as _html
import json
from pathlib import Path
from typing import Any

from pyoxigraph import NamedNode

from ..errors import NotFoundError
from .views import node_lineage, trace_view

__all__ = ["trace_data", "trace_html"]

STATIC = Path(__file__).parent / "static"


def trace_data(store, ref: NamedNode | str, *, facts_graph: NamedNode | None = None) -> dict[str, Any]:
    """The trace view with everything its clicks need: edge lineage and the lineage of kept chunks."""
    trace = trace_view(store, ref, facts_graph=facts_graph)
    nodes: dict[str, Any] = dict(trace["chunks"])
    for iri in dict.fromkeys(c["chunk"] for c in trace["citations"] if c.get("chunk")):
        if iri not in nodes:
            try:
                nodes[iri] = node_lineage(store, iri, terms=[trace["query"]])
            except NotFoundError:
                continue
    return {"trace": trace, "nodes": nodes, "documents": {}}


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>`` or ``<!--`` can end it early)."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def trace_html(store, ref: NamedNode | str, *, facts_graph: NamedNode | None = None) -> str:
    """The self-contained HTML page of one trace (see the module docstring)."""
    data = trace_data(store, ref, facts_graph=facts_graph)
    css = (STATIC / "explorer.css").read_text(encoding="utf-8")
    js = (STATIC / "explorer.js").read_text(encoding="utf-8").replace("</script", "<\\/script")
    title = _html.escape(f"ragprov trace: {data['trace']['query']}")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{css}
</style>
</head>
<body>
<header class="top">
  <h1>ragprov <span>trace</span></h1>
  <nav><a id="nav-ask" hidden></a><a id="nav-traces" hidden></a></nav>
</header>
<main id="app"></main>
<aside id="lineage" class="drawer" hidden></aside>
<script type="application/json" id="ragprov-data">{_script_json(data)}</script>
<script>
{js}
</script>
</body>
</html>
"""
