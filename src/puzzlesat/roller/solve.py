"""Proven-minimum Roller solving: one entry point over every method, every answer verified.

Rule in a sentence: paint every floor cell with the fewest slides, or prove that no walk from the
start can. :func:`solve` first builds the stop graph and runs the exact polynomial feasibility
check (an unsolvable level is an answer, with the reason in ``stats["reason"]``), then runs the
chosen method and replays its answer with :func:`puzzlesat.roller.verify.verify` before returning.

Methods: ``"flow"`` (the default; CP-SAT traversal counts, Euler balance and flow connectivity,
no time index), ``"auto"`` (A* for at most 5 ms, which settles small levels 10-20 times faster,
then the flow model; a few ms slower than flow on big levels), ``"time-indexed"`` (SAT, ball
position per step, horizon grown from an admissible bound), ``"dfs"`` (the published depth-first baseline with its pruning rules; optimal only when
its search completes), ``"astar"`` (A* over (stop, unpainted key cells) with the run-cover
bound).

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> result = solve(level, time_limit=10)
>>> result.status.value, len(result.solution), result.optimal, result.method
('solved', 4, True, 'flow')
>>> blocked = Level.from_rows(["#.#", "o..", "###"])
>>> r = solve(blocked)
>>> r.status.value, r.stats["reason"]
('unsatisfiable', '1 floor cell(s) can never be painted from the start (1, 0): (0,1)')
"""

from __future__ import annotations

import importlib
from typing import Callable

from ..child import run_with_deadline
from ..errors import UnverifiedAnswer, require_type, require_valid
from ..results import SolveResult, Status, Timings
from ..timing import Deadline, Stopwatch
from .model import Level
from .stopgraph import StopGraph
from .verify import verify

DEFAULT_METHOD = "flow"  # the best median on the official TabTale set (encodings/roller.md, section 8)
AUTO_SEARCH_SECONDS = 0.005  # the A* budget of "auto" before the flow model takes over (encodings/roller.md, section 8)
# Boards with more cells are solved under a time limit in a forked child, stopped just after
# the limit: their stop graph and feasibility check are seconds of Python, which no deadline
# check inside a solver can cut short (encodings/roller.md, "Notes moved from the code").
CHILD_PROCESS_CELLS = 20_000

# method name -> (module, function); each function takes (StopGraph, *, time_limit) and returns
# an unverified SolveResult.
METHODS: dict[str, tuple[str, str]] = {
    "auto": ("solve", "solve_auto"),
    "flow": ("flow", "solve_flow"),
    "time-indexed": ("timeindexed", "solve_time_indexed"),
    "dfs": ("dfs", "solve_dfs"),
    "astar": ("astar", "solve_astar"),
}


def _method(name: str) -> Callable[..., SolveResult[str]]:
    if name not in METHODS:
        raise ValueError(f"unknown roller method {name!r}; choose one of exact (the default), {', '.join(METHODS)}")
    module, function = METHODS[name]
    return getattr(importlib.import_module(f"{__package__}.{module}"), function)


