"""Prompts as package data, the ReAct parser, and the offline engine's lexical building blocks."""

from __future__ import annotations

import pytest

from ragprov.errors import ConfigurationError, LLMError, ParameterError, PipelineError
from ragprov.llm import OfflineEngine, load_prompt, parse_json_list, parse_react, prompt_ids
from ragprov.llm.engine import EdgeText, Mention, Passage, Tool, Turn
from ragprov.llm.prompt import parse_prompt
from ragprov.retrieve.lexical import BM25, content_tokens, extract_concepts


def test_every_bundled_prompt_has_a_header_and_matching_inputs():
    ids = prompt_ids()
    assert {
        "graphrag-concepts",
        "graphrag-edge-scoring",
        "graphrag-synthesis",
        "docrag-rerank",
        "docrag-synthesis",
        "agent-react",
    } <= set(ids)
    for pid in ids:
        p = load_prompt(pid)
        assert p.ref == f"{pid}@{p.version}" and p.summary and len(p.sha) == 16
        msgs = p.messages(**{name: f"<{name}>" for name in p.inputs})
        text = "\n".join(m["content"] for m in msgs)
        assert "{{" not in text
        for name in p.inputs:
            assert f"<{name}>" in text


def test_prompt_errors_are_clear():
    with pytest.raises(ConfigurationError, match="differ from the declared inputs"):
        parse_prompt("# id: x\n# version: 1\n# inputs: [a]\n# summary: s\n=== user\n{{b}}\n")
    with pytest.raises(ConfigurationError, match="no 'version'"):
        parse_prompt("# id: x\n# inputs: []\n# summary: s\n=== user\nhi\n")
    with pytest.raises(ParameterError, match="missing question"):
        load_prompt("graphrag-concepts").messages()


def test_parse_react_forms_and_errors():
    step = parse_react('Thought: check\nAction: document-query\nAction Input: ```json\n{"question": "q"}\n```')
    assert (step.action, step.arguments) == ("document-query", {"question": "q"})
    assert parse_react("Thought: ok\nFinal Answer: Marley.\nMore.").final_answer == "Marley.\nMore."
    with pytest.raises(PipelineError, match="neither"):
        parse_react("I think the answer is 4")
    with pytest.raises(PipelineError, match="not JSON"):
        parse_react("Thought: t\nAction: knowledge-query\nAction Input: {question: q}")


def test_parse_json_list_tolerates_fences_and_chatter():
    assert parse_json_list('Sure!\n```json\n[1, 2]\n```', what="x") == [1, 2]
    with pytest.raises(LLMError, match="not a JSON array"):
        parse_json_list("no list here", what="edge-scoring")


def test_concepts_drop_stopwords_and_keep_phrases():
    assert extract_concepts("What did Tiny Tim say at Christmas dinner?") == [
        "tiny tim",
        "tiny",
        "tim",
        "christmas dinner",
        "christmas",
        "dinner",
    ]
    assert extract_concepts("who is it?") == []
    assert content_tokens("The Ghosts of Christmas") == ["ghost", "christmas"]


def test_bm25_prefers_rarer_terms_and_shorter_documents():
    bm = BM25([["scrooge", "miser"], ["scrooge", "nephew"], ["scrooge", "clerk", "candle", "office", "cold"]])
    s = bm.scores(["scrooge", "nephew"])
    assert s[1] > s[0] > s[2] > 0
    assert [i for i, _ in bm.top(["nephew"], 5)] == [1]


def test_offline_engine_is_deterministic_and_explains():
    engine = OfflineEngine()
    edges = [EdgeText("Fred", "nephew of", "Ebenezer Scrooge"), EdgeText("Bob Cratchit", "father of", "Tiny Tim")]
    a = engine.score_edges("Who is Scrooge's nephew?", ["scrooge nephew", "scrooge", "nephew"], edges, keep=5)
    b = engine.score_edges("Who is Scrooge's nephew?", ["scrooge nephew", "scrooge", "nephew"], edges, keep=5)
    assert a == b and [c.index for c in a.value] == [0]
    assert "nephew in predicate" in a.value[0].reasoning and "scrooge in object" in a.value[0].reasoning
    fact = Passage("Fred nephew of Ebenezer Scrooge", "Carol, p. 1", kind="fact",
                   mentions=(Mention("Fred", "PERSON"), Mention("Ebenezer Scrooge", "PERSON")))
    stream = engine.answer("Who is Scrooge's nephew?", [fact], kind="facts")
    assert "".join(stream) == (
        "The answer is Fred [1].\n\nEvidence:\n- Fred nephew of Ebenezer Scrooge [1]\n\nSources:\n[1] Carol, p. 1\n"
    )
    assert stream.prompt == "offline-answer-facts@2" and stream.in_token is None
    assert stream.support.chosen.name == "Fred" and stream.support.support == (0,)


