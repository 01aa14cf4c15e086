"""Numberlink (Arukone, Flow Free): connect each pair of equal labels by an orthogonal path.

Paths never share a cell or enter blocked cells; by default every free cell is covered and a
path may run beside itself (see :class:`Rules` for the options).

>>> from puzzlesat import numberlink
>>> puzzle = numberlink.parse("...B\\n.A..\\n..BA")
>>> result = numberlink.solve(puzzle)
>>> print(numberlink.format_solution(puzzle, result.solution))
B B B B
B A A A
B B B A
>>> numberlink.is_unique(puzzle).uniqueness.value
'unique'
"""

from . import backtracking, multilayer  # the baseline search, and puzzles of several layers
from .formats import FORMATS, detect_format, format, format_all, format_solution, parse, parse_all, parse_each, parse_solution, read, url_rules
from .generate import Generated, GenerationFailed, generate
from .model import DEFAULT_RULES, Cell, Pair, Puzzle, Rules, Solution
from .render import puzzle_svg, render, solution_svg
from .solve import count, encode, is_unique, solve
from .verify import CODES, Violation, is_solution, is_valid, verify
from .family import FAMILY  # (last: the record names the verbs above)

# Jupyter draws these inline; the drawing lives in render.py, which imports the model (not the reverse)
Puzzle._repr_svg_ = puzzle_svg  # type: ignore[attr-defined]
Solution._repr_svg_ = solution_svg  # type: ignore[attr-defined]

__all__ = [
    "Puzzle", "Pair", "Solution", "Rules", "DEFAULT_RULES", "Cell",
    "parse", "parse_all", "parse_each", "parse_solution", "read", "format", "format_all", "format_solution", "detect_format", "FORMATS", "url_rules",
    "solve", "count", "is_unique", "encode",
    "verify", "is_solution", "is_valid", "Violation", "CODES",
    "generate", "Generated", "GenerationFailed", "render",
    "backtracking", "multilayer", "FAMILY",
]
