"""How retrieved terms and sources are shown to a reader: local names, term labels, citations
and the origin of an edge.

>>> source_citation(Source(NamedNode("urn:doc:carol"), "a-christmas-carol.txt", None, NamedNode("urn:chunk:x")), 33)
'a-christmas-carol.txt, chunk 33'
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from pyoxigraph import BlankNode, Literal, NamedNode

from ..labels import readable_name as local_name  # the readable form, for labels and prompts
from ..record.events import Source

if TYPE_CHECKING:  # trace navigation is loaded by the modes that read lineage, not by every retrieval
    from ..navigate.lineage import SourceChain

__all__ = ["EdgeOrigin", "local_name", "source_citation", "term_text"]


def term_text(term, labels: dict) -> str:
    """What to show for a term: its label, a literal's value, or the IRI's local name."""
    if isinstance(term, Literal):
        return term.value
    if isinstance(term, NamedNode):
        return labels.get(term) or local_name(term.value)
    if isinstance(term, BlankNode):
        return f"_:{term.value}"
    return str(term)


def source_citation(source: Source, chunk_index: int | None = None) -> str:
    """How a source is named to a reader: ``title, p. N, chunk K`` (IRIs only in JSON output)."""
    parts = [source.title or local_name(source.document.value)]
    if source.page is not None:
        parts.append(f"p. {source.page}")
    if chunk_index is not None:
        parts.append(f"chunk {chunk_index}")
    return ", ".join(parts)


@dataclasses.dataclass(frozen=True)
class EdgeOrigin:
    """Where an edge was extracted from, as a reader cites it: the :class:`Source` (document,
    title, page, chunk) and the chunk's index when known."""

    source: Source
    chunk_index: int | None = None

    @classmethod
    def from_chain(cls, chain: SourceChain) -> EdgeOrigin:
        """The origin an extraction chain (:meth:`Lineage.edges_sources`) ends in."""
        document, page, chunk = chain.document, chain.page, chain.chunk
        doc_iri = document.iri if document is not None else chain.statement
        title = (document.title or document.label) if document is not None else None
        page_number = page.page_number if page is not None else (chunk.page_number if chunk is not None else None)
        return cls(
            Source(doc_iri, title, page_number, chunk.iri if chunk is not None else None),
            chunk.chunk_index if chunk is not None else None,
        )

    @property
    def chunk(self) -> NamedNode | None:
        return self.source.chunk

    @property
    def document(self) -> NamedNode:
        return self.source.document

    def citation(self) -> str:
        return source_citation(self.source, self.chunk_index)
