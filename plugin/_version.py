"""The package version: its one source (the build reads it from here, see pyproject.toml).

>>> __version__.count(".") >= 2
True
"""

__version__ = "0.1.0"
