"""Quick plans for Swap levels, short but not proven shortest: a beam search (:func:`beam_plan`), a
greedy best-first plan (:func:`quick_plan`), a plan guided by distances to the goal
(:func:`distance_plan`), and the replay of a plan's swaps.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> replay(task, quick_plan(task)) == replay(task, [(0, 1), (1, 2)])
True
"""

from __future__ import annotations

import heapq
from typing import Iterator, Sequence

import numpy as np

from ..timing import Deadline
from . import bounds
from .compiled import MATCH, Task
from .expansion import UNSET, child_evaluator
from .stepcost import BoundTimeout, StepCostBound


DISTANCE_PLAN_MAX_CELLS = 400  # distance_plan: the generator's largest board (the game's: 42 cells)


def _swaps_to(parent: "dict[bytes, tuple[bytes, int, int] | None]", state: bytes) -> list[tuple[int, int]]:
    """The swaps from the start to ``state`` along the parent links (the start's link is None)."""
    swaps = []
    while (link := parent[state]) is not None:
        state, i, j = link
        swaps.append((i, j))
    return swaps[::-1]


def _children(task: Task, state: bytes, deadline: Deadline) -> Iterator[tuple[int, int, bytes]]:
    """The legal swaps of ``state`` and the states they lead to, for the plan searches; stops
    early once ``deadline`` has passed (checked every 32 children: one expansion of a large
    queen board makes thousands), and the caller's next deadline check then ends its search."""
    for count, (i, j) in enumerate(task.legal_swaps(state)):
        if count & 31 == 31 and deadline.expired():
            return
        child = bytearray(state)
        child[i], child[j] = child[j], child[i]
        yield i, j, bytes(child)


def beam_plan(
    task: Task,
    *,
    length: int,
    width: int,
    time_limit: "float | Deadline | None" = None,
    step_costs: StepCostBound | None = None,
) -> list[tuple[int, int]] | None:
    """A plan of at most ``length`` swaps found by beam search, or ``None`` (none found: not a
    proof that none exists).

    Breadth-first by depth, keeping at every depth only the ``width`` best new states, and
    only children that can still reach the goal within ``length`` by the admissible bound
    (``g + h <= length``); best = smaller f, then smaller tie (match: unrounded step-cost
    total; cluster, touch: the layout's guide), as in the tie-breaking of :func:`search`. With
    a strong bound this finds a plan of the minimum length far sooner than A* on a large f
    plateau (encodings/swap.md, "Notes moved from the code"), and such a plan is then proven
    minimal at once.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> beam_plan(task, length=2, width=4), beam_plan(task, length=1, width=4)
    ([(0, 1), (1, 2)], None)
    """
    deadline = Deadline.of(time_limit)
    start = bytes(task.start)
    if task.is_goal(start):
        return []
    expand, h0 = child_evaluator(task, step_costs=step_costs, time_limit=deadline)
    if h0 > length:
        return None
    parent: dict[bytes, tuple[bytes, int, int] | None] = {start: None}
    layer: list[tuple[bytes, int, int]] = [(start, -1, -1)]  # state and the swap that led there
    for g in range(length):
        candidates: list[tuple[int, int, bytes, int, int]] = []
        for state, la, lb in layer:
            if deadline.expired():
                return None
            expansion = expand(state, g, length, la, lb, deadline)
            if expansion is None:
                return None
            for h, tie, i, j in expansion[0]:
                child = bytearray(state)
                child[i], child[j] = child[j], child[i]
                child_state = bytes(child)
                if child_state in parent:
                    continue  # met before, at this depth or a smaller one
                parent[child_state] = (state, i, j)
                if h == 0:
                    return [(min(a, b), max(a, b)) for a, b in _swaps_to(parent, child_state)]
                candidates.append((h, tie, child_state, min(i, j), max(i, j)))
        if not candidates:
            return None
        candidates.sort(key=lambda c: (c[0], c[1]))
        layer = [(state, i, j) for _, _, state, i, j in candidates[:width]]
    return None


