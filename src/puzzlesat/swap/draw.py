"""The original game's draw of a Swap level (the steps are listed in :mod:`.generate`): the size by
difficulty, the colours by area, a distribution of walls and figures, the scopes, and boards
redrawn until connected; a goal drawn to differ from the start.

>>> import random
>>> level = draw_level(random.Random(3), difficulty="medium", goal="cluster")
>>> 2 <= level.rows <= 4 and 2 <= level.cols <= 4 and level.goal.kind
'cluster'
"""

from __future__ import annotations

import math
import random
from typing import Optional, Sequence

from ..grid import is_whole_number
from .model import Board, Goal, Level, Square, board_colours, is_goal


SIZES = {"easy": (2, 3), "medium": (2, 4), "hard": (3, 5), "expert": (4, 6)}
PALETTE = ("R", "B", "Y", "G", "O", "M")
DISTRIBUTIONS: tuple[tuple[int, int, int], ...] = (
    (20, 20, 10), (30, 10, 20), (10, 20, 20), (5, 30, 15), (30, 20, 10),
    (0, 20, 30), (10, 15, 25), (5, 5, 5), (5, 0, 0), (45, 0, 55),
    (20, 45, 35), (40, 40, 20), (60, 10, 30), (55, 0, 35), (70, 5, 20),
)  # (wall %, bishop %, queen %), towers the rest
SCOPES = ((1, 0.55), (2, 0.30), (3, 0.15))  # (scope, probability) of a drawn figure
CONNECT_TRIES = 1000  # board draws until one is connected as asked, before all is drawn anew
SHUFFLE_TRIES = 50  # reshuffles of one board (a random arrangement almost never needs more than a few)
DRAW_TRIES = 100  # levels drawn before generate says every draw was already solved


# -- the original draw --------------------------------------------------------------------------
def _round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5))


def _between(rng: random.Random, lo: int, hi: int) -> int:
    """``round(uniform(lo, hi))`` as the original drew sizes and colour counts."""
    return _round_half_up(rng.random() * (hi - lo) + lo)


def colour_count(rng: random.Random, area: int) -> int:
    """How many colours a board of ``area`` cells gets (the original's table)."""
    if area > 25:
        return _between(rng, 2, 6)
    if area > 20:
        return _between(rng, 2, 5)
    if area > 15:
        return _between(rng, 2, 4)
    if area > 8:
        return _between(rng, 2, 3)
    return 2


def piece_counts(area: int, distribution: tuple[int, int, int], rng: random.Random) -> tuple[int, int, int, int]:
    """(walls, bishops, queens, towers) for a board of ``area`` cells.

    >>> piece_counts(30, (20, 45, 35), random.Random(0))   # 6 + 14 + 11 > 30: the larger gives way
    (6, 13, 11, 0)
    >>> piece_counts(6, (70, 5, 20), random.Random(0))      # no walls on 6 cells or fewer
    (0, 0, 1, 5)
    """
    wall_pct, bishop_pct, queen_pct = distribution
    walls = _round_half_up(wall_pct * area / 100)
    if area <= 6:
        walls = 0
    elif area < 9:
        walls = _round_half_up(rng.random())  # 0 or 1
    bishops = _round_half_up(bishop_pct * area / 100)
    queens = _round_half_up(queen_pct * area / 100)
    while walls + bishops + queens > area:
        if bishops >= queens:
            bishops -= 1
        else:
            queens -= 1
    return walls, bishops, queens, area - walls - bishops - queens


def draw_scope(rng: random.Random) -> int:
    x = rng.random()
    for scope, p in SCOPES:
        if x < p:
            return scope
        x -= p
    return SCOPES[-1][0]


def _connected(cells: list[Optional[Square]], rows: int, cols: int, diagonal: bool) -> bool:
    free = [i for i, sq in enumerate(cells) if sq is not None]
    if not free:
        return False
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    seen = {free[0]}
    todo = [free[0]]
    while todo:
        r, c = divmod(todo.pop(), cols)
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            j = rr * cols + cc
            if 0 <= rr < rows and 0 <= cc < cols and cells[j] is not None and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(free)


def _grid(cells: Sequence[Optional[Square]], cols: int) -> Board:
    return tuple(tuple(cells[i : i + cols]) for i in range(0, len(cells), cols))


def _shuffle_squares(rng: random.Random, cells: list[Optional[Square]]) -> list[Optional[Square]]:
    """The squares permuted among the non-wall cells (walls fixed)."""
    where = [i for i, sq in enumerate(cells) if sq is not None]
    contents = [cells[i] for i in where]
    rng.shuffle(contents)
    out = list(cells)
    for i, sq in zip(where, contents):
        out[i] = sq
    return out


