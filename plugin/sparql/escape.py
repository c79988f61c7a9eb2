"""Spelling values as SPARQL terms: the only way a value enters query text.

Every function here either returns a syntactically closed SPARQL term or raises
:class:`~ragprov.errors.InvalidValueError`; none of them can change the shape of the query around
the term, whatever the value holds.

>>> sparql_iri("https://example.org/a")
'<https://example.org/a>'
>>> sparql_string('say "hi"\\n')
'"say \\\\"hi\\\\"\\\\n"'
>>> sparql_term(3)
'"3"^^<http://www.w3.org/2001/XMLSchema#integer>'
>>> sparql_iri("https://example.org/a> } ; DROP ALL ; {")
Traceback (most recent call last):
...
ragprov.errors.InvalidValueError: not an absolute IRI: 'https://example.org/a> } ; DROP ALL ; {' (Invalid IRI code point '>')
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import sys
from typing import TYPE_CHECKING

from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from ..errors import InvalidValueError
from ..namespaces import XSD

if TYPE_CHECKING:
    from decimal import Decimal
    from typing import TypeGuard

__all__ = [
    "XSD_STRING",
    "sparql_boolean",
    "sparql_datetime",
    "sparql_double",
    "sparql_integer",
    "sparql_iri",
    "sparql_literal",
    "sparql_string",
    "sparql_term",
    "to_literal",
    "to_named_node",
]

_XSD = str(XSD)
XSD_STRING = _XSD + "string"
_RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"

# SPARQL IRIREF forbids these; pyoxigraph's IRI parser forbids them too, but we state it here.
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')
_LANG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*\Z")  # \Z: "$" would let a trailing newline through
# ECHAR escapes for what STRING_LITERAL_QUOTE may not hold, plus other control characters spelled
# as UCHAR so that no store sees a raw control character.
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f\ufffe\uffff\ud800-\udfff]')
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _escape_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04X}"


def to_named_node(value: object) -> NamedNode:
    """Validate ``value`` (a :class:`NamedNode` or a string) as an absolute IRI.

    A :class:`NamedNode` is checked again: one parsed leniently, or read back from a store, may hold
    anything.
    """
    if isinstance(value, NamedNode):
        if _IRI_FORBIDDEN.search(value.value) is None:
            return value
        value = value.value
    if not isinstance(value, str):
        raise InvalidValueError(f"expected an IRI, got {type(value).__name__}: {value!r}")
    if _IRI_FORBIDDEN.search(value):
        bad = _IRI_FORBIDDEN.search(value).group(0)  # type: ignore[union-attr]
        raise InvalidValueError(f"not an absolute IRI: {value!r} (Invalid IRI code point {bad!r})")
    try:
        return NamedNode(value)
    except ValueError as e:
        raise InvalidValueError(f"not an absolute IRI: {value!r} ({e})") from None


def sparql_iri(value: object) -> str:
    """``<iri>`` for a valid absolute IRI; raises :class:`InvalidValueError` otherwise."""
    return f"<{to_named_node(value).value}>"


def sparql_string(value: str) -> str:
    """A plain (``xsd:string``) literal holding exactly ``value``."""
    if not isinstance(value, str):
        raise InvalidValueError(f"expected a string, got {type(value).__name__}: {value!r}")
    if _NEEDS_ESCAPE.search(value) is None:
        return '"' + value + '"'
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise InvalidValueError(
            f"text is not valid Unicode (lone surrogate U+{ord(bad.group(0)):04X} at {bad.start()}): "
            "was it read from bytes that are not UTF-8, such as a file name or an argument?"
        )
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, value) + '"'


def sparql_literal(value: object, *, language: str | None = None, datatype: object = None) -> str:
    """A literal: a Python value, or a string with a language tag or a datatype IRI."""
    if language is not None:
        if not isinstance(value, str):
            raise InvalidValueError(f"a language-tagged literal needs a string, got {value!r}")
        if not _LANG.match(language):
            raise InvalidValueError(f"not a language tag: {language!r}")
        return sparql_string(value) + "@" + language
    if datatype is not None:
        dt = to_named_node(datatype)
        if dt.value == XSD_STRING:
            return sparql_string(str(value))
        if not isinstance(value, str):
            value = str(to_literal(value).value)
        return sparql_string(value) + "^^" + f"<{dt.value}>"
    return sparql_term(value)


def sparql_integer(value: object) -> str:
    """An ``xsd:integer`` literal; rejects booleans, floats and non-numeric strings."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            if isinstance(value, (float, bool)):
                raise ValueError
            value = int(str(value), 10)
        except ValueError:
            raise InvalidValueError(f"not an integer: {value!r}") from None
    return f'"{int(value)}"^^<{_XSD}integer>'


