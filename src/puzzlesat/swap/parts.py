"""The parts of a Swap level: the figures and their directions, squares (``T1R``: figure, scope,
colour), boards of squares and walls, and goals (match, cluster, touch).

>>> board = board_from_rows(["T1R ###", "B2G Q1R"])
>>> board[1][0], Goal.cluster().kind
(Square(figure='B', scope=2, colour='G'), 'cluster')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..errors import InvalidPuzzle, require_iterable
from ..grid import Cell, is_whole_number


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
