"""The column-wise write path: Arrow spelling equals the row-wise spelling, the column-wise check
equals the row-wise check, and the background writer keeps batches bounded and errors loud."""

from __future__ import annotations

import datetime as _dt
import shutil

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragprov.errors import LoadError, StoreError
from ragprov.loaders import _columns as C
from ragprov.loaders._rdf import QuadWriter, integer, mint, string
from ragprov.loaders.graphrag import UNKNOWN_ENTITY_POLICIES, _check_columns, _check_rows, _Suspect, _text, load_graphrag, open_output
from ragprov.sparql.dialect import Dialect
from ragprov.store import EmbeddedStore

from .helpers import GRAPHRAG

_FIXED = _dt.datetime(2026, 1, 1, tzinfo=_dt.timezone.utc)
AWKWARD = [
    "",
    "plain",
    'say "hi"',
    "back\\slash",
    "line\nbreak\r\n\ttab",
    "ctrl\x00\x01\x08\x0b\x0c\x0e\x1f\x7f",
    "non-char \ufffe \uffff",
    "unicode é 雪 \U0001f600",
    " none ",
    "NaN",
    "Null",
    "nan\n",
    "   ",
    None,
]
texts = st.one_of(st.none(), st.text(), st.sampled_from([a for a in AWKWARD if a is not None]))


def _spelled(arr: pa.Array) -> list[str | None]:
    return arr.to_pylist()


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, max_size=12))
def test_literals_equal_string(values):
    expected = [None if v is None else string(v) for v in values]
    assert _spelled(C.literals(pa.array(values, pa.string()))) == expected
    assert _spelled(C.literals(pa.array(values, pa.large_string()))) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, max_size=12))
def test_text_literals_equal_text_then_string(values):
    expected = [string(_text(v)) if _text(v) else None for v in values]
    assert _spelled(C.text_literals(pa.array(values, pa.string()))) == expected


def test_text_literals_of_other_types_use_the_row_wise_text():
    values = [1, None, 2]
    assert _spelled(C.text_literals(pa.array(values, pa.int64()))) == [string("1"), None, string("2")]


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, max_size=12), st.sampled_from(["", "/statement"]))
def test_iris_equal_mint(values, suffix):
    expected = [None if v is None else mint("urn:graphrag:entity:", v, suffix) for v in values]
    assert _spelled(C.iris("urn:graphrag:entity:", pa.array(values, pa.string()), suffix)) == expected


@given(st.lists(st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1)), max_size=12))
def test_integers_equal_integer(values):
    assert _spelled(C.integers(pa.array(values, pa.int64()))) == [None if v is None else integer(v) for v in values]
    assert _spelled(C.iris("urn:c:", pa.array(values, pa.int64()))) == [None if v is None else mint("urn:c:", str(v)) for v in values]


def test_lines_leave_out_null_subjects_and_objects():
    lines = C.Lines()
    s = pa.array(["<urn:a>", None, "<urn:c>"])
    lines.add(s, "<urn:p>", pa.array(['"x"', '"y"', None]), "")
    lines.add(s, "<urn:q>", "<urn:o>", "<urn:g>")
    assert lines.n == 3
    assert lines.data.decode() == '<urn:a> <urn:p> "x" .\n<urn:a> <urn:q> <urn:o> <urn:g> .\n<urn:c> <urn:q> <urn:o> <urn:g> .\n'
    parsed = list(ox.parse(lines.data, format=ox.RdfFormat.N_QUADS))
    assert len(parsed) == 3


def test_lines_of_a_sliced_array():
    lines = C.Lines()
    arr = pa.array(["<urn:a>", "<urn:b>", "<urn:c>", "<urn:d>"]).slice(1, 2)
    lines.add(arr, "<urn:p>", "<urn:o>", "")
    assert lines.data.decode() == "<urn:b> <urn:p> <urn:o> .\n<urn:c> <urn:p> <urn:o> .\n"


@pytest.mark.parametrize("name", sorted(GRAPHRAG))
@pytest.mark.parametrize("policy", [p for p in UNKNOWN_ENTITY_POLICIES if p != "error"])
def test_column_check_builds_the_row_check_index(name, policy):
    out = open_output(GRAPHRAG[name])
    try:
        fast = _check_columns(out, policy)
    except _Suspect:  # an older layout: the row-wise check is the only one
        assert "nodes" in out.tables or not {"parent", "entity_ids"} <= out.tables["communities"].columns.keys()
        return
    assert fast == _check_rows(out, policy)


