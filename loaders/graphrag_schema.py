"""Microsoft GraphRAG output tables, version by version: file names, column names and column types.

GraphRAG's index output changed shape several times (its migration notebooks
``index_migration_to_v1/v2/v3`` list the changes); the loader reads every version through one
canonical view. Each :class:`Schema` says, per canonical table, which files to look for and, per
canonical column, which source column names it may have, whether it is required, and its kind.

=========  =======================  =====================================================================
version    files                    differences from the next version
=========  =======================  =====================================================================
``0``      ``create_final_*``       0.3–0.5: ``entities.name`` (not ``title``), ``documents.raw_content``,
                                    ``relationships.rank`` (not ``combined_degree``), communities keyed
                                    by ``id`` (the Leiden number, no ``community``, no ``parent``, no
                                    ``entity_ids``: membership from ``nodes``), report ``community`` a string
``1``      ``create_final_*``       0.9–1.x: ``nodes`` table (entity per level), ``parent`` may be missing
                                    (0.9) — computed from membership; ``text_units.document_ids`` a list
``2``      plain names              2.x: no ``nodes``; ``children`` present; ``documents.metadata``
``3``      plain names              3.x: ``text_units.document_id`` (one document, not a list)
=========  =======================  =====================================================================

>>> detect_version({"entities": ["id", "title"], "text_units": ["id", "text", "document_id"]}, plain=True)
'3'
>>> detect_version({"entities": ["id", "name"]}, plain=False)
'0'
"""

from __future__ import annotations

import dataclasses

import pyarrow as pa

__all__ = ["REQUIRED_TABLES", "SCHEMAS", "TABLES", "Column", "Schema", "detect_version", "kind_matches"]

TABLES = ("documents", "text_units", "entities", "relationships", "communities", "community_reports", "covariates", "nodes")
REQUIRED_TABLES = ("documents", "text_units", "entities", "relationships")


@dataclasses.dataclass(frozen=True)
class Column:
    """A canonical column: source names to try in order, whether it must exist, and its kind.

    Kinds: ``str``, ``int``, ``float``, ``list[str]``, ``list[int]``, ``findings`` (a list of
    ``{summary, explanation}`` structs), ``int|str`` (an integer, or a string holding one — old
    outputs), ``str|list[str]`` (one id or a list of ids), ``any``.
    """

    names: tuple[str, ...]
    required: bool = False
    kind: str = "str"


def _c(*names: str, required: bool = False, kind: str = "str") -> Column:
    return Column(tuple(names), required, kind)


_DOCUMENTS = {
    "id": _c("id", required=True),
    "title": _c("title"),
    "text": _c("text", "raw_content"),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
    "text_unit_ids": _c("text_unit_ids", kind="list[str]"),
    "creation_date": _c("creation_date", kind="any"),
}
_TEXT_UNITS = {
    "id": _c("id", required=True),
    "text": _c("text", "chunk", required=True),
    "n_tokens": _c("n_tokens", kind="int"),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
    "document_ids": _c("document_ids", "document_id", required=True, kind="str|list[str]"),
}
_ENTITIES = {
    "id": _c("id", required=True),
    "title": _c("title", "name", required=True),
    "type": _c("type"),
    "description": _c("description"),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
    "text_unit_ids": _c("text_unit_ids", kind="list[str]"),
    "degree": _c("degree", kind="int"),
    "frequency": _c("frequency", kind="int"),
}
_RELATIONSHIPS = {
    "id": _c("id", required=True),
    "source": _c("source", required=True),
    "target": _c("target", required=True),
    "description": _c("description"),
    "weight": _c("weight", kind="float"),
    "combined_degree": _c("combined_degree", "rank", kind="float"),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
    "text_unit_ids": _c("text_unit_ids", required=True, kind="list[str]"),
}
_COMMUNITIES = {
    "id": _c("id"),
    "community": _c("community", required=True, kind="int|str"),
    "level": _c("level", required=True, kind="int|str"),
    "title": _c("title"),
    "parent": _c("parent", kind="int|str"),
    "children": _c("children", kind="list[int]"),
    "entity_ids": _c("entity_ids", kind="list[str]"),
    "relationship_ids": _c("relationship_ids", kind="list[str]"),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
    "size": _c("size", kind="int"),
    "period": _c("period", kind="any"),
}
_REPORTS = {
    "id": _c("id"),
    "community": _c("community", required=True, kind="int|str"),
    "level": _c("level", kind="int|str"),
    "title": _c("title", required=True),
    "summary": _c("summary"),
    "full_content": _c("full_content"),
    "rank": _c("rank", kind="float"),
    "rank_explanation": _c("rating_explanation", "rank_explanation"),
    "findings": _c("findings", kind="findings"),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
}
_COVARIATES = {
    "id": _c("id", required=True),
    "human_readable_id": _c("human_readable_id", kind="int|str"),
    "covariate_type": _c("covariate_type"),
    "type": _c("type"),
    "description": _c("description"),
    "subject_id": _c("subject_id"),
    "object_id": _c("object_id"),
    "status": _c("status"),
    "start_date": _c("start_date", kind="any"),
    "end_date": _c("end_date", kind="any"),
    "source_text": _c("source_text"),
    "text_unit_id": _c("text_unit_id", required=True),
}
_NODES = {
    "id": _c("id"),
    "title": _c("title", "name", required=True),
    "community": _c("community", kind="int|str"),
    "level": _c("level", required=True, kind="int|str"),
    "degree": _c("degree", kind="int"),
}


