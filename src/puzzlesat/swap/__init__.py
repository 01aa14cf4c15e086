"""Swap: chess-figure colour puzzles (Galactic Monsters). Swap squares until the colours match a
goal, or each colour forms one group; find the fewest moves and prove it.

Rules (see :mod:`puzzlesat.swap.model`): a square (figure T/B/Q, scope k, colour) swaps with the
cell it reaches along its figure's directions within k, jumping squares but not walls; a swap is
legal when either square reaches the other.

>>> from puzzlesat import swap
>>> level = swap.parse("start\\nT1R T1G\\nT1G T1R\\ngoal\\nR G\\nR G")
>>> [str(m) for m in swap.legal_moves(level.start)]
['0,0>0,1', '0,0>1,0', '0,1>1,1', '1,0>1,1']
>>> swap.verify(level, ["1,0>1,1"])
[]
"""

from . import astar
from .family import FAMILY
from .formats import FORMATS, detect_format, format, format_all, parse, parse_all, parse_each, read
from .generate import GeneratedLevel, GenerationFailed, generate
from .model import (
    Board,
    Goal,
    Level,
    Move,
    Square,
    apply_swap,
    board_colours,
    board_from_rows,
    board_rows,
    colour_groups,
    is_goal,
    lonely_squares,
    mismatches,
    parse_moves,
)
from .moves import apply_move, is_legal, legal_moves, reachable, reaches, replay, swap_pairs
from .render import level_svg, render
from .solve import solve
from .verify import CODES, Violation, is_solution, verify

# Jupyter draws these inline; the drawing lives in render.py, which imports the model (not the reverse)
Level._repr_svg_ = level_svg  # type: ignore[attr-defined]

__all__ = [
    "Board",
    "GeneratedLevel",
    "GenerationFailed",
    "FAMILY",
    "astar",
    "detect_format",
    "generate",
    "render",
    "solve",
    "CODES",
    "FORMATS",
    "Goal",
    "Level",
    "Move",
    "Square",
    "Violation",
    "apply_move",
    "apply_swap",
    "board_colours",
    "board_from_rows",
    "board_rows",
    "colour_groups",
    "format",
    "format_all",
    "is_goal",
    "is_legal",
    "is_solution",
    "legal_moves",
    "lonely_squares",
    "mismatches",
    "parse",
    "parse_all",
    "parse_each",
    "parse_moves",
    "reachable",
    "reaches",
    "read",
    "replay",
    "swap_pairs",
    "verify",
]