def test_doubtful_value_falls_back_to_the_row_error(tmp_path, memory_store):
    src = GRAPHRAG["operation-dulce-v3"]
    folder = tmp_path / "out"
    shutil.copytree(src, folder)
    for f in folder.iterdir():
        f.chmod(0o644)
    table = pq.read_table(folder / "entities.parquet")
    ids = table.column("id").to_pylist()
    ids[3] = "   "  # blank: the column check does not judge it, the row check names the row
    table = table.set_column(table.schema.get_field_index("id"), "id", pa.array(ids, pa.string()))
    pq.write_table(table, folder / "entities.parquet")
    before = memory_store.count()
    with pytest.raises(LoadError, match=r"entities.parquet: table 'entities', row 3, column 'id'"):
        load_graphrag(memory_store, folder, show_progress=False)
    assert memory_store.count() == before


class _Recording(EmbeddedStore):
    """An embedded store with its own ``load``: it keeps the size of every batch (and may fail)."""

    def __init__(self, dialect=Dialect.RDF12, fail_at: int | None = None):
        super().__init__()
        self.dialect = dialect
        self.sizes: list[int] = []
        self.triples: list[int] = []  # as the reification dialect spells them
        self.fail_at = fail_at

    def load(self, data, *, format="nquads", graph=None):
        if self.fail_at is not None and len(self.sizes) == self.fail_at:
            raise StoreError("the store failed a load: disk full")
        self.sizes.append(bytes(data).count(b"\n"))
        self.triples.append(self.sizes[-1] + 4 * bytes(data).count(b"<<("))
        super().load(data, format=format, graph=graph)


def test_sparql_dialect_stores_get_small_batches():
    store = _Recording(Dialect.REIFICATION)  # QuadWriter keeps batches of at most 1000 quads
    w = QuadWriter(store, background=True)
    lines = C.Lines()
    subjects = C.iris("urn:x:", pa.array([str(i) for i in range(2500)]))
    lines.add(subjects, "<urn:p>", C.literals(pa.array(["v"] * 2500)), "<urn:g>")
    w.buffers(lines.buffers())
    for _ in range(3):  # parts of 600 quads: never two in one request
        part = C.Lines()
        part.add(subjects.slice(0, 600), "<urn:q>", "<urn:o>", "<urn:g>")
        w.buffers(part.buffers())
    w.lines("".join(f"<urn:r:{i}> <urn:p> <urn:o> .\n" for i in range(700)), 700)
    w.close()
    assert max(store.sizes) <= 1000 and sum(store.sizes) == 2500 + 1800 + 700 == w.written


def test_graphrag_load_keeps_sparql_requests_small():
    """At most 1000 triples a request once quoted triples become rdf:Statement IRIs (Virtuoso
    refuses requests whose SQL grows too long)."""
    store = _Recording(Dialect.REIFICATION)
    load_graphrag(store, GRAPHRAG["operation-dulce-v3"], show_progress=False)
    assert store.sizes and max(store.sizes) <= 1000
    assert max(store.triples) <= 1000
    store = _Recording(Dialect.REIFICATION)  # communities and reports: row-wise text blocks too
    load_graphrag(store, GRAPHRAG["christmas-carol-v3"], show_progress=False)
    assert max(store.triples) <= 1000


def test_quoted_triples_weigh_more_on_sparql_stores():
    store = _Recording(Dialect.REIFICATION)
    w = QuadWriter(store)
    lines = C.Lines()
    s = C.iris("urn:s:", pa.array([str(i) for i in range(900)]))
    lines.add(s, "<urn:reifies>", pc.binary_join_element_wise("<<( ", s, " <urn:p> <urn:o> )>>", ""), "<urn:g>")
    w.buffers(lines.buffers())
    w.close()
    assert w.written == 900 and max(store.triples) <= 1000 and len(store.sizes) == 5


def test_background_write_failure_is_raised_and_later_batches_dropped():
    store = _Recording(fail_at=1)
    w = QuadWriter(store, batch_size=10, background=True)
    for i in range(50):
        try:
            w.add(f"<urn:s:{i}>", "<urn:p>", '"o"')
        except StoreError:
            break
    with pytest.raises(StoreError, match="disk full"):
        w.close()
    assert store.sizes == [10] and w.written == 10


def test_loader_is_the_same_with_an_overridden_load(tmp_path):
    """The trusted fast path (the embedded store's pyoxigraph store, lenient parse) writes the very
    quads ``Store.load`` writes."""
    plain, own = EmbeddedStore(), _Recording()
    for store in (plain, own):
        load_graphrag(store, GRAPHRAG["operation-dulce-v3"], show_progress=False, clock=lambda: _FIXED)
    assert own.sizes  # the store's own load was used
    assert sorted(plain.dump().splitlines()) == sorted(own.dump().splitlines())