@dataclasses.dataclass(frozen=True)
class Schema:
    """The file names and canonical columns of one GraphRAG output version."""

    version: str
    file_names: dict[str, tuple[str, ...]]
    columns: dict[str, dict[str, Column]]


def _files(prefix: str) -> dict[str, tuple[str, ...]]:
    return {t: (f"{prefix}{t}.parquet",) for t in TABLES}


def _columns(**overrides: dict[str, Column]) -> dict[str, dict[str, Column]]:
    base = {
        "documents": _DOCUMENTS,
        "text_units": _TEXT_UNITS,
        "entities": _ENTITIES,
        "relationships": _RELATIONSHIPS,
        "communities": _COMMUNITIES,
        "community_reports": _REPORTS,
        "covariates": _COVARIATES,
        "nodes": _NODES,
    }
    return {t: {**cols, **overrides.get(t, {})} for t, cols in base.items()}


SCHEMAS: dict[str, Schema] = {
    # 0.3-0.5: communities are keyed by their Leiden number in `id`.
    "0": Schema(
        "0",
        _files("create_final_"),
        _columns(
            communities={
                "id": _c("id"),
                "community": _c("community", "id", required=True, kind="int|str"),
                "human_readable_id": _c("human_readable_id", "id", kind="int|str"),
            },
        ),
    ),
    "1": Schema("1", _files("create_final_"), _columns()),
    "2": Schema("2", _files(""), _columns(text_units={"document_ids": _c("document_ids", required=True, kind="list[str]")})),
    "3": Schema("3", _files(""), _columns(text_units={"document_ids": _c("document_id", required=True, kind="str")})),
}


def detect_version(columns: dict[str, list[str]], *, plain: bool) -> str:
    """The schema version of an output from its table names (``plain``) and column names."""
    if plain:
        return "3" if "document_id" in columns.get("text_units", []) else "2"
    entities = columns.get("entities", [])
    communities = columns.get("communities", [])
    if "name" in entities and "title" not in entities:
        return "0"
    if communities and "community" not in communities:
        return "0"
    return "1"


def _is_str(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_null(t)


def _is_list(t: pa.DataType) -> bool:
    return pa.types.is_list(t) or pa.types.is_large_list(t)


def kind_matches(kind: str, t: pa.DataType) -> bool:
    """Does an Arrow column type fit a canonical column kind?"""
    if kind == "any" or pa.types.is_null(t):
        return True
    if kind == "str":
        return _is_str(t)
    if kind == "int":
        return pa.types.is_integer(t)
    if kind == "float":
        return pa.types.is_integer(t) or pa.types.is_floating(t)
    if kind == "int|str":
        return pa.types.is_integer(t) or _is_str(t) or pa.types.is_floating(t)
    if kind == "list[str]":
        return _is_list(t) and _is_str(t.value_type)
    if kind == "list[int]":
        return _is_list(t) and (pa.types.is_integer(t.value_type) or pa.types.is_null(t.value_type))
    if kind == "str|list[str]":
        return _is_str(t) or (_is_list(t) and _is_str(t.value_type))
    if kind == "findings":
        return _is_str(t) or (_is_list(t) and (pa.types.is_struct(t.value_type) or pa.types.is_null(t.value_type)))
    raise ValueError(f"unknown column kind {kind!r}")
