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

import gc
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterator, Sequence

import numpy as np

from ..grid import Cell
from ..sat import VarPool
from ..timing import Deadline
from .model import DEFAULT_RULES, Puzzle, Rules, Solution
from .stack_clauses import used_bit_differs, via_blocks

FEED_CHUNK = 250_000  # clauses converted to Python lists and handed to the solver at a time


class EncodingTimeout(Exception):
    """The deadline passed while the formula was being built or fed to the solver."""


class ClauseBlocks:
    """What every Numberlink formula object shares (one layer or several): clause blocks, their
    sizes, and feeding them to a solver. The dataclasses that inherit it hold ``pool``,
    ``edge_cells``, ``blocks`` and ``contradiction``; their edge variables come first, from 1."""

    pool: VarPool
    edge_cells: np.ndarray
    blocks: list[tuple[str, np.ndarray]]
    contradiction: str | None
    deferred: "DeferredTouch | None" = None  # rows that feed() leaves out (one layer: encode(..., defer_touch=True))
    released: "dict[str, int] | None" = None  # clauses per family fed and dropped by feed(..., release=True)

    # -- sizes -------------------------------------------------------------------------------
    @property
    def num_edges(self) -> int:
        return len(self.edge_cells)

    @property
    def num_vars(self) -> int:
        return self.pool.top

    @property
    def num_clauses(self) -> int:
        return (sum(len(block) for _, block in self.blocks) + (1 if self.contradiction else 0)
                + (self.deferred.num_rows if self.deferred is not None else 0) + sum((self.released or {}).values()))

    def clause_counts(self) -> dict[str, int]:
        """Number of clauses per named family (as in ``encodings/numberlink.md``)."""
        out: dict[str, int] = dict(self.released or {})
        for name, block in self.blocks:
            out[name] = out.get(name, 0) + len(block)
        if self.deferred is not None:
            for name, count in self.deferred.counts().items():
                out[name] = out.get(name, 0) + count
        if self.contradiction:
            out["contradiction"] = 1
        return out

    @property
    def answer_vars(self) -> range:
        """The edge variables: an answer is exactly the set of its true edges."""
        return range(1, self.num_edges + 1)

    # -- clauses -----------------------------------------------------------------------------
    def clauses(self) -> Iterator[list[int]]:
        """Every clause as a list of literals (small boards; large ones use :meth:`feed`), the
        deferred no-self-touch rows (``encode(..., defer_touch=True)``) last."""
        if self.released:
            raise RuntimeError("the clauses were fed with release=True and are gone")
        if self.contradiction:
            yield []
        for _, block in self.blocks:
            yield from block.tolist()
        if self.deferred is not None:
            for _, block in self.deferred.rows(np.ones(len(self.deferred.edges), dtype=bool)):
                yield from block.tolist()

    def feed(self, solver, deadline: Deadline | None = None, *, release: bool = False) -> None:
        """Add every clause of ``blocks`` to ``solver`` (a :class:`~puzzlesat.sat.SatSolver`)
        in chunks, raising :class:`EncodingTimeout` between chunks once ``deadline`` has passed;
        the deferred no-self-touch rows (``encode(..., defer_touch=True)``) are not among them:
        :meth:`touch_clauses` gives those that a model needs. With ``release`` (huge formulas)
        each block is dropped once fed, so the arrays and the solver's copy never coexist whole;
        the sizes stay as they were, but :meth:`clauses` can no longer list them."""
        if self.contradiction:
            solver.add_clause([])
        # Python's cyclic garbage collector runs again and again while millions of clause lists
        # are made and scans every live object each time: off while feeding (encodings/numberlink.md,
        # "Notes from encoding.py")
        collecting = gc.isenabled()
        gc.disable()
        try:
            for i, (name, block) in enumerate(self.blocks):
                for start in range(0, len(block), FEED_CHUNK):
                    if deadline is not None and deadline.expired():
                        raise EncodingTimeout()
                    solver.add_clause_lists(block[start:start + FEED_CHUNK].tolist())
                if release:
                    self.released = self.released or {}
                    self.released[name] = self.released.get(name, 0) + len(block)
                    self.blocks[i] = (name, np.zeros((0, block.shape[1]), dtype=block.dtype))  # (not a view: that would keep it)
                    del block
            if release:
                self.blocks[:] = [(name, block) for name, block in self.blocks if len(block)]
        finally:
            if collecting:
                gc.enable()

    def touch_clauses(self, model: Sequence[int]) -> list[list[int]]:
        """The deferred no-self-touch rows (see :class:`DeferredTouch`) of every inner-inner
        edge that ``model`` breaks, not given before: the edge is off while the labels of its two
        cells agree. Empty when nothing is deferred or nothing is broken."""
        deferred = self.deferred
        if deferred is None:
            return []
        values = np.asarray(model, dtype=np.int64)
        true = np.zeros(max(self.num_vars, len(values)) + 1, dtype=bool)
        true[values[values > 0]] = True
        broken = ~true[deferred.edges] & (true[deferred.u_bits] == true[deferred.v_bits]).all(axis=1) & ~deferred.given
        if not broken.any():
            return []
        deferred.given |= broken
        return [row for _, block in deferred.rows(broken) for row in block.tolist()]

    # -- decoding ----------------------------------------------------------------------------
    def true_edges(self, model: Sequence[int]) -> np.ndarray:
        """Indices (0-based) of the edges set true in a solver model (a list of literals)."""
        values = np.asarray(model[: self.num_edges], dtype=np.int64)
        if len(values) < self.num_edges:  # variables the solver never saw are false
            values = np.concatenate([values, -np.arange(len(values) + 1, self.num_edges + 1)])
        return np.flatnonzero(values > 0)


