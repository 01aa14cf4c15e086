"""Generate Numberlink puzzles whose uniqueness is certified by SAT from their text alone.

A generator draws a full answer first (a partition of the board into paths), takes its
endpoints as the puzzle, and keeps it when a fresh SAT count (limit 2) of the puzzle *as
re-read from its native text* finds exactly one answer. Two published methods:

``unionfind`` (the union-find partition of the "Number Link game" write-up): repeatedly pick a
random pair of adjacent squares that lie on no path, join them, and extend the path from its end
to a random neighbour that lies on no path and whose only neighbour on the current path is that
end, until it cannot grow; when no pair of free adjacent squares remains, the isolated leftovers
become blocked squares. Its puzzles are often not unique: without ``unique=True`` each is
labelled by the certificate (``Generated.unique``); with it, draws repeat until one is unique.

``quality`` (the puzzle-maker pipeline of puzzlemadness.co.uk, "How we make Numberlink
puzzles"): a blank grid; one random link with up to 6 turns; then repeatedly a link from a
dead-end cell (a free cell with at most one free neighbour; any free cell when none is left) by
a shortest path with the fewest turns to a random free cell reachable from it, with small
isolated free areas (3 cells or fewer) absorbed by extending a neighbouring link's end into them;
until the grid is covered. Links whose ends are adjacent are merged while the link count is above
the target; a candidate with a 2-cell link or a "loop" (a link whose two ends are adjacent) is
rejected, as is one whose link count lies outside the band (:func:`link_band`, by default
:func:`target_links` +-15 %); links are renumbered 1..K in reading order; only a SAT-certified
unique puzzle is returned. One addition to the published steps: merges and absorptions that
would make a link run beside itself are avoided, and a candidate whose drawn answer still does
is rejected before the certificate, because such a puzzle is almost never unique (in a sample of
400 10x10 candidates, 4 of 380 with such a link were unique, against 15 of 20 without); and a
new link's target is redrawn (up to 6 times) when the link would cut off a small area that no
link end could absorb without a loop or such a link. Together these raised the certified rate
more than ten-fold (``benchmarks/generators.py``). A second addition:
when the count finds a second answer, the candidate is not thrown away but *cut where the two
answers part* — one link split in two at a step the second answer does not take (both parts at
least 3 cells, neither a loop nor running beside itself, the link count staying in the band),
so that answer is gone — and counted again, until unique, out of time, or no such cut is left
(each count is a try): 220 unique 15x15 puzzles per minute against 41 drawing afresh, and
20x20 within a minute (``docs/numberlink-search-and-generators.md``).

Both are seeded and deterministic: the same arguments give the same puzzle (unless a time
limit cut a certificate short). Puzzle ``i`` of a pack with seed ``s`` uses :func:`puzzlesat.seeds.puzzle_seed`.

>>> g = generate(6, 5, method="quality", seed=3)
>>> g.unique, g.puzzle.size, g.method
(True, (6, 5), 'quality')
>>> from puzzlesat.numberlink.verify import verify
>>> verify(g.puzzle, g.solution)
[]
>>> generate(6, 5, method="quality", seed=3).puzzle == g.puzzle
True
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from ..errors import PuzzlesatError, require_count
from ..grid import Cell
from ..results import CountResult
from ..sat import check_solver_name
from ..seeds import require_seed
from ..timing import Deadline
from .model import DEFAULT_RULES, MAX_CELLS, Pair, Puzzle, Rules, Solution
from .verify import verify

METHODS = ("quality", "unionfind")
MAX_TURNS = 6          # the first link of the quality pipeline turns at most this often
SMALL_AREA = 3         # free areas of at most this many cells are absorbed into a neighbouring link
TARGET_ATTEMPTS = 6    # targets tried per new link before accepting one that leaves a bad pocket
BAND = 0.15            # link counts within +-15 % of the target are accepted
LINKS_PER_CELL = 0.065  # the default target on boards above 15x15 (target_links)
DEFAULT_MAX_TRIES = 10_000  # candidates drawn (each a try) before generate gives up
CellT = TypeVar("CellT", bound=tuple)  # a cell of any board: (row, col) or (layer, row, col)


class GenerationFailed(PuzzlesatError):
    """No certified puzzle within the allowed tries or time."""

    def __init__(self, message: str, *, tries: int = 0) -> None:
        super().__init__(message)
        self.tries = tries


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with the answer it was built from.

    ``unique``: True when a fresh SAT count of the puzzle re-read from its text found exactly one
    answer, False when it found two, None when the count ran out of time (only possible without
    ``unique=True``). ``tries``: answers drawn (and certificates run) to get this one.
    The multi-layer generators (:mod:`.multilayer.generate`) return it too, holding multi-layer
    puzzles and answers; their routing problems are never counted (``unique`` None).
    """

    puzzle: Puzzle
    solution: Solution
    unique: bool | None
    tries: int
    seconds: float = field(compare=False)  # two runs of one request compare equal
    seed: int
    method: str

    def link_lengths(self) -> list[int]:
        """Cells per link, in label order."""
        return [len(cells) for _, cells in self.solution.paths]


