"""Lexical tools retrieval and the offline engine share: tokens, stopwords, concepts, BM25.

>>> tokenize("Scrooge's nephew, Fred, visits the Cratchits!")
['scrooge', 'nephew', 'fred', 'visit', 'the', 'cratchit']
>>> extract_concepts("Who is Scrooge's nephew?")
['scrooge nephew', 'scrooge', 'nephew']
>>> bm = BM25([["scrooge", "miser"], ["tiny", "tim"], ["scrooge", "nephew", "fred"]])
>>> [round(s, 3) for s in bm.scores(["scrooge", "fred"])]
[0.499, 0.0, 1.299]
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

__all__ = [
    "BM25", "STOPWORDS", "PassageTerms", "content_tokens", "extract_concepts",
    "passage_terms", "split_sentences", "stem", "tokenize",
]

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
#: :data:`_WORD` for a text without an underscore (where ``\w`` is ``[^\W_]``): its findall a fifth faster
_WORD_PLAIN = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)

STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are aren as at be because been before
    being below between both but by can cannot could couldn did didn do does doesn doing don down
    during each either else ever every few for from further had hadn has hasn have haven having he
    her here hers herself him himself his how however i if in into is isn it its itself just least
    let like made make many may me might more most much must my myself neither no nor not now of off
    often on once only or other otherwise ought our ours ourselves out over own per perhaps quite
    rather really same shall shan she should shouldn since so some still such than that the their
    theirs them themselves then there these they this those though through thus to too toward
    towards under until up upon us very via was wasn we were weren what whatever when whence
    whenever where whereas whether which while who whoever whom whose why will with within without
    won would wouldn yet you your yours yourself yourselves
    tell explain describe give show list name find say says said know please main mainly kind sort
    type role happen happens happened does doing done get gets got thing things something anything
    """.split()
)
"""English function words and question scaffolding: never concepts, never scored."""


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return text.replace("’", "'")


def stem(token: str) -> str:
    """A light, conservative English suffix folding (plurals, possessives) so that ``ghosts`` meets
    ``ghost`` and ``cratchits`` meets ``cratchit``; anything unsure is left alone.

    >>> [stem(w) for w in ["ghosts", "spirits", "stories", "classes", "bus", "his", "scrooge's"]]
    ['ghost', 'spirit', 'story', 'class', 'bus', 'his', 'scrooge']
    """
    if token.endswith(("'s", "'")):
        token = token[: token.rindex("'")]
    if len(token) <= 3:
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith("sses"):
        return token[:-2]
    if token.endswith("s") and not token.endswith(("ss", "us", "is", "ous", "mas")):
        return token[:-1]
    return token


def _words(text: str) -> list[str]:
    """The words of ``text``, folded.

    >>> _words("Scrooge's snake_case O’Brien")
    ["scrooge's", 'snake', 'case', "o'brien"]
    """
    text = _fold(text)
    return (_WORD if "_" in text else _WORD_PLAIN).findall(text)


def tokenize(text: str) -> list[str]:
    """Lower-cased, folded word tokens of ``text`` (stopwords kept)."""
    return [stem(w) for w in _words(text)]


def content_tokens(text: str) -> list[str]:
    """The tokens of ``text`` that are not stopwords (what BM25 scores).

    >>> content_tokens("The Ghosts of Christmas")
    ['ghost', 'christmas']
    """
    return [t for t in map(_content_token, _words(text)) if t is not None]


class PassageTerms(NamedTuple):
    """A passage's content-token counts, their set and their sum, the passage's BM25 length (the
    counts and the set read-only: they are shared)."""

    counts: Mapping[str, int]
    present: frozenset[str]
    length: int


@functools.lru_cache(maxsize=256)
def passage_terms(text: str) -> PassageTerms:
    """The :func:`content_tokens` of a passage, counted, memoised by its text: a DRIFT search
    reranks the same ~20 text units again in each of its local searches.

    >>> passage_terms("The Ghosts of Christmas") is passage_terms("The Ghosts of Christmas")
    True
    >>> terms = passage_terms("ghost after ghost")
    >>> dict(terms.counts), terms.length
    ({'ghost': 2}, 2)
    """
    tokens = content_tokens(text)
    counts = Counter(tokens)
    return PassageTerms(MappingProxyType(counts), frozenset(counts), len(tokens))


