"""Numberlink puzzles, answers and rule options as plain immutable data.

Rules: connect the two cells of every label by an orthogonal path; paths never share a cell and
never enter blocked cells. Options (:class:`Rules`): every free cell covered (default) or cells
may stay empty; paths may run beside themselves (default) or not.

The rule options and the pairs are defined in :mod:`.parts`, the reading of a path from its
cells in :mod:`.paths`; this module holds the puzzle and the answer.

>>> p = Puzzle.from_rows(["A.B", "...", "A.B"])
>>> p.width, p.height, p.labels
(3, 3, ('A', 'B'))
>>> print(p)
A . B
. . .
A . B
>>> s = Solution.from_rows(p, ["A.B", "A.B", "A.B"])
>>> s.path("A")
((0, 0), (1, 0), (2, 0))
"""

from __future__ import annotations

import operator
from itertools import chain
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Iterator, Mapping, Sequence

import numpy as np

from ..errors import InvalidPuzzle, require_iterable, require_mapping
from ..grid import Cell, as_cell, is_whole_number, orthogonal_neighbours
from .parts import DEFAULT_RULES, EndpointPair, Pair, Rules, StatedRules  # noqa: F401 (some imported from here too)
from .paths import NotAPath, TraceCapped, trace  # noqa: F401 (some imported from here too)


EMPTY = "."
BLOCKED = "#"

MAX_CELLS = 4_000_000  # 2000 x 2000: beyond this a board is refused as absurd
ONE_LAYER_HINT = "parse text with numberlink.parse; a puzzle of several layers has its own verbs in numberlink.multilayer"


@dataclass(frozen=True)
class Puzzle:
    """A W x H board with labelled endpoint pairs and blocked cells (``Cell = (row, col)``)."""

    width: int
    height: int
    pairs: tuple[Pair, ...]
    blocked: frozenset[Cell] = frozenset()
    name: str = field(default="", compare=False)
    stated_rules: StatedRules | None = field(default=None, compare=False)  # what its source asks for

    def __post_init__(self) -> None:
        if not (is_whole_number(self.width) and is_whole_number(self.height)):
            raise TypeError(f"width and height must be whole numbers, not {self.width!r} and {self.height!r}")
        object.__setattr__(self, "width", int(self.width))
        object.__setattr__(self, "height", int(self.height))
        require_iterable(self.pairs, "pairs", "a sequence of Pair objects, e.g. (Pair('A', (0, 0), (0, 2)),)")
        require_iterable(self.blocked, "blocked", "a set of (row, column) cells")
        object.__setattr__(self, "pairs", tuple(self.pairs))  # (a generator is read once, here)
        if not all(isinstance(pair, Pair) for pair in self.pairs):
            raise TypeError("pairs must be Pair objects, e.g. Pair('A', (0, 0), (0, 2))")
        if self.width < 1 or self.height < 1:
            raise InvalidPuzzle(f"board size {self.width}x{self.height} must be at least 1x1")
        if self.width * self.height > MAX_CELLS:
            raise InvalidPuzzle(f"board size {self.width}x{self.height} is absurd (more than {MAX_CELLS} cells)")
        # Canonical form, so equal boards compare equal whatever order they were built in:
        # each pair's ends in reading order, pairs sorted by their first end.
        canonical = [Pair(p.label, *sorted((tuple(p.start), tuple(p.end)))) for p in self.pairs]
        object.__setattr__(self, "pairs", tuple(sorted(canonical, key=lambda p: (p.start, p.end))))
        object.__setattr__(self, "blocked", frozenset(as_cell(cell, "a blocked cell") for cell in self.blocked))
        check_pairs(self, f"{self.width}x{self.height}")

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str | Sequence[str]], *, name: str = "") -> "Puzzle":
        """Build from rows of cells: a string (one character per cell) or a list of tokens;
        ``.`` empty, ``#`` blocked, anything else a label that must occur exactly twice."""
        if isinstance(rows, str):
            raise TypeError("rows must be a list of rows (e.g. text.splitlines()), not one string")
        require_iterable(rows, "rows", "a list of rows (strings or lists of tokens)")
        for row in rows:
            require_iterable(row, "each row", "a string or a list of tokens", text=True)
        grid = [list(row) for row in rows]
        height = len(grid)
        width = len(grid[0]) if grid else 0
        if any(len(row) != width for row in grid):
            raise InvalidPuzzle("rows differ in length")
        ends: dict[str, list[Cell]] = {}
        blocked = set()
        for r, row in enumerate(grid):
            for c, token in enumerate(row):
                if token == BLOCKED:
                    blocked.add((r, c))
                elif token != EMPTY:
                    ends.setdefault(token, []).append((r, c))
        for label, cells in ends.items():
            if len(cells) != 2:
                raise InvalidPuzzle(f"label {label!r} occurs {len(cells)} times (expected 2)")
        pairs = tuple(Pair(label, cells[0], cells[1]) for label, cells in ends.items())
        return cls(width, height, pairs, frozenset(blocked), name=name)

    # -- queries ------------------------------------------------------------------------------
    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(pair.label for pair in self.pairs)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)"""
        return (self.width, self.height)

    def pair(self, label: str) -> Pair:
        """The pair of ``label`` (KeyError when the puzzle has none)."""
        return self._pair_of[label]

    @cached_property
    def board(self):
        """The board as flat numpy arrays (:class:`~puzzlesat.numberlink.board.Board`: cells,
        edges, endpoint codes), built on first use and kept: the encoding, the topology checks,
        decoding and checking answers all read it."""
        from .board import build

        return build(self.height, self.width, self.blocked, self.pairs)

    @cached_property
    def _pair_of(self) -> dict[str, Pair]:
        # Built once per puzzle: a scan per lookup made encoding and checking quadratic in the
        # pairs (seconds on boards of thousands of pairs).
        return {pair.label: pair for pair in self.pairs}

    def endpoints(self) -> dict[Cell, str]:
        """Every endpoint cell mapped to its label."""
        return {cell: pair.label for pair in self.pairs for cell in (pair.start, pair.end)}

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def is_free(self, cell: Cell) -> bool:
        """On the board and not blocked (endpoints are free cells)."""
        return self.on_board(cell) and cell not in self.blocked

    def free_cells(self) -> Iterator[Cell]:
        for r in range(self.height):
            for c in range(self.width):
                if (r, c) not in self.blocked:
                    yield (r, c)

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Free orthogonal neighbours of ``cell``."""
        for n in orthogonal_neighbours(cell, height=self.height, width=self.width):
            if n not in self.blocked:
                yield n

    def free_mask(self) -> np.ndarray:
        """An H x W boolean array, True on the free cells."""
        free = np.ones((self.height, self.width), dtype=bool)
        for cell in self.blocked:
            free[cell] = False
        return free

    def grid(self) -> np.ndarray:
        """The board as an H x W numpy array of strings: label, ``.`` or ``#``."""
        g = np.full((self.height, self.width), EMPTY, dtype=object)
        for (r, c) in self.blocked:
            g[r, c] = BLOCKED
        for cell, label in self.endpoints().items():
            g[cell] = label
        return g

    def __str__(self) -> str:
        return "\n".join(" ".join(row) for row in self.grid().tolist())

    def __repr__(self) -> str:
        """``<numberlink.Puzzle 5x5, 3 pairs>`` (``str`` draws the board, ``pairs`` lists them)."""
        blocked = f", {len(self.blocked)} blocked" if self.blocked else ""
        name = f" {self.name!r}" if self.name else ""
        return f"<numberlink.Puzzle{name} {self.width}x{self.height}, {len(self.pairs)} pairs{blocked}>"

