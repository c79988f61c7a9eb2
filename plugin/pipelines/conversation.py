"""A conversation: questions asked one after another of one Microsoft GraphRAG mode, each fed the
turns before it (Microsoft GraphRAG's conversation history) and linked to the previous answer in
provenance (``tg:previousTurn``).

>>> from ragprov.store import open_store
>>> from ragprov.pipelines import pipeline
>>> chat = Conversation(pipeline("local", open_store("memory:")))
>>> chat.turns
[]
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from ..errors import ConfigurationError
from ..llm.history import ConversationTurn
from ..record.events import Event

__all__ = ["Conversation", "ConversationTurn"]


class Conversation:
    """The turns asked so far of ``pipe`` (a pipeline whose ``run`` takes ``history``: local,
    global or DRIFT search). :meth:`ask` runs the next question with the earlier turns."""

    def __init__(self, pipe):
        if "history" not in inspect.signature(pipe.run).parameters:
            raise ConfigurationError(
                f"the {pipe.kind or type(pipe).__name__} pipeline takes no conversation history; "
                "chat with a Microsoft GraphRAG mode (local, global or drift)"
            )
        self.pipe = pipe
        self.turns: list[ConversationTurn] = []

    def ask(self, question: str) -> Iterator[Event]:
        """Run ``question`` with the earlier turns as history (a generator of the pipeline's
        events); once it is exhausted the turn is added to :attr:`turns`."""
        yield from self.pipe.run(question, history=tuple(self.turns))
        result = self.pipe.result
        self.turns.append(ConversationTurn(
            question, result.answer,
            trace=result.question.value if result.question is not None else None,
            synthesis=result.last.value if result.last is not None else None,
        ))