@functools.lru_cache(maxsize=1 << 17)
def _content_token(word: str) -> str | None:
    """``word``'s stem, or ``None`` for a stopword (memoised: building an index over a large
    graph folds the same few thousand words millions of times)."""
    token = stem(word)
    return None if _is_stop(word, token) else token


def _is_stop(word: str, token: str) -> bool:
    return word in STOPWORDS or token in STOPWORDS or _is_noise(token)


def _is_noise(token: str) -> bool:
    return len(token) < 2 and not token.isdigit()


def extract_concepts(question: str, *, limit: int = 10, max_phrase: int = 3) -> list[str]:
    """The concepts of a question: noun-phrase-like runs of content words (split at stopwords and
    punctuation, at most ``max_phrase`` words), then their single words, first occurrence first,
    de-duplicated. Deterministic; no model involved.

    >>> extract_concepts("What does the Ghost of Christmas Past show Scrooge?")
    ['ghost', 'christmas past', 'christmas', 'past', 'scrooge']
    """
    runs: list[list[str]] = []
    current: list[str] = []
    # Punctuation splits runs: walk the folded text keeping separators.
    for piece in re.split(r"([,.;:!?()\[\]\"“”]+)", _fold(question)):
        if re.fullmatch(r"[,.;:!?()\[\]\"“”]+", piece or "x"):
            if current:
                runs.append(current)
            current = []
            continue
        for word in _WORD.findall(piece):
            token = stem(word)
            if _is_stop(word, token):
                if current:
                    runs.append(current)
                current = []
            else:
                current.append(token)
    if current:
        runs.append(current)
    out: list[str] = []
    for run in runs:
        for start in range(0, len(run), max_phrase):
            chunk = run[start : start + max_phrase]
            for concept in ([" ".join(chunk)] if len(chunk) > 1 else []) + chunk:
                if concept not in out:
                    out.append(concept)
    return out[:limit]