def sparql_double(value: object) -> str:
    """An ``xsd:double`` literal; rejects NaN and infinities (scores must be comparable)."""
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidValueError(f"not a number: {value!r}") from None
    if not math.isfinite(number):
        raise InvalidValueError(f"not a finite number: {value!r}")
    return f'"{number!r}"^^<{_XSD}double>'


def _datetime_lexical(value: object) -> str:
    if isinstance(value, str):
        try:
            value = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidValueError(f"not an ISO 8601 date-time: {value!r}") from None
    if not isinstance(value, _dt.datetime):
        raise InvalidValueError(f"not a date-time: {value!r}")
    if value.tzinfo is None:
        raise InvalidValueError(f"date-time without a time zone: {value.isoformat()!r} (give it one, e.g. UTC)")
    text = value.astimezone(_dt.timezone.utc).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def sparql_datetime(value: object) -> str:
    """An ``xsd:dateTime`` literal (time zone required; written in UTC)."""
    return f'"{_datetime_lexical(value)}"^^<{_XSD}dateTime>'


def sparql_boolean(value: object) -> str:
    """An ``xsd:boolean`` literal."""
    if not isinstance(value, bool):
        raise InvalidValueError(f"not a boolean: {value!r}")
    return f'"{"true" if value else "false"}"^^<{_XSD}boolean>'


def to_literal(value: object) -> Literal:
    """The :class:`Literal` ragprov writes for a Python value."""
    if isinstance(value, Literal):
        return value
    if isinstance(value, bool):
        return Literal("true" if value else "false", datatype=NamedNode(_XSD + "boolean"))
    if isinstance(value, int):
        return Literal(str(value), datatype=NamedNode(_XSD + "integer"))
    if isinstance(value, float):
        sparql_double(value)
        return Literal(repr(value), datatype=NamedNode(_XSD + "double"))
    if _is_decimal(value):
        return Literal(str(value), datatype=NamedNode(_XSD + "decimal"))
    if isinstance(value, _dt.datetime):
        return Literal(_datetime_lexical(value), datatype=NamedNode(_XSD + "dateTime"))
    if isinstance(value, str):
        return Literal(value)
    raise InvalidValueError(f"no RDF literal for {type(value).__name__}: {value!r}")


def sparql_term(value: object) -> str:
    """Any term or Python value, spelled for SPARQL (quoted triples excepted: see dialects)."""
    kind = type(value)  # pyoxigraph's term classes cannot be subclassed: their type is the test
    if kind is NamedNode:
        # sparql_iri's own check, without its calls: one search of the IRI, each part read once
        text = value.value  # type: ignore[attr-defined]
        if _IRI_FORBIDDEN.search(text) is None:
            return "<" + text + ">"
        return sparql_iri(value)
    if kind is Literal:
        language = value.language  # type: ignore[attr-defined]
        if language:
            return sparql_literal(value.value, language=language)  # type: ignore[attr-defined]
        datatype = value.datatype  # type: ignore[attr-defined]
        dt = datatype.value
        if dt in (XSD_STRING, _RDF_LANG_STRING):
            return sparql_string(value.value)  # type: ignore[attr-defined]
        if _IRI_FORBIDDEN.search(dt) is None:
            return sparql_string(value.value) + "^^<" + dt + ">"  # type: ignore[attr-defined]
        return sparql_string(value.value) + "^^" + sparql_iri(datatype)  # type: ignore[attr-defined]
    if isinstance(value, str):
        return sparql_string(value)
    if isinstance(value, bool):
        return sparql_boolean(value)
    if isinstance(value, int):
        return sparql_integer(value)
    if isinstance(value, float):
        return sparql_double(value)
    if isinstance(value, _dt.datetime):
        return sparql_datetime(value)
    if _is_decimal(value):
        if not value.is_finite():
            raise InvalidValueError(f"not a finite number: {value!r}")
        return f'"{value}"^^<{_XSD}decimal>'
    if isinstance(value, BlankNode):
        raise InvalidValueError(
            f"blank node {value} cannot be written by a template: give the node an IRI (skolemize it)"
        )
    if isinstance(value, Triple):
        raise InvalidValueError("a quoted triple needs the dialect: use quoted() in the template")
    raise InvalidValueError(f"no SPARQL term for {type(value).__name__}: {value!r}")


def _is_decimal(value: object) -> TypeGuard[Decimal]:
    """Whether ``value`` is a :class:`decimal.Decimal`, without importing :mod:`decimal` (~1 ms of
    every process): a Decimal exists only once something has imported it.

    >>> from decimal import Decimal
    >>> _is_decimal(Decimal("1.5")), _is_decimal(1.5), _is_decimal("1.5")
    (True, False, False)
    """
    decimal = sys.modules.get("decimal")
    return decimal is not None and isinstance(value, decimal.Decimal)
