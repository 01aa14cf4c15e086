"""Lower bounds on the swaps a Swap level of the match goal still needs: half the mismatched cells,
the colour-transfer cycles (``cycle_bound``), the assignment of squares to goal cells
(:class:`AssignmentBound`), and the heuristic the searches keep per state.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> mismatch_bound(task, task.start), cycle_bound(task, task.start), match_bound(task, task.start)
(2, 2, 2)
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Hashable, Mapping, Sequence

import numpy as np

from .assignment import SCIPY_FROM_SQUARES, min_cost_assignment, scipy_assignment
from .compiled import Task
from .swapgraph import UNREACHABLE_DISTANCE, swap_components, swap_distances


EXACT_PACKING_MAX_COLOURS = 8  # beyond this, an admissible relaxation of the cycle count is used


# ------------------------------------------------------------------ match bounds
def mismatches(task: Task, state: Sequence[int]) -> int:
    """Cells whose colour differs from the goal colour."""
    assert task.goal_colours is not None
    return sum(task.class_colour[k] != g for k, g in zip(state, task.goal_colours))


def mismatch_bound(task: Task, state: Sequence[int]) -> int:
    """Half the mismatched cells, rounded up (a swap fixes at most two cells)."""
    return (mismatches(task, state) + 1) // 2


def max_cycle_packing(arcs: Mapping[tuple[Hashable, Hashable], int]) -> int:
    """The largest number of cycles a balanced multigraph (arc -> multiplicity) splits into.

    Exact for up to ``EXACT_PACKING_MAX_COLOURS`` vertices: 2-cycles are taken greedily (some
    maximum decomposition contains them all: two cycles through a->b and b->a can be re-cut into
    the 2-cycle and one closed walk), then a memoised search branches over the simple cycles
    through the smallest vertex left. Beyond that it returns an upper bound on the number of
    cycles (2-cycles plus a third of the rest), which keeps ``cycle_bound`` admissible.

    >>> max_cycle_packing({(0, 1): 1, (1, 2): 1, (2, 0): 1, (0, 2): 1, (2, 1): 1, (1, 0): 1})
    3
    """
    counts = {arc: n for arc, n in arcs.items() if n > 0 and arc[0] != arc[1]}
    vertices = sorted({v for arc in counts for v in arc}, key=repr)
    number = {v: x for x, v in enumerate(vertices)}
    matrix = {(number[a], number[b]): n for (a, b), n in counts.items()}
    two_cycles = 0
    for (a, b), n in list(matrix.items()):
        if a < b and (b, a) in matrix:
            t = min(n, matrix[(b, a)])
            two_cycles += t
            matrix[(a, b)] -= t
            matrix[(b, a)] -= t
    rest = tuple(sorted((arc, n) for arc, n in matrix.items() if n > 0))
    if len(vertices) > EXACT_PACKING_MAX_COLOURS:
        return two_cycles + sum(n for _, n in rest) // 3
    return two_cycles + _packing(rest)


@lru_cache(maxsize=200_000)
def _packing(arcs: tuple[tuple[tuple[int, int], int], ...]) -> int:
    if not arcs:
        return 0
    counts = dict(arcs)
    out: dict[int, list[int]] = {}
    for a, b in counts:
        out.setdefault(a, []).append(b)
    first = min(out)
    best = 0
    # every arc set left is balanced, so the smallest vertex lies on some cycle of any decomposition
    path = [first]
    on_path = {first}

    def extend(v: int) -> None:
        nonlocal best
        for w in out.get(v, ()):
            if w == first:
                cycle = list(zip(path, path[1:] + [first]))
                remaining = dict(counts)
                for arc in cycle:
                    remaining[arc] -= 1
                value = 1 + _packing(tuple(sorted((arc, n) for arc, n in remaining.items() if n > 0)))
                best = max(best, value)
            elif w not in on_path:
                path.append(w)
                on_path.add(w)
                extend(w)
                path.pop()
                on_path.discard(w)

    extend(first)
    return best


def cycle_bound(task: Task, state: Sequence[int], components: Sequence[int] | None = None) -> int:
    """Sum over swap-graph components of mismatches minus the maximum colour-cycle packing.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
    >>> cycle_bound(task, task.start)
    2
    """
    assert task.goal_colours is not None
    if components is None:
        components = swap_components(task)
    arcs: dict[int, Counter] = {}
    for i, k in enumerate(state):
        a, g = task.class_colour[k], task.goal_colours[i]
        if a != g:
            arcs.setdefault(components[i], Counter())[(a, g)] += 1
    return sum(sum(c.values()) - max_cycle_packing(c) for c in arcs.values())


class MatchHeuristic:
    """``cycle_bound`` kept incrementally for search: a state's colour-transfer counts are packed
    in one integer (a bit field per component and arc) and the bound is cached per packed key.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
    >>> h = MatchHeuristic(task); key = h.key(task.start)
    >>> h.value(key), h.value(h.after_swap(key, task.start, 0, 1))
    (2, 1)
    """

    def __init__(self, task: Task) -> None:
        assert task.goal_colours is not None
        self.task = task
        self.components = swap_components(task)
        self.ncomp = max(self.components, default=-1) + 1
        self.ncol = max([*task.goal_colours, *task.class_colour], default=-1) + 1
        self.bits = (len(task.cells) + 1).bit_length()
        self.mask = (1 << self.bits) - 1
        self.cache: dict[int, int] = {}
        # unit[i][a] = the bit field one arc a -> goal(i) adds for cell i (0 when a == goal(i))
        self.unit = [
            [
                0 if a == g else 1 << (self.bits * ((self.components[i] * self.ncol + a) * self.ncol + g))
                for a in range(self.ncol)
            ]
            for i, g in enumerate(task.goal_colours)
        ]
        self.class_colour = task.class_colour

    def key(self, state: Sequence[int]) -> int:
        return sum(self.unit[i][self.class_colour[k]] for i, k in enumerate(state))

    def after_swap(self, key: int, state: Sequence[int], i: int, j: int) -> int:
        ci, cj = self.class_colour[state[i]], self.class_colour[state[j]]
        ui, uj = self.unit[i], self.unit[j]
        return key - ui[ci] - uj[cj] + ui[cj] + uj[ci]

    def value(self, key: int) -> int:
        h = self.cache.get(key)
        if h is None:
            h = 0
            per_component: dict[int, dict[tuple[int, int], int]] = {}
            field_index, rest = 0, key
            while rest:
                n = rest & self.mask
                if n:
                    comp, arc = divmod(field_index, self.ncol * self.ncol)
                    per_component.setdefault(comp, {})[divmod(arc, self.ncol)] = n
                rest >>= self.bits
                field_index += 1
            for arcs in per_component.values():
                h += sum(arcs.values()) - max_cycle_packing(arcs)
            self.cache[key] = h
        return h


class AssignmentBound:
    """Match goal: every square of colour X must end on a goal cell of colour X, and a swap moves
    two squares one swap-graph edge each. So half the least total distance of an assignment of
    squares to goal cells of their colour (per colour, a min-cost perfect matching), rounded up,
    is admissible and consistent. Costs are cached per (colour, set of cells) bit mask.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1G T1G"], goal=["G G G R"])
    >>> AssignmentBound(task).bound(task.start)
    3
    """

    def __init__(self, task: Task) -> None:
        assert task.goal_colours is not None
        self.task = task
        self.distance = swap_distances(task)
        ncol = max([*task.goal_colours, *task.class_colour], default=-1) + 1
        self.targets = [[i for i, g in enumerate(task.goal_colours) if g == x] for x in range(ncol)]
        self.ncol = ncol
        self.cache: list[dict[int, int]] = [{} for _ in range(ncol)]  # per colour: mask -> cost
        self._matrix: np.ndarray | None = None  # the distances for SciPy, made on its first use

    def masks(self, state: Sequence[int]) -> list[int]:
        """For each colour, the bit mask of cells holding it."""
        masks = [0] * self.ncol
        for i, k in enumerate(state):
            masks[self.task.class_colour[k]] |= 1 << i
        return masks

    def cost(self, colour: int, mask: int) -> int:
        value = self.cache[colour].get(mask)
        if value is None:
            sources = [i for i in range(len(self.task.cells)) if mask >> i & 1]
            targets = self.targets[colour]
            if len(sources) != len(targets):
                value = UNREACHABLE_DISTANCE
            elif len(sources) >= SCIPY_FROM_SQUARES and (assign := scipy_assignment()) is not None:
                if self._matrix is None:
                    self._matrix = np.array(self.distance, dtype=np.int64)
                block = self._matrix[np.ix_(sources, targets)]
                rows, cols = assign(block)
                value = int(block[rows, cols].sum())
            else:
                value = min_cost_assignment([[self.distance[i][j] for j in targets] for i in sources])
            self.cache[colour][mask] = value
        return value

    def total(self, masks: Sequence[int]) -> int:
        return sum(self.cost(x, mask) for x, mask in enumerate(masks))

    def bound(self, state: Sequence[int]) -> int:
        return (self.total(self.masks(state)) + 1) // 2


def match_bound(task: Task, state: Sequence[int]) -> int:
    """The best match-goal bound: the larger of ``cycle_bound`` and the assignment bound."""
    return max(cycle_bound(task, state), AssignmentBound(task).bound(state))
