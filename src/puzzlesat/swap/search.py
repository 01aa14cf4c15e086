"""Exact minimum-swap search over the full state (A* with the admissible bounds of ``bounds``).

Rules in a sentence: a state gives every non-wall cell a square class; a move swaps two cells
when the square at one end reaches the other; the goal is the level's match/cluster/touch test.
The heuristic is admissible (and consistent for match and touch: one swap changes it by at
most one; states are reopened when a cheaper path turns up), so the first goal taken from the
queue is a proven minimum, and an exhausted queue proves the level unsolvable. A time limit or a cap on stored states ends the search with status "unknown" and
the smallest f value left in the queue as a proven lower bound.

This module holds A*; the expansion of a state it shares with the other searches is in
:mod:`.expansion`, the breadth-first proof in :mod:`.layered`, the quick plans in :mod:`.plans`.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> outcome = search(task)
>>> outcome.status, outcome.swaps, outcome.lower_bound
('solved', [(0, 1), (1, 2)], 2)
"""

from __future__ import annotations

import heapq
import random
from typing import Callable, Sequence

from ..timing import Deadline
from .compiled import MATCH, Task
from .expansion import PACK, UNSET, SearchOutcome, child_evaluator
from .layered import layered_proof  # noqa: F401 (imported from here too)
from .plans import DISTANCE_PLAN_MAX_CELLS, beam_plan, distance_plan, quick_plan, replay  # noqa: F401 (imported from here too)
from .stepcost import BoundTimeout, StepCostBound


DEFAULT_MAX_STATES = 3_000_000  # A*'s table holds at most this many states (about 1.2 GB; encodings/swap.md, "Notes moved from the code")
MAX_CLASSES = 256  # a state is a bytes object: one byte per cell


def search(
    task: Task,
    *,
    time_limit: "float | Deadline | None" = None,
    max_states: int = DEFAULT_MAX_STATES,
    known_plan: Sequence[tuple[int, int]] | None = None,
    step_costs: StepCostBound | None = None,
) -> SearchOutcome:
    """A* from the start state of ``task`` to its goal, returning a shortest swap sequence
    (:class:`Search` run once until it decides or the time limit ends it).

    ``known_plan`` (a valid plan, e.g. from :func:`beam_plan`) is an upper bound: only shorter
    plans are searched for, and it is returned as proven minimal once every smaller f is
    exhausted.
    """
    deadline = Deadline.of(time_limit)
    try:
        run = Search(task, max_states=max_states, known_plan=known_plan, step_costs=step_costs, time_limit=deadline)
    except BoundTimeout:  # a large board whose bound tables outlast the limit
        return SearchOutcome("unknown", None, 0, {"stopped": "time limit (building the bound)"})
    return run.run(deadline)


