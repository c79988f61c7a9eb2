"""Docstring examples are tests: run every ``ragprov`` module's doctests, imported as installed."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ragprov

SKIP_PREFIXES = ("ragprov.cli",)  # click commands: exercised by the CLI tests instead


def _modules() -> list[str]:
    names = ["ragprov"]
    for info in pkgutil.walk_packages(ragprov.__path__, "ragprov."):
        if not info.name.startswith(SKIP_PREFIXES):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:  # an optional extra that is not installed
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {name}"
