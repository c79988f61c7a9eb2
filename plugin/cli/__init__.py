"""The ``ragprov`` command: one group, one module per command group (§10).

Each module below registers its commands on :data:`cli`; nothing imports this package.
"""

from __future__ import annotations

import click

from .. import __version__
from .common import main_entry, run


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ragprov")
def cli() -> None:
    """Auditable graph-RAG: record, navigate and check retrieval provenance in any RDF store."""


# Command groups register themselves on `cli` when imported.
from . import traces as _traces  # noqa: E402,F401
from . import query as _query  # noqa: E402,F401
from . import ontology as _ontology  # noqa: E402,F401
from . import spool as _spool  # noqa: E402,F401
from . import transfer as _transfer  # noqa: E402,F401
from . import ask as _ask  # noqa: E402,F401
from . import demo as _demo  # noqa: E402,F401
from . import load as _load  # noqa: E402,F401
from . import lineage as _lineage  # noqa: E402,F401
from . import serve as _serve  # noqa: E402,F401


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    if argv is None:
        main_entry(cli)
    else:
        raise SystemExit(run(cli, argv))


__all__ = ["cli", "main", "run"]
