"""``python -m ragprov.cli`` runs the ``ragprov`` command."""

from . import main

main()
