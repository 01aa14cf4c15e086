"""Links drawn on a board, as the generators of :mod:`.generate` draw them: a cell's neighbours, whether
a link runs beside itself, links in label order, the puzzle and answer a set of links makes, and how
many links a board of a size should have.

>>> link_band(10, 10)
(8, 12)
"""

from __future__ import annotations

import math
from typing import Iterator, Sequence, TypeVar

from ..grid import Cell
from .model import Pair, Puzzle, Solution


BAND = 0.15            # link counts within +-15 % of the target are accepted
LINKS_PER_CELL = 0.065  # the default target on boards above 15x15 (target_links)

CellT = TypeVar("CellT", bound=tuple)  # a cell of any board: (row, col) or (layer, row, col)


def target_links(width: int, height: int) -> float:
    """The link count aimed at for a board: ``sqrt(width * height)``, the side of a square board,
    about the counts of published Flow Free / Arukone boards (5 at 5x5, 10 at 10x10); on boards
    of more than 237 cells (above 15x15) ``LINKS_PER_CELL`` per cell, which is more. There the
    quality pipeline's merging of links whose ends touch stops above ``sqrt``, so ``sqrt`` would
    turn nearly every candidate down (encodings/numberlink.md, "Notes from encoding.py and the
    smaller modules").

    >>> target_links(10, 10), round(target_links(12, 10), 2), target_links(20, 20)
    (10.0, 10.95, 26.0)
    """
    cells = width * height
    return max(math.sqrt(cells), LINKS_PER_CELL * cells)


def link_band(width: int, height: int, *, band: float = BAND, target: float | None = None) -> tuple[int, int]:
    """The accepted link counts ``(low, high)``: the target +- ``band`` (a fraction), rounded
    outwards, never below 1.

    >>> link_band(10, 10), link_band(8, 8), link_band(12, 10)
    ((8, 12), (6, 10), (9, 13))
    """
    t = target_links(width, height) if target is None else target
    return max(1, math.floor(t * (1 - band))), max(1, math.ceil(t * (1 + band)))


# -- shared helpers ---------------------------------------------------------------------------
def _neighbours(cell: Cell, width: int, height: int) -> Iterator[Cell]:
    r, c = cell
    if r > 0:
        yield (r - 1, c)
    if r + 1 < height:
        yield (r + 1, c)
    if c > 0:
        yield (r, c - 1)
    if c + 1 < width:
        yield (r, c + 1)


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _runs_beside_itself(link: Sequence[Cell]) -> bool:
    """True when two cells of the link that are not consecutive on it are orthogonal neighbours."""
    position = {cell: i for i, cell in enumerate(link)}
    for i, (r, c) in enumerate(link):
        for n in ((r + 1, c), (r, c + 1)):
            j = position.get(n)
            if j is not None and abs(i - j) != 1:
                return True
    return False


def links_in_label_order(links: Sequence[Sequence[CellT]]) -> list[tuple[CellT, ...]]:
    """The links in the order of their labels 1..K: each read from its end that comes first in
    reading order, sorted by that end (cells of one layer or of several).

    >>> links_in_label_order([[(2, 0), (1, 0)], [(0, 1), (0, 0)]])
    [((0, 0), (0, 1)), ((1, 0), (2, 0))]
    """
    oriented = [tuple(link) if link[0] <= link[-1] else tuple(reversed(link)) for link in links]
    oriented.sort(key=lambda link: link[0])
    return oriented


def _puzzle_from_links(width: int, height: int, links: Sequence[Sequence[Cell]], blocked: frozenset[Cell]) -> tuple[Puzzle, Solution]:
    """Labels 1..K in reading order of each link's first endpoint; each path runs from the
    endpoint that comes first in reading order."""
    oriented = links_in_label_order(links)
    pairs = tuple(Pair(str(i + 1), link[0], link[-1]) for i, link in enumerate(oriented))
    paths = tuple((str(i + 1), link) for i, link in enumerate(oriented))
    return Puzzle(width, height, pairs, blocked), Solution(paths)
