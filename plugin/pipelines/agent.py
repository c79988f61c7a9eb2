"""A ReAct agent: think → call a tool → observe → … → final answer, every step recorded.

Tools: ``knowledge-query`` (a GraphRAG sub-trace) and ``document-query`` (a DocRAG sub-trace). The
Analysis (thought + chosen action) is recorded *before* the tool runs; the sub-trace's Question
``prov:used`` that Analysis; the Observation derives from the Analysis and from the sub-trace's
last stage. A tool failure or an unparseable model reply becomes an Observation with
``tg:toolError`` and the loop goes on; the Conclusion records why the loop stopped
(``final-answer`` or ``iteration-limit``). Offline, both tools are asked; when their answers differ
(or one found none) the final answer is extracted from the evidence both selected, pooled (each
passage recorded in its tool's sub-trace; the agent's result carries the pool and that support);
when the pool does not answer, the answer whose best supporting evidence states the most of the
question leads (the knowledge graph's on a tie), with that tool run's passages (:func:`_cover`).

>>> from ragprov.store import open_store
>>> store = open_store("memory:")
>>> store.update('''INSERT DATA {
...   <urn:e:scrooge> <http://www.w3.org/2000/01/rdf-schema#label> "Ebenezer Scrooge" .
...   <urn:e:marley> <http://www.w3.org/2000/01/rdf-schema#label> "Jacob Marley" .
...   <urn:e:scrooge> <urn:rel:partnerOf> <urn:e:marley> . }''')
>>> agent = Agent(store)
>>> stages = [e.stage for e in agent.run("Who was Scrooge's partner?") if e.type == "explain"]
>>> stages[:2], stages[-2:]
(['question', 'analysis'], ['observation', 'conclusion'])
>>> agent.result.termination_reason
'final-answer'
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Generator, Iterator
from typing import Any

from pyoxigraph import NamedNode

from ..errors import ConfigurationError, RagprovError
from ..llm.engine import Tool, Turn, parse_react, turns_evidence
from ..record import ChunkEvent, EndOfSession, ExplainEvent
from ..record.answer import NO_SUPPORT, answer_support
from ..record.events import Event, Source
from .base import Pipeline, RunResult
from .docrag import DocRag
from .graphrag import GraphRag
from .microsoft import llm_of

__all__ = ["TOOLS", "Agent", "AgentParams", "ToolFailure"]

TOOLS = (
    Tool(
        "knowledge-query",
        "Answer a question from the knowledge graph (GraphRAG), citing the facts' sources.",
        {"question": "the question to look up"},
    ),
    Tool(
        "document-query",
        "Answer a question from the document chunks (DocRAG), citing chunks and pages.",
        {"question": "the question to look up"},
    ),
)


class ToolFailure(RagprovError):
    """A tool could not run (bad arguments, unknown tool); becomes an error Observation."""


@dataclasses.dataclass(frozen=True)
class AgentParams:
    """The iteration limit of the ReAct loop."""

    max_iterations: int = 5

    def __post_init__(self) -> None:
        if self.max_iterations < 1:
            raise ConfigurationError("the agent needs at least 1 iteration")


@dataclasses.dataclass
class _Loop:
    """The ReAct loop's state: the turns so far, the sources the tools named, and how it ended."""

    history: list[Turn] = dataclasses.field(default_factory=list)
    sources: list[Source] = dataclasses.field(default_factory=list)
    answer: str | None = None
    reason: str = "iteration-limit"
    final_tokens: tuple[int | None, int | None] = (None, None)
    lead: RunResult | None = None  # the first tool run that answered best: its evidence is the answer's
    support: Any = None  # the final step's own extraction over every tool's evidence (offline), if any


