"""Exact minimum-swap search over the full state (A* with the admissible bounds of ``bounds``).

Rules in a sentence: a state gives every non-wall cell a square class; a move swaps two cells
when the square at one end reaches the other; the goal is the level's match/cluster/touch test.
The heuristic is admissible (and consistent for match and touch: one swap changes it by at
most one; states are reopened when a cheaper path turns up), so the first goal taken from the
queue is a proven minimum, and an exhausted queue proves the level unsolvable. A time limit or a cap on stored states ends the search with status "unknown" and
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
from .compiled import MATCH, TOUCH, Task
from .stepcost import SCALE as step_scale
from .stepcost import StepCostBound

DEFAULT_MAX_STATES = 3_000_000  # about 1.2 GB (measured 620 MB at 1.5 M states on a 28-cell level)
UNSET = 1 << 30
PACK = 1 << 14  # cell indices and costs (below the model's 10,000-cell cap) pack into one integer
MAX_CLASSES = 256  # a state is a bytes object: one byte per cell


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
    commute_pruning: bool = True,
    known_plan: Sequence[tuple[int, int]] | None = None,
    step_costs: StepCostBound | None = None,
) -> SearchOutcome:
    """A* from the start state of ``task`` to its goal, returning a shortest swap sequence.

    Partial-expansion A*: an expansion computes every child's f first (from the parent's
    bound data, without building the child) and stores only the children whose f equals the
    parent's queued value F; the parent goes back in the queue with the next larger child f.
    So the queue and the table of seen states hold few more states than are expanded.
    Ties on f go to the deeper state, then (match) to the smaller unrounded step-cost total:
    the state whose bound was rounded up the most has the most room for wasted steps, so it
    is likelier to reach the goal within f.

    ``known_plan`` (a valid plan, e.g. from :func:`quick_plan`) is an upper bound: only shorter
    plans are searched for, and it is returned as proven minimal once every smaller f is
    exhausted.
    """
    if len(task.classes) > MAX_CLASSES:
        raise ValueError(f"{len(task.classes)} square classes: the search handles at most {MAX_CLASSES}")
    deadline = Deadline.of(time_limit)
    start = bytes(task.start)
    upper = UNSET if known_plan is None else len(known_plan)
    n = len(task.cells)
    reach = task.reach
    reach_sets = [[frozenset(targets) for targets in per_cell] for per_cell in reach]
    class_colour = task.class_colour
    match = task.goal == MATCH
    if match:
        # h = max(cycle bound, half the assignment distance): the cycle part is cached per packed
        # colour-transfer key, the assignment part per (colour, cell mask)
        cycles = bounds.MatchHeuristic(task)
        unit = cycles.unit
        cycle_cache = cycles.cache
        cycle_value: Callable[[int], int] = cycles.value
        assignment = bounds.AssignmentBound(task)
        assignment_cache = assignment.cache
        assignment_cost = assignment.cost
        if step_costs is None:
            step_costs = StepCostBound(task, time_limit=deadline)
        step_cache = step_costs.cache
        step_cost = step_costs.cost
        shift = step_costs.shift
        h0 = max(cycles.value(cycles.key(start)), assignment.bound(start), step_costs.bound(start))
    else:
        # cluster and touch: the bound and the goal test depend on the colours only, so both
        # are cached per colour layout (h == 0 exactly at a goal)
        to_colours = bytes(class_colour[k] if k < len(class_colour) else 0 for k in range(256))
        layout_bound: dict[bytes, int] = {}

        def bound_of_layout(layout: bytes) -> int:
            value = layout_bound.get(layout)
            if value is None:
                value = layout_bound[layout] = bounds.bound_of_colours(task, layout)
            return value

        h0 = bound_of_layout(start.translate(to_colours))

    # best[state] = g * PACK * PACK + i * PACK + j: cost and the swap that led there (undo it to
    # get the parent); the queue holds (f * PACK - g, state), smallest f first, deeper first
    pack = PACK
    best: dict[bytes, int] = {start: 0}
    queue: list[tuple[int, int, bytes]] = [(h0 * pack, 0, start)]
    expanded = 0
    incumbent: tuple[int, bytes] | None = None
    if task.is_goal(start):
        return SearchOutcome("solved", [], 0, {"expanded": 0, "stored": 1})

    def path_to(state: bytes) -> list[tuple[int, int]]:
        swaps = []
        current = bytearray(state)
        while True:
            packed = best[bytes(current)]
            if packed < pack * pack:
                break
            i, j = divmod(packed % (pack * pack), pack)
            swaps.append((min(i, j), max(i, j)))
            current[i], current[j] = current[j], current[i]
        swaps.reverse()
        return swaps

    def stats() -> dict:
        return {"expanded": expanded, "stored": len(best)}

    while queue:
        priority, _, state = heapq.heappop(queue)
        f = -(-priority // pack)
        g = f * pack - priority
        if incumbent is not None and incumbent[0] <= f:
            return SearchOutcome("solved", path_to(incumbent[1]), incumbent[0], stats())
        if f >= upper:
            assert known_plan is not None
            return SearchOutcome("solved", list(known_plan), upper, stats())
        if best[state] // (pack * pack) < g:
            continue  # a cheaper copy was queued later
        expanded += 1
        if deadline.expired():
            return SearchOutcome("unknown", None, max(f, h0), stats())
        if len(best) > max_states:
            return SearchOutcome("unknown", None, max(f, h0), {**stats(), "state_cap": max_states})
        child_g = g + 1
        child_base = child_g * pack * pack
        next_f = UNSET
        # the swap that led here (la, lb): undoing it never helps, and a swap on other cells
        # with a smaller index commutes with it, so that order is left to the sibling path
        packed = best[state] % (pack * pack)
        if g > 0:
            la, lb = divmod(packed, pack)
            la, lb = min(la, lb), max(la, lb)
            last = la * pack + lb
        else:
            la = lb = last = -1
        if match:
            key = 0
            masks = [0] * assignment.ncol
            for i in range(n):
                c = class_colour[state[i]]
                key += unit[i][c]
                masks[c] |= 1 << i
            costs = [assignment_cost(x, mask) for x, mask in enumerate(masks)]
            total = sum(costs)
            h_same = max(cycle_value(key), (total + 1) // 2)  # a swap of two squares of one colour
            step_keys = step_costs.keys(state)
            step_parts = [step_cost(x, k) for x, k in enumerate(step_keys)]
            step_total = sum(step_parts)
        else:
            layout = state.translate(to_colours)
            h_layout = bound_of_layout(layout)
        for i in range(n):
            if i & 15 == 15 and deadline.expired():  # big boards: an expansion can take long
                return SearchOutcome("unknown", None, max(f, h0), stats())
            ki = state[i]
            ci = class_colour[ki]
            for j in reach[ki][i]:
                kj = state[j]
                if kj == ki or (j < i and i in reach_sets[kj][j]):
                    continue  # no change, or the same swap is generated from the other end
                if last >= 0:
                    code = i * pack + j if i < j else j * pack + i
                    if code == last:
                        continue
                    if commute_pruning and code < last and i != la and i != lb and j != la and j != lb:
                        continue
                if match:
                    # the step-cost bound first (usually the strongest): most children stop there
                    cj = class_colour[kj]
                    if ci == cj:
                        sk = step_keys[ci] - shift[ki][i] - shift[kj][j] + shift[kj][i] + shift[ki][j]
                        s = step_cache[ci].get(sk)
                        if s is None:
                            s = step_cost(ci, sk)
                        tie = step_total - step_parts[ci] + s
                        h = -(-tie // step_scale)
                    else:
                        si = step_keys[ci] - shift[ki][i] + shift[ki][j]
                        sj = step_keys[cj] - shift[kj][j] + shift[kj][i]
                        s = step_cache[ci].get(si)
                        if s is None:
                            s = step_cost(ci, si)
                        s2 = step_cache[cj].get(sj)
                        if s2 is None:
                            s2 = step_cost(cj, sj)
                        tie = step_total - step_parts[ci] - step_parts[cj] + s + s2
                        h = -(-tie // step_scale)
                    if child_g + h > f:
                        if child_g + h < next_f:
                            next_f = child_g + h
                        continue
                    if ci == cj:
                        child_key = key
                        if h_same > h:
                            h = h_same
                    else:
                        ui, uj = unit[i], unit[j]
                        child_key = key - ui[ci] - uj[cj] + ui[cj] + uj[ci]
                        if child_key == 0:
                            h = 0
                        else:
                            flip = (1 << i) | (1 << j)
                            mi, mj = masks[ci] ^ flip, masks[cj] ^ flip
                            ai = assignment_cache[ci].get(mi)
                            if ai is None:
                                ai = assignment_cost(ci, mi)
                            aj = assignment_cache[cj].get(mj)
                            if aj is None:
                                aj = assignment_cost(cj, mj)
                            half = (total - costs[ci] - costs[cj] + ai + aj + 1) // 2
                            if half > h:
                                h = half
                            if child_g + h <= f:
                                c = cycle_cache.get(child_key)
                                if c is None:
                                    c = cycle_value(child_key)
                                if c > h:
                                    h = c
                    if child_g + h > f:
                        if child_g + h < next_f:
                            next_f = child_g + h
                        continue
                else:
                    tie = 0
                    cj = class_colour[kj]
                    if ci == cj:
                        h = h_layout
                    else:
                        swapped = bytearray(layout)
                        swapped[i], swapped[j] = cj, ci
                        h = bound_of_layout(bytes(swapped))
                    if child_g + h > f:
                        if child_g + h < next_f:
                            next_f = child_g + h
                        continue
                if child_g >= upper:
                    continue  # no shorter than the known plan
                child = bytearray(state)
                child[i], child[j] = kj, ki
                child_state = bytes(child)
                known = best.get(child_state)
                if known is not None and known < child_base + pack * pack:
                    continue  # reached before at no greater cost
                if child_key == 0 if match else h == 0:
                    best[child_state] = child_base + i * pack + j
                    if incumbent is None or child_g < incumbent[0]:
                        incumbent = (child_g, child_state)
                    continue
                best[child_state] = child_base + i * pack + j
                heapq.heappush(queue, ((child_g + h) * pack - child_g, tie, child_state))
        if next_f < upper:
            heapq.heappush(queue, (next_f * pack - g, step_total if match else 0, state))
    if incumbent is not None:
        return SearchOutcome("solved", path_to(incumbent[1]), incumbent[0], stats())
    if known_plan is not None:
        return SearchOutcome("solved", list(known_plan), upper, stats())
    return SearchOutcome("unsatisfiable", None, h0, stats())


def quick_plan(
    task: Task,
    *,
    weight: float = 2.0,
    max_expansions: int = 100_000,
    time_limit: "float | Deadline | None" = None,
    step_costs: StepCostBound | None = None,
) -> list[tuple[int, int]] | None:
    """Some plan, not necessarily shortest: best-first search on g + weight * h (the admissible
    bound inflated), capped; ``None`` when the cap or the limit comes first.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> len(quick_plan(task))
    2
    """
    deadline = Deadline.of(time_limit)
    if task.goal == MATCH:
        cycles = bounds.MatchHeuristic(task)
        assignment = bounds.AssignmentBound(task)
        steps = StepCostBound(task, time_limit=deadline) if step_costs is None else step_costs

        def h(state: bytes) -> int:
            return max(cycles.value(cycles.key(state)), assignment.bound(state), steps.bound(state))
    else:
        bound = bounds.touch_bound if task.goal == TOUCH else bounds.cluster_bound

        def h(state: bytes) -> int:
            return bound(task, state)

    start = bytes(task.start)
    parent: dict[bytes, tuple[bytes, int, int] | None] = {start: None}
    queue = [(weight * h(start), 0, start)]
    expansions = 0
    while queue and expansions < max_expansions:
        _, g, state = heapq.heappop(queue)
        if task.is_goal(state):
            swaps = []
            while parent[state] is not None:
                state, i, j = parent[state]  # type: ignore[misc]
                swaps.append((i, j))
            return swaps[::-1]
        expansions += 1
        if deadline.expired():
            return None
        for count, (i, j) in enumerate(task.legal_swaps(state)):
            if count & 31 == 31 and deadline.expired():
                return None
            child = bytearray(state)
            child[i], child[j] = child[j], child[i]
            child_state = bytes(child)
            if child_state not in parent:
                parent[child_state] = (state, i, j)
                heapq.heappush(queue, (g + 1 + weight * h(child_state), g + 1, child_state))
    return None


def replay(task: Task, swaps: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The state after applying ``swaps`` (cell-index pairs) to the start, without legality checks."""
    state = list(task.start)
    for i, j in swaps:
        state[i], state[j] = state[j], state[i]
    return tuple(state)
