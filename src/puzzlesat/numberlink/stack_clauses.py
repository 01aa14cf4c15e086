"""The clause families of the Numberlink formula that only stacks of layers have (the rest of
the formula is the one-layer one over the stack's graph, :mod:`puzzlesat.numberlink.encoding`):
the via rules of the ADC 2016 problems, label codes kept in range, and the no-self-touch rows
with "cell used" variables that stacks take under may-leave-empty rules when there are many
labels. Each clause family,
why it is sound and its size: ``encodings/numberlink-multilayer.md``.

>>> from puzzlesat.numberlink.multilayer.model import Puzzle, Via
>>> p = Puzzle.from_layers([["A.B", "..B"], ["...", ".A."]], vias=[Via("a", [(0, 0, 1), (1, 0, 1)])])
>>> via_labels(p)
{'a': ['A']}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .clause_blocks import bit_differs_rows

if TYPE_CHECKING:  # (the encoding imports this module)
    from .encoding import Encoding


def code_in_range(inner_bits: np.ndarray, top: int) -> list[tuple[str, np.ndarray]]:
    """Every inner cell's code is at most ``top``, the largest label code (``inner_bits``: the
    (I, b) label bits of the inner cells): for each 0 bit i of ``top``, ``-x_i OR (-x_j for the
    1 bits j > i of top)``. It keeps stray cycles from taking a code no label has, where the
    no-self-touch rows do not see them (encodings/numberlink-multilayer.md, "One formula over a graph").

    >>> [(name, block.tolist()) for name, block in code_in_range(np.array([[5, 6], [7, 8]]), 2)]
    [('code-in-range', [[-5, -6], [-7, -8]])]
    """
    b = inner_bits.shape[1]
    out = []
    for i in range(b):
        if not (top >> i) & 1:
            higher = [j for j in range(i + 1, b) if (top >> j) & 1]
            out.append(("code-in-range", -inner_bits[:, [i] + higher]))
    return out


def via_labels(puzzle) -> dict[str, list[str]]:
    """For each via of the stack ``puzzle``, the labels that may pass through it: those whose
    ends lie on its first and its last layer (a path passes one via at most and changes layer
    nowhere else)."""
    return {via: [pair.label for pair in puzzle.pairs if sorted((pair.start[0], pair.end[0])) == list(via_span)]
            for via, via_span in ((via.name, via.layer_span) for via in puzzle.vias)}


def via_blocks(enc: "Encoding", bit_base: int) -> None:
    """Every via is passed by a path (its edges are on), by a label whose ends lie on the via's
    first and last layers, and no two vias by one label (added to ``enc``'s blocks; ``bit_base``
    numbers the first inner cell's label bits)."""
    blocks, b, puzzle, board = enc.blocks, enc.label_bits, enc.puzzle, enc.puzzle.board
    blocks.append(("via-edge", board.via_edges[:, None]))
    inner = board.free & ~board.is_end
    index = np.cumsum(inner) - 1  # a cell's row among the inner cells (via cells are inner)
    top_bits = {via.name: bit_base + int(index[board.flat(via.cells[0])]) * b + np.arange(b, dtype=np.int64)
                for via in puzzle.vias}
    allowed = via_labels(puzzle)
    barred = []
    for via in puzzle.vias:
        for label, code in enc.label_codes.items():
            if label not in allowed[via.name]:
                if b == 0:
                    enc.contradiction = f"via {via.name!r} cannot be passed by the only line"
                    continue
                barred.append(np.where((code >> np.arange(b)) & 1, -1, 1) * top_bits[via.name])  # not(code)
    if barred:
        blocks.append(("via-line-allowed", np.array(barred, dtype=np.int64)))
    sharing = [(v, w) for i, v in enumerate(puzzle.vias) for w in puzzle.vias[i + 1:]
               if set(allowed[v.name]) & set(allowed[w.name])]
    if not sharing:
        return
    if b == 0:
        enc.contradiction = "two vias can only be passed by the one line"
        return
    # d_i: "bit i of the two vias' codes differs"; some d_i holds
    base = enc.pool.reserve(len(sharing) * b)
    d = base + np.arange(len(sharing) * b, dtype=np.int64).reshape(len(sharing), b)
    u = np.array([top_bits[v.name] for v, _ in sharing])
    w = np.array([top_bits[w.name] for _, w in sharing])
    blocks.append(("via-different-lines", d))
    both = np.stack([np.stack([-d, u, w], axis=-1), np.stack([-d, -u, -w], axis=-1)], axis=2)
    blocks.append(("via-bit-differs", both.reshape(-1, 3)))


def used_bit_differs(enc: "Encoding", inner: np.ndarray, e_ii: np.ndarray, ub: np.ndarray, vb: np.ndarray) -> None:
    """May-leave-empty no-self-touch with many labels: ``used[c]`` (some edge at inner cell c)
    and b "bit i differs" variables per inner-inner edge ``e``:
    ``e OR -used_u OR -used_v OR d_0 OR ... OR d_{b-1}``; ``d_i -> (u_i OR v_i)``;
    ``d_i -> (-u_i OR -v_i)`` (only cells on paths must differ)."""
    blocks, pool, b = enc.blocks, enc.pool, enc.label_bits
    d = pool.reserve(len(e_ii) * b) + np.arange(len(e_ii) * b, dtype=np.int64).reshape(len(e_ii), b)
    inner_count = int(inner.sum())
    used_of = np.zeros(len(inner), dtype=np.int64)
    enc.used_base = pool.reserve(inner_count)
    used_of[inner] = enc.used_base + np.arange(inner_count, dtype=np.int64)
    e_cells = enc.edge_cells[e_ii[:, 0] - 1]
    blocks.append(("no-edge-some-bit-differs", np.concatenate(
        [e_ii, -used_of[e_cells[:, 0]][:, None], -used_of[e_cells[:, 1]][:, None], d], axis=1)))
    present = enc.incident > 0
    degree = present.sum(axis=1)
    compact = np.take_along_axis(enc.incident, np.argsort(~present, axis=1, kind="stable"), axis=1)  # present edges first
    for n in range(enc.incident.shape[1] + 1):
        pick = inner & (degree == n)
        rows = compact[pick][:, :n]
        if len(rows) == 0:
            continue
        used = used_of[pick][:, None]
        blocks.append(("used-has-edge", np.concatenate([-used, rows], axis=1)))
        if n:
            blocks.append(("edge-uses-cell", np.stack([-rows.T.ravel(), np.tile(used[:, 0], n)], axis=1)))
    blocks.append(("bit-differs", bit_differs_rows(d, ub, vb)))
