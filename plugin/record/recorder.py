"""The Recorder: the Python API a retrieval stage calls to write its provenance (§4–§6).

Each stage is one template rendered into one ``INSERT DATA`` request, so a stage is atomic: it is
in the store whole or not at all. With ``Recorder(store, buffered=True)`` a trace keeps its stages'
updates and sends them as one request when it ends (synthesis or conclusion): one round trip, the
whole trace or nothing. Each call returns the :class:`ExplainEvent` the live stream carries either
way. Pipelines talk to a recorder, never to a store.

>>> from ragprov.store import open_store
>>> from pyoxigraph import NamedNode, Triple
>>> recorder = Recorder(open_store("memory:"))
>>> trace = recorder.graph_rag("Who is Scrooge?", model="offline")
>>> trace.grounding(["Scrooge"]).stage
'grounding'
>>> edge = Triple(NamedNode("urn:e:scrooge"), NamedNode("urn:r:partner"), NamedNode("urn:e:marley"))
>>> _ = trace.exploration([NamedNode("urn:e:scrooge")], edge_count=12)
>>> _ = trace.focus([EdgeSelection(edge, reasoning="names Scrooge", score=0.9, concept="Scrooge")])
>>> trace.synthesis("Scrooge is Marley's partner.").explain_id.value.startswith("urn:trustgraph:prov:synthesis:")
True
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as _dt
import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pyoxigraph import NamedNode, Triple

from .. import __version__
from ..clock import utcnow
from ..errors import ConfigurationError, InvalidValueError, RecordingError
from ..namespaces import RETRIEVAL_GRAPH, TG
from ..sparql.dialect import Dialect
from ..sparql.escape import _IRI_FORBIDDEN, to_named_node
from ..sparql.templates import Catalog, join_updates
from ..sparql.templates import catalog as default_catalog
from .answer import NO_SUPPORT, AnswerSupport
from .events import ExplainEvent, triples_by_graph

if TYPE_CHECKING:
    from ..navigate.model import Trace as NavigatedTrace
    from .microsoft import MicrosoftTrace

__all__ = [
    "SOFTWARE_AGENT",
    "AgentTrace",
    "ChunkSelection",
    "DocRagTrace",
    "EdgeSelection",
    "GraphRagTrace",
    "HopStats",
    "Recorder",
    "TraceRecording",
    "utcnow",
]

SOFTWARE_AGENT = NamedNode(f"urn:ragprov:software:ragprov:{__version__}")
SOFTWARE_LABEL = f"ragprov {__version__}"


def session_of(question: NamedNode) -> NamedNode:
    """The retrieval session activity that answers ``question`` (an entity): ``{question}/session``.

    >>> session_of(NamedNode("urn:trustgraph:question:1")).value
    'urn:trustgraph:question:1/session'
    """
    return NamedNode(f"{question.value}/session")


@dataclasses.dataclass(frozen=True)
class EdgeSelection:
    """One kept edge: the triple with its original terms, why it was kept, and how strongly."""

    edge: Triple
    reasoning: str | None = None
    score: float | None = None
    concept: str | None = None


@dataclasses.dataclass(frozen=True)
class ChunkSelection:
    """One kept chunk after reranking, with its score."""

    chunk: NamedNode
    score: float | None = None


class _EdgeRow(NamedTuple):
    iri: NamedNode
    edge: Triple
    rank: int
    reasoning: str | None
    score: float | None
    concept: str | None


class _ChunkRow(NamedTuple):
    iri: NamedNode
    chunk: NamedNode
    rank: int
    score: float | None


class _HopRow(NamedTuple):
    iri: NamedNode
    hop: int
    candidates: int
    kept: int


@dataclasses.dataclass(frozen=True)
class HopStats:
    """How many candidate edges one expansion hop found, and how many it kept."""

    hop: int
    candidates: int
    kept: int


class Recorder:
    """Writes traces into a store, one update per stage (or, ``buffered``, one per trace).

    ``clock`` gives the timestamps (tests pass a fixed clock); ``new_id`` the session ids.
    """

    def __init__(
        self,
        store,
        *,
        catalog: Catalog | None = None,
        clock: Callable[[], _dt.datetime] = utcnow,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        buffered: bool = False,
    ):
        if not callable(getattr(store, "update", None)) or not isinstance(getattr(store, "dialect", None), Dialect):
            raise ConfigurationError(
                f"a Recorder writes to a store, got {type(store).__name__}: pass open_store(...) (memory:, a directory or a URL)"
            )
        self.store = store
        self.catalog = catalog or default_catalog()
        self.clock = clock
        self.new_id = new_id
        self.buffered = buffered
        self._owners: collections.OrderedDict[str, NamedNode] = collections.OrderedDict()

    _OWNERS_KEPT = 100_000

    def note_stage(self, stage: NamedNode, question: NamedNode) -> None:
        """Remember which question a stage belongs to (so a sub-trace run for it can name its caller)."""
        self._owners[stage.value] = question
        if len(self._owners) > self._OWNERS_KEPT:
            self._owners.popitem(last=False)

    def caller_of(self, used: NamedNode | None) -> NamedNode | None:
        """The question whose trace holds stage ``used``, if this recorder wrote it."""
        return self._owners.get(used.value) if used is not None else None

    def caller_session_of(self, used: NamedNode | None) -> NamedNode | None:
        """The retrieval session whose trace holds stage ``used``, if this recorder wrote it."""
        caller = self.caller_of(used)
        return session_of(caller) if caller is not None else None

    @property
    def dialect(self) -> Dialect:
        return self.store.dialect

    def new_buffer(self) -> list[str] | None:
        """Where a trace keeps its stages' updates until it ends: a list when ``buffered``, else None."""
        return [] if self.buffered else None

    def flush(self, buffer: list[str] | None) -> None:
        """Send a trace's kept updates as one request (one transaction); a failed send raises, or is
        spooled when the store is a :class:`~ragprov.store.spool.SpoolingStore`."""
        if buffer:
            text = join_updates(buffer)
            buffer.clear()
            self.store.update(text)

    def documents_ahead(self, edges: Sequence[Triple], items: Sequence[NamedNode], reports: Sequence[NamedNode]) -> list[NamedNode] | None:
        """The documents a stage's kept ``edges`` and ``items`` (and the members of the kept
        ``reports``' communities) were extracted from, read now (``record/document-links``) for the
        stage's template to write as data — or None: the template walks them in its own update.

        Read ahead only when the store keeps this command's updates until it ends
        (:meth:`~ragprov.store.embedded.EmbeddedStore.defer_updates`: ``ragprov ask`` reads through
        a read-only handle and opens the store for writing only to send its one update, under the
        directory's lock). Its reads then see what that update will start from, and the walk reads
        only what no trace writes (urn:graph:source and the index's community members), so it
        finds the same documents now as in the update: the same triples, while the writable open
        (whose RocksDB compaction burns CPU in background threads for as long as it lasts) no
        longer waits for a dozen walks (DRIFT on the 1M-fact bench store: about 45 ms of the
        update). Otherwise the walk stays in the update, where the store computes it atomically."""
        from ..store.staging import keeps_updates

        if not keeps_updates(self.store):
            return None
        if not edges and not items:
            return []
        text = self.catalog.render("record/document-links", self.dialect, edges=list(edges), items=list(items), reports=list(reports))
        documents = [row.get("document") for row in self.store.select(text)]
        if not all(isinstance(d, NamedNode) for d in documents):  # a root that is not an IRI: the update walks it
            return None
        return documents

    def write(self, template: str, stage: str, explain_id: NamedNode, *, into: list[str] | None = None, **params: Any) -> ExplainEvent:
        """Render ``template`` in the store's dialect, run it as one update (or keep it ``into`` a
        trace's buffer, see :meth:`flush`), return the event."""
        dialect = self.dialect
        text = self.catalog.render(template, dialect, **params)
        if into is None:
            self.store.update(text)
        else:
            into.append(text)
        if dialect is Dialect.RDF12:
            source = lambda: triples_by_graph(text)  # noqa: E731
        else:
            source = lambda: triples_by_graph(self.catalog.render(template, Dialect.RDF12, **params))  # noqa: E731
        return ExplainEvent(explain_id, RETRIEVAL_GRAPH, stage, _source=source)

    # -- sessions ------------------------------------------------------------------------------
    def graph_rag(
        self, query: str, *, model: str | None = None, used: NamedNode | None = None, session_id: str | None = None
    ) -> GraphRagTrace:
        """Start a GraphRAG trace: records the Question now (see :attr:`TraceRecording.started_event`)."""
        return GraphRagTrace(self, query, model=model, used=used, session_id=session_id or self.new_id())

    def doc_rag(self, query: str, *, model: str | None = None, used: NamedNode | None = None, session_id: str | None = None) -> DocRagTrace:
        """Start a DocRAG trace: records the Question now."""
        return DocRagTrace(self, query, model=model, used=used, session_id=session_id or self.new_id())

    def agent(self, query: str, *, model: str | None = None, used: NamedNode | None = None, session_id: str | None = None) -> AgentTrace:
        """Start a ReAct agent trace: records the Question now."""
        return AgentTrace(self, query, model=model, used=used, session_id=session_id or self.new_id())

    def microsoft(self, mode: str, query: str, *, model: str | None = None, used: NamedNode | None = None,
                  session_id: str | None = None, previous_turn: NamedNode | None = None) -> MicrosoftTrace:
        """Start a Microsoft GraphRAG trace (``mode``: local, global, drift or basic): records the Question
        now; ``previous_turn``: the Synthesis of the conversation turn this question continues."""
        from .microsoft import MicrosoftTrace

        return MicrosoftTrace(self, mode, query, model=model, used=used, session_id=session_id or self.new_id(),
                              previous_turn=previous_turn)



