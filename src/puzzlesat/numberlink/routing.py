"""May-leave-empty Numberlink as a routing problem: negotiated congestion (PathFinder).

Under may-leave-empty rules a puzzle is a set of nets to route through a grid without sharing
a cell, which is what chip routers do. Contest problems of this kind (ADC 2015, 2018) often
have much empty space, and a router finds an answer at once where the SAT search is lost; when
it finds none, nothing is proven and the caller goes on with SAT. The same router serves boards
of one layer (cells ``(row, col)``) and of several (``(layer, row, col)``): a step changes one
coordinate by one.

Every pair is routed by a cheapest path (A*, the distance as its heuristic) through free cells
that are not another pair's endpoint. A cell already used by other paths costs more
(``1 + present * users``, the present price growing each round up to a cap) and so does a cell
that was shared in earlier rounds (a history price, raised once per round per extra user).
After the first round only the paths through shared cells are ripped up and routed again; when
no cell is shared the paths are an answer (paths may run beside themselves). :func:`shrink`
cuts such a path short to one that does not. How it fares on the contest sets, and the router
it replaced: encodings/numberlink.md, "The router (routing.py)".

>>> import numpy as np
>>> free = np.ones((3, 4), dtype=bool)
>>> paths = route(free, [("A", (0, 0), (2, 0)), ("B", (1, 0), (1, 2))], stop=float("inf"))
>>> paths["B"]
[(1, 0), (1, 1), (1, 2)]
>>> paths["A"]                                   # around B, by the last column
[(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0)]
>>> shrink([(0, 0), (0, 1), (1, 1), (1, 0), (2, 0)])      # (0, 0) is beside (1, 0)
((0, 0), (1, 0), (2, 0))
"""

from __future__ import annotations

import heapq
import time
from typing import Callable, Iterable, Sequence

import numpy as np

Cell = tuple[int, ...]

ROUTE_SECONDS = 10.0  # callers give the router at most this long (and a third of the time left)
# Boards of more cells give the router two thirds of the time left: on them the SAT search after
# it rarely answers within contest limits (encodings/numberlink.md, "The router (routing.py)").
LARGE_BOARD_CELLS = 20_000
ROUTE_ROUNDS = 400  # rip-up rounds before the router gives up
PRESENT_START = 5.0  # the price of a cell used by another path in the first round (5 routes more than 0.5)
PRESENT_GROWTH = 1.5  # it grows by this factor each round...
PRESENT_MAX = 1000.0  # ...up to this (beyond, float sums lose the distance heuristic)
SETUP_CHUNK = 65_536  # cells whose neighbour lists are built between looks at the clock


def route_budget(remaining: float | None, cells: int = 0) -> float:
    """Seconds for the router: ``ROUTE_SECONDS``, and at most a third of the time left (two
    thirds on a board of more than ``LARGE_BOARD_CELLS`` cells).

    >>> route_budget(None), route_budget(9.0, cells=100), route_budget(9.0, cells=72 * 72 * 8)
    (10.0, 3.0, 6.0)
    """
    if remaining is None:
        return ROUTE_SECONDS
    return min(ROUTE_SECONDS, remaining * (2 / 3 if cells > LARGE_BOARD_CELLS else 1 / 3))


