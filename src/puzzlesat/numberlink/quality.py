"""The quality drawing of :mod:`.generate` (puzzlemadness.co.uk's puzzle-maker pipeline): links of
fewest turns from dead-end cells until the board is covered, small areas absorbed, links whose ends
touch merged; why a candidate is turned down; and the cut of a link where two answers part.

>>> import random
>>> links = quality_links(5, 5, random.Random(4))
>>> links is None or sorted(cell for link in links for cell in link) == [(r, c) for r in range(5) for c in range(5)]
True
"""

from __future__ import annotations

import heapq
import itertools
import random
from typing import Any, Iterable, Iterator, Sequence

from ..grid import Cell
from ..timing import Deadline
from .links import _adjacent, _neighbours, _runs_beside_itself, target_links
from .model import Solution


MAX_TURNS = 6          # the first link of the quality pipeline turns at most this often
SMALL_AREA = 3         # free areas of at most this many cells are absorbed into a neighbouring link
TARGET_ATTEMPTS = 6    # targets tried per new link before accepting one that leaves a bad pocket


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
