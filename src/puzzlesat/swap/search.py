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
import random
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from ..timing import Deadline
from . import bounds
from .compiled import MATCH, Task
from .stepcost import SCALE as step_scale
from .stepcost import BoundTimeout, StepCostBound

DEFAULT_MAX_STATES = 3_000_000  # A*'s table holds at most this many states (about 1.2 GB; encodings/swap.md, "Notes moved from the code")
LAYERED_MAX_STATES = 40_000_000  # the breadth-first proof stores one byte per cell and state
LAYERED_CHUNK = 500_000  # children gathered before they are sorted and checked against the layers
UNSET = 1 << 30  # "none yet" among costs and bounds (above any plan's length)
PACK = 1 << 14  # cell indices and costs (below the model's 10,000-cell cap) pack into one integer
MAX_CLASSES = 256  # a state is a bytes object: one byte per cell
DISTANCE_PLAN_MAX_CELLS = 400  # distance_plan: the generator's largest board (the game's: 42 cells)


@dataclass
class SearchOutcome:
    """``status`` is "solved", "unsatisfiable" (state space exhausted) or "unknown" (limit hit);
    ``swaps`` are cell-index pairs (see :class:`Task`), minimal when solved."""

    status: str
    swaps: list[tuple[int, int]] | None
    lower_bound: int
    stats: dict = field(default_factory=dict)


Children = list[tuple[int, int, int, int]]  # (h, tie, i, j) of the children kept by an expansion


Expander = Callable[[bytes, int, int, int, int, Deadline], "tuple[Children, int, int] | None"]