def check_pairs(puzzle, size: str) -> None:
    """InvalidPuzzle unless every label is a plain token with one pair, every endpoint and
    blocked cell lies on the board (``size`` names it), and no cell holds two endpoints or an
    endpoint and a block (for boards of one layer and of several: ``puzzle`` needs ``pairs``,
    ``blocked`` and ``on_board``)."""
    seen_labels: set[str] = set()
    used: dict[object, str] = {}
    for pair in puzzle.pairs:
        if not pair.label or any(ch.isspace() for ch in pair.label) or pair.label in (EMPTY, BLOCKED):
            raise InvalidPuzzle(f"bad label {pair.label!r}")
        if pair.label in seen_labels:
            raise InvalidPuzzle(f"label {pair.label!r} has more than one pair")
        seen_labels.add(pair.label)
        for cell in (pair.start, pair.end):
            if not puzzle.on_board(cell):
                raise InvalidPuzzle(f"endpoint {cell} of {pair.label!r} is off the {size} board")
            if cell in used:
                raise InvalidPuzzle(f"cell {cell} holds both {used[cell]!r} and {pair.label!r}")
            if cell in puzzle.blocked:
                raise InvalidPuzzle(f"endpoint {cell} of {pair.label!r} is a blocked cell")
            used[cell] = pair.label
    for cell in puzzle.blocked:
        if not puzzle.on_board(cell):
            raise InvalidPuzzle(f"blocked cell {cell} is off the {size} board")


