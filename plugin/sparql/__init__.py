"""SPARQL rendering: escaping filters, the three dialects, and the template catalog."""

from .dialect import Dialect, statement_iri
from .escape import sparql_iri, sparql_literal, sparql_string, sparql_term, to_literal, to_named_node


def __getattr__(name: str):
    """The template catalog (Jinja2) loads on first use (PEP 562): reading a dialect or escaping
    a value does not need it."""
    if name in ("Catalog", "Param", "TemplateInfo", "catalog", "render"):
        from . import templates

        value = getattr(templates, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Catalog",
    "Dialect",
    "Param",
    "TemplateInfo",
    "catalog",
    "render",
    "sparql_iri",
    "sparql_literal",
    "sparql_string",
    "sparql_term",
    "statement_iri",
    "to_literal",
    "to_named_node",
]
