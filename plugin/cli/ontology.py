"""``ragprov ontology check``: QC checks, and optionally the reasoner, over the shipped ontology."""

from __future__ import annotations

import click

from . import cli
from .common import echo_json


@cli.group("ontology")
def ontology_group():
    """The ragprov ontology: QC checks and consistency."""


@ontology_group.command("check")
@click.option("--reasoner", is_flag=True, help="Also run HermiT (needs Java and the 'ontology' extra).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def ontology_check(reasoner, fmt):
    """Run the ROBOT-style QC checks (one line per problem); exit 1 on any ERROR."""
    from .. import qc

    problems = qc.run_checks()
    consistency = qc.check_consistency() if reasoner else None
    if fmt == "json":
        echo_json(
            {
                "problems": [p.to_dict() if hasattr(p, "to_dict") else vars(p) for p in problems],
                "consistent": None if consistency is None else bool(getattr(consistency, "consistent", consistency)),
            }
        )
    else:
        for p in problems:
            click.echo(str(p))
        errors = [p for p in problems if getattr(p, "severity", "") == "ERROR"]
        click.echo(f"{len(problems)} problems ({len(errors)} errors)")
        if consistency is not None:
            click.echo(f"reasoner: {consistency}")
    if any(getattr(p, "severity", "") == "ERROR" for p in problems) or (
        consistency is not None and not bool(getattr(consistency, "consistent", consistency))
    ):
        raise SystemExit(1)
