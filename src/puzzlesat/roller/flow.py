"""Proven-minimum Roller answers from an integer flow model with no time index (CP-SAT).

Rule in a sentence: paint every floor cell in the fewest slides. A walk from the start is an
*open Euler trail* of the multigraph that holds each move of the stop graph as often as the walk
makes it; so instead of asking where the ball is at each step, the model counts how often each
move is made, asks that every key cell is painted by some counted move, that the counts balance
like a trail from the start (out = in everywhere except start and end), and that the moves used
are connected to the start (one commodity of flow sent from the start to every stop used). The
answer's route is rebuilt from the counts by Hierholzer's algorithm and replayed.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> result = solve_flow(level, time_limit=10)
>>> len(result.solution), result.optimal, result.lower_bound
(4, True, 4)
"""

from __future__ import annotations

import math
from collections import defaultdict
from ortools.sat.python import cp_model

from ..child import report_progress
from ..grid import Cell
from ..results import SolveResult, Status, Timings
from ..sat.cpsat import run_cpsat
from ..timing import Deadline, Stopwatch
from .model import Level
from .stopgraph import StopGraph


# Linearisation level 2 puts the flow and balance rows into CP-SAT's LP, and the LP-guided
# lower-bound tree search proves the hard TabTale levels fast (encodings/roller.md, "Notes moved
# from the code").
CPSAT_PARAMETERS: dict[str, object] = {"linearization_level": 2, "optimize_with_lb_tree_search": True}


class FlowModel:
    """The CP-SAT model of one level: owns its variables and decodes its answer.

    Variables (``M`` moves and ``V`` stops of the stop graph, ``K`` key cells):
    ``count[m]`` in 0..K (how often move m is made), ``used[m]`` (count >= 1), ``end[v]``
    (the walk ends at v), ``visited[v]`` for v other than the start, ``flow[m]`` in 0..V-1.
    """

    def __init__(self, graph: StopGraph) -> None:
        self.graph = graph
        model = cp_model.CpModel()
        self.model = model
        moves = graph.moves
        stops = graph.stops
        start = graph.start
        keys = graph.key_cells
        n_keys = len(keys)
        n_stops = len(stops)
        # A shortest answer splits into at most K stretches that each end by first painting a
        # key cell, each stretch a shortest path of the stop graph (a repeat-free path), so no
        # move is made more than K times.
        self.count = [model.new_int_var(0, n_keys, f"count{m.index}") for m in moves]
        self.used = [model.new_bool_var(f"used{m.index}") for m in moves]
        self.end = {v: model.new_bool_var(f"end{v}") for v in stops}
        self.visited = {v: model.new_bool_var(f"visited{v}") for v in stops if v != start}
        self.flow = [model.new_int_var(0, max(n_stops - 1, 0), f"flow{m.index}") for m in moves]
        into: dict[Cell, list[int]] = defaultdict(list)
        out: dict[Cell, list[int]] = defaultdict(list)
        for m in moves:
            out[m.tail].append(m.index)
            into[m.head].append(m.index)
            model.add(self.count[m.index] >= 1).only_enforce_if(self.used[m.index])
            model.add(self.count[m.index] == 0).only_enforce_if(~self.used[m.index])
            model.add(self.flow[m.index] == 0).only_enforce_if(~self.used[m.index])
        # Coverage: some move painting each key cell is made (stated on the booleans and, for a
        # stronger linear relaxation, on the counts too).
        for c in keys:
            model.add_bool_or([self.used[i] for i in graph.painting_moves[c]])
            model.add(sum(self.count[i] for i in graph.painting_moves[c]) >= 1)
        # Euler balance of an open trail from the start to the end stop (closed when end = start).
        model.add_exactly_one(self.end.values())
        for v in stops:
            balance = sum(self.count[i] for i in out[v]) - sum(self.count[i] for i in into[v])
            model.add(balance == (1 if v == start else 0) - self.end[v])
        # Connectivity: the start sends one unit of flow to every visited stop, along used moves.
        for v in stops:
            if v == start:
                continue
            model.add(sum(self.flow[i] for i in into[v]) - sum(self.flow[i] for i in out[v]) == self.visited[v])
            for i in into[v]:
                model.add_implication(self.used[i], self.visited[v])
            model.add_bool_or([self.used[i] for i in into[v]]).only_enforce_if(self.visited[v])
            model.add_implication(self.end[v], self.visited[v])
        # Redundant cuts: a move made inside a component without the start needs a move that
        # enters the component (implied by the flow, but tight in the linear relaxation).
        component = graph.component_of
        members: dict[int, set[Cell]] = defaultdict(set)
        for v in stops:
            members[component[v]].add(v)
        self.component_cuts = 0
        for comp, inside in members.items():
            if start in inside:
                continue
            entering = [self.used[m.index] for m in moves if m.head in inside and m.tail not in inside]
            for m in moves:
                if m.tail in inside:
                    model.add(sum(entering) >= self.used[m.index])
                    self.component_cuts += 1
        # Admissible bound (row-run x column-run cover) as a cut; the objective: fewest moves.
        self.bound = graph.run_lower_bound(keys)
        total = sum(self.count)
        model.add(total >= self.bound)
        model.minimize(total)

    @staticmethod
    def size(graph: StopGraph) -> dict[str, int]:
        """Variables and constraints by formula (checked against built models in the tests)."""
        m, v, k = len(graph.moves), len(graph.stops), len(graph.key_cells)
        edges_into_non_start = sum(1 for mv in graph.moves if mv.head != graph.start)
        start_component = graph.component_of[graph.start]
        moves_outside_start_component = sum(1 for mv in graph.moves if graph.component_of[mv.tail] != start_component)
        return {
            "variables": 3 * m + 2 * v - 1,
            "constraints": (3 * m + 2 * k + 1 + v + 3 * (v - 1) + edges_into_non_start
                            + moves_outside_start_component + 1),
        }

    def use_known_answer(self, moves: str) -> None:
        """Hint the counts of a valid answer and bound the objective by its length."""
        by_direction = {(m.tail, m.direction): m for m in self.graph.moves}
        counts: dict[int, int] = defaultdict(int)
        cell = self.graph.start
        for d in moves:
            move = by_direction[(cell, d)]
            counts[move.index] += 1
            cell = move.head
        for m in self.graph.moves:
            k = counts.get(m.index, 0)
            self.model.add_hint(self.count[m.index], k)
            self.model.add_hint(self.used[m.index], k > 0)
        for v, var in self.end.items():
            self.model.add_hint(var, v == cell)
        self.model.add(sum(self.count) <= len(moves))

    def decode(self, solver: cp_model.CpSolver) -> str:
        """The move string: an Euler trail from the start using each move ``count`` times."""
        counts = {m.index: int(solver.value(self.count[m.index])) for m in self.graph.moves}
        return euler_trail(self.graph, counts)


