"""Docstring examples are tests: run every ``ragprov`` module's doctests, imported as installed."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil

import pytest

SKIP_PREFIXES = ("ragprov.cli",)  # click commands: exercised by the CLI tests instead


def _modules() -> list[str]:
    import ragprov.loaders

    names = ["ragprov", "ragprov.loaders"]
    for path, prefix in ((ragprov.__path__, "ragprov."), (ragprov.loaders.__path__, "ragprov.loaders.")):
        for info in pkgutil.walk_packages(path, prefix):
            if not info.name.startswith(SKIP_PREFIXES):
                names.append(info.name)
    return sorted(set(names))


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:  # an optional extra that is not installed: never in CI
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            raise
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {name}"
