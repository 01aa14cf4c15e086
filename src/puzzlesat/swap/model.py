"""Swap levels as plain immutable data: squares, boards, goals, levels and moves.

Rules: a board of R x C cells, each a wall or a square; a square carries a figure (tower ``T``
moves orthogonally, bishop ``B`` diagonally, queen ``Q`` both), a scope k >= 1 (the largest
distance it may move) and a colour (one letter). A move swaps the contents of two cells u and v
when the square at one of them can reach the other: v = u + d * direction for a direction of its
figure and 1 <= d <= k, with no wall at v or strictly between (other squares do not block).
Goal *match*: every square's colour equals the goal colour matrix. Goal *cluster*: every colour
forms exactly one orthogonally connected group. Goal *touch*: every square has an orthogonal
neighbour of its own colour. The objective is the fewest moves.

A board is a tuple of rows, each a tuple of :class:`Square` or ``None`` (a wall): hashable, so
it serves directly as a search state.

>>> level = Level.from_rows(["T1R B1G", "T1G T1R"], goal=["R G", "R G"])
>>> level.rows, level.cols, level.goal.kind
(2, 2, 'match')
>>> print(level)
start
T1R B1G
T1G T1R
goal
R G
R G
>>> level.square((0, 1))
Square(figure='B', scope=1, colour='G')
>>> str(Move.parse("1,0>1,1"))
'1,0>1,1'
>>> is_goal(level, level.start), is_goal(level, apply_swap(level.start, (1, 0), (1, 1)))
(False, True)
"""

from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional, Sequence, Union

import numpy as np

from ..errors import InvalidPuzzle, require_iterable, require_type
from ..grid import Cell, is_whole_number
from ..results import solve_result_hint

FIGURE_DIRECTIONS: dict[str, tuple[Cell, ...]] = {
    "T": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "B": ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    "Q": ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)),
}
FIGURE_NAMES = {"T": "tower", "B": "bishop", "Q": "queen"}
FIGURES = tuple(FIGURE_DIRECTIONS)
COLOURS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SCOPE = 9  # the longest reach a square's figure may have (one digit in the notation)
WALL_TOKEN = "###"
GOAL_WALL = "#"
GOAL_KINDS = ("match", "cluster", "touch")
MAX_CELLS = 10_000  # 100 x 100: beyond this a swap board is refused as absurd
MAX_SIDE = 1_000  # rows or columns beyond this are refused as absurd too


@dataclass(frozen=True)
class Square:
    """One movable square: figure ``T``/``B``/``Q``, scope 1..9, colour ``A``-``Z``.

    >>> Square.parse("Q3Y"), str(Square("T", 1, "R"))
    (Square(figure='Q', scope=3, colour='Y'), 'T1R')
    """

    figure: str
    scope: int
    colour: str

    def __post_init__(self) -> None:
        if self.figure not in FIGURE_DIRECTIONS:
            raise InvalidPuzzle(f"unknown figure {self.figure!r} (expected T, B or Q)")
        if not is_whole_number(self.scope) or not 1 <= self.scope <= MAX_SCOPE:  # (a bool is not one: scope True was written TTrueR)
            raise InvalidPuzzle(f"scope {self.scope!r} must be an integer 1-{MAX_SCOPE}")
        object.__setattr__(self, "scope", int(self.scope))
        if len(self.colour) != 1 or self.colour not in COLOURS:
            raise InvalidPuzzle(f"colour {self.colour!r} must be one letter A-Z")

    @classmethod
    def parse(cls, token: str) -> "Square":
        if len(token) != 3 or not token[1].isdigit():
            raise InvalidPuzzle(f"square token {token!r} is not <figure><scope><colour> such as T1R")
        return cls(token[0], int(token[1]), token[2])

    @property
    def directions(self) -> tuple[Cell, ...]:
        return FIGURE_DIRECTIONS[self.figure]

    def __str__(self) -> str:
        return f"{self.figure}{self.scope}{self.colour}"


