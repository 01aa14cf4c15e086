"""puzzlesat: solve, certify and generate grid logic puzzles with SAT and constraint programming.

Three families with the same verbs (``parse``/``format``, ``solve``, ``count``/``is_unique`` or
proven-minimum ``solve``, ``verify``, ``generate``, ``render``)::

    from puzzlesat import numberlink, roller, swap
"""

__version__ = "0.1.0"

from .errors import InvalidPuzzle, ParseError, PuzzlesatError
from .results import CountResult, SolveResult, Status, Timings, Uniqueness

__all__ = ["ParseError", "InvalidPuzzle", "PuzzlesatError", "SolveResult", "CountResult", "Status", "Uniqueness", "Timings", "__version__"]
