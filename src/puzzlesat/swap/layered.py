"""The breadth-first proof of Swap (:func:`layered_proof`): every state within a length, one layer of
states at a time as sorted arrays, so that a level with no plan that short is proved so where
A* would stop at its cap.

>>> from .compiled import Task
>>> layered_proof(Task.from_rows(["T1R T1G T1B"], goal=["G B R"]), length=1).lower_bound
2
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..timing import Deadline
from .compiled import Task
from .expansion import PACK, SearchOutcome, child_evaluator
from .stepcost import StepCostBound


LAYERED_MAX_STATES = 40_000_000  # the breadth-first proof stores one byte per cell and state
LAYERED_CHUNK = 500_000  # children gathered before they are sorted and checked against the layers


def layered_proof(
    task: Task,
    *,
    length: int,
    known_plan: Sequence[tuple[int, int]] | None = None,
    step_costs: StepCostBound | None = None,
    more_step_costs: Sequence[StepCostBound] = (),
    time_limit: "float | Deadline | None" = None,
    max_states: int = LAYERED_MAX_STATES,
    on_bound: "Callable[[int], None] | None" = None,
    max_expanded: int | None = None,
) -> SearchOutcome:
    """Is there a plan of at most ``length`` swaps? Breadth-first search over the states with
    ``g + h <= length`` (breadth-first heuristic search), one depth at a time.

    Each depth is a sorted numpy array of states (one byte per cell), so it holds many more
    states than A*'s table in the same memory (no queue, no per-state objects kept): the proof
    that ends A* on a wide f plateau, where A* would stop at its state cap. Children come from
    the same expansion as A* (:func:`child_evaluator`, with the same skipped swaps), a child is
    new unless some stored depth holds it, and the first goal met is a shortest plan (read back
    by walking from it to a neighbour in each earlier depth). When the depths run out without a
    goal, no plan of at most ``length`` swaps exists: with ``known_plan`` (a valid plan of
    ``length + 1`` swaps or more) the answer is that plan, proven shortest when it has
    ``length + 1`` swaps; without one, "unknown" with lower bound ``length + 1``. The time
    limit, ``max_states`` stored states or ``max_expanded`` expansions (a work count:
    ``stats["work_cap"]``) give "unknown" with the first depth not yet searched as the lower
    bound; ``on_bound`` is called with that bound as each depth begins.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> outcome = layered_proof(task, length=3)
    >>> outcome.status, outcome.swaps, outcome.lower_bound
    ('solved', [(0, 1), (1, 2)], 2)
    >>> layered_proof(task, length=1).lower_bound
    2
    """
    deadline = Deadline.of(time_limit)
    expand, h0 = child_evaluator(task, step_costs=step_costs, more_step_costs=more_step_costs, time_limit=deadline)
    n = len(task.cells)
    width = f"S{n}"  # numpy drops trailing zero bytes when it hands one back: pad with ljust
    start = bytes(task.start)
    if task.is_goal(start):
        return SearchOutcome("solved", [], 0, {"expanded": 0, "stored": 1})
    depths = [np.array([start], dtype=width)]  # depths[d]: the states first met after d swaps
    last = np.array([-1], dtype=np.int64)  # the swap that led to each state of the newest depth
    expanded = stored = 0

    def stats() -> dict:
        return {"expanded": expanded, "stored": stored, "depths": len(depths)}

    if h0 > length:
        return _none_within(length, known_plan, stats())
    for g in range(length):
        if on_bound is not None:
            on_bound(g + 1)  # no goal within g swaps
        layer = depths[-1]
        fresh: list[np.ndarray] = []
        fresh_last: list[np.ndarray] = []
        chunk: list[bytes] = []
        chunk_last: list[int] = []
        for index in range(len(layer)):
            state = layer[index].ljust(n, b"\0")
            packed = int(last[index])
            la, lb = (-1, -1) if packed < 0 else divmod(packed, PACK)
            if max_expanded is not None and expanded >= max_expanded:
                return SearchOutcome("unknown", None, g + 1, {**stats(), "work_cap": max_expanded})
            expansion = expand(state, g, length, la, lb, deadline)
            if expansion is None or (index & 255 == 255 and deadline.expired()):
                return SearchOutcome("unknown", None, g + 1, stats())
            expanded += 1
            for h, _, i, j in expansion[0]:
                child = bytearray(state)
                child[i], child[j] = child[j], child[i]
                if h == 0:  # a goal: read the plan back through the depths
                    plan = _walk_back(task, depths, state) + [(min(i, j), max(i, j))]
                    return SearchOutcome("solved", plan, g + 1, stats())
                chunk.append(bytes(child))
                chunk_last.append(min(i, j) * PACK + max(i, j))
            if len(chunk) >= LAYERED_CHUNK or index == len(layer) - 1:
                states, first = _new_states(chunk, width, [*depths, *fresh])
                fresh.append(states)
                fresh_last.append(np.array(chunk_last, dtype=np.int64)[first])
                stored += len(states)
                chunk, chunk_last = [], []
                if stored > max_states:
                    return SearchOutcome("unknown", None, g + 1, {**stats(), "state_cap": max_states})
        if not sum(len(states) for states in fresh):
            break  # no state left within the bound
        states = np.concatenate(fresh)
        order = np.argsort(states, kind="stable")
        depths.append(states[order])
        last = np.concatenate(fresh_last)[order]
    return _none_within(length, known_plan, stats())


def _none_within(length: int, known_plan: Sequence[tuple[int, int]] | None, stats: dict) -> SearchOutcome:
    """The outcome once no plan of at most ``length`` swaps exists: ``known_plan`` when it is
    one swap longer (then proven shortest), else "unknown" with lower bound ``length + 1``."""
    if known_plan is not None and len(known_plan) == length + 1:
        return SearchOutcome("solved", list(known_plan), length + 1, stats)
    return SearchOutcome("unknown", None, length + 1, stats)


def _new_states(chunk: list[bytes], width: str, known: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The states of ``chunk`` in none of the sorted arrays ``known``, sorted, and the position
    in ``chunk`` of each one's first copy."""
    states, first = np.unique(np.array(chunk, dtype=width), return_index=True)
    keep = np.ones(len(states), dtype=bool)
    for seen in known:
        if len(seen):
            at = np.minimum(np.searchsorted(seen, states), len(seen) - 1)
            keep &= seen[at] != states
    return states[keep], first[keep]


def _walk_back(task: Task, depths: list[np.ndarray], state: bytes) -> list[tuple[int, int]]:
    """The swaps from the start to ``state`` (a member of the newest depth): from each state a
    swap to some member of the depth before it."""
    n = len(task.cells)
    swaps = []
    current = state
    for depth in range(len(depths) - 1, 0, -1):
        below = depths[depth - 1]
        for i, j in task.legal_swaps(current):
            previous = bytearray(current)
            previous[i], previous[j] = previous[j], previous[i]
            key = np.array([bytes(previous)], dtype=f"S{n}")
            at = min(int(np.searchsorted(below, key)[0]), len(below) - 1)
            if below[at] == key[0]:
                swaps.append((i, j))
                current = bytes(previous)
                break
        else:  # pragma: no cover - every stored state was met from the depth before it
            raise AssertionError("a stored state has no neighbour one depth nearer the start")
    return swaps[::-1]
