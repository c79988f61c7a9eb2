"""What the text modes (DocRAG, basic search) hand to the answer step: the e-book's story, not
its licence.

A Project Gutenberg e-book's text lies between its ``*** START OF THE PROJECT GUTENBERG EBOOK
… ***`` and ``*** END OF … ***`` markers. After the END marker comes the licence ("…no one owns
a United States copyright in these works…"), which a question about the story ("Where does
Scrooge work?") matches by its common words and the offline answer then names the wrong thing
from. So each text unit's place relative to the markers is found at retrieval time
(:class:`BodyMarkers`: a unit holding a marker is split at it; a unit of the same document
before the START unit or after the END unit is front or back matter as a whole) and the back
matter is left out of the evidence (:func:`drop_matter`) — unless it bears on the question at
least as much as the story does (its best sentence covers as much of the question,
:class:`SentenceScorer`): "Who is the founder of Project
Gutenberg?" is answered from it. The front matter (title, author, illustrator, release date:
the e-book's metadata) is kept: "Who wrote A Christmas Carol?" is answered from it.

Tried and measured with ``bench/answers.py``, and left out: cutting the units down to the
sentences that match the question (with one to five sentences either side; the answer step
already weighs each sentence, and lost the names a few sentences away more than it gained), and
cutting the text two consecutive units share from the worse-ranked one (no question changed).
"""

from __future__ import annotations

import dataclasses
import re
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from pyoxigraph import NamedNode

from ..llm.answer import root_tokens
from ..retrieve.indexes import ChunkRecord
from ..retrieve.lexical import BM25, split_sentences

__all__ = ["BodyMarkers", "Matter", "SentenceScorer", "body_markers", "body_texts", "drop_matter", "matter_spans"]

#: the weight of a question word that is part of a name the question uses
NAME_WEIGHT = 0.5

#: Project Gutenberg's body markers ("*** START OF THE PROJECT GUTENBERG EBOOK A CHRISTMAS CAROL ***")
MARKER = re.compile(r"\*{3}\s*(START|END)\s+OF\s+(?:THE|THIS)\s+PROJECT\s+GUTENBERG\s+E-?BOOK\b[^*]{0,200}\*{3}", re.I)


@dataclasses.dataclass(frozen=True)
class Matter:
    """Which part of a text is outside its document's body: ``before`` (everything up to this
    character offset is front matter), ``after`` (everything from it on is back matter)."""

    before: int = 0
    after: int | None = None

    @property
    def has_matter(self) -> bool:
        """Whether the text has back matter (the licence) to leave out."""
        return self.after is not None

    def back(self, start: int) -> bool:
        """Whether a span from ``start`` lies in the back matter."""
        return self.after is not None and start >= self.after

    def outside(self, start: int, end: int) -> bool:
        """Whether the span ``[start, end)`` lies wholly in front or back matter."""
        return end <= self.before or (self.after is not None and start >= self.after)


def matter_spans(text: str, *, before_body: bool = False, after_body: bool = False) -> Matter:
    """Where ``text`` leaves its e-book's body: after a START marker's end, the body begins;
    from an END marker on, it is over. ``before_body`` / ``after_body``: the text comes, in its
    document, before the START marker / after the END marker (a text unit without a marker of
    its own; :meth:`.base.Pipeline` works it out from the document's marker units).

    >>> t = "Licence. *** START OF THE PROJECT GUTENBERG EBOOK X *** Marley was dead."
    >>> m = matter_spans(t); m.outside(0, 8), m.outside(56, 72)
    (True, False)
    >>> matter_spans("Licence text.", after_body=True).outside(0, 13)
    True
    """
    if before_body or after_body:
        return Matter(len(text) + 1, None) if before_body else Matter(0, 0)
    before, after = 0, None
    for m in MARKER.finditer(text):
        if m.group(1).upper() == "START":
            before = m.end()
        elif after is None:
            after = m.start()
    return Matter(before, after)


class SentenceScorer:
    """How much of the question each sentence of a pool covers: the question's words (their roots
    as the answer step matches them, :func:`~ragprov.llm.answer.root_tokens`: "carries" meets
    "carried") weighed by their rarity in the pool (BM25's idf), the words
    of the names the question uses by :data:`NAME_WEIGHT` too."""

    def __init__(self, question: str, sentences: Sequence[str]):
        self.docs = [root_tokens(s) for s in sentences]
        names = set()
        for m in re.finditer(r"(?<=\S\s)([A-Z][\w'’-]*)", question):  # capitalised words after the first
            names.update(root_tokens(m.group(1)))
        self.weights: dict[str, float] = {}
        for t in root_tokens(question):
            self.weights[t] = max(self.weights.get(t, 0.0), NAME_WEIGHT if t in names else 1.0)
        pool = BM25(self.docs)  # its idf: the rarity of each question word in the pool
        self.idf = {t: pool.idf(t) for t in self.weights if t in pool.postings}

    def coverage(self, i: int) -> float:
        """The weighted share of the question's words sentence ``i`` has (each word once,
        weighed by its rarity among the sentences and whether it is a name's)."""
        total = sum(self.weights[t] * idf for t, idf in self.idf.items())
        have = set(self.docs[i])
        return sum(self.weights[t] * idf for t, idf in self.idf.items() if t in have) / total if total else 0.0


