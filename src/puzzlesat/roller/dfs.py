"""The published depth-first baseline for Roller, with its pruning rules (no SAT, no CP).

Rule in a sentence: paint every floor cell in the fewest slides. The search walks the stop graph
depth first, trying moves that paint most new cells first, and keeps the best answer found
(branch and bound: later branches must be shorter). Its pruning rules, as published, each made
exact here (so that a completed search proves the minimum):

* *length limit*: no branch longer than ``max_moves`` (or than the best answer so far, minus one);
* *fully visited* stops: a stop is fully visited when nothing reachable from it can paint a new
  cell. One-way stops (a single way out) are marked first and the mark spreads through
  neighbours: a stop whose moves paint nothing new and all lead to fully visited stops is fully
  visited. A move into a fully visited stop is pruned unless it finishes the level;
* *useless loops*: returning to a stop on the current branch with nothing painted since the
  last visit is pruned (the loop can be cut out of any answer).

Two improvements suggested in the write-up, switchable for the benchmark:

* ``components=True``: the fully-visited mark is computed on strongly connected components (all
  stops of a component reach the same stops), and a move that leaves a component for good is
  pruned when an unpainted cell could then never be painted (its candidate components are all
  behind);
* ``early_discard=True``: a branch is dropped when its length plus an admissible bound on the
  moves still needed (the row-run x column-run cover of the unpainted cells) cannot beat the
  best answer.

:func:`solve` runs it on a level as ``roller.solve(level, method="dfs")`` does; :func:`solve_dfs`
is the search itself, on a stop graph.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> result = solve(level, time_limit=10)
>>> len(result.solution), result.optimal, result.method, result.stats["complete"]
(4, True, 'dfs', True)
"""

from __future__ import annotations

import sys
import time

from ..child import report_answer
from ..results import SolveResult, Status, Timings
from ..timing import Deadline
from .model import Level
from .stopgraph import StopGraph


def solve(level: Level, *, time_limit: "float | Deadline | None" = None) -> SolveResult[str]:
    """The baseline on a level, the same as ``roller.solve(level, method="dfs")``: the exact
    feasibility check first (an unsolvable level is an answer), then the search, its answer
    replayed by :func:`~puzzlesat.roller.verify.verify`. ``optimal`` only when it completed."""
    from .solve import solve as solve_with

    return solve_with(level, method="dfs", time_limit=time_limit)



class _OutOfTime(Exception):
    pass


