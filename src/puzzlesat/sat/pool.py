"""Variable pool with structured keys.

Literals are plain ints (DIMACS style); every variable is named by a hashable key such as
``("edge", (0, 1), (0, 2))`` so encodings stay readable and decoding is a lookup.

>>> pool = VarPool()
>>> pool.var("edge", (0, 0), (0, 1))
1
>>> pool.var("edge", (0, 0), (0, 1))   # same key, same variable
1
>>> pool.key(1)
('edge', (0, 0), (0, 1))
>>> pool.fresh() > 1 and pool.top
2
"""

from __future__ import annotations

from typing import Hashable

from pysat.formula import IDPool


class VarPool:
    """Maps structured keys to SAT variables (1, 2, 3, ...) and back.

    >>> pool = VarPool()
    >>> pool.var("cell", (0, 1), "A"), pool.var("cell", (0, 2), "A"), pool.var("cell", (0, 1), "A")
    (1, 2, 1)
    >>> pool.key(-2), pool.get("cell", (9, 9), "A")
    (('cell', (0, 2), 'A'), None)
    """

    def __init__(self) -> None:
        self.idpool = IDPool()  # shared with pysat.card so auxiliary variables never collide

    def var(self, *key: Hashable) -> int:
        """The variable named ``key``, created on first use."""
        return self.idpool.id(key)

    def fresh(self) -> int:
        """A new anonymous variable."""
        return self.idpool._next()

    def reserve(self, count: int) -> int:
        """Reserve ``count`` consecutive anonymous variables; returns the first (for array-built
        encodings that number their variables by position instead of by key).

        >>> pool = VarPool(); pool.var("x"); pool.reserve(3), pool.fresh()
        1
        (2, 5)
        """
        first = self.idpool.top + 1
        self.idpool.top += max(0, count)
        return first

    def get(self, *key: Hashable) -> int | None:
        """The variable named ``key`` if it exists, else None (never creates one)."""
        return self.idpool.obj2id.get(key)

    def key(self, var: int) -> Hashable | None:
        """The key of a named variable (None for anonymous/auxiliary ones)."""
        return self.idpool.obj(abs(var))

    @property
    def top(self) -> int:
        """The largest variable handed out so far."""
        return self.idpool.top