def quick_plan(
    task: Task,
    *,
    weight: float = 2.0,
    max_expansions: int = 100_000,
    time_limit: "float | Deadline | None" = None,
    step_costs: StepCostBound | None = None,
) -> list[tuple[int, int]] | None:
    """Some plan, not necessarily shortest: best-first search on g + weight * h (the admissible
    bound inflated; for the cluster and touch goals plus (weight - 1) / 2 times the layout's
    guide, :meth:`bounds.LayoutBound.guide`), capped; ``None`` when the cap or the limit comes
    first.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> len(quick_plan(task))
    2
    """
    deadline = Deadline.of(time_limit)
    if task.goal == MATCH:
        cycles = bounds.MatchHeuristic(task)
        assignment = bounds.AssignmentBound(task)
        try:
            steps = StepCostBound(task, time_limit=deadline) if step_costs is None else step_costs
        except BoundTimeout:
            return None

        def h(state: bytes) -> int:
            return max(cycles.value(cycles.key(state)), assignment.bound(state), steps.bound(state))
    else:
        # the bound, and the layout's guide (LayoutBound.guide) added with weight (weight - 1) / 2:
        # ordered by the flat bound alone, the beams wander on expert-size cluster levels
        layout_bound = bounds.LayoutBound(task)
        guide_weight = (weight - 1) / 2 / weight

        def h(state: bytes) -> float:
            bound, guide = layout_bound.values(state.translate(layout_bound.to_colours))
            return bound + guide_weight * guide

    start = bytes(task.start)
    parent: dict[bytes, tuple[bytes, int, int] | None] = {start: None}
    queue = [(weight * h(start), 0, start)]
    expansions = 0
    while queue and expansions < max_expansions:
        _, g, state = heapq.heappop(queue)
        if task.is_goal(state):
            return _swaps_to(parent, state)
        expansions += 1
        if deadline.expired():
            return None
        for i, j, child_state in _children(task, state, deadline):
            if child_state not in parent:
                parent[child_state] = (state, i, j)
                heapq.heappush(queue, (g + 1 + weight * h(child_state), g + 1, child_state))
    return None


def distance_plan(
    task: Task,
    *,
    metric: str = "euclid",
    max_expansions: int = 5_000,
    time_limit: "float | Deadline | None" = None,
) -> list[tuple[int, int]] | None:
    """Some plan for a *match* level, not necessarily shortest: best-first search on g + guide,
    where the guide sums, over the cells whose colour is wrong, the distance (``"euclid"`` or
    ``"manhattan"``) to the nearest wrong cell that wants that colour. That is the published
    game's heuristic (not admissible, so nothing here is proven); it pulls squares toward where
    they are wanted, where the beams follow the admissible bounds, and on some large levels it
    reaches shorter plans than they do (encodings/swap.md, "Notes moved from the code").
    ``None`` when the cap or the limit comes first, and at once on a board of more than
    :data:`DISTANCE_PLAN_MAX_CELLS` cells (a guide over all wrong cells per child is too dear
    there: one expansion can outlast a short time limit).

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> distance_plan(task)
    [(0, 1), (1, 2)]
    """
    if task.goal != MATCH:
        raise ValueError("distance_plan guides toward a goal colour matrix (match goal only)")
    if metric not in ("euclid", "manhattan"):
        raise ValueError(f"unknown metric {metric!r} (known: euclid, manhattan)")
    if len(task.cells) > DISTANCE_PLAN_MAX_CELLS:
        return None
    deadline = Deadline.of(time_limit)
    rows = np.array([r for r, _ in task.cells], dtype=float)
    cols = np.array([c for _, c in task.cells], dtype=float)
    rows_apart, cols_apart = np.abs(rows[:, None] - rows[None, :]), np.abs(cols[:, None] - cols[None, :])
    distance = (np.hypot(rows_apart, cols_apart) if metric == "euclid" else rows_apart + cols_apart).tolist()
    goal = task.goal_colours
    to_colours = task.colour_table()
    guides: dict[bytes, float] = {}  # by colour layout: swaps of equal colours repeat it

    def guide(state: bytes) -> float:
        colours = state.translate(to_colours)
        value = guides.get(colours)
        if value is None:
            wrong = [i for i, colour in enumerate(colours) if colour != goal[i]]
            wanting: dict[int, list[int]] = {}
            for j in wrong:
                wanting.setdefault(goal[j], []).append(j)
            value = guides[colours] = sum(
                min(distance[i][j] for j in wanting[colours[i]]) for i in wrong if colours[i] in wanting
            )
        return value

    start = bytes(task.start)
    parent: dict[bytes, tuple[bytes, int, int] | None] = {start: None}
    best_g = {start: 0}
    closed: set[bytes] = set()
    # ties of f go to the smaller g: deeper first found longer plans or none on the 7x6 levels
    # left open (021: 28 against 27, 010: 36 against 33, 012: none against 36)
    queue = [(guide(start), 0, start)]
    while queue and len(closed) < max_expansions:
        _, g, state = heapq.heappop(queue)
        if state in closed:
            continue
        if task.is_goal(state):
            return _swaps_to(parent, state)
        if deadline.expired():
            return None
        closed.add(state)
        for i, j, child_state in _children(task, state, deadline):
            if child_state not in closed and g + 1 < best_g.get(child_state, UNSET):
                best_g[child_state] = g + 1
                parent[child_state] = (state, i, j)
                heapq.heappush(queue, (g + 1 + guide(child_state), g + 1, child_state))
    return None


def replay(task: Task, swaps: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The state after applying ``swaps`` (cell-index pairs) to the start, without legality checks."""
    state = list(task.start)
    for i, j in swaps:
        state[i], state[j] = state[j], state[i]
    return tuple(state)
