"""The template environment's shortcuts (attribute and item look-ups, ``map(attribute=…)``, the
``none`` test, the recorder's fragments put in place of their includes) give what Jinja2's own
environment gives, value for value."""

from __future__ import annotations

import re
from typing import NamedTuple

import jinja2
import pytest

from ragprov.sparql.templates import Sparql, _environment


class Row(NamedTuple):
    iri: str
    n: int | None


class Obj:
    iri = "obj"
    n = 0

    def __getitem__(self, key):
        return f"item {key}"


ROWS = [Row("a", None), {"iri": "b", "n": 2, "items": "shadowed"}, Obj(), ("x", "y"), {"n": 3}]

EXPRESSIONS = [
    "row.iri", "row.n", "row.n is none", "row.n is not none", "row['iri']", "row.items", "row.count", "row[0]",
    "rows|map(attribute='n')|list", "rows|map(attribute='0')|list",
    "rows|map(attribute='iri', default='none')|list", "rows|selectattr('n')|list", "row.iri is defined",
]


@pytest.fixture(scope="module")
def environments(tmp_path_factory):
    plain = jinja2.Environment(undefined=jinja2.StrictUndefined)
    return plain, _environment(tmp_path_factory.mktemp("templates"))


def _plain(value):
    """``value`` comparable: an Undefined as its name, a method as its name, lists item by item."""
    if isinstance(value, jinja2.Undefined):
        return f"undefined {value._undefined_name}"
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return getattr(value, "__name__", "callable") if callable(value) else value


def _evaluate(env, expression, row):
    try:
        return "value", _plain(env.compile_expression(expression)(row=row, rows=ROWS))
    except jinja2.UndefinedError as e:
        return "undefined", str(e)
    except (TypeError, KeyError, IndexError) as e:
        return type(e).__name__, None


@pytest.mark.parametrize("expression", EXPRESSIONS)
@pytest.mark.parametrize("row", range(len(ROWS)))
def test_lookups_are_jinja2s(environments, expression, row):
    plain, ours = environments
    assert _evaluate(ours, expression, ROWS[row]) == _evaluate(plain, expression, ROWS[row])


def test_a_missing_name_stays_an_error(environments):
    _, ours = environments
    with pytest.raises(jinja2.UndefinedError):
        ours.from_string("{{ (row.missing ~ '') }}").render(row={"iri": "b"})
    with pytest.raises(jinja2.UndefinedError):
        ours.from_string("{{ (row.missing ~ '') }}").render(row=Row("a", 1))


def test_recorder_fragments_are_inlined_with_the_same_output(tmp_path):
    """An inlined fragment renders as its include did (the newlines around it, its comment, its
    set and its if), and is really inlined."""
    (tmp_path / "record").mkdir()
    (tmp_path / "record" / "_frag.j2").write_text("{# note #}\n{% set y = 2 %}\n{% if x %}\nX{{ x }}\n{% endif %}\n")
    (tmp_path / "record" / "main.j2").write_text('a\n{% include "record/_frag.j2" %}\nb{{ x }}\n')
    ours = _environment(tmp_path)
    plain = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True)
    assert "include" not in ours.loader.get_source(ours, "record/main.j2")[0]
    for x in ("", "1"):
        expected = plain.get_template("record/main.j2").render(x=x)
        assert ours.get_template("record/main.j2").render(x=Sparql(x)) == expected
        assert expected.startswith("a\n") and expected.endswith(f"b{x}\n")


# -- escaping filters printed straight out of a template without autoescape --------------------

_HEAD = "# summary: 'x'\n# kind: select\n# params:\n#   v: {type: object, doc: a value}\n# returns: 'x'\n"
_FILTERS = ("iri", "string", "integer", "double", "datetime", "boolean", "literal", "term")


