"""The in-process lexical (BM25) indexes that seed GraphRAG and DocRAG: entity labels and
descriptions, and chunk texts. :mod:`ragprov.retrieve.textindex` keeps the same ranking on disk.

>>> index = EntityIndex({NamedNode("urn:e:scrooge"): ["Ebenezer Scrooge"]}, {})
>>> [m.label for m in index.search(["scrooge"], limit=3)]
['Ebenezer Scrooge']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pyoxigraph import NamedNode

from ..record.events import Source
from .lexical import BM25, content_tokens
from .terms import local_name, source_citation

__all__ = ["ChunkIndex", "ChunkRecord", "EntityIndex", "EntityMatch"]


@dataclasses.dataclass(frozen=True)
class EntityMatch:
    """A seed entity: its IRI, label, lexical score, and the concept that matched it best."""

    iri: NamedNode
    label: str
    score: float
    concept: str


@dataclasses.dataclass(frozen=True)
class ChunkRecord:
    """A document chunk with its text and location."""

    chunk: NamedNode
    text: str
    document: NamedNode | None = None
    title: str | None = None
    page: int | None = None
    index: int | None = None

    def citation(self) -> str:
        return source_citation(self.source(), self.index)

    def source(self) -> Source:
        return Source(self.document or self.chunk, self.title, self.page, self.chunk)



class EntityIndex:
    """BM25 over entity labels (weighted) and descriptions: concepts → seed entities."""

    LABEL_WEIGHT = 3.0

    def __init__(self, labels: dict[NamedNode, list[str]], descriptions: dict[NamedNode, list[str]]):
        self.entities = sorted(set(labels) | set(descriptions), key=lambda n: n.value)
        self.label = {e: (labels.get(e) or [local_name(e.value)])[0] for e in self.entities}
        self.label_tokens = [content_tokens(" ".join(labels.get(e) or [local_name(e.value)])) for e in self.entities]
        self.description_tokens = [content_tokens(" ".join(descriptions.get(e, []))) for e in self.entities]
        self.by_label = BM25(self.label_tokens)
        self.by_description = BM25(self.description_tokens)

    def __len__(self) -> int:
        return len(self.entities)

    def named_in(self, texts: Sequence[str]) -> list[list[tuple[NamedNode, str]]]:
        """For each of ``texts``, the entities whose every label word occurs in it (``(IRI, label)``,
        by IRI): the names an answer may find there. Reads the label postings, never every label.

        >>> index = EntityIndex({NamedNode("urn:e:tim"): ["Tiny Tim"], NamedNode("urn:e:bob"): ["Bob Cratchit"]}, {})
        >>> index.named_in(["Tiny Tim is Bob's son."])
        [[(<NamedNode value=urn:e:tim>, 'Tiny Tim')]]
        """
        out = []
        for text in texts:
            present = set(content_tokens(text))
            candidates = {i for t in present for i, _ in self.by_label.postings.get(t, ())}
            found = sorted(
                (self.entities[i] for i in candidates if self.label_tokens[i] and set(self.label_tokens[i]) <= present),
                key=lambda n: n.value,
            )
            out.append([(e, self.label[e]) for e in found])
        return out

    def search(self, concepts: Sequence[str], *, limit: int) -> list[EntityMatch]:
        """The best ``limit`` entities for the concepts: sum over concepts of weighted label BM25 +
        description BM25, an exact label match counting double; ties broken by IRI."""
        totals: dict[int, float] = {}
        best: dict[int, tuple[float, str]] = {}
        for concept in concepts:
            query = content_tokens(concept)
            if not query:
                continue
            by_label = self.by_label.sparse_scores(query)
            by_desc = self.by_description.sparse_scores(query)
            for i in set(by_label) | set(by_desc):
                s = self.LABEL_WEIGHT * by_label.get(i, 0.0) + by_desc.get(i, 0.0)
                if s <= 0:
                    continue
                if i in by_label and self.label_tokens[i] == query:
                    s *= 2.0
                totals[i] = totals.get(i, 0.0) + s
                if s > best.get(i, (0.0, ""))[0]:
                    best[i] = (s, concept)
        ranked = sorted(totals, key=lambda i: (-totals[i], self.entities[i].value))
        return [EntityMatch(self.entities[i], self.label[self.entities[i]], round(totals[i], 6), best[i][1]) for i in ranked[:limit]]


class ChunkIndex:
    """BM25 over chunk texts: concepts → candidate chunks."""

    def __init__(self, records: Sequence[ChunkRecord]):
        self.records = list(records)
        self.bm25 = BM25([content_tokens(r.text) for r in self.records])

    def __len__(self) -> int:
        return len(self.records)

    def search(self, concepts: Sequence[str], *, limit: int) -> list[tuple[ChunkRecord, float]]:
        query = [t for c in concepts for t in content_tokens(c)]
        return [(self.records[i], round(s, 6)) for i, s in self.bm25.top(query, limit)]
