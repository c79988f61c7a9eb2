"""Shared helpers of the ontology tests: the packaged ontology folder and the sample traces."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, parse

from ragprov.resources import ontology_dir

SAMPLES = Path(__file__).parent / "samples"
TG = "https://trustgraph.ai/ns/"
PROV = "http://www.w3.org/ns/prov#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"


@pytest.fixture(scope="session")
def onto_dir() -> Path:
    return ontology_dir()


@pytest.fixture(scope="session")
def ontology_triples(onto_dir) -> list[Triple]:
    return list(parse(path=str(onto_dir / "ragprov.ttl"), format=RdfFormat.TURTLE))


def sample(name: str) -> list[Triple]:
    """The triples of ``samples/<name>.ttl``."""
    return list(parse(path=str(SAMPLES / f"{name}.ttl"), format=RdfFormat.TURTLE))


def edit(triples: Iterable[Triple], *, drop: Callable[[Triple], bool] = lambda t: False,
         add: Iterable[Triple] = (), change: Callable[[Triple], Triple] = lambda t: t) -> list[Triple]:
    """A broken variant of a sample: some triples dropped, changed or added."""
    return [change(t) for t in triples if not drop(t)] + list(add)


def iri(value: str) -> NamedNode:
    return NamedNode(value)


def typed(value: str, datatype: str) -> Literal:
    return Literal(value, datatype=NamedNode(datatype))