def _printing_catalogs(tmp_path):
    """The same filters printed by a record/ template (no autoescape: the compiler calls their text
    functions) and by a read template (autoescape: the Sparql filters, checked by finalize)."""
    from ragprov.sparql.templates import Catalog

    body = "".join(f"{{% if f == '{f}' %}}{{{{ v|{f} }}}}{{% endif %}}\n" for f in _FILTERS)
    (tmp_path / "record").mkdir()
    (tmp_path / "record" / "printed.rq.j2").write_text(_HEAD.replace("a value}", "a value}\n#   f: {type: string, doc: which}") + body)
    (tmp_path / "read.rq.j2").write_text(_HEAD.replace("a value}", "a value}\n#   f: {type: string, doc: which}") + body)
    return Catalog(tmp_path)


VALUES = {
    "iri": ["urn:x:a", "http://example.org/é", "urn:x:a> } ; DROP ALL ; {", "urn:x a", ""],
    "string": ["plain", 'quote " and \\ and \n', "\ud800", 3],
    "integer": [7, -2, True, 2.5, "7"],
    "double": [0.93, 1e300, float("nan"), 3, "x"],
    "datetime": ["2026-01-01T00:00:00Z", "yesterday"],
    "boolean": [True, False, 1],
    "literal": ["x", 3, 2.5, object()],
    "term": ["urn:x:a", 3, object()],
}


@pytest.mark.parametrize("name", _FILTERS)
def test_a_printed_filter_gives_the_filters_text_and_refuses_what_it_refuses(tmp_path, name):
    """``{{ v|iri }}`` in a record/ template is compiled to the filter's text function (no Sparql
    wrapper, no finalize): the same text as the filter, and the same refusals."""
    import datetime as dt

    from pyoxigraph import NamedNode

    from ragprov.sparql import Dialect

    cat = _printing_catalogs(tmp_path)
    values = [*VALUES[name], NamedNode("urn:x:n"), dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)]

    def outcome(template, value):
        try:
            return cat.render(template, Dialect.RDF12, v=value, f=name)
        except Exception as e:  # the same error, whatever it is
            return type(e).__name__

    results = [(outcome("record/printed", v), outcome("read", v)) for v in values]
    assert all(a == b for a, b in results), results
    assert any(not r[0].endswith("Error") for r in results) and any(r[0].endswith("Error") for r in results)


def test_record_templates_print_filters_without_the_wrapper_and_others_with_it(tmp_path):
    """What the compiler writes: in a template without autoescape a printed escaping filter is the
    filter's text function and nothing else; a printed expression that is not one keeps the check,
    and so does every print of an autoescaped template."""
    cat = _printing_catalogs(tmp_path)
    env = cat._env
    (tmp_path / "record" / "other.rq.j2").write_text(_HEAD + "{{ v|iri if v }} {{ v }}\n")
    record = env.compile(env.loader.get_source(env, "record/printed.rq.j2")[0], "record/printed.rq.j2", raw=True)
    other = env.compile(env.loader.get_source(env, "record/other.rq.j2")[0], "record/other.rq.j2", raw=True)
    read = env.compile(env.loader.get_source(env, "read.rq.j2")[0], "read.rq.j2", raw=True)
    assert "environment.filters['printed:iri']" in record and "finalize" not in record
    assert other.count("environment.finalize(") == 2 and "printed:" not in other
    assert "printed:" not in read and read.count("finalize") >= len(_FILTERS)


def test_a_filter_name_with_a_colon_cannot_be_written_in_a_template(tmp_path):
    (tmp_path / "record").mkdir()
    (tmp_path / "record" / "colon.rq.j2").write_text(_HEAD + "{{ v|printed:iri }}\n")
    from ragprov.sparql.templates import Catalog

    with pytest.raises(jinja2.TemplateSyntaxError):
        Catalog(tmp_path).template("record/colon")