TIMED_OUT_STREAK = 50  # candidates in a row whose uniqueness count ran out of time: give up, and say so


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


# -- union-find -------------------------------------------------------------------------------
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


# -- quality pipeline -------------------------------------------------------------------------
class _Board:
    """Free cells and the links drawn so far, for the quality pipeline."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.free = {(r, c) for r in range(height) for c in range(width)}
        self.links: list[list[Cell]] = []

    def near(self, cell: Cell) -> Iterator[Cell]:
        return _neighbours(cell, self.width, self.height)

    def free_degree(self, cell: Cell) -> int:
        return sum(1 for n in self.near(cell) if n in self.free)

    def add(self, link: list[Cell]) -> None:
        self.links.append(link)
        self.free.difference_update(link)

    def areas(self) -> list[list[Cell]]:
        """Connected free areas (sorted cells, in reading order of their first cell)."""
        seen: set[Cell] = set()
        out = []
        for start in sorted(self.free):
            if start in seen:
                continue
            seen.add(start)
            area, stack = [], [start]
            while stack:
                x = stack.pop()
                area.append(x)
                for n in self.near(x):
                    if n in self.free and n not in seen:
                        seen.add(n)
                        stack.append(n)
            out.append(sorted(area))
        return out


def _random_turning_link(board: _Board, rng: random.Random, max_turns: int = MAX_TURNS) -> list[Cell]:
    """A random straight-run walk with at most ``max_turns`` turns that never runs beside itself."""
    start = (rng.randrange(board.height), rng.randrange(board.width))
    path = [start]
    on_path = {start}
    directions = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    heading = rng.choice(directions)
    turns = 0

    def can_enter(cell: Cell, previous: Cell) -> bool:
        if cell not in board.free or cell in on_path:
            return False
        return all(n == previous or n not in on_path for n in board.near(cell))

    while True:
        run = rng.randint(1, max(1, max(board.width, board.height) - 1))
        moved = 0
        while moved < run:
            nxt = (path[-1][0] + heading[0], path[-1][1] + heading[1])
            if not can_enter(nxt, path[-1]):
                break
            path.append(nxt)
            on_path.add(nxt)
            moved += 1
        if turns == max_turns:
            break
        sideways = [d for d in directions if d[0] * heading[0] + d[1] * heading[1] == 0]
        rng.shuffle(sideways)
        for d in sideways:
            nxt = (path[-1][0] + d[0], path[-1][1] + d[1])
            if can_enter(nxt, path[-1]):
                heading = d
                turns += 1
                break
        else:
            break
    return path


def _shortest_link(board: _Board, start: Cell, rng: random.Random) -> list[Cell] | None:
    """A link from ``start`` to a random free cell reachable from it (at least 3 cells when the
    area allows), along a shortest path with the fewest turns."""
    distance = {start: 0}
    frontier = [start]
    order = [start]
    while frontier:
        nxt = []
        for x in frontier:
            for n in board.near(x):
                if n in board.free and n not in distance:
                    distance[n] = distance[x] + 1
                    nxt.append(n)
                    order.append(n)
        frontier = nxt
    targets = [cell for cell in order if distance[cell] >= 2] or [cell for cell in order if distance[cell] >= 1]
    if not targets:
        return None
    goal = rng.choice(targets)
    # Dijkstra over (cell, heading) with cost (length, turns): a shortest path, fewest turns.
    best: dict[tuple[Cell, tuple[int, int]], tuple[int, int]] = {}
    came: dict[tuple[Cell, tuple[int, int]], tuple[Cell, tuple[int, int]] | None] = {}
    queue: list[tuple[int, int, float, Cell, tuple[int, int]]] = []
    for n in board.near(start):
        if n in board.free:
            state = (n, (n[0] - start[0], n[1] - start[1]))
            best[state] = (1, 0)
            came[state] = None
            heapq.heappush(queue, (1, 0, rng.random(), n, state[1]))
    while queue:
        length, turns, _, cell, heading = heapq.heappop(queue)
        if best.get((cell, heading)) != (length, turns):
            continue
        if cell == goal:
            path = [cell]
            state: tuple[Cell, tuple[int, int]] | None = (cell, heading)
            while state is not None:
                state = came[state]
                if state is not None:
                    path.append(state[0])
            path.append(start)
            path.reverse()
            return path
        for n in board.near(cell):
            if n not in board.free or n == start:
                continue
            d = (n[0] - cell[0], n[1] - cell[1])
            if distance.get(n, -1) != length + 1:
                continue  # stay on shortest paths from the start
            cost = (length + 1, turns + (d != heading))
            if cost < best.get((n, d), (1 << 30, 0)):
                best[(n, d)] = cost
                came[(n, d)] = (cell, heading)
                heapq.heappush(queue, (cost[0], cost[1], rng.random(), n, d))
    return None  # pragma: no cover (the goal is reachable by construction)


def _area_orders(area: Sequence[Cell]) -> list[tuple[Cell, ...]]:
    """Every order of the area's cells that is a path (areas have at most SMALL_AREA cells)."""
    return [order for order in itertools.permutations(area)
            if all(_adjacent(a, b) for a, b in zip(order, order[1:]))]


