"""Adversarial text in every string parameter of every core template round-trips exactly and never
changes the shape of what is written (rdf12 and reification on pyoxigraph; rdfstar spelled)."""

from __future__ import annotations

import copy
from collections import Counter

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ragprov.errors import InvalidValueError
from ragprov.sparql import Dialect, catalog
from ragprov.sparql.dialect import STATEMENT_PREFIX
from ragprov.store import EmbeddedStore

from .samples import samples

NASTY = [
    '"', '""', '"""', "'''", "\\", "\\\\", '\\"', "\n", "\r\n", "\t", "}", "{", "} ;", ">", "<", "<<", ">>",
    "<<(", ")>>", "#", "# comment", "INSERT DATA { <urn:x> <urn:y> <urn:z> }", "} } ; DROP ALL ; { {",
    '" . <urn:a> <urn:b> "c', "\\u0022", "\\U00000022", "\u0000", "\u2028", "\ufeff", "é中文🙂", "", " ",
    "^^<http://www.w3.org/2001/XMLSchema#integer>", "@en", "?o", "$x", "GRAPH <urn:graph:retrieval> {",
]

adversarial = st.one_of(
    st.sampled_from(NASTY),
    st.lists(st.sampled_from(NASTY), min_size=2, max_size=5).map("".join),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
)


def _slots():
    """(template, label, setter) for every string-valued place in the core update samples."""
    out = []
    for name, params in samples().items():
        if catalog().info(name).kind != "update":
            continue
        for key, value in params.items():
            if isinstance(value, str):
                out.append((name, key, lambda p, v, k=key: p.__setitem__(k, v)))
            elif isinstance(value, list) and value and isinstance(value[0], str):
                out.append((name, f"{key}[0]", lambda p, v, k=key: p[k].__setitem__(0, v)))
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                for field, inner in value[0].items():
                    if isinstance(inner, str):
                        out.append((name, f"{key}[0].{field}", lambda p, v, k=key, f=field: p[k][0].__setitem__(f, v)))
                    if isinstance(inner, ox.Triple):
                        def set_object(p, v, k=key, f=field):
                            t = p[k][0][f]
                            p[k][0][f] = ox.Triple(t.subject, t.predicate, ox.Literal(v))
                        out.append((name, f"{key}[0].{field}.object", set_object))
    return out


SLOTS = _slots()


def _shape(store: EmbeddedStore) -> Counter:
    """The store's quads with every literal and statement IRI masked: what the query wrote, not the values."""
    shape = Counter()
    for q in store.raw:
        o = q.object
        o = "LIT" if isinstance(o, ox.Literal) else ("STMT" if isinstance(o, ox.NamedNode) and o.value.startswith(STATEMENT_PREFIX) else o)
        if isinstance(o, ox.Triple):
            o = ("TRIPLE", o.subject, o.predicate, "LIT" if isinstance(o.object, ox.Literal) else o.object)
        s = "STMT" if isinstance(q.subject, ox.NamedNode) and q.subject.value.startswith(STATEMENT_PREFIX) else q.subject
        shape[(s, q.predicate, o, q.graph_name)] += 1
    return shape


def _literals(store: EmbeddedStore) -> list[str]:
    values = []
    for q in store.raw:
        for term in (q.object, q.object.object if isinstance(q.object, ox.Triple) else None):
            if isinstance(term, ox.Literal):
                values.append(term.value)
    return values


def _write(dialect: Dialect, name: str, params: dict) -> EmbeddedStore:
    store = EmbeddedStore()
    store.dialect = dialect
    store.update(catalog().render(name, dialect, **params))
    return store


def test_every_update_template_with_text_is_covered():
    assert {name for name, _, _ in SLOTS} >= {"record/question", "record/grounding", "record/focus", "record/synthesis",
                                              "record/analysis", "record/observation", "record/conclusion", "record/chunk-focus"}


@pytest.mark.parametrize("dialect", [Dialect.RDF12, Dialect.REIFICATION], ids=lambda d: d.value)
@pytest.mark.parametrize("slot", SLOTS, ids=[f"{n}:{label}" for n, label, _ in SLOTS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=adversarial)
def test_adversarial_text_round_trips(dialect, slot, value):
    name, label, setter = slot
    base = samples()[name]
    assume(value not in _literals(_write(dialect, name, base)))  # a value equal to another literal merges triples
    benign, hostile = copy.deepcopy(base), copy.deepcopy(base)
    setter(benign, "benign-value")
    setter(hostile, value)
    expected = _write(dialect, name, benign)
    actual = _write(dialect, name, hostile)
    assert _shape(actual) == _shape(expected), f"{label}: the value changed what was written"
    assert value in _literals(actual), f"{label}: the value did not round-trip exactly"


@given(value=adversarial)
@settings(max_examples=50, deadline=None)
def test_rdfstar_spelling_differs_from_rdf12_only_in_quoting(value):
    """No rdfstar engine runs in-process: its text must equal the (parsed, checked) rdf12 text but
    for the spelling of each quoted triple, so values stay closed exactly as they do there."""
    params = copy.deepcopy(samples()["record/focus"])
    params["selections"][0]["reasoning"] = value
    rdf12 = catalog().render("record/focus", Dialect.RDF12, **params)
    rdfstar = catalog().render("record/focus", Dialect.RDFSTAR, **params)
    for sel in params["selections"]:
        rdfstar = rdfstar.replace(Dialect.RDFSTAR.quote(sel["edge"]), Dialect.RDF12.quote(sel["edge"]))
    assert rdfstar == rdf12


class CountingStore(EmbeddedStore):
    def __init__(self):
        super().__init__()
        self.requests = 0

    def update(self, sparql):
        self.requests += 1
        super().update(sparql)


BAD_IRIS = ["", "not an iri", "relative/path", "urn:x>", "urn:x> . <urn:a> <urn:b> <urn:c", "http://a b", 'urn:"x"',
            "urn:{x}", "urn:x\\y", "urn:x\ny", "<urn:x>", "urn:`x`", "urn:x|y", "urn:x^y"]


@pytest.mark.parametrize("bad", BAD_IRIS)
def test_invalid_iris_are_rejected_before_anything_is_sent(bad):
    from ragprov.record import Recorder

    store = CountingStore()
    recorder = Recorder(store)
    trace = recorder.graph_rag("q")
    trace.grounding(["c"])
    sent = store.requests
    with pytest.raises(InvalidValueError):
        trace.exploration([ox.NamedNode("urn:ok"), bad], edge_count=1)  # type: ignore[list-item]
    assert store.requests == sent
