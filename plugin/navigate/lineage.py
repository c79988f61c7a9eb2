"""Lineage: from an edge to the documents it rests on, and from a document to what it produced.

Each method is one SPARQL query (``lineage/edge-sources``, ``lineage/extraction``; a document's
answers: a page of them ``lineage/document-page``, then their details ``lineage/document-traces``,
through the document links stages and their sessions record) rendered in the store's dialect, so it works on ``rdf12``,
``rdfstar`` and ``reification`` stores alike, and reads both ragprov's ``?stmt tg:reifies <<s p o>>`` and
TrustGraph's ``?subgraph tg:contains <<s p o>>``. Look-ups bind the whole triple.

>>> from ragprov.store import open_store
>>> from ragprov.resources import data_dir
>>> from ragprov.loaders.graphrag import load_graphrag
>>> store = open_store("memory:")
>>> _ = load_graphrag(store, data_dir() / "graphrag" / "christmas-carol-v3", show_progress=False)
>>> lineage = Lineage(store)
>>> edge = lineage.any_edge()
>>> chain = lineage.edge_sources(edge)[0]
>>> [node.kind for node in chain.nodes]
['chunk', 'document']
>>> chain.document.title
'a-christmas-carol.txt'
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Iterable, Sequence
from typing import Any

from pyoxigraph import NamedNode, Triple

from ..clock import parse_time
from ..errors import InvalidValueError, NotFoundError
from ..namespaces import TG
from ..sparql.dialect import statement_iri
from ..sparql.escape import to_named_node
from ..sparql.templates import Catalog
from ..sparql.templates import catalog as default_catalog
from ._terms import int_value, str_value
from .traces import nearest_caller

__all__ = ["QUESTION_KINDS", "AnswerPage", "DocumentAnswer", "Extraction", "Lineage", "SourceChain", "SourceNode", "StatementInfo"]

_TG = str(TG)
_KINDS = {_TG + "Statement": "statement", _TG + "Document": "document", _TG + "Page": "page", _TG + "Chunk": "chunk"}
_RANK = {"statement": 0, "chunk": 1, "page": 2, "document": 3}


_int = int_value
_str = str_value
_EPOCH = _dt.datetime.min.replace(tzinfo=_dt.timezone.utc)


def _time_key(started: str | None) -> _dt.datetime:
    """A start time as a time to sort by: ragprov's are typed, TrustGraph's plain text, and the
    two spell the same instant differently (``…00Z``, ``…00.400Z``, ``…00+00:00``)."""
    if not started:
        return _EPOCH
    try:
        return parse_time(started)
    except InvalidValueError:
        return _EPOCH


@dataclasses.dataclass
class SourceNode:
    """One node of an extraction chain: a statement, chunk, page or document (or another derived
    entity, kind ``"entity"``), with the properties the chain shows."""

    iri: NamedNode
    kind: str = "entity"
    label: str | None = None
    title: str | None = None
    source: str | None = None
    mime_type: str | None = None
    page_count: int | None = None
    page_number: int | None = None
    chunk_index: int | None = None
    char_offset: int | None = None
    char_length: int | None = None
    parents: tuple[NamedNode, ...] = ()

    def __str__(self) -> str:
        if self.kind == "document":
            name = f"document {self.title or self.label or ''!r}".replace(" ''", "")
        elif self.kind == "page":
            name = f"page {self.page_number}" if self.page_number is not None else "page"
        elif self.kind == "chunk":
            name = f"chunk {self.chunk_index}" if self.chunk_index is not None else "chunk"
            if self.char_offset is not None and self.char_length is not None:
                name += f" (chars {self.char_offset}-{self.char_offset + self.char_length})"
        else:
            name = self.kind
        return f"{name} <{self.iri.value}>"

    def to_json(self) -> dict:
        out: dict[str, Any] = {"iri": self.iri.value, "kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("iri", "kind", "parents") or value is None:
                continue
            out[f.name] = value
        if self.parents:
            out["derived_from"] = [p.value for p in self.parents]
        return out


@dataclasses.dataclass(frozen=True)
class SourceChain:
    """One path from a Statement to a root: ``nodes`` runs from the statement's direct source
    (usually a chunk) to the document."""

    statement: NamedNode
    nodes: tuple[SourceNode, ...]

    def _first(self, kind: str) -> SourceNode | None:
        return next((n for n in self.nodes if n.kind == kind), None)

    @property
    def chunk(self) -> SourceNode | None:
        return self._first("chunk")

    @property
    def page(self) -> SourceNode | None:
        return self._first("page")

    @property
    def document(self) -> SourceNode | None:
        return self._first("document") or (self.nodes[-1] if self.nodes else None)

    def __str__(self) -> str:
        return " → ".join([f"statement <{self.statement.value}>", *(str(n) for n in self.nodes)])

    def to_json(self) -> dict:
        return {"statement": self.statement.value, "chain": [n.to_json() for n in self.nodes]}


@dataclasses.dataclass(frozen=True)
class StatementInfo:
    """A Statement derived from a document: the fact it reifies and what it was derived from."""

    iri: NamedNode
    fact: Triple | None
    derived_from: tuple[NamedNode, ...]

    def to_json(self) -> dict:
        return {
            "iri": self.iri.value,
            "fact": [str(self.fact.subject), str(self.fact.predicate), str(self.fact.object)] if self.fact else None,
            "derived_from": [d.value for d in self.derived_from],
        }


@dataclasses.dataclass
class Extraction:
    """A document and everything derived from it in ``urn:graph:source``."""

    document: SourceNode
    pages: list[SourceNode]
    chunks: list[SourceNode]
    statements: list[StatementInfo]
    derived: list[SourceNode]

    def to_json(self) -> dict:
        return {
            "document": self.document.to_json(),
            "pages": [p.to_json() for p in self.pages],
            "chunks": [c.to_json() for c in self.chunks],
            "statements": [s.to_json() for s in self.statements],
            "derived": [d.to_json() for d in self.derived],
        }


@dataclasses.dataclass
class DocumentAnswer:
    """A recorded trace whose answer rests on a document: the question, its kind and start time,
    its answer entity (and the library document holding the answer text), the parent question of
    a sub-trace (an agent's or a DRIFT search's), the stages that kept items of the document
    (``stages``), and — when asked for — the kept items that tie it to the document:
    ``items`` all of them (statements, chunks, text units, entities, claims, community reports),
    ``edges`` and ``statements`` the selected edges and the statements that reify them, ``chunks``
    the chunks a DocRAG stage kept."""

    question: NamedNode
    query: str
    started: str | None = None
    kind: str | None = None
    answers: list[NamedNode] = dataclasses.field(default_factory=list)
    answer_documents: list[NamedNode] = dataclasses.field(default_factory=list)
    parent_question: NamedNode | None = None
    edges: list[Triple] = dataclasses.field(default_factory=list)
    statements: list[NamedNode] = dataclasses.field(default_factory=list)
    chunks: list[NamedNode] = dataclasses.field(default_factory=list)
    items: list[NamedNode] = dataclasses.field(default_factory=list)
    stages: list[NamedNode] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "question": self.question.value,
            "kind": self.kind,
            "query": self.query,
            "started": self.started,
            "answers": [a.value for a in self.answers],
            "answer_documents": [a.value for a in self.answer_documents],
            "parent_question": self.parent_question.value if self.parent_question else None,
            "items": [i.value for i in self.items],
            "edges": [[str(e.subject), str(e.predicate), str(e.object)] for e in self.edges],
            "statements": [s.value for s in self.statements],
            "chunks": [c.value for c in self.chunks],
            "stages": [s.value for s in self.stages],
        }


@dataclasses.dataclass
class AnswerPage:
    """A page of :meth:`Lineage.document_page`: the answers shown, how many traces rest on the
    document in all, and how many
    newer ones came before the page."""

    answers: list[DocumentAnswer]
    total: int | None
    offset: int = 0
    #: whether some trace resting on the document has its stages linked but not itself (recorded
    #: by an older ragprov): found by the link-free look-ups, slower; `ragprov migrate
    #: document-links` adds the trace links
    partly_linked: bool = False


#: the trace kind of each question subtype (``ragprov trace list`` names them so too)
QUESTION_KINDS = {
    _TG + "GraphRagQuestion": "graph-rag",
    _TG + "DocRagQuestion": "doc-rag",
    _TG + "AgentQuestion": "agent",
    _TG + "LocalSearchQuestion": "local",
    _TG + "GlobalSearchQuestion": "global",
    _TG + "DriftSearchQuestion": "drift",
    _TG + "BasicSearchQuestion": "basic",
}


def _kind(term) -> str | None:
    """The trace kind a question subtype stands for (a future subtype: its local name).

    >>> _kind(NamedNode("https://trustgraph.ai/ns/LocalSearchQuestion")), _kind(NamedNode("urn:x:NewQuestion"))
    ('local', 'NewQuestion')
    """
    if not isinstance(term, NamedNode):
        return None
    return QUESTION_KINDS.get(term.value) or term.value.rsplit("/", 1)[-1].rsplit("#", 1)[-1].rsplit(":", 1)[-1]


def _add(lst: list, item) -> None:
    if item is not None and item not in lst:
        lst.append(item)


_PROPS = {
    "http://www.w3.org/2000/01/rdf-schema#label": ("label", _str),
    "http://purl.org/dc/elements/1.1/title": ("title", _str),
    "http://purl.org/dc/elements/1.1/source": ("source", _str),
    _TG + "mimeType": ("mime_type", _str),
    _TG + "pageCount": ("page_count", _int),
    _TG + "pageNumber": ("page_number", _int),
    _TG + "chunkIndex": ("chunk_index", _int),
    _TG + "charOffset": ("char_offset", _int),
    _TG + "charLength": ("char_length", _int),
}
_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_DERIVED = "http://www.w3.org/ns/prov#wasDerivedFrom"


def _nodes(rows: Iterable[dict]) -> dict[str, SourceNode]:
    """Merge ``?node ?property ?value`` rows into one :class:`SourceNode` per node."""
    nodes: dict[str, SourceNode] = {}
    parents: dict[str, list[NamedNode]] = {}
    for row in rows:
        term = row.get("node")
        if not isinstance(term, NamedNode):
            continue
        node = nodes.get(term.value)
        if node is None:
            node = nodes[term.value] = SourceNode(term)
            parents[term.value] = []
        prop, value = _str(row.get("property")), row.get("value")
        if prop is None or value is None:
            continue
        if prop == _DERIVED:
            if isinstance(value, NamedNode):
                _add(parents[term.value], value)
        elif prop == _TYPE:
            kind = _KINDS.get(_str(value) or "")
            if kind and (node.kind == "entity" or _RANK.get(kind, 9) < _RANK.get(node.kind, 9)):
                node.kind = kind
        elif prop in _PROPS:
            # A node with several values (a document loaded from two index versions has two titles)
            # shows the least: the same whatever order the engine answers in.
            attr, conv = _PROPS[prop]
            new, old = conv(value), getattr(node, attr)
            if old is None or (new is not None and str(new) < str(old)):
                setattr(node, attr, new)
    for key, node in nodes.items():
        node.parents = tuple(sorted(parents[key], key=lambda n: n.value))
        if node.kind == "entity":  # TrustGraph's own extraction types pages and chunks only as prov:Entity
            if node.page_number is not None:
                node.kind = "page"
            elif node.chunk_index is not None:
                node.kind = "chunk"
            elif not node.parents and (node.mime_type or node.page_count is not None or node.title):
                node.kind = "document"
    return nodes


class Lineage:
    """Lineage queries over a store (see the module docstring)."""

    def __init__(self, store, *, facts_graph: NamedNode | None = None, catalog: Catalog | None = None):
        self.store = store
        self.facts_graph = facts_graph
        self.catalog = catalog or default_catalog()

    def _select(self, name: str, **params):
        return self.store.select(self.catalog.render(name, self.store.dialect, **params))

    def edge_sources(self, edge: Triple) -> list[SourceChain]:
        """Every path edge → statement → chunk → page → document, one :class:`SourceChain` each
        (a statement derived from two chunks gives two chains). Empty when nothing reifies the edge."""
        return self.edges_sources([edge])[edge]

    def edges_sources(self, edges: Sequence[Triple]) -> dict[Triple, list[SourceChain]]:
        """:meth:`edge_sources` for many edges in one query (what a trace view with provenance needs)."""
        edges = list(dict.fromkeys(edges))
        for edge in edges:
            if not isinstance(edge, Triple):
                raise InvalidValueError(f"expected a triple, got {type(edge).__name__}: {edge!r}")
        out: dict[Triple, list[SourceChain]] = {edge: [] for edge in edges}
        if not edges:
            return out
        rows = self._select("lineage/edge-sources", edges=edges)
        # In the reification dialect ?edge comes back as the edge's deterministic statement IRI.
        by_key = {str(e): e for e in edges} | {statement_iri(e).value: e for e in edges}
        rows_by_edge: dict[Triple, list[dict]] = {}
        for row in rows:
            term = row.get("edge")
            found = by_key.get(term.value if isinstance(term, NamedNode) else str(term))
            if found is not None:
                rows_by_edge.setdefault(found, []).append(row)
        for edge, edge_rows in rows_by_edge.items():
            out[edge] = self._chains(edge_rows)
        return out

    @staticmethod
    def _chains(rows: list[dict]) -> list[SourceChain]:
        nodes = _nodes(rows)
        statements = sorted({r["statement"].value for r in rows if isinstance(r.get("statement"), NamedNode)})
        chains: list[SourceChain] = []
        for st in statements:
            start = nodes.get(st)
            if start is None:
                continue

            def walk(node: SourceNode, path: tuple[SourceNode, ...], seen: frozenset[str], st: str = st) -> None:
                if not node.parents:
                    if path:
                        chains.append(SourceChain(NamedNode(st), path))
                    return
                for p in node.parents:
                    parent = nodes.get(p.value) or SourceNode(p)
                    if p.value in seen:
                        continue
                    walk(parent, (*path, parent), seen | {p.value})

            walk(start, (), frozenset({st}))
        return chains

    def extraction(self, document: NamedNode | str) -> Extraction:
        """The document, its pages and chunks, the statements (with their facts) derived from it,
        and any other entity derived from it (GraphRAG entities and claims)."""
        doc = to_named_node(document)
        rows = self._select("lineage/extraction", document=doc)
        nodes = _nodes(rows)
        root = nodes.get(doc.value)
        if root is None or (len(nodes) == 1 and root.kind == "entity" and root.title is None and root.mime_type is None):
            raise NotFoundError(f"no document <{doc.value}> in urn:graph:source; see `ragprov load documents`")
        if root.kind == "entity":
            root.kind = "document"
        facts: dict[str, Triple] = {}
        for row in rows:
            node = row.get("node")
            if isinstance(node, NamedNode) and all(row.get(k) is not None for k in ("fs", "fp", "fo")):
                facts[node.value] = Triple(row["fs"], row["fp"], row["fo"])
        pages = sorted((n for n in nodes.values() if n.kind == "page"), key=lambda n: (n.page_number or 0, n.iri.value))
        chunks = sorted(
            (n for n in nodes.values() if n.kind == "chunk"),
            key=lambda n: (n.parents[0].value if n.parents else "", n.chunk_index or 0, n.iri.value),
        )
        statements = [
            StatementInfo(n.iri, facts.get(key), n.parents)
            for key, n in sorted(nodes.items())
            if n.kind == "statement" or key in facts
        ]
        stmt_keys = {s.iri.value for s in statements}
        derived = [
            n for key, n in sorted(nodes.items()) if n.kind == "entity" and key != doc.value and key not in stmt_keys
        ]
        return Extraction(root, pages, chunks, statements, derived)

    def document_answers(
        self, document: NamedNode | str, *, limit: int | None = None, items: bool = False, unlinked: bool = False
    ) -> list[DocumentAnswer]:
        """Every recorded trace whose kept items rest on ``document``, newest first (``limit``: the
        newest that many); :meth:`document_page` says how many there are in all and reads later pages."""
        return self.document_page(document, limit=limit, items=items, unlinked=unlinked).answers

    def document_page(
        self, document: NamedNode | str, *, limit: int | None = None, offset: int = 0, items: bool = False,
        unlinked: bool = False,
    ) -> AnswerPage:
        """The recorded traces whose kept items rest on ``document``, newest first: ``limit`` of them
        after the newest ``offset`` (all when ``limit`` is None), and how many there are in all.

        Bound look-ups: the traces linked to the document (``tg:traceRestsOn``, written with each
        stage's link in the stage's own update, on the session that carries the trace's start) and
        their starts, the order and the total (``lineage/document-page``, cut to the page there),
        then the details of the page's traces only: their stages linked to the document
        (``tg:restsOn``), questions and answers (``lineage/document-traces``). Each answer's
        ``stages`` are its linked stages. ``items``: also the kept items that tie each
        trace to the document (``items``, ``edges``, ``statements``, ``chunks``; one more query,
        ``lineage/document-answers`` from the document's side). Traces without the link (recorded
        before ragprov wrote it — ``ragprov migrate document-links`` adds it — or built by
        TrustGraph) are read by the link-free look-ups of ``lineage/document-answers`` when
        ``unlinked`` is set, or when no linked trace rests on the document (a page or a chunk given
        as the document is found that way too); those are all read, then sorted and cut, so that
        every page is a slice of the same newest-first list."""
        doc = to_named_node(document)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise InvalidValueError(f"limit: a positive number of traces, got {limit!r}")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidValueError(f"offset: a number of traces (0 or more), got {offset!r}")
        # with the link-free look-ups, every linked trace too: they have no order of their own, so
        # every tied and linked trace is sorted below and then cut (each page a slice of one list)
        linked, total, staged = self._linked(doc, None, 0) if unlinked else self._linked(doc, limit, offset)
        partly = staged > total  # some trace's stages are linked, the trace itself not (an older ragprov's)
        if partly and not unlinked:
            linked, total, staged = self._linked(doc, None, 0)
        by_question = linked
        known: int | None = total
        link_free = unlinked or not total or partly
        if link_free:
            by_question = {**self._tied(doc, None), **linked}  # a linked trace's details over the link-free ones
            known = len(by_question)
        if items and linked:  # the tied traces hold theirs already
            self._fill_items(doc, linked)
        if not by_question and not self.store.ask(self.catalog.render("extract/exists", self.store.dialect, node=doc)):
            raise NotFoundError(f"no document {doc.value} in the store's extraction provenance; see `ragprov load`")
        answers = sorted(by_question.values(), key=lambda a: (_time_key(a.started), a.question.value), reverse=True)
        if link_free:
            answers = answers[offset:] if limit is None else answers[offset : offset + limit]
        return AnswerPage(answers, known, offset, partly_linked=partly)

    def _linked(self, doc: NamedNode, limit: int | None, offset: int = 0) -> tuple[dict[str, DocumentAnswer], int, int]:
        """The traces linked to ``doc`` with their details, newest first, how many link it in all,
        and how many questions its linked stages name (more than that total when some trace's
        stages are linked and the trace is not): ``lineage/document-page`` orders and counts
        them by their trace links (one start each) and cuts the ``limit`` after ``offset`` (all
        when ``limit`` is None), then ``lineage/document-traces`` reads the details of those traces
        only. For every trace (no limit, no offset) the questions are not counted (a look-up per
        stage link): a stage resting on ``doc`` that no linked trace holds counts one more."""
        total = staged = 0
        stages: int | None = None  # every trace listed: how many stages rest on doc, linked traces' or not
        started: dict[str, str | None] = {}  # trace (session, or question without one) -> its start, newest first
        for row in self._select("lineage/document-page", document=doc, limit=limit, offset=offset):
            if row.get("total") is not None:
                total = _int(row["total"]) or 0
            elif row.get("staged") is not None:
                staged = _int(row["staged"]) or 0
            elif row.get("stages") is not None:
                stages = _int(row["stages"]) or 0
            elif isinstance(row.get("trace"), NamedNode):
                started.setdefault(row["trace"].value, _str(row.get("started")))
        if not started:
            return {}, total, max(staged, 1 if stages else 0)
        # (every trace too, the listing cut nowhere: the same two queries. One query from the links
        # instead let Oxigraph read the answers' derivations over the whole retrieval graph, 0.5 s)
        rows = self._trace_rows(doc, list(started))
        if stages is not None:
            # every linked trace was read: a stage resting on doc that none of them holds is a
            # trace's whose trace link is missing (recorded by an older ragprov): one more than total
            found = len({row["stage"].value for row in rows})
            staged = total + 1 if stages > found else total
        by_trace: dict[str, DocumentAnswer] = {}
        derived: set[str] = set()  # traces whose question derives from a step and have no session: sub-traces
        for row in rows:
            trace, q = row["trace"].value, row["question"]
            ans = by_trace.get(trace)
            if ans is None:
                ans = by_trace[trace] = DocumentAnswer(q, _str(row["query"]) or "", started=started[trace])
            parent = row.get("parentSession")
            if ans.parent_question is None and isinstance(parent, NamedNode) and parent.value.endswith("/session"):
                ans.parent_question = NamedNode(parent.value[: -len("/session")])  # {question}/session
            if isinstance(row.get("callerStep"), NamedNode):
                derived.add(trace)
            _add(ans.stages, row["stage"])
            if ans.kind is None or row["type"].value in QUESTION_KINDS:  # a known kind over another subtype
                ans.kind = _kind(row["type"])
            if row.get("answerDocument") is not None:  # what derives from the stage and has a text: the answer
                _add(ans.answers, row.get("answer"))
                _add(ans.answer_documents, row["answerDocument"])
        # a sub-trace built by TrustGraph has no session to name its caller's: the nearest agent up
        # the step that ran it (trace/caller, one query per such sub-trace)
        for key in sorted(derived):
            if by_trace[key].parent_question is None:
                by_trace[key].parent_question = nearest_caller(self._select("trace/caller", question=by_trace[key].question))
        # newest first, as the page listed them; keyed by question, as the link-free look-ups are
        by_question = {by_trace[t].question.value: by_trace[t] for t in started if t in by_trace}
        return by_question, total, staged

    def _trace_rows(self, doc: NamedNode, traces: list[str]) -> list[dict]:
        """``lineage/document-traces`` of ``traces``: read as sessions first, then as questions
        without a session those that found nothing (a trace is one or the other: a trace ragprov
        recorded spares the look-up that fails)."""
        rows = list(self._select("lineage/document-traces", document=doc, traces=[NamedNode(t) for t in traces], shape="session"))
        found = {row["trace"].value for row in rows}
        rest = [NamedNode(t) for t in traces if t not in found]
        if rest:
            rows += self._select("lineage/document-traces", document=doc, traces=rest, shape="question")
        return rows

    def _fill_items(self, doc: NamedNode, by_question: dict[str, DocumentAnswer]) -> None:
        """The kept items that tie each listed trace to ``doc`` (``lineage/document-answers`` from
        the document's side: the variant from given questions misses edges on Virtuoso)."""
        rows = self._select("lineage/document-answers", document=doc, facts_graph=self.facts_graph)
        for row in rows:
            q = row.get("question")
            if isinstance(q, NamedNode) and q.value in by_question:
                self._add_item(by_question[q.value], row)

    @staticmethod
    def _add_item(ans: DocumentAnswer, row: dict) -> None:
        via, item = _str(row.get("via")), row.get("item")
        _add(ans.items, item)
        if via == "statement":
            _add(ans.statements, item)
            if all(row.get(k) is not None for k in ("es", "ep", "eo")):
                _add(ans.edges, Triple(row["es"], row["ep"], row["eo"]))
        elif via == "chunk":
            _add(ans.chunks, item)

    def _tied(self, doc: NamedNode, limit: int | None) -> dict[str, DocumentAnswer]:
        """The traces tied to ``doc`` by link-free look-ups: from the document to what was derived
        from it, the selections that kept those and their stages (``lineage/document-answers``; with
        ``limit`` a first page from ``lineage/document-questions``), then their details."""
        if limit is None:
            rows = self._select("lineage/document-answers", document=doc, facts_graph=self.facts_graph)
        else:
            found = self._select("lineage/document-questions", document=doc, facts_graph=self.facts_graph, limit=limit)
            page = [r["question"] for r in found]
            rows = self._select("lineage/document-answers", document=doc, facts_graph=self.facts_graph, questions=page) if page else []
        by_question: dict[str, DocumentAnswer] = {}
        stages: dict[str, NamedNode] = {}
        for row in rows:
            q = row.get("question")
            if not isinstance(q, NamedNode):
                continue
            ans = by_question.get(q.value)
            if ans is None:
                ans = by_question[q.value] = DocumentAnswer(q, "")
            if isinstance(row.get("stage"), NamedNode):
                stages[row["stage"].value] = q
                _add(ans.stages, row["stage"])
            self._add_item(ans, row)
        if by_question:
            self._details(by_question, stages)
        return by_question

    def _details(self, by_question: dict[str, DocumentAnswer], stages: dict[str, NamedNode]) -> None:
        """Fill each trace's question text, kind, start, caller and answers (``lineage/answer-details``)."""
        rows = self._select("lineage/answer-details", questions=[a.question for a in by_question.values()],
                            stages=[NamedNode(s) for s in stages])
        derived: set[str] = set()  # questions derived from a stage with no session: TrustGraph's sub-traces
        for row in rows:
            stage = row.get("stage")
            if isinstance(stage, NamedNode):  # what the stage derived is the answer, not a later stage
                ans = by_question[stages[stage.value].value]
                _add(ans.answers, row.get("answer"))
                _add(ans.answer_documents, row.get("answerDocument"))
                continue
            q = row.get("question")
            found = by_question.get(q.value) if isinstance(q, NamedNode) else None
            if found is None:
                continue
            ans = found
            if row.get("query") is not None and not ans.query:
                ans.query = _str(row["query"]) or ""
            if row.get("type") is not None and ans.kind is None:
                ans.kind = _kind(row["type"])
            if row.get("started") is not None and ans.started is None:
                ans.started = _str(row["started"])
            if ans.parent_question is None and isinstance(row.get("parentQuestion"), NamedNode):
                ans.parent_question = row["parentQuestion"]
            if isinstance(row.get("callerStep"), NamedNode):
                derived.add(ans.question.value)
            parent_session = row.get("parentSession")
            if ans.parent_question is None and isinstance(parent_session, NamedNode) and parent_session.value.endswith("/session"):
                ans.parent_question = NamedNode(parent_session.value[: -len("/session")])  # {question}/session
        for key in sorted(derived):  # the nearest agent up the step that ran it (one query each)
            ans = by_question[key]
            if ans.parent_question is None:
                ans.parent_question = nearest_caller(self._select("trace/caller", question=ans.question))

    def any_edge(self) -> Triple:
        """Some edge that a Statement reifies (for demos and smoke tests)."""
        text = self.catalog.render("lineage/sample-edges", self.store.dialect, limit=1)
        rows = self.store.select(text)
        if not rows:
            raise NotFoundError("no statement in urn:graph:source: load some facts first")
        r = rows[0]
        return Triple(r["s"], r["p"], r["o"])