Board = tuple[tuple[Optional[Square], ...], ...]
"""Rows of cells, each a :class:`Square` or ``None`` for a wall. Hashable: a search state."""


def board_from_rows(rows: Sequence[str | Sequence[str]]) -> Board:
    """A board from rows of tokens (``T1R``, ``###``); a row may be one space-separated string.

    Each token becomes a :class:`Square` and ``###`` becomes ``None`` (a wall).

    >>> board = board_from_rows(["T1R ###", ["B2G", "Q1R"]])
    >>> board[0]
    (Square(figure='T', scope=1, colour='R'), None)
    >>> board[1][0].figure, board[1][0].scope
    ('B', 2)
    """
    require_iterable(rows, "rows", "a list of rows (strings of tokens or lists of tokens)")
    for row in rows:
        require_iterable(row, "each row", "a string of tokens or a list of tokens", text=True)
    grid = [row.split() if isinstance(row, str) else list(row) for row in rows]
    return tuple(tuple(None if token == WALL_TOKEN else Square.parse(token) for token in row) for row in grid)


def as_board(board: "Board | Level") -> Board:
    """A board as it stands, or a level's start board: every board function of this family
    takes either.

    >>> as_board(Level.from_rows(["T1R T1G"], goal=["G R"])) == board_from_rows(["T1R T1G"])
    True
    >>> as_board("T1R T1G")
    Traceback (most recent call last):
    ...
    TypeError: board must be a Level or rows of Square or None (a wall), not str (board_from_rows reads rows of tokens such as 'T1R ###')
    """
    if isinstance(board, Level):
        return board.start
    if isinstance(board, (str, bytes)) or not isinstance(board, (Sequence, np.ndarray)):
        what, wrong = type(board).__name__, board
    else:
        bad_rows = [row for row in board if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray))]
        bad_cells = [] if bad_rows else [sq for row in board for sq in row if sq is not None and not isinstance(sq, Square)]
        if not bad_rows and not bad_cells:
            if not len(board) or not len(board[0]):
                raise ValueError("the board is empty")
            return board
        wrong = bad_rows[0] if bad_rows else bad_cells[0]
        what = f"a {'row' if bad_rows else 'cell'} {wrong!r}"
    hint = " (board_from_rows reads rows of tokens such as 'T1R ###')" if isinstance(wrong, str) else ""
    raise TypeError(f"board must be a Level or rows of Square or None (a wall), not {what}{hint}")


def board_rows(board: "Board | Level") -> list[list[str]]:
    """The board as rows of tokens (``T1R`` or ``###``), the inverse of :func:`board_from_rows`.

    >>> board_rows(board_from_rows(["T1R ###", "B2G Q1R"]))
    [['T1R', '###'], ['B2G', 'Q1R']]
    """
    board = as_board(board)
    return [[WALL_TOKEN if sq is None else str(sq) for sq in row] for row in board]


def board_colours(board: "Board | Level") -> tuple[tuple[Optional[str], ...], ...]:
    """The colour layout: each square's colour, ``None`` at walls.

    A *match* goal holds exactly when this equals the goal's colour matrix.

    >>> board_colours(board_from_rows(["T1R ###", "B2G Q1R"]))
    (('R', None), ('G', 'R'))
    """
    board = as_board(board)
    return tuple(tuple(None if sq is None else sq.colour for sq in row) for row in board)


def apply_swap(board: "Board | Level", u: Cell, v: Cell) -> Board:
    """The board with the contents of cells u and v exchanged (no legality check).

    The board itself is unchanged (boards are immutable); a cell off the board is a ValueError.
    :func:`puzzlesat.swap.moves.apply_move` is the checked version.

    >>> board = board_from_rows(["T1R B1G"])
    >>> board_rows(apply_swap(board, (0, 0), (0, 1)))
    [['B1G', 'T1R']]
    >>> board_rows(board)
    [['T1R', 'B1G']]
    """
    board = as_board(board)
    for cell in (u, v):
        if not (0 <= cell[0] < len(board) and 0 <= cell[1] < len(board[0])):
            raise ValueError(f"cell {cell} is off the {len(board)}x{len(board[0])} board")
    rows = [list(row) for row in board]
    rows[u[0]][u[1]], rows[v[0]][v[1]] = rows[v[0]][v[1]], rows[u[0]][u[1]]
    return tuple(tuple(row) for row in rows)


