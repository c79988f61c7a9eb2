"""Traces of the Microsoft GraphRAG modes (local, global, DRIFT and basic search), recorded stage
by stage like every other trace: Question → Grounding → [CommunitySelection] → Exploration → [MapResult… | DriftAction…]
→ Focus → Synthesis. The order is checked (a stage out of order raises
:class:`~ragprov.errors.RecordingError`), and the whole trace is one update per stage, or one per
trace when the recorder is ``buffered``.

IRIs: ``urn:ragprov:{mode}:{id}`` for the question and ``…/{stage}`` for its stages.

>>> from ragprov.store import open_store
>>> from ragprov.record import Recorder
>>> recorder = Recorder(open_store("memory:"))
>>> trace = recorder.microsoft("global", "What are the main themes?", model="offline")
>>> trace.question.value.startswith("urn:ragprov:global:")
True
>>> trace.grounding(["themes"]).stage
'grounding'
>>> trace.focus([], derived_from=[])
Traceback (most recent call last):
    ...
ragprov.errors.RecordingError: focus cannot be recorded after grounding in a Global search question trace
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyoxigraph import NamedNode

from ..errors import InvalidValueError
from ..namespaces import TG
from .answer import NO_SUPPORT, AnswerSupport
from .events import ExplainEvent
from .recorder import TraceRecording

if TYPE_CHECKING:
    from .recorder import Recorder

__all__ = ["MODES", "MicrosoftTrace"]

MODES: dict[str, tuple[NamedNode, str]] = {
    "local": (TG.LocalSearchQuestion, "Local search question"),
    "global": (TG.GlobalSearchQuestion, "Global search question"),
    "drift": (TG.DriftSearchQuestion, "DRIFT search question"),
    "basic": (TG.BasicSearchQuestion, "Basic search question"),
}
"""Each Microsoft GraphRAG mode's question type and label."""

# Which stage may follow which (None: the trace has only its Question so far).
_AFTER: dict[str, tuple[str | None, ...]] = {
    "grounding": (None,),
    "community-selection": ("grounding",),
    "exploration": ("grounding", "community-selection"),
    "map": ("exploration", "map"),
    "drift-action": ("exploration", "drift-action"),
    "focus": ("exploration", "map", "drift-action"),
    "synthesis": ("focus",),
}


