"""Templates and code speak the ontology: every ``tg:`` term they use is defined in ``ragprov.ttl``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragprov import vocab
from ragprov.sparql import catalog

TG_PREFIXED = re.compile(r"\btg:([A-Za-z][A-Za-z0-9_]*)")
TG_FULL = re.compile(r"https://trustgraph\.ai/ns/([A-Za-z][A-Za-z0-9_]*)")
DEFINED = {t.value.rsplit("/", 1)[1] for t in list(vocab.CLASSES) + list(vocab.PROPERTIES)}


def _terms(text: str) -> set[str]:
    return set(TG_PREFIXED.findall(text)) | set(TG_FULL.findall(text))


@pytest.mark.parametrize("name", catalog().names())
def test_template_terms_are_defined(name):
    text = catalog().info(name).path.read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    undefined = _terms(body) - DEFINED
    assert not undefined, f"{name} uses terms the ontology does not define: {sorted(undefined)}"


def test_python_terms_are_defined():
    root = Path(__file__).resolve().parents[2]
    used = set()
    for path in list((root / "plugin").rglob("*.py")) + list((root / "loaders").rglob("*.py")):
        if path.name == "vocab.py":
            continue
        text = path.read_text(encoding="utf-8")
        used |= {m for m in re.findall(r"\bTG\.([A-Za-z][A-Za-z0-9_]*)", text)} | set(TG_FULL.findall(text))
    undefined = used - DEFINED - {"ragprov"}
    assert not undefined, f"code uses tg: terms the ontology does not define: {sorted(undefined)}"
