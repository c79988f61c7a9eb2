"""A Microsoft GraphRAG output's own text-unit and entity embeddings, kept where basic and local
search read them.

GraphRAG 3 embeds every text unit's text when it indexes (``embed_text``, the
``text_unit_text`` embedding) and, with ``snapshots.embeddings``, writes the vectors beside its
tables as ``embeddings.text_unit_text.parquet`` (columns ``id``: the text unit's id, and
``embedding``: a list of floats). :func:`import_text_unit_embeddings` reads that file (nothing
when the output has none) and keeps the vectors in the store's persistent text index as the set
``graphrag-output:text_unit_text@{dim}d``; ``ragprov load graphrag`` does it after the text index
is synchronised. Basic search with an embeddings API uses them when the API's query vectors have
the same dimension — as Microsoft's query engine searches the index's vectors with the query
embedded by the configured embedding model — and otherwise embeds the text units itself.
Likewise ``embeddings.entity_description.parquet`` (:data:`ENTITY_TABLE`: ``id``, the entity's
id, and ``embedding``, the vector of its ``title:description``), read by
:func:`import_entity_embeddings` and kept as ``graphrag-output:entity_description@{dim}d``: local
search with an embeddings API maps the question to entities by these vectors when the API's
have their dimension (:mod:`ragprov.retrieve.entity_search`).
(The LanceDB tables Microsoft's default vector store writes are not read.)

>>> import tempfile, pyarrow as pa, pyarrow.parquet as pq
>>> folder = Path(tempfile.mkdtemp())
>>> pq.write_table(pa.table({"id": ["u1", "u/2"], "embedding": [[0.6, 0.8], [1.0, 0.0]]}), folder / TABLE)
>>> sorted(read_text_unit_embeddings(folder))
['urn:graphrag:text_unit:u%2F2', 'urn:graphrag:text_unit:u1']
>>> pq.write_table(pa.table({"id": ["e1"], "embedding": [[0.6, 0.8]]}), folder / ENTITY_TABLE)
>>> read_entity_embeddings(folder)
{'urn:graphrag:entity:e1': [0.6, 0.8]}
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from ragprov.errors import LoadError
from ragprov.retrieve.vectors import ENTITY_INDEX_VECTORS, INDEX_VECTORS

from ._rdf import mint

__all__ = [
    "ENTITY_PREFIX",
    "ENTITY_TABLE",
    "PREFIX",
    "TABLE",
    "import_entity_embeddings",
    "import_text_unit_embeddings",
    "read_entity_embeddings",
    "read_text_unit_embeddings",
]

#: the file GraphRAG writes the text units' vectors to
TABLE = "embeddings.text_unit_text.parquet"
#: the vector set's name in the text index (``@{dim}d`` follows)
PREFIX = INDEX_VECTORS
#: the file GraphRAG writes the entities' ``title:description`` vectors to
ENTITY_TABLE = "embeddings.entity_description.parquet"
#: the entity vector set's name in the text index (``@{dim}d`` follows)
ENTITY_PREFIX = ENTITY_INDEX_VECTORS


def read_text_unit_embeddings(output_dir: str | Path, *, namespace: str = "urn:graphrag:") -> dict[str, list[float]]:
    """``text unit IRI → vector`` from the output's :data:`TABLE` (empty when it has none); the
    IRIs are the loader's (``{namespace}text_unit:{id}``)."""
    return _read(Path(output_dir) / TABLE, namespace + "text_unit:")


def read_entity_embeddings(output_dir: str | Path, *, namespace: str = "urn:graphrag:") -> dict[str, list[float]]:
    """``entity IRI → vector`` from the output's :data:`ENTITY_TABLE` (empty when it has none);
    the IRIs are the loader's (``{namespace}entity:{id}``)."""
    return _read(Path(output_dir) / ENTITY_TABLE, namespace + "entity:")


def _read(path: Path, prefix: str) -> dict[str, list[float]]:
    if not path.is_file():
        return {}
    try:
        table = pq.read_table(path, columns=["id", "embedding"])
    except (OSError, ValueError, KeyError) as e:
        raise LoadError(f"{path}: not a GraphRAG embeddings table with id and embedding columns ({e})") from None
    out: dict[str, list[float]] = {}
    for n, (ident, vector) in enumerate(zip(table.column("id").to_pylist(), table.column("embedding").to_pylist(), strict=True)):
        if ident is None or not vector:
            raise LoadError(f"{path}: row {n} has no id or no embedding")
        out[mint(prefix, ident)[1:-1]] = [float(x) for x in vector]
    if len({len(v) for v in out.values()}) > 1:
        raise LoadError(f"{path}: the embeddings have different lengths")
    return out


def import_text_unit_embeddings(store, output_dir: str | Path, *, namespace: str = "urn:graphrag:") -> int | None:
    """Keep the output's text-unit vectors in ``store``'s persistent text index (run it after the
    index is synchronised with the load); returns how many were kept, ``None`` for a store without
    a persistent index (the vectors have nowhere to live)."""
    return _import(store, read_text_unit_embeddings(output_dir, namespace=namespace), PREFIX, "chunk")


def import_entity_embeddings(store, output_dir: str | Path, *, namespace: str = "urn:graphrag:") -> int | None:
    """Keep the output's entity vectors in ``store``'s persistent text index, as
    :func:`import_text_unit_embeddings` keeps the text units'."""
    return _import(store, read_entity_embeddings(output_dir, namespace=namespace), ENTITY_PREFIX, "entity")


def _import(store, vectors: dict[str, list[float]], prefix: str, kind: str) -> int | None:
    from ragprov.retrieve.textindex import TextIndex, index_location

    location = index_location(store)
    if location is None:
        return None
    if not vectors:
        return 0
    dim = len(next(iter(vectors.values())))
    index = TextIndex.open(location)
    try:
        return index.import_vectors(f"{prefix}@{dim}d", vectors, kind)
    finally:
        index.close()
