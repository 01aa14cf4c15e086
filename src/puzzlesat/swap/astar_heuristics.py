"""The heuristics of the published Swap A* baseline (:mod:`.astar`; none is admissible): distances to
the nearest cell of the colour wanted (match), to the largest group of one's colour (cluster) or
to the nearest square of one's colour (touch), each also plus the count of cells out of place;
over a level compiled to integer states.

>>> from .model import Level
>>> compiled = _Compiled.of(Level.from_rows(["T1R T1G", "T1G T1R"], goal=["R G", "R G"]))
>>> [heuristic(compiled, name)(compiled.start) for name in default_heuristics("match")]
[2.0, 2.0, 4.0, 4.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from .model import Level
from .moves import ray_table


MATCH_HEURISTICS = ("H_E", "H_M", "H_EM", "H_MM")
CLUSTER_HEURISTICS = ("H_C", "H_CC")
TOUCH_HEURISTICS = ("H_T", "H_TC")


@dataclass
class _Compiled:
    """The level as flat integer states: cell i = r * cols + c holds a kind index or -1 (wall)."""

    rows: int
    cols: int
    start: tuple[int, ...]
    kind_colour: list[int]  # kind -> colour index
    reach: list[list[tuple[int, ...]]]  # reach[cell][kind] -> cells that kind reaches from cell
    goal: Optional[tuple[int, ...]]  # goal colour per cell (-1 wall) for match
    neighbours: list[tuple[int, ...]]  # orthogonal non-wall neighbours

    @classmethod
    def of(cls, level: Level) -> "_Compiled":
        rows, cols = level.rows, level.cols
        kinds = sorted({sq for row in level.start for sq in row if sq is not None}, key=str)
        kind_index = {sq: k for k, sq in enumerate(kinds)}
        colours = sorted({sq.colour for sq in kinds})
        colour_index = {c: i for i, c in enumerate(colours)}
        start = tuple(-1 if sq is None else kind_index[sq] for row in level.start for sq in row)
        rays = ray_table(rows, cols, level.walls)
        reach: list[list[tuple[int, ...]]] = []
        for i in range(rows * cols):
            cell = divmod(i, cols)
            if start[i] < 0:
                reach.append([() for _ in kinds])
                continue
            reach.append(
                [tuple(v[0] * cols + v[1] for ray in rays[(cell, sq.figure)] for v in ray[: sq.scope]) for sq in kinds]
            )
        goal = None
        if level.goal.colours is not None:
            goal = tuple(-1 if c is None else colour_index[c] for row in level.goal.colours for c in row)
        neighbours = []
        for i in range(rows * cols):
            r, c = divmod(i, cols)
            near = [(r + dr) * cols + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < rows and 0 <= c + dc < cols]
            neighbours.append(tuple(j for j in near if start[j] >= 0))
        return cls(rows, cols, start, [colour_index[sq.colour] for sq in kinds], reach, goal, neighbours)

    def colours(self, state: Sequence[int]) -> list[int]:
        kc = self.kind_colour
        return [-1 if k < 0 else kc[k] for k in state]

    def successors(self, state: tuple[int, ...]) -> list[tuple[int, int]]:
        """Each legal swap once, as (mover cell, other cell)."""
        seen: set[tuple[int, int]] = set()
        out = []
        for i, kind in enumerate(state):
            if kind < 0:
                continue
            for j in self.reach[i][kind]:
                key = (i, j) if i < j else (j, i)
                if key not in seen:
                    seen.add(key)
                    out.append((i, j))
        return out

    def groups(self, colours: Sequence[int]) -> list[list[int]]:
        """Orthogonally connected same-colour groups."""
        seen = [False] * len(colours)
        groups = []
        for i, colour in enumerate(colours):
            if colour < 0 or seen[i]:
                continue
            seen[i] = True
            group, todo = [], [i]
            while todo:
                j = todo.pop()
                group.append(j)
                for n in self.neighbours[j]:
                    if not seen[n] and colours[n] == colour:
                        seen[n] = True
                        todo.append(n)
            groups.append(group)
        return groups

    def is_goal(self, state: tuple[int, ...], kind: str) -> bool:
        colours = self.colours(state)
        if kind == "match":
            return tuple(colours) == self.goal
        if kind == "cluster":
            seen_colours = set()
            for group in self.groups(colours):
                colour = colours[group[0]]
                if colour in seen_colours:
                    return False
                seen_colours.add(colour)
            return True
        return all(colour < 0 or any(colours[n] == colour for n in self.neighbours[i]) for i, colour in enumerate(colours))


def distance_table(compiled: _Compiled, metric: str) -> list[list[float]]:
    """Distances between flat cells (Euclidean or Manhattan), computed once per level."""
    cols, n = compiled.cols, compiled.rows * compiled.cols
    where = [divmod(i, cols) for i in range(n)]
    if metric == "euclid":
        return [[math.hypot(a[0] - b[0], a[1] - b[1]) for b in where] for a in where]
    return [[float(abs(a[0] - b[0]) + abs(a[1] - b[1])) for b in where] for a in where]


def match_heuristic(compiled: _Compiled, metric: str, plus_count: bool) -> Callable[[tuple[int, ...]], float]:
    goal = compiled.goal
    assert goal is not None
    dist = distance_table(compiled, metric)

    def h(colours: tuple[int, ...]) -> float:
        wrong = [i for i, colour in enumerate(colours) if colour >= 0 and colour != goal[i]]
        if not wrong:
            return 0.0
        needing: dict[int, list[int]] = {}
        for j in wrong:
            needing.setdefault(goal[j], []).append(j)
        total = 0.0
        for i in wrong:
            targets = needing.get(colours[i])
            if targets:
                row = dist[i]
                total += min(row[j] for j in targets)
        return total + (len(wrong) if plus_count else 0)

    return h


def cluster_heuristic(compiled: _Compiled, plus_count: bool) -> Callable[[tuple[int, ...]], float]:
    dist = distance_table(compiled, "manhattan")

    def h(colours: tuple[int, ...]) -> float:
        largest: dict[int, list[int]] = {}
        for group in compiled.groups(colours):
            colour = colours[group[0]]
            if colour not in largest or len(group) > len(largest[colour]):
                largest[colour] = group
        inside = {i for group in largest.values() for i in group}
        total = 0.0
        outside = 0
        for i, colour in enumerate(colours):
            if colour < 0 or i in inside:
                continue
            outside += 1
            row = dist[i]
            total += min(row[j] for j in largest[colour]) - 1
        return total + (outside if plus_count else 0)

    return h


def touch_heuristic(compiled: _Compiled, plus_count: bool) -> Callable[[tuple[int, ...]], float]:
    dist = distance_table(compiled, "manhattan")

    def h(colours: tuple[int, ...]) -> float:
        total = 0.0
        lonely = 0
        for i, colour in enumerate(colours):
            if colour < 0 or any(colours[n] == colour for n in compiled.neighbours[i]):
                continue
            lonely += 1
            others = [j for j, c in enumerate(colours) if c == colour and j != i]
            if others:
                row = dist[i]
                total += min(row[j] for j in others) - 1
        return total + (lonely if plus_count else 0)

    return h


def heuristic(compiled: _Compiled, name: str) -> Callable[[tuple[int, ...]], float]:
    table: dict[str, Callable[[], Callable[[tuple[int, ...]], float]]] = {
        "H_E": lambda: match_heuristic(compiled, "euclid", False),
        "H_M": lambda: match_heuristic(compiled, "manhattan", False),
        "H_EM": lambda: match_heuristic(compiled, "euclid", True),
        "H_MM": lambda: match_heuristic(compiled, "manhattan", True),
        "H_C": lambda: cluster_heuristic(compiled, False),
        "H_CC": lambda: cluster_heuristic(compiled, True),
        "H_T": lambda: touch_heuristic(compiled, False),
        "H_TC": lambda: touch_heuristic(compiled, True),
    }
    if name not in table:
        raise ValueError(f"unknown heuristic {name!r} (known: {', '.join(table)})")
    on_colours = table[name]()
    kind_colour = compiled.kind_colour
    cache: dict[tuple[int, ...], float] = {}

    def h(state: tuple[int, ...]) -> float:
        # every heuristic reads only the colour layout: cache by it (swaps of equal colours repeat it)
        layout = tuple([-1 if k < 0 else kind_colour[k] for k in state])
        value = cache.get(layout)
        if value is None:
            value = cache[layout] = on_colours(layout)
        return value

    return h


def default_heuristics(goal_kind: str) -> tuple[str, ...]:
    return {"match": MATCH_HEURISTICS, "cluster": CLUSTER_HEURISTICS, "touch": TOUCH_HEURISTICS}[goal_kind]