def _sequence_of(values: object, kind: type, what: str) -> list:
    """``values`` as a list of ``kind``; an :class:`InvalidValueError` for anything else (a lone
    string is not a sequence of concepts)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, Sequence)):
        raise InvalidValueError(f"{what}: expected a list of {kind.__name__}, got {type(values).__name__}: {values!r}")
    out = list(values)
    for v in out:
        if not isinstance(v, kind):
            raise InvalidValueError(f"{what}: expected {kind.__name__} items, got {type(v).__name__}: {v!r}")
    return out


class TraceRecording:
    """One session's trace as it is recorded, stage by stage. Subclasses fix the IRIs and the
    stage order. The trace itself, read back, is :class:`ragprov.navigate.Trace` (:meth:`read`)."""

    question_type: NamedNode
    label: str

    def __init__(self, recorder: Recorder, query: str, *, model: str | None, used: NamedNode | None, session_id: str,
                 previous_turn: NamedNode | None = None):
        if not isinstance(query, str) or not query.strip():
            got = "an empty question" if isinstance(query, str) else f"{type(query).__name__} {query!r}"
            raise InvalidValueError(f"a question needs some text: got {got}")
        if not isinstance(session_id, str) or not session_id or _IRI_FORBIDDEN.search(session_id):
            raise InvalidValueError(f"a session id is text that may end an IRI (no spaces, <, >, quotes…): got {session_id!r}")
        used = to_named_node(used) if used is not None else None
        self.recorder = recorder
        self.id = session_id
        self.query = query
        self.model = model
        self.question = self.question_iri()
        self.session = session_of(self.question)
        self.last: NamedNode | None = None  # the latest stage entity
        self.ended = False
        self.events: list[ExplainEvent] = []
        self.buffer = recorder.new_buffer()
        self.started_event = self._write(
            "record/question",
            "question",
            self.question,
            question=self.question,
            session=self.session,
            question_type=self.question_type,
            label=self.label,
            query=query,
            started=recorder.clock(),
            software=SOFTWARE_AGENT,
            software_label=SOFTWARE_LABEL,
            model=model,
            used=used,
            informed_by=recorder.caller_session_of(used),
            previous_turn=previous_turn,
        )

    def question_iri(self) -> NamedNode:
        raise NotImplementedError

    def read(self) -> NavigatedTrace:
        """The trace as the store holds it now (what ``ragprov trace show`` reads)."""
        from ..navigate import Navigator

        return Navigator(self.recorder.store).trace(self.question)

    def _write(self, template: str, stage: str, iri: NamedNode, **params: Any) -> ExplainEvent:
        if self.ended:
            raise RecordingError(f"trace {self.question.value} has ended: no stage can follow")
        event = self.recorder.write(template, stage, iri, into=self.buffer, **params)
        self.events.append(event)
        if iri != self.question:
            self.recorder.note_stage(iri, self.question)
        return event

    def _expect(self, stage: str, allowed: Sequence[str | None]) -> None:
        if self.ended:
            raise RecordingError(f"trace {self.question.value} has ended: no stage can follow")
        current = self.events[-1].stage if len(self.events) > 1 else None
        if current not in allowed:
            after = f"after {current}" if current else "first"
            raise RecordingError(f"{stage} cannot be recorded {after} in a {self.label} trace")


class _RetrievalTrace(TraceRecording):
    """GraphRAG and DocRAG: Question → Grounding → Exploration → [Focus] → Synthesis."""

    prefix: str

    def stage_iri(self, stage: str) -> NamedNode:
        raise NotImplementedError

    def grounding(
        self,
        concepts: Sequence[str],
        *,
        in_token: int | None = None,
        out_token: int | None = None,
        prompt: str | None = None,
    ) -> ExplainEvent:
        """The concepts the question was grounded in (first stage: generated by the question)."""
        self._expect("grounding", [None])
        concepts = _sequence_of(concepts, str, "concepts")
        iri = self.stage_iri("grounding")
        event = self._write(
            "record/grounding", "grounding", iri,
            grounding=iri, question=self.question, session=self.session, generated=self.recorder.clock(), concepts=list(concepts),
            in_token=in_token, out_token=out_token, prompt=prompt,
        )
        self.last = iri
        return event

    def _focus(self, template: str, rows: Sequence[_EdgeRow | _ChunkRow], *, in_token: int | None, out_token: int | None,
               prompt: str | None) -> ExplainEvent:
        """The Focus: the kept selections ``rows`` (best first), written with ``template``."""
        iri = self.stage_iri("focus")
        self.selection_iris = [row.iri for row in rows]  # what the synthesis cites as support
        event = self._write(
            template, "focus", iri, focus=iri, question=self.question, derived_from=self.last, session=self.session,
            generated=self.recorder.clock(), selections=list(rows), in_token=in_token, out_token=out_token, prompt=prompt,
        )
        self.last = iri
        return event

    def synthesis(self, answer: str, *, in_token: int | None = None, out_token: int | None = None, prompt: str | None = None,
                  support: AnswerSupport = NO_SUPPORT) -> ExplainEvent:
        """The answer, its text in the library graph, and what supports it (``support``); ends
        the retrieval session."""
        self._expect("synthesis", ["exploration", "focus"])
        iri = self.stage_iri("synthesis")
        reranked = isinstance(self, DocRagTrace) and self.events[-1].stage == "focus"
        event = self._write(
            "record/synthesis", "synthesis", iri,
            synthesis=iri, derived_from=self.last, session=self.session, generated=self.recorder.clock(),
            also_derived_from=self.stage_iri("exploration") if reranked else None,
            document=NamedNode(f"urn:trustgraph:answer:{self.id}"), content=answer,
            in_token=in_token, out_token=out_token, prompt=prompt, **support.params(iri),
        )
        self.last = iri
        self.ended = True
        self.recorder.flush(self.buffer)
        return event


class GraphRagTrace(_RetrievalTrace):
    """A GraphRAG session (IRIs of §4: ``urn:trustgraph:question:{id}``, ``urn:trustgraph:prov:…``)."""

    question_type = TG.GraphRagQuestion
    label = "GraphRAG question"

    def question_iri(self) -> NamedNode:
        return NamedNode(f"urn:trustgraph:question:{self.id}")

    def stage_iri(self, stage: str) -> NamedNode:
        return NamedNode(f"urn:trustgraph:prov:{stage}:{self.id}")

    def exploration(self, entities: Sequence[NamedNode], edge_count: int, *, hops: Sequence[HopStats] = ()) -> ExplainEvent:
        """The seed entities and the size of the explored subgraph (with per-hop counts)."""
        self._expect("exploration", ["grounding"])
        iri = self.stage_iri("exploration")
        event = self._write(
            "record/exploration",
            "exploration",
            iri,
            exploration=iri,
            question=self.question,
            derived_from=self.last,
            session=self.session,
            generated=self.recorder.clock(),
            edge_count=edge_count,
            entities=list(entities),
            hops=[
                _HopRow(NamedNode(f"urn:trustgraph:prov:hop:{self.id}:{h.hop}"), h.hop, h.candidates, h.kept)
                for h in hops
            ],
        )
        self.last = iri
        return event

    def focus(
        self,
        selections: Sequence[EdgeSelection],
        *,
        in_token: int | None = None,
        out_token: int | None = None,
        prompt: str | None = None,
    ) -> ExplainEvent:
        """The kept edges, best first, each an EdgeSelection ``urn:trustgraph:prov:edge:{id}:{n}``."""
        self._expect("focus", ["exploration"])
        selections = _sequence_of(selections, EdgeSelection, "selections")
        prefix = f"urn:trustgraph:prov:edge:{self.id}:"
        rows = [
            _EdgeRow(NamedNode(f"{prefix}{n}"), s.edge, n, s.reasoning, s.score, s.concept)
            for n, s in enumerate(selections, start=1)
        ]
        return self._focus("record/focus", rows, in_token=in_token, out_token=out_token, prompt=prompt)


class DocRagTrace(_RetrievalTrace):
    """A DocRAG session (``urn:trustgraph:docrag:{id}`` and ``…/{stage}``)."""

    question_type = TG.DocRagQuestion
    label = "DocRAG question"

    def question_iri(self) -> NamedNode:
        return NamedNode(f"urn:trustgraph:docrag:{self.id}")

    def stage_iri(self, stage: str) -> NamedNode:
        return NamedNode(f"urn:trustgraph:docrag:{self.id}/{stage}")

    def exploration(self, chunks: Sequence[NamedNode], *, chunk_count: int | None = None) -> ExplainEvent:
        """The retrieved chunks (``chunk_count`` defaults to how many are given)."""
        self._expect("exploration", ["grounding"])
        iri = self.stage_iri("exploration")
        event = self._write(
            "record/chunk-exploration", "exploration", iri,
            exploration=iri, question=self.question, derived_from=self.last, session=self.session, generated=self.recorder.clock(),
            chunk_count=len(chunks) if chunk_count is None else chunk_count, chunks=list(chunks),
        )
        self.last = iri
        return event

    def focus(
        self,
        selections: Sequence[ChunkSelection],
        *,
        in_token: int | None = None,
        out_token: int | None = None,
        prompt: str | None = None,
    ) -> ExplainEvent:
        """The chunks kept after reranking, best first (tokens when an LLM reranked them)."""
        self._expect("focus", ["exploration"])
        selections = _sequence_of(selections, ChunkSelection, "selections")
        rows = [
            _ChunkRow(NamedNode(f"urn:trustgraph:docrag:{self.id}/chunk/{n}"), s.chunk, n, s.score)
            for n, s in enumerate(selections, start=1)
        ]
        return self._focus("record/chunk-focus", rows, in_token=in_token, out_token=out_token, prompt=prompt)


class AgentTrace(TraceRecording):
    """A ReAct agent session: Analysis → Observation → … → Conclusion (``urn:trustgraph:agent:{id}``)."""

    question_type = TG.AgentQuestion
    label = "agent question"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.step = 0
        self.pending_analysis: NamedNode | None = None

    def question_iri(self) -> NamedNode:
        return NamedNode(f"urn:trustgraph:agent:{self.id}")

    def analysis(
        self,
        thought: str,
        action: str,
        arguments: str,
        *,
        in_token: int | None = None,
        out_token: int | None = None,
        prompt: str | None = None,
    ) -> ExplainEvent:
        """A thought and the tool call it chose — recorded *before* the tool runs."""
        if self.pending_analysis is not None:
            raise RecordingError("an analysis is waiting for its observation: record that first")
        self.step += 1
        iri = NamedNode(f"{self.question.value}/i{self.step}")
        event = self._write(
            "record/analysis", "analysis", iri,
            analysis=iri, session=self.session, derived_from=self.last or self.question,
            generated=self.recorder.clock(), step=self.step, thought_entity=NamedNode(f"{iri.value}/thought"),
            document=NamedNode(f"{iri.value}/thought/content"),
            thought=thought, action=action, arguments=arguments, in_token=in_token, out_token=out_token, prompt=prompt,
        )
        self.last = iri
        self.pending_analysis = iri
        return event

    def observation(
        self, content: str, *, duration: float, tool_error: str | None = None, sub_trace_last: NamedNode | None = None
    ) -> ExplainEvent:
        """What the tool returned (or its error): derived from the analysis, or from the last entity of
        the sub-trace the tool ran (whose question is derived from the analysis)."""
        if self.pending_analysis is None:
            raise RecordingError("an observation needs the analysis that called the tool: record that first")
        iri = NamedNode(f"{self.pending_analysis.value}/observation")
        event = self._write(
            "record/observation",
            "observation",
            iri,
            observation=iri,
            session=self.session,
            derived_from=sub_trace_last or self.pending_analysis,
            generated=self.recorder.clock(),
            step=self.step,
            document=NamedNode(f"{iri.value}/content"),
            content=content,
            duration=duration,
            tool_error=tool_error,
        )
        self.last = iri
        self.pending_analysis = None
        return event

    def conclusion(
        self,
        answer: str,
        *,
        termination_reason: str = "final-answer",
        in_token: int | None = None,
        out_token: int | None = None,
        support: AnswerSupport = NO_SUPPORT,
    ) -> ExplainEvent:
        """The final answer, why the loop stopped and what supports the answer (``support``: the
        items, in the tools' sub-traces, its passages stand for, and the candidates weighed); ends
        the retrieval session."""
        iri = NamedNode(f"{self.question.value}/final")
        event = self._write(
            "record/conclusion", "conclusion", iri,
            conclusion=iri, session=self.session, derived_from=self.last or self.question, generated=self.recorder.clock(),
            document=NamedNode(f"urn:trustgraph:answer:{self.id}"), content=answer,
            termination_reason=termination_reason, in_token=in_token, out_token=out_token, **support.answer_params(iri),
        )
        self.last = iri
        self.pending_analysis = None
        self.ended = True
        self.recorder.flush(self.buffer)
        return event