MOVE_PATTERN = re.compile(r"^\s*([0-9]+)\s*,\s*([0-9]+)\s*>\s*([0-9]+)\s*,\s*([0-9]+)\s*$")


@dataclass(frozen=True, order=True)
class Move:
    """A swap written ``r1,c1>r2,c2`` (0-based): the moving square's cell, then the target.

    The effect is symmetric (the two contents exchange), and a swap is legal when *either*
    square can reach the other's cell, so both ``a>b`` and ``b>a`` are accepted for a legal swap.
    Moves produced by this library (``legal_moves``, solvers) name a square that can actually
    reach the other first (the earlier cell in row-major order when both can).

    >>> m = Move.parse("0,1>2,3")
    >>> m.source, m.target, m.cells == Move((2, 3), (0, 1)).cells
    ((0, 1), (2, 3), True)
    """

    source: Cell
    target: Cell

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``r1,c1>r2,c2``; raises ValueError on any other text, TypeError on a non-string."""
        if not isinstance(text, str):
            raise TypeError(f"a move must be a Move or a string r1,c1>r2,c2, not {type(text).__name__} {reprlib.repr(text)}"
                            " (Move(source, target) builds one from two (row, column) cells)")
        match = MOVE_PATTERN.match(text)
        if not match:
            raise ValueError(f"move {text!r} is not written r1,c1>r2,c2")
        r1, c1, r2, c2 = (int(x) for x in match.groups())
        return cls((r1, c1), (r2, c2))

    @property
    def cells(self) -> frozenset[Cell]:
        """The unordered pair of cells swapped."""
        return frozenset((self.source, self.target))

    def reversed(self) -> "Move":
        return Move(self.target, self.source)

    def __str__(self) -> str:
        return f"{self.source[0]},{self.source[1]}>{self.target[0]},{self.target[1]}"


MoveLike = Union[Move, str]


def parse_moves(moves: str | Iterable[MoveLike]) -> tuple[Move, ...]:
    """Moves from a space-separated string or a sequence of Move / ``r1,c1>r2,c2`` strings.

    >>> [str(m) for m in parse_moves("0,0>0,1  1,1>0,0")]
    ['0,0>0,1', '1,1>0,0']
    >>> parse_moves([((0, 0), (0, 1))])
    Traceback (most recent call last):
    ...
    TypeError: a move must be a Move or a string r1,c1>r2,c2, not tuple ((0, 0), (0, 1)) (Move(source, target) builds one from two (row, column) cells)
    """
    if isinstance(moves, bytes) or not isinstance(moves, (str, Iterable)):
        raise TypeError(f"moves must be a string of moves or a sequence of moves, not {type(moves).__name__}{solve_result_hint(moves)}")
    items = moves.split() if isinstance(moves, str) else list(moves)
    return tuple(m if isinstance(m, Move) else Move.parse(m) for m in items)


@dataclass(frozen=True)
class Goal:
    """What must hold at the end: ``match`` a colour matrix (``None`` at walls), ``cluster`` or
    ``touch``.

    >>> Goal.cluster().kind, Goal.match(["R #", "G B"]).colours
    ('cluster', (('R', None), ('G', 'B')))
    """

    kind: str
    colours: Optional[tuple[tuple[Optional[str], ...], ...]] = None

    def __post_init__(self) -> None:
        if self.kind not in GOAL_KINDS:
            raise InvalidPuzzle(f"unknown goal {self.kind!r} (expected one of {', '.join(GOAL_KINDS)})")
        if (self.kind == "match") != (self.colours is not None):
            raise InvalidPuzzle("a match goal needs a colour matrix; cluster and touch goals take none")
        if self.colours is not None:
            object.__setattr__(self, "colours", tuple(tuple(row) for row in self.colours))

    @classmethod
    def match(cls, rows: Sequence[str | Sequence[Optional[str]]]) -> "Goal":
        """A match goal from rows of colour letters, ``#`` (or None) at walls."""
        grid = [row.split() if isinstance(row, str) else list(row) for row in rows]
        return cls("match", tuple(tuple(None if t in (None, GOAL_WALL) else t for t in row) for row in grid))

    @classmethod
    def cluster(cls) -> "Goal":
        return cls("cluster")

    @classmethod
    def touch(cls) -> "Goal":
        return cls("touch")


