"""Microsoft GraphRAG's modes with an LLM, against a real OpenAI-compatible server on 127.0.0.1
(scripted replies, streamed as server-sent events): the prompt holds Microsoft's context tables and
the response type, ``[Data: …]`` citations in the reply become recorded sources, token counts are
tiktoken's, and a conversation's history reaches the prompt and is linked in provenance."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner
from pyoxigraph import NamedNode

from ragprov.llm import LLMClient, LLMConfig, LLMEngine
from ragprov.llm.tokens import encoding, tokenizer_for
from ragprov.namespaces import RDF, RDFS, TG
from ragprov.pipelines import GlobalSearch, LocalSearch, pipeline
from ragprov.pipelines.conversation import Conversation
from ragprov.pipelines.microsoft_defaults import PARAMETERS, microsoft_params, parameters_table
from ragprov.record import EndOfSession, ExplainEvent

from .conftest import FACTS, carol_index, validate
from .openai_stub import OpenAIStub, Reply, system_text, user_text
from .test_graphrag import one, values

QUESTION = "Who was Scrooge's business partner?"


@pytest.fixture(scope="module")
def index():
    return carol_index()


def engine(stub, *, model="gpt-4o", response_type="multiple paragraphs"):
    return LLMEngine(LLMClient(LLMConfig(url=stub.url, model=model, max_retries=0)), response_type=response_type)


def table_rows(system: str, name: str) -> list[list[str]]:
    """The records of the table ``name`` in a prompt (header dropped)."""
    m = re.search(rf"-----{name}-----\n[^\n]*\n((?:[^\n-][^\n]*\n?)*)", system)
    return [line.split("|") for line in m.group(1).splitlines() if line.strip()] if m else []


def with_hrid(store, hrid: str) -> set[NamedNode]:
    return {q.subject for q in store.raw.quads_for_pattern(None, TG.humanReadableId, None, None) if q.object.value == hrid}


def synthesis_of(events) -> NamedNode:
    """The run's own Synthesis (the last one: DRIFT's follow-up sub-traces come first)."""
    return [e.explain_id for e in events if isinstance(e, ExplainEvent) and e.stage == "synthesis"][-1]


def local_reply(request: dict) -> Reply:
    system = system_text(request)
    if "extract search concepts" in system:
        return Reply('["Scrooge", "business partner"]')
    if "---Data tables---" in system:
        entities, rels = table_rows(system, "Entities"), table_rows(system, "Relationships")
        if not entities or not rels:
            return Reply("The tables do not say.")
        entity, rel = entities[0][0], rels[0][0]
        return Reply(f"Jacob Marley was Scrooge's partner [Data: Entities ({entity}); Relationships ({rel}); Sources (99999, +more)].")
    return Reply(status=400)


def test_local_search_prompt_holds_microsofts_tables_and_response_type(index):
    with OpenAIStub(local_reply) as stub:
        llm = engine(stub, response_type="a single sentence")
        pipe = LocalSearch(index, engine=llm, facts_graph=FACTS, params=microsoft_params("local"))
        events = list(pipe.run(QUESTION))
    request = stub.chat_requests()[-1]["json"]
    system = system_text(request)
    assert request["stream"] is True
    assert user_text(request) == QUESTION
    for head in ("-----Reports-----\nid|title|content\n", "-----Entities-----\nid|entity|description|number of relationships\n",
                 "-----Relationships-----\nid|source|target|description|weight\n", "-----Sources-----\nid|text\n"):
        assert head in system
    assert "a single sentence" in system and "[Data: " in system
    # every entity row's id is the entity's human_readable_id, named by its title (a placeholder
    # entity, which has none, gets an x-id no human_readable_id can be)
    rows = table_rows(system, "Entities")
    assert len(rows) >= 5 and sum(not hrid.startswith("x") for hrid, *_ in rows) >= 5
    for hrid, title, *_ in (r for r in rows if not r[0].startswith("x")):
        assert any(label.value == title for e in with_hrid(index, hrid) for label in values(index, e, RDFS.label))
    assert pipe.result.answer.startswith("Jacob Marley was Scrooge's partner")
    assert isinstance(events[-1], EndOfSession)


def test_citations_become_recorded_sources_and_bad_ids_a_note(index):
    with OpenAIStub(local_reply) as stub:
        pipe = LocalSearch(index, engine=engine(stub), facts_graph=FACTS)
        events = list(pipe.run(QUESTION))
    system = system_text(stub.chat_requests()[-1]["json"])
    entity_id, rel_id = table_rows(system, "Entities")[0][0], table_rows(system, "Relationships")[0][0]
    synthesis = synthesis_of(events)
    cited = set(values(index, synthesis, TG.cites))
    entity = with_hrid(index, entity_id) & cited
    relationship = with_hrid(index, rel_id) & cited
    assert len(entity) == 1 and len(relationship) == 1 and len(cited) == 2
    # supported by the Focus items that kept them
    kept = {one(index, item, TG.item) for item in values(index, synthesis, TG.supportedBy)}
    assert kept == cited
    assert one(index, synthesis, TG.citationNote).value == "the answer cites Sources (99999), which is not in the context sent"
    assert one(index, synthesis, TG.prompt).value == "ms-local-search@1"
    validate(index)


def test_token_counts_match_tiktoken_when_the_server_reports_none(index):
    def reply(request):
        if "extract search concepts" in system_text(request):
            return Reply('["Scrooge"]', usage=False)
        return Reply("Marley [Data: Entities (1)].", usage=False)

    with OpenAIStub(reply) as stub:
        pipe = LocalSearch(index, engine=engine(stub, model="gpt-4o"), facts_graph=FACTS)
        events = list(pipe.run(QUESTION))
    messages = stub.chat_requests()[-1]["json"]["messages"]
    o200k = encoding("o200k_base")
    sent = sum(len(o200k.encode(m["content"])) for m in messages)
    synthesis = synthesis_of(events)
    assert int(one(index, synthesis, TG.inToken).value) == sent
    assert int(one(index, synthesis, TG.outToken).value) == len(o200k.encode("Marley [Data: Entities (1)]."))
    assert sent != -(-sum(len(m["content"]) for m in messages) // 4)  # not the chars/4 estimate
    assert tokenizer_for("gpt-4").encoding == "cl100k_base" and tokenizer_for("gpt-4").count("hello world") == 2


def test_context_fits_microsofts_token_budgets_counted_with_tiktoken(index):
    with OpenAIStub(local_reply) as stub:
        params = type(microsoft_params("local"))(max_tokens=6000, community_prop=0.15, text_unit_prop=0.5)
        pipe = LocalSearch(index, engine=engine(stub), facts_graph=FACTS, params=params)
        list(pipe.run(QUESTION))
    system = system_text(stub.chat_requests()[-1]["json"])
    count = tokenizer_for("gpt-4o").count

    def block(name):
        m = re.search(rf"-----{name}-----\n.*?(?=\n\n|\n---[A-Z])", system, re.S)
        return m.group(0) + "\n" if m else ""

    assert block("Sources") and count(block("Sources")) <= 3000
    assert count(block("Reports")) <= 900  # a full report is longer: none fits, as in Microsoft's builder
    assert count(block("Entities")) + count(block("Relationships")) + count(block("Claims")) <= 2100


def test_global_search_maps_with_scored_points_and_reduces_with_analysts(index):
    def reply(request):
        system = system_text(request)
        if "extract search concepts" in system:
            return Reply('["themes"]')
        if "---Analyst points---" in system:
            cited = re.findall(r"Reports \((\d+)\)", system)
            return Reply(f"Redemption is the main theme [Data: Reports ({cited[0]}, 424242)].")
        if "one batch of community reports" in system:
            first = table_rows(system, "Reports")[0][0]
            points = [{"description": f"Redemption drives the story [Data: Reports ({first})]", "score": 80},
                      {"description": "Nothing else", "score": 0}]
            return Reply(json.dumps({"points": points}))
        return Reply(status=400)

    with OpenAIStub(reply) as stub:
        pipe = GlobalSearch(index, engine=engine(stub, response_type="one paragraph"), facts_graph=FACTS, params=microsoft_params("global"))
        events = list(pipe.run("What are the main themes?"))
    maps = [r["json"] for r in stub.chat_requests() if "one batch of community reports" in system_text(r["json"])]
    assert maps and all("-----Reports-----\nid|title|content|rank\n" in system_text(m) for m in maps)
    assert all(user_text(m) == "What are the main themes?" for m in maps)
    reduce = system_text(stub.chat_requests()[-1]["json"])
    assert "----Analyst 1----\nImportance Score: 80\nRedemption drives the story" in reduce
    assert "Nothing else" not in reduce and "one paragraph" in reduce
    synthesis = synthesis_of(events)
    cited = values(index, synthesis, TG.cites)
    assert len(cited) == 1 and one(index, cited[0], RDF.type) == TG.CommunityReport
    points = values(index, synthesis, TG.supportedBy)
    assert points and all(cited[0] in values(index, pt, TG.report) for pt in points)  # the map points resting on it
    assert "Reports (424242)" in one(index, synthesis, TG.citationNote).value
    validate(index)


def test_chat_history_reaches_the_prompt_and_is_linked_in_provenance(index):
    with OpenAIStub(local_reply) as stub:
        chat = Conversation(LocalSearch(index, engine=engine(stub), facts_graph=FACTS))
        first = list(chat.ask(QUESTION))
        second = list(chat.ask("When did he die?"))
    system = system_text(stub.chat_requests()[-1]["json"])
    assert "-----Conversation History-----\nturn|content\nuser|Who was Scrooge's business partner?\n" in system
    assert system.index("-----Conversation History-----") < system.index("-----Entities-----")
    question = next(e.explain_id for e in second if isinstance(e, ExplainEvent) and e.stage == "question")
    assert one(index, question, TG.previousTurn) == synthesis_of(first)
    assert chat.turns[1].synthesis == synthesis_of(second).value
    validate(index)


@pytest.fixture(scope="module")
def carol_dir(tmp_path_factory):
    """A directory store with the bundled index, loaded by ``ragprov load graphrag``."""
    from ragprov.cli import cli
    from ragprov.resources import data_dir

    store_dir = tmp_path_factory.mktemp("carol") / "store"
    loaded = CliRunner().invoke(cli, ["load", "graphrag", str(data_dir() / "graphrag" / "christmas-carol-v3"), "--store", str(store_dir)])
    assert loaded.exit_code == 0, loaded.output
    return store_dir


def previous_turn_links(store_dir) -> list:
    from ragprov.store import open_store

    store = open_store(str(store_dir))
    try:
        links = store.raw.quads_for_pattern(None, TG.previousTurn, None, None)
        return [(q.subject, q.object, values(store, q.object, RDF.type)) for q in links]
    finally:
        store.close()


def test_chat_offline_from_a_pipe_links_each_turn(carol_dir):
    from ragprov.cli import cli

    before = len(previous_turn_links(carol_dir))
    result = CliRunner().invoke(cli, ["chat", "local", "--store", str(carol_dir), "--format", "json"],
                                input="Who was Scrooge's business partner?\n\nWho is his clerk?\n")
    assert result.exit_code == 0, result.output
    answers = [json.loads(part) for part in re.split(r"(?m)^(?=\{)", result.stdout) if part.strip()]
    assert [a["question"] for a in answers] == ["Who was Scrooge's business partner?", "Who is his clerk?"]
    links = previous_turn_links(carol_dir)
    assert len(links) == before + 1 and all(TG.Synthesis in types for _, _, types in links)


def test_chat_with_an_llm_sends_history_and_response_type(carol_dir):
    from ragprov.cli import cli

    def reply(request):
        system = system_text(request)
        if "extract search concepts" in system:
            return Reply('["themes"]')
        if "one batch of community reports" in system:
            report = table_rows(system, "Reports")[0][0]
            return Reply(json.dumps({"points": [{"description": f"Redemption [Data: Reports ({report})]", "score": 70}]}))
        if "---Analyst points---" in system:
            return Reply("- Redemption [Data: Reports (1)]")
        return Reply(status=400)

    with OpenAIStub(reply) as stub:
        result = CliRunner().invoke(cli, ["chat", "global", "--store", str(carol_dir), "--llm-url", stub.url, "--llm-model", "gpt-4o",
                                          "--response-type", "a bulleted list"], input="What are the themes?\nAnd the places?\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("- Redemption [Data: Reports (1)]") == 2
    sent = [(system_text(r["json"]), user_text(r["json"])) for r in stub.chat_requests()]
    maps = [(system, user) for system, user in sent if "one batch of community reports" in system]
    first = [system for system, user in maps if user == "What are the themes?"]
    second = [system for system, user in maps if user == "And the places?"]
    assert first and second
    assert all("Conversation History" not in system for system in first)
    assert all("-----Conversation History-----\nturn|content\nuser|What are the themes?\n" in system for system in second)
    reduces = [system_text(r["json"]) for r in stub.chat_requests() if "---Analyst points---" in system_text(r["json"])]
    assert len(reduces) == 2 and all("a bulleted list" in system for system in reduces)


def test_ask_json_lists_the_cited_items_and_notes(carol_dir):
    from ragprov.cli import cli

    with OpenAIStub(local_reply) as stub:
        result = CliRunner().invoke(cli, ["ask", "local", QUESTION, "--store", str(carol_dir), "--format", "json",
                                          "--llm-url", stub.url, "--llm-model", "gpt-4o", "--response-type", "one sentence"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert len(summary["cited"]) == 2 and {iri.split(":")[1] for iri in summary["cited"]} == {"graphrag"}
    assert summary["citation_notes"] == ["the answer cites Sources (99999), which is not in the context sent"]
    assert "one sentence" in system_text(stub.chat_requests()[-1]["json"])


def test_chat_refuses_a_pipeline_without_history(index):
    from ragprov.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="no conversation history"):
        Conversation(pipeline("graph-rag", index))


def test_parameters_table_is_the_docs_and_microsofts_own_defaults():
    from pathlib import Path

    docs = (Path(__file__).parents[2] / "docs" / "microsoft-parameters.md").read_text(encoding="utf-8")
    assert parameters_table() in docs
    defaults = pytest.importorskip("graphrag.config.defaults")
    sections = {"local_search": defaults.LocalSearchDefaults(), "global_search": defaults.GlobalSearchDefaults(),
                "drift_search": defaults.DriftSearchDefaults(), "basic_search": defaults.BasicSearchDefaults(),
                "embed_text": defaults.EmbedTextDefaults()}
    checked = 0
    for p in PARAMETERS:
        section, _, field = p.microsoft.partition(".")
        if section in sections:
            assert getattr(sections[section], field) == p.default, p
            checked += 1
    assert checked >= 19


def test_an_llm_pipeline_takes_microsofts_defaults(index):
    with OpenAIStub(local_reply) as stub:
        assert pipeline("local", index, engine=engine(stub)).params.community_prop == 0.15
    assert pipeline("local", index).params.community_prop == 0.25  # the offline engine keeps its own


def test_table_fields_read_the_columns_microsoft_shows(index):
    """``retrieve/graphrag-table-fields``: ids, degree, weight, report content and rating, claim columns."""
    from ragprov.retrieve import FactsReader
    from ragprov.retrieve.table_fields import table_fields

    reader = FactsReader(index, facts_graph=FACTS)
    scrooge = next(iter(q.subject for q in index.raw.quads_for_pattern(None, RDFS.label, None, FACTS)
                        if q.object.value == "SCROOGE" and "entity:" in q.subject.value))
    report = next(q.subject for q in index.raw.quads_for_pattern(None, RDF.type, TG.CommunityReport, FACTS))
    unit = next(q.subject for q in index.raw.quads_for_pattern(None, RDF.type, TG.TextUnit, None))
    fields = table_fields(reader, [scrooge, report, unit])
    assert fields[scrooge]["id"] == "39" and int(fields[scrooge]["degree"]) > 100
    assert {"id", "content", "rank"} <= set(fields[report]) and fields[report]["content"].startswith("#")
    assert fields[unit]["id"].isdigit()


def test_drift_with_an_llm_primes_with_hyde_and_reduces_with_citations(index):
    def reply(request):
        system, user = system_text(request), user_text(request)
        if "extract search concepts" in system:
            return Reply('["Marley"]')
        if not system and "hypothetical answer" in user:
            return Reply("# Marley's ghost\nJacob Marley, Scrooge's dead partner, returns as a ghost in chains.")
        if "You start a search over a knowledge graph" in system:
            report = table_rows(user, "Reports")[0][0]
            return Reply(json.dumps({"intermediate_answer": f"# Marley\nMarley haunts Scrooge [Data: Reports ({report})].", "score": 60,
                                     "follow_up_queries": ["Who is Jacob Marley?"]}))
        if "---Data tables---" in system:  # DRIFT's local searches: 0.9 of the budget for sources, 0.1 reports, none for entities
            assert "-----Entities-----" not in system
            return Reply(f"Marley is Scrooge's late partner [Data: Sources ({table_rows(system, 'Sources')[0][0]})].")
        if "community reports of a knowledge graph" in system:  # rating a follow-up's answer
            return Reply(json.dumps({"points": [{"description": "relevant", "score": 50, "reports": [0]}]}))
        if "plan a search" in system:
            return Reply("[]")
        if "---Intermediate answers---" in system:
            source = re.search(r"Sources \((\d+)\)", system).group(1)
            return Reply(f"Marley was Scrooge's partner and came back as a ghost [Data: Sources ({source}); Reports (777777)].")
        return Reply(status=400)

    with OpenAIStub(reply) as stub:
        params = microsoft_params("drift")
        pipe = pipeline("drift", index, engine=engine(stub), facts_graph=FACTS)
        assert pipe.params == params
        events = list(pipe.run("How does Marley affect Scrooge?"))
    prompts = [system_text(r["json"]) or user_text(r["json"]) for r in stub.chat_requests()]
    assert any("hypothetical answer to this question: How does Marley affect Scrooge?" in p for p in prompts)
    assert "-----Reports-----\nid|title|content|rank" in next(user_text(r["json"]) for r in stub.chat_requests()
                                                             if "You start a search" in system_text(r["json"]))
    primer = next(e.explain_id for e in events if isinstance(e, ExplainEvent) and e.stage == "drift-action")
    assert one(index, primer, TG.prompt).value == "ms-drift-primer@1"
    assert [v.value for v in values(index, primer, TG.followUp)] == ["Who is Jacob Marley?"]
    synthesis = synthesis_of(events)
    assert one(index, synthesis, TG.prompt).value == "ms-drift-reduce@1"
    cited = values(index, synthesis, TG.cites)
    assert len(cited) == 1 and TG.TextUnit in values(index, cited[0], RDF.type)
    # supported by the kept item of the follow-up's local search (a sub-trace) that showed it
    assert [one(index, item, TG.item) for item in values(index, synthesis, TG.supportedBy)] == cited
    assert "Reports (777777)" in one(index, synthesis, TG.citationNote).value
    validate(index)


def test_tiktoken_encodings_load_from_the_vendored_files(tmp_path, monkeypatch):
    """The rank files ship with ragprov: loading never writes to (or reads) the user's tiktoken cache,
    whose setting is left as it was; the counts are tiktoken's own."""
    import tiktoken

    from ragprov.llm import tokens

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    tokens.encoding.cache_clear()
    o200k = tokens.encoding("o200k_base")
    assert isinstance(o200k, tiktoken.Encoding) and o200k.name == "o200k_base"
    assert list(tmp_path.iterdir()) == [] and os.environ["TIKTOKEN_CACHE_DIR"] == str(tmp_path)
    assert o200k.decode(o200k.encode("Marley was dead: to begin with.")) == "Marley was dead: to begin with."
    assert tokens.encoding("cl100k_base").n_vocab == 100277 and o200k.n_vocab == 200019
