"""Reading a model's true edges back as paths: the walk from each pair's start and the stray
cycles left, on any board (one layer or a stack: flat cell numbers and edge ids, as in
:class:`~puzzlesat.numberlink.board.Board`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

def walk_edges(incident: np.ndarray, edge_cells: np.ndarray, num_edges: int, edges: np.ndarray,
               starts: Sequence[int]) -> tuple[list[list[int]], list[list[int]]]:
    """The true ``edges`` (0-based indices) of a formula with ``incident`` edge ids per flat cell
    (0 where none) and ``edge_cells``, split into the walk from each of ``starts`` (flat cells,
    to where the edges end) and the stray cycles left (each a list of edge indices). Boards of
    one layer and of several share it; each maps flat cells back to its own coordinates.

    On boards of ARRAY_WALK_CELLS cells or more where every cell has at most two true edges
    and every start at most one (every model of the formulas), the walks are read off with
    arrays (:func:`_walks_by_rulers`); otherwise cell by cell, as the cycles are.

    >>> incident = np.array([[0, 1], [1, 2], [2, 0]])   # three cells in a row, edges 1 and 2
    >>> walk_edges(incident, np.array([[0, 1], [1, 2]]), 2, np.array([0, 1]), [2])
    ([[2, 1, 0]], [])
    """
    size = len(incident)
    on = np.zeros(num_edges + 1, dtype=bool)  # index 0 stands for "no edge"
    on[np.asarray(edges, dtype=np.int64) + 1] = True
    degree, around = _edges_present_first(np.where(on[incident], incident, 0))
    around = around[:, :2]  # each cell's first two true edge ids (0: none)
    ends = np.vstack([np.zeros((1, 2), dtype=np.int64), edge_cells])
    other = ends[around].sum(axis=2) - np.arange(size)[:, None]  # the cell across each edge
    other[around == 0] = -1
    start_cells = np.asarray(starts, dtype=np.int64)
    by_arrays = (size >= ARRAY_WALK_CELLS and degree.max(initial=0) <= 2 and not (degree[start_cells] > 1).any()
                 and len(np.unique(start_cells)) == len(start_cells))
    nbr: list[list[int]] | None = None
    if by_arrays:
        walks = _walks_by_rulers(other, degree, start_cells)
    else:
        nbr = other.tolist()
        walks = [_walk_from(nbr, start, size) for start in starts]
    seen = np.zeros(size, dtype=bool)
    for cells in walks:
        seen[cells] = True
    cycles: list[list[int]] = []
    for start in np.flatnonzero((around[:, 0] > 0) & ~seen).tolist():
        if nbr is None:
            nbr = other.tolist()
        if seen[start]:
            continue
        cycle_edges: list[int] = []
        prev, cur = -1, start
        while True:
            seen[cur] = True
            step = 0 if nbr[cur][0] != prev else 1
            nxt = nbr[cur][step]
            if nxt < 0:
                break
            cycle_edges.append(int(around[cur, step]) - 1)
            if seen[nxt]:
                break
            prev, cur = cur, nxt
        cycles.append(cycle_edges)
    return walks, cycles


def _walk_from(nbr: list[list[int]], start: int, size: int) -> list[int]:
    """The cells from ``start`` along the neighbours ``nbr`` (two per cell, -1 for none) to
    where the walk ends, or back at ``start``."""
    cells = [start]
    append = cells.append
    prev, cur = -1, start
    for _ in range(size):  # (at most size + 1 cells, as a walk that comes back to its start)
        a, b = nbr[cur]
        nxt = b if a == prev else a
        if nxt < 0 or nxt == start:
            break
        append(nxt)
        prev, cur = cur, nxt
    return cells


RULER_SHARE = 1 / 64  # _walks_by_rulers: the share of the arcs at which the walks are cut
# Boards of fewer cells are walked cell by cell: each array step costs about 10 us and there are
# a few hundred of them, more than a small board's walk (encodings/numberlink.md, "Notes from
# encoding.py and the smaller modules")
ARRAY_WALK_CELLS = 10_000


def _walks_by_rulers(other: np.ndarray, degree: np.ndarray, starts: np.ndarray) -> list[list[int]]:
    """The walk from each of ``starts`` when every cell has at most two neighbours in ``other``
    (-1 for none) and every start at most one, by list ranking over *arcs* (a cell and one of
    its two slots, "leaving the cell that way"): an arc's successor leaves the cell it enters
    by that cell's other slot, so every arc has at most one successor and one predecessor,
    and the walk from a start is the chain of arcs from its one arc. Some arcs, a random share
    (seeded, so the same every time) and the starts' own, are *rulers*: every ruler's piece
    (the arcs up to the next ruler) is walked at once, one array step per arc of the longest
    piece (a few hundred steps on a board of a million cells), and the pieces are joined in
    order from each start. The same walks as cell by cell, several times faster on an answer of
    a million cells."""
    size = len(other)
    target = other.reshape(-1)  # arc 2 * cell + slot enters this cell (-1: no such arc)
    active = target >= 0
    safe_target = np.where(active, target, 0)
    source = np.repeat(np.arange(size), 2)
    onward = np.where(other[safe_target, 0] == source, 1, 0)  # the entered cell's slot away from the source
    successor = np.where(active & (other[safe_target, onward] >= 0), 2 * safe_target + onward, -1)
    first_arcs = {i: 2 * int(cell) for i, cell in enumerate(starts.tolist()) if degree[cell] == 1}
    arcs = np.flatnonzero(active)
    sampled = arcs[np.random.default_rng(0).random(len(arcs)) < RULER_SHARE]
    rulers = np.unique(np.concatenate([np.array(list(first_arcs.values()), dtype=np.int64), sampled]))
    ruler_of = np.full(2 * size, -1, dtype=np.int64)  # ruler index of an arc (-1: not one)
    ruler_of[rulers] = np.arange(len(rulers))
    piece = ruler_of.copy()  # the ruler whose piece holds each arc
    offset = np.zeros(2 * size, dtype=np.int64)  # its place in that piece (the ruler: 0)
    next_ruler = np.full(len(rulers), -1, dtype=np.int64)
    piece_length = np.ones(len(rulers), dtype=np.int64)
    walking, at = np.arange(len(rulers)), rulers
    step = 0
    while len(walking):
        step += 1
        at = successor[at]
        ended = at < 0
        met = np.zeros(len(at), dtype=bool)
        met[~ended] = ruler_of[at[~ended]] >= 0
        next_ruler[walking[met]] = ruler_of[at[met]]
        going = ~(ended | met)
        walking, at = walking[going], at[going]
        piece[at] = walking
        offset[at] = step
        piece_length[walking] += 1
    # join the pieces from each start: where each piece begins in its walk
    chain_of = np.full(len(rulers), -1, dtype=np.int64)
    piece_start = np.zeros(len(rulers), dtype=np.int64)
    follow, lengths = next_ruler.tolist(), piece_length.tolist()
    walk_length = [0] * len(starts)
    for i, arc in first_arcs.items():
        r, done, chain = int(ruler_of[arc]), 0, []
        while r >= 0:
            chain.append(r)
            piece_start[r] = done
            done += lengths[r]
            r = follow[r]
        chain_of[chain] = i
        walk_length[i] = done
    walk_of = np.where(piece >= 0, chain_of[np.maximum(piece, 0)], -1) if len(rulers) else piece
    on_walk = np.flatnonzero(walk_of >= 0)
    begin = np.concatenate([[0], np.cumsum(walk_length)]).astype(np.int64)
    cells = np.empty(int(begin[-1]), dtype=np.int64)
    cells[begin[walk_of[on_walk]] + piece_start[piece[on_walk]] + offset[on_walk]] = target[on_walk]
    entered, begin_list = cells.tolist(), begin.tolist()
    return [[start] + entered[begin_list[i]:begin_list[i + 1]] for i, start in enumerate(starts.tolist())]


def _edges_present_first(incident: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell of ``incident`` (edge ids by direction, 0 for none, in the last axis): its number
    of edges, and its edge ids with the present ones first, in their order (each id moved to its
    place among the present or the absent ones, which is faster than a stable argsort)."""
    present = incident > 0
    degree = present.sum(axis=-1)
    place = np.where(present, np.cumsum(present, axis=-1) - 1, degree[..., None] + np.cumsum(~present, axis=-1) - 1)
    compact = np.empty_like(incident)
    np.put_along_axis(compact, place, incident, axis=-1)
    return degree, compact
