"""Adversarial text round-trips on every engine (each in its own dialect) and never changes shape."""

from __future__ import annotations

import copy

import pytest
from pyoxigraph import Literal, Triple

from ragprov.sparql import catalog

from .samples import all_update_samples
from .test_injection import NASTY, SLOTS

GRAPHS = ("urn:graph:retrieval", "urn:graph:library", "urn:graph:source")
# Control characters are spelled as \\uXXXX escapes: engines may refuse to store U+0000 at all
# (Virtuoso does), which is a storage limit, not an injection; the in-process tests cover it.
VALUES = [v for v in NASTY if "\u0000" not in v] + ['"""\\"}\n INSERT DATA { <urn:a> <urn:b> "c" } #', "é中文🙂 \\u0022 \\\\ }>"]
# Over HTTP every value costs three requests: the server engines get the values that break quoting.
SERVER_VALUES = ['"', '"""', "\\", '\\"', "\n", "} ;", ">", "<<(", "\\u0022", '" . <urn:a> <urn:b> "c', "é中文🙂", "", *VALUES[-2:]]


def _graph_state(store):
    rows = store.select(
        "SELECT ?g ?s ?p ?o WHERE { VALUES ?g { " + " ".join(f"<{g}>" for g in GRAPHS) + " } GRAPH ?g { ?s ?p ?o } }"
    )
    literals = []
    for r in rows:
        o = r["o"]
        o = o.object if isinstance(o, Triple) else o  # an edge's literal object sits inside the triple term
        if isinstance(o, Literal):
            literals.append(o.value)
    return len(rows), literals


def _clear(store):
    store.update(" ; ".join(f"CLEAR SILENT GRAPH <{g}>" for g in GRAPHS))


@pytest.mark.parametrize("slot", SLOTS, ids=[f"{n}:{label}" for n, label, _ in SLOTS])
def test_nasty_text_round_trips_on_the_engine(store, slot):
    name, label, setter = slot
    base = all_update_samples()[name]
    benign = copy.deepcopy(base)
    setter(benign, "benign-value")
    store.update(catalog().render(name, store.dialect, **benign))
    expected_count, _ = _graph_state(store)
    _clear(store)
    from ragprov.store import EmbeddedStore

    for value in VALUES if isinstance(store, EmbeddedStore) else SERVER_VALUES:
        hostile = copy.deepcopy(base)
        setter(hostile, value)
        store.update(catalog().render(name, store.dialect, **hostile))
        count, literals = _graph_state(store)
        _clear(store)
        if value in _literal_values(base):
            continue  # equal to another literal of the sample: triples merge, counts differ by design
        assert value in literals, f"{label}: {value!r} did not round-trip"
        assert count == expected_count, f"{label}: {value!r} changed what was written"


def _literal_values(params) -> set[str]:
    out = set()
    for v in params.values():
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            for item in v:
                if isinstance(item, str):
                    out.add(item)
                elif isinstance(item, dict):
                    out |= {x for x in item.values() if isinstance(x, str)}
    return out | {"Grounding", "Exploration", "Focus", "Synthesis", "Analysis", "Observation", "Conclusion", "text/plain"}
