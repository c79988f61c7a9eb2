"""What the quality checks share: namespace IRIs, the ontology folder, term text, optional imports."""


from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyoxigraph import BlankNode, Literal, NamedNode, RdfFormat, Triple, serialize

from ..errors import ConfigurationError
from ..namespaces import PREFIXES, prefixed_name

if TYPE_CHECKING:  # pragma: no cover
    pass


_INSTALL_HINT = "pip install 'ragprov[ontology]'"
_RDF, _RDFS, _OWL, _XSD, _PROV, _TG = (str(PREFIXES[p]) for p in ("rdf", "rdfs", "owl", "xsd", "prov", "tg"))
_RDF_TYPE = NamedNode(_RDF + "type")
_RDF_REIFIES = NamedNode(_RDF + "reifies")
_OWL_IMPORTS = NamedNode(_OWL + "imports")


def _ontology_dir() -> Path:
    from ..resources import ontology_dir

    return ontology_dir()


def _short(iri: str) -> str:
    """An IRI as a prefixed name where the prefix table has one (``tg:Chunk``), else ``<iri>``."""
    return prefixed_name(iri) or f"<{iri}>"


def _ntriples(triples: Iterable[Triple]) -> bytes:
    """Triples as N-Triples bytes (what rdflib, owlready2 and the OWL API read)."""
    return serialize(triples, format=RdfFormat.N_TRIPLES) or b""


def _text(term: Any) -> str | None:
    """A term as a plain string: IRIs without brackets, literals by their lexical form."""
    if term is None:
        return None
    if isinstance(term, (NamedNode, Literal)):
        return term.value
    if isinstance(term, BlankNode):
        return f"_:{term.value}"
    return str(term)



def _require(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        raise ConfigurationError(f"{module} is not installed: {_INSTALL_HINT}") from None
