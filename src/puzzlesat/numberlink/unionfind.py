"""The union-find drawing of :mod:`.generate` (the "Number Link game" write-up): join random pairs of
adjacent free cells and grow each path from its end while it can, the isolated leftovers blocked.

>>> import random
>>> links, blocked = unionfind_links(4, 3, random.Random(2))
>>> sum(map(len, links)) + len(blocked)
12
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Sequence

from ..grid import Cell
from ..timing import Deadline
from .links import CellT, _neighbours


class _DisjointSets:
    def __init__(self, cells: Sequence[Cell]) -> None:
        self.parent = {cell: cell for cell in cells}
        self.size = {cell: 1 for cell in cells}

    def find(self, cell: Cell) -> Cell:
        root = cell
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[cell] != root:
            self.parent[cell], cell = root, self.parent[cell]
        return root

    def union(self, a: Cell, b: Cell) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]

    def on_a_path(self, cell: Cell) -> bool:
        return self.size[self.find(cell)] > 1


def unionfind_links(width: int, height: int, rng: random.Random, *, deadline: Deadline | None = None) -> tuple[list[list[Cell]], frozenset[Cell]]:
    """One union-find partition: the paths and the leftover squares (which become blocked);
    no paths at all when ``deadline`` passes first (a draw on a large board takes seconds).

    >>> links, blocked = unionfind_links(5, 4, random.Random(1))
    >>> sum(map(len, links)) + len(blocked)
    20
    """
    cells = [(r, c) for r in range(height) for c in range(width)]
    return grow_unionfind(cells, lambda cell: _neighbours(cell, width, height), rng, deadline=deadline)


class _FreePairs:
    """The pairs ``(a, b)`` of neighbouring cells, ``a < b``, both on no path yet, in the order
    of ``cells`` and then of ``neighbours(a)``: how :func:`grow_unionfind` picks where a path
    starts. Their number per cell sits in a Fenwick tree, so the ``k``-th pair is found, and a
    cell taken onto a path updated, in logarithmic time (listing them afresh for every path made
    a draw quadratic in the cells: minutes on 200x200)."""

    def __init__(self, cells: Sequence[CellT], neighbours: Callable[[CellT], Iterable[CellT]]) -> None:
        self.cells = cells
        self.neighbours = neighbours
        self.position = {cell: i for i, cell in enumerate(cells)}
        self.free = set(cells)
        self.count = [self._pairs_from(cell) for cell in cells]
        self.total = sum(self.count)
        self.tree = [0] * (len(cells) + 1)  # Fenwick tree over self.count, 1-based
        for i, n in enumerate(self.count, start=1):
            self.tree[i] += n
            parent = i + (i & -i)
            if parent <= len(cells):
                self.tree[parent] += self.tree[i]

    def _pairs_from(self, a: CellT) -> int:
        if a not in self.free:
            return 0
        return sum(1 for b in self.neighbours(a) if a < b and b in self.free)

    def _add(self, position: int, delta: int) -> None:
        self.total += delta
        i = position + 1
        while i < len(self.tree):
            self.tree[i] += delta
            i += i & -i

    def take(self, cell: CellT) -> None:
        """``cell`` is now on a path: no pair holds it any more."""
        if cell not in self.free:
            return
        self.free.discard(cell)
        for a in (cell, *self.neighbours(cell)):
            i = self.position[a]
            n = self._pairs_from(a)
            if n != self.count[i]:
                self._add(i, n - self.count[i])
                self.count[i] = n

    def pair(self, k: int) -> tuple[CellT, CellT]:
        """The ``k``-th pair (from 0) in the order above."""
        i, step = 0, 1 << len(self.tree).bit_length()
        while step:  # the largest prefix of cells holding at most k pairs
            if i + step < len(self.tree) and self.tree[i + step] <= k:
                i += step
                k -= self.tree[i]
            step >>= 1
        a = self.cells[i]
        return a, [b for b in self.neighbours(a) if a < b and b in self.free][k]


def grow_unionfind(cells: Sequence[CellT], neighbours: Callable[[CellT], Iterable[CellT]], rng: random.Random, *,
                   deadline: Deadline | None = None) -> tuple[list[list[CellT]], frozenset[CellT]]:
    """The union-find partition of any board, given its ``cells`` (in a fixed order) and the
    ``neighbours`` of a cell (also in a fixed order): one layer (:func:`unionfind_links`) or
    several (:mod:`.multilayer.generate`). Returns the paths and the cells on none.

    >>> line = [(0,), (1,), (2,), (3,)]
    >>> links, leftovers = grow_unionfind(line, lambda c: [(c[0] + d,) for d in (-1, 1) if 0 <= c[0] + d < 4], random.Random(0))
    >>> sorted([cell for link in links for cell in link] + list(leftovers)) == line   # every cell once
    True
    """
    sets = _DisjointSets(cells)
    starts = _FreePairs(cells, neighbours)
    links: list[list[CellT]] = []
    while True:
        if deadline is not None and deadline.expired():
            return [], frozenset()
        if not starts.total:
            break
        a, b = starts.pair(rng.randrange(starts.total))
        if rng.random() < 0.5:
            a, b = b, a
        sets.union(a, b)
        starts.take(a)
        starts.take(b)
        path = [a, b]
        end = b
        while True:
            options = []
            for n in neighbours(end):
                if sets.on_a_path(n):
                    continue
                root = sets.find(end)
                if all(m == end or sets.find(m) != root for m in neighbours(n)):
                    options.append(n)
            if not options:
                break
            n = rng.choice(options)
            sets.union(end, n)
            starts.take(n)
            path.append(n)
            end = n
        links.append(path)
    blocked = frozenset(cell for cell in cells if not sets.on_a_path(cell))
    return links, blocked