@dataclass(frozen=True)
class Solution:
    """One path per label, each a tuple of cells from the pair's ``start`` to its ``end``."""

    paths: tuple[tuple[str, tuple[Cell, ...]], ...]

    def __post_init__(self) -> None:
        # Canonical form: each path read from its end that comes first in reading order, paths
        # sorted by that end; so two solutions compare equal exactly when they draw the same paths.
        require_iterable(self.paths, "paths", "a sequence of (label, cells) pairs")
        paths = []
        for label, cells in self.paths:
            require_iterable(cells, f"the path of {label!r}", "a sequence of (row, column) cells")
            try:
                cells = tuple(map(tuple, cells))
            except TypeError:
                raise TypeError(f"the path of {label!r} must be a sequence of (row, column) pairs of whole numbers") from None
            # the common case, pairs of plain ints, seen in two passes that run in C
            plain = set(map(len, cells)) <= {2} and set(map(type, chain.from_iterable(cells))) <= {int}
            if not plain:
                if not all(len(cell) == 2 and is_whole_number(cell[0]) and is_whole_number(cell[1]) for cell in cells):
                    raise TypeError(f"the path of {label!r} must be a sequence of (row, column) pairs of whole numbers")
                cells = tuple((operator.index(r), operator.index(c)) for r, c in cells)  # numpy integers: plain ints
            if isinstance(label, str):
                label = str(label)  # a numpy str_ as a plain str, so the answer prints as any other
            if cells and cells[-1] < cells[0]:
                cells = cells[::-1]
            paths.append((label, cells))
        object.__setattr__(self, "paths", tuple(sorted(paths, key=lambda lp: (lp[1][:1], lp[0]))))

    @classmethod
    def from_mapping(cls, paths: Mapping[str, Iterable[Cell]]) -> "Solution":
        """An answer from a mapping of each label to its path's cells.

        >>> Solution.from_mapping({"A": [(0, 0), (0, 1)]}).path("A")
        ((0, 0), (0, 1))
        """
        require_mapping(paths, "paths", "a mapping of each label to its path's cells")
        return cls(tuple((label, cells) for label, cells in paths.items()))

    @classmethod
    def from_rows(cls, puzzle: Puzzle, rows: Sequence[str | Sequence[str]]) -> "Solution":
        """Read an answer drawn as a label grid (``.`` or ``#`` for cells on no path).

        Each label's cells must form one simple path between its endpoints; where a path runs
        beside itself the grid is ambiguous and the first path found through all of its cells
        is taken. Raises :class:`NotAPath` naming the label when its cells form no such path
        (:class:`TraceCapped` when the search for one was cut short).
        """
        if isinstance(rows, str):
            raise TypeError("rows must be a list of rows (e.g. text.splitlines()), not one string")
        grid = [list(row) for row in rows]
        if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
            raise ValueError(f"answer grid is not {puzzle.width}x{puzzle.height}")
        cells_of: dict[str, set[Cell]] = {}
        for r, row in enumerate(grid):
            for c, token in enumerate(row):
                if token not in (EMPTY, BLOCKED):
                    cells_of.setdefault(token, set()).add((r, c))
        paths = []
        for pair in puzzle.pairs:
            cells = cells_of.pop(pair.label, set())
            path = trace(pair, cells)
            if path is None:
                raise NotAPath(f"label {pair.label!r} is not one simple path from {pair.start} to {pair.end}", pair.label)
            paths.append((pair.label, path))
        if cells_of:
            raise ValueError(f"answer has labels not in the puzzle: {sorted(cells_of)}")
        return cls(tuple(paths))

    def __repr__(self) -> str:
        """``<numberlink.Solution 3 paths, 12 cells>`` (``paths`` holds them)."""
        return f"<numberlink.Solution {len(self.paths)} paths, {sum(len(cells) for _, cells in self.paths)} cells>"

    def path(self, label: str) -> tuple[Cell, ...]:
        for name, cells in self.paths:
            if name == label:
                return cells
        raise KeyError(label)

    def as_dict(self) -> dict[str, tuple[Cell, ...]]:
        return dict(self.paths)

    def grid(self, puzzle: Puzzle) -> np.ndarray:
        """The puzzle's grid with every path cell holding its label."""
        self.check_on_board(puzzle)
        g = puzzle.grid()
        for label, cells in self.paths:
            for cell in cells:
                g[cell] = label
        return g

    def to_rows(self, puzzle: Puzzle) -> list[list[str]]:
        return self.grid(puzzle).tolist()

    def check_on_board(self, puzzle: Puzzle) -> None:
        """ValueError when a cell of the paths lies off ``puzzle``'s board."""
        off = [cell for _, cells in self.paths for cell in cells if not puzzle.on_board(cell)]
        if off:
            raise ValueError(f"the answer's cell {off[0]} lies off the {puzzle.width}x{puzzle.height} board (an answer to another puzzle?)")


