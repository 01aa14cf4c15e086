"""The Numberlink board as a graph of cells in flat numpy arrays, built once per puzzle.

A cell is numbered ``r * width + c``; an edge joins two orthogonally adjacent free cells and
is numbered from 1 (horizontal edges row-major, then vertical row-major: the numbering of the
formula's edge variables). The encoding, the topology checks, the decoding of a model and the
answer checker read the same arrays, so a board of a million cells is described by a few
arrays and no Python object per cell. ``Puzzle.board`` builds it on first use and keeps it.

>>> from puzzlesat.numberlink.model import Puzzle
>>> board = Puzzle.from_rows(["A.A", "B#B"]).board
>>> board.num_edges, board.edge_cells.tolist()
(4, [[0, 1], [1, 2], [0, 3], [2, 5]])
>>> board.code.tolist(), board.incident[1].tolist()   # label index per cell; edges up, down, left, right
([0, -1, 0, 1, -1, 1], [0, 0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Board:
    """The arrays of one board (every array is read-only: boards are shared)."""

    height: int
    width: int
    free: np.ndarray        # (N,) bool: the cell is not blocked
    code: np.ndarray        # (N,) int64: the index of the cell's label in the puzzle's pairs at an endpoint, else -1
    starts: np.ndarray      # (K,) int64: each pair's start cell
    ends: np.ndarray        # (K,) int64: each pair's end cell
    edge_cells: np.ndarray  # (E, 2) int64: each edge's two cells (left or top first)
    incident: np.ndarray    # (N, 4) int64: the edges around each cell (up, down, left, right), 0 where none
    degree: np.ndarray      # (N,) int64: the number of edges around each cell

    @property
    def num_cells(self) -> int:
        return self.height * self.width

    @property
    def num_edges(self) -> int:
        return len(self.edge_cells)

    @property
    def is_end(self) -> np.ndarray:
        """(N,) bool: the cell is an endpoint."""
        return self.code >= 0

    def free_grid(self) -> np.ndarray:
        """The free cells as an H x W boolean array (a view)."""
        return self.free.reshape(self.height, self.width)


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
    code = np.full(size, -1, dtype=np.int64)
    labels = np.arange(len(starts), dtype=np.int64)
    code[starts] = labels
    code[ends] = labels
    grid = free.reshape(height, width)
    flat = np.arange(size, dtype=np.int64).reshape(height, width)
    hmask = grid[:, :-1] & grid[:, 1:]
    vmask = grid[:-1, :] & grid[1:, :]
    h_count = int(hmask.sum())
    num_edges = h_count + int(vmask.sum())
    edge_cells = np.empty((num_edges, 2), dtype=np.int64)
    edge_cells[:h_count, 0] = flat[:, :-1][hmask]
    edge_cells[:h_count, 1] = flat[:, 1:][hmask]
    edge_cells[h_count:, 0] = flat[:-1, :][vmask]
    edge_cells[h_count:, 1] = flat[1:, :][vmask]
    ids = np.arange(1, num_edges + 1, dtype=np.int64)
    incident = np.zeros((size, 4), dtype=np.int64)
    first, second = edge_cells[:, 0], edge_cells[:, 1]
    horizontal = slice(0, h_count)
    vertical = slice(h_count, num_edges)
    incident[first[horizontal], 3] = ids[horizontal]   # right of the first cell
    incident[second[horizontal], 2] = ids[horizontal]  # left of the second
    incident[first[vertical], 1] = ids[vertical]       # below the first cell
    incident[second[vertical], 0] = ids[vertical]      # above the second
    degree = (incident > 0).sum(axis=1)
    for array in (free, code, starts, ends, edge_cells, incident, degree):
        array.flags.writeable = False
    return Board(height, width, free, code, starts, ends, edge_cells, incident, degree)
