"""Roller (Amaze!, Roller Splat!, Paint the Maze): a ball slides until it hits a wall, painting
every floor cell it passes; paint the whole floor in the fewest moves.

>>> from puzzlesat import roller
>>> level = roller.parse("#####\\n#o..#\\n#.#.#\\n#...#\\n#####")
>>> roller.verify(level, "RDLU")
[]
>>> roller.FAMILY.name, roller.dfs.solve(level).solution == roller.solve(level, method="dfs").solution
('roller', True)
"""

from .formats import FORMATS, detect_format, format, format_all, parse, parse_all, parse_answers, parse_each, read, read_answers, with_answers
from .model import BALL, DELTAS, DOWN, FLOOR, LEFT, MOVES, OPPOSITE, RIGHT, UP, WALL, Level, legal_moves, replay, slide, start_cell
from .generate import GeneratedLevel, GenerationFailed, generate
from .render import level_svg, render
from .solve import solve
from .verify import CODES, Violation, is_solution, verify
from . import dfs
from .family import FAMILY

# Jupyter draws these inline; the drawing lives in render.py, which imports the model (not the reverse)
Level._repr_svg_ = level_svg  # type: ignore[attr-defined]

__all__ = [
    "BALL", "CODES", "FAMILY", "GeneratedLevel", "GenerationFailed", "DELTAS", "DOWN", "FLOOR", "FORMATS", "LEFT", "Level", "MOVES", "OPPOSITE", "RIGHT", "UP",
    "Violation", "WALL", "detect_format", "format", "format_all", "generate", "is_solution", "legal_moves", "parse", "parse_all",
    "parse_answers", "parse_each", "read", "read_answers", "render", "replay", "slide", "solve", "start_cell", "dfs", "verify", "with_answers",
]