_ABBREVIATION = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|vs|etc|e\.g|i\.e|MR|MRS|MS|DR|ST|JR|SR|MT)|\b[A-Z])\.$")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character spans of the sentences of ``text`` (blank-line and
    end-punctuation splits), whitespace trimmed.

    >>> t = "Marley was dead. Scrooge knew it!  Mrs. Cratchit laughed. Bah"
    >>> [t[a:b] for a, b in split_sentences(t)]
    ['Marley was dead.', 'Scrooge knew it!', 'Mrs. Cratchit laughed.', 'Bah']
    >>> len(split_sentences("MRS. CRATCHIT → BOB: She is his wife."))  # a graph label in capitals
    1
    """
    spans: list[tuple[int, int]] = []
    glue = False
    for m in re.finditer(r"[^.!?\n]+(?:[.!?]+[\"'’”)]*|\n|$)", text):
        a, b = m.span()
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            if glue and spans:
                spans[-1] = (spans[-1][0], b)
            else:
                spans.append((a, b))
            # "Mrs." / "Dr." / "St." / initials do not end a sentence
            glue = bool(_ABBREVIATION.search(text[a:b]))
    return spans


class BM25:
    """Okapi BM25 over a fixed corpus of token lists, with an inverted index.

    ``scores(query)`` gives one score per document; ``explain(query, i)`` the per-term parts
    ``(term, tf, idf, contribution)`` of document ``i``'s score. Query terms repeat-count.
    """

    def __init__(self, documents: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75, rarity: BM25 | None = None):
        """``rarity``: a larger collection these documents are part of, whose :meth:`idf` weighs
        the query terms instead of their own (scores of several parts on one scale)."""
        self._index([Counter(d) for d in documents], [len(d) for d in documents], k1=k1, b=b, rarity=rarity)

    @classmethod
    def of_counts(cls, counts: Sequence[Mapping[str, int]], *, k1: float = 1.2, b: float = 0.75,
                  rarity: BM25 | None = None, lengths: Sequence[int] | None = None) -> BM25:
        """The same index over documents given as term counts (:attr:`PassageTerms.counts`;
        ``lengths``: their sums, when known, :attr:`PassageTerms.length`). Its postings are
        built per query term when a query first asks for it, not for every term of every
        document: a rerank of twenty passages asks for a few of their thousands of terms.

        >>> docs = [["ghost", "ghost"], ["clerk"]]
        >>> BM25.of_counts([Counter(d) for d in docs]).scores(["ghost"]) == BM25(docs).scores(["ghost"])
        True
        >>> lazy = BM25.of_counts([Counter(d) for d in docs], lengths=[2, 1])
        >>> lazy.explain(["ghost", "clerk"], 0, docs[0]) == BM25(docs).explain(["ghost", "clerk"], 0, docs[0])
        True
        >>> lazy.postings == BM25(docs).postings  # all of them, when asked for
        True
        """
        bm = cls.__new__(cls)
        bm._index(counts, list(lengths) if lengths is not None else [sum(c.values()) for c in counts],
                  k1=k1, b=b, rarity=rarity, lazy=True)
        return bm

    def _index(self, counts: Sequence[Mapping[str, int]], lengths: list[int], *, k1: float, b: float,
               rarity: BM25 | None, lazy: bool = False) -> None:
        self.k1 = k1
        self.b = b
        self.rarity = rarity
        self.n = len(counts)
        self.lengths = lengths
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0
        self._counts = counts
        self._postings: dict[str, list[tuple[int, int]]] | None = None if lazy else self._all_postings()
        self._term_postings: dict[str, list[tuple[int, int]]] = {}

    def _all_postings(self) -> dict[str, list[tuple[int, int]]]:
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i, doc in enumerate(self._counts):
            for term, tf in doc.items():
                postings[term].append((i, tf))
        return dict(postings)

    @property
    def postings(self) -> dict[str, list[tuple[int, int]]]:
        """``{term: [(document, tf), …]}``, documents in order."""
        if self._postings is None:
            self._postings = self._all_postings()
        return self._postings

    def _posting(self, term: str) -> list[tuple[int, int]] | None:
        if self._postings is not None:
            return self._postings.get(term)
        posting = self._term_postings.get(term)
        if posting is None:
            posting = self._term_postings[term] = [(i, doc[term]) for i, doc in enumerate(self._counts) if term in doc]
        return posting or None

    def idf(self, term: str) -> float:
        if self.rarity is not None:
            return self.rarity.idf(term)
        df = len(self._posting(term) or ())
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def _part(self, tf: int, length: int, idf: float) -> float:
        norm = 1.0 - self.b + self.b * (length / self.avgdl if self.avgdl else 0.0)
        return idf * tf * (self.k1 + 1.0) / (tf + self.k1 * norm)

    def scores(self, query: Iterable[str]) -> list[float]:
        """One score per document (0.0 where no query term occurs)."""
        out = [0.0] * self.n
        for i, score in self.sparse_scores(query).items():
            out[i] = score
        return out

    def sparse_scores(self, query: Iterable[str]) -> dict[int, float]:
        """Only the documents with a positive score: ``{index: score}`` (cheap on large corpora)."""
        out: dict[int, float] = {}
        for term, qtf in Counter(query).items():
            posting = self._posting(term)
            if not posting:
                continue
            idf = self.idf(term)
            for i, tf in posting:
                out[i] = out.get(i, 0.0) + qtf * self._part(tf, self.lengths[i], idf)
        return out

    def top(self, query: Iterable[str], k: int) -> list[tuple[int, float]]:
        """The ``k`` best ``(document, score)`` pairs with a positive score, best first (ties: lower index)."""
        scores = self.sparse_scores(query)
        ranked = sorted((i for i, s in scores.items() if s > 0), key=lambda i: (-scores[i], i))
        return [(i, scores[i]) for i in ranked[:k]]

    def explain(self, query: Iterable[str], i: int, document: Sequence[str]) -> list[tuple[str, int, float, float]]:
        counts = Counter(document)
        parts = []
        for term, qtf in Counter(query).items():
            tf = counts.get(term, 0)
            if tf:
                idf = self.idf(term)
                parts.append((term, tf, idf, qtf * self._part(tf, self.lengths[i], idf)))
        return parts