def sentence_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, sentence)`` of ``text``'s sentences (offsets into ``text``; the sentence
    with its line wraps read as spaces; blank lines break sentences).

    >>> [s for _, _, s in sentence_spans("He said\\nno. She left.\\n\\nChapter two")]
    ['He said no.', 'She left.', 'Chapter two']
    """
    out: list[tuple[int, int, str]] = []
    for para in re.finditer(r"(?:(?!\n\s*\n)[\s\S])+", text):
        base = para.start()
        chunk = para.group(0)
        for a, b in split_sentences(chunk.replace("\n", " ")):
            s = " ".join(chunk[a:b].split())
            if s:
                out.append((base + a, base + b, s))
    return out


class BodyMarkers:
    """Where each document's e-book body begins and ends, as text-unit positions: the last unit
    holding a START marker and the first holding an END marker (GraphRAG's units overlap, so a
    marker may be in two). A unit before the first or after the second, in the same document, is
    wholly front or back matter; a unit holding a marker is split at it.

    >>> from pyoxigraph import NamedNode
    >>> from ragprov.retrieve.indexes import ChunkRecord
    >>> doc = NamedNode("urn:x:doc")
    >>> units = [ChunkRecord(NamedNode(f"urn:x:{i}"), t, doc, index=i) for i, t in enumerate(
    ...     ["Licence. *** START OF THE PROJECT GUTENBERG EBOOK X *** Marley was dead.", "Scrooge knew it.",
    ...      "The end. *** END OF THE PROJECT GUTENBERG EBOOK X *** Licence.", "More licence."])]
    >>> markers = BodyMarkers(units)
    >>> [markers.matter(u).outside(0, len(u.text)) for u in units]
    [False, False, False, True]
    >>> markers.matter(units[2]).outside(0, 8), markers.matter(units[2]).outside(56, 64)
    (False, True)
    """

    def __init__(self, records: Iterable[ChunkRecord]):
        self.start: dict[NamedNode, int] = {}
        self.end: dict[NamedNode, int] = {}
        for rec in records:
            if rec.document is None or rec.index is None:
                continue
            for m in MARKER.finditer(rec.text):
                if m.group(1).upper() == "START":
                    self.start[rec.document] = max(self.start.get(rec.document, rec.index), rec.index)
                else:
                    self.end[rec.document] = min(self.end.get(rec.document, rec.index), rec.index)

    def matter(self, rec: ChunkRecord) -> Matter:
        """The front and back matter of one text unit (:class:`Matter`)."""
        if MARKER.search(rec.text) or rec.document is None or rec.index is None:
            return matter_spans(rec.text)
        start, end = self.start.get(rec.document), self.end.get(rec.document)
        return matter_spans(rec.text, before_body=start is not None and rec.index < start,
                            after_body=end is not None and rec.index > end)


#: how many text units holding the markers' words are read to find the documents' markers
MARKER_UNITS = 200


def body_markers(index: Any) -> BodyMarkers:
    """The :class:`BodyMarkers` of the documents whose marker units a chunk ``index`` (anything
    with ``search(concepts, limit=)``) finds among the :data:`MARKER_UNITS` best for the
    markers' words — one search, however large the store."""
    found = index.search(["start end project gutenberg ebook"], limit=MARKER_UNITS)
    return BodyMarkers(rec for rec, _ in found)


def drop_matter(question: str, texts: Sequence[str], matters: Sequence[Matter]) -> list[str | None]:
    """``texts`` without their back matter (``None`` for a text that is all back matter), unless
    the matter bears on the question at least as much as the body does — its best sentence
    covering as much of the question as the body's best
    (:meth:`SentenceScorer.coverage`): a question about the e-book's licence or publisher is
    answered from it. Texts without back matter are returned as they are.

    >>> body = "Scrooge worked in his counting-house. Marley was dead."
    >>> licence = "*** END OF THE PROJECT GUTENBERG EBOOK X *** The Foundation works to accept donations."
    >>> drop_matter("Where does Scrooge work?", [body, licence], [matter_spans(body), matter_spans(licence)])[1]
    >>> drop_matter("Who accepts donations?", [body, licence], [matter_spans(body), matter_spans(licence)])[1] == licence
    True
    """
    if not any(m.has_matter for m in matters):
        return list(texts)
    pool: list[tuple[int, int, int, bool]] = []  # (text, start, end, outside)
    sentences: list[str] = []
    for n, (text, m) in enumerate(zip(texts, matters, strict=True)):
        for a, b, sentence in sentence_spans(text):
            pool.append((n, a, b, m.back(a)))
            sentences.append(sentence)
    scorer = SentenceScorer(question, sentences)
    scores = [scorer.coverage(i) for i in range(len(pool))]
    body = max((s for s, (*_, out) in zip(scores, pool, strict=True) if not out), default=0.0)
    matter = max((s for s, (*_, out) in zip(scores, pool, strict=True) if out), default=0.0)
    if matter >= body and matter > 0:
        return list(texts)
    kept: list[list[str]] = [[] for _ in texts]
    for (n, *_, out), sentence in zip(pool, sentences, strict=True):
        if not out:
            kept[n].append(sentence)
    return [texts[n] if not matters[n].has_matter else (" ".join(k) or None) for n, k in enumerate(kept)]


_MARKERS: weakref.WeakKeyDictionary[Any, BodyMarkers] = weakref.WeakKeyDictionary()


def body_texts(reader: Any, question: str, records: Sequence[ChunkRecord]) -> list[str | None]:
    """The texts of ``records`` without their e-book front and back matter (``None``: all
    matter), unless that matter bears on the question more than the body does
    (:func:`drop_matter`); the documents' markers are looked up once per reader
    (:func:`body_markers` over its chunk index)."""
    markers = _MARKERS.get(reader)
    if markers is None:
        markers = _MARKERS[reader] = body_markers(reader.chunk_index())
    return drop_matter(question, [rec.text for rec in records], [markers.matter(rec) for rec in records])