class Agent(Pipeline):
    """The ReAct agent over one store; ``run(question)`` yields the session's events, sub-traces'
    explain events included, and sets :attr:`result`. ``graph_rag`` / ``doc_rag`` are the
    pipelines its tools run (built on the same store, engine and recorder when not given)."""

    kind = "agent"

    params_type = AgentParams

    def __init__(
        self,
        store,
        *,
        graph_rag: GraphRag | None = None,
        doc_rag: DocRag | None = None,
        clock: Callable[[], float] = time.perf_counter,
        **options: Any,
    ):
        """``options`` as for :class:`Pipeline`; the tools' pipelines share the agent's engine,
        recorder and reader unless given."""
        tool = graph_rag or doc_rag
        if options.get("reader") is None and tool is not None:
            options["reader"] = tool.reader
        super().__init__(store, **options)
        self.graph_rag = graph_rag or GraphRag(store, engine=self.engine, recorder=self.recorder, reader=self.reader)
        self.doc_rag = doc_rag or DocRag(store, engine=self.engine, recorder=self.recorder, reader=self.reader)
        self.tools: dict[str, Any] = {"knowledge-query": self.graph_rag, "document-query": self.doc_rag}
        self.clock = clock

    def run(self, question: str, *, used: NamedNode | None = None) -> Iterator[Event]:
        result = self.result = RunResult()
        timings = result.timings
        with timings.measure("record"):
            trace = self.recorder.agent(question, model=self.engine.model, used=used)
        result.question = trace.question
        yield trace.started_event

        tools = [t for t in TOOLS if t.name in self.tools]
        loop = _Loop()
        for _step_number in range(1, self.params.max_iterations + 1):
            with timings.measure("react"):
                step = self.engine.react(question, tools, loop.history)
            result.tokens.add(step.in_token, step.out_token)
            try:
                parsed = parse_react(step.value)
            except RagprovError as e:
                loop.history.append((yield from self._unparsed(trace, step, e)))
                continue
            if parsed.final_answer is not None:
                loop.answer = parsed.final_answer
                loop.reason = "final-answer"
                loop.final_tokens = (step.in_token, step.out_token)
                loop.support = step.support
                break
            turn, sub_result = yield from self._act(trace, step, parsed, loop.sources)
            # the answer resting on the evidence that states the most of the question leads (the
            # first on a tie): a graph whose facts miss what is asked gives way to the text
            if turn.useful and (loop.lead is None or (turn.cover or 0.0) > (_cover(loop.lead) or 0.0)):
                loop.lead = sub_result
            loop.history.append(turn)
        yield from self._conclude(trace, loop)

    def _act(self, trace: Any, step: Any, parsed: Any, sources: list[Source]) -> Generator[Event, None, tuple[Turn, RunResult | None]]:
        """One tool step: the Analysis (thought and chosen action), the tool's run, the
        Observation; returns the turn and the tool's result (``None`` when it failed)."""
        timings = self.result.timings
        arguments_json = json.dumps(parsed.arguments, ensure_ascii=False, sort_keys=True)
        with timings.measure("record"):
            event = trace.analysis(
                parsed.thought,
                parsed.action or "",
                arguments_json,
                in_token=step.in_token,
                out_token=step.out_token,
                prompt=step.prompt,
            )
        analysis = event.explain_id
        yield event
        if parsed.thought:
            yield ChunkEvent(parsed.thought, NamedNode(f"{analysis.value}/thought"), "thought")

        started = self.clock()
        observation, error, sub_result, sub_last = yield from self._call_tool(parsed, analysis, sources)
        # evidence that the tool could not turn into an answer is not an answer
        useful = sub_result is not None and sub_result.selected > 0 and sub_result.answered is not False
        cover = _cover(sub_result) if sub_result is not None and useful else None
        passages = tuple(sub_result.passages) if sub_result is not None else ()  # the sub-trace's selection
        duration = self.clock() - started
        with timings.measure("record"):
            event = trace.observation(observation, duration=round(duration, 6), tool_error=error, sub_trace_last=sub_last)
        yield event
        yield ChunkEvent(observation or error or "", event.explain_id, "observation")
        turn = Turn(parsed.thought, parsed.action or "", parsed.arguments or {}, observation, error=error, useful=useful,
                    cover=cover, passages=passages)
        return turn, sub_result

    def _conclude(self, trace: Any, loop: _Loop) -> Iterator[Event]:
        """The final answer (at the iteration limit, the first useful observation), what it rests
        on, the Conclusion and the end of the session."""
        result, history, support, lead = self.result, loop.history, loop.support, loop.lead
        answer = loop.answer
        if answer is None:
            useful_turns = [t for t in history if t.useful and not t.error]
            answer = useful_turns[0].observation if useful_turns else (
                f"No final answer within {self.params.max_iterations} iterations."
            )
        final_iri = NamedNode(f"{trace.question.value}/final")
        yield ChunkEvent(answer, final_iri, "answer")
        if support is not None:  # the answer was extracted from every tool's evidence together
            result.passages, result.support = tuple(turns_evidence(history)), support
            result.answered = getattr(support, "answered", None)
        elif lead is not None:
            result.passages, result.support, result.answered = lead.passages, lead.support, lead.answered
        else:
            result.answered = False  # no tool found an answer
        # what the answer rests on (the selections, in the tools' sub-traces, of the passages it was drawn
        # from): the final step's own extraction; offline without one, the leading tool's answer is the
        # final one; a model's own final text, or the first answer at the iteration limit, says nothing of it
        drawn = NO_SUPPORT
        if support is not None:
            drawn = answer_support(support, result.passages)
        elif lead is not None and loop.reason == "final-answer" and llm_of(self.engine) is None:
            drawn = answer_support(lead.support, lead.passages)
        with result.timings.measure("record"):
            event = trace.conclusion(answer, termination_reason=loop.reason, in_token=loop.final_tokens[0],
                                     out_token=loop.final_tokens[1], support=drawn)
        yield event
        result.answer = answer
        result.last = trace.last
        result.termination_reason = loop.reason
        result.sources = tuple(loop.sources)
        result.selected = sum(1 for t in history if t.useful)
        yield EndOfSession(trace.question, result.tokens.in_token, result.tokens.out_token, result.sources)

    def _unparsed(self, trace: Any, step: Any, e: RagprovError) -> Generator[Event, None, Turn]:
        """Record what the model said, then the parse error as the observation; the turn to go on with."""
        error = f"could not parse the reply: {e}"
        with self.result.timings.measure("record"):
            analysis_event = trace.analysis(step.value, "(unparsed)", "{}", in_token=step.in_token, out_token=step.out_token,
                                            prompt=step.prompt)
            observation_event = trace.observation("", duration=0.0, tool_error=error)
        yield analysis_event
        yield observation_event
        return Turn(step.value, "(unparsed)", {}, "", error=error, useful=False)

    def _call_tool(self, parsed: Any, analysis: NamedNode,
                   sources: list[Source]) -> Generator[Event, None, tuple[str, str | None, RunResult | None, NamedNode | None]]:
        """Run the tool the reply names on its question on behalf of ``analysis``, yielding the
        tool's trace events and adding its tokens and sources to this run's; returns the
        observation, the error (if it failed), the tool's result and its trace's last event."""
        sub_last = None
        try:
            sub = self._tool(parsed.action or "", parsed.arguments or {})
            for ev in sub.run(str((parsed.arguments or {})["question"]), used=analysis):
                if isinstance(ev, ExplainEvent):
                    sub_last = ev.explain_id
                    yield ev
                elif isinstance(ev, EndOfSession):
                    self.result.tokens.add(ev.in_token, ev.out_token)
                    for s in ev.sources:
                        if s not in sources:
                            sources.append(s)
        except RagprovError as e:
            return "", f"{type(e).__name__}: {e}", None, sub_last
        if sub.result.last is not None:
            sub_last = sub.result.last
        return sub.result.answer, None, sub.result, sub_last

    def _tool(self, name: str, arguments: dict[str, Any]):
        tool = self.tools.get(name)
        if tool is None:
            raise ToolFailure(f"unknown tool {name!r}; the tools are {', '.join(self.tools)}")
        question = arguments.get("question")
        if not isinstance(question, str) or not question.strip():
            raise ToolFailure(f"the {name} tool needs a non-empty string argument 'question'")
        return tool


def _cover(run: RunResult) -> float | None:
    """How much of the question the best evidence a tool run's answer rests on states (the chosen
    candidate's ``cover``, 0–1); None when the answer step weighed no candidate.

    >>> run = RunResult()
    >>> _cover(run) is None
    True
    """
    chosen = getattr(run.support, "chosen", None)
    return getattr(chosen, "cover", None)
