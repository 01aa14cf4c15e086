"""Exact minimum-swap search over the full state (A* with the admissible bounds of ``bounds``).

Rules in a sentence: a state gives every non-wall cell a square class; a move swaps two cells
when the square at one end reaches the other; the goal is the level's match/cluster/touch test.
The heuristic is admissible and consistent (one swap changes it by at most one), so the first
goal taken from the queue is a proven minimum, and an exhausted queue proves the level
unsolvable. A time limit or a cap on stored states ends the search with status "unknown" and
the smallest f value left in the queue as a proven lower bound.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> outcome = search(task)
>>> outcome.status, outcome.swaps, outcome.lower_bound
('solved', [(0, 1), (1, 2)], 2)
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..timing import Deadline
from . import bounds
from .compiled import MATCH, Task

DEFAULT_MAX_STATES = 1_500_000  # about 300 MB of Python objects at the largest boards
CHECK_EVERY = 256  # expansions between two looks at the clock
UNSET = 1 << 30


@dataclass
class SearchOutcome:
    """``status`` is "solved", "unsatisfiable" (state space exhausted) or "unknown" (limit hit);
    ``swaps`` are cell-index pairs (see :class:`Task`), minimal when solved."""

    status: str
    swaps: list[tuple[int, int]] | None
    lower_bound: int
    stats: dict = field(default_factory=dict)


def search(
    task: Task,
    *,
    time_limit: "float | Deadline | None" = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> SearchOutcome:
    """A* from the start state of ``task`` to its goal, returning a shortest swap sequence."""
    deadline = Deadline.of(time_limit)
    start = bytes(task.start)
    n = len(task.cells)
    reach = task.reach
    reach_sets = [[frozenset(targets) for targets in per_cell] for per_cell in reach]

    match = task.goal == MATCH
    if match:
        # h = max(cycle bound, half the assignment distance): the cycle part is cached per packed
        # colour-transfer key, the assignment part per (colour, cell mask)
        heuristic = bounds.MatchHeuristic(task)
        assignment = bounds.AssignmentBound(task)
        assignment_cost = assignment.cost
        class_colour = task.class_colour
        start_key = heuristic.key(start)
        cycle_value: Callable[[int], int] = heuristic.value
        after_swap = heuristic.after_swap
        h0 = max(cycle_value(start_key), assignment.bound(start))
    else:
        bound = bounds.cluster_bound if task.goal != "touch" else bounds.touch_bound
        start_key = 0
        h0 = bound(task, start)

    def is_goal(state: bytes, key: int) -> bool:
        return key == 0 if match else task.is_goal(state)

    # best[state] = (g, i, j): cost and the swap that led there (undo it to get the parent)
    best: dict[bytes, tuple[int, int, int]] = {start: (0, -1, -1)}
    queue: list[tuple[int, int, bytes, int]] = [(h0, 0, start, start_key)]
    expanded = 0
    incumbent: tuple[int, bytes] | None = None
    if is_goal(start, start_key):
        incumbent = (0, start)

    def path_to(state: bytes) -> list[tuple[int, int]]:
        swaps = []
        current = bytearray(state)
        while True:
            g, i, j = best[bytes(current)]
            if i < 0:
                break
            swaps.append((min(i, j), max(i, j)))
            current[i], current[j] = current[j], current[i]
        swaps.reverse()
        return swaps

    def stats() -> dict:
        return {"expanded": expanded, "stored": len(best)}

    # Partial-expansion A*: an expansion stores only the children whose f equals the parent's
    # queued value F and re-queues the parent with the next larger child f, so the queue does
    # not fill with children that are never expanded.
    while queue:
        f, neg_g, state, key = heapq.heappop(queue)
        g = -neg_g
        if incumbent is not None and incumbent[0] <= f:
            return SearchOutcome("solved", path_to(incumbent[1]), incumbent[0], stats())
        if best[state][0] < g:
            continue  # a cheaper copy was queued later
        expanded += 1
        if expanded % CHECK_EVERY == 0 and deadline.expired():
            return SearchOutcome("unknown", None, max(f, h0), stats())
        if len(best) > max_states:
            return SearchOutcome("unknown", None, max(f, h0), {**stats(), "state_cap": max_states})
        child_g = g + 1
        next_f = UNSET
        if match:
            masks = assignment.masks(state)
            costs = [assignment_cost(x, mask) for x, mask in enumerate(masks)]
            total = sum(costs)
        for i in range(n):
            ki = state[i]
            for j in reach[ki][i]:
                kj = state[j]
                if kj == ki or (j < i and i in reach_sets[kj][j]):
                    continue  # no change, or the same swap is generated from the other end
                child = bytearray(state)
                child[i], child[j] = kj, ki
                child_state = bytes(child)
                known = best.get(child_state)
                if known is not None and known[0] <= child_g:
                    continue
                child_key = after_swap(key, state, i, j) if match else 0
                if is_goal(child_state, child_key):
                    best[child_state] = (child_g, i, j)
                    if incumbent is None or child_g < incumbent[0]:
                        incumbent = (child_g, child_state)
                    continue
                if match:
                    h = cycle_value(child_key)
                    ci, cj = class_colour[ki], class_colour[kj]
                    if ci != cj:
                        flip = (1 << i) | (1 << j)
                        moved = (
                            total - costs[ci] - costs[cj]
                            + assignment_cost(ci, masks[ci] ^ flip) + assignment_cost(cj, masks[cj] ^ flip)
                        )
                        h = max(h, (moved + 1) // 2)
                    else:
                        h = max(h, (total + 1) // 2)
                else:
                    h = bound(task, child_state)
                child_f = child_g + h
                if child_f > f:
                    next_f = min(next_f, child_f)
                    continue
                best[child_state] = (child_g, i, j)
                heapq.heappush(queue, (child_f, -child_g, child_state, child_key))
        if next_f != UNSET:
            heapq.heappush(queue, (next_f, neg_g, state, key))
    if incumbent is not None:
        return SearchOutcome("solved", path_to(incumbent[1]), incumbent[0], stats())
    return SearchOutcome("unsatisfiable", None, h0, stats())


def replay(task: Task, swaps: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The state after applying ``swaps`` (cell-index pairs) to the start, without legality checks."""
    state = list(task.start)
    for i, j in swaps:
        state[i], state[j] = state[j], state[i]
    return tuple(state)
