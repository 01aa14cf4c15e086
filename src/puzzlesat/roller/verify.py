"""The independent answer checker for Roller: replays a move string and names what is wrong.

Checks, in order, with stable codes (see ``CODES``): every letter is one of U D L R, every move
leaves the cell the ball stands on, and every floor cell is painted at the end. It knows
nothing about SAT or search; every answer a solver returns passes through it. Each fault is a
:class:`puzzlesat.family.Violation` (the type every family's checker returns) with the move's
number (from 1) as its ``step``.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#####",
...                          "#o..#",
...                          "#.#.#",
...                          "#...#",
...                          "#####"])
>>> verify(level, "RDLU")
[]
>>> [str(v) for v in verify(level, "RD")]
['unpainted: 3 floor cells left unpainted: (2, 1), (3, 1), (3, 2)']
>>> [v.code for v in verify(level, "xRR")]
['bad-symbol', 'no-move', 'unpainted']
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import require_type
from ..family import Violation
from ..grid import Cell
from ..results import solve_result_hint
from .model import DELTAS, MOVES, Level, slide

# Stable violation codes, in the order they are checked.
CODES = {
    "bad-symbol": "a letter of the answer is not one of U, D, L, R",
    "no-move": "a move cannot leave the cell the ball stands on (a wall or the edge is next to it)",
    "unpainted": "floor cells are left unpainted at the end",
}

SHOWN_CELLS = 12  # how many cells a message lists before "..."


def _cells_text(cells: tuple[Cell, ...]) -> str:
    text = ", ".join(str(cell) for cell in cells[:SHOWN_CELLS])
    return text + (f", ... ({len(cells) - SHOWN_CELLS} more)" if len(cells) > SHOWN_CELLS else "")


def move_string(moves: object) -> str:
    """``moves`` (a string over U D L R, or an iterable of such letters) as one string; a
    TypeError naming ``moves`` for anything else. Letters are not checked here.

    >>> move_string(["R", "D"]), move_string("LU")
    ('RD', 'LU')
    """
    if isinstance(moves, str):
        return moves
    letters = list(moves) if isinstance(moves, Iterable) else None
    if letters is None or not all(isinstance(letter, str) for letter in letters):
        raise TypeError(f"moves must be a string over U D L R, not {type(moves).__name__}{solve_result_hint(moves)}")
    return "".join(letters)


def verify(level: Level, moves: str) -> list[Violation]:
    """Every rule the move string breaks, in check order; an empty list means it is a valid answer.

    Letters that are not moves are reported (``bad-symbol``) and skipped; a move that cannot
    leave the current cell is reported (``no-move``) and changes nothing; the replay goes on
    so that every fault is named.

    >>> level = Level.from_rows(["o..", "##."])
    >>> verify(level, "RD")
    []
    >>> [(v.code, v.step) for v in verify(level, "LR")]
    [('no-move', 1), ('unpainted', None)]
    """
    require_type(level, Level, "level")
    if moves is None:
        raise TypeError("moves must be a string over U D L R, not None (a result with no answer has solution None)")
    out: list[Violation] = []
    moves = move_string(moves)
    position = level.start
    painted = {position}
    slides: dict[tuple[Cell, str], tuple[Cell, tuple[Cell, ...]]] = {}  # each move from each cell rolled once
    for step, letter in enumerate(moves, start=1):
        if letter not in DELTAS:
            out.append(Violation("bad-symbol", f"move {step} is {letter!r}, not one of {', '.join(MOVES)}", step=step))
            continue
        rolled = slides.get((position, letter))
        if rolled is None:
            rolled = slides[position, letter] = slide(level, position, letter)
            painted.update(rolled[1])
        stop, cells = rolled
        if not cells:
            out.append(Violation("no-move", f"move {step} ({letter}) cannot leave {position}: a wall or the edge is next to it", step=step,
                                 cells=(position,)))
            continue
        position = stop
    unpainted = tuple(cell for cell in level.floor_cells if cell not in painted)
    if unpainted:
        noun = "cell" if len(unpainted) == 1 else "cells"
        out.append(Violation("unpainted", f"{len(unpainted)} floor {noun} left unpainted: {_cells_text(unpainted)}", cells=unpainted))
    return out


def is_solution(level: Level, moves: str) -> bool:
    """True when ``moves`` paints every floor cell with legal moves only.

    >>> level = Level.from_rows(["o..", "##."])
    >>> is_solution(level, "RD"), is_solution(level, "R")
    (True, False)
    """
    return not verify(level, moves)
