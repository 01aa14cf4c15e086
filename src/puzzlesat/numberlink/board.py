"""The Numberlink board as a graph of cells in flat numpy arrays, built once per puzzle.

A board has ``layers`` layers of ``height`` x ``width`` cells (one layer is the case L = 1); a
cell is numbered ``(z * height + r) * width + c``. An edge joins two free cells a path may step
between and is numbered from 1: edges along a row (between columns c and c+1) in (layer, row,
column) order, then edges between rows, then edges between layers (the numbering of the
formula's edge variables). On a stack with vias (multi-layer ADC 2016) a path changes layer
only inside a via and never leaves a via's inner cell sideways, so those are the only edges
between layers and a via's inner cells have none on their layer (``Puzzle.is_step``). The
encoding, the topology checks, the decoding of a model and the answer checker read the same
arrays, so a board of a million cells is a few arrays and no Python object per cell.
``Puzzle.board`` builds it on first use and keeps it.

>>> from puzzlesat.numberlink.model import Puzzle
>>> board = Puzzle.from_rows(["A.A", "B#B"]).board
>>> board.num_edges, board.edge_cells.tolist()
(4, [[0, 1], [1, 2], [0, 3], [2, 5]])
>>> board.code.tolist(), board.incident[1].tolist()   # label index per cell; edges up, down, left, right
([0, -1, 0, 1, -1, 1], [0, 0, 1, 2])
>>> from puzzlesat.numberlink.multilayer.model import Puzzle as Stack
>>> stack = Stack.from_layers([["A.", ".."], [".B", "AB"]]).board
>>> stack.layers, stack.num_edges, stack.incident[0].tolist()   # layer below, layer above, then as on one layer
(2, 12, [0, 9, 0, 5, 0, 1])
>>> stack.cells([0, 7])
[(0, 0, 0), (1, 1, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np


@dataclass(frozen=True, eq=False)
class Board:
    """The arrays of one board (every array is read-only: boards are shared). ``layered``: the
    cells are written ``(layer, row, col)`` (a multi-layer puzzle, even of one layer), else
    ``(row, col)``."""

    height: int
    width: int
    free: np.ndarray        # (N,) bool: the cell is not blocked
    code: np.ndarray        # (N,) int64: the index of the cell's label in the puzzle's pairs at an endpoint, else -1
    starts: np.ndarray      # (K,) int64: each pair's start cell
    ends: np.ndarray        # (K,) int64: each pair's end cell
    edge_cells: np.ndarray  # (E, 2) int64: each edge's two cells (the lower number first)
    incident: np.ndarray    # (N, 4 or 6) int64: the edges around each cell ([layer below, layer above,] up, down, left, right), 0 where none
    degree: np.ndarray      # (N,) int64: the number of edges around each cell
    layers: int = 1
    layered: bool = False
    via_edges: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # (V,) the edges inside vias (with vias: all edges between layers)

    @property
    def num_cells(self) -> int:
        return self.layers * self.height * self.width

    @property
    def num_edges(self) -> int:
        return len(self.edge_cells)

    @property
    def is_end(self) -> np.ndarray:
        """(N,) bool: the cell is an endpoint."""
        return self.code >= 0

    @property
    def shape(self) -> tuple[int, ...]:
        """(H, W) on one layer, (L, H, W) on a layered board: the shape of a grid of its cells."""
        return (self.layers, self.height, self.width) if self.layered else (self.height, self.width)

    def free_grid(self) -> np.ndarray:
        """The free cells as an array of :attr:`shape` (a view)."""
        return self.free.reshape(self.shape)

    def flat(self, cell: Sequence[int]) -> int:
        """The number of ``cell`` ((row, col), or (layer, row, col) on a layered board), -1 off the board."""
        if self.layered:
            z, r, c = cell
            if not (0 <= z < self.layers and 0 <= r < self.height and 0 <= c < self.width):
                return -1
            return (z * self.height + r) * self.width + c
        r, c = cell
        return r * self.width + c

    def cells(self, flat: Sequence[int]) -> list[tuple[int, ...]]:
        """The cells of the cell numbers ``flat``, as the puzzle writes them."""
        if len(flat) < LONG_WALK:
            if not self.layered:
                return [divmod(f, self.width) for f in flat]
            return [(zr // self.height, zr % self.height, c) for zr, c in (divmod(f, self.width) for f in flat)]
        zr, cols = np.divmod(np.asarray(flat, dtype=np.int64), self.width)
        if not self.layered:
            return list(zip(zr.tolist(), cols.tolist()))
        z, rows = np.divmod(zr, self.height)
        return list(zip(z.tolist(), rows.tolist(), cols.tolist()))

    def squares(self) -> np.ndarray:
        """(Q, 4) the edges of every unit square whose four sides are edges (4-cycles of the
        grid): on each layer, by the square's top-left cell, (top, bottom, left, right); then
        upright squares between layers along a row, then across rows (a layered board)."""
        around = self.incident.reshape(self.layers, self.height, self.width, -1)
        down, right = _DOWN + self.incident.shape[1] - 4, _RIGHT + self.incident.shape[1] - 4
        sides = []
        if self.height >= 2 and self.width >= 2:  # rows r, r+1 and columns c, c+1
            sides.append((around[:, :-1, :-1, right], around[:, 1:, :-1, right], around[:, :-1, :-1, down], around[:, :-1, 1:, down]))
        if self.layers >= 2 and self.width >= 2:  # columns c, c+1 and layers z, z+1
            sides.append((around[:-1, :, :-1, right], around[1:, :, :-1, right], around[:-1, :, :-1, _ABOVE], around[:-1, :, 1:, _ABOVE]))
        if self.layers >= 2 and self.height >= 2:  # rows r, r+1 and layers z, z+1
            sides.append((around[:-1, :-1, :, down], around[1:, :-1, :, down], around[:-1, :-1, :, _ABOVE], around[:-1, 1:, :, _ABOVE]))
        fours = []
        for a, b, c, d in sides:
            square = (a > 0) & (b > 0) & (c > 0) & (d > 0)
            fours.append(np.stack([a[square], b[square], c[square], d[square]], axis=1))
        return np.concatenate(fours) if fours else np.zeros((0, 4), dtype=np.int64)  # (made on each call: not kept on a big board)


LONG_WALK = 256  # lists of more cells are turned into coordinates with arrays
# The columns of ``incident``: on one layer up, down, left, right; a stack's board puts the two
# steps between layers first (below, above), the literal order the multi-layer formula was
# tuned with (the solver is sensitive to it: encodings/numberlink-multilayer.md, "One formula over a graph")
_UP, _DOWN, _LEFT, _RIGHT = range(4)
_BELOW, _ABOVE = 0, 1


def build(height: int, width: int, blocked, pairs) -> Board:
    """The board of ``height`` x ``width`` cells with ``blocked`` cells ((row, col) pairs) and
    ``pairs`` (objects with ``start`` and ``end`` cells, in the puzzle's order)."""
    size = height * width
    free = np.ones(size, dtype=bool)
    if blocked:
        rc = np.array(list(blocked), dtype=np.int64).reshape(-1, 2)
        free[rc[:, 0] * width + rc[:, 1]] = False
    ends_rc = np.array([[p.start, p.end] for p in pairs], dtype=np.int64).reshape(-1, 2, 2)
    starts = ends_rc[:, 0, 0] * width + ends_rc[:, 0, 1]
    ends = ends_rc[:, 1, 0] * width + ends_rc[:, 1, 1]
    return _graph(1, height, width, free, starts, ends)


def build_stack(layers: int, height: int, width: int, blocked, pairs, vias=()) -> Board:
    """The layered board of ``layers`` x ``height`` x ``width`` cells with ``blocked`` cells and
    ``pairs`` ((layer, row, col) cells) and ``vias`` (objects with ``cells`` and ``inner_cells``)."""
    plane = height * width
    free = np.ones(layers * plane, dtype=bool)

    def numbers(cells) -> np.ndarray:
        zrc = np.array(list(cells), dtype=np.int64).reshape(-1, 3)
        return zrc[:, 0] * plane + zrc[:, 1] * width + zrc[:, 2]

    if blocked:
        free[numbers(blocked)] = False
    starts, ends = numbers(p.start for p in pairs), numbers(p.end for p in pairs)
    link = inner = None
    if vias:
        link = np.zeros(layers * plane, dtype=bool)   # the cell and the one above are cells of one via
        inner = np.zeros(layers * plane, dtype=bool)  # a via's cell between its first and its last
        link[numbers(cell for via in vias for cell in via.cells[:-1])] = True
        if any(via.inner_cells for via in vias):
            inner[numbers(cell for via in vias for cell in via.inner_cells)] = True
    return _graph(layers, height, width, free, starts, ends, layered=True, via_link=link, via_inner=inner)


def _graph(layers: int, height: int, width: int, free: np.ndarray, starts: np.ndarray, ends: np.ndarray, *,
           layered: bool = False, via_link: np.ndarray | None = None, via_inner: np.ndarray | None = None) -> Board:
    size = layers * height * width
    code = np.full(size, -1, dtype=np.int64)
    labels = np.arange(len(starts), dtype=np.int64)
    code[starts] = labels
    code[ends] = labels
    grid = free.reshape(layers, height, width)
    flat = np.arange(size, dtype=np.int64).reshape(layers, height, width)
    xmask = grid[:, :, :-1] & grid[:, :, 1:]
    ymask = grid[:, :-1, :] & grid[:, 1:, :]
    zmask = grid[:-1] & grid[1:]
    if via_link is not None:
        link, lateral = via_link.reshape(grid.shape), ~via_inner.reshape(grid.shape)
        zmask &= link[:-1]
        xmask &= lateral[:, :, :-1] & lateral[:, :, 1:]
        ymask &= lateral[:, :-1, :] & lateral[:, 1:, :]
    counts = [int(xmask.sum()), int(ymask.sum()), int(zmask.sum())]
    num_edges = sum(counts)
    edge_cells = np.empty((num_edges, 2), dtype=np.int64)
    ids = np.arange(1, num_edges + 1, dtype=np.int64)
    shift = 2 if layers > 1 else 0  # (the columns of the steps between layers come first)
    incident = np.zeros((size, 4 + shift), dtype=np.int64)
    begin = 0
    # (mask, first cells, second cells, column of the first cell's edge, of the second's)
    for count, (mask, first, second, ahead, back) in zip(counts, (
            (xmask, flat[:, :, :-1], flat[:, :, 1:], shift + _RIGHT, shift + _LEFT),  # right of the first cell, left of the second
            (ymask, flat[:, :-1, :], flat[:, 1:, :], shift + _DOWN, shift + _UP),     # below the first cell, above the second
            (zmask, flat[:-1], flat[1:], _ABOVE, _BELOW))):                           # the layer above the first, below the second
        if not count:
            continue
        span = slice(begin, begin + count)
        edge_cells[span, 0] = first[mask]
        edge_cells[span, 1] = second[mask]
        incident[edge_cells[span, 0], ahead] = ids[span]
        incident[edge_cells[span, 1], back] = ids[span]
        begin += count
    degree = (incident > 0).sum(axis=1)
    via_edges = ids[num_edges - counts[2]:] if via_link is not None else np.zeros(0, dtype=np.int64)
    for array in (free, code, starts, ends, edge_cells, incident, degree, via_edges):
        array.flags.writeable = False
    return Board(height, width, free, code, starts, ends, edge_cells, incident, degree, layers, layered, via_edges)