@dataclass(frozen=True)
class Level:
    """A start board and a goal. ``stated_minimum`` / ``stated_solution`` / ``comments`` are what
    a file says about itself (kept for comparison and for writing the file back; they take no
    part in equality).
    """

    start: Board
    goal: Goal
    name: str = field(default="", compare=False)
    stated_minimum: Optional[int] = field(default=None, compare=False)
    stated_solution: Optional[tuple[Move, ...]] = field(default=None, compare=False)
    comments: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        require_iterable(self.start, "start", "a board: rows of Squares (None for a wall); Level.from_rows reads tokens")
        for row in self.start:
            require_iterable(row, "each start row", "a row of Squares (None for a wall)")
        start = tuple(tuple(row) for row in self.start)
        object.__setattr__(self, "start", start)
        if not start or not start[0]:
            raise InvalidPuzzle("the board is empty")
        width = len(start[0])
        if any(len(row) != width for row in start):
            raise InvalidPuzzle("the start rows differ in length")
        if len(start) > MAX_SIDE or width > MAX_SIDE or len(start) * width > MAX_CELLS:
            raise InvalidPuzzle(f"board size {len(start)}x{width} is absurd (more than {MAX_SIDE} rows or columns, "
                                f"or more than {MAX_CELLS} cells)")
        for row in start:
            for sq in row:
                if sq is not None and not isinstance(sq, Square):
                    raise InvalidPuzzle(f"cell content {sq!r} is neither a Square nor None (wall)")
        if self.stated_minimum is not None and (isinstance(self.stated_minimum, bool) or not isinstance(self.stated_minimum, int)):
            raise TypeError(f"stated_minimum must be a whole number or None, not {type(self.stated_minimum).__name__}")
        if self.stated_minimum is not None and self.stated_minimum < 0:
            raise InvalidPuzzle("a stated minimum cannot be negative")
        if self.stated_solution is not None:
            object.__setattr__(self, "stated_solution", parse_moves(self.stated_solution))
        object.__setattr__(self, "comments", tuple(self.comments))
        if self.goal.kind == "match":
            target = self.goal.colours
            assert target is not None
            if len(target) != len(start) or any(len(row) != width for row in target):
                raise InvalidPuzzle(f"the goal grid is not {len(start)}x{width} like the start")
            for r, (row, goal_row) in enumerate(zip(start, target)):
                for c, (sq, colour) in enumerate(zip(row, goal_row)):
                    if (sq is None) != (colour is None):
                        raise InvalidPuzzle(f"cell {r},{c}: the goal's walls differ from the start's")
                    if colour is not None and (len(colour) != 1 or colour not in COLOURS):
                        raise InvalidPuzzle(f"cell {r},{c}: goal colour {colour!r} must be one letter A-Z")
            have = sorted(sq.colour for row in start for sq in row if sq is not None)
            want = sorted(c for row in target for c in row if c is not None)
            if have != want:
                raise InvalidPuzzle(f"the goal's colour counts {_counts(want)} differ from the start's {_counts(have)}")

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_rows(
        cls,
        rows: Sequence[str | Sequence[str]],
        *,
        goal: "str | Goal | Sequence[str | Sequence[Optional[str]]]" = "cluster",
        name: str = "",
    ) -> "Level":
        """Build from start rows of tokens and a goal: ``"cluster"``, ``"touch"``, colour rows,
        or a :class:`Goal`.

        >>> Level.from_rows(["T1R T1G"], goal=Goal.touch()).goal.kind
        'touch'
        """
        if isinstance(goal, Goal):
            target = goal
        elif isinstance(goal, str):
            if goal not in ("cluster", "touch"):
                raise InvalidPuzzle(f"goal {goal!r}: give 'cluster', 'touch' or the goal colour rows")
            target = Goal(goal)
        elif isinstance(goal, (Sequence, np.ndarray)):
            target = Goal.match(goal)
        else:
            raise TypeError(f"goal must be 'cluster', 'touch', the goal colour rows or a Goal, not {type(goal).__name__}")
        return cls(board_from_rows(rows), target, name=name)

    # -- queries ------------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        return len(self.start)

    @property
    def cols(self) -> int:
        return len(self.start[0])

    @property
    def walls(self) -> frozenset[Cell]:
        return frozenset(cell for cell in self.cells() if self.start[cell[0]][cell[1]] is None)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours present, sorted."""
        return tuple(sorted({sq.colour for row in self.start for sq in row if sq is not None}))

    def cells(self) -> Iterator[Cell]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def square_cells(self) -> list[Cell]:
        """Cells holding squares (not walls), row-major."""
        return [cell for cell in self.cells() if self.start[cell[0]][cell[1]] is not None]

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def is_wall(self, cell: Cell) -> bool:
        return self.start[cell[0]][cell[1]] is None

    def square(self, cell: Cell) -> Optional[Square]:
        """The square at ``cell`` in the start board (None for a wall)."""
        return self.start[cell[0]][cell[1]]

    def grid(self) -> np.ndarray:
        """The start board as a rows x cols numpy array of tokens (``T1R``, ``###``).

        >>> Level.from_rows(["T1R ###"], goal="touch").grid().tolist()
        [['T1R', '###']]
        """
        return np.array(board_rows(self.start), dtype=object).reshape(self.rows, self.cols)

    def with_start(self, board: Board) -> "Level":
        """The same goal from another start board (walls must stay where they are)."""
        return Level(board, self.goal, name=self.name, comments=self.comments)

    def __str__(self) -> str:
        return level_text(self, metadata=False).rstrip("\n")

    def __repr__(self) -> str:
        """Short: the name, the size (columns x rows), the goal and what the file states.

        >>> Level.from_rows(["T1R ###", "T1G T1R"], goal="cluster", name="tiny")
        <swap Level 'tiny' 2x2, goal cluster, 3 squares>
        """
        name = f" {self.name!r}" if self.name else ""
        stated = "" if self.stated_minimum is None else f", stated minimum {self.stated_minimum}"
        squares = sum(square is not None for row in self.start for square in row)
        return f"<swap Level{name} {self.cols}x{self.rows}, goal {self.goal.kind}, {squares} squares{stated}>"

def _counts(colours: Sequence[str]) -> str:
    tally: dict[str, int] = {}
    for c in colours:
        tally[c] = tally.get(c, 0) + 1
    return " ".join(f"{c}:{n}" for c, n in sorted(tally.items())) or "(none)"


# -- goal tests -------------------------------------------------------------------------------
def mismatches(level: Level, board: Board) -> int:
    """For a match goal, the number of squares whose colour differs from the goal colour.

    Zero exactly when the goal holds; a cluster or touch goal is a ValueError.

    >>> level = Level.from_rows(["T1R T1G", "T1G T1R"], goal=["R G", "R G"])
    >>> mismatches(level, level.start), mismatches(level, apply_swap(level.start, (1, 0), (1, 1)))
    (2, 0)
    """
    require_type(level, Level, "level")
    board = as_board(board)
    target = level.goal.colours
    if target is None:
        raise ValueError("mismatches() needs a match goal")
    return sum(
        1
        for row, goal_row in zip(board, target)
        for sq, colour in zip(row, goal_row)
        if sq is not None and sq.colour != colour
    )


def colour_groups(board: "Board | Level") -> dict[str, list[list[Cell]]]:
    """Each colour's orthogonally connected groups of cells (walls separate).

    >>> groups = colour_groups(board_from_rows(["T1R T1G T1R", "### T1G T1G"]))
    >>> {colour: len(g) for colour, g in groups.items()}
    {'R': 2, 'G': 1}
    """
    board = as_board(board)
    rows, cols = len(board), len(board[0])
    seen = [[False] * cols for _ in range(rows)]
    groups: dict[str, list[list[Cell]]] = {}
    for r in range(rows):
        for c in range(cols):
            sq = board[r][c]
            if sq is None or seen[r][c]:
                continue
            colour = sq.colour
            group = []
            stack = [(r, c)]
            seen[r][c] = True
            while stack:
                cr, cc = stack.pop()
                group.append((cr, cc))
                for nr, nc in ((cr - 1, cc), (cr + 1, cc), (cr, cc - 1), (cr, cc + 1)):
                    if 0 <= nr < rows and 0 <= nc < cols and not seen[nr][nc]:
                        other = board[nr][nc]
                        if other is not None and other.colour == colour:
                            seen[nr][nc] = True
                            stack.append((nr, nc))
            groups.setdefault(colour, []).append(sorted(group))
    return groups


def lonely_squares(board: "Board | Level") -> list[Cell]:
    """Squares with no orthogonal neighbour of their own colour (what a touch goal forbids).

    Walls separate, and diagonal neighbours do not count; cells come in row-major order.

    >>> lonely_squares(board_from_rows(["T1R T1R T1G", "T1G ### T1R"]))
    [(0, 2), (1, 0), (1, 2)]
    """
    board = as_board(board)
    rows, cols = len(board), len(board[0])
    lonely = []
    for r in range(rows):
        for c in range(cols):
            sq = board[r][c]
            if sq is None:
                continue
            if not any(
                0 <= nr < rows and 0 <= nc < cols and board[nr][nc] is not None and board[nr][nc].colour == sq.colour  # type: ignore[union-attr]
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            ):
                lonely.append((r, c))
    return lonely


def is_goal(level: Level, board: Board) -> bool:
    """Whether ``board`` satisfies the level's goal (match, cluster or touch).

    >>> level = Level.from_rows(["T1R T1G T1R"], goal="cluster")
    >>> is_goal(level, level.start), is_goal(level, apply_swap(level.start, (0, 0), (0, 1)))
    (False, True)
    """
    require_type(level, Level, "level")
    kind = level.goal.kind
    if kind == "match":
        return board_colours(board) == level.goal.colours
    if kind == "cluster":
        return all(len(groups) == 1 for groups in colour_groups(board).values())
    return not lonely_squares(board)


def level_text(level: "Level", *, metadata: bool = True) -> str:
    """The level in the native format (comments, start, goal, then minimum / solution lines)."""
    lines = []
    if metadata:
        lines += [f"# {comment}".rstrip() for comment in level.comments]
    rows = board_rows(level.start)
    lines.append("start")
    lines += [" ".join(row) for row in rows]
    if level.goal.kind == "match":
        assert level.goal.colours is not None
        lines.append("goal")
        lines += [" ".join(GOAL_WALL if c is None else c for c in row) for row in level.goal.colours]
    else:
        lines.append(f"goal {level.goal.kind}")
    if metadata:
        if level.stated_minimum is not None:
            lines.append(f"minimum {level.stated_minimum}")
        if level.stated_solution is not None:
            lines.append(" ".join(["solution", *map(str, level.stated_solution)]))
    return "\n".join(lines) + "\n"
