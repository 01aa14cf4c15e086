"""Clause blocks the search adds to the Numberlink formula for its own sake, not the rules':
direction variables (cover-all), and under may-leave-empty rules no corner moves and no bumps
(they drop answers, so they serve only uniqueness tests where that is sound; encodings/numberlink.md).
They are built by :func:`puzzlesat.numberlink.encoding.encode` on request or added later by the
search; corner moves and bumps are built for boards of one layer.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from .walk import _edges_present_first

if TYPE_CHECKING:  # (the encoding imports this module)
    from .encoding import Encoding

def orientation_blocks(enc: Encoding) -> list[tuple[str, np.ndarray]]:
    """Direction variables for cover-all rules, added to ``enc``'s pool: for each edge ``e``
    (numbered ``1..E``) ``f[e] = base + 2(e-1)`` "walked from its first cell (left or top) to
    its second" and ``g[e] = f[e] + 1`` the other way; each path is walked from its pair's
    ``start`` to its ``end``. Returned as named clause blocks (the caller adds them):

    * ``orient-on`` (2E): ``-f[e] OR e``, ``-g[e] OR e``;
    * ``orient-one-way`` (2E): ``-e OR f[e] OR g[e]``, ``-f[e] OR -g[e]``;
    * ``orient-start-leaves`` / ``orient-end-enters`` (``n(c)`` per endpoint): no edge enters a
      start, none leaves an end;
    * ``orient-one-in`` / ``orient-one-out`` (``1 + C(n(c), 2)`` each per inner cell): exactly
      one of the edges around an inner cell enters it, and exactly one leaves it.

    Every answer has exactly one such orientation (walk each path from its start), so the
    answers are unchanged; the directions let the solver see sooner that a path piece cannot be
    walked from a start to an end: hard uniqueness proofs go several times faster
    (encodings/numberlink.md, "Notes from encoding.py")."""
    if not enc.rules.cover_all:
        raise ValueError("direction variables are built for cover-all rules (every inner cell has degree 2)")
    num_edges = enc.num_edges
    if num_edges == 0:  # nothing to walk (a board of blocked cells)
        return []
    base = enc.pool.reserve(2 * num_edges)
    edges = np.arange(1, num_edges + 1, dtype=np.int64)
    forward = base + 2 * (edges - 1)
    backward = forward + 1
    blocks = [
        ("orient-on", np.concatenate([np.stack([-forward, edges], axis=1), np.stack([-backward, edges], axis=1)])),
        ("orient-one-way", np.stack([-edges, forward, backward], axis=1)),
        ("orient-one-way", np.stack([-forward, -backward], axis=1)),
    ]
    board = enc.puzzle.board
    incident = enc.incident  # (cells, 4 or 6) edge variables, 0 where none
    cell_ids = np.arange(len(incident), dtype=np.int64)[:, None]
    present = incident > 0
    index = np.maximum(incident - 1, 0)
    second = enc.edge_cells[index, 1] == cell_ids  # the cell is the edge's second cell
    enters = np.where(second, forward[index], backward[index])
    leaves = np.where(second, backward[index], forward[index])
    role = np.zeros(len(incident), dtype=np.int8)  # 1 start, 2 end, 0 inner
    role[board.starts] = 1
    role[board.ends] = 2
    free = board.free
    blocks.append(("orient-start-leaves", -enters[(role == 1)[:, None] & present][:, None]))
    blocks.append(("orient-end-enters", -leaves[(role == 2)[:, None] & present][:, None]))
    degree = present.sum(axis=1)
    order = np.argsort(~present, axis=1, kind="stable")  # present edges first
    for name, literals in (("orient-one-in", enters), ("orient-one-out", leaves)):
        compact = np.take_along_axis(literals, order, axis=1)
        for n in range(1, incident.shape[1] + 1):
            rows = compact[free & (role == 0) & (degree == n)][:, :n]
            if len(rows) == 0:
                continue
            blocks.append((name, rows))
            for i, j in combinations(range(n), 2):
                blocks.append((name, -rows[:, [i, j]]))
    return [(name, block) for name, block in blocks if len(block)]


def corner_move_clauses(enc: Encoding) -> list[tuple[str, np.ndarray]]:
    """May-leave-empty: a path turning at cell ``b`` of an all-free 2x2 block could turn at the
    block's cell ``e`` diagonal to ``b`` instead when ``e`` is empty (a *corner move*: the path
    keeps its length and stays valid). For the two diagonals of each block, with ``b`` the later
    cell in row-major order (bottom right, bottom left) and neither ``b`` nor ``e`` an endpoint,
    one clause "``b``'s two block edges are not both on, or some edge of ``e`` is on":
    ``-e1 OR -e2 OR`` the ``n(e)`` edges around ``e`` (``2 + n(e)`` literals).

    >>> from puzzlesat.numberlink.encoding import encode
    >>> from puzzlesat.numberlink.model import Puzzle, Rules
    >>> enc = encode(Puzzle.from_rows(["A..", "...", "..A"]), Rules(cover_all=False), no_corner_moves=True)
    >>> enc.clause_counts()["no-corner-move"]   # 4 blocks, 2 diagonals each, 2 of them at an endpoint
    6
    """
    height, width = enc.puzzle.height, enc.puzzle.width
    if height < 2 or width < 2:
        return []
    incident = enc.incident.reshape(height, width, 4)  # up, down, left, right
    ends = np.zeros((height, width), dtype=bool)
    for cell in enc.puzzle.endpoints():
        ends[cell] = True
    top, bottom = incident[:-1, :-1, 3], incident[1:, :-1, 3]  # a block's four edges, by its top-left cell
    left, right = incident[:-1, :-1, 1], incident[:-1, 1:, 1]
    square = (top > 0) & (bottom > 0) & (left > 0) & (right > 0)
    degree, compact = _edges_present_first(incident)
    pieces = []
    # b = bottom right (its block edges right and bottom) with e = top left, and b = bottom left
    # (left and bottom) with e = top right; cells as (row offset, column offset) in the block
    for first, second, (br, bc), (er, ec) in ((right, bottom, (1, 1), (0, 0)), (left, bottom, (1, 0), (0, 1))):
        keep = square & ~ends[br:height - 1 + br, bc:width - 1 + bc] & ~ends[er:height - 1 + er, ec:width - 1 + ec]
        pieces.append((np.stack([-first[keep], -second[keep]], axis=1),
                       degree[er:height - 1 + er, ec:width - 1 + ec][keep], compact[er:height - 1 + er, ec:width - 1 + ec][keep]))
    return _or_an_edge_of_the_cell("no-corner-move", pieces)


def _or_an_edge_of_the_cell(name: str, pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> list[tuple[str, np.ndarray]]:
    """Clauses "``head`` OR some edge of the cell" from ``pieces`` of (heads, one row of
    literals per clause; the cell's number of edges; its edges, present first), as blocks of
    one width each (a block is a rectangular array)."""
    rows: dict[int, list[np.ndarray]] = {}
    for heads, degree, edges in pieces:
        for n in (2, 3, 4):
            pick = degree == n
            if pick.any():
                rows.setdefault(n, []).append(np.concatenate([heads[pick], edges[pick, :n]], axis=1))
    return [(name, np.concatenate(parts)) for _, parts in sorted(rows.items())]


def bump_clauses(enc: Encoding) -> list[tuple[str, np.ndarray]]:
    """May-leave-empty: a path that steps off a straight line ``a, m, d`` and back around ``m``
    (``a -> b1 -> b2 -> b3 -> d``, the three cells beside the line on one side) could go
    straight (``a -> m -> d``, two cells shorter) when ``m`` is empty (a *bump*). For each line of
    three free cells and each side, with ``m`` and the ``b`` cells free and no endpoint, one
    clause "the four steps are not all on, or some edge of ``m`` is on": ``-e(a, b1) OR
    -e(b1, b2) OR -e(b2, b3) OR -e(b3, d) OR`` the ``n(m)`` edges around ``m`` (``4 + n(m)``
    literals).

    >>> from puzzlesat.numberlink.encoding import encode
    >>> from puzzlesat.numberlink.model import Puzzle, Rules
    >>> enc = encode(Puzzle.from_rows(["A..", "...", "..A"]), Rules(cover_all=False), no_bumps=True)
    >>> enc.clause_counts()["no-bump"]   # the outer rows and columns, bumped inwards
    4
    """
    height, width = enc.puzzle.height, enc.puzzle.width
    pad = 2  # (so that every cell a line or a side reaches is inside the padded arrays)
    incident = np.zeros((height + 2 * pad, width + 2 * pad, 4), dtype=np.int64)  # up, down, left, right
    incident[pad:pad + height, pad:pad + width] = enc.incident.reshape(height, width, 4)
    free = np.zeros((height + 2 * pad, width + 2 * pad), dtype=bool)
    free[pad:pad + height, pad:pad + width] = enc.puzzle.free_mask()
    ends = np.zeros_like(free)
    for r, c in enc.puzzle.endpoints():
        ends[r + pad, c + pad] = True
    degree, compact = _edges_present_first(incident)
    rows_a, cols_a = (grid.ravel() + pad for grid in np.meshgrid(np.arange(height), np.arange(width), indexing="ij"))
    UP, DOWN, LEFT, RIGHT = range(4)
    pieces = []
    # (line step, edge along the line, side step, edge from the line to that side)
    for (lr, lc), along, sides in (((0, 1), RIGHT, (((1, 0), DOWN), ((-1, 0), UP))),
                                   ((1, 0), DOWN, (((0, 1), RIGHT), ((0, -1), LEFT)))):
        m_r, m_c, d_r, d_c = rows_a + lr, cols_a + lc, rows_a + 2 * lr, cols_a + 2 * lc
        for (sr, sc), toward in sides:
            steps = np.stack([incident[rows_a, cols_a, toward], incident[rows_a + sr, cols_a + sc, along],
                              incident[m_r + sr, m_c + sc, along], incident[d_r, d_c, toward]], axis=1)
            keep = ((steps > 0).all(axis=1) & free[m_r, m_c] & ~ends[m_r, m_c]
                    & ~ends[rows_a + sr, cols_a + sc] & ~ends[m_r + sr, m_c + sc] & ~ends[d_r + sr, d_c + sc])
            pieces.append((-steps[keep], degree[m_r, m_c][keep], compact[m_r, m_c][keep]))
    return _or_an_edge_of_the_cell("no-bump", pieces)
