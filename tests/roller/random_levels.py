"""Seeded random Roller levels for the solver and stop-graph tests (no data files needed)."""

from __future__ import annotations

import random
from collections import deque

from puzzlesat.roller.model import Level
from puzzlesat.roller.stopgraph import StopGraph


def random_level(rng: random.Random, *, max_side: int = 8, wall_probability: float = 0.3) -> Level:
    """A board of random size (2..max_side per side) with random walls and a random start."""
    while True:
        height, width = rng.randint(2, max_side), rng.randint(2, max_side)
        rows = ["".join("#" if rng.random() < wall_probability else "." for _ in range(width)) for _ in range(height)]
        floor = [(r, c) for r in range(height) for c in range(width) if rows[r][c] == "."]
        if floor:
            return Level(tuple(rows), rng.choice(floor))


def brute_force_minimum(level: Level, *, max_states: int = 2_000_000) -> int | None:
    """Fewest moves by breadth-first search over (ball cell, painted cells); None if unsolvable.

    Independent of the stop graph's key cells: it tracks every floor cell."""
    from puzzlesat.roller.model import MOVES, slide

    floor = level.floor_cells
    index = {c: i for i, c in enumerate(floor)}
    full = (1 << len(floor)) - 1
    first = (level.start, 1 << index[level.start])
    if first[1] == full:
        return 0
    seen = {first}
    queue = deque([(first, 0)])
    while queue:
        (cell, mask), depth = queue.popleft()
        for d in MOVES:
            stop, painted = slide(level, cell, d)
            if not painted:
                continue
            new = mask
            for c in painted:
                new |= 1 << index[c]
            if new == full:
                return depth + 1
            state = (stop, new)
            if state not in seen:
                seen.add(state)
                assert len(seen) < max_states, "level too large for brute force"
                queue.append((state, depth + 1))
    return None


def small_graph_level(rng: random.Random, *, max_side: int = 6, max_keys: int = 14) -> tuple[Level, StopGraph]:
    """A random level whose stop graph has few key cells (cheap to brute-force)."""
    while True:
        level = random_level(rng, max_side=max_side)
        graph = StopGraph.of(level)
        if len(graph.key_cells) <= max_keys and level.floor_count <= 24:
            return level, graph
