"""The benches' docstring examples are tests too (how a bench judges a result, e.g.
``bench/answers.py``'s ``is_right``, must do what its examples say)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("__"))


@pytest.mark.parametrize("name", MODULES)
def test_bench_doctests(name, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # a bench run as a script imports its helpers as `_common`
    module = importlib.import_module(f"bench.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in bench/{name}.py"


def test_the_answer_bench_has_examples(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    answers = importlib.import_module("bench.answers")
    assert sum(len(t.examples) for t in doctest.DocTestFinder().find(answers.is_right)) >= 3
