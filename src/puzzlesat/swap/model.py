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

Squares, boards and goals are defined in :mod:`.parts`, moves in :mod:`.notation`; this module
holds the level, the board functions that take a level too, and the goal tests.

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

from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

import numpy as np

from ..errors import InvalidPuzzle, require_iterable, require_type
from ..grid import Cell
from .notation import Move, MoveLike, parse_moves  # noqa: F401 (some imported from here too)
from .parts import COLOURS, FIGURE_DIRECTIONS, GOAL_WALL, MAX_CELLS, MAX_SCOPE, MAX_SIDE, WALL_TOKEN, Board, Goal, Square, board_from_rows  # noqa: F401 (some imported from here too)


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
