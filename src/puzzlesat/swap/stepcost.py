"""Match goal: the step-cost assignment bound, an admissible lower bound that knows which
squares can make a swap themselves.

Rule it rests on: a swap {u, v} is legal only when the square at one end reaches the other
(its figure and scope), and it moves both squares one edge of the swap graph. Give every square
class ``k`` a cost ``w_k(e) >= 0`` for crossing edge ``e``, chosen so that every legal swap
costs at most one in total: ``w_k(e) + w_k'(e) <= 1`` for every two different classes ``k``,
``k'`` of which at least one reaches along ``e`` (two squares of one class never swap in a
shortest plan: it changes nothing). Then any plan of ``S`` swaps costs at most ``S``, and it
moves every square along a path to a goal cell of its colour, so

    S >= sum over colours of the least total path cost of an assignment of that colour's
         squares (each with its own class's costs) to that colour's goal cells.

With ``w = 1/2`` everywhere this is the plain assignment bound (half the swap-graph distances).
The gain is on edges only some classes reach (a queen's long diagonal): a square that cannot
make that step itself needs a partner that can, so the costs can shift toward it. The costs are
chosen once per level by a linear program that maximises the bound at the start (GLOP, through
OR-Tools) and, among the cost vectors with that bound, has the largest sum of costs (the
optimum is degenerate, and higher costs prune more elsewhere); every cost vector meeting the
pair constraints is admissible, so the costs are rounded down to integers (units of
``1 / SCALE``) and the pair constraints re-checked in integers before use. The bound is
consistent: one swap changes the total cost by at most one.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
>>> StepCostBound(task).bound(task.start)
2
"""

from __future__ import annotations

import heapq
from typing import Sequence

import numpy as np

from ..timing import Deadline
from . import bounds
from .compiled import Task

SCALE = 1000  # costs are integers in units of 1 / SCALE swaps
LP_SECONDS = 20.0  # at most this long for the linear program, and at most LP_SHARE of the
LP_SHARE = 0.25  # time limit (when it does not finish: half costs everywhere)
COST_WEIGHT = 1e-6  # in the LP objective per unit of cost: the largest cost sum among the best bounds


def swap_edges(task: Task) -> list[tuple[int, int]]:
    """The edges (i < j) of the refined swap graph (see :func:`bounds.swap_graph`)."""
    adjacent = bounds.swap_graph(task)
    return sorted({(min(a, b), max(a, b)) for a in range(len(adjacent)) for b in adjacent[a]})


def present_classes(task: Task) -> list[set[int]]:
    """For every cell, the classes that start in its swap-graph component (the only ones that
    can ever stand there)."""
    component = bounds.swap_components(task)
    per_component: dict[int, set[int]] = {}
    for i, k in enumerate(task.start):
        per_component.setdefault(component[i], set()).add(k)
    return [per_component[component[i]] for i in range(len(task.cells))]


def legal_class_pairs(task: Task, edge: tuple[int, int], classes: set[int]) -> list[tuple[int, int]]:
    """Pairs of different classes (k < k') that can swap across ``edge``: one of them reaches."""
    u, v = edge
    ordered = sorted(classes)
    movers = {k for k in ordered if v in task.reach[k][u]}  # reach is symmetric
    return [
        (a, b) for x, a in enumerate(ordered) for b in ordered[x + 1:] if a in movers or b in movers
    ]


