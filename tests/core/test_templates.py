"""Every template: a well-formed header, declared params == used variables, renders and runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragprov.errors import InvalidValueError, ParameterError, TemplateError
from ragprov.record.events import triples_by_graph
from ragprov.sparql import Catalog, Dialect, catalog

from .samples import samples

TESTS = Path(__file__).resolve().parents[1]
ALL = catalog().names()


@pytest.mark.parametrize("name", ALL)
def test_header_is_complete(name):
    info = catalog().info(name)
    assert info.summary.strip() and info.returns
    assert info.kind in ("update", "select", "ask")
    expected_ending = ".ru.j2" if info.kind == "update" else ".rq.j2"
    assert info.path.name.endswith(expected_ending), f"{name}: a {info.kind} template must end in {expected_ending}"
    for p in info.params.values():
        assert p.doc, f"{name}: parameter {p.name} has no doc"


@pytest.mark.parametrize("name", ALL)
def test_declared_params_equal_template_variables(name):
    cat = catalog()
    assert set(cat.info(name).params) == cat.variables(name)


@pytest.mark.parametrize("name", ALL)
def test_template_text_uses_only_portable_safe_constructs(name):
    text = catalog().info(name).path.read_text(encoding="utf-8")
    assert "|safe" not in text.replace(" ", ""), "templates never bypass the escaping guard"
    assert "{|" not in text and "|}" not in text, "annotation syntax does not move between engines"
    assert not re.search(r"~\s*[<?_]", text), "named reifiers do not move between engines"


def test_every_template_is_rendered_by_the_suite(request):
    """Run last (tests/conftest.py): every template was rendered by some test of this session, in
    this process. Only a run of the whole suite can tell."""
    from tests.conftest import PARTIAL_RUN, RENDERED_TEMPLATES

    files = {item.path for item in request.session.items}
    missing_files = sorted(str(p.relative_to(TESTS)) for p in set(TESTS.rglob("test_*.py")) - files)
    if PARTIAL_RUN or missing_files:
        pytest.skip(f"needs the whole suite ({'; '.join(PARTIAL_RUN) or 'not collected: ' + ', '.join(missing_files[:3])})")
    never = sorted(set(ALL) - RENDERED_TEMPLATES)
    assert not never, f"no test renders these templates: {never}"


@pytest.mark.parametrize("dialect", list(Dialect))
def test_core_templates_render_in_every_dialect(dialect):
    for name, params in samples().items():
        text = catalog().render(name, dialect, **params)
        if dialect is not Dialect.RDF12:
            assert "<<(" not in text
        if dialect is Dialect.REIFICATION:
            assert "<<" not in text


def test_core_templates_run(store):
    """Each core template runs on the store (every engine); updates write only named graphs."""
    for name, params in samples().items():
        text = catalog().render(name, store.dialect, **params)
        if catalog().info(name).kind == "update":
            store.update(text)
        else:
            store.query(text)
    # trace/delete ran last: the GraphRAG sample trace is gone, its stages and its edges with it.
    remaining = {r["s"].value for r in store.select("SELECT DISTINCT ?s WHERE { GRAPH <urn:graph:retrieval> { ?s ?p ?o } }")}
    assert not any(":sample" in s and ("prov:" in s or "question:" in s) for s in remaining), remaining
    assert "urn:trustgraph:agent:sample/i1" in remaining  # another trace: untouched


def test_record_updates_write_only_named_graphs():
    for name, params in samples().items():
        if not name.startswith("record/"):
            continue
        text = catalog().render(name, Dialect.RDF12, **params)
        by_graph = triples_by_graph(text)
        assert by_graph, name
        assert "" not in by_graph, f"{name} writes into the default graph"
        # a stage's document links (INSERT … WHERE before its INSERT DATA) go to the retrieval graph
        assert text.count("INSERT {") == text.count("INSERT { GRAPH <urn:graph:retrieval> { "), name


def test_reification_dialect_writes_statement_triples():
    text = catalog().render("record/focus", Dialect.REIFICATION, **samples()["record/focus"])
    assert "rdf-syntax-ns#Statement" in text and text.count("rdf-syntax-ns#subject") == 2


def test_rdfstar_spelling():
    text = catalog().render("record/focus", Dialect.RDFSTAR, **samples()["record/focus"])
    assert "<< <urn:e:scrooge> <urn:r:partnerOf> <urn:e:marley> >>" in text


def test_unknown_and_missing_params_are_errors():
    params = dict(samples()["trace/show"])
    with pytest.raises(ParameterError, match="takes no parameter bogus"):
        catalog().render("trace/show", Dialect.RDF12, bogus=1, **params)
    with pytest.raises(ParameterError, match="needs parameter 'question'"):
        catalog().render("trace/show", Dialect.RDF12)


def test_invalid_iri_rejected_before_rendering():
    with pytest.raises(InvalidValueError):
        catalog().render("trace/show", Dialect.RDF12, question="urn:x> } INSERT DATA { <a> <b> <c> } #")


def _catalog_with(tmp_path, name: str, body: str) -> Catalog:
    path = tmp_path / f"{name}.rq.j2"
    path.write_text("# summary: 'x'\n# kind: select\n# params:\n#   v: {type: string, doc: a value}\n# returns: 'x'\n" + body)
    return Catalog(tmp_path)


def test_a_value_printed_without_a_filter_is_refused(tmp_path):
    cat = _catalog_with(tmp_path, "raw", "SELECT * WHERE { ?s ?p {{ v }} }")
    with pytest.raises(TemplateError, match="without an escaping filter"):
        cat.render("raw", Dialect.RDF12, v='"x" } ; DROP ALL ; {')


def test_undefined_names_are_errors(tmp_path):
    cat = _catalog_with(tmp_path, "undef", "SELECT * WHERE { ?s ?p {{ v|string }} {{ w|string }} }")
    with pytest.raises(TemplateError):
        cat.render("undef", Dialect.RDF12, v="x")


def test_quoted_without_reifications_is_an_error(tmp_path):
    (tmp_path / "bad.ru.j2").write_text(
        "# summary: 'x'\n# kind: update\n# params:\n#   e: {type: triple, doc: an edge}\n# returns: 'x'\n"
        "INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> {{ quoted(e) }} } }"
    )
    from .samples import EDGE

    with pytest.raises(TemplateError, match="reifications"):
        Catalog(tmp_path).render("bad", Dialect.REIFICATION, e=EDGE)


def test_header_errors_are_clear(tmp_path):
    (tmp_path / "nohead.rq.j2").write_text("SELECT * WHERE { ?s ?p ?o }")
    with pytest.raises(TemplateError, match="no 'summary'"):
        Catalog(tmp_path)


def test_render_all_is_one_request_every_engine_takes(store):
    """Several stage updates in one request: PREFIX lines, if any, once, at the top (Oxigraph
    rejects a prologue after `;`; the record/ templates send their names written out)."""
    s = samples()
    text = catalog().render_all([("record/question", s["record/question"]), ("record/grounding", s["record/grounding"])], store.dialect)
    assert text.count(" ;\nINSERT DATA") == 1 and "PREFIX" not in text.split("INSERT", 1)[1]
    store.update(text)
    assert store.ask("ASK { GRAPH <urn:graph:retrieval> { ?g a <https://trustgraph.ai/ns/Grounding> } }")


def test_list_filters_escape_every_item_and_take_only_lists(tmp_path):
    """iri_list / quoted_list: a whole VALUES or object list in one filter call, each item escaped
    as iri / quoted() escape it; a bad item, a bare string or a free-text separator is refused."""
    from pyoxigraph import NamedNode, Triple

    head = "# summary: 'x'\n# kind: select\n# params:\n#   xs: {type: list, doc: IRIs}\n#   es: {type: list, doc: edges}\n# returns: 'x'\n"
    (tmp_path / "lists.rq.j2").write_text(head + "SELECT * WHERE { VALUES ?x { {{ xs|iri_list }} } VALUES ?e { {{ es|quoted_list }} } "
                                          "?s <urn:p> {{ xs|iri_list(', ') }} }")
    (tmp_path / "sep.rq.j2").write_text(head + "SELECT * WHERE { VALUES ?x { {{ xs|iri_list(' } ; DROP ALL ; { ') }} } }")
    cat = Catalog(tmp_path)
    a, b = NamedNode("urn:x:a"), NamedNode("urn:x:b")
    edge = Triple(a, NamedNode("urn:x:p"), b)
    text = cat.render("lists", Dialect.RDF12, xs=[a, "urn:x:b"], es=[edge])
    assert "VALUES ?x { <urn:x:a> <urn:x:b> }" in text
    assert "VALUES ?e { <<( <urn:x:a> <urn:x:p> <urn:x:b> )>> }" in text
    assert "?s <urn:p> <urn:x:a>, <urn:x:b> }" in text
    with pytest.raises(InvalidValueError):
        cat.render("lists", Dialect.RDF12, xs=[a, "urn:x:b> } ; DROP ALL ; {"], es=[edge])
    with pytest.raises(TemplateError, match="list of IRIs"):
        cat.render("lists", Dialect.RDF12, xs="urn:x:a", es=[edge])
    with pytest.raises(TemplateError, match="list of triples"):
        cat.render("lists", Dialect.RDF12, xs=[a], es=edge)
    with pytest.raises(TemplateError, match="separated by"):
        cat.render("sep", Dialect.RDF12, xs=[a], es=[])


def test_stage_child_links_and_their_list_name_the_same_properties():
    """trace/_stages.j2 spells a stage's links to its parts twice (a path, and a list for FILTER IN):
    a link in one and not the other hides that part from one of the views."""
    import re

    text = (catalog().root / "trace" / "_stages.j2").read_text()

    def body(macro: str) -> set[str]:
        found = re.search(r"{%\s*macro " + macro + r"\(\)\s*-?%}\s*(.*?)\s*{%-?\s*endmacro", text, re.S)
        assert found, macro
        return set(re.findall(r"tg:\w+", found.group(1)))

    assert body("child_links") == body("child_link_list")
