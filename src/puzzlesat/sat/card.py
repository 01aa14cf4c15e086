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

from pysat.card import CardEnc, EncType

from .pool import VarPool

Clause = list[int]


def at_most_one(lits: Sequence[int], pool: VarPool) -> list[Clause]:
    """Pairwise for up to 6 literals, sequential counter beyond (linear size)."""
    lits = list(lits)
    if len(lits) <= 1:
        return []
    if len(lits) <= 6:
        return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
    return CardEnc.atmost(lits, bound=1, vpool=pool.idpool, encoding=EncType.seqcounter).clauses


def exactly_one(lits: Sequence[int], pool: VarPool) -> list[Clause]:
    return [list(lits)] + at_most_one(lits, pool)


def at_most(lits: Sequence[int], k: int, pool: VarPool, *, encoding: int = EncType.seqcounter) -> list[Clause]:
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
    lits = list(lits)
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    if k == 1:
        return [lits]
    return CardEnc.atleast(lits, bound=k, vpool=pool.idpool, encoding=encoding).clauses


def exactly(lits: Sequence[int], k: int, pool: VarPool, *, encoding: int = EncType.seqcounter) -> list[Clause]:
    return at_most(lits, k, pool, encoding=encoding) + at_least(lits, k, pool, encoding=encoding)