class Search:
    """Partial-expansion A* that can be run in slices and told of shorter plans in between.

    An expansion computes every child's f first (from the parent's bound data, without
    building the child, :func:`child_evaluator`) and stores only the children whose f equals
    the parent's queued value F; the parent goes back in the queue with the next larger child
    f. So the queue and the table of seen states hold few more states than are expanded. Ties
    on f go to the deeper state, then (match) to the smaller unrounded step-cost total: the
    state whose bound was rounded up the most has the most room for wasted steps, so it is
    likelier to reach the goal within f; (cluster, touch) to the smaller guide, the layout
    that looks nearer the goal.

    :meth:`run` returns "unknown" when its deadline ends it, with the smallest queued f as the
    proven lower bound; a later :meth:`run` goes on from there. ``on_bound`` is called with
    that bound each time it grows (a solve in a child process reports it to the parent). :meth:`improve` hands over a
    shorter valid plan (an upper bound): the search stops, proving it minimal, once the
    smallest queued f reaches its length.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> run = Search(task)
    >>> run.improve([(0, 2), (0, 1), (1, 2), (0, 2)]); run.lower_bound()
    2
    >>> outcome = run.run(None)
    >>> outcome.status, outcome.swaps, outcome.lower_bound
    ('solved', [(0, 1), (1, 2)], 2)
    """

    def __init__(
        self,
        task: Task,
        *,
        max_states: int = DEFAULT_MAX_STATES,
        known_plan: Sequence[tuple[int, int]] | None = None,
        step_costs: StepCostBound | None = None,
        more_step_costs: Sequence[StepCostBound] = (),
        time_limit: "float | Deadline | None" = None,
        on_bound: "Callable[[int], None] | None" = None,
    ) -> None:
        if len(task.classes) > MAX_CLASSES:
            raise ValueError(f"{len(task.classes)} square classes: the search handles at most {MAX_CLASSES}")
        self.task = task
        self.max_states = max_states
        self.plan: list[tuple[int, int]] | None = None
        self.upper = UNSET
        if known_plan is not None:
            self.improve(known_plan)
        if step_costs is None and task.goal == MATCH:
            step_costs = StepCostBound(task, time_limit=time_limit)
        self.step_costs, self.time_limit = step_costs, time_limit
        self.expand, self.h0 = child_evaluator(task, step_costs=step_costs, more_step_costs=more_step_costs,
                                               time_limit=time_limit)
        start = bytes(task.start)
        # best[state] = g * PACK * PACK + i * PACK + j: cost and the swap that led there (undo it
        # to get the parent); the queue holds (f * PACK - g, tie, state), smallest f first,
        # deeper first
        self.best: dict[bytes, int] = {start: 0}
        self.queue: list[tuple[int, int, bytes]] = [(self.h0 * PACK, 0, start)]
        self.expanded = 0
        self.incumbent: tuple[int, bytes] | None = (0, start) if task.is_goal(start) else None
        self.on_bound = on_bound  # called with the proven lower bound each time it grows
        self.bound_told = 0

    def improve(self, plan: Sequence[tuple[int, int]]) -> None:
        """Only plans shorter than ``plan`` (valid, checked by the caller) are searched for."""
        if len(plan) < self.upper:
            self.plan, self.upper = list(plan), len(plan)

    def strengthen(self, more_step_costs: Sequence[StepCostBound]) -> None:
        """From now on also take the largest of these step-cost bounds (match goal). The queue
        stays valid: its values were lower bounds under the weaker bound, and still are."""
        self.expand, h0 = child_evaluator(self.task, step_costs=self.step_costs, more_step_costs=more_step_costs,
                                          time_limit=self.time_limit)
        self.h0 = max(self.h0, h0)

    def lower_bound(self) -> int:
        """A proven lower bound on the minimum: the smallest f left in the queue."""
        if not self.queue:
            return self.h0 if self.incumbent is None else self.incumbent[0]
        return max(self.h0, min(-(-self.queue[0][0] // PACK), self.upper))

    def stats(self) -> dict:
        return {"expanded": self.expanded, "stored": len(self.best)}

    def _path_to(self, state: bytes) -> list[tuple[int, int]]:
        pack, best = PACK, self.best
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

    def run(self, time_limit: "float | Deadline | None" = None, *, max_expanded: int | None = None) -> SearchOutcome:
        """Search until decided ("solved" or "unsatisfiable") or "unknown" at the deadline, the
        state cap, or once ``max_expanded`` expansions have been made in all runs (a work count:
        where it ends the run does not depend on the machine, ``stats["work_cap"]`` says so)."""
        deadline = Deadline.of(time_limit)
        pack = PACK
        best, queue, expand = self.best, self.queue, self.expand
        while queue:
            priority, tie_popped, state = heapq.heappop(queue)
            f = -(-priority // pack)
            g = f * pack - priority
            if self.incumbent is not None and self.incumbent[0] <= f:
                return SearchOutcome("solved", self._path_to(self.incumbent[1]), self.incumbent[0], self.stats())
            if f >= self.upper:
                assert self.plan is not None
                return SearchOutcome("solved", list(self.plan), self.upper, self.stats())
            if f > self.bound_told and self.on_bound is not None:
                # every state left has f at least this, and no goal was met below it: a lower bound
                self.bound_told = f
                self.on_bound(max(f, self.h0))
            packed = best[state]
            if packed // (pack * pack) < g:
                continue  # a cheaper copy was queued later
            out_of_work = max_expanded is not None and self.expanded >= max_expanded
            if out_of_work or deadline.expired() or len(best) > self.max_states:
                heapq.heappush(queue, (priority, tie_popped, state))
                extra = {"state_cap": self.max_states} if len(best) > self.max_states else {}
                if out_of_work:
                    extra["work_cap"] = max_expanded
                return SearchOutcome("unknown", None, max(f, self.h0), {**self.stats(), **extra})
            if g > 0:
                la, lb = divmod(packed % (pack * pack), pack)
                la, lb = min(la, lb), max(la, lb)
            else:
                la = lb = -1
            expansion = expand(state, g, f, la, lb, deadline)
            if expansion is None:  # the deadline, in the middle of a big expansion
                heapq.heappush(queue, (priority, tie_popped, state))
                return SearchOutcome("unknown", None, max(f, self.h0), self.stats())
            self.expanded += 1
            children, next_f, own_tie = expansion
            child_g = g + 1
            child_base = child_g * pack * pack
            for h, tie, i, j in children:
                child = bytearray(state)
                child[i], child[j] = child[j], child[i]
                child_state = bytes(child)
                known = best.get(child_state)
                if known is not None and known < child_base + pack * pack:
                    continue  # reached before at no greater cost
                best[child_state] = child_base + i * pack + j
                if h == 0:
                    if self.incumbent is None or child_g < self.incumbent[0]:
                        self.incumbent = (child_g, child_state)
                    continue
                heapq.heappush(queue, ((child_g + h) * pack - child_g, tie, child_state))
            if next_f < self.upper:
                heapq.heappush(queue, (next_f * pack - g, own_tie, state))
        if self.incumbent is not None:
            return SearchOutcome("solved", self._path_to(self.incumbent[1]), self.incumbent[0], self.stats())
        if self.plan is not None:
            return SearchOutcome("solved", list(self.plan), self.upper, self.stats())
        return SearchOutcome("unsatisfiable", None, self.h0, self.stats())


def plateau_step_costs(
    task: Task,
    step_costs: StepCostBound,
    *,
    limit: int,
    count: int,
    time_limit: "float | Deadline | None" = None,
    seed: int = 0,
    on_found: "Callable[[StepCostBound], None] | None" = None,
    lp_share: float | None = 1.0,
) -> list[StepCostBound]:
    """Up to ``count`` further step-cost bounds for the proof that no plan of at most ``limit``
    swaps exists (match goal): each with the cost vector that is best at a state of that f
    plateau, met by a random walk from the start through children with ``g + h <= limit``
    (depths spread over the first half of ``limit``).

    The start's cost vector is often weak at states deep in the plateau (expert-093: at a state
    12 swaps along a 20-swap plan the start's costs give 6.25, that state's own 8.0), and any
    cost vector meeting the pair constraints is admissible everywhere, so the search may take
    the largest of several (see encodings/swap.md for what it gains). ``on_found`` is called
    with each bound as soon as its LP is solved. Each LP may take ``lp_share`` of the time left
    (None: no limit of its own, :func:`.stepcost.optimised_costs`).
    """
    from .stepcost import optimised_costs

    deadline = Deadline.of(time_limit)
    expand, _ = child_evaluator(task, step_costs=step_costs, time_limit=deadline)
    rng = random.Random(seed)
    found: list[StepCostBound] = []
    start = bytes(task.start)
    for walk in range(4 * count):
        if len(found) >= count or deadline.expired():
            break
        depth = max(1, round(limit * (0.15 + 0.4 * (walk % count) / max(1, count - 1))))
        state, la, lb = start, -1, -1
        for g in range(depth):
            expansion = expand(state, g, limit, la, lb, deadline)
            if not expansion or not expansion[0]:
                state = None
                break
            _, _, i, j = rng.choice(expansion[0])
            child = bytearray(state)
            child[i], child[j] = child[j], child[i]
            state, la, lb = bytes(child), min(i, j), max(i, j)
        if state is None or state == start:
            continue
        # all the time left to this LP (the phase's time is itself a share): one that cannot
        # finish in it gives nothing, and a share of the share was too short for some
        costs = optimised_costs(task, at=state, time_limit=deadline, share=lp_share)
        if costs is not None:
            found.append(StepCostBound(task, costs=costs))
            if on_found is not None:
                on_found(found[-1])
    return found