def _plain(link: Sequence[Cell]) -> bool:
    """Neither a loop (ends side by side) nor running beside itself."""
    return not (len(link) > 2 and _adjacent(link[0], link[-1])) and not _runs_beside_itself(link)


def _extended(link: list[Cell], at_start: bool, order: Sequence[Cell]) -> list[Cell]:
    return list(reversed(order)) + link if at_start else link + list(order)


def _absorb(board: _Board, area: list[Cell], rng: random.Random) -> bool:
    """Extend a neighbouring link's end through a small free area; a 3-cell path area that no
    link end can take without making a loop or a link beside itself becomes a link of its own.
    False when neither is possible."""
    orders = _area_orders(area)
    options = []
    for order in orders:
        for index, link in enumerate(board.links):
            if _adjacent(link[-1], order[0]):
                options.append((index, False, order))
            if _adjacent(link[0], order[0]):
                options.append((index, True, order))
    clean = [option for option in options if _plain(_extended(board.links[option[0]], option[1], option[2]))]
    if not clean and len(area) == SMALL_AREA and orders:
        board.add(list(rng.choice(orders)))
        return True
    if options:
        index, at_start, order = rng.choice(clean or options)
        link = board.links[index]
        if at_start:
            link[:0] = list(reversed(order))
        else:
            link.extend(order)
        board.free.difference_update(order)
        return True
    return False


def _pockets_absorbable(board: _Board, link: list[Cell]) -> bool:
    """Would every free area of at most SMALL_AREA cells that ``link`` cuts off be absorbable
    without making a loop or a link that runs beside itself?"""
    taken = set(link)
    links = board.links + [link]
    seen: set[Cell] = set()
    for cell in link:
        for start in board.near(cell):
            if start not in board.free or start in taken or start in seen:
                continue
            area, stack = [start], [start]
            seen.add(start)
            while stack and len(area) <= SMALL_AREA:
                x = stack.pop()
                for n in board.near(x):
                    if n in board.free and n not in taken and n not in seen:
                        seen.add(n)
                        area.append(n)
                        stack.append(n)
            if len(area) > SMALL_AREA:
                continue
            orders = _area_orders(area)
            fine = len(area) == SMALL_AREA and bool(orders)
            for order in orders:
                if fine:
                    break
                for other in links:
                    if (_adjacent(other[-1], order[0]) and _plain(_extended(other, False, order))) or \
                            (_adjacent(other[0], order[0]) and _plain(_extended(other, True, order))):
                        fine = True
                        break
            if not fine:
                return False
    return True