def test_the_compiler_key_follows_the_code_generators_code_not_its_place():
    """The compiled-template cache key is derived from the code generator: another method body
    changes it, the same code written elsewhere (another file, other lines) does not."""
    from ragprov.sparql.templates import _CodeGenerator, compiler_key

    source = (
        "class Gen(base):\n"
        "    def visit_Test(self, node, frame):\n"
        "        return super().visit_Test(node, frame){extra}\n"
    )

    def generator(extra="", pad=0, filename="a.py"):
        scope = {"base": _CodeGenerator}
        exec(compile("\n" * pad + source.format(extra=extra), filename, "exec"), scope)
        return scope["Gen"]

    base = compiler_key(generator())
    assert compiler_key(generator(pad=30, filename="elsewhere/b.py")) == base
    assert compiler_key(generator(extra=" or None")) != base
    assert compiler_key(_CodeGenerator) == compiler_key() != base
    decorated = (
        "class Gen(base):\n"
        "    @jinja2.compiler.optimizeconst\n"
        "    def visit_Getattr(self, node, frame):\n"
        "        self.write({body!r})\n"
    )

    def wrapped(body):
        scope = {"base": _CodeGenerator, "jinja2": jinja2}
        exec(compile(decorated.format(body=body), "c.py", "exec"), scope)
        return scope["Gen"]

    assert compiler_key(wrapped("a")) != compiler_key(wrapped("b"))  # the decorated method's own body


def test_the_compiler_key_follows_the_text_rewriting_too(monkeypatch):
    from ragprov.sparql import templates

    key = templates.compiler_key.__wrapped__()
    assert templates.compiler_key.__wrapped__() == key
    monkeypatch.setattr(templates, "_expand_prefixes", lambda texts: None)
    assert templates.compiler_key.__wrapped__() != key
    monkeypatch.undo()
    monkeypatch.setattr(templates, "_STATIC_TOKEN", re.compile(templates._STATIC_TOKEN.pattern + "|x"))
    assert templates.compiler_key.__wrapped__() != key


def test_the_header_is_neither_sent_nor_miscounted(tmp_path):
    """The header's lines are not in the text sent (not even as blank lines: each costs the
    store's parser), and an error is still reported at its line of the file."""
    from ragprov.sparql import Dialect
    from ragprov.sparql.templates import Catalog

    (tmp_path / "ok.rq.j2").write_text(_HEAD + "SELECT * WHERE {\n  ?s ?p {{ v|string }} }\n")
    (tmp_path / "bad.rq.j2").write_text(_HEAD + "SELECT * WHERE {\n{% endif %}\n}\n")
    cat = Catalog(tmp_path)
    assert cat.render("ok", Dialect.RDF12, v="x") == 'SELECT * WHERE {\n  ?s ?p "x" }\n'
    with pytest.raises(jinja2.TemplateSyntaxError) as error:
        cat.template("bad")
    assert error.value.lineno == _HEAD.count("\n") + 2


def test_every_recorded_update_starts_with_its_first_keyword():
    from ragprov.record import Recorder
    from ragprov.sparql import Dialect

    from .builders import agent_trace, doc_rag_trace

    class Capture:
        dialect = Dialect.RDF12

        def __init__(self):
            self.updates: list[str] = []

        def update(self, sparql: str) -> None:
            self.updates.append(sparql)

    capture = Capture()
    recorder = Recorder(capture)
    doc_rag_trace(recorder)
    agent_trace(recorder)
    assert len(capture.updates) > 8
    assert all(u.startswith("INSERT") for u in capture.updates), [u[:20] for u in capture.updates]


def test_dialect_is_names_each_dialect_as_dialect_parse_does(tmp_path):
    from ragprov.errors import ConfigurationError
    from ragprov.sparql import Dialect

    env = _environment(tmp_path)
    for rendered in Dialect:
        for name in [*(d.value for d in Dialect), " Reification", "RDF12"]:
            got = env.from_string("{% if dialect_is(name) %}yes{% endif %}").render(_dialect=rendered, name=name)
            assert (got == "yes") == (Dialect.parse(name) is rendered), (rendered, name)
    with pytest.raises(ConfigurationError):
        env.from_string("{% if dialect_is('rdf13') %}yes{% endif %}").render(_dialect=Dialect.RDF12)


