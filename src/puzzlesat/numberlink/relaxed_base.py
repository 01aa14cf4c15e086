"""The numbering and the base rows of Numberlink's certificate formula (:mod:`.relaxed`): on one
layer from grids of the board (:func:`board_rows`), on a stack from its graph as dictionaries
(:func:`stack_graph`, :func:`stack_rows`). Edges are numbered from 1 in reading order of their
first cell (on one layer the edge to the right, then the one below), the label bits of the
inner cells after them; the rows are the blocks of :mod:`.relaxed_rows`.

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
>>> nv, (right, down, first), blocks = board_rows(puzzle, Rules(), list(puzzle.free_cells()), puzzle.endpoints(), {"A": 0, "B": 1}, 1)
>>> nv, right.tolist(), down.tolist()
(9, [[1, 3, 0], [6, 7, 0]], [[2, 4, 5], [0, 0, 0]])
"""

from __future__ import annotations

import numpy as np

from . import relaxed_rows as rowblocks
from .model import Rules


def board_rows(puzzle, rules: Rules, free: list, endpoint: dict, code_of: dict, bits: int) -> tuple[int, tuple, list]:
    """One layer's variable count, its grids (the edge to the right of and below each cell, each
    inner cell's first code bit) and its base rows, from arrays over the board."""
    height, width, nst = puzzle.height, puzzle.width, rules.no_self_touch
    at = np.array(free, dtype=np.int64).reshape(-1, 2)
    is_free = np.zeros((height, width), dtype=bool)
    is_free[at[:, 0], at[:, 1]] = True
    exists = np.zeros((height, width, 2), dtype=bool)
    exists[:, :-1, 0] = is_free[:, :-1] & is_free[:, 1:]
    exists[:-1, :, 1] = is_free[:-1, :] & is_free[1:, :]
    ids = np.cumsum(exists.ravel()).reshape(height, width, 2) * exists  # (reading order, right before below)
    right, down = ids[..., 0], ids[..., 1]
    code = np.full((height, width), -1, dtype=np.int64)
    for cell, label in endpoint.items():
        code[cell] = code_of[label]
    inner = is_free & (code < 0)
    edges = int(exists.sum())
    first = np.where(inner, edges + 1 + (np.cumsum(inner.ravel()).reshape(height, width) - 1) * bits, 0)
    nv = edges + int(inner.sum()) * bits
    up, left = np.zeros_like(right), np.zeros_like(right)
    up[1:], left[:, 1:] = down[:-1], right[:, :-1]
    around = np.stack([up, left, right, down], axis=-1)  # each cell's edges, in increasing number
    degree = (around > 0).sum(axis=-1)
    blocks = []
    for end in (True, False):
        for n in range(5):
            chosen = is_free & ((code >= 0) == end) & (degree == n)
            if chosen.any():
                rows = around[chosen]
                blocks += rowblocks.degree_blocks(rows[rows > 0].reshape(len(rows), n), endpoint=end, cover=rules.cover_all)
    # each edge: its number, the codes of its two cells (-1: inner), their first code bits
    e, cu, cv, fu, fv = (np.concatenate([a[right > 0], b[down > 0]]) for a, b in (
        (right, down), (code, code), (np.pad(code[:, 1:], ((0, 0), (0, 1))), np.pad(code[1:], ((0, 1), (0, 0)))),
        (first, first), (np.pad(first[:, 1:], ((0, 0), (0, 1))), np.pad(first[1:], ((0, 1), (0, 0))))))
    ends = (cu >= 0) & (cv >= 0)
    blocks.append(-e[ends & (cu != cv)][:, None])  # endpoints of two labels: never joined
    if nst:
        blocks.append(e[ends & (cu == cv)][:, None])  # of one label: joined
    one = (cu >= 0) != (cv >= 0)
    if one.any():
        blocks += rowblocks.end_blocks(e[one], np.where(cu >= 0, fv, fu)[one], np.maximum(cu, cv)[one], bits, nst=nst)
    both = (cu < 0) & (cv < 0)
    if bits and both.any():
        blocks.append(rowblocks.copy_block(e[both], fu[both], fv[both], bits))
    top, bottom, side_left, side_right = right[:-1, :-1], right[1:, :-1], down[:-1, :-1], down[:-1, 1:]
    whole = (top > 0) & (bottom > 0) & (side_left > 0) & (side_right > 0)
    blocks.append(rowblocks.square_block(top[whole], bottom[whole], side_left[whole], side_right[whole], nst=nst))
    return nv, (right, down, first), blocks


