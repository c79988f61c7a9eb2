"""The Store protocol is the whole seam: every store implements it, and no module outside
``ragprov.store`` uses anything of a store beyond it (issue 13 item 16)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ragprov.loaders.documents import load_documents
from ragprov.loaders.graphrag import load_graphrag
from ragprov.loaders.triples import load_triples
from ragprov.serve.locking import SharedStore
from ragprov.store import EmbeddedStore, EndpointConfig, EndpointStore
from ragprov.store.base import PROTOCOL, Store
from ragprov.store.spool import SpoolingStore

from ..loaders.helpers import GRAPHRAG

ROOT = Path(__file__).resolve().parents[2]
#: names a store goes by: ``store``, ``facts_store``, ``self.store``, ``self._store``…
STORE_NAME = re.compile(r"^_?(\w+_)?store$")


def _store_like(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return bool(STORE_NAME.match(node.id))
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
            and bool(STORE_NAME.match(node.attr)))


def store_uses_beyond_protocol(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of each use of a store attribute the protocol does not have: ``store.raw``,
    ``getattr(store, "raw", None)``.

    >>> store_uses_beyond_protocol("store.select(q); self._store.raw; getattr(store, 'path', None)")
    [(1, 'raw')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _store_like(node.value) and node.attr not in PROTOCOL:
            found.append((node.lineno, node.attr))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and node.args and _store_like(node.args[0])):
            name = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else "?"
            if name not in PROTOCOL:
                found.append((node.lineno, str(name)))
    return found


def test_scan_finds_what_reaches_past_the_protocol():
    assert store_uses_beyond_protocol("def f(store):\n    return store.raw, store.select('q')\n") == [(2, "raw")]
    assert store_uses_beyond_protocol("getattr(facts_store, name)") == [(1, "?")]
    assert store_uses_beyond_protocol("store.dialect; self.store.bulk_load(b'')") == []


def test_no_module_outside_the_store_package_reaches_past_the_protocol():
    offenders = []
    for folder in ("plugin", "loaders"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(ROOT / "plugin" / "store"):
                continue
            offenders += [f"{path.relative_to(ROOT)}:{line}: store.{name}"
                          for line, name in store_uses_beyond_protocol(path.read_text(encoding="utf-8"))]
    assert not offenders, "uses of a store beyond the Store protocol (add it to the protocol or don't):\n" + "\n".join(offenders)


@pytest.mark.parametrize("cls", [EmbeddedStore, EndpointStore, SpoolingStore, SharedStore])
def test_every_store_implements_the_whole_protocol(cls):
    missing = [name for name in PROTOCOL if not hasattr(cls, name) and name not in ("dialect", "path")]
    assert not missing, f"{cls.__name__} lacks {missing}"


def test_every_store_instance_is_a_store(tmp_path):
    embedded = EmbeddedStore()
    endpoint = EndpointStore(EndpointConfig.from_url("http://127.0.0.1:9/query", dialect="rdf12"))
    for store in (embedded, endpoint, SpoolingStore(endpoint, tmp_path / "spool", replay_interval=None),
                  SharedStore(embedded)):
        assert isinstance(store, Store), store
        assert store.path is None


class ProtocolOnly:
    """A store that is the protocol and nothing else: any other attribute is an error."""

    def __init__(self, store: Store):
        self._inner = store

    def __getattr__(self, name: str):
        if name not in PROTOCOL:
            raise AssertionError(f"store.{name} is not part of the Store protocol")
        return getattr(self._inner, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self._inner.close()


@pytest.mark.parametrize("path", [False, True], ids=["memory", "disk"])
def test_loaders_use_only_the_protocol(tmp_path, path):
    inner = EmbeddedStore(tmp_path / "store" if path else None)
    store = ProtocolOnly(inner)
    report = load_graphrag(store, GRAPHRAG["operation-dulce-v1"], show_progress=False)
    assert report.quads > 0 and inner.count() >= report.quads
    (tmp_path / "carol.md").write_text("Marley was dead, to begin with. Scrooge signed it.\n", encoding="utf-8")
    assert load_documents(store, [tmp_path / "carol.md"], chunk_size=20, chunk_overlap=5).quads > 0
    (tmp_path / "facts.nt").write_text("<urn:a> <urn:b> <urn:c> .\n", encoding="utf-8")
    assert load_triples(store, tmp_path / "facts.nt", source="urn:ragprov:doc:x", require_source=False).quads > 0
    inner.close()


def test_optimize_compacts_an_on_disk_store_and_keeps_its_content(tmp_path):
    """``optimize`` after a bulk load: the on-disk store compacts (and answers the same); a store in
    memory and a read-only one have nothing to do."""
    data = "".join(f"<urn:x:s{i}> <urn:x:p> \"{i}\" <urn:graph:g> .\n" for i in range(500)).encode()
    disk = EmbeddedStore(tmp_path / "store")
    disk.bulk_load(data)
    before = sorted(str(r["s"]) for r in disk.select("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }"))
    assert disk.optimize() is True
    assert sorted(str(r["s"]) for r in disk.select("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }")) == before
    assert disk.count() == 500
    disk.close()
    reader = EmbeddedStore(tmp_path / "store", read_only=True)
    assert reader.optimize() is False and reader.count() == 500
    reader.close()
    memory = EmbeddedStore()
    memory.bulk_load(data)
    assert memory.optimize() is False and memory.count() == 500
    assert SharedStore(memory).optimize() is False
