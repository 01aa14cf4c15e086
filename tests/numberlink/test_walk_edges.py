"""walk_edges: the walks from the starts and the stray cycles, against a plain walker.

The array walk (list ranking over arcs, ``_walks_by_rulers``) runs on large boards when every
cell has at most two true edges and every start at most one; otherwise the cell-by-cell walk.
The tests make every board large, or none. Both are held
against ``reference_walks`` below on random edge sets: paths, cycles, cells of degree 3, starts
in the middle of a path, and long chains that pass many rulers.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzlesat.numberlink import walk
from puzzlesat.numberlink.encoding import walk_edges


def grid_tables(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(incident, edge_cells) of a full board, edges numbered as the encoding numbers them."""
    flat = np.arange(height * width).reshape(height, width)
    pairs = [(int(a), int(b)) for a, b in zip(flat[:, :-1].ravel(), flat[:, 1:].ravel())]
    pairs += [(int(a), int(b)) for a, b in zip(flat[:-1, :].ravel(), flat[1:, :].ravel())]
    incident = np.zeros((height * width, 4), dtype=np.int64)  # up, down, left, right
    for edge, (a, b) in enumerate(pairs, start=1):
        horizontal = b == a + 1 and a // width == b // width
        incident[a, 3 if horizontal else 1] = edge
        incident[b, 2 if horizontal else 0] = edge
    return incident, np.array(pairs, dtype=np.int64).reshape(-1, 2)


def reference_walks(incident, edge_cells, edges, starts):
    """Each cell's first two true edges in incident order; from each start, step to the
    neighbour not just left, until none is left or the start comes round again; then every
    leftover cell with an edge starts a cycle. Cycles as sets of edge indices."""
    true = set(int(e) for e in edges)
    neighbours = {}
    for cell, ids in enumerate(incident.tolist()):
        mine = [e - 1 for e in ids if e > 0 and e - 1 in true][:2]
        neighbours[cell] = [(int(edge_cells[e][0] + edge_cells[e][1] - cell), e) for e in mine]
    walks, seen = [], set()
    for start in starts:
        cells, prev, cur = [start], None, start
        while len(cells) <= len(incident):
            onward = [n for n, _ in neighbours[cur]]
            if prev is not None and prev in onward:
                onward.remove(prev)
            if not onward or onward[0] == start:
                break
            prev, cur = cur, onward[0]
            cells.append(cur)
        walks.append(cells)
        seen.update(cells)
    cycles = []
    for cell in range(len(incident)):
        if cell in seen or not neighbours[cell]:
            continue
        edges_here, prev, cur = set(), None, cell
        while True:
            seen.add(cur)
            step = [(n, e) for n, e in neighbours[cur] if n != prev][:1]
            if not step:
                break
            n, e = step[0]
            edges_here.add(e)
            if n in seen:
                break
            prev, cur = cur, n
        cycles.append(frozenset(edges_here))
    return walks, sorted(cycles, key=sorted)


def random_edges(rng: random.Random, edge_cells: np.ndarray, cells: int, most: int) -> np.ndarray:
    degree = [0] * cells
    chosen = []
    for edge in rng.sample(range(len(edge_cells)), len(edge_cells)):
        a, b = edge_cells[edge]
        if degree[a] < most and degree[b] < most and rng.random() < 0.75:
            degree[a] += 1
            degree[b] += 1
            chosen.append(edge)
    return np.array(sorted(chosen), dtype=np.int64)


@pytest.fixture(params=["arrays", "cell by cell"])
def walk_way(request, monkeypatch):
    """Every board walked with arrays (where the edges allow), or none."""
    monkeypatch.setattr(walk, "ARRAY_WALK_CELLS", 0 if request.param == "arrays" else 10**9)
    return request.param


@pytest.mark.parametrize("seed", range(6))
def test_walks_and_cycles_match_a_plain_walker(seed, walk_way):
    rng = random.Random(seed)
    for _ in range(250):
        height, width = rng.randint(1, 8), rng.randint(2, 8)
        incident, edge_cells = grid_tables(height, width)
        edges = random_edges(rng, edge_cells, height * width, 3 if rng.random() < 0.15 else 2)
        ends = [c for c in range(height * width) if int(np.isin(incident[c] - 1, edges).sum()) <= 1]
        pool = ends if rng.random() < 0.7 else list(range(height * width))
        starts = rng.sample(pool, rng.randint(0, min(6, len(pool))))
        walks, cycles = walk_edges(incident, edge_cells, len(edge_cells), edges, starts)
        expected_walks, expected_cycles = reference_walks(incident, edge_cells, edges, starts)
        assert walks == expected_walks
        assert sorted((frozenset(c) for c in cycles), key=sorted) == expected_cycles
        for cycle in cycles:  # each cycle's edges in walking order: consecutive edges share a cell
            for e, f in zip(cycle, cycle[1:]):
                assert set(edge_cells[e].tolist()) & set(edge_cells[f].tolist())


def test_long_chains_pass_many_rulers(monkeypatch, walk_way):
    """A board-filling snake cut into three paths, with a ruler at about every fourth arc and
    at every arc: the walks are the snake's pieces, in order."""
    height, width = 30, 40
    incident, edge_cells = grid_tables(height, width)
    snake = [r * width + (c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
    index = {tuple(sorted(map(int, pair))): e for e, pair in enumerate(edge_cells)}
    pieces = [snake[:400], snake[400:401 + 300], snake[701:]]
    edges = np.array(sorted(index[tuple(sorted(p))] for piece in pieces for p in zip(piece, piece[1:])), dtype=np.int64)
    starts = [pieces[0][-1], pieces[1][0], pieces[2][0]]
    expected = [pieces[0][::-1], pieces[1], pieces[2]]
    for share in (0.25, 1.0, 0.0):
        monkeypatch.setattr(walk, "RULER_SHARE", share)
        assert walk_edges(incident, edge_cells, len(edge_cells), edges, starts) == (expected, [])


def test_wider_incidence_tables(walk_way):
    """Boards of several layers have more edge slots per cell; a path through three layers
    of a 1-cell-wide board is walked the same way either way."""
    # cells 0..5: two columns of three layers; slots: in-layer right/left, layer up/down
    edge_cells = np.array([[0, 1], [0, 2], [2, 3], [3, 5], [5, 4]], dtype=np.int64)
    incident = np.zeros((6, 6), dtype=np.int64)
    slot = [0] * 6
    for edge, (a, b) in enumerate(edge_cells.tolist(), start=1):
        incident[a, slot[a]] = edge
        incident[b, slot[b]] = edge
        slot[a] += 1
        slot[b] += 1
    edges = np.arange(5)
    assert walk_edges(incident, edge_cells, 5, edges, [1]) == ([[1, 0, 2, 3, 5, 4]], [])
    assert walk_edges(incident, edge_cells, 5, edges, [4, 1]) == ([[4, 5, 3, 2, 0, 1], [1, 0, 2, 3, 5, 4]], [])
