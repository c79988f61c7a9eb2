"""Column-at-a-time spelling: whole Arrow columns turned into N-Quads text by ``pyarrow.compute``.

The row-by-row path (:mod:`ragprov.loaders._rdf`) spends a Python call or two per quad; for the
large GraphRAG tables that costs more than the store takes to insert the quads. Here each term
column is spelled once for a whole record batch (escaping, IRI minting and line assembly run in
Arrow's C++ kernels) and the lines of one predicate are produced as a single UTF-8 buffer, handed
to the store as is. Every function gives exactly the text of its row-wise twin in ``_rdf`` (the
rare inputs those kernels cannot spell — control characters, keys needing percent-encoding, types
other than strings and integers — are spelled by the very same Python functions), and a test
compares both on awkward values.

N-Quads is a set of lines: quads of one batch are written predicate by predicate, not row by row.

>>> lines = Lines()
>>> s = iris("urn:x:", pa.array(["a", "b c", None]))
>>> lines.add(s, "<urn:x:p>", literals(pa.array(['say "hi"', None, "x"])), "<urn:g>")
>>> print(lines.data.decode(), end="")
<urn:x:a> <urn:x:p> "say \\"hi\\"" <urn:g> .
>>> lines.n
1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ._rdf import integer, mint, string

__all__ = ["Lines", "id_lists", "integers", "iris", "literals", "nulls", "pymap", "rows", "text", "text_literals", "text_values"]

_RARE = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x{fffe}\x{ffff}]"  # RE2 spelling of _rdf._RARE_ESCAPE
_PLAIN_KEY = r"^[A-Za-z0-9._~:@-]*$"  # RE2 spelling of _rdf._PLAIN_KEY (full match)
_ESCAPES = (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"))
# every byte but the ASCII ones _RARE matches (U+FFFE and U+FFFF are looked for as UTF-8 sequences)
_NOT_RARE = bytes(b for b in range(256) if not (b <= 0x08 or b in (0x0B, 0x0C) or 0x0E <= b <= 0x1F or b == 0x7F))
_NONE_WORDS = {"", "none", "null", "nan"}
_XSD_INTEGER = '"^^<http://www.w3.org/2001/XMLSchema#integer>'


def _is_str(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


def nulls(n: int) -> pa.Array:
    """``n`` nulls (a column the table does not have: no quads)."""
    return pa.nulls(n, pa.string())


def rows(start: int, n: int) -> pa.Array:
    """Row numbers ``start .. start + n - 1`` (for error-free per-row fallbacks)."""
    return pa.array(range(start, start + n), pa.int64())


def pymap(values: list[Any], fn: Callable[[Any], str | None]) -> pa.Array:
    """Spell each non-null value with ``fn`` (the row-wise spelling; ``fn`` may return None)."""
    return pa.array([None if v is None else fn(v) for v in values], pa.string())


def literals(arr: pa.Array) -> pa.Array:
    """Plain literals of a string column, exactly as :func:`ragprov.loaders._rdf.string` spells them."""
    if not _is_str(arr.type):
        return pymap(arr.to_pylist(), lambda v: string(v))
    if not pa.types.is_string(arr.type):
        arr = arr.cast(pa.string())
    # One look at the column's bytes (memchr-fast) says which escapes can occur at all: a
    # replace or a regex scan over long texts costs more than this look.
    blob = bytes(_values(arr))
    esc = arr
    for old, new in _ESCAPES:
        if old.encode() in blob:
            esc = pc.replace_substring(esc, old, new)
    out = pc.binary_join_element_wise('"', esc, '"', "")
    if blob.translate(None, _NOT_RARE) or b"\xef\xbf\xbe" in blob or b"\xef\xbf\xbf" in blob:
        rare = pc.match_substring_regex(arr, _RARE)
        if pc.any(rare).as_py():
            flags = rare.to_pylist()
            fallback = [string(v) if f else None for v, f in zip(arr.to_pylist(), flags, strict=False)]
            out = pc.if_else(pc.fill_null(rare, False), pa.array(fallback, pa.string()), out)
    return out


def text(value: Any) -> str | None:
    """``value`` as text, or None for GraphRAG's spellings of nothing ("", "NONE", "None", "nan")."""
    if value is None:
        return None
    if type(value) is not str:
        value = str(value)
    if len(value) > 6:
        return value
    return None if value.strip().lower() in _NONE_WORDS else value


def _text_valid(arr: pa.Array) -> pa.Array:
    """True where the loaders' ``_text`` keeps a string value (not null, not "", "none", "null", "nan")."""
    short = pc.filter(arr, pc.less_equal(pc.utf8_length(arr), 6))
    words = [v for v in pc.unique(short).to_pylist() if v is not None and v.strip().lower() in _NONE_WORDS]
    valid = pc.is_valid(arr)
    if words:
        valid = pc.and_(valid, pc.invert(pc.is_in(arr, value_set=pa.array(words, arr.type))))
    return valid


