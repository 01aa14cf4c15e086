"""Multi-layer (3-D) Numberlink puzzles and answers as plain immutable data.

Rules as on one layer, on a stack of W x H layers: connect the two cells of every label by a
path of steps to one of the (up to) six neighbouring cells, four on the same layer and the cell
at the same place on the layer above or below; paths never share a cell and never enter blocked
cells. The rule options are the family's :class:`~puzzlesat.numberlink.Rules` (the ADC
contests, 2016-2018, let cells stay empty: ``Rules(cover_all=False)``). A cell is
``(layer, row, column)``, all counted from 0; text shown to people counts layers from 1, as
the contest files do.

ADC 2016 problems add *vias* (:class:`Via`): named columns of cells at one place on
consecutive layers. A puzzle with vias lets a path change layer only inside a via, passing
through all of its cells from its first layer to its last (the cells between are entered and
left only from above and below); every via is used by exactly one path, and no path uses more
than one (so the paths whose ends lie on different layers are exactly as many as the vias).
A puzzle without vias (ADC 2017/2018) lets a path change layer at any cell.

>>> p = Puzzle.from_layers([["A.", ".."], [".B", "AB"]])
>>> p.width, p.height, p.layers, p.labels
(2, 2, 2, ('A', 'B'))
>>> print(p)
layer 1
A .
. .
<BLANKLINE>
layer 2
. B
A B
>>> s = Solution.from_layers(p, [["A.", ".."], ["AB", "AB"]])
>>> s.path("A")
((0, 0, 0), (1, 0, 0), (1, 1, 0))
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Iterator, Mapping, Sequence

import numpy as np

from ...errors import InvalidPuzzle, require_iterable, require_mapping
from ...grid import is_whole_number
from ..model import BLOCKED, EMPTY, NotAPath, StatedRules, check_pairs, trace
from .cells import STEPS, Cell, Pair, Via, as_cell, is_adjacent, layers_text, via_fault  # (re-exported: the model's names)


# Beyond this a stack is refused as absurd: a layered formula has about 150 clauses a cell, and
# 1000x1000x4 (the one-layer bound of 4 M cells) went past 15 GB (QA); the largest contest
# board is 72x72x8 = 41,472 cells.
MAX_CELLS = 1_000_000

VIA_MARK = "@"  # a via's cells in a grid of tokens: "@" and the via's name



@dataclass(frozen=True)
class Puzzle:
    """A stack of ``layers`` boards of W x H cells with labelled endpoint pairs, blocked
    cells (``Cell = (layer, row, column)``) and, for ADC 2016 problems, ``vias`` (empty: a path
    may change layer anywhere)."""

    width: int
    height: int
    layers: int
    pairs: tuple[Pair, ...]
    blocked: frozenset[Cell] = frozenset()
    name: str = field(default="", compare=False)
    vias: tuple[Via, ...] = ()
    stated_rules: StatedRules | None = field(default=None, compare=False)  # what its source asks for

    def __post_init__(self) -> None:
        if not all(is_whole_number(n) for n in (self.width, self.height, self.layers)):
            raise TypeError(f"width, height and layers must be whole numbers, not {self.width!r}, {self.height!r} and {self.layers!r}")
        for name in ("width", "height", "layers"):
            object.__setattr__(self, name, int(getattr(self, name)))
        require_iterable(self.pairs, "pairs", "a sequence of multilayer Pair objects")
        require_iterable(self.blocked, "blocked", "a set of (layer, row, column) cells")
        require_iterable(self.vias, "vias", "a sequence of Via objects")
        object.__setattr__(self, "pairs", tuple(self.pairs))
        if not all(isinstance(pair, Pair) for pair in self.pairs):
            raise TypeError("pairs must be multilayer Pair objects, e.g. Pair('A', (0, 0, 0), (1, 0, 2))")
        if self.width < 1 or self.height < 1 or self.layers < 1:
            raise InvalidPuzzle(f"board size {self.size_text} must be at least 1x1x1")
        if self.width * self.height * self.layers > MAX_CELLS:
            raise InvalidPuzzle(f"board size {self.size_text} is absurd (more than {MAX_CELLS:,} cells on several layers)")
        # canonical form: each pair's ends in reading order (layer first), pairs by first end
        canonical = [Pair(p.label, *sorted((p.start, p.end))) for p in self.pairs]
        object.__setattr__(self, "pairs", tuple(sorted(canonical, key=lambda p: (p.start, p.end))))
        object.__setattr__(self, "blocked", frozenset(as_cell(cell, "a blocked cell") for cell in self.blocked))
        check_pairs(self, self.size_text)
        marked = [pair.label for pair in self.pairs if pair.label.startswith(VIA_MARK)]
        if marked:
            raise InvalidPuzzle(f"bad label {marked[0]!r}: a token starting with '{VIA_MARK}' marks a via's cells in the layered text")
        self._check_vias()

    def _check_vias(self) -> None:
        if isinstance(self.vias, (str, bytes)) or not hasattr(self.vias, "__iter__"):
            raise TypeError("vias must be a sequence of Via objects, e.g. (Via('a', [(0, 1, 1), (1, 1, 1)]),)")
        vias = tuple(self.vias)
        if not all(isinstance(via, Via) for via in vias):
            raise TypeError("vias must be Via objects, e.g. Via('a', [(0, 1, 1), (1, 1, 1)])")
        object.__setattr__(self, "vias", tuple(sorted(vias, key=lambda via: via.cells)))
        names: set[str] = set()
        owner: dict[Cell, str] = {}
        ends = self.endpoints()
        for via in self.vias:
            if via.name in names:
                raise InvalidPuzzle(f"via {via.name!r} is given twice")
            names.add(via.name)
            for cell in via.cells:
                if not self.on_board(cell):
                    raise InvalidPuzzle(f"via {via.name!r} cell {cell} is off the {self.size_text} board")
                if cell in self.blocked:
                    raise InvalidPuzzle(f"via {via.name!r} cell {cell} is blocked")
                if cell in ends:
                    raise InvalidPuzzle(f"via {via.name!r} cell {cell} is the endpoint of {ends[cell]!r}")
                if cell in owner:
                    raise InvalidPuzzle(f"vias {owner[cell]!r} and {via.name!r} share the cell {cell}")
                owner[cell] = via.name

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_layers(cls, layers: Sequence[Sequence[str | Sequence[str]]], *, name: str = "",
                    vias: Iterable[Via] = ()) -> "Puzzle":
        """Build from layers of rows of cells (a row: a string, one character per cell, or a
        list of tokens); ``.`` empty, ``#`` blocked, ``@`` and a name a cell of that via (the
        via's cells are all the cells so marked), anything else a label that must occur exactly
        twice in the whole stack; ``vias`` adds vias given as :class:`Via` objects.

        >>> Puzzle.from_layers([[["A", "@a", "."]], [[".", "@a", "A"]]]).vias
        (Via(name='a', cells=((0, 0, 1), (1, 0, 1))),)
        """
        require_iterable(layers, "layers", "a list of layers, each a list of rows")
        if isinstance(layers, str) or any(isinstance(layer, str) for layer in layers):
            raise TypeError("layers must be a list of layers, each a list of rows")
        for layer in layers:
            require_iterable(layer, "each layer", "a list of rows")
            for row in layer:
                require_iterable(row, "each row", "a string or a list of tokens", text=True)
        grids = [[list(row) for row in layer] for layer in layers]
        if not grids or not grids[0]:
            raise InvalidPuzzle("a puzzle needs at least one layer of one row")
        height, width = len(grids[0]), len(grids[0][0])
        for z, grid in enumerate(grids, 1):
            if len(grid) != height or any(len(row) != width for row in grid):
                raise InvalidPuzzle(f"layer {z} is not {width}x{height} like layer 1")
        ends: dict[str, list[Cell]] = {}
        via_cells: dict[str, list[Cell]] = {}
        blocked = set()
        for z, grid in enumerate(grids):
            for r, row in enumerate(grid):
                for c, token in enumerate(row):
                    if token == BLOCKED:
                        blocked.add((z, r, c))
                    elif token.startswith(VIA_MARK):
                        if token == VIA_MARK:
                            raise InvalidPuzzle(f"'{VIA_MARK}' at {(z, r, c)} needs the via's name after it, e.g. '{VIA_MARK}a'")
                        via_cells.setdefault(token[1:], []).append((z, r, c))
                    elif token != EMPTY:
                        ends.setdefault(token, []).append((z, r, c))
        for label, cells in ends.items():
            if len(cells) != 2:
                raise InvalidPuzzle(f"label {label!r} occurs {len(cells)} times (expected 2)")
        pairs = tuple(Pair(label, cells[0], cells[1]) for label, cells in ends.items())
        drawn = tuple(Via(via_name, cells) for via_name, cells in via_cells.items())
        return cls(width, height, len(grids), pairs, frozenset(blocked), name=name, vias=tuple(vias) + drawn)

    # -- queries ------------------------------------------------------------------------------
    @property
    def size_text(self) -> str:
        """``WxHxZ``, as the contest files write it."""
        return f"{self.width}x{self.height}x{self.layers}"

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(pair.label for pair in self.pairs)

    @property
    def size(self) -> tuple[int, int, int]:
        """(width, height, layers)"""
        return (self.width, self.height, self.layers)

    @property
    def num_cells(self) -> int:
        return self.width * self.height * self.layers

    def pair(self, label: str) -> Pair:
        """The pair of ``label`` (KeyError when the puzzle has none)."""
        return self._pair_of[label]

    @cached_property
    def _pair_of(self) -> dict[str, Pair]:
        return {pair.label: pair for pair in self.pairs}

    def endpoints(self) -> dict[Cell, str]:
        """Every endpoint cell mapped to its label."""
        return {cell: pair.label for pair in self.pairs for cell in (pair.start, pair.end)}

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.layers and 0 <= cell[1] < self.height and 0 <= cell[2] < self.width

    def is_free(self, cell: Cell) -> bool:
        """On the board and not blocked (endpoints are free cells)."""
        return self.on_board(cell) and cell not in self.blocked

    def free_cells(self) -> Iterator[Cell]:
        for z in range(self.layers):
            for r in range(self.height):
                for c in range(self.width):
                    if (z, r, c) not in self.blocked:
                        yield (z, r, c)

    def via_at(self, cell: Cell) -> Via | None:
        """The via holding ``cell``, or None."""
        return self._via_of.get(cell)

    @cached_property
    def board(self):
        """The stack as a graph of cells in flat numpy arrays
        (:class:`~puzzlesat.numberlink.board.Board`, ``layered``: edges on each layer and, as
        :meth:`is_step` allows, between layers), built on first use and kept."""
        from ..board import build_stack

        return build_stack(self.layers, self.height, self.width, self.blocked, self.pairs, self.vias)

    @cached_property
    def _via_of(self) -> dict[Cell, Via]:
        return {cell: via for via in self.vias for cell in via.cells}

    def is_step(self, a: Cell, b: Cell) -> bool:
        """Whether a path may step from ``a`` to ``b``: one step apart (:func:`is_adjacent`)
        and, when the puzzle has vias, between layers only inside one via, and on a layer never
        from or to a via's inner cell.

        >>> p = Puzzle.from_layers([["A..", "..."], ["...", "..A"]], vias=[Via("a", [(0, 1, 1), (1, 1, 1)])])
        >>> p.is_step((0, 1, 1), (1, 1, 1)), p.is_step((0, 0, 0), (1, 0, 0)), p.is_step((0, 0, 1), (0, 1, 1))
        (True, False, True)
        """
        if not is_adjacent(a, b):
            return False
        if not self.vias:
            return True
        via_a, via_b = self._via_of.get(a), self._via_of.get(b)
        if a[0] != b[0]:
            return via_a is not None and via_a is via_b
        return not any(via is not None and cell in via.inner_cells for cell, via in ((a, via_a), (b, via_b)))

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Free cells a path may step to from ``cell`` (same layer, or the layer above or
        below; with vias, as :meth:`is_step` allows)."""
        z, r, c = cell
        for dz, dr, dc in STEPS:
            n = (z + dz, r + dr, c + dc)
            if self.is_free(n) and (not self.vias or self.is_step(cell, n)):
                yield n

    def free_mask(self) -> np.ndarray:
        """A Z x H x W boolean array, True on the free cells."""
        free = np.ones((self.layers, self.height, self.width), dtype=bool)
        for cell in self.blocked:
            free[cell] = False
        return free

    def grid(self) -> np.ndarray:
        """The board as a Z x H x W numpy array of strings: label, ``.``, ``#``, or a via's
        name after ``@`` (``@a``) on its cells."""
        g = np.full((self.layers, self.height, self.width), EMPTY, dtype=object)
        for cell in self.blocked:
            g[cell] = BLOCKED
        for via in self.vias:
            for cell in via.cells:
                g[cell] = VIA_MARK + via.name
        for cell, label in self.endpoints().items():
            g[cell] = label
        return g

    def __str__(self) -> str:
        return layers_text(self.grid())

    def __repr__(self) -> str:
        """``<numberlink.multilayer.Puzzle 8x8x2, 5 pairs>`` (``str`` draws the layers)."""
        extra = (f", {len(self.blocked)} blocked" if self.blocked else "") + (f", {len(self.vias)} vias" if self.vias else "")
        name = f" {self.name!r}" if self.name else ""
        return f"<numberlink.multilayer.Puzzle{name} {self.size_text}, {len(self.pairs)} pairs{extra}>"

