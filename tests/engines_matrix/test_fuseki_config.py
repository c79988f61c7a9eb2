"""``fuseki-config/ragprov.ttl``: Jena's assembler builds its dataset, ragprov's templates run on it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pyoxigraph as ox
import pytest
from pyoxigraph import NamedNode, Triple

from ragprov.record import Recorder
from ragprov.sparql.dialect import Dialect
from ragprov.sparql.templates import catalog
from tests.core.builders import graph_rag_trace
from tests.engines import ROOT, missing_engine, servers

CONFIG = ROOT / "fuseki-config" / "ragprov.ttl"
FUSEKI = "http://jena.apache.org/fuseki#"
TDB2 = "http://jena.apache.org/2016/tdb#"
JA = "http://jena.hpl.hp.com/2005/11/Assembler#"


class Capture:
    """Keeps the update texts the Recorder renders (in the RDF-star dialect), runs nothing."""

    dialect = Dialect.RDFSTAR

    def __init__(self):
        self.updates: list[str] = []

    def update(self, text: str) -> None:
        self.updates.append(text)


@pytest.fixture(scope="module")
def jena_cp():
    try:
        return servers.jena_classpath()
    except servers.EngineMissing as e:
        missing_engine("jena-tdb2", e.install)


@pytest.fixture
def config_copy(tmp_path) -> Path:
    """The configuration with its TDB2 location moved to a temporary directory (nothing else changed)."""
    text = CONFIG.read_text()
    text, n = re.subn(r'(tdb2:location\s+)"[^"]*"', rf'\g<1>"{tmp_path / "tdb2"}"', text)
    assert n == 1
    copy = tmp_path / "ragprov.ttl"
    copy.write_text(text)
    return copy


def _jena(cp: str, *args: str) -> str:
    result = subprocess.run(
        ["java", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", cp, *args],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"{args[0]} failed ({result.returncode}): {result.stderr[-2000:]}"
    return result.stdout


def _select(cp: str, config: Path, query: str, tmp_path: Path):
    path = tmp_path / "q.rq"
    path.write_text(query)
    out = _jena(cp, "tdb2.tdbquery", f"--tdb={config}", "--results=json", f"--query={path}")
    return list(ox.parse_query_results(out.encode(), format=ox.QueryResultsFormat.JSON))


def test_records_and_navigates_on_the_dataset_the_config_builds(jena_cp, config_copy, tmp_path, clock):
    capture = Capture()
    trace = graph_rag_trace(Recorder(capture, clock=clock), 7, edges=4)
    updates = tmp_path / "record.ru"
    updates.write_text(" ;\n".join(capture.updates))
    _jena(jena_cp, "tdb2.tdbupdate", f"--tdb={config_copy}", f"--update={updates}")
    assert (tmp_path / "tdb2").is_dir(), "the assembler did not create the TDB2 database where configured"

    cat = catalog()
    listed = _select(jena_cp, config_copy, cat.render("trace/list", Dialect.RDFSTAR, limit=10), tmp_path)
    assert [row["question"] for row in listed] == [trace.question]
    rows = _select(jena_cp, config_copy, cat.render("trace/show", Dialect.RDFSTAR, question=trace.question), tmp_path)
    stages = {row["node"] for row in rows}
    assert {e.explain_id for e in trace.events} <= stages
    edges = [row["o"] for row in rows if row["p"] == NamedNode("https://trustgraph.ai/ns/edge")]
    assert len(edges) == 4 and all(isinstance(e, Triple) for e in edges)
    # provenance stays out of the default graph (unionDefaultGraph false)
    assert _select(jena_cp, config_copy, "SELECT * WHERE { ?s ?p ?o } LIMIT 1", tmp_path) == []


def test_config_declares_services_users_and_timeouts():
    import rdflib  # the test extra brings it (ragprov[ontology]): never skipped
    g = rdflib.Graph().parse(CONFIG, format="turtle")
    F, T, J = rdflib.Namespace(FUSEKI), rdflib.Namespace(TDB2), rdflib.Namespace(JA)
    services = {str(g.value(s, F.name)): s for s in g.subjects(rdflib.RDF.type, F.Service)}
    assert set(services) == {"ragprov", "ragprov-ro", "ragprov-retrieval"}

    def endpoints(service):
        return {(str(g.value(e, F.name)), str(g.value(e, F.operation)).split("#")[1], g.value(e, F.allowedUsers))
                for e in g.objects(service, F.endpoint)}

    rw = endpoints(services["ragprov"])
    assert {(n, op) for n, op, _ in rw} >= {("query", "query"), ("update", "update"), ("data", "gsp-rw"), ("get", "gsp-r")}
    for name, op, users in rw:
        assert (users is not None) == (op in ("update", "gsp-rw")), f"{name}: writes need a user, reads do not"
    for service in ("ragprov-ro", "ragprov-retrieval"):
        assert {op for _, op, _ in endpoints(services[service])} <= {"query", "gsp-r"}, f"{service} must be read-only"
    dataset = g.value(services["ragprov"], F.dataset)
    assert (dataset, rdflib.RDF.type, T.DatasetTDB2) in g
    assert g.value(dataset, T.unionDefaultGraph).toPython() is False
    timeouts = [str(g.value(c, J.cxtValue)) for c in g.objects(None, J.context) if str(g.value(c, J.cxtName)) == "arq:queryTimeout"]
    assert timeouts and all(re.fullmatch(r"\d+(,\d+)?", t) for t in timeouts)
    # the traces view reads the same TDB2 database's retrieval graph
    view = g.value(services["ragprov-retrieval"], F.dataset)
    default = g.value(view, J.defaultGraph)
    assert g.value(default, T.dataset) == dataset and str(g.value(default, T.graphName)) == "urn:graph:retrieval"
    assert "passwd" not in {p.name for p in (ROOT / "fuseki-config").iterdir()}
