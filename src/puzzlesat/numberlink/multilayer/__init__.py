"""Multi-layer (3-D) Numberlink, as in the DA Symposium Algorithm Design Contest 2016-2018.

A stack of W x H layers; a path steps to one of the four neighbours on its layer or to the cell
at the same place on the layer above or below. Cells are ``(layer, row, column)`` from 0.
The verbs are the one-layer family's: ``parse``/``format``, ``solve``, ``count``/``is_unique``,
``verify``, ``generate`` (unique puzzles, or contest routing problems with their answers) and
``render`` (the layers side by side, with a mark on both cells wherever a path changes layer).

>>> from puzzlesat.numberlink import multilayer
>>> puzzle = multilayer.Puzzle.from_layers([["312", "2.."], [".13", "..."]])
>>> picture = multilayer.render(puzzle, multilayer.solve(puzzle))   # paths 3 and 1 change layer
>>> picture.count("layer"), picture.count("path"), picture.count("via-up")
(2, 5, 2)
"""

from .formats import FORMATS, detect_format, format, format_solution, parse, parse_answer_layers, parse_solution, read
from .generate import generate
from .model import Cell, Pair, Puzzle, Solution, Via
from .render import puzzle_svg, render, solution_svg
from .solve import count, encode, is_unique, solve
from .verify import CODES, Violation, is_solution, verify

# Jupyter draws these inline; the drawing lives in render.py, which imports the model (not the reverse)
Puzzle._repr_svg_ = puzzle_svg  # type: ignore[attr-defined]
Solution._repr_svg_ = solution_svg  # type: ignore[attr-defined]

__all__ = [
    "Puzzle", "Pair", "Solution", "Cell", "Via",
    "parse", "parse_solution", "parse_answer_layers", "read", "format", "format_solution", "detect_format", "FORMATS",
    "solve", "count", "is_unique", "encode",
    "verify", "is_solution", "Violation", "CODES",
    "generate",
    "render",
]