def stack_graph(puzzle, free: list, endpoint: dict, bits: int) -> tuple[list, dict, dict, dict, int]:
    """A stack's edges (the steps its ``neighbours`` allows), the edge of each two cells, the
    (neighbour, edge) pairs around each cell, the label bits of each inner cell, and the
    variable count."""
    pairs = [(u, v) for u in free for v in sorted(puzzle.neighbours(u)) if u < v]
    edge: dict[tuple, int] = {}
    around: dict = {c: [] for c in free}
    for e, (u, v) in enumerate(pairs, 1):
        edge[(u, v)] = e
        around[u].append((v, e))
        around[v].append((u, e))
    nv = len(pairs)
    x: dict = {}
    for c in free:
        if c not in endpoint:
            x[c] = list(range(nv + 1, nv + 1 + bits))
            nv += bits
    return pairs, edge, around, x, nv


def stack_rows(puzzle, rules: Rules, endpoint: dict, code: dict, bits: int, edge: dict, around: dict, x: dict) -> list:
    """A stack's base rows: degrees, labels along edges, and the 2x2 squares of each layer."""
    return _degrees(rules, endpoint, around) + _labels(rules, endpoint, code, bits, edge, x) + _squares(puzzle, rules, edge)


def _degrees(rules: Rules, endpoint: dict, around: dict) -> list:
    groups: dict[tuple, list] = {}  # (endpoint or not, edges): the cells' edges
    for c, neighbours in around.items():
        es = [e for _, e in neighbours]
        groups.setdefault((c in endpoint, len(es)), []).append(es)
    blocks = []
    for (end, n), cells in sorted(groups.items()):
        edges = np.array(cells, dtype=np.int64).reshape(len(cells), n)
        blocks += rowblocks.degree_blocks(edges, endpoint=end, cover=rules.cover_all)
    return blocks


def _labels(rules: Rules, endpoint: dict, code: dict, bits: int, edge: dict, x: dict) -> list:
    nst = rules.no_self_touch
    units: list[list[int]] = []
    ends: list[tuple] = []  # (edge, first bit variable of the inner cell, the endpoint's code)
    inner: list[tuple] = []  # (edge, first bit variable of u, of v) for inner-inner edges
    for (u, v), e in edge.items():
        if u in endpoint and v in endpoint:
            if endpoint[u] != endpoint[v]:
                units.append([-e])
            elif nst:
                units.append([e])
        elif u in endpoint or v in endpoint:
            end, c = (u, v) if u in endpoint else (v, u)
            ends.append((e, x[c][0] if bits else 0, code[endpoint[end]]))
        elif bits:
            inner.append((e, x[u][0], x[v][0]))
    blocks: list = [units]
    if ends:
        e, first, k = np.array(ends, dtype=np.int64).T
        blocks += rowblocks.end_blocks(e, first, k, bits, nst=nst)
    if inner:
        e, a, b = np.array(inner, dtype=np.int64).T
        blocks.append(rowblocks.copy_block(e, a, b, bits))
    return blocks


def _squares(puzzle, rules: Rules, edge: dict) -> list:
    right = np.zeros((puzzle.layers, puzzle.height, puzzle.width), dtype=np.int64)  # the edge to the right of a cell, below it
    down = np.zeros_like(right)
    for ((z, r, c), v), e in edge.items():
        if v[-1] == c + 1 and v[-2] == r:
            right[z, r, c] = e
        elif v[-2] == r + 1 and v[-1] == c:
            down[z, r, c] = e
    top, bottom, left, side = right[:, :-1, :-1], right[:, 1:, :-1], down[:, :-1, :-1], down[:, :-1, 1:]
    whole = (top > 0) & (bottom > 0) & (left > 0) & (side > 0)  # (edges are numbered from 1)
    return [rowblocks.square_block(top[whole], bottom[whole], left[whole], side[whole], nst=rules.no_self_touch)]
