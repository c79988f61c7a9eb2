"""Turning text (from the command line) into template parameter values, by each param's declared type.

>>> from ragprov.sparql.templates import Param
>>> coerce(Param("limit", "integer"), "5")
5
>>> coerce(Param("edge", "triple"), '<urn:s> <urn:p> "o"')
<Triple subject=<NamedNode value=urn:s> predicate=<NamedNode value=urn:p> object=<Literal value=o datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#string>>>
"""

from __future__ import annotations

import pyoxigraph as ox

from ..errors import InvalidValueError, ParameterError
from .escape import to_named_node
from .templates import Param

__all__ = ["coerce", "parse_term", "parse_triple"]


def parse_triple(text: str) -> ox.Triple:
    """A triple written in N-Triples syntax (``<s> <p> "o"``; the final dot is optional)."""
    line = text.strip()
    if not line.endswith("."):
        line += " ."
    try:
        triples = list(ox.parse(line.encode("utf-8"), format=ox.RdfFormat.N_TRIPLES))
    except SyntaxError as e:
        raise InvalidValueError(f"not a triple in N-Triples syntax: {text!r} ({e})") from None
    if len(triples) != 1:
        raise InvalidValueError(f"expected exactly one triple, got {len(triples)}: {text!r}")
    return triples[0].triple


def parse_term(text: str):
    """A term in N-Triples syntax (``<iri>``, ``"literal"^^<dt>``, ``"text"@en``); a bare IRI is accepted too."""
    text = text.strip()
    if not text.startswith(("<", '"')):
        return to_named_node(text)
    return parse_triple(f"<urn:ragprov:x> <urn:ragprov:x> {text}").object


def coerce(param: Param, text: str | list[str]):
    """The value of ``param`` written as ``text`` (a list for ``list`` params)."""
    if param.type == "list":
        items = text if isinstance(text, list) else [text]
        inner = Param(param.name, param.items or "string")
        if inner.type not in ("iri", "string", "integer", "double", "datetime", "term", "triple"):
            raise ParameterError(f"{param.name} is a list of {param.items}: give it from Python, not as text")
        return [coerce(inner, item) for item in items]
    if isinstance(text, list):
        if len(text) != 1:
            raise ParameterError(f"{param.name} takes one value, got {len(text)}")
        text = text[0]
    if param.type == "iri":
        return to_named_node(text)
    if param.type == "string":
        return text
    if param.type == "integer":
        try:
            return int(text)
        except ValueError:
            raise InvalidValueError(f"{param.name}: not an integer: {text!r}") from None
    if param.type == "double":
        try:
            return float(text)
        except ValueError:
            raise InvalidValueError(f"{param.name}: not a number: {text!r}") from None
    if param.type == "boolean":
        if text.lower() not in ("true", "false"):
            raise InvalidValueError(f"{param.name}: not a boolean (true/false): {text!r}")
        return text.lower() == "true"
    if param.type == "datetime":
        return text
    if param.type == "term":
        return parse_term(text)
    if param.type == "triple":
        return parse_triple(text)
    raise ParameterError(f"{param.name} is of type {param.type}: give it from Python, not as text")
