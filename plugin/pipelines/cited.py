"""The text behind structured evidence: the graph modes hand the answer step the chunks their
kept items cite, for every kind of question.

A kept edge, entity description or community report says who is related to whom; the count, the
date or the reason a question asks for is rarely in it, but it is often in the chunk (text unit)
the item was extracted from — which the item cites (edge → statement → chunk; entity → text
units; report → its community's text units). :func:`wants_text` says whether a question is
answered by a number, a time, Yes/No or a sentence (graph-rag then leaves the chunks without
the names they say); :func:`cited_passages` reads the cited chunks through the :class:`~ragprov.retrieve.FactsReader`
(a bounded lookup by IRI) and keeps the few that say the most of the question's words, as
``chunk`` passages. graph-rag reads the chunks its kept facts cite, global the text units its kept
reports rest on — for entity questions too: a report summarises (both a bounded look-up by IRI),
DRIFT the text units its kept local searches already read (no query). Each passage's ``item`` is
the trace's selection it came through (the kept fact's, the Focus's), so the Synthesis's support
stays within the trace and its lineage leads to the chunk the answer was read from.

Measured with ``bench/answers.py`` (119 questions; the 28 number, time, yes-no and why questions
among them in brackets), right before → after: graph-rag 75 → 87 (6 → 17), held out 33 → 38 of 59;
DRIFT 75 → 78 (9 → 12), held out 35 → 36; global 66 → 74 (8 → 15), held out 28 → 31; no question
right before is wrong after. At 1M facts graph-rag's run costs about 5 ms more CPU.

graph-rag reads them for entity questions too (who, where, what thing), each passage with the
known names it says as its mentions: the act a question asks about ("who mashes the potatoes",
"where does Scrooge take his dinner") is in the sentence, seldom in the fact extracted from it
(``bench/answers.py --modes graph-rag``: train 50 → 51 of 60, held out 42 → 43 of 59, fresh
14 → 17 of 35); reading 24 cited chunks rather than 12 to choose them from, fresh 17 → 18 (train and
held out unchanged).
"""

from __future__ import annotations

from collections.abc import Sequence

from pyoxigraph import NamedNode

from ..llm.answer import classify
from ..llm.engine import Passage
from ..retrieve.lexical import content_tokens, passage_terms

__all__ = ["CITED_CHUNKS", "CITED_READ", "best_passages", "cited_passages", "wants_text"]

#: how many cited chunks the answer step is handed
CITED_CHUNKS = 4
#: how many cited chunks are read (in the order of the kept items citing them) to choose them from
CITED_READ = 24


def wants_text(question: str) -> bool:
    """Whether ``question`` is answered by a number, a time, Yes/No or a sentence (not an entity).

    >>> [wants_text(q) for q in ("How many ghosts came?", "When did Marley die?", "Did Scrooge change?",
    ...                          "Why does Marley visit Scrooge?", "Who was Scrooge's partner?", "Where does Bob live?")]
    [True, True, True, True, False, False]
    """
    qt = classify(question)
    return qt.kind in ("how-many", "when") or not qt.wants_name


def _rank(question: str, texts: Sequence[str]) -> list[int]:
    """The indices of ``texts`` by how many distinct words of the question each says (most first;
    ties in the given order); texts that say none are left out.

    >>> _rank("How many clerks did Scrooge keep?", ["One clerk.", "The fog came.", "Scrooge's clerks were cold."])
    [2, 0]
    """
    asked = set(content_tokens(question))
    said = [len(asked & passage_terms(t).present) for t in texts]
    return sorted((n for n, k in enumerate(said) if k > 0), key=lambda n: (-said[n], n))


def cited_passages(reader, question: str, chunks: Sequence[NamedNode], *, keep: int = CITED_CHUNKS,
                   read: int = CITED_READ) -> list[Passage]:
    """The first ``read`` distinct of ``chunks`` (the chunks the kept items cite, best item first)
    read by IRI, the ``keep`` that say the most of the question's words as ``chunk`` passages
    (their text, citation and IRI)."""
    order = list(dict.fromkeys(chunks))[:read]
    if not order or keep < 1:
        return []
    records = reader.chunk_records(order)
    return best_passages(question, [Passage(records[c].text, records[c].citation(), kind="chunk", item=c.value)
                                    for c in order if c in records], keep=keep)


def best_passages(question: str, passages: Sequence[Passage], *, keep: int = CITED_CHUNKS) -> list[Passage]:
    """The ``keep`` of ``passages`` (each text once) that say the most of the question's words,
    best first (:func:`_rank`); none that says none of them.

    >>> ps = [Passage("Tea at five."), Passage("Scrooge drank tea."), Passage("Scrooge drank tea.")]
    >>> [p.text for p in best_passages("When did Scrooge drink tea?", ps)]
    ['Scrooge drank tea.', 'Tea at five.']
    >>> best_passages("When did Scrooge drink tea?", [Passage("The fog came.")])
    []
    """
    firsts: dict[str, Passage] = {}
    for p in passages:
        firsts.setdefault(" ".join(p.text.split()), p)
    unique = list(firsts.values())
    return [unique[n] for n in _rank(question, [p.text for p in unique])[:keep]]