def test_attributes_of_loop_variables_are_jinja2s_and_take_the_short_way(environments):
    """``r.name`` on a variable compiles to the builtin getattr with Jinja2's look-up behind it:
    the same values, items and Undefined errors as Jinja2's, row by row."""
    plain, ours = environments
    source = ("{% for r in rows %}[{% if r.iri is defined %}{{ r.iri }}{% endif %}|{% if r.n is defined %}{{ r.n }}{% endif %}|"
              "{{ r.items is defined }}|{{ r.count is defined }}]{% endfor %}")
    expected = plain.from_string(source).render(rows=ROWS)
    got = ours.from_string(source.replace("{{ r.", "{{ text(r.").replace(" }}", ") }}")).render(
        rows=ROWS, text=lambda v: Sparql(str(v)))
    assert got == expected and expected.count("[") == len(ROWS)
    code = ours.compile(source, raw=True)
    assert "getattr(l_1_r, 'iri', missing)" in code
    with pytest.raises(jinja2.UndefinedError):
        ours.from_string("{% for r in rows %}{{ (r.missing ~ '') }}{% endfor %}").render(rows=[Row("a", 1)])


def test_the_string_filters_short_way_agrees_with_sparql_string_on_every_code_point():
    """Each code point, alone and inside text: the string filter's text is sparql_string's (or both
    refuse it): the printable-text check lets through nothing the escaping would change."""
    from ragprov.errors import InvalidValueError
    from ragprov.sparql.escape import sparql_string
    from ragprov.sparql.templates import _string_text

    def outcome(function, text):
        try:
            return function(text)
        except InvalidValueError:
            return "refused"

    differing = [cp for cp in range(0x110000) for text in (chr(cp), f"a {chr(cp)}b")
                 if outcome(_string_text, text) != outcome(sparql_string, text)]
    assert differing == []
    assert _string_text('say "hi"\\n') == sparql_string('say "hi"\\n') == '"say \\"hi\\"\\\\n"'


# -- the record/ templates' prefixed names, written out -------------------------------------------

_PROLOGUE = "PREFIX tg: <https://trustgraph.ai/ns/>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"


def _expanded(*texts: str) -> list[str]:
    from ragprov.sparql.templates import _expand_prefixes

    nodes = [jinja2.nodes.TemplateData(t) for t in texts]
    _expand_prefixes(nodes)
    return [n.data for n in nodes]


def test_prefixed_names_are_written_out_and_nothing_else_is():
    got = _expanded(
        _PROLOGUE + 'INSERT DATA { <urn:tg:x> a tg:Focus ; tg:label "tg:Focus #1" ; tg:n "1"^^xsd:integer .\n',
        " ; tg:p/tg:q|^tg:r ?o . ?s tg:a.b tg:c. # tg:comment\n <http://x/tg:y> tg:edge <<( <urn:a> tg:p <urn:b> )>> . }",
    )
    assert got == [
        'INSERT DATA { <urn:tg:x> a <https://trustgraph.ai/ns/Focus> ; <https://trustgraph.ai/ns/label> "tg:Focus #1" ; '
        '<https://trustgraph.ai/ns/n> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',
        " ; <https://trustgraph.ai/ns/p>/<https://trustgraph.ai/ns/q>|^<https://trustgraph.ai/ns/r> ?o . "
        "?s <https://trustgraph.ai/ns/a.b> <https://trustgraph.ai/ns/c>. # tg:comment\n <http://x/tg:y> "
        "<https://trustgraph.ai/ns/edge> <<( <urn:a> <https://trustgraph.ai/ns/p> <urn:b> )>> . }",
    ]


