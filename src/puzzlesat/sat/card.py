"""Cardinality constraints as clause lists, through :mod:`pysat.card`.

Each function returns clauses and touches no solver; auxiliary variables come from the pool.

>>> from puzzlesat.sat.pool import VarPool
>>> pool = VarPool(); xs = [pool.var("x", i) for i in range(3)]
>>> exactly_one(xs, pool)
[[1, 2, 3], [-1, -2], [-1, -3], [-2, -3]]
>>> at_most(xs, 3, pool)
[]
"""

from __future__ import annotations

from typing import Sequence

from pysat.card import CardEnc, EncType, ITotalizer

from ..errors import require_type
from ..grid import is_whole_number
from .pool import VarPool

Clause = list[int]


def _checked(pool: object, k: object = 0, name: str = "k") -> None:
    """TypeError naming the argument unless ``pool`` is a VarPool and ``k`` a whole number (a
    wrong pool failed only once pysat needed auxiliary variables, with an AttributeError)."""
    require_type(pool, VarPool, "pool", "auxiliary variables come from a puzzlesat.sat.VarPool")
    if not is_whole_number(k):
        raise TypeError(f"{name} must be a whole number of literals, not {type(k).__name__}")


def at_most_one(lits: Sequence[int], pool: VarPool) -> list[Clause]:
    """Clauses allowing at most one of ``lits`` true: pairwise for up to 6 literals, a
    sequential counter beyond (linear size, auxiliary variables from ``pool``).

    >>> pool = VarPool(); xs = [pool.var("x", i) for i in range(3)]
    >>> at_most_one(xs, pool)
    [[-1, -2], [-1, -3], [-2, -3]]
    >>> len(at_most_one([pool.var("y", i) for i in range(10)], pool)) > 0 and pool.top > 13
    True
    """
    _checked(pool)
    lits = list(lits)
    if len(lits) <= 1:
        return []
    if len(lits) <= 6:
        return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
    return CardEnc.atmost(lits, bound=1, vpool=pool.idpool, encoding=EncType.seqcounter).clauses


def exactly_one(lits: Sequence[int], pool: VarPool) -> list[Clause]:
    """Clauses making exactly one of ``lits`` true: one clause for "at least one", then
    :func:`at_most_one`.

    >>> pool = VarPool(); xs = [pool.var("x", i) for i in range(2)]
    >>> exactly_one(xs, pool)
    [[1, 2], [-1, -2]]
    """
    return [list(lits)] + at_most_one(lits, pool)


def at_most(lits: Sequence[int], k: int, pool: VarPool, *, encoding: int = EncType.seqcounter) -> list[Clause]:
    """Clauses allowing at most ``k`` of ``lits`` true, through :mod:`pysat.card` (``encoding``:
    a ``pysat.card.EncType``, sequential counter by default); no clause when ``k`` covers them
    all, the empty clause when ``k`` is negative.

    >>> pool = VarPool(); xs = [pool.var("x", i) for i in range(3)]
    >>> at_most(xs, 0, pool), at_most(xs, 3, pool)
    ([[-1], [-2], [-3]], [])
    >>> from puzzlesat.sat import SatSolver
    >>> with SatSolver(at_most(xs, 2, pool)) as s:   # all three true is refused, two are allowed
    ...     s.solve([1, 2, 3]), s.solve([1, 2])
    (False, True)
    """
    _checked(pool, k)
    lits = list(lits)
    if k >= len(lits):
        return []
    if k < 0:
        return [[]]
    if k == 0:
        return [[-x] for x in lits]
    if k == 1:
        return at_most_one(lits, pool)
    return CardEnc.atmost(lits, bound=k, vpool=pool.idpool, encoding=encoding).clauses


def at_least(lits: Sequence[int], k: int, pool: VarPool, *, encoding: int = EncType.seqcounter) -> list[Clause]:
    """Clauses making at least ``k`` of ``lits`` true (see :func:`at_most`); the empty clause
    when ``k`` exceeds their number.

    >>> pool = VarPool(); xs = [pool.var("x", i) for i in range(3)]
    >>> at_least(xs, 1, pool), at_least(xs, 4, pool)
    ([[1, 2, 3]], [[]])
    """
    _checked(pool, k)
    lits = list(lits)
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    if k == 1:
        return [lits]
    return CardEnc.atleast(lits, bound=k, vpool=pool.idpool, encoding=encoding).clauses


def exactly(lits: Sequence[int], k: int, pool: VarPool, *, encoding: int = EncType.seqcounter) -> list[Clause]:
    """Clauses making exactly ``k`` of ``lits`` true: :func:`at_most` and :func:`at_least`.

    >>> pool = VarPool(); xs = [pool.var("x", i) for i in range(4)]
    >>> from puzzlesat.sat import SatSolver, enumerate_models
    >>> with SatSolver(exactly(xs, 2, pool)) as s:   # C(4, 2) ways
    ...     len(enumerate_models(s, xs, limit=100)[0])
    6
    """
    return at_most(lits, k, pool, encoding=encoding) + at_least(lits, k, pool, encoding=encoding)


def counter(lits: Sequence[int], bound: int, pool: VarPool) -> tuple[list[Clause], list[int]]:
    """A totalizer over ``lits`` up to ``bound``: (clauses, outputs) where ``outputs[k]`` is
    true when more than ``k`` literals are true (k < min(bound, len(lits))). Assume
    ``-outputs[k]`` for "at most k" in one incremental solver, with a different k per call.

    >>> pool = VarPool(); xs = [pool.var("x", i) for i in range(4)]
    >>> clauses, more_than = counter(xs, 2, pool)
    >>> from puzzlesat.sat import SatSolver
    >>> with SatSolver(clauses) as s:   # x0 and x1 true, at most one true / any number
    ...     s.solve([1, 2, -more_than[1]]), s.solve([1, -more_than[1]]), s.solve([1, 2, 3])
    (False, True, True)
    """
    _checked(pool, bound, "bound")
    lits = list(lits)
    if not lits or bound <= 0:
        return [], []
    totalizer = ITotalizer(lits=lits, ubound=min(bound, len(lits)), top_id=pool.top)
    try:
        if totalizer.top_id > pool.top:
            pool.reserve(totalizer.top_id - pool.top)
        return [list(c) for c in totalizer.cnf.clauses], list(totalizer.rhs)
    finally:
        totalizer.delete()
