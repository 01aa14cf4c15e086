"""A* search for proven-minimum Roller answers (a search baseline: no SAT, no CP).

Rule in a sentence: paint every floor cell in the fewest slides. States are (stop, unpainted key
cells); a move costs 1; the heuristic is the row-run x column-run cover of the unpainted key cells
(:meth:`StopGraph.run_lower_bound`), which is admissible and consistent: one move paints cells of
one run, and deleting one vertex's edges lowers a minimum vertex cover by at most one. So the first
goal state taken from the queue is a proven minimum; when time runs out, the smallest ``f`` left
in the queue is a proven lower bound.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> result = solve_astar(StopGraph.of(level), time_limit=10)
>>> len(result.solution), result.optimal, result.lower_bound
(4, True, 4)
"""

from __future__ import annotations

import heapq
import time

from ..child import report_progress
from ..results import SolveResult, Status, Timings
from ..timing import Deadline
from .stopgraph import StopGraph


def solve_astar(graph: StopGraph, *, time_limit: "float | Deadline | None" = None,
                max_states: int = 1_000_000) -> SolveResult[str]:
    """Minimum answer by A* (unverified; see :func:`puzzlesat.roller.solve.solve`). UNKNOWN with
    the proven lower bound when ``time_limit`` or ``max_states`` (memory) runs out."""
    deadline = Deadline.of(time_limit)
    t0 = time.perf_counter()
    keys = graph.key_cells
    bit = {c: 1 << i for i, c in enumerate(keys)}
    stops = list(graph.stops)
    index = {v: i for i, v in enumerate(stops)}
    moves = [[(index[m.head], sum(bit[c] for c in m.painted if c in bit), m.direction)
              for m in graph.moves_from.get(v, ())] for v in stops]
    heuristic_cache: dict[int, int] = {}

    def h(unpainted: int) -> int:
        if unpainted not in heuristic_cache:
            heuristic_cache[unpainted] = graph.run_lower_bound([c for c in keys if bit[c] & unpainted])
        return heuristic_cache[unpainted]

    start = (index[graph.start], (1 << len(keys)) - 1)
    best_g = {start: 0}
    parent: dict[tuple[int, int], tuple[tuple[int, int], str]] = {}
    queue = [(h(start[1]), 0, start)]
    expanded = 0
    reported = -1
    while queue:
        f, neg_g, state = heapq.heappop(queue)
        g = -neg_g
        if g > best_g.get(state, g):
            continue  # a stale entry
        if f > reported:  # (f never falls: the bound is consistent) a proven lower bound, for a parent process
            reported = f
            report_progress({"lower_bound": f})
        if state[1] == 0:
            path = []
            while state in parent:
                state, d = parent[state]
                path.append(d)
            answer = "".join(reversed(path))
            stats = {"expanded": expanded, "states": len(best_g)}
            return SolveResult(Status.SOLVED, answer, Timings(0.0, time.perf_counter() - t0), True, len(answer), "astar", stats)
        expanded += 1
        if deadline.expired() or len(best_g) > max_states:
            stats = {"expanded": expanded, "states": len(best_g), "out_of": "time" if deadline.expired() else "memory"}
            return SolveResult(Status.UNKNOWN, None, Timings(0.0, time.perf_counter() - t0), False, f, "astar", stats)
        at, unpainted = state
        for head, painted, direction in moves[at]:
            nxt = (head, unpainted & ~painted)
            if g + 1 < best_g.get(nxt, 1 << 30):
                best_g[nxt] = g + 1
                parent[nxt] = (state, direction)
                heapq.heappush(queue, (g + 1 + h(nxt[1]), -(g + 1), nxt))
    return SolveResult(Status.UNSATISFIABLE, None, Timings(0.0, time.perf_counter() - t0), False, None, "astar",
                       {"expanded": expanded})
