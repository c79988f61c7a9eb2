"""The JSON views the explorer shows, built from the public navigation API (no HTTP here).

The same views feed the HTTP API (:mod:`ragprov.serve.app`) and the self-contained HTML file of
``ragprov trace show --format html`` (:mod:`ragprov.serve.page`):

- :func:`trace_view`: ``trace show --format json`` plus what a person needs to read it: labels,
  each selected edge spelled with its labels, each stage's summary lines, the candidates a stage
  considered and did not keep, and the answer's numbered citations tied to chunks.
- :func:`edge_lineage`: an edge down to its documents, with each chunk's text and the sentence that
  best supports the edge.
- :func:`node_lineage`: the same from a chunk (or any node of the source graph).
- :func:`document_view`: a document and every recorded answer that rested on it.

>>> from ragprov.store import open_store
>>> from ragprov.resources import data_dir
>>> from ragprov.loaders.graphrag import load_graphrag
>>> from ragprov.pipelines import GraphRag
>>> store = open_store("memory:")
>>> _ = load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
>>> pipe = GraphRag(store)
>>> _ = list(pipe.run("Who is Scrooge's nephew?"))
>>> view = trace_view(store, pipe.result.question.value)
>>> [s["kind"] for s in view["stages"]]
['Grounding', 'Exploration', 'Focus', 'Synthesis']
>>> chain = edge_lineage(store, view["stages"][2]["selections"][0]["edge_view"]["key"])["chains"][0]
>>> chain["document"]["title"], chain["text"][slice(*chain["highlight"])] != ""
('a-christmas-carol.txt', True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, parse

from ..errors import InvalidValueError, NotFoundError
from ..labels import iri_label, local_name
from ..namespaces import TG
from ..navigate import Navigator
from ..navigate.lineage import Lineage, SourceChain, SourceNode, _nodes
from ..navigate.model import Stage
from ..navigate.render import stage_lines
from ..retrieve.lexical import content_tokens, split_sentences
from ..sparql.escape import to_named_node
from ..sparql.templates import catalog

__all__ = [
    "best_sentence",
    "document_view",
    "edge_key",
    "edge_lineage",
    "node_lineage",
    "parse_edge",
    "stage_view",
    "trace_view",
]

_CITATION_LINE = re.compile(r"^\[(\d+)\]\s+(.+)$", re.M)


# -- terms ------------------------------------------------------------------------------------------
def edge_key(edge: Triple) -> str:
    """The edge as one N-Triples line (without the final dot): how the page names an edge in a URL.

    >>> edge_key(Triple(NamedNode("urn:s"), NamedNode("urn:p"), Literal("x")))
    '<urn:s> <urn:p> "x"'
    """
    return f"{edge.subject} {edge.predicate} {edge.object}"


def parse_edge(text: str) -> Triple:
    """The edge an :func:`edge_key` names (an N-Triples triple, final dot optional).

    >>> parse_edge('<urn:s> <urn:p> "x"').object.value
    'x'
    >>> type(parse_edge('<urn:s> <urn:p> <urn:o> .')).__name__
    'Triple'
    """
    line = text.strip()
    if not line.endswith("."):
        line += " ."
    try:
        triples = [q.triple for q in parse(line.encode("utf-8"), format=RdfFormat.N_TRIPLES)]
    except (SyntaxError, ValueError) as e:
        raise InvalidValueError(f"not an edge in N-Triples form (<s> <p> <o> or <s> <p> \"literal\"): {text[:200]!r} ({e})") from None
    if len(triples) != 1:
        raise InvalidValueError(f"expected exactly one edge, got {len(triples)}: {text[:200]!r}")
    return triples[0]


def _term_view(term, labels: dict[str, str]) -> dict[str, Any]:
    if isinstance(term, NamedNode):
        return {"iri": term.value, "label": iri_label(term, labels)}
    if isinstance(term, Literal):
        return {"literal": term.value, "label": term.value}
    return {"label": str(term)}


def _edge_view(edge: Triple, labels: dict[str, str]) -> dict[str, Any]:
    return {
        "key": edge_key(edge),
        "s": _term_view(edge.subject, labels),
        "p": _term_view(edge.predicate, labels),
        "o": _term_view(edge.object, labels),
    }


# -- supporting sentences ---------------------------------------------------------------------------
def best_sentence(text: str, phrases: Sequence[str]) -> tuple[int, int] | None:
    """The ``(start, end)`` span of the sentence of ``text`` sharing most content words with
    ``phrases`` (earlier phrases weigh more: the entities before a description); ``None`` when no
    sentence shares any.

    >>> t = "It was cold. Fred, Scrooge's nephew, came in. The fog was thick."
    >>> a, b = best_sentence(t, ["Scrooge", "nephew"])
    >>> t[a:b]
    "Fred, Scrooge's nephew, came in."
    """
    weights: dict[str, float] = {}
    for rank, phrase in enumerate(phrases):
        for token in content_tokens(phrase or ""):
            weights[token] = max(weights.get(token, 0.0), 1.0 / (1 + rank))
    best, best_score = None, 0.0
    flowed = re.sub(r"(?<!\n)\n(?!\n)", " ", text)  # hard-wrapped lines are not sentence ends
    for a, b in split_sentences(flowed):
        tokens = set(content_tokens(text[a:b]))
        score = sum(w for t, w in weights.items() if t in tokens)
        if score > best_score:
            best, best_score = (a, b), score
    return best


def _texts(store, nodes: Iterable[NamedNode]) -> dict[str, str]:
    nodes = list(dict.fromkeys(nodes))
    if not nodes:
        return {}
    rows = store.select(catalog().render("serve/texts", store.dialect, nodes=nodes))
    return {row["node"].value: row["text"].value for row in rows}


def _with_text(chain_json: dict, texts: dict[str, str], phrases: Sequence[str]) -> dict:
    chunk = next((n for n in chain_json["chain"] if n["kind"] == "chunk"), None)
    if chunk is None:  # a text unit or entity derived directly from a document
        chunk = next((n for n in chain_json["chain"] if n["iri"] in texts), None)
    document = next((n for n in chain_json["chain"] if n["kind"] == "document"), chain_json["chain"][-1] if chain_json["chain"] else None)
    text = texts.get(chunk["iri"]) if chunk else None
    span = best_sentence(text, phrases) if text else None
    return {**chain_json, "chunk": chunk, "document": document, "text": text, "highlight": list(span) if span else None}


# -- lineage ----------------------------------------------------------------------------------------
def edge_lineage(store, edge: Triple | str, *, facts_graph: NamedNode | None = None) -> dict[str, Any]:
    """An edge (or its :func:`edge_key`) → every chain down to a document, with the chunk text and
    its best supporting sentence."""
    edge = parse_edge(edge) if isinstance(edge, str) else edge
    labels = Navigator(store).labels([edge], facts_graph=facts_graph)
    chains = Lineage(store).edge_sources(edge)
    return _edge_lineage_view(store, edge, chains, labels)


def _edge_lineage_view(store, edge: Triple, chains: list[SourceChain], labels: dict[str, str]) -> dict[str, Any]:
    view = _edge_view(edge, labels)
    phrases = [view["s"]["label"], view["o"]["label"], view["p"]["label"]]
    jsons = [c.to_json() for c in chains]
    texts = _texts(store, [NamedNode(n["iri"]) for c in jsons for n in c["chain"] if n["kind"] in ("chunk", "entity")])
    return {"edge": view, "chains": [_with_text(c, texts, phrases) for c in jsons]}


def node_lineage(store, node: NamedNode | str, *, terms: Sequence[str] = ()) -> dict[str, Any]:
    """A chunk, text unit or other node of the source graph → its chain down to the document, with
    its text and the sentence best matching ``terms`` (e.g. the question's words)."""
    start = to_named_node(node)
    rows = store.select(catalog().render("serve/node-sources", store.dialect, node=start))
    nodes = _nodes(rows)
    if start.value not in nodes or (len(nodes) == 1 and not nodes[start.value].parents and nodes[start.value].kind == "entity"):
        raise NotFoundError(f"no node <{start.value}> with a lineage in urn:graph:source")
    chain: list[dict] = []
    seen: set[str] = set()
    current: SourceNode | None = nodes[start.value]
    while current is not None and current.iri.value not in seen:
        seen.add(current.iri.value)
        chain.append(current.to_json())
        current = nodes.get(current.parents[0].value) if current.parents else None
    texts = _texts(store, [start])
    return _with_text({"node": start.value, "chain": chain}, texts, list(terms))


def document_view(store, document: NamedNode | str) -> dict[str, Any]:
    """A document (title, source, kind) and every recorded answer that rested on it, newest first."""
    doc = to_named_node(document)
    answers = Lineage(store).document_answers(doc, items=True)  # the page draws each trace's kept edges
    rows = store.select(catalog().render("serve/node-sources", store.dialect, node=doc))
    node = _nodes(rows).get(doc.value)
    labels = Navigator(store).labels([e for a in answers for e in a.edges])
    out = []
    for a in answers:
        entry = a.to_json()
        entry["edges"] = [_edge_view(e, labels) for e in a.edges]
        out.append(entry)
    return {"document": node.to_json() if node else {"iri": doc.value, "kind": "document"}, "answers": out}


# -- traces -----------------------------------------------------------------------------------------
def _labels_for(nav: Navigator, stages: Sequence[Stage], facts_graph) -> dict[str, str]:
    terms: list = [sel.edge for st in stages for sel in st.selections if sel.edge is not None]
    terms += [e for st in stages for e in st.node.values(TG.entity)]
    terms += [sel.item for st in stages for sel in st.selections if sel.item is not None]
    return nav.labels(terms, facts_graph=facts_graph)


def _stage_extras(stage: Stage, stage_json: dict, labels: dict[str, str], previous: Stage | None) -> None:
    """Add to a stage's JSON: readable edges, summary lines, and the candidates not kept."""
    stage_json["lines"] = stage_lines(stage, labels)[1:]
    for sel, sel_json in zip(stage.selections, stage_json["selections"], strict=False):
        sel_json["edge_view"] = _edge_view(sel.edge, labels) if sel.edge is not None else None
        if sel.item is not None:
            sel_json["item_label"] = iri_label(sel.item, labels)
    kept = len(stage.selections)
    candidates: dict[str, Any] = {"kept": kept, "considered": None, "not_kept": [], "entities": []}
    if previous is not None and previous.kind == "Exploration" and kept:
        count = previous.value(TG.edgeCount) if previous.value(TG.edgeCount) is not None else previous.value(TG.chunkCount)
        candidates["considered"] = count
        kept_chunks = {sel.chunk.value for sel in stage.selections if sel.chunk is not None}
        candidates["not_kept"] = [
            c.value for c in previous.node.values(TG.selectedChunk) if isinstance(c, NamedNode) and c.value not in kept_chunks
        ]
        candidates["entities"] = [_term_view(e, labels) for e in previous.node.values(TG.entity)]
    stage_json["candidates"] = candidates


def _chunk_lineages(store, stages: Sequence[Stage], terms: Sequence[str]) -> dict[str, dict]:
    """Each chunk a stage kept (DocRAG) or an index item that has a lineage (text units, entities),
    down to its document, with its text and the sentence best matching ``terms``."""
    out: dict[str, dict] = {}
    nodes = [node for st in stages for sel in st.selections if (node := sel.chunk or sel.item) is not None]
    for iri in dict.fromkeys(nodes):
        try:
            out[iri.value] = node_lineage(store, iri, terms=terms)
        except NotFoundError:  # an item with no extraction provenance (a community report, a map point)
            continue
    return out


def _chunk_label(lineage: dict) -> str:
    """``title, p. N, chunk K`` for a chunk lineage (what the answers' source lines say)."""
    chunk, doc = lineage.get("chunk") or {}, lineage.get("document") or {}
    parts = [doc.get("title") or doc.get("label") or local_name(doc.get("iri", ""))]
    page = next((n.get("page_number") for n in lineage["chain"] if n["kind"] == "page"), None)
    if page is not None:
        parts.append(f"p. {page}")
    if chunk.get("chunk_index") is not None:
        parts.append(f"chunk {chunk['chunk_index']}")
    return ", ".join(p for p in parts if p)


def _citations(answer: str | None, chains: dict[str, list[dict]], chunks: dict[str, dict]) -> list[dict]:
    """The answer's ``[n] title, p. P, chunk K`` source lines, each tied to the chunk it names."""
    if not answer:
        return []
    known: dict[str, dict] = {}
    for chain_list in chains.values():
        for c in chain_list:
            if c.get("chunk"):
                known.setdefault(c["chunk"]["iri"], {"chunk": c["chunk"], "document": c["document"]})
    for iri, lin in chunks.items():
        known.setdefault(iri, {"chunk": lin["chunk"] or lin["chain"][0], "document": lin["document"]})
    out = []
    for m in _CITATION_LINE.finditer(answer):
        number, label = int(m.group(1)), m.group(2).strip()
        match = next((k for k in known.values() if _names(label, k)), None)
        out.append({"n": number, "at": m.start(), "label": label, "chunk": match["chunk"]["iri"] if match else None,
                    "document": match["document"]["iri"] if match and match["document"] else None})
    return out


def _names(label: str, known: dict) -> bool:
    chunk, doc = known["chunk"], known["document"] or {}
    index = chunk.get("chunk_index")
    if index is None or not re.search(rf"\bchunk {index}\b", label):
        return False
    title = doc.get("title") or doc.get("label")
    return not title or title in label


def trace_view(store, ref: NamedNode | str, *, facts_graph: NamedNode | None = None, with_lineage: bool = True) -> dict[str, Any]:
    """The trace ``ref`` (a question IRI or session id) for the explorer (see the module docstring).

    With ``with_lineage`` every selected edge's lineage (with texts) comes along under
    ``lineage`` (one query for all edges), and every kept chunk's under ``chunks``, so citations
    resolve and a static page needs no server."""
    nav = Navigator(store)
    trace = nav.trace(ref)
    labels = _labels_for(nav, trace.stages, facts_graph)
    data = trace.to_dict()
    previous = None
    for stage, stage_json in zip(trace.stages, data["stages"], strict=False):
        _stage_extras(stage, stage_json, labels, previous)
        previous = stage
    data["answer"] = trace.answer
    data["labels"] = labels
    lineage: dict[str, dict] = {}
    if with_lineage:
        edges = [sel.edge for st in trace.stages for sel in st.selections if sel.edge is not None]
        for edge, edge_chains in Lineage(store).edges_sources(edges).items():
            lineage[edge_key(edge)] = _edge_lineage_view(store, edge, edge_chains, labels)
    data["lineage"] = lineage
    chunks = _chunk_lineages(store, trace.stages, [trace.summary.query]) if with_lineage else {}
    for stage_json in data["stages"]:
        for sel in stage_json["selections"]:
            found = chunks.get(sel.get("chunk") or sel.get("item") or "")
            sel["source_label"] = _chunk_label(found) if found else None
    data["chunks"] = chunks
    chains = {k: v["chains"] for k, v in lineage.items()}
    cited_chunks = dict(chunks)
    for sub in (sub for st in trace.stages for sub in st.subtraces if with_lineage):
        # an agent's answer cites what its sub-traces (knowledge-query, document-query) kept
        sub_view = trace_view(store, sub.question, facts_graph=facts_graph)
        chains.update({k: v["chains"] for k, v in sub_view["lineage"].items()})
        cited_chunks.update(sub_view["chunks"])
    data["citations"] = _citations(trace.answer, chains, cited_chunks)
    return data


def stage_view(store, ref: NamedNode | str, number: int, *, facts_graph: NamedNode | None = None) -> dict[str, Any]:
    """The ``number``-th stage (from 1) of a trace, as in :func:`trace_view`."""
    nav = Navigator(store)
    trace = nav.trace(ref)
    if not 1 <= number <= len(trace.stages):
        raise NotFoundError(f"trace {trace.question.value} has {len(trace.stages)} stage(s); there is no stage {number}")
    labels = _labels_for(nav, trace.stages, facts_graph)
    stage = trace.stages[number - 1]
    data = stage.to_dict()
    _stage_extras(stage, data, labels, trace.stages[number - 2] if number > 1 else None)
    data["number"] = number
    data["trace"] = trace.question.value
    return data
