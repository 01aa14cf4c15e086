"""The multi-layer (3-D) Numberlink SAT encoding as an object: variables, clauses, decoding and
cycle cuts.

Rules in a sentence: connect the two cells of every label by a path of steps to one of the six
neighbouring cells (four on the layer, the same place one layer up or down); paths never share
a cell. The formula is the one-layer family's (:mod:`puzzlesat.numberlink.encoding`) with six
neighbours instead of four: edges between free cells one step apart are the answer variables;
degree clauses make every endpoint end one path and every other cell carry a path through it
(or, when cells may stay empty, carry one or stay empty); log-encoded label bits per cell make
every edge join cells of equal label; under no-self-touch rules adjacent cells of one label are
joined and no unit square (in any of the three planes) holds three path edges. Stray cycles are
cut lazily by :mod:`.solve`. ``encodings/numberlink-multilayer.md`` gives every clause family,
why it is sound, and its size formula (checked by ``tests/numberlink/test_multilayer_solve.py``).

Clauses are numpy blocks (one fixed width per block), fed to the solver in chunks with the
deadline checked between chunks, so a 72 x 72 x 8 board with 1,500 labels encodes in a second.

>>> from puzzlesat.numberlink.multilayer.model import Puzzle
>>> enc = encode(Puzzle.from_layers([["A.", "B."], ["A.", "B."]]))
>>> enc.num_edges, enc.label_bits, enc.num_vars   # 12 edges, then 1 bit per inner cell
(12, 1, 16)
>>> from puzzlesat.sat import SatSolver
>>> with SatSolver(enc.clauses()) as s:
...     s.solve()
...     paths, cycles = enc.components(s.model())
True
>>> paths["A"], cycles
([(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 0)], [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

import numpy as np

from ...sat import VarPool
from ...timing import Deadline
from ..encoding import FEED_CHUNK, ClauseBlocks, EncodingTimeout, edge_labels, walk_edges
from ..model import DEFAULT_RULES, Rules
from .model import Cell, Puzzle, Solution

__all__ = ["Encoding", "EncodingTimeout", "encode", "via_labels", "FEED_CHUNK"]

# the six directions of ``Encoding.incident``'s columns (as model.STEPS): layer below, layer
# above, row above, row below, column left, column right
DIRECTIONS = ("below", "above", "up", "down", "left", "right")


@dataclass
class Encoding(ClauseBlocks):
    """A built formula for one multi-layer puzzle under one rule set (sizes, ``clauses``,
    ``feed`` and ``true_edges`` as for one layer: :class:`~puzzlesat.numberlink.encoding.ClauseBlocks`).

    Variable numbering (consecutive, from 1): the ``num_edges`` edge variables first (edges
    along a row, i.e. between columns c and c+1, in (layer, row, column) order; then edges
    between rows r and r+1; then edges between layers z and z+1), so the answer variables are
    exactly ``1..num_edges``; then ``label_bits`` bits per inner cell (a free cell that is not
    an endpoint, in reading order, layer first; an endpoint's code is a constant); then the
    auxiliary variables of the no-self-touch clauses, if any (see ``encodings/``). Cells are
    numbered flat, ``z*H*W + r*W + c``. ``blocks`` are the clauses, each an (m, width) int
    array of literals.
    """

    puzzle: Puzzle
    rules: Rules
    pool: VarPool
    edge_cells: np.ndarray          # (E, 2) flat indices of each edge's two cells (lower index first)
    free: np.ndarray                # (Z*H*W,) True for free cells
    incident: np.ndarray            # (Z*H*W, 6) edge variables around each cell (DIRECTIONS), 0 if none
    label_bits: int
    label_codes: dict[str, int]
    blocks: list[tuple[str, np.ndarray]] = field(default_factory=list)
    contradiction: str | None = None  # a reason the formula is unsatisfiable on its face
    used_base: int = 0  # first "inner cell used" variable (may-leave-empty no-self-touch, many labels), 0 if none

    def edge_var(self, a: Cell, b: Cell) -> int:
        """The variable of the edge between free cells ``a`` and ``b`` one step apart.

        >>> from puzzlesat.numberlink.multilayer.model import Puzzle
        >>> encode(Puzzle.from_layers([["A."], [".A"]])).edge_var((0, 0, 1), (1, 0, 1))
        4
        """
        return self.edge_vars_of(Solution((("", (a, b)),)))[0]

    # -- decoding ----------------------------------------------------------------------------
    def components(self, model: Sequence[int]) -> tuple[dict[str, list[Cell]], list[list[int]]]:
        """Split the true edges of ``model`` into one path per label (cells from the pair's
        start) and stray cycles (each a list of edge indices, 0-based). A label whose start
        does not reach its end by the true edges gets the cells walked so far (verify then
        rejects it)."""
        return self.components_of(self.true_edges(model))

    def components_of(self, edges: np.ndarray) -> tuple[dict[str, list[Cell]], list[list[int]]]:
        """:meth:`components` for the true edges given as 0-based indices."""
        starts = [self._flat(pair.start) for pair in self.puzzle.pairs]
        walks, cycles = walk_edges(self.incident, self.edge_cells, self.num_edges, edges, starts)
        return {pair.label: self._cells(cells) for pair, cells in zip(self.puzzle.pairs, walks)}, cycles

    def decode(self, model: Sequence[int]) -> Solution:
        """The answer in ``model``, dropping any stray cycles (check them with :meth:`components`)."""
        paths, _ = self.components(model)
        return Solution(tuple((label, tuple(cells)) for label, cells in paths.items()))

    def edge_vars_of(self, solution: Solution) -> list[int]:
        """The edge variables used by the paths of ``solution`` (its answer literals)."""
        steps = [(self._flat(a), self._flat(b)) for _, cells in solution.paths for a, b in zip(cells, cells[1:])]
        if not steps:
            return []
        a, b = np.array(steps, dtype=np.int64).T
        if (a < 0).any() or (a >= len(self.incident)).any():
            raise ValueError("a step of the answer starts off the board")
        candidates = self.incident[a]  # (n, 6)
        across = self.edge_cells[np.maximum(candidates - 1, 0)].sum(axis=2) - a[:, None]
        match = (candidates > 0) & (across == b[:, None])
        if not match.any(axis=1).all():
            bad = int(np.flatnonzero(~match.any(axis=1))[0])
            raise ValueError(f"no edge between cells {self._cells([int(a[bad])])[0]} and {self._cells([int(b[bad])])[0]}")
        return candidates[match].tolist()

    # -- cycle cuts --------------------------------------------------------------------------
    def cycle_cuts(self, cycles: list[list[int]], *, max_edges_per_cycle: int = 16) -> list[list[int]]:
        """Clauses that cut stray cycles and are satisfied by every valid answer.

        For a cycle through the cell set S (no endpoint in S): every valid answer that uses a
        cell of S leaves S by some edge of its boundary B(S) (the path through that cell ends at
        endpoints outside S). Cover-all: every cell is used, so the clause is OR(B(S)).
        May-leave-empty: for (up to ``max_edges_per_cycle``) edges e of the cycle, -e OR B(S).
        """
        cuts: list[list[int]] = []
        for cycle in cycles:
            cells = np.unique(self.edge_cells[cycle].ravel())
            touching = np.unique(self.incident[cells].ravel())
            touching = touching[touching > 0]
            inside = np.isin(self.edge_cells[touching - 1], cells)
            boundary = touching[inside.sum(axis=1) == 1].tolist()
            if self.rules.cover_all:
                cuts.append(boundary)
            else:
                step = max(1, len(cycle) // max_edges_per_cycle)
                cuts.extend([-(e + 1)] + boundary for e in cycle[::step])
        return cuts

    # -- helpers -----------------------------------------------------------------------------
    def _flat(self, cell: Cell) -> int:
        p = self.puzzle
        z, r, c = cell
        if not p.on_board(cell):
            return -1
        return (z * p.height + r) * p.width + c

    def _cells(self, flat: list[int]) -> list[Cell]:
        p = self.puzzle
        out = []
        for f in flat:
            zr, c = divmod(f, p.width)
            z, r = divmod(zr, p.height)
            out.append((z, r, c))
        return out


def label_codes(puzzle: Puzzle, rules: Rules) -> tuple[dict[str, int], int]:
    """Each label's code and the number of label bits: codes ``0..K-1`` in the puzzle's pair
    order, or ``1..K`` under may-leave-empty + no-self-touch (0: "no label"); the bits are the
    bit length of the largest code.

    >>> from puzzlesat.numberlink.multilayer.model import Puzzle
    >>> label_codes(Puzzle.from_layers([["AB", "CC", "AB"]]), Rules(cover_all=False, no_self_touch=True))
    ({'A': 1, 'B': 2, 'C': 3}, 2)
    """
    reserve_empty = (not rules.cover_all) and rules.no_self_touch
    codes = {label: i + (1 if reserve_empty else 0) for i, label in enumerate(puzzle.labels)}
    return codes, int(max(codes.values(), default=0)).bit_length()


def uses_bit_differs(num_labels: int, label_bits: int) -> bool:
    """No-self-touch rules: whether "adjacent inner cells differ" is written with one "bit i
    differs" variable per bit (many labels) rather than one clause per label code."""
    return num_labels > 2 * label_bits + 1


def encode(puzzle: Puzzle, rules: Rules = DEFAULT_RULES, *, deadline: Deadline | None = None) -> Encoding:
    """Build the formula of ``puzzle`` under ``rules`` (raises :class:`EncodingTimeout` when
    ``deadline`` passes between steps).

    >>> from puzzlesat.numberlink.multilayer.model import Puzzle
    >>> enc = encode(Puzzle.from_layers([["A.", ".."], ["..", ".A"]]), Rules(no_self_touch=True))
    >>> enc.num_edges, enc.clause_counts()["square-at-most-two"]   # 6 unit squares, 4 clauses each
    (12, 24)
    """

    def check() -> None:
        if deadline is not None and deadline.expired():
            raise EncodingTimeout()

    layers, height, width = puzzle.layers, puzzle.height, puzzle.width
    size = layers * height * width
    free3 = puzzle.free_mask()
    flat = np.arange(size, dtype=np.int64).reshape(layers, height, width)

    # edges: along rows (x), then between rows (y), then between layers (z); ids 1..E
    xmask = free3[:, :, :-1] & free3[:, :, 1:]
    ymask = free3[:, :-1, :] & free3[:, 1:, :]
    zmask = free3[:-1] & free3[1:]
    via_link = np.zeros(zmask.shape, dtype=bool)  # (z, r, c) and (z + 1, r, c) are cells of one via
    if puzzle.vias:
        # a path changes layer only inside a via, and a via's inner cells have no edge on their layer
        via_inner = np.zeros(free3.shape, dtype=bool)
        for via in puzzle.vias:
            for cell in via.cells[:-1]:
                via_link[cell] = True
            for cell in via.inner_cells:
                via_inner[cell] = True
        zmask &= via_link
        xmask &= ~(via_inner[:, :, :-1] | via_inner[:, :, 1:])
        ymask &= ~(via_inner[:, :-1, :] | via_inner[:, 1:, :])
    nx, ny, nz = int(xmask.sum()), int(ymask.sum()), int(zmask.sum())
    xid = np.zeros(xmask.shape, dtype=np.int64)
    yid = np.zeros(ymask.shape, dtype=np.int64)
    zid = np.zeros(zmask.shape, dtype=np.int64)
    xid[xmask] = np.arange(1, nx + 1)
    yid[ymask] = np.arange(nx + 1, nx + ny + 1)
    zid[zmask] = np.arange(nx + ny + 1, nx + ny + nz + 1)
    edge_cells = np.concatenate([
        np.stack([flat[:, :, :-1][xmask], flat[:, :, 1:][xmask]], axis=1),
        np.stack([flat[:, :-1, :][ymask], flat[:, 1:, :][ymask]], axis=1),
        np.stack([flat[:-1][zmask], flat[1:][zmask]], axis=1),
    ]).reshape(-1, 2)
    num_edges = nx + ny + nz

    pool = VarPool()
    pool.reserve(num_edges)

    padz = np.zeros((layers + 1, height, width), dtype=np.int64)
    padz[1:layers] = zid
    pady = np.zeros((layers, height + 1, width), dtype=np.int64)
    pady[:, 1:height] = yid
    padx = np.zeros((layers, height, width + 1), dtype=np.int64)
    padx[:, :, 1:width] = xid
    incident = np.stack([padz[:-1], padz[1:], pady[:, :-1], pady[:, 1:], padx[:, :, :-1], padx[:, :, 1:]], axis=-1).reshape(size, 6)
    free = free3.ravel()

    codes, label_bits = label_codes(puzzle, rules)
    enc = Encoding(puzzle, rules, pool, edge_cells, free, incident, label_bits, codes)
    blocks = enc.blocks
    code_of = np.full(size, -1, dtype=np.int64)
    for pair in puzzle.pairs:
        for cell in (pair.start, pair.end):
            code_of[enc._flat(cell)] = codes[pair.label]
    is_end = code_of >= 0
    inner = free & ~is_end

    # -- degree --------------------------------------------------------------------------------
    degree_cap = (incident > 0).sum(axis=1)
    compact = np.take_along_axis(incident, np.argsort(incident == 0, axis=1, kind="stable"), axis=1)  # present edges first
    for n in range(7):
        check()
        rows = compact[is_end & (degree_cap == n)][:, :n]
        if len(rows):
            if n == 0:
                enc.contradiction = "an endpoint has no free neighbour"
            else:
                blocks.append(("endpoint-at-least-one", rows))
                pairs = list(combinations(range(n), 2))
                if pairs:
                    blocks.append(("endpoint-at-most-one", np.concatenate([-rows[:, list(p)] for p in pairs])))
        rows = compact[inner & (degree_cap == n)][:, :n]
        if len(rows) == 0:
            continue
        triples = list(combinations(range(n), 3))
        if triples:
            blocks.append(("cell-at-most-two", np.concatenate([-rows[:, list(t)] for t in triples])))
        if rules.cover_all:
            if n < 2:
                enc.contradiction = "a free cell has fewer than two free neighbours (cover-all)"
                continue
            blocks.append(("cell-at-least-two", np.concatenate([np.delete(rows, i, axis=1) for i in range(n)])))
        elif n >= 1:
            blocks.append(("cell-not-one", np.concatenate(
                [np.concatenate([-rows[:, [i]], np.delete(rows, i, axis=1)], axis=1) for i in range(n)])))
    check()

    # -- labels --------------------------------------------------------------------------------
    b = label_bits
    inner_count = int(inner.sum())
    bit_base = pool.reserve(inner_count * b)
    labels = edge_labels(edge_cells, code_of, inner, bit_base, b)
    blocks.extend(labels.blocks)
    e_ii, ub, vb, e_ei, ei_bits = labels.e_ii, labels.ub, labels.vb, labels.e_ei, labels.ei_bits
    u_code, v_code, edge_ids = labels.u_code, labels.v_code, labels.edge_ids
    # every inner cell's code is at most the largest label code: for each 0 bit i of the top
    # code C, -x_i OR (-x_j for the 1 bits j > i of C)
    top = max(codes.values(), default=0)
    inner_bits = labels.inner_bits
    for i in range(b):
        if not (top >> i) & 1:
            higher = [j for j in range(i + 1, b) if (top >> j) & 1]
            blocks.append(("code-in-range", -inner_bits[:, [i] + higher]))
    check()

    if puzzle.vias:
        _vias(enc, zid[via_link], inner, bit_base)
    if rules.no_self_touch:
        _no_self_touch(enc, inner, e_ii, ub, vb, e_ei, ei_bits, u_code, v_code, edge_ids, compact, degree_cap, check)
    _squares(enc, rules.no_self_touch, xid, yid, zid)
    check()
    enc.blocks[:] = [(name, block) for name, block in blocks if len(block)]
    return enc


def via_labels(puzzle: Puzzle) -> dict[str, list[str]]:
    """For each via, the labels that may pass through it: those whose ends lie on its first
    and its last layer (a path passes one via at most and changes layer nowhere else).

    >>> from .model import Via
    >>> p = Puzzle.from_layers([["A.B", "..B"], ["...", ".A."]], vias=[Via("a", [(0, 0, 1), (1, 0, 1)])])
    >>> via_labels(p)
    {'a': ['A']}
    """
    return {via: [pair.label for pair in puzzle.pairs if sorted((pair.start[0], pair.end[0])) == list(via_span)]
            for via, via_span in ((via.name, via.layer_span) for via in puzzle.vias)}


def _vias(enc: Encoding, via_edges: np.ndarray, inner: np.ndarray, bit_base: int) -> None:
    """Every via is passed by a path (its edges are on), by a label whose ends lie on the via's
    first and last layers, and no two vias by one label."""
    blocks, b, puzzle = enc.blocks, enc.label_bits, enc.puzzle
    blocks.append(("via-edge", via_edges[:, None]))
    index = np.cumsum(inner) - 1  # a cell's row among the inner cells (via cells are inner)
    top_bits = {via.name: bit_base + int(index[enc._flat(via.cells[0])]) * b + np.arange(b, dtype=np.int64)
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


def _no_self_touch(enc: Encoding, inner, e_ii, ub, vb, e_ei, ei_bits, u_code, v_code, edge_ids, compact, degree_cap, check) -> None:
    """Adjacent cells of one label are joined by an edge (one clause family per case)."""
    blocks, pool, b = enc.blocks, enc.pool, enc.label_bits
    codes = sorted(enc.label_codes.values())
    if uses_bit_differs(len(codes), b):
        # b "bit i differs" variables per inner-inner edge:
        # e OR d_0 OR ... OR d_{b-1} [OR -used_u OR -used_v];  d_i -> (u_i OR v_i);  d_i -> (-u_i OR -v_i)
        diff_base = pool.reserve(len(e_ii) * b)
        d = diff_base + np.arange(len(e_ii) * b, dtype=np.int64).reshape(len(e_ii), b)
        if enc.rules.cover_all:
            blocks.append(("no-edge-some-bit-differs", np.concatenate([e_ii, d], axis=1)))
        else:
            # may-leave-empty: only cells on paths must differ; used[c] <-> some edge at c
            inner_count = int(inner.sum())
            used_of = np.zeros(len(inner), dtype=np.int64)
            enc.used_base = pool.reserve(inner_count)
            used_of[inner] = enc.used_base + np.arange(inner_count, dtype=np.int64)
            e_cells = enc.edge_cells[e_ii[:, 0] - 1]
            blocks.append(("no-edge-some-bit-differs", np.concatenate(
                [e_ii, -used_of[e_cells[:, 0]][:, None], -used_of[e_cells[:, 1]][:, None], d], axis=1)))
            for n in range(7):
                rows = compact[inner & (degree_cap == n)][:, :n]
                if len(rows) == 0:
                    continue
                used = used_of[inner & (degree_cap == n)][:, None]
                blocks.append(("used-has-edge", np.concatenate([-used, rows], axis=1)))
                if n:
                    blocks.append(("edge-uses-cell", np.stack([-rows.T.ravel(), np.tile(used[:, 0], n)], axis=1)))
        both = np.empty((len(e_ii), b, 2, 3), dtype=np.int64)
        both[:, :, 0, 0] = -d
        both[:, :, 0, 1] = ub
        both[:, :, 0, 2] = vb
        both[:, :, 1, 0] = -d
        both[:, :, 1, 1] = -ub
        both[:, :, 1, 2] = -vb
        blocks.append(("bit-differs", both.reshape(-1, 3)))
    else:
        # no edge => labels differ: for each label code k, e OR not(u = k) OR not(v = k)
        parts = []
        for code in codes:
            check()
            sign = -np.where((np.array([code]) >> np.arange(b)) & 1, 1, -1)
            parts.append(np.concatenate([e_ii, ub * sign, vb * sign], axis=1))
        blocks.append(("no-edge-different-labels", np.concatenate(parts) if parts else np.zeros((0, 1 + 2 * b), dtype=np.int64)))
    # endpoint - inner: no edge => the inner cell does not have the endpoint's code
    blocks.append(("no-edge-not-endpoint-label", np.concatenate([e_ei, -ei_bits], axis=1)))
    # two adjacent endpoints of one label are joined directly
    ee_same = (u_code >= 0) & (u_code == v_code)
    blocks.append(("adjacent-endpoints-joined", edge_ids[ee_same][:, None]))
    check()


def _squares(enc: Encoding, at_most_two: bool, xid: np.ndarray, yid: np.ndarray, zid: np.ndarray) -> None:
    """The four edges of every unit square of free cells, in the three planes."""
    sides = []
    if xid.shape[1] >= 2 and yid.shape[2] >= 2:  # on a layer: rows r, r+1 and columns c, c+1
        sides.append((xid[:, :-1, :], xid[:, 1:, :], yid[:, :, :-1], yid[:, :, 1:]))
    if xid.shape[0] >= 2 and zid.shape[2] >= 2:  # upright, along a row: columns c, c+1 and layers z, z+1
        sides.append((xid[:-1], xid[1:], zid[:, :, :-1], zid[:, :, 1:]))
    if yid.shape[0] >= 2 and zid.shape[1] >= 2:  # upright, across rows: rows r, r+1 and layers z, z+1
        sides.append((yid[:-1], yid[1:], zid[:, :-1, :], zid[:, 1:, :]))
    fours = []
    for a, b, c, d in sides:
        square = (a > 0) & (b > 0) & (c > 0) & (d > 0)
        fours.append(np.stack([a[square], b[square], c[square], d[square]], axis=1))
    four = np.concatenate(fours) if fours else np.zeros((0, 4), dtype=np.int64)
    if len(four):
        if at_most_two:
            enc.blocks.append(("square-at-most-two", np.concatenate([-four[:, list(t)] for t in combinations(range(4), 3)])))
        else:
            enc.blocks.append(("square-not-four", -four))
