"""Where the package's data lives: the ontology and the query templates, as shipped in the wheel.

Both an installed wheel and an editable install expose them as the data packages
``ragprov.ontology`` and ``ragprov.queries``.

>>> (ontology_dir() / "ragprov.ttl").is_file()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["data_dir", "ontology_dir", "queries_dir"]


def _package_dir(package: str) -> Path:
    root = resources.files(package)
    # Data packages are plain folders on disk in every supported install mode.
    return Path(str(root))


def ontology_dir() -> Path:
    """The folder holding ``ragprov.ttl``, the SHACL shapes, QC checks and the Protégé catalog."""
    return _package_dir("ragprov.ontology")


def queries_dir() -> Path:
    """The folder holding the Jinja2 SPARQL templates."""
    return _package_dir("ragprov.queries")


def data_dir() -> Path:
    """The folder of bundled datasets (the demo's GraphRAG output)."""
    return _package_dir("ragprov") / "data"
