"""The ReAct agent: sub-traces linked to the Analysis that called them, tool errors recorded as
error Observations, parse errors survived, iteration limit, conclusion with termination reason."""

from __future__ import annotations

import dataclasses
import json

from pyoxigraph import NamedNode

from ragprov.namespaces import PROV, RDF, TG
from ragprov.pipelines import Agent, AgentParams
from ragprov.record import ChunkEvent, EndOfSession, ExplainEvent

from .conftest import FACTS, llm_engine, scripted_reply, validate
from .openai_stub import OpenAIStub, Reply, system_text, user_text
from .test_graphrag import one, values


def react_script(steps):
    """Agent replies in order; other prompts (sub-traces) answered by the scripted LLM."""
    queue = list(steps)

    def reply(req):
        if "by reasoning step by step and calling tools" in system_text(req):
            return Reply(queue.pop(0), prompt_tokens=50, completion_tokens=20)
        return scripted_reply(req)

    return reply


def test_agent_with_llm_uses_knowledge_query_and_concludes(carol_store, recorder_for):
    steps = [
        'Thought: I should look this up in the graph.\nAction: knowledge-query\nAction Input: {"question": "Who is Scrooge\'s nephew?"}',
        "Thought: The graph says Fred.\nFinal Answer: Fred is Scrooge's nephew.",
    ]
    with OpenAIStub(react_script(steps)) as stub:
        agent = Agent(carol_store, engine=llm_engine(stub), recorder=recorder_for(carol_store), facts_graph=FACTS)
        events = list(agent.run("Who is Scrooge's nephew?"))
        history_prompt = user_text(stub.chat_requests()[-1]["json"])
    assert "Observation: Fred is Scrooge's nephew [1]." in history_prompt
    stages = [e.stage for e in events if isinstance(e, ExplainEvent)]
    assert stages == ["question", "analysis", "question", "grounding", "exploration", "focus", "synthesis", "observation", "conclusion"]
    {e.explain_id: e for e in events if isinstance(e, ExplainEvent)}
    ids = [e.explain_id for e in events if isinstance(e, ExplainEvent)]
    agent_q, analysis, sub_q, synthesis, observation, conclusion = ids[0], ids[1], ids[2], ids[6], ids[7], ids[8]
    s = carol_store
    # Analysis recorded before the tool ran; the sub-trace's question derives from it; the
    # observation derives from the sub-trace's answer (docs/trace-shape.md)
    assert one(s, analysis, PROV.wasDerivedFrom) == agent_q
    assert one(s, analysis, PROV.wasGeneratedBy) == NamedNode(f"{agent_q.value}/session")
    assert one(s, sub_q, PROV.wasDerivedFrom) == analysis
    assert set(values(s, observation, PROV.wasDerivedFrom)) == {synthesis}
    assert one(s, conclusion, PROV.wasDerivedFrom) == observation
    assert one(s, conclusion, TG.terminationReason).value == "final-answer"
    # the model wrote its own final answer: the Conclusion claims no stated answer nor support for it
    assert not values(s, conclusion, TG.statedAnswer) and not values(s, conclusion, TG.supportedBy)
    assert json.loads(one(s, analysis, TG.arguments).value) == {"question": "Who is Scrooge's nephew?"}
    assert one(s, analysis, TG.action).value == "knowledge-query"
    assert one(s, analysis, TG.prompt).value == "agent-react@1"
    assert (one(s, analysis, TG.inToken).value, one(s, analysis, TG.outToken).value) == ("50", "20")
    # final answer streamed with the conclusion's IRI as message id
    finals = [e for e in events if isinstance(e, ChunkEvent) and e.message_id == conclusion]
    assert "".join(e.content for e in finals) == "Fred is Scrooge's nephew."
    assert {e.kind for e in finals} == {"answer"}
    # thoughts and observations stream apart from the answer, each under its entity's IRI
    thoughts = [e for e in events if isinstance(e, ChunkEvent) and e.kind == "thought"]
    assert [(t.message_id, t.content) for t in thoughts] == [
        (NamedNode(f"{analysis.value}/thought"), "I should look this up in the graph.")
    ]
    observed = [e for e in events if isinstance(e, ChunkEvent) and e.kind == "observation"]
    assert [o.message_id for o in observed] == [observation]
    end = events[-1]
    assert isinstance(end, EndOfSession) and end.trace == agent_q
    assert end.in_token == 50 * 2 + 30 + 200 + 120  # two agent steps + the sub-trace's tokens
    assert end.sources and end.sources[0].title == "A Christmas Carol"
    validate(s)