def text_values(arr: pa.Array) -> pa.Array:
    """The column as ``_text`` reads it: values, with GraphRAG's spellings of nothing made null."""
    if not _is_str(arr.type):
        return pa.array([text(v) for v in arr.to_pylist()], pa.string())
    return pc.if_else(_text_valid(arr), arr, pa.scalar(None, arr.type))


def text_literals(arr: pa.Array) -> pa.Array:
    """``string(_text(v))`` where ``_text(v)`` is something, else null."""
    return literals(text_values(arr))


def integers(arr: pa.Array) -> pa.Array:
    """``xsd:integer`` literals of an integer column (other types: :func:`_rdf.integer` per value)."""
    if not pa.types.is_integer(arr.type):
        return pymap(arr.to_pylist(), integer)
    return pc.binary_join_element_wise('"', pc.cast(arr, pa.string()), _XSD_INTEGER, "")


def iris(prefix: str, arr: pa.Array, suffix: str = "") -> pa.Array:
    """``mint(prefix, key, suffix)`` for each key of a string or integer column."""
    if pa.types.is_integer(arr.type):
        arr = pc.cast(arr, pa.string())
    elif not _is_str(arr.type):
        return pymap(arr.to_pylist(), lambda v: mint(prefix, v, suffix))
    elif not pa.types.is_string(arr.type):
        arr = arr.cast(pa.string())
    out = pc.binary_join_element_wise("<" + prefix, arr, suffix + ">", "")
    plain = pc.match_substring_regex(arr, _PLAIN_KEY)
    if not pc.all(plain).as_py():
        flags = plain.to_pylist()
        fallback = [mint(prefix, v, suffix) if f is False else None for v, f in zip(arr.to_pylist(), flags, strict=False)]
        out = pc.if_else(pc.fill_null(plain, True), out, pa.array(fallback, pa.string()))
    return out


def id_lists(arr: pa.Array) -> tuple[pa.Array, pa.Array]:
    """``(row index, id)`` for every id of a ``list[str]`` (or single ``str``) column, nulls left out."""
    if pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type):
        parents = pc.list_parent_indices(arr)
        values = pc.list_flatten(arr)
    else:
        parents = pa.array(range(len(arr)), pa.int64())
        values = arr
    keep = pc.is_valid(values)
    if not pc.all(keep).as_py():
        parents, values = pc.filter(parents, keep), pc.filter(values, keep)
    return parents, values


class Lines:
    """N-Quads lines of one record batch, built predicate by predicate as one UTF-8 buffer."""

    def __init__(self) -> None:
        self._parts: list[pa.Array] = []
        self.n = 0

    def add(self, s: pa.Array | str, p: str, o: pa.Array | str, g: str) -> None:
        """``s p o g`` for every row where both ``s`` and ``o`` are not null (``p``, ``g``: spelled
        constants; ``g=""``: the default graph)."""
        self._append(pc.binary_join_element_wise(s, " " + p + " ", o, f" {g} .\n" if g else " .\n", ""))

    def add_spo(self, s: pa.Array, p: pa.Array, o: pa.Array, g: str) -> None:
        """``s p o g`` with the predicate a column too (GraphRAG relationships are properties)."""
        self._append(pc.binary_join_element_wise(s, " ", p, " ", o, f" {g} .\n" if g else " .\n", ""))

    def _append(self, arr: pa.Array) -> None:
        if arr.null_count:
            arr = pc.drop_null(arr)
        if len(arr):
            self._parts.append(arr)
            self.n += len(arr)

    @property
    def data(self) -> bytes:
        """The lines, as one buffer of UTF-8 N-Quads."""
        return b"".join(view for view, _ in self.buffers())

    def buffers(self) -> list[tuple[memoryview, int]]:
        """The lines as ``(view of an Arrow buffer, quads in it)`` (no copy: the writer joins
        the views of one store batch once)."""
        return [(_utf8(a), len(a)) for a in self._parts]


def _utf8(arr: pa.Array) -> memoryview:
    """The concatenated values of a null-free string array: a view of its data buffer."""
    return _values(arr)


def _values(arr: pa.Array) -> memoryview:
    """A view of the bytes holding a string array's values (with any bytes behind null slots)."""
    offsets = arr.buffers()[1]
    data = arr.buffers()[2]
    raw = memoryview(offsets).cast("B")
    mv = raw.cast("q") if pa.types.is_large_string(arr.type) else raw.cast("i")
    start, end = mv[arr.offset], mv[arr.offset + len(arr)]
    return memoryview(data)[start:end] if data is not None else memoryview(b"")