def half_costs(task: Task) -> dict[tuple[int, int], int]:
    """Cost 1/2 for every class on every edge (the plain assignment bound), keyed (class, edge)."""
    classes = present_classes(task)
    return {(k, e): SCALE // 2 for e, (u, _) in enumerate(swap_edges(task)) for k in classes[u]}


def optimised_costs(
    task: Task,
    *,
    at: Sequence[int] | None = None,
    time_limit: "float | Deadline | None" = None,
    share: float | None = LP_SHARE,
) -> dict[tuple[int, int], int] | None:
    """Step costs (class, edge index) -> integer cost in units of 1/SCALE that maximise the bound
    at the start (or at ``at``, a state reachable from it), by a linear program; ``None`` when
    the LP does not finish within ``share`` of the time left (LP_SECONDS at most; ``share=None``:
    no limit of its own, only ``time_limit``'s, so that whether the LP finishes never depends on
    the machine's speed unless that limit passes), or the level is unsolvable by the component
    argument. The costs meet the pair constraints, so their bound is admissible at every state,
    not only where they were optimised.

    The bound for fixed costs is, per colour, a transportation problem (class supplies at the
    squares' cells, one unit to each goal cell, shortest-path costs per class); the LP is its
    dual with the costs as variables: potentials ``pi[k, v]`` per class and cell with
    ``pi[k, b] - pi[k, a] <= w[k, e]`` on every edge e = {a, b}, ``beta[g] <= pi[k, g]`` for the
    classes k of g's colour; maximise ``sum beta - sum over squares of pi[class, cell]``. Pair
    constraints: ``w[k, e] + w[k', e] <= 1`` for two classes that both reach along e; between
    a class that reaches and one that does not, through two variables per edge,
    ``w[k, e] <= A[e]`` (reaches), ``w[k, e] <= B[e]`` (does not), ``A[e] + B[e] <= 1`` (the
    same constraints, fewer rows). Many cost vectors give the same bound, and the highest
    (largest sum) gives the strongest bounds at the states the search meets, so the objective
    adds ``COST_WEIGHT`` times the sum of the costs: "best bound, then largest sum" in one
    solve, not two (encodings/swap.md).

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1G T1R", "Q1G T1R"], goal=["R R", "G G"])
    >>> StepCostBound(task, costs=optimised_costs(task)).bound(task.start)
    2
    """
    if task.goal_colours is None or bounds.unreachable_reason(task) is not None:
        return None
    from ortools.linear_solver import pywraplp

    remaining = Deadline.of(time_limit).remaining()
    if share is None:
        seconds, least = remaining, 0.0  # (None: no limit)
    else:
        seconds, least = (LP_SECONDS if remaining is None else min(LP_SECONDS, share * remaining)), 0.05
    if seconds is not None and seconds <= least:
        return None
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:  # pragma: no cover - GLOP ships with every OR-Tools build
        return None
    building = Deadline.of(seconds)  # building the LP of a large board takes seconds by itself
    infinity = solver.infinity()
    n = len(task.cells)
    classes = present_classes(task)
    edges = swap_edges(task)
    cost = {(k, e): solver.NumVar(0, 1, "") for e, (u, _) in enumerate(edges) for k in classes[u]}
    potential = {(k, v): solver.NumVar(-infinity, infinity, "") for v in range(n) for k in classes[v]}
    for e, (u, v) in enumerate(edges):
        if building.expired():  # (an edge holds a constraint per pair of its classes: ~7 ms with 46 classes)
            return None
        movers = [k for k in classes[u] if v in task.reach[k][u]]
        others = [k for k in classes[u] if v not in task.reach[k][u]]
        mover_cap = solver.NumVar(0, 1, "")
        other_cap = solver.NumVar(0, 1, "")
        solver.Add(mover_cap + other_cap <= 1)
        for x, k in enumerate(movers):
            solver.Add(cost[(k, e)] <= mover_cap)
            for k2 in movers[x + 1:]:
                solver.Add(cost[(k, e)] + cost[(k2, e)] <= 1)
        for k in others:
            solver.Add(cost[(k, e)] <= other_cap)
        for k in classes[u]:
            solver.Add(potential[(k, v)] - potential[(k, u)] <= cost[(k, e)])
            solver.Add(potential[(k, u)] - potential[(k, v)] <= cost[(k, e)])
    beta = [solver.NumVar(-infinity, infinity, "") for _ in range(n)]
    colour_classes: dict[int, list[int]] = {}
    for k in set(task.start):
        colour_classes.setdefault(task.class_colour[k], []).append(k)
    for g in range(n):
        for k in colour_classes.get(task.goal_colours[g], ()):
            if k in classes[g]:
                solver.Add(beta[g] <= potential[(k, g)])
    state = task.start if at is None else at
    bound = solver.Sum(beta) - solver.Sum([potential[(k, i)] for i, k in enumerate(state)])
    solver.Maximize(bound + COST_WEIGHT * solver.Sum(list(cost.values())))
    left = building.remaining()
    if left is not None and left <= least:
        return None
    if left is not None:
        solver.SetTimeLimit(max(1, int(left * 1000)))
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        return None
    return repair({key: int(var.solution_value() * SCALE + 1e-6) for key, var in cost.items()}, task)


def repair(costs: dict[tuple[int, int], int], task: Task) -> dict[tuple[int, int], int]:
    """Clamp the integer costs to [0, SCALE] and lower them until every legal pair of different
    classes costs at most SCALE on every edge (the LP's rounding tolerance must never make the
    bound inadmissible)."""
    out = {key: max(0, min(SCALE, value)) for key, value in costs.items()}
    classes = present_classes(task)
    for e, edge in enumerate(swap_edges(task)):
        for a, b in legal_class_pairs(task, edge, classes[edge[0]]):
            excess = out[(a, e)] + out[(b, e)] - SCALE
            if excess > 0:
                high = (a, e) if out[(a, e)] >= out[(b, e)] else (b, e)
                out[high] -= excess
    return out


class BoundTimeout(TimeoutError):
    """The time limit ran out before a bound's tables were built (large boards)."""


class StepCostBound:
    """The step-cost assignment bound (see the module docstring) for match levels.

    ``costs`` maps (class, edge index) to an integer cost in units of 1/SCALE; by default the LP
    optimum at the start (:func:`optimised_costs`, within ``lp_share`` of the time limit), or
    half costs when the LP does not finish.
    A state's squares of one colour are packed in one integer (class + 1 in a field per cell),
    and the assignment cost is cached per (colour, packed squares).

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1G T1R", "Q1G T1R"], goal=["R R", "G G"])
    >>> StepCostBound(task, costs=half_costs(task)).bound(task.start), StepCostBound(task).bound(task.start)
    (1, 2)

    (Half costs allow the diagonal swap of the two towers; neither reaches diagonally, so the
    green tower first changes places with the queen, which then makes the diagonal swap.)
    """

    def __init__(
        self,
        task: Task,
        *,
        costs: dict[tuple[int, int], int] | None = None,
        time_limit: "float | Deadline | None" = None,
        lp_share: float | None = LP_SHARE,
    ) -> None:
        assert task.goal_colours is not None
        self.task = task
        deadline = Deadline.of(time_limit)
        if costs is None:
            costs = optimised_costs(task, time_limit=deadline, share=lp_share)
            self.optimised = costs is not None
            if costs is None:
                costs = half_costs(task)
        else:
            self.optimised = False
        self.costs = repair(costs, task)
        n = len(task.cells)
        self.ncol = max([*task.goal_colours, *task.class_colour], default=-1) + 1
        self.targets = [[i for i, g in enumerate(task.goal_colours) if g == x] for x in range(self.ncol)]
        # a colour's squares packed in one integer, one byte per cell (class + 1, 0 = another
        # colour), so ``keys`` is a byte translation; shift[k][i]: the byte of a class-k square at i
        self.bytewise = len(task.classes) < 255
        self.bits = 8 if self.bytewise else (len(task.classes) + 1).bit_length()
        self.field = (1 << self.bits) - 1
        self.shift = [[(k + 1) << (i * self.bits) for i in range(n)] for k in range(len(task.classes))]
        self._tables = [
            bytes(k + 1 if k < len(task.classes) and task.class_colour[k] == x else 0 for k in range(256))
            for x in range(self.ncol)
        ] if self.bytewise else []
        self._matrix: np.ndarray | None = None  # distance as an array for SciPy, made on its first use
        self.distance = self._distances(deadline)
        self.cache: list[dict[int, int]] = [{} for _ in range(self.ncol)]

    def _distances(self, deadline: Deadline) -> list[list[list[int]]]:
        """distance[k][u][v]: the cheapest path cost of a class-k square from u to v (Dijkstra).
        Raises :class:`BoundTimeout` when ``deadline`` passes first (seconds on large boards)."""
        task = self.task
        n = len(task.cells)
        far = bounds.UNREACHABLE_DISTANCE * SCALE
        adjacent: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for e, (u, v) in enumerate(swap_edges(task)):
            adjacent[u].append((v, e))
            adjacent[v].append((u, e))
        classes = present_classes(task)
        table = []
        for k in range(len(task.classes)):
            rows = []
            for source in range(n):
                if deadline.expired():
                    raise BoundTimeout("the time limit ran out while the step-cost tables were built")
                row = [far] * n
                if k in classes[source]:
                    row[source] = 0
                    queue = [(0, source)]
                    while queue:
                        d, a = heapq.heappop(queue)
                        if d > row[a]:
                            continue
                        for b, e in adjacent[a]:
                            nd = d + self.costs[(k, e)]
                            if nd < row[b]:
                                row[b] = nd
                                heapq.heappush(queue, (nd, b))
                rows.append(row)
            table.append(rows)
        return table

    def keys(self, state: Sequence[int]) -> list[int]:
        """For each colour, its squares packed in one integer."""
        if self.bytewise:
            raw = bytes(state)
            return [int.from_bytes(raw.translate(table), "little") for table in self._tables]
        keys = [0] * self.ncol
        colour = self.task.class_colour
        for i, k in enumerate(state):
            keys[colour[k]] += self.shift[k][i]
        return keys

    def cost(self, colour: int, key: int) -> int:
        value = self.cache[colour].get(key)
        if value is None:
            cells, kinds = [], []
            if self.bytewise:
                for i, k in enumerate(key.to_bytes(len(self.task.cells), "little")):
                    if k:
                        cells.append(i)
                        kinds.append(k - 1)
            else:
                i, rest = 0, key
                while rest:
                    k = rest & self.field
                    if k:
                        cells.append(i)
                        kinds.append(k - 1)
                    rest >>= self.bits
                    i += 1
            targets = self.targets[colour]
            if len(cells) != len(targets):
                value = bounds.UNREACHABLE_DISTANCE * SCALE
            elif len(cells) >= bounds.SCIPY_FROM_SQUARES and (assign := bounds.scipy_assignment()) is not None:
                if self._matrix is None:
                    self._matrix = np.array(self.distance, dtype=np.int64)
                block = self._matrix[kinds, cells][:, targets]
                rows, cols = assign(block)
                value = int(block[rows, cols].sum())
            else:
                value = bounds.min_cost_assignment(
                    [[self.distance[k][i][g] for g in targets] for k, i in zip(kinds, cells)]
                )
            self.cache[colour][key] = value
        return value

    def total(self, keys: Sequence[int]) -> int:
        return sum(self.cost(x, key) for x, key in enumerate(keys))

    def bound(self, state: Sequence[int]) -> int:
        return -(-self.total(self.keys(state)) // SCALE)