def _merge_adjacent_ends(links: list[list[Cell]], rng: random.Random, down_to: int,
                         deadline: Deadline | None = None) -> list[list[Cell]] | None:
    """Join links whose ends are adjacent (never a link with itself) while more than ``down_to``
    links remain; candidates are taken in random order. None when ``deadline`` passes first."""
    links = [list(link) for link in links]
    while len(links) > down_to:
        if deadline is not None and deadline.expired():
            return None
        # every two link ends side by side, found through a table of the ends (comparing every two
        # links took seconds per merge on boards with thousands of links); in the order of
        # (first link, second link, their ends: start before end), so a seed always draws the same
        ends_at: dict[Cell, list[tuple[int, int]]] = {}
        for k, link in enumerate(links):
            for end in (0, -1):
                ends_at.setdefault(link[end], []).append((k, end))
        touching = set()
        for i, a in enumerate(links):
            for a_end in (0, -1):
                r, c = a[a_end]
                for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    touching.update((i, a_end, j, b_end) for j, b_end in ends_at.get(n, ()) if i < j)
        candidates = []
        for i, a_end, j, b_end in sorted(touching, key=lambda t: (t[0], t[2], t[1] != 0, t[3] != 0)):
            a, b = links[i], links[j]
            joined = (a if a_end == -1 else a[::-1]) + (b if b_end == 0 else b[::-1])
            if _plain(joined):
                candidates.append((i, a_end, j, b_end))
        if not candidates:
            break
        i, a_end, j, b_end = rng.choice(candidates)
        a = links[i] if a_end == -1 else links[i][::-1]      # a now ends at the joining end
        b = links[j] if b_end == 0 else links[j][::-1]       # b now starts at the joining end
        merged = a + b
        links = [link for k, link in enumerate(links) if k not in (i, j)] + [merged]
    return links


def quality_links(width: int, height: int, rng: random.Random, *, target: float | None = None,
                  deadline: Deadline | None = None) -> list[list[Cell]] | None:
    """One candidate partition of the quality pipeline, or None when it fails (a leftover area
    no link can absorb, or ``deadline`` passed first). The 2-cell, loop and band checks are left
    to the caller.

    >>> links = quality_links(6, 6, random.Random(0))
    >>> links is None or sum(map(len, links)) == 36
    True
    """
    board = _Board(width, height)
    first = _random_turning_link(board, rng)
    if len(first) < 2:
        return None
    board.add(first)
    while True:
        if deadline is not None and deadline.expired():
            return None
        for area in board.areas():
            if len(area) <= SMALL_AREA and not _absorb(board, area, rng):
                return None
        if not board.free:
            break
        dead_ends = [cell for cell in sorted(board.free) if board.free_degree(cell) <= 1]
        start = rng.choice(dead_ends) if dead_ends else rng.choice(sorted(board.free))
        link = None
        for _ in range(TARGET_ATTEMPTS):
            candidate = _shortest_link(board, start, rng)
            if candidate is None:  # pragma: no cover (an isolated cell is a small area, absorbed above)
                return None
            link = link or candidate
            if _pockets_absorbable(board, candidate):
                link = candidate
                break
        board.add(link)
    goal = target_links(width, height) if target is None else target
    return _merge_adjacent_ends(board.links, rng, down_to=round(goal), deadline=deadline)


def _steps(paths: Iterable[Sequence[Cell]]) -> set[frozenset[Cell]]:
    """The steps (pairs of cells) the paths take."""
    return {frozenset(step) for cells in paths for step in zip(cells, cells[1:])}