def test_tool_failure_and_parse_error_become_error_observations_and_the_agent_concludes(carol_store, recorder_for):
    steps = [
        "I am not following the format.",
        'Thought: try a tool that does not exist.\nAction: web-search\nAction Input: {"question": "x"}',
        'Thought: graph, but the LLM will fail inside.\nAction: knowledge-query\nAction Input: {"question": "FAIL"}',
        "Thought: give up.\nFinal Answer: I could not find it.",
    ]
    base = react_script(steps)

    def reply(req):
        if "extract search concepts" in system_text(req) and "FAIL" in user_text(req):
            return Reply("backend exploded", status=400)
        return base(req)

    with OpenAIStub(reply) as stub:
        agent = Agent(carol_store, engine=llm_engine(stub), recorder=recorder_for(carol_store), facts_graph=FACTS)
        events = list(agent.run("Where is the secret?"))
    stages = [e.stage for e in events if isinstance(e, ExplainEvent)]
    assert stages == ["question", "analysis", "observation", "analysis", "observation", "analysis", "question", "observation", "conclusion"]
    s = carol_store
    observations = [e.explain_id for e in events if isinstance(e, ExplainEvent) and e.stage == "observation"]
    errors = [one(s, o, TG.toolError).value for o in observations]
    assert errors[0].startswith("could not parse the reply")
    assert "unknown tool 'web-search'" in errors[1]
    assert "LLMError" in errors[2] and "HTTP 400" in errors[2]
    assert all(TG.Error in values(s, o, RDF.type) for o in observations)
    # the failed sub-trace's question is the observation's second source
    sub_q = [e.explain_id for e in events if isinstance(e, ExplainEvent) and e.stage == "question"][1]
    assert sub_q in values(s, observations[2], PROV.wasDerivedFrom)
    conclusion = [e.explain_id for e in events if isinstance(e, ExplainEvent)][-1]
    assert one(s, conclusion, TG.terminationReason).value == "final-answer"
    assert agent.result.answer == "I could not find it."


def test_iteration_limit_is_the_termination_reason(carol_store, recorder_for):
    loop = 'Thought: again.\nAction: document-query\nAction Input: {"question": "Fred"}'
    with OpenAIStub(react_script([loop] * 5)) as stub:
        agent = Agent(carol_store, engine=llm_engine(stub), recorder=recorder_for(carol_store), params=AgentParams(max_iterations=2))
        events = list(agent.run("Fred?"))
    conclusion = [e for e in events if isinstance(e, ExplainEvent)][-1]
    assert conclusion.stage == "conclusion"
    assert one(carol_store, conclusion.explain_id, TG.terminationReason).value == "iteration-limit"
    assert agent.result.answer.startswith("Fred came into the counting-house")
    validate(carol_store)


def test_offline_agent_asks_both_tools_and_answers_from_evidence(carol_store, recorder_for):
    agent = Agent(carol_store, recorder=recorder_for(carol_store), facts_graph=FACTS)
    list(agent.run("Who is Scrooge's clerk?"))
    assert agent.result.termination_reason == "final-answer"
    # the answer first (the knowledge-query tool's), then every tool's evidence
    assert agent.result.answer.splitlines()[0] == "The answer is Bob Cratchit [1]."
    assert "From knowledge-query:\nThe answer is Bob Cratchit [1]." in agent.result.answer
    assert "Bob Cratchit clerk of Ebenezer Scrooge [1]" in agent.result.answer
    assert "From document-query:" in agent.result.answer
    validate(carol_store)


def test_the_offline_agent_follows_the_tool_whose_evidence_states_more_of_the_question():
    import dataclasses

    from ragprov.llm.engine import Turn
    from ragprov.llm.offline import OfflineEngine
    from ragprov.pipelines.agent import TOOLS

    turns = [Turn("", "knowledge-query", {"question": "q"}, "The answer is Fred [1].", cover=0.3),
             Turn("", "document-query", {"question": "q"}, "The answer is Belle [1].", cover=0.6)]
    assert "Final Answer: The answer is Belle [1]." in OfflineEngine().react("q", TOOLS, turns).value
    # on a tie, or with no cover known, the first tool tried (the knowledge graph) leads
    for cover in (None, 0.6):
        tied = [dataclasses.replace(t, cover=cover) for t in turns]
        assert "Final Answer: The answer is Fred [1]." in OfflineEngine().react("q", TOOLS, tied).value