def test_offline_react_policy():
    engine = OfflineEngine()
    tools = [Tool("knowledge-query", "kg", {"question": "q"}), Tool("document-query", "docs", {"question": "q"})]
    first = parse_react(engine.react("Q?", tools, []).value)
    assert first.action == "knowledge-query" and first.arguments == {"question": "Q?"}
    failed = Turn("t", "knowledge-query", {"question": "Q?"}, "", error="boom", useful=False)
    second = parse_react(engine.react("Q?", tools, [failed]).value)
    assert second.action == "document-query" and "failed" in second.thought
    done = Turn("t", "document-query", {"question": "Q?"}, "- Marley was dead. [1]", useful=True)
    final = parse_react(engine.react("Q?", tools, [failed, done]).value)
    assert final.final_answer == "- Marley was dead. [1]\n\nFrom document-query:\n- Marley was dead. [1]"


def test_offline_map_scores_discriminate_instead_of_capping():
    """A sentence matching more of the question scores higher; no score is pinned at 100 (a cap
    would tie strong points and leave the reduce step to rank them by batch order)."""
    from ragprov.llm.engine import Passage
    from ragprov.llm.offline import OfflineEngine

    concepts = ["ghost christmas past", "scrooge", "bed curtains", "ghost", "christmas", "past"]
    texts = [
        "The Ghost of Christmas Past draws back Scrooge's bed curtains at one o'clock.",
        "The Ghost of Christmas Past takes Scrooge to his old school.",
        "The Ghost of Christmas Past is a strange figure, like a child.",
        "A ghost walks the street on Christmas Eve.",
        "Bob Cratchit goes home to his family.",
    ] + [f"Unrelated filler sentence number {n} about the weather." for n in range(30)]
    step = OfflineEngine().map_points("?", concepts, [Passage(t) for t in texts], keep=5)
    scores = [p.score for p in step.value]
    assert [p.sources for p in step.value] == [(0,), (1,), (2,), (3,)]
    bm25 = BM25([content_tokens(t) for t in texts]).scores([t for c in concepts for t in content_tokens(c)])
    assert min(bm25[:3]) > 10  # what the old `min(100, 10 × BM25)` pinned to 100
    assert all(0 < s < 100 for s in scores) and scores == sorted(scores, reverse=True) and len(set(scores)) == 4


def test_map_points_weigh_the_question_by_the_rarity_of_every_batch():
    """Global search's reduce step ranks the points of all batches together: with ``rarity`` (the
    BM25 over every batch's sentences) a word rare in one batch but common in the index no longer
    lifts that batch's point above the point of another batch that matches the question's rare
    word; without it each batch is weighed on its own (the point of the first batch wins)."""
    from ragprov.llm.engine import Passage
    from ragprov.llm.offline import OfflineEngine, map_sentences

    first = ["The christmas party starts at noon with Fred.", "The weather was cold and grey outside the door.",
             "A cab waits in the street below the window."]
    second = ["Topper is a bachelor and a friend of the family.",
              *(f"The christmas party has games and songs number {n}." for n in ("one", "two", "three", "four"))]
    rarity = BM25([content_tokens(s) for text in first + second for s in map_sentences(text)])
    engine, concepts = OfflineEngine(), ["bachelor", "christmas party"]

    def best(batch: list[str], weights: BM25 | None) -> tuple[str, float]:
        point = engine.map_points("?", concepts, [Passage(" ".join(batch))], keep=1, rarity=weights).value[0]
        return point.text, point.score

    own = best(first, None), best(second, None)
    shared = best(first, rarity), best(second, rarity)
    assert [text for text, _ in own] == [first[0], second[0]] == [text for text, _ in shared]
    assert own[0][1] > own[1][1]  # each batch on its own scale: the common words of the first win
    assert shared[1][1] > shared[0][1]  # one scale: the question's rare word wins