def draw_board(
    rng: random.Random, rows: int, cols: int, colours: Sequence[str], distribution: tuple[int, int, int], *, diagonal: bool
) -> Optional[list[Optional[Square]]]:
    """One board (flat, row-major) connected as asked, or None after ``CONNECT_TRIES`` draws."""
    area = rows * cols
    for _ in range(CONNECT_TRIES):
        walls, bishops, queens, towers = piece_counts(area, distribution, rng)
        pieces: list[Optional[str]] = [None] * walls + ["Q"] * queens + ["B"] * bishops + ["T"] * towers
        scopes = [draw_scope(rng) if p is not None else 0 for p in pieces]
        order = list(range(area))
        rng.shuffle(order)
        pieces = [pieces[i] for i in order]
        scopes = [scopes[i] for i in order]
        squares = sum(p is not None for p in pieces)
        chunk = max(1, math.ceil(squares / len(colours)))
        cells: list[Optional[Square]] = []
        dealt = 0
        for figure, scope in zip(pieces, scopes):
            if figure is None:
                cells.append(None)
                continue
            cells.append(Square(figure, scope, colours[min(dealt // chunk, len(colours) - 1)]))
            dealt += 1
        rng.shuffle(cells)
        if len({sq.colour for sq in cells if sq is not None}) < 2:
            continue
        if _connected(cells, rows, cols, diagonal):
            return cells
    return None


MAX_SIZE_CELLS = 400  # a fixed --size: 2 to this many cells


def check_size(size: object) -> tuple[int, int]:
    """A fixed board size ``(rows, cols)`` for the generator, checked.

    >>> check_size((7, 6))
    (7, 6)
    >>> check_size((30, 30))
    Traceback (most recent call last):
    ...
    ValueError: size 30x30 must have 2 to 400 cells
    """
    if not (isinstance(size, tuple) and len(size) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in size)):
        raise TypeError(f"size must be a (rows, cols) pair of whole numbers, not {size!r}")
    rows, cols = size
    if rows < 1 or cols < 1 or not 2 <= rows * cols <= MAX_SIZE_CELLS:
        raise ValueError(f"size {cols}x{rows} must have 2 to {MAX_SIZE_CELLS} cells")
    return size


def board_size(width: object, height: object) -> Optional[tuple[int, int]]:
    """``(rows, cols)`` of a board ``width`` columns wide and ``height`` rows high (checked as
    :func:`check_size` does), or None when neither is given.

    >>> board_size(3, 2), board_size(None, None)
    ((2, 3), None)
    """
    if width is None and height is None:
        return None
    if width is None or height is None:
        raise TypeError("give both width and height (or neither, for the difficulty's sizes)")
    for name, value in (("width", width), ("height", height)):
        if not is_whole_number(value):
            raise TypeError(f"{name} must be a whole number of cells, not {type(value).__name__}")
    return check_size((int(height), int(width)))  # type: ignore[call-overload]


def _check_draw(difficulty: str, goal: str, size: Optional[tuple[int, int]]) -> None:
    if difficulty not in SIZES:
        raise ValueError(f"unknown difficulty {difficulty!r} (known: {', '.join(SIZES)})")
    if goal not in ("match", "cluster"):
        raise ValueError(f"the original generator makes 'match' and 'cluster' levels, not {goal!r}")
    if size is not None:
        check_size(size)


def draw_level(
    rng: random.Random,
    *,
    difficulty: str = "expert",
    goal: str = "match",
    size: Optional[tuple[int, int]] = None,
) -> Level:
    """One uncertified level drawn as the original generator did (it may be unsolvable)."""
    _check_draw(difficulty, goal, size)
    for _ in range(DRAW_TRIES):
        distribution = DISTRIBUTIONS[rng.randrange(len(DISTRIBUTIONS))]
        if size is None:
            lo, hi = SIZES[difficulty]
            rows, cols = _between(rng, lo, hi), _between(rng, lo, hi)
        else:
            rows, cols = size
        colours = rng.sample(PALETTE, colour_count(rng, rows * cols))
        cells = draw_board(rng, rows, cols, colours, distribution, diagonal=(goal == "match"))
        if cells is None:
            continue
        start = _grid(cells, cols)
        if goal == "match":
            start_colours = board_colours(start)
            for _ in range(SHUFFLE_TRIES):
                target = _grid(_shuffle_squares(rng, cells), cols)
                if board_colours(target) != start_colours:
                    return Level(start, Goal.match(board_colours(target)))
            continue
        level = Level(start, Goal.cluster())
        for _ in range(SHUFFLE_TRIES):
            if not is_goal(level, level.start):
                return level
            level = Level(_grid(_shuffle_squares(rng, cells), cols), Goal.cluster())
        # every arrangement tried was already clustered (tiny boards): draw again
    raise ValueError(f"no {goal} level of this size could be drawn in {DRAW_TRIES} attempts (every draw was already solved)")
