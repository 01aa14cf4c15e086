"""Proven-minimum Roller answers from a time-indexed SAT model whose horizon grows.

Rule in a sentence: paint every floor cell in the fewest slides. The model says where the ball
stands after each step and which move it makes at each step; a key cell is covered by step ``t``
when a move painting it was made at some step up to ``t``. Horizons are tried upwards from an
admissible lower bound (the row-run x column-run cover), in one incremental SAT solver: layers are
added as the horizon grows and "every key cell covered by step T" is asked through assumptions.
A walk that paints everything in ``T`` moves can always be extended (every stop can slide back
the way it came), so the first satisfiable horizon is the minimum, proven by the unsatisfiable
horizons below it.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> result = solve_time_indexed(StopGraph.of(level), time_limit=10)
>>> len(result.solution), result.optimal, result.lower_bound
(4, True, 4)
"""

from __future__ import annotations

from itertools import combinations

from ..child import report_progress
from ..grid import Cell
from ..results import SolveResult, Status, Timings
from ..sat import DEFAULT_SOLVER, SatSolver, VarPool, check_solver_name
from ..timing import Deadline, Stopwatch
from .stopgraph import Move, StopGraph


class TimeIndexedModel:
    """The growing CNF for one level. Layer ``t`` (1..T) holds:

    * ``("move", t, m)`` for each move m whose tail the ball can stand on after ``t - 1`` steps;
    * ``("at", t, v)`` for each stop v that such a move reaches;
    * ``("covered", t, c)`` for each key cell c.

    Clauses of layer t: at least one move; at most one move per tail (pairwise; positions are
    one-hot by induction, so moves from different tails exclude each other); a move implies the
    ball stood on its tail at ``t - 1`` and stands on its head at ``t``; standing on v implies a
    move into v; covered(t, c) implies covered(t - 1, c) or a move painting c at step t.
    """

    def __init__(self, graph: StopGraph, *, solver: str = DEFAULT_SOLVER) -> None:
        self.graph = graph
        self.pool = VarPool()
        self.sat = SatSolver(name=solver)
        self.horizon = 0
        self.clauses = 0
        self.keys = graph.key_cells
        self.painters: dict[Cell, frozenset[int]] = {c: graph.painting_moves[c] for c in self.keys}
        self.layer_stops: list[set[Cell]] = [{graph.start}]
        self.layer_moves: list[list[Move]] = [[]]
        self._add([[self.pool.var("at", 0, graph.start)]])

    def _add(self, clauses: list[list[int]]) -> None:
        self.clauses += len(clauses)
        self.sat.add_clauses(clauses)

    def grow(self) -> None:
        """Add layer ``horizon + 1``."""
        t = self.horizon + 1
        var = self.pool.var
        moves = [m for v in sorted(self.layer_stops[t - 1]) for m in self.graph.moves_from.get(v, ())]
        clauses: list[list[int]] = [[var("move", t, m.index) for m in moves]]
        for v in self.layer_stops[t - 1]:
            out = [var("move", t, m.index) for m in self.graph.moves_from.get(v, ())]
            clauses += [[-a, -b] for a, b in combinations(out, 2)]
        into: dict[Cell, list[int]] = {}
        for m in moves:
            x = var("move", t, m.index)
            clauses.append([-x, var("at", t - 1, m.tail)])
            clauses.append([-x, var("at", t, m.head)])
            into.setdefault(m.head, []).append(x)
        for v, xs in into.items():
            clauses.append([-var("at", t, v)] + xs)
        for c in self.keys:
            now = [var("move", t, m.index) for m in moves if m.index in self.painters[c]]
            previous = [var("covered", t - 1, c)] if t > 1 else []
            clauses.append([-var("covered", t, c)] + previous + now)
        self._add(clauses)
        self.layer_moves.append(moves)
        self.layer_stops.append(set(into))
        self.horizon = t

    def goal(self, t: int) -> list[int]:
        """Assumptions: every key cell covered by step ``t``."""
        return [self.pool.var("covered", t, c) for c in self.keys]

    def decode(self) -> str:
        true = self.sat.true_vars()
        moves = []
        for t in range(1, self.horizon + 1):
            chosen = [m for m in self.layer_moves[t] if self.pool.var("move", t, m.index) in true]
            assert len(chosen) == 1, f"step {t}: {len(chosen)} moves"
            moves.append(chosen[0].direction)
        return "".join(moves)

    @staticmethod
    def size(graph: StopGraph, horizon: int) -> dict[str, int]:
        """Variables and clauses after ``horizon`` layers (checked against built models in tests)."""
        stops = {graph.start}
        variables, clauses = 1, 1
        k = len(graph.key_cells)
        for _ in range(horizon):
            moves = [m for v in stops for m in graph.moves_from.get(v, ())]
            heads = {m.head for m in moves}
            variables += len(moves) + len(heads) + k
            pairs = sum(len(graph.moves_from.get(v, ())) * (len(graph.moves_from.get(v, ())) - 1) // 2 for v in stops)
            clauses += 1 + pairs + 2 * len(moves) + len(heads) + k
            stops = heads
        return {"variables": variables, "clauses": clauses}


def solve_time_indexed(graph: StopGraph, *, time_limit: "float | Deadline | None" = None,
                       solver: str = DEFAULT_SOLVER) -> SolveResult[str]:
    """Minimum answer by growing the horizon from the run-cover bound (unverified; see
    :func:`puzzlesat.roller.solve.solve`). UNKNOWN with the proven ``lower_bound`` when time runs
    out. The level must be feasible, or the horizon would grow for ever."""
    check_solver_name(solver)  # even for a level that needs no SAT call
    deadline = Deadline.of(time_limit)
    watch = Stopwatch()
    with watch("encode"):
        if not graph.key_cells:
            return SolveResult(Status.SOLVED, "", Timings(), True, 0, "time-indexed")
        bound = max(1, graph.run_lower_bound(graph.key_cells))
        report_progress({"lower_bound": bound})  # for a parent process (puzzlesat.roller.solve)
        model = TimeIndexedModel(graph, solver=solver)
    watch.seconds.setdefault("solve", 0.0)
    stats: dict[str, object] = {"start_horizon": bound}
    try:
        while True:
            with watch("encode"):
                while model.horizon < bound and not deadline.expired():
                    model.grow()  # (a layer per step: the deadline is read between layers, which take seconds on large boards)
            if model.horizon < bound:  # the time limit ran out while the layers were built
                stats.update(horizon=model.horizon, variables=model.pool.top, clauses=model.clauses, sat_calls=model.sat.calls)
                return SolveResult(Status.UNKNOWN, None, Timings(watch.seconds["encode"], watch.seconds["solve"]), False,
                                   bound, "time-indexed", stats)
            with watch("solve"):
                answer = model.sat.solve(model.goal(bound), time_limit=deadline)
            stats.update(horizon=model.horizon, variables=model.pool.top, clauses=model.clauses, sat_calls=model.sat.calls)
            timings = Timings(watch.seconds["encode"], watch.seconds["solve"])
            if answer is None:
                return SolveResult(Status.UNKNOWN, None, timings, False, bound, "time-indexed", stats)
            if answer:
                return SolveResult(Status.SOLVED, model.decode(), timings, True, bound, "time-indexed", stats)
            bound += 1
            report_progress({"lower_bound": bound})
            if deadline.expired():
                return SolveResult(Status.UNKNOWN, None, timings, False, bound, "time-indexed", stats)
    finally:
        model.sat.close()
