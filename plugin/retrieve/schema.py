"""Which predicates name and describe entities, and which are schema rather than facts.

>>> from ragprov.namespaces import RDF
>>> FactsSchema().is_schema(RDF.type)
True
"""

from __future__ import annotations

import dataclasses

from pyoxigraph import NamedNode

from ..namespaces import DC, DCTERMS, OWL, PROV, RDF, RDFS, TG, Namespace

__all__ = ["SCHEMA", "SKOS", "FactsSchema"]

SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
SCHEMA = Namespace("http://schema.org/")


@dataclasses.dataclass(frozen=True)
class FactsSchema:
    """How entities are named and described, and which predicates are schema, not facts.

    Predicates in ``excluded_namespaces`` (rdf:, rdfs:, owl:, prov: and tg: — vocabulary and
    index structure such as GraphRAG community membership, never domain facts) and in
    ``excluded_predicates`` are never explored; members of ``excluded_types`` never seed.
    ``label_predicates`` and ``description_predicates`` feed the entity index; labels of other
    terms (predicates, objects) are their ``rdfs:label``.
    """

    label_predicates: tuple[NamedNode, ...] = (RDFS.label, SKOS.prefLabel, SCHEMA.name, DC["title"])
    description_predicates: tuple[NamedNode, ...] = (DCTERMS.description, RDFS.comment, SCHEMA.description, SKOS.definition)
    excluded_predicates: tuple[NamedNode, ...] = (
        TG.entityType, TG.degree, TG.humanReadableId, TG.frequency, TG.mimeType,
        SKOS.prefLabel, SKOS.altLabel, SKOS.definition, SCHEMA.name, SCHEMA.description,
        DC["title"], DCTERMS["title"], DCTERMS.description,
    )
    excluded_namespaces: tuple[str, ...] = (str(RDF), str(RDFS), str(OWL), str(PROV), str(TG))
    excluded_types: tuple[NamedNode, ...] = (
        RDF.Property, OWL.ObjectProperty, OWL.DatatypeProperty, TG.Relationship, TG.Community,
        TG.CommunityReport, TG.ReportFinding, TG.Claim, TG.Document, TG.Chunk, TG.Statement,
    )

    def is_schema(self, predicate: NamedNode) -> bool:
        return predicate in self.excluded_predicates or predicate.value.startswith(self.excluded_namespaces)

