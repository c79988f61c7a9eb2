"""Conversation history, as Microsoft GraphRAG feeds it to the next question.

A :class:`ConversationTurn` is one finished question and its answer, with the IRIs the trace
knows them by. Microsoft GraphRAG uses earlier turns twice: their user questions are added to the
query that is mapped to entities (so "and his nephew?" finds the person asked about before), and
the prompt gets a ``Conversation History`` table of the most recent turns, latest first
(:func:`history_table`; by default user turns only and at most five, Microsoft's
``conversation_history_max_turns``).

>>> turns = [ConversationTurn("Who was Marley?", "Scrooge's partner."), ConversationTurn("When did he die?", "Seven years before.")]
>>> print(history_table(turns), end="")
-----Conversation History-----
turn|content
user|When did he die?
user|Who was Marley?
>>> previous_questions(turns, max_turns=1)
['When did he die?']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from .tables import csv_table

__all__ = ["MAX_TURNS", "ConversationTurn", "history_table", "previous_questions"]

#: Microsoft GraphRAG's ``conversation_history_max_turns`` default
MAX_TURNS = 5


@dataclasses.dataclass(frozen=True)
class ConversationTurn:
    """An earlier question, its answer, and (when recorded) the IRIs of its Question and Synthesis."""

    question: str
    answer: str = ""
    trace: str | None = None
    synthesis: str | None = None


def previous_questions(turns: Sequence[ConversationTurn], *, max_turns: int = MAX_TURNS) -> list[str]:
    """The user questions of the latest ``max_turns`` turns, latest first."""
    return [t.question for t in list(turns)[::-1][:max_turns]]


def history_table(
    turns: Sequence[ConversationTurn],
    *,
    max_turns: int = MAX_TURNS,
    user_turns_only: bool = True,
    max_tokens: int | None = None,
    count: Callable[[str], int] | None = None,
) -> str:
    """The ``Conversation History`` table ("" without turns): the latest ``max_turns`` turns,
    latest first, each a ``user`` row and (unless ``user_turns_only``) an ``assistant`` row;
    with ``max_tokens`` and ``count``, the turns that fit (Microsoft's rule: stop before the turn
    that would overflow)."""
    records: list[list[str]] = []
    best = ""
    for turn in list(turns)[::-1][:max_turns]:
        records.append(["user", turn.question])
        if not user_turns_only and turn.answer:
            records.append(["assistant", turn.answer])
        text = csv_table("Conversation History", ["turn", "content"], records)
        if max_tokens is not None and count is not None and count(text) > max_tokens:
            break
        best = text
    return best