def child_evaluator(
    task: Task,
    *,
    step_costs: StepCostBound | None = None,
    more_step_costs: Sequence[StepCostBound] = (),
    time_limit: "float | Deadline | None" = None,
) -> tuple[Expander, int]:
    """The expansion step shared by :func:`search` and :func:`beam_plan`, and the bound at the start.

    ``expand(state, g, limit, la, lb, deadline)`` evaluates every child of ``state`` (reached with ``g``
    swaps, the last one ``(la, lb)``, or ``-1, -1`` at the start) from the parent's bound data,
    without building it, and returns ``(children, next_f, tie)``: the children ``(h, tie, i, j)``
    with ``g + 1 + h <= limit`` (``h == 0`` exactly at a goal), the smallest larger child f
    (``UNSET`` when none), and the parent's own tie value; ``None`` when ``deadline`` expires
    during the expansion. ``tie`` is the unrounded step-cost total (match goal): smaller
    means the bound was rounded up more, so there is more room for wasted steps; for the
    cluster and touch goals it is the layout's guide (:meth:`bounds.LayoutBound.guide`).

    A swap is generated once (from the end whose square reaches the other, from the earlier cell
    when both do); swaps of two squares of one class, the undoing of the last swap, and a swap
    on other cells than the last one with a smaller pair index (the two commute: that order is
    left to the sibling path) are skipped.

    ``more_step_costs`` (match goal): step-cost bounds with other cost vectors (any cost vector
    meeting the pair constraints gives an admissible, consistent bound, wherever it was
    optimised, see :func:`plateau_step_costs`); a child the first one keeps is checked
    against each, and ``h`` is the largest.
    """
    n = len(task.cells)
    reach = task.reach
    reach_sets = [[frozenset(targets) for targets in per_cell] for per_cell in reach]
    class_colour = task.class_colour
    start = bytes(task.start)
    if task.goal == MATCH:
        # h = max(step-cost bound, half the assignment distance, cycle bound): the cycle part is
        # cached per packed colour-transfer key, the assignment part per (colour, cell mask), the
        # step-cost part per (colour, packed squares)
        cycles = bounds.MatchHeuristic(task)
        unit = cycles.unit
        cycle_cache = cycles.cache
        cycle_value: Callable[[int], int] = cycles.value
        assignment = bounds.AssignmentBound(task)
        assignment_cache = assignment.cache
        assignment_cost = assignment.cost
        ncol = assignment.ncol
        if step_costs is None:
            step_costs = StepCostBound(task, time_limit=time_limit)
        step_cache = step_costs.cache
        step_cost = step_costs.cost
        shift = step_costs.shift
        step_keys_of = step_costs.keys
        h0 = max(cycles.value(cycles.key(start)), assignment.bound(start), step_costs.bound(start),
                 *(more.bound(start) for more in more_step_costs))
        more_bounds = [(more.cache, more.cost) for more in more_step_costs]

        def expand(state: bytes, g: int, limit: int, la: int, lb: int, deadline: Deadline) -> "tuple[Children, int, int] | None":
            child_g = g + 1
            kept: Children = []
            next_f = UNSET
            key = 0
            masks = [0] * ncol
            for i in range(n):
                c = class_colour[state[i]]
                key += unit[i][c]
                masks[c] |= 1 << i
            costs = []
            for x, mask in enumerate(masks):
                value = assignment_cache[x].get(mask)
                costs.append(assignment_cost(x, mask) if value is None else value)
            total = sum(costs)
            h_same = max(cycle_value(key), (total + 1) // 2)  # a swap of two squares of one colour
            step_keys = step_keys_of(state)
            step_parts = []
            for x, k in enumerate(step_keys):
                value = step_cache[x].get(k)
                step_parts.append(step_cost(x, k) if value is None else value)
            step_total = sum(step_parts)
            more_parts = []  # per further cost vector: its cache, its cost function, the parent's parts and total
            for more_cache, more_cost in more_bounds:
                parts = []
                for x, k in enumerate(step_keys):
                    value = more_cache[x].get(k)
                    parts.append(more_cost(x, k) if value is None else value)
                more_parts.append((more_cache, more_cost, parts, sum(parts)))
            budget = (limit - child_g) * step_scale  # a larger step-cost total means f > limit
            low_tie = UNSET * step_scale  # the smallest step-cost total above the budget
            for i in range(n):
                if i & 15 == 15 and deadline.expired():  # big boards: an expansion can take long
                    return None
                ki = state[i]
                if i < la:  # a swap from here on other cells than the last one commutes with it
                    reached = reach_sets[ki][i]
                    if la in reached:
                        targets = (la, lb) if lb in reached else (la,)
                    elif lb in reached:
                        targets = (lb,)
                    else:
                        continue
                else:
                    targets = reach[ki][i]
                ci = class_colour[ki]
                shift_ki = shift[ki]
                cache_ci = step_cache[ci]
                key_ci = step_keys[ci] - shift_ki[i]  # colour ci's squares without the one at i
                rest_ci = step_total - step_parts[ci]
                for j in targets:
                    kj = state[j]
                    if kj == ki or (j < i and i in reach_sets[kj][j]):
                        continue  # no change, or the same swap is generated from the other end
                    if i != la and i != lb:
                        if j < la:
                            continue  # commutes with the last swap and comes first in pair order
                    elif j == la or j == lb:
                        continue  # undoes the last swap
                    # the step-cost bound first (usually the strongest): most children stop there
                    cj = class_colour[kj]
                    shift_kj = shift[kj]
                    if ci == cj:
                        sk = key_ci - shift_kj[j] + shift_kj[i] + shift_ki[j]
                        s = cache_ci.get(sk)
                        if s is None:
                            s = step_cost(ci, sk)
                        tie = rest_ci + s
                    else:
                        si = key_ci + shift_ki[j]
                        sj = step_keys[cj] - shift_kj[j] + shift_kj[i]
                        s = cache_ci.get(si)
                        if s is None:
                            s = step_cost(ci, si)
                        s2 = step_cache[cj].get(sj)
                        if s2 is None:
                            s2 = step_cost(cj, sj)
                        tie = rest_ci - step_parts[cj] + s + s2
                    if tie > budget:
                        if tie < low_tie:
                            low_tie = tie
                        continue
                    h = -(-tie // step_scale)
                    if more_parts:  # the further cost vectors, on the children the first one keeps
                        # (cache lookups inlined like those below: this is the hottest loop)
                        for more_cache, more_cost, parts, more_total in more_parts:
                            if ci == cj:
                                o1 = more_cache[ci].get(sk)
                                if o1 is None:
                                    o1 = more_cost(ci, sk)
                                other = more_total - parts[ci] + o1
                            else:
                                o1 = more_cache[ci].get(si)
                                if o1 is None:
                                    o1 = more_cost(ci, si)
                                o2 = more_cache[cj].get(sj)
                                if o2 is None:
                                    o2 = more_cost(cj, sj)
                                other = more_total - parts[ci] - parts[cj] + o1 + o2
                            if -(-other // step_scale) > h:
                                h = -(-other // step_scale)
                                if other > budget:
                                    break
                        if child_g + h > limit:
                            if child_g + h < next_f:
                                next_f = child_g + h
                            continue
                    if ci == cj:
                        if h_same > h:
                            h = h_same
                    else:
                        ui, uj = unit[i], unit[j]
                        child_key = key - ui[ci] - uj[cj] + ui[cj] + uj[ci]
                        if child_key == 0:
                            h = 0  # the goal (every cell matches)
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
                            if child_g + h <= limit:
                                c = cycle_cache.get(child_key)
                                if c is None:
                                    c = cycle_value(child_key)
                                if c > h:
                                    h = c  # >= 1 off the goal: h == 0 exactly at a goal
                    if child_g + h > limit:
                        if child_g + h < next_f:
                            next_f = child_g + h
                        continue
                    kept.append((h, tie, i, j))
            low_f = child_g - (-low_tie // step_scale)
            return kept, min(next_f, low_f), step_total

        return expand, h0

    # cluster and touch: the bound and the goal test depend on the colours only, so both are
    # cached per colour layout (h == 0 exactly at a goal), with the layout's guide
    # (LayoutBound.guide) as the tie: the bound is flat over wide plateaus, and the guide
    # orders the beams and A*'s ties toward the goal
    layout_bound = bounds.LayoutBound(task)
    to_colours, values_of_colours = layout_bound.to_colours, layout_bound.values
    layout_values: dict[bytes, tuple[int, int]] = {}

    def values_of_layout(layout: bytes) -> tuple[int, int]:
        values = layout_values.get(layout)
        if values is None:
            values = layout_values[layout] = values_of_colours(layout)
        return values

    def expand_layout(state: bytes, g: int, limit: int, la: int, lb: int, deadline: Deadline) -> "tuple[Children, int, int] | None":
        child_g = g + 1
        kept: Children = []
        next_f = UNSET
        layout = state.translate(to_colours)
        h_layout, own_tie = values_of_layout(layout)
        for i in range(n):  # (the same swap selection as in expand above, inlined in both hot loops)
            if i & 15 == 15 and deadline.expired():
                return None
            ki = state[i]
            if i < la:
                reached = reach_sets[ki][i]
                if la in reached:
                    targets = (la, lb) if lb in reached else (la,)
                elif lb in reached:
                    targets = (lb,)
                else:
                    continue
            else:
                targets = reach[ki][i]
            ci = class_colour[ki]
            for j in targets:
                kj = state[j]
                if kj == ki or (j < i and i in reach_sets[kj][j]):
                    continue
                if i != la and i != lb:
                    if j < la:
                        continue
                elif j == la or j == lb:
                    continue
                cj = class_colour[kj]
                if ci == cj:
                    h, tie = h_layout, own_tie
                else:
                    swapped = bytearray(layout)
                    swapped[i], swapped[j] = cj, ci
                    h, tie = values_of_layout(bytes(swapped))
                if child_g + h > limit:
                    if child_g + h < next_f:
                        next_f = child_g + h
                    continue
                kept.append((h, tie, i, j))
        return kept, next_f, own_tie

    return expand_layout, values_of_layout(start.translate(to_colours))[0]


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