def _split_where_answers_differ(links: Sequence[Sequence[Cell]], other: Solution, rng: random.Random,
                                most: int) -> list[list[Cell]] | None:
    """The quality pipeline's repair of a candidate with a second answer ``other``: one link cut
    in two at a step that ``other`` does not take (so ``other`` is no answer of the result), both
    parts at least 3 cells and neither a loop nor running beside itself; None when no step
    qualifies or the candidate already holds ``most`` links (the top of the band).

    >>> links = [[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]]
    >>> other = Solution((("1", ((0, 0), (1, 0), (1, 1), (0, 1))),))
    >>> _split_where_answers_differ(links, other, random.Random(0), most=2)
    [[(0, 0), (0, 1), (0, 2)], [(0, 3), (0, 4), (0, 5)]]
    """
    if len(links) >= most:
        return None
    taken = _steps(cells for _, cells in other.paths)
    options = [(k, i) for k, link in enumerate(links) for i in range(2, len(link) - 3)
               if frozenset((link[i], link[i + 1])) not in taken and _plain(link[:i + 1]) and _plain(link[i + 1:])]
    if not options:
        return None
    k, i = rng.choice(options)
    cut = list(links[k])
    return [list(link) for j, link in enumerate(links) if j != k] + [cut[:i + 1], cut[i + 1:]]


def _reject(rejected: dict[str, Any], reason: str) -> None:
    rejected[reason] = rejected.get(reason, 0) + 1


_AS_SAID = {"loop": "with a loop", "2-cell link": "with a 2-cell link", "a link runs beside itself": "with a link beside itself",
            "link count outside the band": "with a link count outside the band"}  # (what _quality_problem returns)


def turned_down(rejected: dict[str, Any], band: tuple[int, int] | None = None) -> str:
    """Why the candidates drawn were turned down, most frequent first, for a message (empty when
    none was); the link counts drawn are given beside the ``band``'s, when there is one.

    >>> turned_down({"loop": 3, "link count outside the band": 9, "links": (42, 80)}, (25, 35))
    '; turned down: 9 with a link count outside the band (25-35 links; the candidates had 42-80), 3 with a loop'
    """
    reasons = sorted(((n, reason) for reason, n in rejected.items() if reason != "links"), reverse=True)
    if not reasons:
        return ""
    parts = []
    for n, reason in reasons:
        said = _AS_SAID.get(reason, reason)
        if reason == "link count outside the band" and "links" in rejected and band is not None:
            said += f" ({band[0]}-{band[1]} links; the candidates had {rejected['links'][0]}-{rejected['links'][1]})"
        parts.append(f"{n} {said}")
    return "; turned down: " + ", ".join(parts)


def _quality_problem(links: Sequence[Sequence[Cell]], band: tuple[int, int]) -> str | None:
    """Why a candidate is rejected, or None when it passes."""
    if any(len(link) == 2 for link in links):
        return "2-cell link"
    if any(len(link) > 2 and _adjacent(link[0], link[-1]) for link in links):
        return "loop"
    if not band[0] <= len(links) <= band[1]:
        return "link count outside the band"
    if any(_runs_beside_itself(link) for link in links):
        return "a link runs beside itself"
    return None


# -- certification ----------------------------------------------------------------------------
def puzzle_text(puzzle: Puzzle) -> str:
    """Native text that always starts with the ``W H`` size line, so that no row (for instance
    one starting with a blocked cell) can be read as a comment.

    >>> print(puzzle_text(Puzzle.from_rows(["A.A", "#.."])))
    3 2
    A . A
    # . .
    """
    from .formats import format as format_text

    text = format_text(puzzle, fmt="native")
    if text.split("\n", 1)[0] != f"{puzzle.width} {puzzle.height}":
        text = f"{puzzle.width} {puzzle.height}\n{text}"
    return text


def certify(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, time_limit: float | Deadline | None = None, solver: str | None = None) -> tuple[bool | None, Puzzle]:
    """Write the puzzle as native text, read it back, and count its answers by SAT (limit 2).

    Returns (unique, the puzzle as re-read): True / False, or None when the count ran out of
    time. Raises AssertionError if the text does not read back as the same puzzle.

    >>> certify(Puzzle.from_rows(["A..", "..A"]))[0]
    True
    """
    result, reread = _count_from_text(puzzle, rules=rules, time_limit=time_limit, solver=solver)
    return result.unique, reread