def route(free: np.ndarray, pairs: Sequence[tuple[str, Cell, Cell]], stop: float) -> dict[str, list[Cell]] | None:
    """Paths (label -> cells from start to end) for ``pairs`` (label, start, end) through the
    True cells of ``free`` (an array of any number of dimensions), no cell shared; None when
    ``time.perf_counter()`` passes ``stop``, after ``ROUTE_ROUNDS`` rounds, or when a pair is
    walled in by blocked cells and other pairs' endpoints."""
    shape = free.shape
    size = free.size
    flat_free = free.ravel()
    index = np.arange(size, dtype=np.int64).reshape(shape)
    around = np.full((*shape, 2 * free.ndim), -1, dtype=np.int64)
    for axis in range(free.ndim):
        lower = [slice(None)] * free.ndim
        upper = [slice(None)] * free.ndim
        lower[axis], upper[axis] = slice(1, None), slice(None, -1)
        around[(*lower, 2 * axis)] = index[tuple(upper)]
        around[(*upper, 2 * axis + 1)] = index[tuple(lower)]
    around = around.reshape(size, 2 * free.ndim)
    around[~flat_free] = -1
    around[(around >= 0) & ~flat_free[np.maximum(around, 0)]] = -1
    # (in chunks, the clock read between them, so that set-up on a board of a million cells
    # keeps to the time limit)
    neighbours: list[list[int]] = []
    for first in range(0, size, SETUP_CHUNK):
        if time.perf_counter() > stop:
            return None
        neighbours.extend([n for n in row if n >= 0] for row in around[first:first + SETUP_CHUNK].tolist())
    coordinates = [a.tolist() for a in np.unravel_index(np.arange(size), shape)]  # one list per axis
    nets = [(label, int(np.ravel_multi_index(start, shape)), int(np.ravel_multi_index(end, shape))) for label, start, end in pairs]
    is_end = [False] * size
    for _, s, t in nets:
        is_end[s] = is_end[t] = True
    users = [0] * size
    history = [0.0] * size
    shared: set[int] = set()
    paths: dict[str, list[int]] = {}
    present = PRESENT_START
    inf = float("inf")

    def distance(u: int, t: int) -> int:
        return sum(abs(axis[u] - axis[t]) for axis in coordinates)

    # The distance to one target, the heuristic of every search, from one list per axis (boards
    # of one and two layers padded to three axes): faster than a sum over coordinate tuples
    # (encodings/numberlink.md, "The router (routing.py)").
    axes = coordinates + [[0] * size for _ in range(3 - len(coordinates))]

    def distance_to(t: int) -> Callable[[int], int]:
        if len(axes) > 3:
            return lambda v: distance(v, t)
        first, second, third = axes
        a, b, c = first[t], second[t], third[t]
        return lambda v: abs(first[v] - a) + abs(second[v] - b) + abs(third[v] - c)

    def cheapest(s: int, t: int) -> list[int] | None:
        """The cheapest path from s to t; [] when time ran out, None when there is none."""
        to_t = distance_to(t)
        best = {s: 0.0}
        parent = {s: -1}
        heap = [(0.0, -0.0, s)]
        pops = 0
        while heap:
            pops += 1
            if not pops % 4096 and time.perf_counter() > stop:
                return []
            _, d, u = heapq.heappop(heap)
            if u == t:
                out = [t]
                while parent[out[-1]] >= 0:
                    out.append(parent[out[-1]])
                return out[::-1]
            d = -d
            if d > best[u]:
                continue
            for v in neighbours[u]:
                if is_end[v] and v != t:
                    continue
                step = d + (1.0 + history[v]) * (1.0 + present * users[v])
                if step < best.get(v, inf):
                    best[v] = step
                    parent[v] = u
                    # ties go to the deeper node (fewer expansions)
                    heapq.heappush(heap, (step + to_t(v), -step, v))
        return None

    order = sorted(nets, key=lambda net: distance(net[1], net[2]))
    todo = order
    for _ in range(ROUTE_ROUNDS):
        for label, s, t in todo:
            if time.perf_counter() > stop:
                return None
            for f in paths.pop(label, [])[1:-1]:
                users[f] -= 1
                if users[f] == 1:
                    shared.discard(f)
            path = cheapest(s, t)
            if not path:
                return None  # out of time, or walled in by endpoints and blocked cells
            paths[label] = path
            for f in path[1:-1]:
                users[f] += 1
                if users[f] == 2:
                    shared.add(f)
        if not shared:
            return {label: [tuple(axis[f] for axis in coordinates) for f in path] for label, path in paths.items()}
        for f in shared:
            history[f] += users[f] - 1
        present = min(present * PRESENT_GROWTH, PRESENT_MAX)
        todo = [net for net in order if not shared.isdisjoint(paths[net[0]][1:-1])]
    return None


def shrink(cells: Sequence[Cell], beside: Callable[[Cell], Iterable[Cell]] | None = None) -> tuple[Cell, ...]:
    """The path cut short wherever it runs beside itself: from each cell it jumps to the
    latest of its cells one step away (``beside(cell)``: the cells a path may step to from
    ``cell``; by default every cell one step away along an axis). One pass leaves no touching
    (a later cell one step from a kept cell would have been jumped to), so under
    may-leave-empty rules the shrunk paths of an answer are an answer that does not touch
    itself.

    >>> shrink([(0, 0), (0, 1), (1, 1), (1, 0), (2, 0)])
    ((0, 0), (1, 0), (2, 0))
    """
    position = {cell: i for i, cell in enumerate(cells)}
    kept: list[Cell] = []
    i = 0
    while True:
        kept.append(cells[i])
        if i == len(cells) - 1:
            return tuple(kept)
        here = cells[i]
        if beside is None:
            near: Iterable[Cell] = (here[:axis] + (here[axis] + step,) + here[axis + 1:]
                                    for axis in range(len(here)) for step in (-1, 1))
        else:
            near = beside(here)
        i = max((position.get(cell, -1) for cell in near), default=i + 1)
