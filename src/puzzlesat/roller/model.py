"""Roller levels (Amaze!, Roller Splat!, Paint the Maze) as plain immutable data, and the rule.

Rule: a ball stands on a floor cell of a walled board (outside the board counts as wall) and
paints it; a move picks U, D, L or R and the ball slides until the next cell is a wall or the
edge, painting every cell it passes, the stop included. A move that cannot leave the current
cell is not a move. The goal is to paint every floor cell in the fewest moves. ``U`` is
row - 1, ``D`` row + 1, ``L`` column - 1, ``R`` column + 1; cells are ``(row, col)``.

:func:`slide` is the one implementation of the rule: :func:`puzzlesat.roller.verify.verify`
replays answers with it and the solvers build their stop graph from it.

>>> level = Level.from_rows(["#######",
...                          "#o....#",
...                          "#.###.#",
...                          "#.....#",
...                          "#######"])
>>> level.width, level.height, level.start, level.floor_count
(7, 5, (1, 1), 12)
>>> stop, painted = slide(level, level.start, "R")
>>> stop, painted
((1, 5), ((1, 2), (1, 3), (1, 4), (1, 5)))
>>> slide(level, level.start, "U")     # a wall above: not a move
((1, 1), ())
>>> print(level)
#######
#o....#
#.###.#
#.....#
#######
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from ..errors import InvalidPuzzle, quoted, require_iterable, require_type
from ..grid import Cell, as_cell

UP, DOWN, LEFT, RIGHT = "U", "D", "L", "R"
MOVES = "UDLR"  # every direction, in the order solvers try them
DELTAS: dict[str, Cell] = {UP: (-1, 0), DOWN: (1, 0), LEFT: (0, -1), RIGHT: (0, 1)}
OPPOSITE = {UP: DOWN, DOWN: UP, LEFT: RIGHT, RIGHT: LEFT}

WALL = "#"
FLOOR = "."
BALL = "o"  # the start cell in the native text format (a floor cell)

MAX_CELLS = 1_000_000  # a board with more cells is refused as absurd

START_RULES = ("bottom-left", "row-major")


def row_text(row: object) -> str:
    """One board row as a plain string: a string as it is, a sequence of one-character cells
    (a list, a row of a numpy array of characters) joined.

    >>> row_text("#o."), row_text(["#", "o", "."]), row_text(np.array(list("#.")))
    ('#o.', '#o.', '#.')
    """
    if isinstance(row, str):
        return str(row)  # a numpy str_ becomes a plain str
    if isinstance(row, (Sequence, np.ndarray)):
        return "".join(str(cell) for cell in row)
    return str(row)


@dataclass(frozen=True)
class Level:
    """A board of wall (``#``) and floor (``.``) cells and the ball's start cell.

    ``rows`` holds the board as strings over ``#`` and ``.`` (all of one length); the start is
    kept apart, so equal boards with equal starts compare equal whatever their name or metadata.
    Metadata (not part of equality): ``name``; ``par``, a move count a level set states as its
    optimum; ``known_answer``, a move string a level set ships as an answer; ``start_rule``,
    how the start was chosen when the file did not store it ("bottom-left", "row-major",
    "fixed (1, 1)" or None when the file stated it).
    """

    rows: tuple[str, ...]
    start: Cell
    name: str = field(default="", compare=False)
    par: int | None = field(default=None, compare=False)
    known_answer: str | None = field(default=None, compare=False)
    start_rule: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.rows, str):
            raise TypeError("rows must be a list of rows (e.g. text.splitlines()), not one string (roller.parse reads text)")
        require_iterable(self.rows, "rows", "a list of rows (strings over '#' and '.')")
        for row in self.rows:
            require_iterable(row, "each row", "a string over '#' and '.' or a list of cells", text=True)
        rows = tuple(row_text(row) for row in self.rows)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "start", as_cell(self.start, "start"))
        if not rows or not rows[0]:
            raise InvalidPuzzle("empty level: the board has no cells")
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise InvalidPuzzle("rows differ in length")
        if width * len(rows) > MAX_CELLS:
            raise InvalidPuzzle(f"board size {width}x{len(rows)} is absurd (more than {MAX_CELLS} cells)")
        for r, row in enumerate(rows):
            bad = row.strip(WALL + FLOOR)
            if bad:
                c = next(i for i, ch in enumerate(row) if ch not in (WALL, FLOOR))
                raise InvalidPuzzle(f"cell ({r}, {c}) holds {row[c]!r}; a board row holds only '#' and '.'")
        if not self.on_board(self.start):
            raise InvalidPuzzle(f"start {self.start} is off the {width}x{len(rows)} board")
        if not self.is_floor(self.start):
            raise InvalidPuzzle(f"start {self.start} is a wall cell")
        if self.par is not None and (not isinstance(self.par, int) or isinstance(self.par, bool) or self.par < 0):
            raise InvalidPuzzle(f"par must be a non-negative integer, not {self.par!r}")
        if self.known_answer is not None:
            answer = str(self.known_answer)
            if answer.strip(MOVES):
                raise InvalidPuzzle(f"known answer {quoted(answer)} holds a letter other than U, D, L, R")
            object.__setattr__(self, "known_answer", answer)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str | Sequence[str]], *, name: str = "", **metadata: object) -> "Level":
        """Build from rows over ``#`` wall, ``.`` floor and one ``o`` (the start, a floor cell):
        each row a string, or a sequence of one-character cells (a 2-D numpy array of
        characters reads as its rows), as Numberlink's and Swap's ``from_rows`` take them.

        Rows must have one length (the text parser in :mod:`.formats` pads and reports errors
        with line numbers; this is the plain constructor for code and tests).

        >>> Level.from_rows(np.array([list("o.#"), list("...")])).rows
        ('..#', '...')
        """
        if isinstance(rows, str):
            raise TypeError("rows must be a list of rows (e.g. text.splitlines()), not one string (roller.parse reads text)")
        rows = [row_text(row) for row in rows]
        starts = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == BALL]
        if len(starts) != 1:
            raise InvalidPuzzle(f"expected exactly one start 'o', found {len(starts)}")
        board = tuple(row.replace(BALL, FLOOR) for row in rows)
        return cls(board, starts[0], name=name, **metadata)  # type: ignore[arg-type]

    @classmethod
    def from_floor(cls, floor: np.ndarray | Sequence[Sequence[bool]], start: Cell, *, name: str = "", **metadata: object) -> "Level":
        """Build from an H x W boolean grid (True = floor) and a start cell."""
        grid = np.asarray(floor, dtype=bool)
        if grid.ndim != 2:
            raise InvalidPuzzle("the floor grid must be two-dimensional")
        rows = tuple("".join(FLOOR if x else WALL for x in row) for row in grid.tolist())
        return cls(rows, start, name=name, **metadata)  # type: ignore[arg-type]

    def with_start(self, start: Cell) -> "Level":
        """The same board and metadata with another start cell."""
        return Level(self.rows, start, name=self.name, par=None, known_answer=None, start_rule=None)

    # -- queries ------------------------------------------------------------------------------
    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)"""
        return (self.width, self.height)

    @cached_property
    def floor(self) -> np.ndarray:
        """The board as a read-only H x W numpy bool array, True on floor cells."""
        codes = np.frombuffer("".join(self.rows).encode("ascii"), dtype=np.uint8)
        grid = (codes == ord(FLOOR)).reshape(self.height, self.width)
        grid.setflags(write=False)
        return grid

    @cached_property
    def floor_cells(self) -> tuple[Cell, ...]:
        """Every floor cell in reading order (row by row)."""
        return tuple((r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == FLOOR)

    @property
    def floor_count(self) -> int:
        return len(self.floor_cells)

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def is_floor(self, cell: Cell) -> bool:
        """On the board and floor (outside the board counts as wall)."""
        r, c = cell
        return 0 <= r < len(self.rows) and 0 <= c < len(self.rows[0]) and self.rows[r][c] == FLOOR

    def cropped(self) -> "Level":
        """The same level with all-wall outer rows and columns removed (the edge is a wall anyway)."""
        rs = [r for r, row in enumerate(self.rows) if FLOOR in row]
        cs = [c for c in range(self.width) if any(row[c] == FLOOR for row in self.rows)]
        r0, c0 = rs[0], cs[0]
        rows = tuple(row[c0 : cs[-1] + 1] for row in self.rows[r0 : rs[-1] + 1])
        return Level(rows, (self.start[0] - r0, self.start[1] - c0), name=self.name, par=self.par,
                     known_answer=self.known_answer, start_rule=self.start_rule)

    def to_rows(self) -> list[str]:
        """The board rows with the start drawn as ``o`` (the native text format's grid)."""
        rows = list(self.rows)
        r, c = self.start
        rows[r] = rows[r][:c] + BALL + rows[r][c + 1 :]
        return rows

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    def __repr__(self) -> str:
        """Short: the size, start and what the file states (``str(level)`` shows the board).

        >>> Level.from_rows(["o..", "##."], name="tiny", par=2)
        <roller.Level 3x2, start (0, 0), 4 floor cells, name 'tiny', par 2>
        """
        facts = [f"{self.width}x{self.height}", f"start {self.start}", f"{self.floor_count} floor cells"]
        if self.name:
            facts.append(f"name {self.name!r}" if len(self.name) <= 40 else f"name {self.name[:40]!r}...")
        if self.par is not None:
            facts.append(f"par {self.par}")
        if self.known_answer is not None:
            facts.append(f"answer of {len(self.known_answer)} moves")
        return f"<roller.Level {', '.join(facts)}>"

    def without_stated(self) -> "Level":
        """The same level and name without what its file states (par, shipped answer), e.g. to
        write it in a format that cannot hold them.

        >>> Level.from_rows(["o.."], name="a", par=1).without_stated().par is None
        True
        """
        return Level(self.rows, self.start, name=self.name, start_rule=self.start_rule)


# -- the rule -----------------------------------------------------------------------------------
def slide(level: Level, cell: Cell, direction: str) -> tuple[Cell, tuple[Cell, ...]]:
    """Roll the ball from ``cell`` in ``direction`` (one of ``UDLR``).

    Returns the stop cell and the cells painted on the way, in order, the stop included and
    the cell left excluded. When the next cell is a wall or the edge the move is not a move:
    the result is ``(cell, ())``.

    >>> level = Level.from_rows(["o..#."])
    >>> slide(level, (0, 0), "R")
    ((0, 2), ((0, 1), (0, 2)))
    >>> slide(level, (0, 2), "R")
    ((0, 2), ())
    >>> slide(level, (0, 3), "R")
    Traceback (most recent call last):
    ...
    ValueError: cell (0, 3) is not a floor cell of the 5x1 level
    """
    require_type(level, Level, "level", "parse text with roller.parse")
    try:
        dr, dc = DELTAS[direction]
    except KeyError:
        raise ValueError(f"direction must be one of U, D, L, R, not {direction!r}") from None
    rows = level.rows
    height, width = len(rows), len(rows[0])
    r, c = cell
    if not (0 <= r < height and 0 <= c < width) or rows[r][c] != FLOOR:  # (the ball is only ever on the floor)
        raise ValueError(f"cell {cell!r} is not a floor cell of the {level.width}x{level.height} level")
    painted: list[Cell] = []
    while True:
        nr, nc = r + dr, c + dc
        if not (0 <= nr < height and 0 <= nc < width) or rows[nr][nc] != FLOOR:
            break
        r, c = nr, nc
        painted.append((r, c))
    return (r, c), tuple(painted)


def stop_of(level: Level, cell: Cell, direction: str) -> Cell:
    """Where the ball stops when rolled from ``cell`` in ``direction`` (``cell`` if it cannot move)."""
    return slide(level, cell, direction)[0]


def legal_moves(level: Level, cell: Cell) -> list[str]:
    """The directions in which the ball can leave the floor cell ``cell``, in ``MOVES`` order:
    a direction is listed when the next cell that way is floor (ValueError for a wall cell or
    one off the board: the ball never stands there).

    >>> level = Level.from_rows(["#####", "#o..#", "##..#", "#####"])
    >>> legal_moves(level, level.start), legal_moves(level, (1, 3))
    (['R'], ['D', 'L'])
    """
    require_type(level, Level, "level", "parse text with roller.parse")
    if not level.is_floor(cell):
        raise ValueError(f"the ball cannot stand on {tuple(cell)}: not a floor cell of this {level.width}x{level.height} level")
    return [direction for direction in MOVES if level.is_floor((cell[0] + DELTAS[direction][0], cell[1] + DELTAS[direction][1]))]


def replay(level: Level, moves: Iterable[str]) -> tuple[list[Cell], set[Cell]]:
    """The ball's stops (start first) and the painted cells after playing ``moves``.

    Moves that cannot leave the current cell change nothing (``verify`` names them).

    >>> level = Level.from_rows(["o.", ".."])
    >>> stops, painted = replay(level, "RD")
    >>> stops, len(painted)
    ([(0, 0), (0, 1), (1, 1)], 3)
    """
    require_type(level, Level, "level", "parse text with roller.parse")
    position = level.start
    stops = [position]
    painted = {position}
    for direction in moves:
        position, cells = slide(level, position, direction)
        painted.update(cells)
        stops.append(position)
    return stops, painted


def start_cell(floor_rows: Sequence[str], rule: str) -> Cell | None:
    """The start a level set without a stored start implies, or None when there is no floor.

    ``bottom-left``: the leftmost column holding floor, the bottom-most floor cell in it (the
    TabTale competition's "first free leftmost place" as its final answers read it).
    ``row-major``: the first floor cell in reading order.

    >>> start_cell(["#..", ".#.", "..."], "bottom-left"), start_cell(["#..", ".#.", "..."], "row-major")
    ((2, 0), (0, 1))
    """
    if rule == "row-major":
        for r, row in enumerate(floor_rows):
            c = row.find(FLOOR)
            if c >= 0:
                return (r, c)
        return None
    if rule == "bottom-left":
        width = max((len(row) for row in floor_rows), default=0)
        for c in range(width):
            for r in range(len(floor_rows) - 1, -1, -1):
                if c < len(floor_rows[r]) and floor_rows[r][c] == FLOOR:
                    return (r, c)
        return None
    raise ValueError(f"start rule must be one of {', '.join(START_RULES)}, not {rule!r}")
