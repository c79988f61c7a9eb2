"""Reading traces back: list, show, one stage, incomplete traces, delete — a fixed number of queries each.

Every view is one template rendered in the store's dialect (``queries/trace/*``); none issues a
query per stage or per edge, so the cost of a view does not grow with the size of the trace.

>>> from ragprov.store import open_store
>>> from ragprov.record import Recorder
>>> store = open_store("memory:")
>>> t = Recorder(store).graph_rag("Who is Marley?")
>>> nav = Navigator(store)
>>> [s.query for s in nav.list_traces()]
['Who is Marley?']
>>> nav.trace(t.question).summary.complete
False
"""

from __future__ import annotations

import datetime as _dt
import re

from pyoxigraph import NamedNode

from ..errors import InvalidValueError, NotFoundError
from ..namespaces import PROV, TG
from ..sparql.escape import to_named_node
from ..sparql.templates import Catalog
from ..sparql.templates import catalog as default_catalog
from .model import Node, Stage, Trace, TraceSummary, assemble, describe, property_value, stage_of, summary_of

__all__ = ["TRACE_KINDS", "Navigator"]

_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")

QUESTION_PATTERNS = (
    "urn:trustgraph:question:{id}",
    "urn:trustgraph:docrag:{id}",
    "urn:trustgraph:agent:{id}",
    "urn:ragprov:local:{id}",
    "urn:ragprov:global:{id}",
    "urn:ragprov:drift:{id}",
    "urn:ragprov:basic:{id}",
)
"""The question IRIs of §4 (and of the Microsoft GraphRAG modes), by session id."""

TRACE_KINDS = {
    "graph-rag": TG.GraphRagQuestion,
    "doc-rag": TG.DocRagQuestion,
    "agent": TG.AgentQuestion,
    "local": TG.LocalSearchQuestion,
    "global": TG.GlobalSearchQuestion,
    "drift": TG.DriftSearchQuestion,
    "basic": TG.BasicSearchQuestion,
}


_USED = NamedNode("http://www.w3.org/ns/prov#used")


def nearest_caller(rows) -> NamedNode | None:
    """The caller among ``trace/caller``'s rows: the one no other candidate names as above it
    (?outer; a trace built by TrustGraph may have agents within agents up its derivations)."""
    candidates = {r["caller"].value: r["caller"] for r in rows if isinstance(r.get("caller"), NamedNode)}
    above = {r["outer"].value for r in rows if isinstance(r.get("outer"), NamedNode)}
    nearest = sorted(k for k in candidates if k not in above) or sorted(candidates)
    return candidates[nearest[0]] if nearest else None


def _kind_iri(kind: str | NamedNode | None) -> NamedNode | None:
    if kind is None or isinstance(kind, NamedNode):
        return kind
    try:
        return TRACE_KINDS[kind]
    except KeyError:
        raise InvalidValueError(f"unknown trace type {kind!r}: use one of {', '.join(TRACE_KINDS)}") from None