def euler_trail(graph: StopGraph, counts: dict[int, int]) -> str:
    """Hierholzer's algorithm on the multigraph holding move ``i`` ``counts[i]`` times; the trail
    starts at the start stop. Raises ValueError when the counts admit no such trail (a bug).

    >>> from puzzlesat.roller.model import Level
    >>> g = StopGraph.of(Level.from_rows(["o..", ".#.", "..."]))
    >>> counts = {m.index: 1 for m in g.moves if (m.tail, m.direction) in {((0, 0), "R"), ((0, 2), "D"), ((2, 2), "L")}}
    >>> euler_trail(g, counts)
    'RDL'
    """
    remaining: dict[Cell, list[int]] = defaultdict(list)
    total = 0
    for m in graph.moves:
        k = counts.get(m.index, 0)
        remaining[m.tail].extend([m.index] * k)
        total += k
    for v in remaining:
        remaining[v].sort(reverse=True)  # deterministic order
    stack: list[tuple[Cell, int | None]] = [(graph.start, None)]
    trail: list[int] = []
    while stack:
        v, via = stack[-1]
        if remaining[v]:
            i = remaining[v].pop()
            stack.append((graph.moves[i].head, i))
        else:
            stack.pop()
            if via is not None:
                trail.append(via)
    if len(trail) != total:
        raise ValueError("move counts are not connected to the start: no Euler trail")
    trail.reverse()
    return "".join(graph.moves[i].direction for i in trail)


def solve_flow(level: Level | StopGraph, *, time_limit: "float | Deadline | None" = None,
               workers: int = 1, known: str | None = None, work_limit: float | None = None) -> SolveResult[str]:
    """Minimum answer by the flow model (not yet replayed: :func:`puzzlesat.roller.solve.solve`
    verifies every answer). The level should be feasible (see :meth:`StopGraph.feasibility`); an
    infeasible one comes back UNSATISFIABLE. When time runs out after an answer was found, the
    result is SOLVED with ``optimal`` False and the proven ``lower_bound``; with no answer it is
    UNKNOWN with the bound. ``known``, a valid answer found elsewhere, becomes a solution hint and
    an upper bound on the objective (and the answer returned if nothing better is found).
    ``work_limit``: CP-SAT's deterministic time (:func:`~puzzlesat.sat.cpsat.run_cpsat`), so
    that whether a proof ends does not depend on the machine (generators)."""
    deadline = Deadline.of(time_limit)
    watch = Stopwatch()
    with watch("encode"):
        graph = level if isinstance(level, StopGraph) else StopGraph.of(level)
        if not graph.key_cells:
            return SolveResult(Status.SOLVED, "", Timings(), True, 0, "flow")
        model = FlowModel(graph)
        report_progress({"lower_bound": model.bound})  # for a parent process (puzzlesat.roller.solve)
        if known is not None:
            model.use_known_answer(known)
    with watch("solve"):
        outcome = run_cpsat(model.model, time_limit=deadline, workers=workers, parameters=CPSAT_PARAMETERS, work_limit=work_limit)
    size = FlowModel.size(graph)
    stats = {
        "stops": len(graph.stops), "moves_in_graph": len(graph.moves), "key_cells": len(graph.key_cells),
        "run_bound": model.bound, "variables": size["variables"], "constraints": size["constraints"],
    }
    timings = Timings(watch.seconds["encode"], watch.seconds["solve"])
    bound = None if outcome.objective_bound is None else math.ceil(outcome.objective_bound - 1e-6)
    lower = max(model.bound, bound or 0)
    if outcome.status == "unsatisfiable":
        return SolveResult(Status.UNSATISFIABLE, None, timings, False, None, "flow", stats)
    if outcome.status == "unknown":
        if known is not None:
            return SolveResult(Status.SOLVED, known, timings, False, min(lower, len(known)), "flow", stats)
        return SolveResult(Status.UNKNOWN, None, timings, False, lower, "flow", stats)
    moves = model.decode(outcome.solver)
    if outcome.proven_optimal:
        return SolveResult(Status.SOLVED, moves, timings, True, len(moves), "flow", stats)
    return SolveResult(Status.SOLVED, moves, timings, False, min(lower, len(moves)), "flow", stats)