def _count_from_text(puzzle: Puzzle, *, rules: Rules, time_limit: float | Deadline | None,
                     solver: str | None, work: int | None = None, known: Solution | None = None) -> tuple[CountResult[Solution] | None, Puzzle]:
    """:func:`certify`'s count (limit 2) of the puzzle as re-read from its text, with the puzzle;
    with ``work`` (conflicts per solver call) the count is :func:`count_by_work`'s, from the
    ``known`` answer (the drawn one)."""
    from .formats import parse
    from .solve import count

    reread = parse(puzzle_text(puzzle), fmt="native")
    if reread.grid().tolist() != puzzle.grid().tolist():
        raise AssertionError("a generated puzzle did not survive a round trip through its text")
    if work is not None:
        return count_by_work(reread, rules=rules, conflicts=work, time_limit=time_limit, solver=solver, known=known), reread
    options = {"solver": solver} if solver else {}
    return count(reread, rules=rules, limit=2, time_limit=time_limit, **options), reread


NOMINAL_CONFLICTS_PER_SECOND = 10_000  # turns certify_time_limit into work: what one core does on a 14x14 count
CERTIFY_CALLS = 1_000  # solver calls per count (cycles cut, rows added): a work count too


def certify_conflicts(certify_time_limit: float | None) -> int:
    """The conflicts per solver call a generator's count may spend for ``certify_time_limit``
    seconds of nominal work (None: no limit). Work, not seconds, so that a seed gives the same
    puzzle on any machine and load.

    >>> certify_conflicts(10.0), certify_conflicts(0), certify_conflicts(None)
    (100000, 0, 2147483647)
    """
    if certify_time_limit is None:
        return 2**31 - 1
    return min(2**31 - 1, round(certify_time_limit * NOMINAL_CONFLICTS_PER_SECOND))


def count_by_work(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, conflicts: int = certify_conflicts(10.0),
                  time_limit: float | Deadline | None = None, solver: str | None = None,
                  known: Solution | None = None) -> CountResult[Solution] | None:
    """Count answers up to 2 by plain SAT (from the ``known`` answer when given: it is blocked,
    and the search starts next to it), each solver call one uninterrupted search of at most
    ``conflicts`` conflicts: the verdict and the answers found depend on the puzzle and the
    work allowed only, never on the machine's speed or load (what a seeded generator needs;
    :func:`.solve.count` races faster strategies against the clock). A count that spends its
    work (or is given none: ``conflicts=0``) is undecided (``complete`` False); None when
    ``time_limit`` passed between two calls (the caller stops: the clock may end a generation,
    never change its outcome).

    >>> count_by_work(Puzzle.from_rows(["A..", "..A"])).unique, count_by_work(Puzzle.from_rows(["A..B", "....", "A..B"])).unique
    (True, False)
    """
    from ..sat import DEFAULT_SOLVER
    from .search import Search

    _check_conflicts(conflicts)
    deadline = Deadline.of(time_limit)
    if known is not None and verify(puzzle, known, rules):
        raise ValueError("known is not an answer of this puzzle under these rules")
    search = Search(puzzle, rules, solver or DEFAULT_SOLVER, deadline, formula_rules=rules)
    return count_in_search(search, conflicts=conflicts, deadline=deadline, known=known)


def _check_conflicts(conflicts: object, name: str = "conflicts") -> int:
    if isinstance(conflicts, bool) or not isinstance(conflicts, int) or conflicts < 0:
        raise ValueError(f"{name} must be a whole number of conflicts (0 or more), not {conflicts!r}")
    return conflicts


