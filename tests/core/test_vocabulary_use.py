"""Templates and code speak the ontology: every ``tg:`` term they use is defined in ``ragprov.ttl``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragprov import vocab
from ragprov.sparql import catalog

TG_PREFIXED = re.compile(r"\btg:([A-Za-z][A-Za-z0-9_]*)")
TG_FULL = re.compile(r"https://trustgraph\.ai/ns/([A-Za-z][A-Za-z0-9_]*)")
# TG.term, and a term built from its name: V.tg("term"), TG["term"]
_NAME = r"([A-Za-z][A-Za-z0-9_]*)"
TG_CODE = re.compile(rf"""\bTG\.{_NAME}|\.tg\(\s*["']{_NAME}["']\s*\)|\bTG\[\s*["']{_NAME}["']\s*\]""")
DEFINED = {t.value.rsplit("/", 1)[1] for t in list(vocab.CLASSES) + list(vocab.PROPERTIES)}


def _terms(text: str) -> set[str]:
    return set(TG_PREFIXED.findall(text)) | set(TG_FULL.findall(text))


@pytest.mark.parametrize("name", catalog().names())
def test_template_terms_are_defined(name):
    text = catalog().info(name).path.read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    undefined = _terms(body) - DEFINED
    assert not undefined, f"{name} uses terms the ontology does not define: {sorted(undefined)}"


def _code_terms(text: str) -> set[str]:
    """The tg: terms a Python source names: ``TG.term``, ``V.tg("term")``, ``TG["term"]``, full IRIs."""
    found = {name for groups in TG_CODE.findall(text) for name in groups if name}
    return found | set(TG_FULL.findall(text))


def test_code_terms_are_found_however_they_are_spelled():
    assert _code_terms('V.tg("notAnOntologyTerm")') == {"notAnOntologyTerm"}
    assert _code_terms('TG.edge, V.tg( "Focus" ), TG["query"], "https://trustgraph.ai/ns/Chunk"') == {"edge", "Focus", "query", "Chunk"}
    assert _code_terms('TG.notAnOntologyTerm') == {"notAnOntologyTerm"}
    assert not _code_terms('V.prov("Entity")')


def test_python_terms_are_defined():
    root = Path(__file__).resolve().parents[2]
    used = set()
    for path in list((root / "plugin").rglob("*.py")) + list((root / "loaders").rglob("*.py")):
        if path.name == "vocab.py":
            continue
        text = path.read_text(encoding="utf-8")
        used |= _code_terms(text)
    undefined = used - DEFINED - {"ragprov"}
    assert not undefined, f"code uses tg: terms the ontology does not define: {sorted(undefined)}"
