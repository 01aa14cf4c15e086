"""How the exact searches of Swap expand a state: the children kept under an f limit, with the swaps
skipped and the bounds of each child (:func:`child_evaluator`), the packing of costs and swaps
into integers, and the outcome every search returns.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> expand, h0 = child_evaluator(task)
>>> h0
2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..timing import Deadline
from . import bounds
from .compiled import MATCH, Task
from .stepcost import SCALE as step_scale
from .stepcost import StepCostBound


UNSET = 1 << 30  # "none yet" among costs and bounds (above any plan's length)
PACK = 1 << 14  # cell indices and costs (below the model's 10,000-cell cap) pack into one integer


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
