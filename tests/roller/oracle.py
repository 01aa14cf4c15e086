"""A tiny exact breadth-first solver over (ball cell, painted cells), for tests only.

It stands in for ``puzzlesat.roller.solve.solve`` where a test must not depend on it (the CLI
adapter and generator tests monkeypatch it in) and serves as an independent check of minima on
small boards. Exponential in the floor size: keep boards small.
"""

from __future__ import annotations

import sys
import types
from collections import deque
from typing import Callable

from puzzlesat.results import SolveResult, Status
from puzzlesat.roller.model import MOVES, Level, slide
from puzzlesat.roller.verify import verify


def bfs_min_moves(level: Level, *, max_states: int = 2_000_000) -> str | None:
    """A shortest move string painting every floor cell, or None when there is none."""
    index = {cell: i for i, cell in enumerate(level.floor_cells)}
    full = (1 << len(index)) - 1
    masks: dict[tuple[tuple[int, int], str], int] = {}
    start_state = (level.start, 1 << index[level.start])
    if start_state[1] == full:
        return ""
    parent = {start_state: None}
    queue = deque([start_state])
    while queue:
        state = queue.popleft()
        cell, painted = state
        for direction in MOVES:
            key = (cell, direction)
            if key not in masks:
                stop, cells = slide(level, cell, direction)
                mask = 0
                for c in cells:
                    mask |= 1 << index[c]
                masks[key] = mask if cells else -1
                masks[(cell, direction, "stop")] = stop  # type: ignore[index]
            mask = masks[key]
            if mask < 0:
                continue
            nxt = (masks[(cell, direction, "stop")], painted | mask)  # type: ignore[index]
            if nxt in parent:
                continue
            parent[nxt] = (state, direction)
            if nxt[1] == full:
                moves = []
                at = nxt
                while parent[at] is not None:
                    at, d = parent[at]
                    moves.append(d)
                return "".join(reversed(moves))
            if len(parent) > max_states:
                raise RuntimeError("oracle: too many states")
            queue.append(nxt)
    return None


def stand_in_solve(level: Level, *, time_limit=None, method=None, work_limit=None) -> SolveResult:
    """The shape of ``puzzlesat.roller.solve.solve`` backed by :func:`bfs_min_moves`."""
    moves = bfs_min_moves(level)
    if moves is None:
        return SolveResult(Status.UNSATISFIABLE, method="bfs-oracle", stats={"reason": "no walk paints every floor cell"})
    assert not verify(level, moves)
    return SolveResult(Status.SOLVED, moves, optimal=True, lower_bound=len(moves), method="bfs-oracle")


def install_solver(monkeypatch, solve_function: Callable[..., SolveResult]) -> types.ModuleType:
    """Stand ``solve_function`` in for ``puzzlesat.roller.solve.solve`` (what the CLI adapter and
    the generator import) for one test."""
    module = types.ModuleType("puzzlesat.roller.solve")
    module.solve = solve_function
    monkeypatch.setitem(sys.modules, "puzzlesat.roller.solve", module)
    return module
