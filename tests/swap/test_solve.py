"""The two exact Swap solvers agree on the minimum: on at least 300 of 340 random levels of 3x3 to 4x4 (match
and cluster goals, drawn by the original generator), the A* search's minimum is confirmed by
CP-SAT (a plan of that length exists, and the "at most one fewer" model is infeasible), the
published A* baseline is never below it, the lower bound never above it, and every answer passes
the independent ``verify``."""

from __future__ import annotations

import random

import pytest

from puzzlesat.results import Status
from puzzlesat.swap import bounds
from puzzlesat.swap.astar import astar_solve
from puzzlesat.swap.compiled import Task
from puzzlesat.swap.cpsat import SwapEncoding, solve_horizon
from puzzlesat.swap.generate import draw_level
from puzzlesat.swap.model import Level
from puzzlesat.swap.solve import solve, to_moves
from puzzlesat.swap.verify import verify

LEVELS = 340
CHUNKS = 10
AGREED_PER_CHUNK = 30  # so at least 300 levels are decided by both exact methods
CPSAT_LIMIT = 10  # seconds per CP-SAT call; a time-out counts as undecided, not as agreement
SIZES = [(3, 3), (3, 4), (4, 3), (4, 4)]


def level_chunk(chunk: int) -> list[Level]:
    per_chunk = LEVELS // CHUNKS
    rng = random.Random(2026 + chunk)
    return [
        draw_level(rng, goal="match" if n % 2 == 0 else "cluster", size=rng.choice(SIZES))
        for n in range(per_chunk)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_search_and_cpsat_agree_on_the_minimum(chunk):
    """A level counts as agreed when both exact methods decide it (a time limit running out
    under a loaded machine is not a disagreement, but too many would fail the chunk)."""
    agreed = 0
    for level in level_chunk(chunk):
        task = Task.from_level(level)
        exact = solve(level, method="search", time_limit=20)
        if exact.status is Status.UNKNOWN or (exact.status is Status.SOLVED and not exact.optimal):
            continue  # the time ran out, with no plan or with one not proven shortest: undecided
        if exact.status is Status.UNSATISFIABLE:
            assert astar_solve(level, time_limit=10).status is not Status.SOLVED
            agreed += 1  # proven by a cheap argument or by exhausting every reachable state
            continue
        assert exact.optimal, level
        minimum = len(exact.solution)
        assert verify(level, exact.solution) == []
        assert exact.lower_bound == minimum
        assert bounds.lower_bound(task) <= minimum

        baseline = astar_solve(level, time_limit=10)
        if baseline.status is Status.SOLVED:
            assert verify(level, baseline.solution) == []
            assert len(baseline.solution) >= minimum
            assert not baseline.optimal

        # CP-SAT: a plan of exactly `minimum` swaps, and none of at most `minimum - 1`
        found = solve_horizon(task, minimum, time_limit=CPSAT_LIMIT)
        assert found.status != "unsatisfiable", level
        if found.status == "unknown":
            continue
        assert verify(level, to_moves(task, found.swaps)) == []
        if minimum > 0:
            fewer = solve_horizon(task, minimum - 1, allow_idle=True, time_limit=CPSAT_LIMIT).status
            assert fewer != "solved", level
            if fewer == "unknown":
                continue
        agreed += 1
    assert agreed >= AGREED_PER_CHUNK


def test_cpsat_horizon_growth_finds_the_same_minimum_as_search():
    rng = random.Random(11)
    for n in range(12):
        level = draw_level(rng, goal="match" if n % 2 else "cluster", size=(3, 3))
        task = Task.from_level(level)
        if bounds.unreachable_reason(task):
            continue
        via_search = solve(level, method="search", time_limit=30)
        via_cpsat = solve(level, method="cpsat", time_limit=30)
        if via_search.status is Status.UNSATISFIABLE:
            continue
        assert via_cpsat.status is Status.SOLVED and via_cpsat.optimal
        assert len(via_cpsat.solution) == len(via_search.solution)
        assert verify(level, via_cpsat.solution) == []


def test_time_limit_gives_unknown_with_a_lower_bound(monkeypatch):
    """A hard 7x6 level: every method stops at its deadline with a proven lower bound. The search
    reads its deadline as it goes, so the clock is made to jump past a long limit once it has
    started (no bound on speed); CP-SAT gets the time left as its own limit, in its own threads,
    which no test clock reaches, so it gets a real 1 s limit and a bound that only guards
    against a hang."""
    import time

    from tests.clock import jump_clock_after

    for goal in ("match", "cluster"):
        level = draw_level(random.Random(20000), goal=goal, size=(7, 6))
        for method in ("search", "cpsat"):
            if method == "search":
                with monkeypatch.context() as patch:
                    clock = jump_clock_after(patch, reads=100)
                    result = solve(level, method=method, time_limit=60.0)
                assert clock.jumped, goal
            else:
                started = time.perf_counter()
                result = solve(level, method=method, time_limit=1.0)
                assert time.perf_counter() - started < 1.0 + 30.0, (goal, method)  # (a hang guard only)
            assert not result.optimal and result.status is not Status.UNSATISFIABLE
            assert result.lower_bound is not None and result.lower_bound >= 1
            if result.status is Status.SOLVED:  # a plan found, not proven shortest
                assert verify(level, result.solution) == []
                assert len(result.solution) >= result.lower_bound


def test_unsolvable_levels_are_proven():
    stuck = Level.from_rows(["B1R B1G"], goal=["G R"])
    result = solve(stuck)
    assert result.status is Status.UNSATISFIABLE and "cannot exchange" in result.stats["reason"]
    lonely = Level.from_rows(["T1R T1G T1G"], goal="touch")
    assert solve(lonely).status is Status.UNSATISFIABLE
    # a cluster level with no way to join the two reds: found by exhausting the states
    frozen = Level.from_rows(["B1R B1G B1R"], goal="cluster")
    result = solve(frozen, method="search")
    assert result.status is Status.UNSATISFIABLE
    # no layout of these colours connects every colour (the search alone ran 20 s on it)
    walled = Level.from_rows(
        ["Q2G ### T3G T3Y", "B1Y Q3Y T1M T1M", "### B3M ### T1G", "### B1Y ### T2G"], goal="cluster"
    )
    result = solve(walled, time_limit=10)
    assert result.status is Status.UNSATISFIABLE and "no arrangement" in result.stats["reason"]


def test_encoding_size_matches_the_documented_formulas():
    """encodings/swap.md: x variables = sum over steps of the allowed (cell, class) pairs, s
    variables = H * |P|; without domain filtering every class of a cell's component is allowed."""
    level = Level.from_rows(["T1R Q1G B2G", "T2B T1R Q1B"], goal=["G R B", "R B G"])
    task = Task.from_level(level)
    horizon = 3
    enc = SwapEncoding(task, horizon, filter_domains=False, order_independent=False, distance_budget=False)
    n, k = len(task.cells), len(task.classes)
    pairs = len(enc.pairs)
    x_vars = sum(len(row) for layer in enc.x[1:] for row in layer)
    assert x_vars == horizon * n * k  # one component: every class allowed everywhere
    s_vars = sum(len(step) for step in enc.s[1:])
    assert s_vars == horizon * pairs
    assert len(enc.model.proto.variables) == x_vars + s_vars
    # constraints per step: n exactly-one + k class counts + 1 step choice + |P| preconditions
    # (minus those always true at step 1) + effect clauses + frame clauses, then the goal
    size = enc.size()
    assert size["variables"] == horizon * (n * k + pairs)
    ordered = SwapEncoding(task, horizon, filter_domains=False, distance_budget=False)
    assert len(ordered.model.proto.variables) == size["variables"] + (horizon - 1) * pairs
    # the order constraints: 3P - 1 defining `later`, P no-undo and P - 1 commuting clauses per step boundary
    assert len(ordered.model.proto.constraints) - len(enc.model.proto.constraints) == (horizon - 1) * (5 * pairs - 2)


def test_a_solve_bounded_by_work_ends_by_its_count_and_states_the_canonical_plan():
    """solve(work_limit=N) (what the generator uses): the phases in one process, ended by
    counts; the outcome repeats, and a proven minimum is stated with the canonical plan, the
    same one a solve under a time limit states (#45, #43)."""
    level = draw_level(random.Random(14), difficulty="medium", goal="match")  # (A* needs ~120 expansions)
    proven = solve(level, work_limit=10_000)
    assert proven.status is Status.SOLVED and proven.optimal and proven.stats["plan"] == "canonical"
    assert verify(level, proven.solution) == []
    timed = solve(level, time_limit=60)
    assert timed.optimal and timed.solution == proven.solution and timed.stats["plan"] == "canonical"
    short = [solve(level, work_limit=10) for _ in range(2)]
    assert short[0].stats["work_cap"] == 10 and not short[0].optimal
    assert (short[0].status, short[0].solution, short[0].lower_bound) == (short[1].status, short[1].solution, short[1].lower_bound)
    assert short[0].lower_bound < len(proven.solution)
    with pytest.raises(ValueError, match="work_limit bounds the search method's expansions, not 'astar'"):
        solve(level, method="astar", work_limit=10)
    with pytest.raises(ValueError, match="work_limit must be 1 or more"):
        solve(level, work_limit=0)
