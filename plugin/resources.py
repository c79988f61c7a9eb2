"""Where the package's data lives: the ontology and the query templates, as shipped in the wheel.

Both an installed wheel and an editable install expose them as the data packages
``ragprov.ontology`` and ``ragprov.queries``.

>>> (ontology_dir() / "ragprov.ttl").is_file()
True
"""

from __future__ import annotations

import importlib
from pathlib import Path

__all__ = ["data_dir", "ontology_dir", "queries_dir"]


def _package_dir(package: str) -> Path:
    # Data packages are plain folders on disk in every supported install mode, each with its
    # __init__.py: the folder is the one importlib.resources.files() names, without importing
    # importlib.resources (with its zip readers: ~5 ms of every command)
    return Path(importlib.import_module(package).__file__ or "").parent


def ontology_dir() -> Path:
    """The folder holding ``ragprov.ttl``, the SHACL shapes, QC checks and the Protégé catalog."""
    return _package_dir("ragprov.ontology")


def queries_dir() -> Path:
    """The folder holding the Jinja2 SPARQL templates."""
    return _package_dir("ragprov.queries")


def data_dir() -> Path:
    """The folder of bundled datasets (the demo's GraphRAG output)."""
    return _package_dir("ragprov") / "data"