@pytest.mark.parametrize("text", [
    "INSERT DATA { <urn:a> dc:title 'x' }",              # a prefix not declared
    "INSERT DATA { <urn:a> tg:a%20b 'x' }",              # an escape in a local name
    "INSERT DATA { <urn:a> tg:a:b 'x' }",                # a colon in a local name
    "INSERT DATA { <urn:a> tg:a\\.b 'x' }",              # a backslash escape
    "INSERT DATA { <urn:a> tg:x 'x' } ;\nPREFIX tg: <urn:other#>\nINSERT DATA { <urn:a> tg:x 1 }",  # declared again
    "BASE <urn:b/>\nINSERT DATA { <a> tg:x 1 }",
    "INSERT DATA { <<tg:s tg:p tg:o>> tg:x 1 }",          # a name right after '<<'
    "INSERT DATA { <urn:a> tg:x <urn:o>.tg:b tg:c 1 }",  # a name right after '.'
    "INSERT DATA { <urn:a> tg:x 1.tg:b tg:c 1 }",
])
def test_a_template_whose_names_are_not_plain_is_left_as_it_is(text):
    assert _expanded(_PROLOGUE + text, " tg:x ") == [_PROLOGUE + text, " tg:x "]
    assert _expanded("INSERT DATA { <urn:a> tg:x 1 }") == ["INSERT DATA { <urn:a> tg:x 1 }"]  # nothing declared


def test_long_strings_are_left_alone_and_the_names_around_them_written_out():
    got = _expanded(_PROLOGUE + 'INSERT DATA { <urn:a> tg:x """x " tg:b""" , \'\'\'y \' tg:c\'\'\' }')
    assert got == ['INSERT DATA { <urn:a> <https://trustgraph.ai/ns/x> """x " tg:b""" , \'\'\'y \' tg:c\'\'\' }']


@pytest.mark.parametrize("texts", [
    ("INSERT DATA { <urn:a> tg:was", "Generated", "By 1 }"),     # a name a tag continues
    ("INSERT DATA { <urn:a> tg", ":x 1 }"),                     # cut before its colon
    ("INSERT DATA { <urn:a> tg:x ", "tg:y 1 }"),                # a name a tag may have started
    ('INSERT DATA { <urn:a> tg:x "n', ' tg:b" }'),             # a string a tag cuts
    ('INSERT DATA { <urn:a> tg:x """n', ' tg:b""" }'),
])
def test_a_name_or_string_a_tag_cuts_leaves_the_template_as_it_is(texts):
    texts = (_PROLOGUE + texts[0], *texts[1:])
    assert _expanded(*texts) == list(texts)


@pytest.mark.parametrize("dialect", ["rdf12", "reification"])
def test_every_record_template_writes_the_same_quads_with_its_names_written_out(tmp_path, dialect):
    """Every record/ sample update, rendered with its prefixed names written out (no PREFIX
    line) and as the file spells it, writes the same quads (and every sample is written out)."""
    import pyoxigraph as ox

    from ragprov.sparql import Dialect
    from ragprov.sparql.templates import Catalog, _CodeGenerator

    from .samples import all_update_samples

    class AsWritten(_CodeGenerator):
        def expand_prefixes(self, texts):
            pass

    expanded, as_written = Catalog(), Catalog()
    as_written._env.bytecode_cache = None  # its code is not the package compiler's: never cached
    as_written._env.code_generator_class = AsWritten
    samples = {name: params for name, params in all_update_samples().items() if name.startswith("record/")}
    assert len(samples) >= 15
    for name, params in samples.items():
        a, b = (c.render(name, Dialect(dialect), **params) for c in (expanded, as_written))
        assert "PREFIX" not in a and "PREFIX" in b and a != b, name
        quads = []
        for text in (a, b):
            store = ox.Store()
            store.update(text)
            quads.append(sorted(map(str, store)))
        assert quads[0] == quads[1] and quads[0], name
