"""The stated answer as provenance: which evidence supports it and which candidates lost.

:func:`answer_support` turns an engine's account of how it chose the answer (the offline engine's
:class:`~ragprov.llm.answer.Extraction`) and the passages the synthesis was written from into an
:class:`AnswerSupport`; :meth:`AnswerSupport.params` gives the ``record/synthesis`` template its
answer part: ``tg:statedAnswer``, ``tg:questionKind``, ``tg:supportedBy`` (the edge selections,
chunks, kept items or map points the answer rests on) and one ``tg:AnswerCandidate`` per weighed
candidate (name, score, rank, whether chosen, its own supporting items, why it scored so).

>>> from ragprov.llm.engine import Passage
>>> from ragprov.llm.answer import extract_answer
>>> from ragprov.llm.engine import Mention
>>> ps = [Passage("Jacob Marley was Scrooge's partner.", "c1", item="urn:x:sel:1", mentions=(Mention("JACOB MARLEY", "PERSON"),))]
>>> support = answer_support(extract_answer("Who was Scrooge's partner?", ps), ps)
>>> support.answer, [n.value for n in support.supported_by]
('Jacob Marley', ['urn:x:sel:1'])
>>> support.params(NamedNode("urn:x:synthesis"))["candidates"][0]["iri"].value
'urn:x:synthesis/candidate/1'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from pyoxigraph import NamedNode

__all__ = ["NO_SUPPORT", "AnswerSupport", "CandidateRecord", "answer_support", "cited_support"]


@dataclasses.dataclass(frozen=True)
class CandidateRecord:
    """A weighed candidate answer as the trace keeps it."""

    name: str
    score: float
    chosen: bool
    type: str | None = None
    supported_by: tuple[NamedNode, ...] = ()
    reasoning: str | None = None


@dataclasses.dataclass(frozen=True)
class AnswerSupport:
    """The answer part of a Synthesis: the stated answer (``None`` when the data does not answer),
    the question's kind, the supporting evidence items and the weighed candidates, chosen first."""

    answer: str | None = None
    kind: str | None = None
    supported_by: tuple[NamedNode, ...] = ()
    candidates: tuple[CandidateRecord, ...] = ()
    #: the index items an LLM answer's ``[Data: …]`` citations name (``tg:cites``)
    cited: tuple[NamedNode, ...] = ()
    #: why a citation named nothing in the context (``tg:citationNote``)
    notes: tuple[str, ...] = ()

    def params(self, synthesis: NamedNode) -> dict[str, Any]:
        """The ``record/synthesis`` template's answer parameters for the Synthesis ``synthesis``."""
        return {**self.answer_params(synthesis), "cited": list(self.cited), "citation_notes": list(self.notes)}

    def answer_params(self, stage: NamedNode) -> dict[str, Any]:
        """The answer's own parameters (``record/_answer_links.j2``) for the stage ``stage`` that
        states it: a Synthesis, or an agent's Conclusion (whose tools' Syntheses keep any
        ``[Data: …]`` citations)."""
        return {
            "answer": self.answer,
            "question_kind": self.kind,
            "supported_by": list(self.supported_by),
            "candidates": [
                {"iri": NamedNode(f"{stage.value}/candidate/{n}"), "label": c.name, "score": c.score, "rank": n,
                 "chosen": c.chosen, "entity_type": c.type, "supported_by": list(c.supported_by), "reasoning": c.reasoning}
                for n, c in enumerate(self.candidates, start=1)
            ],
        }


NO_SUPPORT = AnswerSupport()


def _items(indices: Sequence[int], passages: Sequence[Any]) -> tuple[NamedNode, ...]:
    out: list[NamedNode] = []
    for i in indices:
        item = getattr(passages[i], "item", None) if 0 <= i < len(passages) else None
        if item:
            node = NamedNode(item)
            if node not in out:
                out.append(node)
    return tuple(out)


def cited_support(resolved: Any) -> AnswerSupport:
    """The :class:`AnswerSupport` of an LLM answer's resolved ``[Data: …]`` citations
    (:class:`~ragprov.llm.citations.Resolved`): supported by the trace items that recorded the
    cited rows, citing the index items, with a note per citation that named nothing."""
    return AnswerSupport(
        supported_by=tuple(NamedNode(i) for i in resolved.selections),
        cited=tuple(NamedNode(i) for i in resolved.items),
        notes=tuple(resolved.notes),
    )


def answer_support(extraction: Any, passages: Sequence[Any]) -> AnswerSupport:
    """The :class:`AnswerSupport` of an extraction over ``passages`` (:data:`NO_SUPPORT` when the
    engine gave none); an LLM answer's resolved citations give :func:`cited_support`."""
    if extraction is None:
        return NO_SUPPORT
    if hasattr(extraction, "selections") and hasattr(extraction, "notes"):
        return cited_support(extraction)
    chosen = extraction.chosen if extraction.answered else None
    records = []
    if chosen is not None:
        records.append(CandidateRecord(chosen.name, chosen.score, True, chosen.type, _items(chosen.support, passages), chosen.why or None))
    for c in extraction.rejected:
        records.append(CandidateRecord(c.name, c.score, False, c.type, _items(c.support, passages), c.why or None))
    return AnswerSupport(
        answer=chosen.name if chosen is not None else None,
        kind=extraction.qtype.kind,
        supported_by=_items(chosen.support, passages) if chosen is not None else (),
        candidates=tuple(records),
    )
