"""SPARQL rendering: escaping filters, the three dialects, and the template catalog."""

from .dialect import Dialect, statement_iri
from .escape import sparql_iri, sparql_literal, sparql_string, sparql_term, to_literal, to_named_node
from .templates import Catalog, Param, TemplateInfo, catalog, render

__all__ = [
    "Dialect",
    "statement_iri",
    "sparql_iri",
    "sparql_literal",
    "sparql_string",
    "sparql_term",
    "to_literal",
    "to_named_node",
    "Catalog",
    "Param",
    "TemplateInfo",
    "catalog",
    "render",
]
