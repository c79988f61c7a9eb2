"""Pipelines talk to the recorder and to ragprov.navigate, never to a store directly."""

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
    assert not offences, "read through ragprov.navigate (FactsReader, Lineage) instead:\n" + "\n".join(offences)
