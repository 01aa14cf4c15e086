"""What every Numberlink formula object shares: clause blocks (one fixed width per block),
their sizes, feeding them to a solver in chunks, and the no-self-touch rows held back until a
model breaks them (:class:`DeferredTouch`). The formula itself: :mod:`.encoding`.

>>> bits_equal_to(np.array([2, 3]), 2).tolist()
[[-1, 1], [1, 1]]
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Iterator, Sequence

import numpy as np

from ..sat import VarPool
from ..timing import Deadline

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
            return [("no-edge-some-bit-differs", np.concatenate([e, d], axis=1)), ("bit-differs", bit_differs_rows(d, ub, vb))]
        # for each label code c: e OR not(u = c) OR not(v = c)
        parts = [np.concatenate([e, ub * sign, vb * sign], axis=1) for sign in (-bits_equal_to(np.array([c]), b) for c in self.codes)]
        return [("no-edge-different-labels", np.concatenate(parts) if parts else np.zeros((0, 1 + 2 * b), dtype=np.int64))]


def bits_equal_to(code: np.ndarray, b: int) -> np.ndarray:
    """(n, b) signs: +1 where bit i of each code is 1, else -1."""
    return np.where((code[:, None] >> np.arange(b)) & 1, 1, -1).astype(np.int64)


def bit_differs_rows(d: np.ndarray, ub: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """The rows ``d_i -> (u_i OR v_i)`` and ``d_i -> (-u_i OR -v_i)`` ("bit i differs across the
    edge") for arrays of one row per edge and one column per bit, in that order per bit.

    >>> bit_differs_rows(np.array([[5]]), np.array([[1]]), np.array([[2]])).tolist()
    [[-5, 1, 2], [-5, -1, -2]]
    """
    both = np.empty((len(d), d.shape[1], 2, 3), dtype=np.int64)
    both[:, :, 0, 0] = -d
    both[:, :, 0, 1] = ub
    both[:, :, 0, 2] = vb
    both[:, :, 1, 0] = -d
    both[:, :, 1, 1] = -ub
    both[:, :, 1, 2] = -vb
    return both.reshape(-1, 3)
