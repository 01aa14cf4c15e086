"""Drawing the answer of a stack: its cells and steps, the union-find partition, the joining of
short pieces, the split of a link where two answers part, and the puzzle a set of links makes.

>>> links, leftovers = unionfind_links(3, 2, 2, random.Random(1))
>>> puzzle, answer = _puzzle_from_links(3, 2, 2, links, leftovers)
>>> puzzle.size, sorted(puzzle.labels) == sorted(label for label, _ in answer.paths)
((3, 2, 2), True)
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Iterator, Sequence

from ...timing import Deadline
from .. import routing
from ..generate import grow_unionfind, links_in_label_order
from ..model import Rules
from .model import STEPS, Cell, Pair, Puzzle, Solution, is_adjacent

MIN_LENGTH = 3  # cells of the shortest link a split leaves, and the routing method's default shortest line


# -- the board --------------------------------------------------------------------------------
def _neighbours(cell: Cell, width: int, height: int, layers: int) -> Iterator[Cell]:
    """The cells one step from ``cell`` on the stack, in the order of ``STEPS``."""
    z, r, c = cell
    for dz, dr, dc in STEPS:
        nz, nr, nc = z + dz, r + dr, c + dc
        if 0 <= nz < layers and 0 <= nr < height and 0 <= nc < width:
            yield (nz, nr, nc)


def _cells(width: int, height: int, layers: int) -> list[Cell]:
    return [(z, r, c) for z in range(layers) for r in range(height) for c in range(width)]


def _puzzle_from_links(width: int, height: int, layers: int, links: Sequence[Sequence[Cell]],
                       blocked: frozenset[Cell]) -> tuple[Puzzle, Solution]:
    """Labels 1..K in reading order (layer first) of each link's first end."""
    oriented = links_in_label_order(links)
    pairs = tuple(Pair(str(i + 1), link[0], link[-1]) for i, link in enumerate(oriented))
    paths = tuple((str(i + 1), link) for i, link in enumerate(oriented))
    return Puzzle(width, height, layers, pairs, blocked), Solution(paths)


# -- union-find, and splitting where two answers part -------------------------------------------
def unionfind_links(width: int, height: int, layers: int, rng: random.Random, *,
                    deadline: Deadline | None = None) -> tuple[list[list[Cell]], frozenset[Cell]]:
    """One union-find partition of the stack (:func:`..generate.grow_unionfind`, steps on a
    layer and between layers): the paths and the cells on none; no paths at all when
    ``deadline`` passes first.

    >>> links, leftovers = unionfind_links(3, 3, 2, random.Random(0))
    >>> sum(map(len, links)) + len(leftovers)
    18
    """
    return grow_unionfind(_cells(width, height, layers), lambda cell: _neighbours(cell, width, height, layers),
                          rng, deadline=deadline)


def _clean(link: Sequence[Cell]) -> bool:
    """Runs nowhere beside itself, its ends included (cut short by :func:`..routing.shrink` it
    would lose cells otherwise)."""
    return routing.shrink(link) == tuple(link)


def _join_short_pieces(links: list[list[Cell]], leftovers: frozenset[Cell], rng: random.Random, rules: Rules,
                       neighbours: Callable[[Cell], Iterable[Cell]], deadline: Deadline | None = None,
                       ) -> tuple[list[list[Cell]], frozenset[Cell]] | None:
    """Join every short piece (a 2-cell link, or a leftover cell) to a piece whose end touches
    one of its ends, where that makes no loop (ends side by side) and, under no-self-touch
    rules, no link beside itself; short pieces are taken in random order, each joined at a
    random one of its joins, in rounds until a round joins none. The pieces of fewer than 3
    cells that remain are returned as leftover cells; None when ``deadline`` passes first.

    >>> line = lambda cell: [(0, 0, cell[2] + d) for d in (-1, 1) if 0 <= cell[2] + d < 4]
    >>> _join_short_pieces([[(0, 0, 0), (0, 0, 1), (0, 0, 2)]], frozenset({(0, 0, 3)}), random.Random(0), Rules(), line)
    ([[(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)]], frozenset())
    """
    pieces = dict(enumerate([list(link) for link in links] + [[cell] for cell in sorted(leftovers)]))
    end_of = {piece[end]: k for k, piece in pieces.items() for end in (0, -1)}  # an end cell -> its piece
    next_key = len(pieces)
    joined_any = True
    while joined_any:
        joined_any = False
        short = [k for k, piece in pieces.items() if len(piece) <= 2]
        rng.shuffle(short)
        for k in short:
            if deadline is not None and deadline.expired():
                return None
            if k not in pieces:
                continue  # already joined to another short piece this round
            piece = pieces[k]
            options = []
            for piece_end in (0, -1)[:len(piece)]:
                for cell in neighbours(piece[piece_end]):
                    j = end_of.get(cell)
                    if j is None or j == k:
                        continue
                    other = pieces[j]
                    joined = (other if other[-1] == cell else other[::-1]) + (piece if piece_end == 0 else piece[::-1])
                    if is_adjacent(joined[0], joined[-1]) or (rules.no_self_touch and not _clean(joined)):
                        continue
                    options.append((j, joined))
            if not options:
                continue
            j, joined = rng.choice(options)
            for gone in (k, j):
                for end in (0, -1):
                    end_of.pop(pieces[gone][end], None)
                del pieces[gone]
            pieces[next_key] = joined
            end_of[joined[0]] = end_of[joined[-1]] = next_key
            next_key += 1
            joined_any = True
    kept = [piece for _, piece in sorted(pieces.items())]
    left = frozenset(cell for piece in kept if len(piece) < 3 for cell in piece)
    return [piece for piece in kept if len(piece) >= 3], left


def _split_where_answers_differ(links: Sequence[Sequence[Cell]], other: Solution, rng: random.Random) -> list[list[Cell]] | None:
    """The links with one of them cut in two at a step that ``other`` (another answer) does not
    take, both parts at least ``MIN_LENGTH`` cells; None when no step qualifies."""
    taken = {frozenset(step) for _, cells in other.paths for step in zip(cells, cells[1:])}
    options = [(k, i) for k, link in enumerate(links) for i in range(MIN_LENGTH - 1, len(link) - MIN_LENGTH)
               if frozenset((link[i], link[i + 1])) not in taken]
    if not options:
        return None
    k, i = rng.choice(options)
    cut = links[k]
    return [list(link) for j, link in enumerate(links) if j != k] + [list(cut[:i + 1]), list(cut[i + 1:])]
