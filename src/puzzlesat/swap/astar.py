"""The published A* baseline for Swap, kept as the original game's solver did it.

Rule reminder: a swap {u, v} is legal when the square at one end reaches the other along its
figure's directions within its scope, jumping squares but not walls. The baseline searches the
full board state with A*: g = moves so far, f = g + h, a closed set on the full state, at most
``cap`` (5000) expansions per run, after which the run fails. Several runs, one per heuristic,
and the shortest answer found is kept. None of the heuristics is admissible, so the answers are
upper bounds: :func:`solve` never claims optimality. The package reaches it as
``swap.solve(level, method="astar")`` or ``swap.astar.solve(level)``.

Heuristics (``h`` of a state):

- match, as published: for each mismatched cell, the distance to the nearest mismatched cell
  whose *goal* colour is this cell's *current* colour, summed: Euclidean (``H_E``) or Manhattan
  (``H_M``), and each plus the number of mismatched cells (``H_EM``, ``H_MM``).
- cluster, as published: for each colour, its largest 4-connected group; for each cell of that
  colour outside it, the Manhattan distance to the group minus one, summed (``H_C``); we also
  run it plus the number of cells outside their colour's largest group (``H_CC``), mirroring the
  match variants (the spec is silent on how many cluster runs the original made).
- touch (not in the original): for each square without a same-coloured orthogonal neighbour,
  the Manhattan distance to the nearest other square of its colour minus one, summed (``H_T``),
  and that plus the number of such squares (``H_TC``).

If a run empties its open list without reaching the goal, every reachable state has been
expanded, so the level is proven unsolvable (status UNSATISFIABLE). This module imports only the
family's model, moves and verify plus the shared result types: never the SAT layer.
The heuristics are in :mod:`.astar_heuristics`; this module runs the searches.

>>> from .model import Level
>>> level = Level.from_rows(["T1R T1G", "T1G T1R"], goal=["R G", "R G"])
>>> result = solve(level)
>>> result.status.value, [str(m) for m in result.solution], result.optimal
('solved', ['1,0>1,1'], False)
"""

from __future__ import annotations

import heapq
import operator
import time
from dataclasses import dataclass
from typing import Optional, Sequence

from ..errors import require_type, require_valid
from ..grid import is_whole_number
from ..results import SolveResult, Status, Timings
from ..timing import Deadline
from .astar_heuristics import _Compiled, default_heuristics, heuristic
from .model import Level, Move
from .verify import verify


CAP = 5000  # expansions per heuristic run, as in the published baseline
# A run that stops still has to free its states (best g, parents, closed set, heap, heuristic
# cache), about 1e-8 s per state and board cell. Twice that much time per state and cell is kept
# back from the deadline, so the whole baseline returns at its time limit, not after it
# (encodings/swap.md, "Notes moved from the code").
FREE_SECONDS_PER_STATE_CELL = 2e-8


@dataclass
class RunOutcome:
    """One A* run: ``status`` is "found", "cap" (expansion cap hit), "exhausted" (open list
    emptied: no reachable goal) or "timeout"; ``swaps`` are (mover, other) flat cell indices."""

    heuristic: str
    status: str
    swaps: Optional[list[tuple[int, int]]]
    expansions: int
    seconds: float


def astar_run(compiled: _Compiled, goal_kind: str, name: str, *, cap: int, deadline: Deadline) -> RunOutcome:
    """One A* search with heuristic ``name``, at most ``cap`` expansions."""
    started = time.perf_counter()
    h = heuristic(compiled, name)
    start = compiled.start
    best_g = {start: 0}
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int]]] = {}
    closed: set[tuple[int, ...]] = set()
    counter = 0
    h0 = h(start)
    heap: list[tuple[float, float, int, tuple[int, ...]]] = [(h0, h0, counter, start)]
    expansions = 0

    def done(status: str, swaps: Optional[list[tuple[int, int]]] = None) -> RunOutcome:
        return RunOutcome(name, status, swaps, expansions, time.perf_counter() - started)

    def out_of_time() -> bool:
        """The deadline is reached, or would be while the states found so far are freed."""
        left = deadline.remaining()
        return left is not None and left <= FREE_SECONDS_PER_STATE_CELL * len(start) * len(best_g)

    while heap:
        _, _, _, state = heapq.heappop(heap)
        if state in closed:
            continue
        if compiled.is_goal(state, goal_kind):
            swaps = []
            while state in parent:
                state, swap = parent[state]
                swaps.append(swap)
            return done("found", swaps[::-1])
        if expansions >= cap:
            return done("cap")
        if out_of_time():  # (every expansion: one of a 7x6 queen board can cost ~10 ms)
            return done("timeout")
        closed.add(state)
        expansions += 1
        g = best_g[state] + 1
        for i, j in compiled.successors(state):
            child = list(state)
            child[i], child[j] = child[j], child[i]
            child_state = tuple(child)
            if child_state in closed:
                continue
            if g < best_g.get(child_state, 1 << 30):
                best_g[child_state] = g
                parent[child_state] = (state, (i, j))
                hc = h(child_state)
                counter += 1
                heapq.heappush(heap, (g + hc, hc, counter, child_state))
                if counter % 8 == 0 and out_of_time():  # (inside an expansion too: one on a large board takes long)
                    return done("timeout")
    return done("exhausted")


