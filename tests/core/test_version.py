"""One version source: ``plugin/_version.py``, read by the build, ``--version``, the software agent."""

import importlib.metadata

from click.testing import CliRunner

import ragprov
from ragprov._version import __version__
from ragprov.cli import cli
from ragprov.record.recorder import SOFTWARE_AGENT


def test_the_version_has_one_source():
    assert ragprov.__version__ is __version__
    assert importlib.metadata.version("ragprov") == __version__  # what the build read
    assert SOFTWARE_AGENT.value == f"urn:ragprov:software:ragprov:{__version__}"
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output