def test_the_offline_agent_answers_from_both_tools_evidence_together():
    from ragprov.llm.engine import Passage, Turn
    from ragprov.llm.offline import OfflineEngine
    from ragprov.pipelines.agent import TOOLS

    q = "Who is Scrooge's clerk?"
    fact = Passage("Fred is the nephew of Scrooge.", "fact 1", kind="fact")
    chunk = Passage("Bob Cratchit is the clerk of Scrooge, in the counting-house.", "chunk 1", kind="chunk")
    # the graph's answer (from facts that miss what is asked) led before; the text's passages were
    # dropped when its own answer step weighed them out: pooled, they answer
    turns = [Turn("", "knowledge-query", {"question": q}, "The answer is Fred [1].", cover=0.6, passages=(fact,)),
             Turn("", "document-query", {"question": q}, "The data does not answer.", useful=False, passages=(chunk,))]
    step = OfflineEngine().react(q, TOOLS, turns)
    assert "Final Answer: The answer is Bob Cratchit" in step.value
    assert step.support.answered and "From knowledge-query:\nThe answer is Fred [1]." in step.value
    # pooled evidence that does not answer: the tool whose evidence states the most of the question leads
    off = (Passage("The fog came pouring in at every chink.", "chunk 2", kind="chunk"),)
    step = OfflineEngine().react(q, TOOLS, [turns[0], dataclasses.replace(turns[1], passages=off)])
    assert "Final Answer: The answer is Fred [1]." in step.value and step.support is None
    # both tools gave the same answer (citations aside): nothing to weigh, no pooled extraction
    same = [dataclasses.replace(turns[0], observation="The answer is Fred [1] [2]."),
            dataclasses.replace(turns[1], observation="The answer is Fred [3].", useful=True, cover=0.2)]
    step = OfflineEngine().react(q, TOOLS, same)
    assert "Final Answer: The answer is Fred [1] [2]." in step.value and step.support is None


def test_every_passage_the_offline_agent_answers_from_is_a_selection_its_trace_records(carol_store, recorder_for):
    agent = Agent(carol_store, recorder=recorder_for(carol_store), facts_graph=FACTS)
    # the tools agree on the first two (one tool's evidence); neither answers the third (both pooled)
    for q in ("Who is Scrooge's clerk?", "Who was Scrooge's partner?", "Where does Scrooge work?"):
        list(agent.run(q))
        assert agent.result.passages
        for p in agent.result.passages:
            assert p.item and values(carol_store, NamedNode(p.item), RDF.type), p


def test_the_offline_agents_conclusion_records_what_its_answer_rests_on(carol_store, recorder_for):
    """The Conclusion is the agent's answer, so it says what the answer rests on as a Synthesis
    does: the stated answer, the question's kind, the supporting items (selections recorded in
    the tools' sub-traces) and every candidate weighed, the chosen one first."""
    agent = Agent(carol_store, recorder=recorder_for(carol_store), facts_graph=FACTS)
    list(agent.run("Who is Scrooge's clerk?"))
    final = NamedNode(f"{agent.result.question.value}/final")
    assert one(carol_store, final, TG.statedAnswer).value == "Bob Cratchit"
    assert one(carol_store, final, TG.questionKind).value == "who"
    support = values(carol_store, final, TG.supportedBy)
    assert support and {NamedNode(p.item) for p in agent.result.passages} >= set(support)
    assert all(values(carol_store, item, RDF.type) for item in support)  # recorded in a sub-trace
    chosen = one(carol_store, final, TG.chosenCandidate)
    assert one(carol_store, chosen, NamedNode("http://www.w3.org/2000/01/rdf-schema#label")).value == "Bob Cratchit"
    assert chosen in values(carol_store, final, TG.weighedCandidate)
    assert len(values(carol_store, final, TG.weighedCandidate)) == len(agent.result.support.rejected) + 1
    validate(carol_store)