def solve(level: Level, *, method: str | None = None, time_limit: "float | Deadline | None" = None,
          work_limit: float | None = None) -> SolveResult[str]:
    """The fewest moves that paint every floor cell of ``level``.

    Returns a :class:`~puzzlesat.results.SolveResult` whose ``solution`` is a move string over
    ``UDLR``: SOLVED (``optimal`` True when minimality is proven; when time runs out after an
    answer was found, ``optimal`` is False and ``lower_bound`` is the best proven bound),
    UNSATISFIABLE (``stats["reason"]`` names the cells no walk can paint) or UNKNOWN (time ran out
    with no answer; ``lower_bound`` still set). Every answer has passed ``verify``. ``method``:
    one of ``METHODS``; None or ``"exact"`` (the name Swap uses) is ``DEFAULT_METHOD``.
    ``work_limit`` (the flow method only): CP-SAT's deterministic seconds, a bound on work that
    ends a search the same way on any machine and load (what a seeded generator needs).

    >>> level = Level.from_rows(["o.", ".."])
    >>> result = solve(level, time_limit=10)
    >>> result.status.value, result.solution, result.optimal
    ('solved', 'DRU', True)
    >>> solve(level, method="astar").solution
    'DRU'
    """
    deadline = Deadline.of(time_limit)  # (first: the limit counts the import of the method's solver too)
    require_type(level, Level, "level", "parse text with roller.parse")
    name = DEFAULT_METHOD if method in (None, "exact") else method  # "exact": the default, as for Swap
    if name not in METHODS:
        _method(name)  # (its error)
    if work_limit is not None and name != "flow":
        raise ValueError(f"work_limit bounds the flow method's search, not {name!r}'s")
    limits = {} if work_limit is None else {"work_limit": work_limit}
    # (a child stopped at the limit leaves the best bound and the shortest answer it reported)
    in_child = run_with_deadline(solve, level, dict(method=method, time_limit=deadline, **limits), deadline=deadline,
                                 cells=level.width * level.height, threshold=CHILD_PROCESS_CELLS,
                                 check=lambda moves: verify(level, moves), method=name)
    if in_child is not None:
        return in_child
    run = _method(name)  # (imported here: a level solved in a child imports its solver there, within the limit)
    watch = Stopwatch()
    with watch("encode"):
        graph = StopGraph.of(level)
        verdict = graph.feasibility()
    feasibility_seconds = watch.seconds["encode"]
    if not verdict.solvable:
        return SolveResult(Status.UNSATISFIABLE, None, Timings(feasibility_seconds, 0.0), False, None, name,
                           {"reason": verdict.reason, "cells": verdict.cells})
    result = run(graph, time_limit=deadline, **limits)
    stats = dict(result.stats)
    stats["feasibility_seconds"] = feasibility_seconds
    if result.solution is not None:
        require_valid(verify(level, result.solution), f"roller method {name!r}")
    if result.status is Status.UNSATISFIABLE:
        # The feasibility check is exact, so a method claiming "no answer" here is wrong.
        raise UnverifiedAnswer(f"roller method {name!r} found no answer for a level the feasibility check solves")
    return SolveResult(result.status, result.solution, Timings(feasibility_seconds, 0.0) + result.timings,
                       result.optimal, result.lower_bound, name, stats)


def solve_auto(graph: StopGraph, *, time_limit: "float | Deadline | None" = None) -> SolveResult[str]:
    """The default: A* for at most ``AUTO_SEARCH_SECONDS`` (it proves small levels in
    milliseconds), then the flow model (which proves the big ones). ``stats["proved_by"]`` says
    which one finished; the bound of an unfinished A* run is kept if it is the better one."""
    from .astar import solve_astar

    deadline = Deadline.of(time_limit)
    remaining = deadline.remaining()
    budget = AUTO_SEARCH_SECONDS if remaining is None else min(AUTO_SEARCH_SECONDS, remaining)
    quick = solve_astar(graph, time_limit=budget)
    if quick.optimal or deadline.expired():
        return SolveResult(quick.status, quick.solution, quick.timings, quick.optimal, quick.lower_bound, "auto",
                           {**quick.stats, "proved_by": "astar" if quick.optimal else None})
    from .flow import solve_flow  # imports OR-Tools (about a second, once) only when needed

    exact = solve_flow(graph, time_limit=deadline)
    lower = max(exact.lower_bound or 0, quick.lower_bound or 0)
    if exact.solution is not None:
        lower = min(lower, len(exact.solution))
    return SolveResult(exact.status, exact.solution, quick.timings + exact.timings, exact.optimal, lower, "auto",
                       {**exact.stats, "proved_by": "flow" if exact.optimal else None,
                        "astar_expanded": quick.stats.get("expanded")})
