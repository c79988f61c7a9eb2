"""The trace as one HTML file, the explorer's views (templates serve/node-sources and
serve/texts), and DOT/Mermaid that stay readable for a trace of more than 25 edges."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from ragprov.navigate import Navigator
from ragprov.navigate.render import COLUMNS, LABEL_WIDTH, trace_dot, trace_mermaid
from ragprov.serve import views
from ragprov.serve.page import trace_data, trace_html
from ragprov.sparql import Dialect, catalog

from ..engines import IN_CI


@pytest.mark.parametrize("dialect", list(Dialect))
def test_view_templates_render_in_every_dialect(dialect):
    from pyoxigraph import NamedNode

    assert "wasDerivedFrom*" in catalog().render("serve/node-sources", dialect, node=NamedNode("urn:x:chunk"))
    assert "tg:content" in catalog().render("serve/texts", dialect, nodes=[NamedNode("urn:x:a"), NamedNode("urn:x:b")])


def test_html_file_is_self_contained(carol):
    store, questions = carol
    html = trace_html(store, questions["graph-rag"])
    assert "<script src" not in html and "<link rel=\"stylesheet\"" not in html
    assert not [u for u in re.findall(r"https?://[^\s\"'`)<]+", html.split('id="ragprov-data"')[0]) if "w3.org" not in u]
    data = json.loads(re.search(r'<script type="application/json" id="ragprov-data">(.*?)</script>', html, re.S).group(1))
    assert data["trace"]["question"] == questions["graph-rag"].value
    assert data["trace"]["lineage"] and all(v["chains"] for v in data["trace"]["lineage"].values())
    assert "</script" not in json.dumps(data) or "\\u003c/script" in html


def test_html_of_a_doc_rag_trace_carries_its_chunks(carol):
    store, questions = carol
    data = trace_data(store, questions["doc-rag"])
    kept = [s["chunk"] for st in data["trace"]["stages"] for s in st["selections"] if s.get("chunk")]
    assert kept and set(kept) <= set(data["nodes"])
    assert all(data["nodes"][c]["document"]["kind"] == "document" for c in kept)


def test_a_question_with_markup_stays_text(carol):
    store, _ = carol
    from ragprov.pipelines import DocRag

    pipe = DocRag(store)
    for _ in pipe.run("</script><script>alert(1)</script> humbug?"):
        pass
    html = trace_html(store, pipe.result.question)
    assert "<script>alert(1)" not in html
    assert html.count("<script") == 2  # the data block and the explorer


def test_best_sentence_ignores_hard_line_wraps():
    text = "It was cold.\nBob told them of the kindness of Mr. Scrooge's\nnephew, whom he had seen once. The fog came."
    a, b = views.best_sentence(text, ["Mr. Scrooge's nephew"])
    assert text[a:b] == "Bob told them of the kindness of Mr. Scrooge's\nnephew, whom he had seen once."


def _big_trace(carol):
    store, questions = carol
    nav = Navigator(store)
    trace = nav.trace(questions["graph-rag"])
    edges = [s.edge for st in trace.stages for s in st.selections if s.edge is not None]
    assert len(edges) >= 25
    return trace, nav.labels(edges)


def test_mermaid_is_top_down_with_short_labels(carol):
    trace, labels = _big_trace(carol)
    text = trace_mermaid(trace, labels)
    assert text.startswith("flowchart TD")
    for label in re.findall(r'\["(.*?)"\]', text):
        assert all(len(line) <= max(LABEL_WIDTH, 2 * LABEL_WIDTH) for line in label.split("<br/>")), label
    assert text.count("-->|selected|") == COLUMNS and "~~~" in text and "subgraph" in text


def test_dot_lays_out_narrow_for_a_25_edge_trace(carol):
    trace, labels = _big_trace(carol)
    text = trace_dot(trace, labels)
    assert "rankdir=TB" in text
    dot = shutil.which("dot")
    if dot is None:
        message = "Graphviz is needed to lay the DOT out: sudo .ci/install-browser.sh (apt-get install graphviz)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    svg = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True, check=True, timeout=120).stdout
    width, height = (float(v) for v in re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups())
    assert width <= 1600, f"{width} pt wide"  # one row of every selection was 21,000 pt
    assert height <= 2400


def test_chunk_lineage_and_texts_on_every_engine(store):
    """serve/node-sources and serve/texts on each real engine: a chunk → page → document, with its text."""
    store.update("""
        PREFIX prov: <http://www.w3.org/ns/prov#>
        PREFIX tg: <https://trustgraph.ai/ns/>
        PREFIX dc: <http://purl.org/dc/elements/1.1/>
        INSERT DATA {
          GRAPH <urn:graph:source> {
            <urn:x:doc> a tg:Document ; dc:title "book.txt" .
            <urn:x:page> a tg:Page ; tg:pageNumber 3 ; prov:wasDerivedFrom <urn:x:doc> .
            <urn:x:chunk> a tg:Chunk ; tg:chunkIndex 7 ; prov:wasDerivedFrom <urn:x:page> .
          }
          GRAPH <urn:graph:library> { <urn:x:chunk> tg:content "It was cold. Fred came in, Scrooge's nephew. The end." . }
        }""")
    lineage = views.node_lineage(store, "urn:x:chunk", terms=["Scrooge's nephew"])
    assert [(n["kind"], n["iri"]) for n in lineage["chain"]] == [
        ("chunk", "urn:x:chunk"),
        ("page", "urn:x:page"),
        ("document", "urn:x:doc"),
    ]
    assert lineage["document"]["title"] == "book.txt"
    a, b = lineage["highlight"]
    assert lineage["text"][a:b] == "Fred came in, Scrooge's nephew."
    with pytest.raises(Exception, match="no node"):
        views.node_lineage(store, "urn:x:missing")
