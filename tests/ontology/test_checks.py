"""The ROBOT-style QC checks: well-formed, profiled, passing on the ontology, and able to fail."""

from __future__ import annotations

import re
import shutil

import pytest

from ragprov.errors import ConfigurationError
from ragprov.qc import Problem, Severity, list_checks, run_checks
from ragprov.resources import ontology_dir

CHECKS = list_checks()
FIXTURES = ontology_dir() / "checks" / "fixtures"


def _expected(path) -> set[str]:
    m = re.search(r"^# expect:(.*)$", path.read_text(encoding="utf-8"), re.M)
    assert m, f"{path.name} has no '# expect:' line"
    return set(re.findall(r"<([^>]+)>", m.group(1)))


def test_profile_and_files_agree():
    folder = ontology_dir() / "checks"
    files = {p.stem for p in folder.glob("*.rq")}
    profiled = [ln.split("\t")[0] for ln in (folder / "profile.tsv").read_text().splitlines()[1:] if ln.strip()]
    assert sorted(profiled) == sorted(files)
    assert len(files) >= 10
    assert {c.severity for c in CHECKS} == {Severity.ERROR, Severity.WARN, Severity.INFO}


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_check_header(check):
    assert check.title and check.description and check.solution
    head = check.path.read_text(encoding="utf-8").split("SELECT")[0]
    assert f"# severity: {check.severity.value}" in head, "header and profile agree on the severity"
    assert re.search(r"SELECT DISTINCT \?entity \?property \?value", check.query)


def test_the_ontology_passes_every_check():
    problems = run_checks()
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_check_passes_its_passing_fixture(check):
    assert run_checks(FIXTURES / f"{check.name}-pass.ttl", checks=[check.name]) == []


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_check_fails_its_failing_fixture(check):
    path = FIXTURES / f"{check.name}-fail.ttl"
    problems = run_checks(path, checks=[check.name])
    assert {p.entity for p in problems} == _expected(path)
    assert {p.severity for p in problems} == {check.severity}
    assert all(p.check == check.name for p in problems)


def test_every_fixture_belongs_to_a_check():
    names = {c.name for c in CHECKS}
    for f in FIXTURES.glob("*.ttl"):
        name, _, kind = f.stem.rpartition("-")
        assert name in names and kind in ("pass", "fail"), f.name


def _broken_copy(tmp_path, old: str, new: str):
    text = (ontology_dir() / "ragprov.ttl").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "ragprov.ttl"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_damaged_ontology_fails(tmp_path):
    path = _broken_copy(
        tmp_path,
        '    rdfs:label "edge count"@en ;\n',
        "",
    )
    problems = run_checks(path)
    assert [(p.check, p.entity) for p in problems] == [("missing_label", "https://trustgraph.ai/ns/edgeCount")]
    assert problems[0].severity is Severity.ERROR
    assert "edgeCount" in str(problems[0]) and "ERROR" in str(problems[0])


def test_an_activity_property_under_prov_value_is_caught(tmp_path):
    path = _broken_copy(
        tmp_path,
        "tg:llmModel\n    a owl:DatatypeProperty ;\n",
        "tg:llmModel\n    a owl:DatatypeProperty ;\n    rdfs:subPropertyOf prov:value ;\n",
    )
    problems = run_checks(path)
    assert [(p.check, p.entity) for p in problems] == [("prov_activity_entity_clash", "https://trustgraph.ai/ns/llmModel")]


def test_a_trace_link_declared_as_a_usage_is_caught(tmp_path):
    """tg:traceRestsOn (the session's document link) as a prov:used would give sessions documents
    for questions: session_link_is_usage finds it."""
    path = _broken_copy(
        tmp_path,
        "tg:traceRestsOn\n    a owl:ObjectProperty ;\n    rdfs:subPropertyOf prov:wasInfluencedBy ;\n",
        "tg:traceRestsOn\n    a owl:ObjectProperty ;\n    rdfs:subPropertyOf prov:used ;\n",
    )
    problems = run_checks(path)
    # (its domain holds a question, an entity, too: a usage from an entity is a clash with PROV-O as well)
    assert {(p.check, p.entity) for p in problems} == {("session_link_is_usage", "https://trustgraph.ai/ns/traceRestsOn"),
                                                       ("prov_activity_entity_clash", "https://trustgraph.ai/ns/traceRestsOn")}


def test_severity_comes_from_the_profile(tmp_path):
    folder = tmp_path / "checks"
    shutil.copytree(ontology_dir() / "checks", folder)
    profile = folder / "profile.tsv"
    profile.write_text(profile.read_text().replace("short_definition\tINFO", "short_definition\tERROR"))
    problems = run_checks(FIXTURES / "short_definition-fail.ttl", checks=["short_definition"], checks_dir=folder)
    assert problems and all(p.severity is Severity.ERROR for p in problems)


def test_a_profile_entry_without_a_query_is_an_error(tmp_path):
    folder = tmp_path / "checks"
    shutil.copytree(ontology_dir() / "checks", folder)
    (folder / "missing_label.rq").unlink()
    with pytest.raises(ConfigurationError, match="missing_label"):
        list_checks(folder)


def test_unknown_check_names_are_refused():
    with pytest.raises(ConfigurationError, match="no_such_check"):
        run_checks(checks=["no_such_check"])


def test_problems_sort_errors_first(tmp_path):
    mixed = tmp_path / "mixed.ttl"
    mixed.write_text("\n".join((FIXTURES / f"{n}-fail.ttl").read_text(encoding="utf-8")
                               for n in ("short_definition", "label_whitespace", "missing_label")))
    problems = run_checks(mixed)
    assert {p.severity for p in problems} == {Severity.ERROR, Severity.WARN, Severity.INFO}
    ranks = [p.severity.rank for p in problems]
    assert ranks == sorted(ranks)
    assert all(isinstance(p, Problem) for p in problems)
