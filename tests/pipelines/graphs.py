"""A small hand-built fact graph with extraction provenance, for the pipeline tests.

Facts go to the default graph or to ``facts_graph``; extraction provenance (statements, chunks,
a page, a document) to ``urn:graph:source``; chunk text to ``urn:graph:library``. A decoy fact
sits in the source graph: retrieval must never explore it.
"""

from __future__ import annotations

from pyoxigraph import Literal, NamedNode, Quad, Triple

from ragprov.namespaces import DC, DCTERMS, LIBRARY_GRAPH, PROV, RDF, RDFS, SOURCE_GRAPH, TG

E = "urn:test:entity:"
R = "urn:test:rel:"
DOC = NamedNode("urn:test:doc:carol")
PAGE = NamedNode("urn:test:doc:carol/p1")


def n(local: str, base: str = E) -> NamedNode:
    return NamedNode(base + local)


ENTITIES = {
    "scrooge": ("Ebenezer Scrooge", "A miserly old money-lender in London who despises Christmas."),
    "marley": ("Jacob Marley", "Scrooge's dead business partner, who returns as a chained ghost."),
    "fred": ("Fred", "Scrooge's cheerful nephew who invites him to Christmas dinner."),
    "bob": ("Bob Cratchit", "Scrooge's poorly paid clerk."),
    "tim": ("Tiny Tim", "Bob Cratchit's ill youngest son."),
    "past": ("Ghost of Christmas Past", "The first of the three spirits."),
    "london": ("London", "The city where the story takes place."),
}
RELATIONS = {
    "partner": "business partner of",
    "nephew": "nephew of",
    "clerk": "clerk of",
    "father": "father of",
    "visits": "visits",
    "lives": "lives in",
}

CHUNKS = {
    "c0": "Marley was dead, to begin with. Scrooge and Marley were partners in business for many years.",
    "c1": "Scrooge's nephew Fred came into the counting-house and wished his uncle a merry Christmas.",
    "c2": "Bob Cratchit, the clerk, warmed himself at the candle. His son Tiny Tim was ill.",
    "c3": "The Ghost of Christmas Past visited Scrooge at one o'clock in his rooms in London.",
}

# (subject, relation, object, chunk)
FACTS = [
    ("scrooge", "partner", "marley", "c0"),
    ("fred", "nephew", "scrooge", "c1"),
    ("bob", "clerk", "scrooge", "c2"),
    ("bob", "father", "tim", "c2"),
    ("past", "visits", "scrooge", "c3"),
    ("scrooge", "lives", "london", "c3"),
]


def fact(s: str, r: str, o: str) -> Triple:
    return Triple(n(s), n(r, R), n(o))


def quads(facts_graph: NamedNode | None = None) -> list[Quad]:
    from pyoxigraph import DefaultGraph

    g = facts_graph or DefaultGraph()
    out: list[Quad] = []
    for key, (label, description) in ENTITIES.items():
        out += [
            Quad(n(key), RDF.type, NamedNode("urn:test:Person"), g),
            Quad(n(key), RDFS.label, Literal(label), g),
            Quad(n(key), DCTERMS.description, Literal(description), g),
        ]
    for key, label in RELATIONS.items():
        out.append(Quad(n(key, R), RDFS.label, Literal(label), g))
    out.append(
        Quad(
            n("scrooge"),
            NamedNode("urn:test:age"),
            Literal("60", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
            g,
        )
    )
    # extraction provenance
    out += [
        Quad(DOC, RDF.type, TG.Document, SOURCE_GRAPH),
        Quad(DOC, DC["title"], Literal("A Christmas Carol"), SOURCE_GRAPH),
        Quad(PAGE, RDF.type, TG.Page, SOURCE_GRAPH),
        Quad(PAGE, TG.pageNumber, Literal("1", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")), SOURCE_GRAPH),
        Quad(PAGE, PROV.wasDerivedFrom, DOC, SOURCE_GRAPH),
    ]
    for i, (key, text) in enumerate(CHUNKS.items()):
        chunk = NamedNode(f"{PAGE.value}/{key}")
        out += [
            Quad(chunk, RDF.type, TG.Chunk, SOURCE_GRAPH),
            Quad(chunk, TG.chunkIndex, Literal(str(i), datatype=NamedNode("http://www.w3.org/2001/XMLSchema#integer")), SOURCE_GRAPH),
            Quad(chunk, PROV.wasDerivedFrom, PAGE, SOURCE_GRAPH),
            Quad(chunk, TG.content, Literal(text), LIBRARY_GRAPH),
        ]
    for s, r, o, c in FACTS:
        t = fact(s, r, o)
        out.append(Quad(t.subject, t.predicate, t.object, g))
        stmt = NamedNode(f"urn:test:stmt:{s}-{r}-{o}")
        out += [
            Quad(stmt, RDF.type, TG.Statement, SOURCE_GRAPH),
            Quad(stmt, TG.reifies, t, SOURCE_GRAPH),
            Quad(stmt, PROV.wasDerivedFrom, NamedNode(f"{PAGE.value}/{c}"), SOURCE_GRAPH),
        ]
    # A decoy in the provenance graph that mentions the question's words.
    decoy = NamedNode("urn:test:decoy")
    out += [
        Quad(decoy, RDFS.label, Literal("Scrooge nephew partner secret"), SOURCE_GRAPH),
        Quad(n("scrooge"), n("secret", R), decoy, SOURCE_GRAPH),
    ]
    return out


def chunk_iri(key: str) -> NamedNode:
    return NamedNode(f"{PAGE.value}/{key}")


def build(store, facts_graph: NamedNode | None = None) -> None:
    """Load the graph into ``store`` (any engine, any dialect)."""
    from ragprov.sparql.quads import insert_data

    store.update(insert_data(quads(facts_graph), store.dialect))