def astar_solve(
    level: Level,
    *,
    time_limit: float | Deadline | None = None,
    cap: int = CAP,
    heuristics: Optional[Sequence[str]] = None,
) -> SolveResult:
    """The original baseline: one capped A* run per heuristic, shortest answer kept.

    Returns SOLVED with a verified tuple of :class:`Move` (mover first) and ``optimal=False``
    (the heuristics are inadmissible, the answer is an upper bound); UNSATISFIABLE when a run
    exhausted the reachable states; UNKNOWN when every run hit the cap or the time limit.
    ``stats["runs"]`` holds each run's status, move count and expansions. ``cap``: expansions
    per run (0 or more); ``heuristics``: names to run (e.g. ``["H_E"]``), by default the four
    (match) or two (cluster, touch) of the original.

    >>> level = Level.from_rows(["T1R T1G T1R"], goal="cluster")
    >>> result = astar_solve(level)
    >>> result.status.value, [str(m) for m in result.solution], result.optimal
    ('solved', ['0,0>0,1'], False)
    >>> list(result.stats["runs"])  # one run per cluster heuristic
    ['H_C', 'H_CC']
    >>> astar_solve(Level.from_rows(["B1R B1G"], goal=["G R"])).status.value  # no bishop move
    'unsatisfiable'
    """
    require_type(level, Level, "level", "parse text with swap.parse")
    if not is_whole_number(cap):
        raise TypeError(f"cap must be a whole number of expansions, not {type(cap).__name__}")
    cap = operator.index(cap)
    if cap < 0:
        raise ValueError(f"cap must be 0 or more expansions, not {cap}")
    if isinstance(heuristics, str):
        raise TypeError(f"heuristics must be a sequence of names, e.g. [{heuristics!r}], not one string")
    names = tuple(heuristics) if heuristics is not None else default_heuristics(level.goal.kind)
    if not names:
        raise ValueError("heuristics must name at least one heuristic (None runs the original's)")
    deadline = Deadline.of(time_limit)
    started = time.perf_counter()
    compiled = _Compiled.of(level)
    encode = time.perf_counter() - started
    runs: list[RunOutcome] = []
    for name in names:
        if deadline.expired():
            break
        outcome = astar_run(compiled, level.goal.kind, name, cap=cap, deadline=deadline)
        runs.append(outcome)
        if outcome.status == "exhausted":
            break
    timings = Timings(encode=encode, solve=time.perf_counter() - started - encode)
    stats = {
        "runs": {r.heuristic: {"status": r.status, "moves": None if r.swaps is None else len(r.swaps), "expansions": r.expansions, "seconds": round(r.seconds, 4)} for r in runs},
        "cap": cap,
    }
    found = [r for r in runs if r.swaps is not None]
    if found:
        best = min(found, key=lambda r: len(r.swaps or ()))
        cols = compiled.cols
        moves = tuple(Move(divmod(i, cols), divmod(j, cols)) for i, j in best.swaps or ())
        require_valid(verify(level, moves), "the A* baseline")  # (a bug in this module)
        stats["heuristic"] = best.heuristic
        return SolveResult(Status.SOLVED, moves, timings, optimal=False, lower_bound=None, method="astar", stats=stats)
    if any(r.status == "exhausted" for r in runs):
        return SolveResult(Status.UNSATISFIABLE, None, timings, optimal=False, lower_bound=None, method="astar", stats=stats)
    return SolveResult(Status.UNKNOWN, None, timings, optimal=False, lower_bound=None, method="astar", stats=stats)


def solve(
    level: Level,
    *,
    time_limit: float | Deadline | None = None,
    cap: int = CAP,
    heuristics: Optional[Sequence[str]] = None,
) -> SolveResult:
    """The published baseline, as every family's baseline module offers it: the capped A* runs
    of :func:`astar_solve` (``cap`` expansions per run; ``heuristics`` by name, by default the
    original's), an answer never proven minimal.

    >>> solve(Level.from_rows(["T1R T1G T1R"], goal="cluster"), cap=100).method
    'astar'
    """
    return astar_solve(level, time_limit=time_limit, cap=cap, heuristics=heuristics)
