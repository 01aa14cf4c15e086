"""Reading a path from the cells of one label (:func:`trace`): from one endpoint to the other, or the
error that says why those cells are no simple path.

>>> trace(Pair("A", (0, 0), (1, 1)), {(0, 0), (0, 1), (1, 1)})
((0, 0), (0, 1), (1, 1))
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from ..grid import ORTHOGONAL, Cell
from .parts import Pair


class NotAPath(ValueError):
    """An answer drawing in which the cells of ``label`` form no simple path between its
    endpoints (raised by ``Solution.from_rows`` and the multi-layer ``Solution.from_layers``)."""

    def __init__(self, message: str, label: str) -> None:
        super().__init__(message)
        self.label = label


class TraceCapped(NotAPath):
    """A label's cells were not traced as one path within the step bound (a path that runs
    beside itself is ambiguous in a drawing, and the search for it was cut short)."""


def trace(pair: Pair, cells: set[Cell], max_steps: int | None = None, *,
          steps: Sequence[tuple[int, ...]] = ORTHOGONAL,
          allowed: Callable[[Cell, Cell], bool] | None = None) -> tuple[Cell, ...] | None:
    """A simple path from ``pair.start`` to ``pair.end`` through exactly ``cells``, moving by
    ``steps`` (one layer's four by default; boards of several layers pass six; ``allowed(a,
    b)``, when given, says which of those moves a path may make), or None when
    there is none. Where the path runs beside itself the drawing is ambiguous and this is a
    search for a Hamiltonian path: depth first, trying the cell with the fewest ways on first,
    and backing out as soon as a cell not yet on the path has too few neighbours left to be
    passed through (two) or reached (one, for the far end). Raises :class:`TraceCapped` after
    ``max_steps`` moves (default 200,000 plus 20 per cell).

    >>> trace(Pair("A", (0, 0), (0, 1)), {(0, 0), (1, 0), (1, 1), (0, 1)})
    ((0, 0), (1, 0), (1, 1), (0, 1))
    """
    if max_steps is None:
        max_steps = 200_000 + 20 * len(cells)
    start, end = pair.start, pair.end
    if start not in cells or end not in cells or start == end:
        return None
    around = {cell: [n for n in (tuple(a + b for a, b in zip(cell, step)) for step in steps)
                     if n in cells and (allowed is None or allowed(cell, n))] for cell in cells}

    def need(cell: Cell) -> int:
        return 1 if cell == start or cell == end else 2

    if any(len(ns) < need(cell) for cell, ns in around.items()):
        return None
    # open[c]: neighbours of c not yet inside the path (unvisited, or the path's head)
    open_count = {cell: len(ns) for cell, ns in around.items()}
    target = len(cells)
    path = [start]
    on_path = {start}

    def onward(head: Cell) -> Iterator[Cell]:
        free = [n for n in around[head] if n not in on_path]
        free.sort(key=lambda n: (n == end, sum(1 for m in around[n] if m not in on_path)))
        return iter(free)

    def blocked_in(head: Cell, nxt: Cell) -> bool:
        if nxt != end and open_count[nxt] < 1:
            return True
        return any(m not in on_path and open_count[m] < need(m) for m in around[head])

    stack = [onward(start)]
    moves = 0
    while stack:
        nxt = next(stack[-1], None)
        if nxt is None:
            stack.pop()
            on_path.discard(path.pop())
            if path:  # the cell before becomes the head again
                for m in around[path[-1]]:
                    open_count[m] += 1
            continue
        if nxt == end and len(path) + 1 != target:
            continue
        moves += 1
        if moves > max_steps:
            raise TraceCapped(f"label {pair.label!r}: its {len(cells)} cells were not traced as one path within {max_steps} steps",
                              pair.label)
        head = path[-1]
        for m in around[head]:  # the head moves on: it is inside the path now
            open_count[m] -= 1
        path.append(nxt)
        on_path.add(nxt)
        if nxt == end:
            return tuple(path)
        if blocked_in(head, nxt):
            path.pop()
            on_path.discard(nxt)
            for m in around[head]:
                open_count[m] += 1
            continue
        stack.append(onward(nxt))
    return None
