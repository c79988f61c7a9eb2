"""Pipelines talk to the recorder and to ragprov.retrieve, never to a store directly; retrieval
tokenises without the language-model package."""

from __future__ import annotations

import ast
from pathlib import Path

import ragprov.pipelines

STORE_METHODS = {"select", "query", "update", "ask", "extend", "bulk_extend", "load", "dump", "count"}


def test_pipelines_never_query_a_store():
    offences = []
    for path in sorted(Path(ragprov.pipelines.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STORE_METHODS:
                target = ast.unparse(node.func.value)
                if "store" in target:
                    offences.append(f"{path.name}:{node.lineno}: {ast.unparse(node.func)}")
            if isinstance(node, ast.ImportFrom) and node.module and node.module.lstrip(".").startswith(("store", "sparql")):
                offences.append(f"{path.name}:{node.lineno}: imports {node.module}")
    assert not offences, "read through ragprov.retrieve (FactsReader) instead:\n" + "\n".join(offences)


def _imports(package) -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                out.append((path.name, node.lineno, "." * node.level + node.module))
    return out


def test_pipelines_read_facts_from_retrieve_only():
    offences = [f"{f}:{n}: {m}" for f, n, m in _imports(ragprov.pipelines) if m.lstrip(".").startswith("navigate")]
    assert not offences, "facts come from ragprov.retrieve:\n" + "\n".join(offences)


def test_retrieval_does_not_import_the_llm_package():
    import ragprov.retrieve

    offences = [f"{f}:{n}: {m}" for f, n, m in _imports(ragprov.retrieve) if m.lstrip(".").startswith("llm")]
    assert not offences, "\n".join(offences)