class Navigator:
    """Trace views over a store."""

    def __init__(self, store, *, catalog: Catalog | None = None):
        self.store = store
        self.catalog = catalog or default_catalog()

    def _select(self, name: str, **params):
        return self.store.select(self.catalog.render(name, self.store.dialect, **params))

    def list_traces(
        self, *, kind: str | NamedNode | None = None, since: _dt.datetime | None = None, limit: int = 20
    ) -> list[TraceSummary]:
        """Top-level traces, newest first (one query; a second when some listed trace has no end time:
        a trace built by TrustGraph records none, and is complete when it reached its end stage)."""
        rows = self._select("trace/list", kind=_kind_iri(kind), since=since, limit=limit)
        out = []
        for row in rows:
            node = Node(row["question"])
            for var, prop in (("query", TG.query), ("model", TG.llmModel)):
                if var in row:
                    node.props[prop.value].append(row[var])
            summary = summary_of(node)
            summary.kind = row["type"].value.rsplit("/", 1)[1] if "type" in row else "Question"
            summary.started = property_value(PROV.startedAtTime, row.get("started"))
            summary.ended = property_value(PROV.endedAtTime, row.get("ended"))
            out.append(summary)
        # TrustGraph records no end time: a trace it built is complete when it reached its end stage
        # (one more query, for the listed traces without an end time only)
        open_ended = {s.question.value: s for s in out if s.ended is None}
        if open_ended:
            questions = [s.question for s in open_ended.values()]
            for row in self._select("trace/answered", questions=questions):
                open_ended[row["question"].value].answered = True
        return out

    def resolve(self, ref: NamedNode | str) -> NamedNode:
        """The question IRI ``ref`` names: an IRI as given, or a bare session id (the UUID at the
        end of a question IRI) looked up among every kind of trace (one query)."""
        if isinstance(ref, NamedNode) or ":" in ref:
            return to_named_node(ref)
        if not _SESSION_ID.match(ref):
            raise InvalidValueError(f"not a question IRI or a session id: {ref!r}")
        candidates = [NamedNode(pattern.format(id=ref)) for pattern in QUESTION_PATTERNS]
        found = [row["question"] for row in self._select("trace/resolve", candidates=candidates)]
        if not found:
            raise NotFoundError(f"no trace with session id {ref}; see `ragprov traces`")
        return found[0]

    def trace(self, question: NamedNode | str) -> Trace:
        """The whole trace of ``question`` (an IRI or a bare session id): stages in order,
        selections, content (one query, two for a bare id)."""
        q = self.resolve(question)
        trace = assemble(q, describe(self.trace_rows(q)))
        if trace is None:
            raise NotFoundError(
                f"no trace with question {q.value} (a stage IRI? see `ragprov trace stage`); see `ragprov traces`"
            )
        return trace

    def trace_rows(self, question: NamedNode):
        """The ``?node ?p ?o`` rows of ``trace/show`` for a resolved question: one query for a
        current trace, a second (the older shape's walk) when no session used the question."""
        rows = self._select("trace/show", question=question, legacy=False)
        if not any(row.get("p") == _USED and row.get("o") == question for row in rows):
            rows = self._select("trace/show", question=question, legacy=True)
        return rows

    def caller(self, question: NamedNode | str) -> NamedNode | None:
        """The question of the trace that ran ``question`` as a sub-trace (None for a top-level one)."""
        return nearest_caller(self._select("trace/caller", question=to_named_node(question)))

    def stage(self, stage: NamedNode | str) -> Stage:
        """One stage in detail, with its selected edges or chunks (one query)."""
        iri = to_named_node(stage)
        nodes = describe(self._select("trace/stage", stage=iri))
        if iri.value not in nodes:
            raise NotFoundError(f"no trace stage {iri.value}")
        return stage_of(nodes[iri.value], nodes)

    def labels(self, terms, *, facts_graph: NamedNode | None = None) -> dict[str, str]:
        """The ``rdfs:label`` of each IRI among ``terms`` (and inside quoted triples), one query."""
        from pyoxigraph import Triple

        iris: dict[str, NamedNode] = {}
        for term in terms:
            parts = (term.subject, term.predicate, term.object) if isinstance(term, Triple) else (term,)
            for part in parts:
                if isinstance(part, NamedNode):
                    iris[part.value] = part
        if not iris:
            return {}
        rows = self._select("trace/labels", terms=list(iris.values()), facts_graph=facts_graph)
        return {row["term"].value: row["label"].value for row in rows if "label" in row}

    def incomplete(self, *, before: _dt.datetime | None = None, limit: int = 100) -> list[tuple[TraceSummary, int]]:
        """Traces that never ended, oldest first, with how many stages they recorded (one query)."""
        out = []
        for row in self._select("trace/incomplete", before=before, limit=limit):
            summary = TraceSummary(
                question=row["question"],
                kind=row["type"].value.rsplit("/", 1)[1],
                query=row["query"].value,
                started=property_value(PROV.startedAtTime, row["started"]),
            )
            out.append((summary, int(row["stages"].value)))
        return out

    def delete(self, question: NamedNode | str) -> None:
        """Delete one trace with its sub-traces and library content (one update).

        A sub-trace is deleted with the trace that ran it, not alone: its caller's observation
        derives from it, and would be left pointing at nothing."""
        q = self.resolve(question)
        if not self.store.ask(self.catalog.render("trace/exists", self.store.dialect, question=q)):
            raise NotFoundError(f"no trace with question {q.value}; nothing deleted")
        caller = self.caller(q)
        if caller is not None:
            raise InvalidValueError(
                f"{q.value} is a sub-trace run by {caller.value}: delete that trace (its sub-traces go with it); "
                "nothing deleted"
            )
        self._delete(question=q, questions=None)

    def _delete(self, **which) -> None:
        # one request per trace shape (docs/trace-shape.md): each trace is in one shape, so each is
        # deleted whole by one of them, and no engine has to plan a union of the two (Virtuoso fails it)
        for shape in ({}, {"legacy": True}, {"derived": True}):  # the derived shape: traces built by TrustGraph
            self.store.update(self.catalog.render("trace/delete", self.store.dialect, **shape, **which))

    def roots_before(self, before: _dt.datetime) -> list[NamedNode]:
        """The top-level traces started before ``before`` (what :meth:`delete_before` deletes)."""
        rows = self.store.select(self.catalog.render("trace/roots_before", self.store.dialect, before=before))
        return sorted((r["root"] for r in rows if isinstance(r.get("root"), NamedNode)), key=lambda n: n.value)

    def count_before(self, before: _dt.datetime) -> int:
        """How many top-level traces :meth:`delete_before` would delete (sub-traces not counted)."""
        return len(self.roots_before(before))

    #: top-level traces deleted per request by :meth:`delete_before` (each request is atomic)
    DELETE_BATCH = 100

    def delete_before(self, before: _dt.datetime) -> None:
        """Retention: delete every top-level trace started before ``before``, with its sub-traces,
        :attr:`DELETE_BATCH` traces per request (one query picks them, so no engine has to plan the
        time filter inside the delete)."""
        roots = self.roots_before(before)
        for start in range(0, len(roots), self.DELETE_BATCH):
            batch = roots[start : start + self.DELETE_BATCH]
            self._delete(question=None, questions=batch)