@dataclass(frozen=True)
class Solution:
    """One path per label, each a tuple of cells ``(layer, row, column)`` from one endpoint to
    the other."""

    paths: tuple[tuple[str, tuple[Cell, ...]], ...]

    def __post_init__(self) -> None:
        # canonical form: each path read from its end that comes first in reading order, paths
        # sorted by that end; two solutions compare equal exactly when they draw the same paths
        require_iterable(self.paths, "paths", "a sequence of (label, cells) pairs")
        paths = []
        for label, cells in self.paths:
            require_iterable(cells, f"the path of {label!r}", "a sequence of (layer, row, column) cells")
            try:
                cells = tuple(map(tuple, cells))
            except TypeError:
                raise TypeError(f"the path of {label!r} must be a sequence of (layer, row, column) triples of whole numbers") from None
            if not all(len(cell) == 3 and all(is_whole_number(part) for part in cell) for cell in cells):
                raise TypeError(f"the path of {label!r} must be a sequence of (layer, row, column) triples of whole numbers")
            cells = tuple(tuple(operator.index(part) for part in cell) for cell in cells)
            if cells and cells[-1] < cells[0]:
                cells = cells[::-1]
            paths.append((label, cells))
        object.__setattr__(self, "paths", tuple(sorted(paths, key=lambda lp: (lp[1][:1], lp[0]))))

    @classmethod
    def from_mapping(cls, paths: Mapping[str, Iterable[Cell]]) -> "Solution":
        require_mapping(paths, "paths", "a mapping of each label to its path's cells")
        return cls(tuple((label, cells) for label, cells in paths.items()))

    @classmethod
    def from_layers(cls, puzzle: Puzzle, layers: Sequence[Sequence[str | Sequence[str]]]) -> "Solution":
        """Read an answer drawn as layers of label grids (``.`` or ``#`` for cells on no path).

        Each label's cells must form one simple path between its endpoints; where a path runs
        beside itself the drawing is ambiguous and the first path found through all of its
        cells is taken. Raises ``NotAPath`` naming the label when its cells form no such path
        (``TraceCapped`` when the search for one was cut short).
        """
        require_iterable(layers, "layers", "a list of layers, each a list of rows")
        if isinstance(layers, str) or any(isinstance(layer, str) for layer in layers):
            raise TypeError("layers must be a list of layers, each a list of rows")
        for layer in layers:
            require_iterable(layer, "each layer", "a list of rows")
            for row in layer:
                require_iterable(row, "each row", "a string or a list of tokens", text=True)
        grids = [[list(row) for row in layer] for layer in layers]
        if len(grids) != puzzle.layers or any(
            len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid) for grid in grids
        ):
            raise ValueError(f"answer is not {puzzle.size_text}")
        cells_of: dict[str, set[Cell]] = {}
        for z, grid in enumerate(grids):
            for r, row in enumerate(grid):
                for c, token in enumerate(row):
                    if token not in (EMPTY, BLOCKED) and not token.startswith(VIA_MARK):  # "@a": a via on no path
                        cells_of.setdefault(token, set()).add((z, r, c))
        paths = []
        allowed = puzzle.is_step if puzzle.vias else None
        for pair in puzzle.pairs:
            cells = cells_of.pop(pair.label, set())
            path = trace(pair, cells, steps=STEPS, allowed=allowed)
            if path is None:
                why = "" if allowed is None else via_fault(puzzle, pair, cells)
                raise NotAPath(f"label {pair.label!r} is not one simple path from {pair.start} to {pair.end}{why}", pair.label)
            paths.append((pair.label, path))
        if cells_of:
            raise ValueError(f"answer has labels not in the puzzle: {sorted(cells_of)}")
        return cls(tuple(paths))

    def __repr__(self) -> str:
        """``<numberlink.multilayer.Solution 3 paths, 12 cells>`` (``paths`` holds them)."""
        return f"<numberlink.multilayer.Solution {len(self.paths)} paths, {sum(len(cells) for _, cells in self.paths)} cells>"

    def path(self, label: str) -> tuple[Cell, ...]:
        for name, cells in self.paths:
            if name == label:
                return cells
        raise KeyError(label)

    def as_dict(self) -> dict[str, tuple[Cell, ...]]:
        return dict(self.paths)

    def grid(self, puzzle: Puzzle) -> np.ndarray:
        """The puzzle's Z x H x W grid with every path cell holding its label."""
        self.check_on_board(puzzle)
        g = puzzle.grid()
        for label, cells in self.paths:
            for cell in cells:
                g[cell] = label
        return g

    def to_layers(self, puzzle: Puzzle) -> list[list[list[str]]]:
        return self.grid(puzzle).tolist()

    def check_on_board(self, puzzle: Puzzle) -> None:
        """ValueError when a cell of the paths lies off ``puzzle``'s board."""
        off = [cell for _, cells in self.paths for cell in cells if not puzzle.on_board(cell)]
        if off:
            raise ValueError(f"the answer's cell {off[0]} lies off the {puzzle.size_text} board (an answer to another puzzle?)")