def count_in_search(search: Any, *, conflicts: int, deadline: Deadline, known: Any = None) -> CountResult | None:
    """:func:`count_by_work` in a built search (:class:`.search.SatSearch`, one layer or several;
    closed here): ``known`` blocked first, then solver calls of at most ``conflicts`` conflicts
    each, never split into timed steps (a search cut into steps by a measured rate goes where
    the clock says)."""
    found: list = []
    name = f"sat-{search.solver.name}" if search.solver is not None else "sat"
    try:
        if not search.ready:
            return None
        if known is not None:
            found.append(known)
            search.block(known)
            search.prefer(known)
        for _ in range(CERTIFY_CALLS if conflicts else 0):
            if deadline.expired():
                return None
            outcome = search.solver.solve(conflict_limit=conflicts)  # (no time limit: one search, not timed steps)
            if not outcome:
                return CountResult(len(found), outcome is False, 2, tuple(found), method=name,
                                   timings=search.timings(), stats=search.stats())
            answer = search._answer_in_model()
            if answer is None:
                continue  # (a stray cycle cut, or touch rows given: ask again)
            found.append(answer)
            if len(found) == 2:
                break
            search.block(answer)
        return CountResult(len(found), len(found) == 2, 2, tuple(found), method=name,
                           timings=search.timings(), stats=search.stats())
    finally:
        search.close()


