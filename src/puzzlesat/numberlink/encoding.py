"""The Numberlink SAT encoding as an object: variables, clauses, decoding and cycle cuts.

Edges between orthogonally adjacent free cells are the answer variables; degree clauses make
every endpoint end one path and every other cell carry a path through it (or, when cells may
stay empty, carry one or stay empty); log-encoded label bits per cell make every edge join
cells of equal label. Stray cycles are cut lazily by :mod:`puzzlesat.numberlink.solve`
(see ``encodings/numberlink.md`` for the clauses exactly as built and their sizes).

Clauses are built as numpy blocks (one fixed width per block) and fed to the solver in
chunks, so even a 1002 x 1002 board never turns into tens of millions of Python lists at once.

>>> from puzzlesat.numberlink.model import Puzzle
>>> enc = encode(Puzzle.from_rows(["A.A", "B.B"]))
>>> enc.num_edges, enc.label_bits, enc.num_vars, enc.num_clauses
(7, 1, 9, 26)
>>> from puzzlesat.sat import SatSolver
>>> with SatSolver(enc.clauses()) as s:
...     s.solve()
...     paths, cycles = enc.components(s.model())
True
>>> paths["B"], cycles
([(1, 0), (1, 1), (1, 2)], [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

import numpy as np

from ..grid import Cell
from ..sat import VarPool
from ..timing import Deadline
from .model import DEFAULT_RULES, Puzzle, Rules, Solution
from .clause_blocks import FEED_CHUNK, ClauseBlocks, DeferredTouch, EncodingTimeout, bits_equal_to
from .label_clauses import edge_labels, onehot_labels
from .search_clauses import bump_clauses, corner_move_clauses, orientation_blocks
from .stack_clauses import code_in_range, used_bit_differs, via_blocks
from .walk import _edges_present_first, walk_edges

__all__ = ["Encoding", "encode", "EncodingTimeout", "ClauseBlocks", "DeferredTouch", "FEED_CHUNK", "walk_edges",
           "edge_labels", "bits_equal_to", "orientation_blocks", "corner_move_clauses", "bump_clauses"]


@dataclass
class Encoding(ClauseBlocks):
    """A built formula for one puzzle under one rule set (one layer or a stack: the puzzle's
    :class:`~puzzlesat.numberlink.board.Board`).

    Variable numbering (all consecutive, from 1): the ``num_edges`` edge variables first
    (numbered as the board's edges: along rows, then between rows, then between layers), then
    ``label_bits`` label bits for every inner cell (a free cell that is not an endpoint, in
    cell order; an endpoint's code is a constant). ``pool`` owns them (and any variable added
    later); ``blocks`` are the clauses, each an (m, width) int array of literals.
    """

    puzzle: Puzzle
    rules: Rules
    pool: VarPool
    edge_cells: np.ndarray          # (E, 2) cell numbers of each edge's two cells (Board.edge_cells)
    free_index: np.ndarray          # (board shape) index of each free cell among free cells, -1 if blocked
    incident: np.ndarray            # (N, 4 or 6) edge variables around each cell (Board.incident), 0 if none
    label_bits: int
    label_codes: dict[str, int]
    blocks: list[tuple[str, np.ndarray]] = field(default_factory=list)
    contradiction: str | None = None  # a reason the formula is unsatisfiable on its face
    touch_selectors: int = 0  # first "no touching at edge e" selector (encode(..., touch_selectors=True)), 0 if none
    used_base: int = 0  # first "inner cell used" variable (stacks, may-leave-empty no-self-touch, many labels), 0 if none

    def edge_var(self, a: Cell, b: Cell) -> int:
        """The variable of the edge between adjacent free cells ``a`` and ``b``."""
        return self.edge_vars_of(self._solution((("", (a, b)),)))[0]

    def components(self, model: Sequence[int]) -> tuple[dict[str, list[Cell]], list[list[int]]]:
        """Split the true edges of ``model`` into one path per label (cells from the pair's
        start) and stray cycles (each a list of edge indices). A label whose start does not
        reach its end by the true edges gets the cells walked so far (verify then rejects it)."""
        return self._components(self.true_edges(model))

    def edge_vars_of(self, solution: Solution) -> list[int]:
        """The edge variables used by the paths of ``solution`` (its answer literals)."""
        board = self.puzzle.board
        flat = board.flat
        steps = [(flat(a), flat(b)) for _, cells in solution.paths for a, b in zip(cells, cells[1:])]
        if not steps:
            return []
        a, b = np.array(steps, dtype=np.int64).T
        if board.layered and ((a < 0).any() or (a >= len(self.incident)).any()):
            raise ValueError("a step of the answer starts off the board")
        candidates = self.incident[a]  # (n, 4 or 6)
        across = self.edge_cells[np.maximum(candidates - 1, 0)].sum(axis=2) - a[:, None]
        match = (candidates > 0) & (across == b[:, None])
        if not match.any(axis=1).all():
            bad = int(np.flatnonzero(~match.any(axis=1))[0])
            first, second = board.cells([int(a[bad]), int(b[bad])])
            raise ValueError(f"no edge between cells {first} and {second}")
        return candidates[match].tolist()

    def decode(self, model: Sequence[int]) -> Solution:
        """The answer in ``model``, dropping any stray cycles (check them with :meth:`components`)."""
        paths, _ = self.components(model)
        return self._solution(tuple((label, tuple(cells)) for label, cells in paths.items()))

    def components_of(self, edges: np.ndarray) -> tuple[dict[str, list[Cell]], list[list[int]]]:
        """:meth:`components` for the true edges given as 0-based indices."""
        return self._components(edges)

    def _components(self, edges: np.ndarray) -> tuple[dict[str, list[Cell]], list[list[int]]]:
        board = self.puzzle.board
        walks, cycles = walk_edges(self.incident, self.edge_cells, self.num_edges, edges, board.starts.tolist())
        paths = {pair.label: board.cells(cells) for pair, cells in zip(self.puzzle.pairs, walks)}
        return paths, cycles

    def _solution(self, paths):
        """The puzzle's kind of answer made of ``paths`` ((label, cells) pairs)."""
        if self.puzzle.board.layered:
            from .multilayer.model import Solution as StackSolution  # (the stack's package imports this one)

            return StackSolution(paths)
        return Solution(paths)

    # -- cycle cuts --------------------------------------------------------------------------
    def cycle_cuts(self, cycles: list[list[int]], *, max_edges_per_cycle: int = 16) -> list[list[int]]:
        """Clauses that cut stray cycles and are satisfied by every valid answer.

        For a cycle through the cell set S (no endpoint in S): every valid answer that uses a
        cell of S leaves S by some edge of its boundary B(S) (the path through that cell ends at
        endpoints outside S). Cover-all: every cell is used, so the clause is OR(B(S)).
        May-leave-empty: for (up to ``max_edges_per_cycle``) edges e of the cycle, -e OR B(S).
        """
        if not cycles:
            return []
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
        return self.puzzle.board.flat(cell)


LABEL_ENCODINGS = ("log", "onehot")
# the columns of a cell's n edges (present first) that its degree clauses take, one row each
# (up to six edges a cell: four on its layer, one to each neighbouring layer)
_PAIRS = [np.array(list(combinations(range(n), 2)), dtype=np.int64).reshape(-1, 2) for n in range(7)]
_TRIPLES = [np.array(list(combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3) for n in range(7)]
_OTHERS = [np.array([[j for j in range(n) if j != i] for i in range(n)], dtype=np.int64).reshape(n, max(n - 1, 0)) for n in range(7)]


def _columns(rows: np.ndarray, index: np.ndarray) -> np.ndarray:
    """For each row of ``index`` (column numbers), those columns of every row of ``rows``: one
    block, grouped by the row of ``index`` (as concatenating ``rows[:, i]`` for each ``i``)."""
    return rows[:, index].swapaxes(0, 1).reshape(len(rows) * len(index), index.shape[1])


def encode(
    puzzle: Puzzle,
    rules: Rules = DEFAULT_RULES,
    *,
    labels: str = "log",
    deadline: Deadline | None = None,
    touch_selectors: bool = False,
    orientation: bool = False,
    no_corner_moves: bool = False,
    no_bumps: bool = False,
    defer_touch: bool = False,
) -> Encoding:
    """Build the formula of ``puzzle`` under ``rules`` (raises :class:`EncodingTimeout` when
    ``deadline`` passes between steps). ``labels``: "log" (the bit length of the largest label
    code per inner cell: ceil(log2 K) bits, or bit_length(K) under may-leave-empty + no-self-touch
    rules, where code 0 means "no label") or "onehot" (one variable per label per inner cell).

    ``touch_selectors`` (no-self-touch rules, log labels only): one more variable ``s[e]`` per
    edge, numbered from ``touch_selectors``; every no-self-touch clause about edge ``e`` gets
    ``-s[e]`` (a 2x2 clause: ``-s`` of each of its three edges) and the 2x2 "not four" clauses
    are added. With every ``s`` assumed true this is the no-self-touch formula; a false ``s[e]``
    lets paths touch themselves across ``e``, and with all false it is the default formula.

    ``orientation`` (cover-all rules): the direction variables of :func:`orientation_blocks`
    too (numbered after all others).

    ``no_corner_moves`` (may-leave-empty rules): no path turns at a cell whose diagonal
    neighbour in the 2x2 block it turns in is an empty inner cell earlier in row-major order
    (:func:`corner_move_clauses`). This drops answers, so it serves only the uniqueness test of
    ``solve.count``, where it is sound (encodings/numberlink.md). ``no_bumps`` (may-leave-empty
    rules), likewise: no path steps around an empty inner cell that it could run through, two
    cells shorter (:func:`bump_clauses`).

    ``defer_touch`` (cover-all + no-self-touch, log labels, no selectors): the rows "no edge =>
    the labels differ" stay in ``blocks`` but :meth:`Encoding.feed` leaves them out, and the
    search adds those of the edges a model breaks (:class:`DeferredTouch`)."""
    if labels not in LABEL_ENCODINGS:
        raise ValueError(f"labels must be one of {LABEL_ENCODINGS}")
    if touch_selectors and (not rules.no_self_touch or labels != "log"):
        raise ValueError("touch selectors belong to the no-self-touch formula with log labels")
    if (no_corner_moves or no_bumps) and rules.cover_all:
        raise ValueError("corner moves and bumps need empty cells: they belong to may-leave-empty rules")
    board = puzzle.board
    if (no_corner_moves or no_bumps) and board.layered:
        raise ValueError("corner moves and bumps are built for boards of one layer")
    if len(board.via_edges) and labels != "log":
        raise ValueError("the via clauses are built on log labels")
    onehot = labels == "onehot"

    def check() -> None:
        if deadline is not None and deadline.expired():
            raise EncodingTimeout()

    edge_cells, incident = board.edge_cells, board.incident  # edges numbered 1..E: along rows, between rows, between layers
    num_edges = board.num_edges

    pool = VarPool()
    pool.reserve(num_edges)

    free_count = int(board.free.sum())
    free_index = np.full(board.num_cells, -1, dtype=np.int64)
    free_index[board.free] = np.arange(free_count)

    # label codes: cover-all 0..K-1; may-leave-empty with no-self-touch keeps 0 for "no label"
    reserve_empty = (not rules.cover_all) and rules.no_self_touch and not onehot
    codes = {label: i + (1 if reserve_empty else 0) for i, label in enumerate(puzzle.labels)}
    top_code = max(codes.values(), default=0)
    label_bits = len(codes) if onehot else int(top_code).bit_length()
    inner_count = free_count - 2 * len(codes)
    bit_base = pool.reserve(inner_count * label_bits)

    # -- degree --------------------------------------------------------------------------------
    enc = Encoding(puzzle, rules, pool, edge_cells, free_index.reshape(board.shape), incident, label_bits, codes)
    blocks = enc.blocks
    degree_cap, compact = _edges_present_first(incident)  # present edges first
    is_end = board.is_end

    kinds = (("end", is_end & board.free), ("inner", ~is_end & board.free))
    sizes = range(incident.shape[1] + 1)
    # (a stack's formula takes the cells by number of edges first, as the multi-layer encoder
    # did: the solver is sensitive to clause order, encodings/numberlink-multilayer.md, "One formula over a graph")
    groups = [(kind, n) for n in sizes for kind in kinds] if board.layered else [(kind, n) for kind in kinds for n in sizes]
    for (kind, mask), n in groups:
        check()
        rows = compact[mask & (degree_cap == n)][:, :n]
        if len(rows) == 0:
            continue
        if kind == "end":
            if n == 0:
                enc.contradiction = "an endpoint has no free neighbour"
                continue
            blocks.append(("endpoint-at-least-one", rows))
            if n >= 2:
                blocks.append(("endpoint-at-most-one", -_columns(rows, _PAIRS[n])))
            continue
        if n >= 3:
            blocks.append(("cell-at-most-two", -_columns(rows, _TRIPLES[n])))
        if rules.cover_all:
            if n < 2:
                enc.contradiction = "a free cell has fewer than two free neighbours (cover-all)"
                continue
            blocks.append(("cell-at-least-two", _columns(rows, _OTHERS[n])))
        elif n >= 1:
            heads = -_columns(rows, np.arange(n)[:, None])
            blocks.append(("cell-not-one", np.concatenate([heads, _columns(rows, _OTHERS[n])], axis=1)))
    check()

    # -- labels ----------------------------------------------------------------------------------
    if onehot:
        onehot_labels(enc, rules, bit_base)
        check()
    else:
        _log_labels(enc, rules, bit_base, check, defer_touch=defer_touch and not touch_selectors)
    _squares(enc, rules.no_self_touch)
    if touch_selectors:
        _guard_no_touch(enc)
        _squares(enc, False)
    if orientation:
        blocks.extend(orientation_blocks(enc))
    if no_corner_moves:
        blocks.extend(corner_move_clauses(enc))
    if no_bumps:
        blocks.extend(bump_clauses(enc))
    check()
    enc.blocks[:] = [(name, block) for name, block in blocks if len(block)]
    return enc


def _log_labels(enc: Encoding, rules: Rules, bit_base: int, check, defer_touch: bool = False) -> None:
    board = enc.puzzle.board
    blocks, codes, pool, edge_cells = enc.blocks, enc.label_codes, enc.pool, enc.edge_cells
    label_bits = enc.label_bits
    # Label bits exist for free cells that are not endpoints ("inner" cells); an endpoint's code
    # is a constant, substituted into the clauses of its edges.
    b = label_bits
    index = board.code  # (the code of label i is i, or i + 1 when 0 means "no label")
    code_of = np.where(index >= 0, index + min(codes.values(), default=0), -1)
    inner = board.free & (code_of < 0)
    labels = edge_labels(edge_cells, code_of, inner, bit_base, b)
    blocks.extend(labels.blocks)
    e_ii, ub, vb, e_ei, ei_bits = labels.e_ii, labels.ub, labels.vb, labels.e_ei, labels.ei_bits
    u_code, v_code, edge_ids = labels.u_code, labels.v_code, labels.edge_ids
    if board.layered:
        blocks.extend(code_in_range(labels.inner_bits, max(codes.values(), default=0)))
    if len(board.via_edges):
        via_blocks(enc, bit_base)
    check()
    if rules.no_self_touch:
        label_code_list = tuple(sorted(codes.values()))
        many = len(label_code_list) > 2 * b + 1
        if many and not rules.cover_all and board.layered:
            # stacks (up to 1,500 labels in the ADC sets): the bit-differs form for
            # may-leave-empty too, where only cells on paths must differ
            used_bit_differs(enc, inner, e_ii, ub, vb)
        else:
            # "no edge => the labels differ" per inner-inner edge, by d[e, i] "bit i differs"
            # variables when there are many labels (cover-all): fewer clauses
            diff_base = pool.reserve(len(e_ii) * b) if rules.cover_all and many else 0
            rows = DeferredTouch(e_ii[:, 0], ub, vb, label_code_list, diff_base)
            if defer_touch and rules.cover_all:
                enc.deferred = rows
            else:
                blocks.extend(rows.rows(np.ones(len(e_ii), dtype=bool)))
        # endpoint - inner: no edge => the inner cell does not have the endpoint's code
        blocks.append(("no-edge-not-endpoint-label", np.concatenate([e_ei, -ei_bits], axis=1)))
        # two adjacent endpoints of one label are joined directly
        ee_same = (u_code >= 0) & (u_code == v_code)
        blocks.append(("adjacent-endpoints-joined", edge_ids[ee_same][:, None]))
        check()



# no-self-touch clause families whose first literal is the edge they are about
_EDGE_FIRST_NO_TOUCH = ("no-edge-some-bit-differs", "no-edge-different-labels", "no-edge-not-endpoint-label", "adjacent-endpoints-joined")


def _guard_no_touch(enc: Encoding) -> None:
    """Add ``-s[e]`` to every no-self-touch clause about edge ``e`` (``encode(touch_selectors=True)``)."""
    base = enc.pool.reserve(enc.num_edges)
    enc.touch_selectors = base
    for i, (name, block) in enumerate(enc.blocks):
        if name in _EDGE_FIRST_NO_TOUCH:
            enc.blocks[i] = (name, np.concatenate([block, -(base - 1 + np.abs(block[:, :1]))], axis=1))
        elif name == "square-at-most-two":
            enc.blocks[i] = (name, np.concatenate([block, -(base - 1 + np.abs(block))], axis=1))


def _squares(enc: Encoding, at_most_two: bool) -> None:
    """The four edges of every unit square of the board (:meth:`Board.squares`): at most two
    on (no-self-touch), else not all four."""
    four = enc.puzzle.board.squares()
    if len(four):
        if at_most_two:
            enc.blocks.append(("square-at-most-two", -_columns(four, _TRIPLES[4])))
        else:
            enc.blocks.append(("square-not-four", -four))
