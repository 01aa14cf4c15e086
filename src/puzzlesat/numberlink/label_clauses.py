"""The label clauses of the Numberlink formula, on any board (flat cell numbers and edge ids
of :class:`~puzzlesat.numberlink.board.Board`): log-encoded labels (:func:`edge_labels`, the
default) or one variable per label and cell (:func:`onehot_labels`); every edge joins cells of
equal label (``encodings/numberlink.md``).

>>> import numpy as np
>>> labels = edge_labels(np.array([[0, 1], [1, 2]]), np.array([0, -1, 0]), np.array([False, True, False]), 1, 1)
>>> [(name, block.tolist()) for name, block in labels.blocks if len(block)]
[('edge-endpoint-label', [[-1, -1], [-2, -1]])]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .clause_blocks import bits_equal_to

if TYPE_CHECKING:  # (the encoding imports this module)
    from .encoding import Encoding
    from .model import Rules


@dataclass(frozen=True)
class EdgeLabels:
    """The label clauses of every edge formula (one layer or several), and the arrays the
    no-self-touch clauses go on to use: ``e_ii`` the (n, 1) inner-inner edge ids with ``ub``,
    ``vb`` their cells' bits; ``e_ei`` the endpoint-inner edge ids with ``ei_bits``, the inner
    cell's bits signed by the endpoint's code."""

    blocks: list[tuple[str, np.ndarray]]
    edge_ids: np.ndarray
    u_code: np.ndarray
    v_code: np.ndarray
    e_ii: np.ndarray
    ub: np.ndarray
    vb: np.ndarray
    e_ei: np.ndarray
    ei_bits: np.ndarray
    inner_bits: np.ndarray


def edge_labels(edge_cells: np.ndarray, code_of: np.ndarray, inner: np.ndarray, bit_base: int, b: int) -> EdgeLabels:
    """Log-encoded labels on flat cells: ``b`` bits per ``inner`` cell from ``bit_base`` (an
    endpoint's code, ``code_of`` >= 0, is a constant substituted into its edges' clauses); every
    edge joins cells of equal label (``encodings/numberlink.md``)."""
    cell_bits = np.zeros((len(code_of), b), dtype=np.int64)
    cell_bits[inner] = bit_base + np.arange(int(inner.sum()), dtype=np.int64)[:, None] * b + np.arange(b)
    edge_ids = np.arange(1, len(edge_cells) + 1, dtype=np.int64)
    u_code, v_code = code_of[edge_cells[:, 0]], code_of[edge_cells[:, 1]]
    blocks = []
    # inner - inner edges: e -> (u_i <-> v_i)
    ii = (u_code < 0) & (v_code < 0)
    e_ii = edge_ids[ii][:, None]
    ub, vb = cell_bits[edge_cells[ii, 0]], cell_bits[edge_cells[ii, 1]]
    eq = np.empty((len(e_ii), b, 2, 3), dtype=np.int64)
    eq[:, :, 0, 0] = -e_ii
    eq[:, :, 0, 1] = -ub
    eq[:, :, 0, 2] = vb
    eq[:, :, 1, 0] = -e_ii
    eq[:, :, 1, 1] = ub
    eq[:, :, 1, 2] = -vb
    blocks.append(("edge-equal-labels", eq.reshape(-1, 3)))
    # endpoint - inner edges: e -> the inner cell has the endpoint's code (b binary clauses)
    ei = (u_code >= 0) != (v_code >= 0)
    e_ei = edge_ids[ei][:, None]
    ei_code = np.maximum(u_code[ei], v_code[ei])
    ei_bits = cell_bits[np.where(u_code[ei] >= 0, edge_cells[ei, 1], edge_cells[ei, 0])] * bits_equal_to(ei_code, b)
    blocks.append(("edge-endpoint-label", np.stack([np.repeat(-e_ei[:, 0], b), ei_bits.reshape(-1)], axis=1)))
    # endpoint - endpoint edges of different labels are never used
    ee_diff = (u_code >= 0) & (v_code >= 0) & (u_code != v_code)
    blocks.append(("edge-endpoints-differ", -edge_ids[ee_diff][:, None]))
    return EdgeLabels(blocks, edge_ids, u_code, v_code, e_ii, ub, vb, e_ei, ei_bits, cell_bits[inner])


def onehot_labels(enc: "Encoding", rules: "Rules", base: int) -> None:
    """One variable x[c, k] per inner cell c and label k: every inner cell has some label; an
    edge makes labels equal; (no-self-touch) no edge makes them differ."""
    board, k = enc.puzzle.board, enc.label_bits
    blocks, edge_cells = enc.blocks, enc.edge_cells
    code_of = board.code  # (one-hot codes are the label indexes, 0..K-1)
    inner = board.free & (code_of < 0)
    x = np.zeros((board.num_cells, k), dtype=np.int64)
    x[inner] = base + np.arange(int(inner.sum()), dtype=np.int64)[:, None] * k + np.arange(k)
    edge_ids = np.arange(1, enc.num_edges + 1, dtype=np.int64)
    u_code, v_code = code_of[edge_cells[:, 0]], code_of[edge_cells[:, 1]]
    if k and rules.cover_all:
        blocks.append(("cell-some-label", x[inner]))
    ii = (u_code < 0) & (v_code < 0)
    e_ii = edge_ids[ii][:, None, None]
    ux, vx = x[edge_cells[ii, 0]][:, :, None], x[edge_cells[ii, 1]][:, :, None]
    e_b = np.broadcast_to(e_ii, ux.shape)
    blocks.append(("edge-equal-labels", np.concatenate([
        np.concatenate([-e_b, -ux, vx], axis=2).reshape(-1, 3),
        np.concatenate([-e_b, ux, -vx], axis=2).reshape(-1, 3)])))
    ei = (u_code >= 0) != (v_code >= 0)
    e_ei = edge_ids[ei]
    ei_code = np.maximum(u_code[ei], v_code[ei])
    ei_x = x[np.where(u_code[ei] >= 0, edge_cells[ei, 1], edge_cells[ei, 0])]  # (n, k)
    sign = np.where(np.arange(k)[None, :] == ei_code[:, None], 1, -1)
    blocks.append(("edge-endpoint-label", np.stack([np.repeat(-e_ei, k), (ei_x * sign).reshape(-1)], axis=1)))
    ee_diff = (u_code >= 0) & (v_code >= 0) & (u_code != v_code)
    blocks.append(("edge-endpoints-differ", -edge_ids[ee_diff][:, None]))
    if rules.no_self_touch:
        blocks.append(("no-edge-different-labels", np.concatenate([e_b, -ux, -vx], axis=2).reshape(-1, 3)))
        own = ei_x[np.arange(len(e_ei)), ei_code] if len(e_ei) else np.zeros(0, dtype=np.int64)
        blocks.append(("no-edge-not-endpoint-label", np.stack([e_ei, -own], axis=1)))
        ee_same = (u_code >= 0) & (u_code == v_code)
        blocks.append(("adjacent-endpoints-joined", edge_ids[ee_same][:, None]))
