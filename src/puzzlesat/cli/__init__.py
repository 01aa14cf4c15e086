"""The command line (``puzzlesat``, ``python -m puzzlesat``), one package over the registry of
families: :mod:`.main` builds the parser from each family's record, :mod:`.arguments` holds the
converters, :mod:`.inputs` reads files and folders, :mod:`.output` prints records, and
:mod:`.commands`, :mod:`.generate` and :mod:`.convert` run the commands. The library never
imports this package.
"""

from .main import build_parser, installed_versions, main

__all__ = ["build_parser", "installed_versions", "main"]
