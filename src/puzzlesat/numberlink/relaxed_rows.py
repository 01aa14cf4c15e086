"""The base rows of Numberlink's certificate formula (:mod:`.relaxed`) as numpy blocks: each
kind of row for all cells (edges, 2x2 squares) of one shape at once, a block of clauses of one
width. A board of 20 000 rows is built in a few numpy operations per kind instead of a Python
list per row, and the blocks are written, compared and handed to a solver as arrays
(encodings/certificates.md, "Numberlink's certificate formula").

>>> import numpy as np
>>> edges = np.array([[1, 2], [3, 4]])  # two cells of degree 2 (edges 1, 2 and 3, 4)
>>> [b.tolist() for b in degree_blocks(edges, endpoint=False, cover=True)]
[[], [[2], [1], [4], [3]]]
>>> [b.tolist() for b in degree_blocks(edges, endpoint=True, cover=True)]
[[[1, 2], [3, 4]], [[-1, -2], [-3, -4]]]
"""

from __future__ import annotations

from itertools import combinations

import numpy as np


def _pick(edges: np.ndarray, patterns: list[tuple], sign: int) -> np.ndarray:
    """Rows ``sign * edges[:, pattern]`` per cell and pattern, cell by cell."""
    width = len(patterns[0]) if patterns else 0
    if not patterns or not edges.shape[0] or not width:
        return np.zeros((edges.shape[0] * len(patterns), width), dtype=np.int64)
    picked = edges[:, np.array(patterns, dtype=np.int64)]  # (cells, patterns, width)
    return (sign * picked).reshape(-1, width)


def degree_blocks(edges: np.ndarray, *, endpoint: bool, cover: bool) -> list[np.ndarray]:
    """The degree rows of cells with ``n`` edges each (``edges``: cells x n edge numbers): an
    endpoint one edge (some edge, no two); an inner cell at most two (no three), and under
    ``cover`` at least two (for each edge, some other), else not exactly one (an edge on: some
    other on)."""
    n = edges.shape[1]
    if endpoint:
        return [edges.copy(), _pick(edges, list(combinations(range(n), 2)), -1)]
    blocks = [_pick(edges, list(combinations(range(n), 3)), -1)]
    others = [tuple(i for i in range(n) if i != k) for k in range(n)]
    if cover:
        blocks.append(_pick(edges, others, 1) if n else np.zeros((edges.shape[0], 0), dtype=np.int64))
    elif n:
        rest = _pick(edges, others, 1).reshape(edges.shape[0], n, n - 1)
        blocks.append(np.concatenate([-edges[:, :, None], rest], axis=2).reshape(-1, n))
    return blocks


def code_literals(first_bit: np.ndarray, code: np.ndarray, bits: int) -> np.ndarray:
    """The literals saying "the cell whose code bits start at ``first_bit`` has code ``code``"
    (cells x bits; least significant bit first).

    >>> code_literals(np.array([7]), np.array([2]), 2).tolist()
    [[-7, 8]]
    """
    bit = np.arange(bits)
    variables = first_bit[:, None] + bit
    return np.where((code[:, None] >> bit) & 1, variables, -variables)


def end_blocks(edge: np.ndarray, first_bit: np.ndarray, code: np.ndarray, bits: int, *, nst: bool) -> list[np.ndarray]:
    """An endpoint's edge sets its inner neighbour's code (``bits`` rows per edge: -e or that
    bit); under no-self-touch a neighbour with that code is joined (e or not that code)."""
    lits = code_literals(first_bit, code, bits)
    e = edge[:, None]
    blocks = [np.stack([np.broadcast_to(-e, lits.shape), lits], axis=-1).reshape(-1, 2)]
    if nst:
        blocks.append(np.concatenate([e, -lits], axis=1))
    return blocks


def copy_block(edge: np.ndarray, first_u: np.ndarray, first_v: np.ndarray, bits: int) -> np.ndarray:
    """An edge between two inner cells copies each bit both ways: -e -a b, -e a -b."""
    bit = np.arange(bits)
    a, b = first_u[:, None] + bit, first_v[:, None] + bit
    e = np.broadcast_to(-edge[:, None], a.shape)
    return np.stack([e, -a, b, e, a, -b], axis=-1).reshape(-1, 3)


def square_block(top: np.ndarray, bottom: np.ndarray, left: np.ndarray, right: np.ndarray, *, nst: bool) -> np.ndarray:
    """Per 2x2 square of four edges: not all four; under no-self-touch not three of them."""
    if not nst:
        return -np.stack([top, bottom, left, right], axis=1)
    rows = [(bottom, left, right), (top, left, right), (top, bottom, right), (top, bottom, left)]
    return -np.stack([np.stack(row, axis=1) for row in rows], axis=1).reshape(-1, 3)