def check_request(width: int, height: int, *, method: str = "quality", band: float = BAND,
                  target: float | None = None) -> tuple[int, int]:
    """The accepted link counts of a request, or ValueError / TypeError saying why it cannot be
    met (checked before any drawing, so an impossible request fails at once).

    >>> check_request(10, 10)
    (8, 12)
    >>> check_request(5, 5, target=1000)
    Traceback (most recent call last):
    ...
    ValueError: the band asks for at least 850 links, but a 5x5 board holds at most 8 links of 3 cells or more
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (width, height)):
        raise TypeError(f"width and height must be whole numbers, not {width!r} and {height!r}")
    if width < 2 or height < 2:
        raise ValueError(f"board {width}x{height} is too small to generate (at least 2x2)")
    if width * height > MAX_CELLS:
        raise ValueError(f"board {width}x{height} is larger than the {MAX_CELLS} cells a puzzle may have")
    if method == "quality" and width * height < 9:
        raise ValueError("the quality method needs at least 9 cells (links of 3 cells or more)")
    if not (math.isfinite(band) and band >= 0):
        raise ValueError(f"band must be a fraction of zero or more, not {band!r}")
    if target is not None and not (math.isfinite(target) and target > 0):
        raise ValueError(f"target must be a positive number of links, not {target!r}")
    low_high = link_band(width, height, band=band, target=target)
    most = width * height // 3
    if method == "quality" and low_high[0] > most:
        raise ValueError(f"the band asks for at least {low_high[0]} links, but a {width}x{height} board holds at most "
                         f"{most} links of 3 cells or more")
    return low_high


def generate(
    width: int,
    height: int,
    *,
    method: str = "quality",
    seed: int = 0,
    unique: bool = True,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | Deadline | None = None,
    certify_time_limit: float | None = 10.0,
    band: float = BAND,
    target: float | None = None,
    max_tries: int = DEFAULT_MAX_TRIES,
    solver: str | None = None,
    on_try: Callable[[int, int, dict[str, Any]], None] | None = None,
    certify_work: int | None = None,
) -> Generated:
    """One puzzle of ``width`` x ``height`` by ``method`` ("quality" or "unionfind").

    ``unique=True`` (the default) returns only a puzzle that SAT certifies unique under ``rules``
    from its text; the quality method always requires it. ``time_limit`` bounds the whole call
    (GenerationFailed when it runs out). Each uniqueness count is :func:`count_by_work`: at most
    ``certify_work`` conflicts per solver call decide it (by default the nominal work of
    ``certify_time_limit`` seconds, :func:`certify_conflicts`; a count undecided within them
    counts as a failed try, or labels the puzzle ``unique=None`` when uniqueness is not
    required), so the same arguments give the same puzzle on any machine and load: the clock
    (``time_limit``) may end a generation, never change its outcome. ``band``/``target`` set the quality method's accepted link counts
    (:func:`link_band`). Raises GenerationFailed after ``max_tries`` certificates (or 100 times
    as many draws), saying why the candidates drawn were turned down. ``on_try(draws, tries,
    rejected)``, when given, is called after each draw with the draws and certificates so far and
    the reasons candidates were turned down (a dict of counts it must not change; ``links``: the
    fewest and most links a quality candidate had): ``generate numberlink`` shows them on its
    progress line.

    >>> g = generate(5, 5, method="unionfind", seed=1, unique=False)
    >>> g.method, g.tries, g.unique in (True, False)
    ('unionfind', 1, True)
    """
    low_high = check_request(width, height, method=method, band=band, target=target)
    require_count(max_tries, "max_tries")
    certify_seconds = Deadline.of(certify_time_limit, name="certify_time_limit").time_limit  # (refused before any drawing)
    work = certify_conflicts(certify_seconds) if certify_work is None else _check_conflicts(certify_work, "certify_work")
    if solver is not None:
        check_solver_name(solver)  # before any drawing, not at the first certificate
    require_seed(seed)
    deadline = Deadline.of(time_limit)
    rng = random.Random(seed)
    started = time.perf_counter()
    tries = 0
    draws = timed_out = 0
    rejected: dict[str, Any] = {}  # why candidates were turned down (turned_down)
    while True:
        if on_try is not None and draws:
            on_try(draws, tries, rejected)
        if deadline.expired():
            raise GenerationFailed(f"no certified {width}x{height} puzzle within {deadline.time_limit} s "
                                   f"({draws} draws, {tries} tries{turned_down(rejected, low_high)})", tries=tries)
        draws += 1
        if draws > max_tries * 100:
            raise GenerationFailed(f"no acceptable {width}x{height} candidate in {draws - 1} draws"
                                   f"{turned_down(rejected, low_high)}", tries=tries)
        if method == "unionfind":
            links, blocked = unionfind_links(width, height, rng, deadline=deadline)
            if not links:
                _reject(rejected, "with no path drawn")
                continue
        else:
            candidate = quality_links(width, height, rng, target=target, deadline=deadline)
            problem = "with a leftover area no link absorbs" if candidate is None else _quality_problem(candidate, low_high)
            if candidate is not None:
                most_least = rejected.get("links", (len(candidate), len(candidate)))
                rejected["links"] = (min(most_least[0], len(candidate)), max(most_least[1], len(candidate)))
            if problem is not None:
                _reject(rejected, problem)
                continue
            links, blocked = candidate, frozenset()
        puzzle, solution = _puzzle_from_links(width, height, links, blocked)
        if verify(puzzle, solution, rules):
            _reject(rejected, "with a drawn path that breaks the rules")
            continue  # e.g. a drawn path that runs beside itself under no-self-touch rules
        while True:  # certify; a quality candidate with a second answer is cut where the two part
            tries += 1
            counted, reread = _count_from_text(puzzle, rules=rules, time_limit=deadline, solver=solver, work=work, known=solution)
            if counted is None:  # (the clock ends the generation; it never decides a try)
                raise GenerationFailed(f"no certified {width}x{height} puzzle within {deadline.time_limit} s: a uniqueness "
                                       f"count ran out of time ({draws} draws, {tries} tries)", tries=tries)
            if on_try is not None:
                on_try(draws, tries, rejected)
            is_unique = counted.unique
            if is_unique or not (unique or method == "quality"):
                return Generated(reread, solution, is_unique, tries, time.perf_counter() - started, seed, method)
            timed_out = timed_out + 1 if is_unique is None else 0
            if timed_out >= TIMED_OUT_STREAK:
                raise GenerationFailed(f"the uniqueness counts of {timed_out} {width}x{height} candidates in a row ran out of work "
                                       f"(undecided within {work} conflicts per solver call): allow more work (certify_time_limit or certify_work)", tries=tries)
            if tries >= max_tries:
                raise GenerationFailed(f"no certified unique {width}x{height} puzzle in {tries} tries", tries=tries)
            if method != "quality" or is_unique is None or deadline.expired():
                break
            drawn = _steps(links)  # (the count may have found the drawn answer second)
            other = next(answer for answer in counted.solutions if _steps(cells for _, cells in answer.paths) != drawn)
            links = _split_where_answers_differ(links, other, rng, low_high[1])
            if links is None:
                break
            puzzle, solution = _puzzle_from_links(width, height, links, blocked)
            if verify(puzzle, solution, rules):  # pragma: no cover (the parts are checked as drawn links are)
                break
