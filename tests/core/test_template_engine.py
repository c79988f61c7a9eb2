"""The template environment's shortcuts (attribute and item look-ups, ``map(attribute=…)``, the
``none`` test, the recorder's fragments put in place of their includes) give what Jinja2's own
environment gives, value for value."""

from __future__ import annotations

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
