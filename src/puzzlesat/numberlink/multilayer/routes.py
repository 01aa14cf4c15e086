"""Routing problems as in the DA Symposium Algorithm Design Contest: how many lines and how
long, and the lines of one problem drawn in turn as random shortest paths through unused cells
(the ``routing`` method of :mod:`.generate`, whose docstring says how).

>>> links = routing_links(5, 5, 2, target_lines(5, 5, 2), random.Random(4))
>>> len(links), all(len(link) >= 3 for link in links)
(5, True)
"""

from __future__ import annotations

import math
import random

from ...timing import Deadline
from .drawing import MIN_LENGTH, _cells, _neighbours
from .model import Cell

ROUTE_ATTEMPTS = 20  # starts tried per line of a routing problem before the draw is given up


def target_lines(width: int, height: int, layers: int) -> int:
    """The routing method's default number of lines: half the side of a layer per layer,
    ``round(sqrt(width * height) * layers / 2)``, at least 1; near the ADC 2018 problems' own
    counts on small boards (8 lines on 5x5x3, 16 on 8x8x4 against 20, 32 on 8x8x8 against 44
    and 49) and fewer than most of theirs on 72x72x8 (288 against 10 to 1,500).

    >>> target_lines(5, 5, 3), target_lines(8, 8, 4), target_lines(72, 72, 8)
    (8, 16, 288)
    """
    return max(1, round(math.sqrt(width * height) * layers / 2))


def longest_line(width: int, height: int, layers: int) -> int:
    """The longest line (in cells) the routing method aims for: half a layer's width and
    height, plus the layers, ``(width + height) // 2 + layers``; wanted lengths are drawn
    evenly between ``min_length`` and this.

    >>> longest_line(5, 5, 3), longest_line(72, 72, 8)
    (8, 80)
    """
    return (width + height) // 2 + layers

# -- routing problems ------------------------------------------------------------------------------
def routing_links(width: int, height: int, layers: int, lines: int, rng: random.Random, *, min_length: int = MIN_LENGTH,
                  deadline: Deadline | None = None) -> list[list[Cell]] | None:
    """The lines of one routing problem, drawn in turn (module docstring), or None when a line
    found no room in ``ROUTE_ATTEMPTS`` starts or ``deadline`` passed first.

    >>> links = routing_links(6, 6, 2, 5, random.Random(3))
    >>> len(links), min(map(len, links)) >= 3, len({cell for link in links for cell in link}) == sum(map(len, links))
    (5, True, True)
    """
    size = width * height * layers
    cells = _cells(width, height, layers)
    around = [[(z * height + r) * width + c for z, r, c in _neighbours(cell, width, height, layers)] for cell in cells]
    used = [False] * size
    unused = list(range(size))  # with some used cells too: they are dropped when drawn
    longest = max(min_length, longest_line(width, height, layers))
    links = []
    for _ in range(lines):
        for _ in range(ROUTE_ATTEMPTS):
            if deadline is not None and deadline.expired():
                return None
            start = _draw_unused(unused, used, rng)
            if start is None:
                return None
            path = _random_shortest_path(start, rng.randint(min_length, longest), min_length, around, used, rng)
            if path is not None:
                break
        else:
            return None
        for i in path:
            used[i] = True
        links.append([cells[i] for i in path])
    return links


def _draw_unused(pool: list[int], used: list[bool], rng: random.Random) -> int | None:
    """A random cell of ``pool`` that is not ``used`` (used ones met on the way are taken out of
    the pool, so a draw costs little however full the stack), or None when none is left."""
    while pool:
        k = rng.randrange(len(pool))
        cell = pool[k]
        if not used[cell]:
            return cell
        pool[k] = pool[-1]
        pool.pop()
    return None


def _random_shortest_path(start: int, wanted: int, min_length: int, around: list[list[int]], used: list[bool],
                          rng: random.Random) -> list[int] | None:
    """A random shortest path through unused cells from ``start`` to a random cell ``wanted -
    1`` steps away (or as far as they reach, when that is at least ``min_length - 1`` steps),
    walked back from there by random steps that each come one closer; None when nothing is far
    enough."""
    distance = {start: 0}
    rings = [[start]]
    while len(rings) < wanted and rings[-1]:
        ring = []
        for cell in rings[-1]:
            for n in around[cell]:
                if not used[n] and n not in distance:
                    distance[n] = len(rings)
                    ring.append(n)
        rings.append(ring)
    if not rings[-1]:
        rings.pop()
    if len(rings) < min_length:
        return None
    path = [rng.choice(rings[-1])]
    while distance[path[-1]] > 0:
        closer = [n for n in around[path[-1]] if distance.get(n, -1) == distance[path[-1]] - 1]
        path.append(rng.choice(closer))
    return path[::-1]