@dataclass
class DeferredTouch:
    """No-self-touch rows held back from the solver (cover-all + no-self-touch, ``encode(...,
    defer_touch=True)``): per inner-inner edge ``e`` between cells ``u`` and ``v``, the rows that
    say "no edge => the labels differ" (``no-edge-some-bit-differs`` with its ``bit-differs``
    when ``diff_base`` numbers their ``d`` variables, else ``no-edge-different-labels``, one per
    label code). The rest of the formula (degrees, equal labels along edges, the 2x2 rule, the
    endpoint rows) seldom admits a model that breaks them: a path must go round a region holding
    whole paths to come back beside itself. So they are made and given to the solver only for
    the edges a model breaks (:meth:`ClauseBlocks.touch_clauses`), and the search asks again. Any
    answer satisfies them, so no answer is lost and every refutation holds. They belong to the
    formula all the same (its sizes and ``clauses()`` count them), but are never held in memory
    all at once."""

    edges: np.ndarray                # (E_ii,) edge variable of each inner-inner edge
    u_bits: np.ndarray               # (E_ii, b) label bits of its first cell
    v_bits: np.ndarray               # (E_ii, b) and of its second
    codes: tuple[int, ...] = ()      # the label codes (no-edge-different-labels rows), when diff_base is 0
    diff_base: int = 0               # the first d[e, i] variable (no-edge-some-bit-differs rows), or 0
    given: np.ndarray = field(init=False)  # (E_ii,) whether the edge's rows were given to the solver

    def __post_init__(self) -> None:
        self.given = np.zeros(len(self.edges), dtype=bool)

    @property
    def names(self) -> frozenset[str]:
        return frozenset({"no-edge-some-bit-differs", "bit-differs"} if self.diff_base else {"no-edge-different-labels"})

    def counts(self) -> dict[str, int]:
        """The number of rows of each family (all edges; families without a row left out)."""
        n, b = self.u_bits.shape
        counts = {"no-edge-some-bit-differs": n, "bit-differs": 2 * b * n} if self.diff_base else {"no-edge-different-labels": len(self.codes) * n}
        return {name: count for name, count in counts.items() if count}

    @property
    def num_rows(self) -> int:
        return sum(self.counts().values())

    def rows(self, picked: np.ndarray) -> list[tuple[str, np.ndarray]]:
        """The rows of the edges ``picked`` (a boolean mask over the inner-inner edges), named, in
        the order of the formula without deferring (families in turn; each in the order it is
        built: by code, then edge, for no-edge-different-labels; by edge for the others)."""
        e, ub, vb = self.edges[picked][:, None], self.u_bits[picked], self.v_bits[picked]
        b = ub.shape[1]
        if self.diff_base:
            # e OR d_0 OR ... OR d_{b-1};  d_i -> (u_i OR v_i);  d_i -> (-u_i OR -v_i)
            d = self.diff_base + np.flatnonzero(picked)[:, None] * b + np.arange(b)
            both = np.empty((len(e), b, 2, 3), dtype=np.int64)
            both[:, :, 0, 0] = -d
            both[:, :, 0, 1] = ub
            both[:, :, 0, 2] = vb
            both[:, :, 1, 0] = -d
            both[:, :, 1, 1] = -ub
            both[:, :, 1, 2] = -vb
            return [("no-edge-some-bit-differs", np.concatenate([e, d], axis=1)), ("bit-differs", both.reshape(-1, 3))]
        # for each label code c: e OR not(u = c) OR not(v = c)
        parts = [np.concatenate([e, ub * sign, vb * sign], axis=1) for sign in (-bits_equal_to(np.array([c]), b) for c in self.codes)]
        return [("no-edge-different-labels", np.concatenate(parts) if parts else np.zeros((0, 1 + 2 * b), dtype=np.int64))]


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
    onehot = labels == "onehot"

    def check() -> None:
        if deadline is not None and deadline.expired():
            raise EncodingTimeout()

    free = board.free_grid()
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

    for kind, mask in (("end", is_end & board.free), ("inner", ~is_end & board.free)):
        for n in range(incident.shape[1] + 1):
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
        _onehot_labels(enc, rules, bit_base)
        check()
    else:
        _log_labels(enc, rules, bit_base, check, defer_touch=defer_touch and not touch_selectors)
    if len(board.via_edges):
        via_blocks(enc, bit_base)
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


def bits_equal_to(code: np.ndarray, b: int) -> np.ndarray:
    """(n, b) signs: +1 where bit i of each code is 1, else -1."""
    return np.where((code[:, None] >> np.arange(b)) & 1, 1, -1).astype(np.int64)


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


def _squares(enc: Encoding, at_most_two: bool) -> None:
    """The four edges of every unit square of the board (:attr:`Board.squares`): at most two
    on (no-self-touch), else not all four."""
    four = enc.puzzle.board.squares
    if len(four):
        if at_most_two:
            enc.blocks.append(("square-at-most-two", -_columns(four, _TRIPLES[4])))
        else:
            enc.blocks.append(("square-not-four", -four))


def corner_move_clauses(enc: Encoding) -> list[tuple[str, np.ndarray]]:
    """May-leave-empty: a path turning at cell ``b`` of an all-free 2x2 block could turn at the
    block's cell ``e`` diagonal to ``b`` instead when ``e`` is empty (a *corner move*: the path
    keeps its length and stays valid). For the two diagonals of each block, with ``b`` the later
    cell in row-major order (bottom right, bottom left) and neither ``b`` nor ``e`` an endpoint,
    one clause "``b``'s two block edges are not both on, or some edge of ``e`` is on":
    ``-e1 OR -e2 OR`` the ``n(e)`` edges around ``e`` (``2 + n(e)`` literals).

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


def _onehot_labels(enc: Encoding, rules: Rules, base: int) -> None:
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
