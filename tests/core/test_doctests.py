"""Docstring examples are tests: run every ``ragprov`` module's doctests, imported as installed."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil

import pytest

SKIP_PREFIXES = ("ragprov.cli",)  # click commands: exercised by the CLI tests instead
# Modules with nothing to show in an example: packages that only re-export, an error tree, a module
# of environment look-ups, one fsync, one network probe. Every other module shows its use in a
# docstring example, and a module listed here that gains one must leave the list.
WITHOUT_EXAMPLES = {
    "ragprov.llm", "ragprov.loaders", "ragprov.navigate", "ragprov.record", "ragprov.retrieve", "ragprov.sparql",
    # the answer step's package only re-exports; its records module holds the dataclasses the step passes around
    "ragprov.llm.answer", "ragprov.llm.answer.records",
    "ragprov.errors", "ragprov.llm.env", "ragprov.llm.text", "ragprov.loaders.provenance",
    "ragprov.store._files", "ragprov.store.detect",
    # the ontology QC jobs read the ontology files and start Java (HermiT): tests/ontology runs them
    # Microsoft GraphRAG's prompts and context tables: tests/pipelines runs them against a local LLM server
    "ragprov.pipelines.microsoft", "ragprov.retrieve.table_fields",
    "ragprov.qc._common", "ragprov.qc.checks", "ragprov.qc.profile", "ragprov.qc.reasoner", "ragprov.qc.shacl",
}


def _modules() -> list[str]:
    import ragprov.loaders

    names = ["ragprov", "ragprov.loaders"]
    for path, prefix in ((ragprov.__path__, "ragprov."), (ragprov.loaders.__path__, "ragprov.loaders.")):
        for info in pkgutil.walk_packages(path, prefix):
            if not info.name.startswith(SKIP_PREFIXES):
                names.append(info.name)
    return sorted(set(names))


def _import(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as e:  # an optional extra that is not installed: never in CI
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            raise
        pytest.skip(f"{name}: {e}")


def _examples(module) -> int:
    return sum(len(test.examples) for test in doctest.DocTestFinder().find(module))


@pytest.mark.parametrize("name", [n for n in _modules() if n not in WITHOUT_EXAMPLES])
def test_doctests(name):
    module = _import(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted > 0, f"{name} has no docstring example: add one, or list it in WITHOUT_EXAMPLES"
    assert result.failed == 0, f"{result.failed} doctest example(s) failed in {name}"


@pytest.mark.parametrize("name", sorted(WITHOUT_EXAMPLES))
def test_modules_listed_without_examples_have_none(name):
    assert name in _modules(), f"{name} is listed in WITHOUT_EXAMPLES but is no longer a module"
    assert _examples(_import(name)) == 0, f"{name} now has docstring examples: remove it from WITHOUT_EXAMPLES"