class MicrosoftTrace(TraceRecording):
    """One local, global, DRIFT or basic search session (see :meth:`Recorder.microsoft`)."""

    def __init__(self, recorder: Recorder, mode: str, query: str, *, model: str | None, used: NamedNode | None, session_id: str,
                 previous_turn: NamedNode | None = None):
        if mode not in MODES:
            raise InvalidValueError(f"not a Microsoft GraphRAG mode: {mode!r} (one of {', '.join(MODES)})")
        self.mode = mode
        self.question_type, self.label = MODES[mode]
        super().__init__(recorder, query, model=model, used=used, session_id=session_id, previous_turn=previous_turn)

    def question_iri(self) -> NamedNode:
        return NamedNode(f"urn:ragprov:{self.mode}:{self.id}")

    def stage_iri(self, stage: str) -> NamedNode:
        return NamedNode(f"{self.question.value}/{stage}")

    def _stage(self, template: str, stage: str, iri: NamedNode, *, advance: bool = True, **params: Any) -> ExplainEvent:
        self._expect(stage, _AFTER[stage])
        event = self._write(template, stage, iri, question=self.question, session=self.session,
                            generated=self.recorder.clock(), **params)
        if advance:
            self.last = iri
        return event

    def grounding(self, concepts: Sequence[str], *, in_token: int | None = None, out_token: int | None = None,
                  prompt: str | None = None) -> ExplainEvent:
        """The concepts the question was grounded in."""
        iri = self.stage_iri("grounding")
        return self._stage("record/grounding", "grounding", iri, grounding=iri, concepts=list(concepts),
                           in_token=in_token, out_token=out_token, prompt=prompt)

    def exploration(self, entities: Sequence[NamedNode], candidates: Sequence[NamedNode], batches: Sequence[dict] = (), *,
                    prompt: str | None = None, embedding_model: str | None = None) -> ExplainEvent:
        """The matched entities, every candidate item, and (global search) the batches; ``prompt``:
        how the entities were ranked (``id@version``), ``embedding_model``: whose vectors ranked them."""
        iri = self.stage_iri("exploration")
        return self._stage("record/context-exploration", "exploration", iri, exploration=iri, derived_from=self.last,
                           entities=list(entities), candidates=list(candidates), batches=list(batches), prompt=prompt,
                           embedding_model=embedding_model)

    def community_selection(self, ratings: Sequence[Any], *, threshold: float, prompt: str | None,
                            in_token: int | None = None, out_token: int | None = None) -> ExplainEvent:
        """Global search's dynamic community selection: every report rated (``ratings``: objects with
        ``report``, ``level``, ``rating``, ``rank``, ``kept`` and ``reason``), kept or not."""
        iri = self.stage_iri("community-selection")
        rows = [{"iri": NamedNode(f"{iri.value}/rating/{r.rank}"), "report": r.report, "level": r.level, "rating": r.rating,
                 "rank": r.rank, "kept": r.kept, "reason": r.reason} for r in ratings]
        return self._stage("record/community-selection", "community-selection", iri, selection=iri, derived_from=self.last,
                           threshold=threshold, ratings=rows, in_token=in_token, out_token=out_token, prompt=prompt)

    def map_result(self, n: int, batch: NamedNode, points: list[dict], *, exploration: NamedNode,
                   in_token: int | None = None, out_token: int | None = None, prompt: str | None = None) -> ExplainEvent:
        """Global search: the scored points one batch of reports was mapped to."""
        iri = self.stage_iri(f"map/{n}")
        return self._stage("record/map-result", "map", iri, advance=False, result=iri, derived_from=exploration,
                           batch=batch, points=points, in_token=in_token, out_token=out_token, prompt=prompt)

    def action_iri(self, number: int) -> NamedNode:
        """DRIFT action ``number``'s IRI, known to the recorder before the action is written, so the
        local search run for it (a sub-trace) names this trace as its caller."""
        iri = self.stage_iri(f"action/{number}")
        self.recorder.note_stage(iri, self.question)
        return iri

    def drift_action(self, number: int, *, derived_from: Sequence[NamedNode], query: str, depth: int, score: float,
                     follow_ups: Sequence[str], answer: str, sub_trace: NamedNode | None, prompt: str | None) -> ExplainEvent:
        """DRIFT: one action (the primer is action 0), its intermediate answer and follow-ups."""
        iri = self.action_iri(number)
        return self._stage("record/drift-action", "drift-action", iri, advance=False, action=iri, derived_from=list(derived_from),
                           query=query, depth=depth, score=score, follow_ups=list(follow_ups),
                           document=NamedNode(f"{iri.value}/answer"), content=answer, sub_trace=sub_trace, prompt=prompt)

    def focus(self, selections: list[dict], *, derived_from: Sequence[NamedNode], points: Sequence[NamedNode] = (),
              prompt: str | None = None) -> ExplainEvent:
        """The kept items (reports, entities, relationships, text units, points, actions), ranked."""
        iri = self.stage_iri("focus")
        documents = None if points else self.recorder.documents_ahead(
            [s["edge"] for s in selections if s.get("edge") is not None], [s["item"] for s in selections],
            [s["item"] for s in selections if s["kind"] == "report"])
        return self._stage("record/context-focus", "focus", iri, focus=iri, derived_from=list(derived_from),
                           selections=selections, points=list(points), prompt=prompt, documents=documents)

    def synthesis(self, answer: str, *, in_token: int | None = None, out_token: int | None = None, prompt: str | None = None,
                  support: AnswerSupport = NO_SUPPORT) -> ExplainEvent:
        """The answer and what supports it; ends the session (a buffered trace is sent now)."""
        self._expect("synthesis", _AFTER["synthesis"])
        iri = self.stage_iri("synthesis")
        event = self._write(
            "record/synthesis", "synthesis", iri, synthesis=iri, derived_from=self.last, session=self.session, also_derived_from=None,
            generated=self.recorder.clock(), document=NamedNode(f"urn:ragprov:answer:{self.id}"), content=answer,
            in_token=in_token, out_token=out_token, prompt=prompt, **support.params(iri),
        )
        self.last = iri
        self.ended = True
        self.recorder.flush(self.buffer)
        return event