class DepthFirstSearch:
    """One depth-first branch-and-bound search over a stop graph (bitmask of floor cells)."""

    def __init__(self, graph: StopGraph, *, max_moves: int | None = None, components: bool = True,
                 early_discard: bool = True, deadline: Deadline | None = None) -> None:
        self.graph = graph
        self.components = components
        self.early_discard = early_discard
        self.deadline = deadline or Deadline(None)
        cells = sorted(graph.floor_cells)
        self.bit = {c: 1 << i for i, c in enumerate(cells)}
        self.full = (1 << len(cells)) - 1
        self.cells_of_bits = cells
        self.stops = list(graph.stops)
        self.stop_index = {v: i for i, v in enumerate(self.stops)}
        self.moves_from = [
            [(self.stop_index[m.head], self._mask(m.painted), m.direction) for m in graph.moves_from.get(v, ())]
            for v in self.stops
        ]
        self.predecessors: list[list[int]] = [[] for _ in self.stops]
        for i, out in enumerate(self.moves_from):
            for head, _, _ in out:
                self.predecessors[head].append(i)
        # Components (for the improvement): index per stop, reachability, and the cells each
        # component can paint internally (see StopGraph.candidate_components).
        comp = graph.component_of
        self.component = [comp[v] for v in self.stops]
        dag = graph.condensation
        self.component_reach = graph.reachable_components
        self.cells_by_component: dict[int, int] = {c: 0 for c in dag.nodes}
        for c in graph.floor_cells:
            for k in graph.candidate_components(c):
                self.cells_by_component[k] |= self.bit[c]
        self.max_moves = max_moves
        self.best: str | None = None
        self.best_length = (max_moves + 1) if max_moves is not None else None
        self.nodes = 0
        self.deepest = 0
        self.pruned = {"length": 0, "fully-visited": 0, "loop": 0, "component": 0, "bound": 0}
        self._bound_cache: dict[int, int] = {}

    def _mask(self, cells) -> int:
        m = 0
        for c in cells:
            m |= self.bit[c]
        return m

    # ------------------------------------------------------------------ pruning helpers
    def _fully_visited(self, painted: int) -> list[bool]:
        """Stops from which no reachable move paints a new cell (spread from productive stops
        backwards: a stop is *not* fully visited iff it can reach a productive move)."""
        if self.components:
            return self._fully_visited_by_component(painted)
        productive = [any(mask & ~painted for _, mask, _ in out) for out in self.moves_from]
        alive = [False] * len(self.stops)
        stack = [i for i, p in enumerate(productive) if p]
        for i in stack:
            alive[i] = True
        while stack:
            i = stack.pop()
            for p in self.predecessors[i]:
                if not alive[p]:
                    alive[p] = True
                    stack.append(p)
        return [not a for a in alive]

    def _fully_visited_by_component(self, painted: int) -> list[bool]:
        unpainted = self.full & ~painted
        done = {c: not (self.cells_by_component[c] & unpainted) for c in self.cells_by_component}
        # a component is done when it and every component it reaches have nothing left to paint
        fully = {c: all(done[d] for d in self.component_reach[c]) for c in done}
        return [fully[c] for c in self.component]

    def _lower_bound(self, painted: int) -> int:
        unpainted = self.full & ~painted
        if unpainted not in self._bound_cache:
            cells = [c for c in self.graph.key_cells if self.bit[c] & unpainted]
            self._bound_cache[unpainted] = self.graph.run_lower_bound(cells)
        return self._bound_cache[unpainted]

    def _leaves_work_behind(self, tail: int, head: int, painted: int) -> bool:
        """Moving tail -> head across components: is some unpainted cell then out of reach?"""
        a, b = self.component[tail], self.component[head]
        if a == b:
            return False
        unpainted = self.full & ~painted & ~self.graph_start_bit
        reachable = 0
        for k in self.component_reach[b]:
            reachable |= self.cells_by_component[k]
        return bool(unpainted & ~reachable)

    # ------------------------------------------------------------------ the search
    def run(self) -> bool:
        """Search; True when it completed (then ``best`` is the minimum within ``max_moves``)."""
        start = self.stop_index[self.graph.start]
        self.graph_start_bit = self.bit[self.graph.start]
        painted = self.graph_start_bit
        if painted == self.full:
            self.best, self.best_length = "", 0
            return True
        last_visit = {start: painted}
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            self._dfs(start, painted, [], last_visit)
        except (_OutOfTime, RecursionError):
            return False
        finally:
            sys.setrecursionlimit(limit)
        return True

    def _dfs(self, at: int, painted: int, path: list[str], last_visit: dict[int, int]) -> None:
        self.nodes += 1
        if self.deadline.expired():  # every node: a node costs far more than the clock read
            raise _OutOfTime
        depth = len(path)
        self.deepest = max(self.deepest, depth)
        if self.best_length is not None and depth + 1 >= self.best_length:
            self.pruned["length"] += 1
            return
        fully = self._fully_visited(painted)
        options = []
        for head, mask, direction in self.moves_from[at]:
            new = painted | mask
            if new == self.full:  # finishing move: a new best
                self.best = "".join(path) + direction
                self.best_length = depth + 1
                report_answer(self.best)  # for a parent process (puzzlesat.roller.solve)
                return
            options.append((bin(mask & ~painted).count("1"), head, new, direction))
        options.sort(key=lambda o: -o[0])
        for gain, head, new, direction in options:
            if self.best_length is not None and depth + 1 >= self.best_length:
                return
            if fully[head]:
                self.pruned["fully-visited"] += 1
                continue
            if last_visit.get(head) == new:
                self.pruned["loop"] += 1
                continue
            if self.components and self._leaves_work_behind(at, head, new):
                self.pruned["component"] += 1
                continue
            if self.early_discard and self.best_length is not None and \
                    depth + 1 + self._lower_bound(new) >= self.best_length:
                self.pruned["bound"] += 1
                continue
            previous = last_visit.get(head)
            last_visit[head] = new
            path.append(direction)
            self._dfs(head, new, path, last_visit)
            path.pop()
            if previous is None:
                del last_visit[head]
            else:
                last_visit[head] = previous


def solve_dfs(graph: StopGraph, *, time_limit: "float | Deadline | None" = None, max_moves: int | None = None,
              components: bool = True, early_discard: bool = True) -> SolveResult[str]:
    """Minimum answer by depth-first branch and bound (unverified; see
    :func:`puzzlesat.roller.solve.solve`). ``optimal`` is True only when the search completed
    with no ``max_moves`` cap in force. Stats say how far it got: ``nodes``, ``deepest``,
    ``complete``, pruning counts and the best length found."""
    deadline = Deadline.of(time_limit)
    t0 = time.perf_counter()
    search = DepthFirstSearch(graph, max_moves=max_moves, components=components,
                              early_discard=early_discard, deadline=deadline)
    complete = search.run()
    seconds = time.perf_counter() - t0
    stats = {"complete": complete, "nodes": search.nodes, "deepest": search.deepest,
             "best_found": search.best_length if search.best is not None else None,
             "pruned": dict(search.pruned), "components": components, "early_discard": early_discard}
    timings = Timings(0.0, seconds)
    root_bound = graph.run_lower_bound(graph.key_cells)
    if search.best is not None:
        proven = complete and max_moves is None
        return SolveResult(Status.SOLVED, search.best, timings, proven,
                           len(search.best) if proven else min(root_bound, len(search.best)), "dfs", stats)
    if complete and max_moves is None:
        return SolveResult(Status.UNSATISFIABLE, None, timings, False, None, "dfs", stats)
    return SolveResult(Status.UNKNOWN, None, timings, False,
                       (max_moves + 1) if complete and max_moves is not None else root_bound, "dfs", stats)
