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

from .samples import all_update_samples, samples

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
    """(template, label, setter) for every text-valued place of every update template's sample:
    parameters declared ``string`` (or lists of strings), text fields of object lists, and the
    literal object of quoted triples."""
    out = []
    for name, params in all_update_samples().items():
        declared = catalog().info(name).params
        for key, value in params.items():
            p = declared[key]
            if p.type == "string" and isinstance(value, str):
                out.append((name, key, lambda q, v, k=key: q.__setitem__(k, v)))
            elif p.type == "list" and p.items == "string" and value:
                out.append((name, f"{key}[0]", lambda q, v, k=key: q[k].__setitem__(0, v)))
            elif p.type == "triple" and isinstance(value, ox.Triple) and isinstance(value.object, ox.Literal):
                def set_fact(q, v, k=key):
                    t = q[k]
                    q[k] = ox.Triple(t.subject, t.predicate, ox.Literal(v))
                out.append((name, f"{key}.object", set_fact))
            elif p.type == "list" and value and isinstance(value[0], dict):
                for field, inner in value[0].items():
                    if isinstance(inner, str):
                        out.append((name, f"{key}[0].{field}", lambda q, v, k=key, f=field: q[k][0].__setitem__(f, v)))
                    if isinstance(inner, ox.Triple):
                        def set_object(q, v, k=key, f=field):
                            t = q[k][0][f]
                            q[k][0][f] = ox.Triple(t.subject, t.predicate, ox.Literal(v))
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
    """Every update template that takes text has its text fuzzed here (trace/delete takes none)."""
    with_text = {
        name for name in catalog().names()
        if catalog().info(name).kind == "update"
        and any(p.type == "string" or p.items == "string" or p.type == "triple" or (p.items or "").startswith("object")
                for p in catalog().info(name).params.values())
    }
    # These take object lists whose fields are IRIs and numbers only: no text to fuzz.
    assert with_text - {name for name, _, _ in SLOTS} <= {"record/exploration", "record/chunk-exploration"}


@pytest.mark.parametrize("dialect", [Dialect.RDF12, Dialect.REIFICATION], ids=lambda d: d.value)
@pytest.mark.parametrize("slot", SLOTS, ids=[f"{n}:{label}" for n, label, _ in SLOTS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=adversarial)
def test_adversarial_text_round_trips(dialect, slot, value):
    name, label, setter = slot
    base = all_update_samples()[name]
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


@pytest.mark.parametrize("text", ["\udcff", "name\udcffwith a byte that was not UTF-8", "\ud800"])
def test_lone_surrogates_are_refused_clearly(text):
    """Text decoded from non-UTF-8 bytes (surrogateescape) cannot be stored: a clear error, no write."""
    from ragprov.record import Recorder

    store = CountingStore()
    with pytest.raises(InvalidValueError, match="not valid Unicode"):
        Recorder(store).graph_rag(text)
    assert store.requests == 0


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


def _lenient_node(text: str) -> ox.NamedNode:
    """A NamedNode holding ``text`` as a lenient parser leaves it (never validated)."""
    (quad,) = ox.parse(f"<{text}> <urn:p> <urn:o> .".encode(), format=ox.RdfFormat.N_TRIPLES, lenient=True)
    return quad.subject  # type: ignore[return-value]


@pytest.mark.parametrize("bad", ["urn:x|y", "urn:x^y", "urn:x`y", "urn:x{y}"])
@pytest.mark.parametrize("position", [0, 1, 4])
def test_named_nodes_never_validated_are_refused_in_lists_too(bad, position):
    """A list of IRIs is escaped in one go: a bad one anywhere in it is refused like a lone one."""
    from ragprov.record import Recorder

    node = _lenient_node(bad)
    assert node.value == bad
    entities = [ox.NamedNode(f"urn:ok:{i}") for i in range(5)]
    entities[position] = node
    store = CountingStore()
    trace = Recorder(store).graph_rag("q")
    trace.grounding(["c"])
    sent = store.requests
    with pytest.raises(InvalidValueError, match="not an absolute IRI"):
        trace.exploration(entities, edge_count=1)
    with pytest.raises(InvalidValueError, match="not an absolute IRI"):
        catalog().render("record/question", Dialect.RDF12, question=node, session=ox.NamedNode("urn:s"),
                         question_type=ox.NamedNode("urn:t"), label="l", query="q", started="2026-01-01T00:00:00Z",
                         software=ox.NamedNode("urn:sw"), software_label="sw")
    assert store.requests == sent


@pytest.mark.parametrize("tag", ["en\n", "en ", "en-", "e n", "en;", "", "en-GB\n"])
def test_a_language_tag_is_refused_unless_it_is_one_whole(tag):
    from ragprov.sparql.escape import sparql_literal

    with pytest.raises(InvalidValueError, match="not a language tag"):
        sparql_literal("x", language=tag)
    assert sparql_literal("x", language="en-GB") == '"x"@en-GB'
