"""Package discovery for ragprov's fixed layout (SPEC §2).

The checkout's folders are not named like the packages they hold: ``plugin/`` is ``ragprov``,
``loaders/`` is ``ragprov.loaders``, and the data folders ``ontology/`` and ``queries/`` ship inside
the wheel as ``ragprov.ontology`` and ``ragprov.queries``. Everything else lives in pyproject.toml.
"""
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).parent
ROOTS = {"ragprov": "plugin", "ragprov.loaders": "loaders"}
DATA = {"ragprov.ontology": "ontology", "ragprov.queries": "queries"}


def python_packages() -> list[str]:
    found = []
    for name, folder in ROOTS.items():
        base = HERE / folder
        for init in sorted(base.rglob("__init__.py")):
            rel = init.parent.relative_to(base)
            found.append(".".join([name, *rel.parts]) if rel.parts else name)
    return found


setup(
    packages=python_packages() + list(DATA),
    package_dir={**ROOTS, **DATA},
    package_data={
        "ragprov.ontology": ["*.ttl", "*.xml", "*.tsv", "*.md", "imports/*", "checks/*.rq", "checks/fixtures/*"],
        "ragprov.queries": ["**/*.j2", "*.md"],
        "ragprov": ["py.typed", "data/**/*", "llm/prompts/*", "serve/static/*"],
    },
)
