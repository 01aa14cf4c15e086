"""Swap boards larger than the game's under a time limit: solving runs in a child process stopped
a second after the limit, since their bound tables are seconds of Python that no deadline check
inside the solver cuts short (with a 3 s limit, a 40x40 board answered after 6.3 s, a 100x100 one
after 56 s with 2.7 GB; with 1 s, a 12x12 board of 133 distinct squares after 4.2 s)."""

from __future__ import annotations

import importlib
import json
import random
import time

import pytest

from puzzlesat.child import GRACE_SECONDS, Partial
from puzzlesat.cli import main
from puzzlesat.errors import UnverifiedAnswer
from puzzlesat.results import Status
from puzzlesat.swap.formats import format
from puzzlesat.swap.model import Level
from puzzlesat.swap.solve import solve
from puzzlesat.swap.verify import verify

solve_module = importlib.import_module("puzzlesat.swap.solve")
astar_module = importlib.import_module("puzzlesat.swap.astar")
compiled_module = importlib.import_module("puzzlesat.swap.compiled")
search_module = importlib.import_module("puzzlesat.swap.search")

# A hang guard only, not a bound on speed: the stopped work sleeps 60 s, so a return well before
# that (and "killed" in the stats) shows the child was stopped; how soon is not asserted.
MARGIN = 30.0


def large_level(side: int = 25) -> Level:
    """A side x side match level (more cells than any real one) with shuffled goal colours."""
    rng = random.Random(side)
    squares = [rng.choice("TBQ") + rng.choice("123") + rng.choice("RGBY") for _ in range(side * side)]
    goal = [square[2] for square in squares]
    rng.shuffle(goal)
    return Level.from_rows([" ".join(squares[r * side:(r + 1) * side]) for r in range(side)],
                           goal=[" ".join(goal[r * side:(r + 1) * side]) for r in range(side)])


def never_finishes(*args, **kwargs):
    time.sleep(60)


@pytest.mark.parametrize("side", [9, 25])
def test_a_large_board_whose_tables_outlast_the_limit_is_stopped(monkeypatch, side):
    monkeypatch.setattr(compiled_module.Task, "from_level", staticmethod(never_finishes))
    level = large_level(side)
    started = time.perf_counter()
    result = solve(level, time_limit=0.3)
    assert time.perf_counter() - started < 0.3 + GRACE_SECONDS + MARGIN
    assert result.status is Status.UNKNOWN and not result.optimal and "killed" in result.stats["stopped"]


def test_the_astar_baseline_on_a_large_board_is_stopped_too(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(astar_module, "astar_solve", never_finishes)
    path = tmp_path / "large.swap"
    path.write_text(format(large_level()))
    started = time.perf_counter()
    status = main(["verify", str(path), "--method", "astar", "--time-limit", "0.3", "--json"])
    assert time.perf_counter() - started < 0.3 + GRACE_SECONDS + MARGIN
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert status == 1 and record["status"] == "unknown" and record["optimal"] is False


def test_a_board_solved_in_a_child_process_gets_the_same_proven_answer(monkeypatch):
    level = Level.from_rows(["T1R B1G T1B", "Q1G T1R B1B"], goal=["G R B", "R G B"])
    direct = solve(level)
    monkeypatch.setattr(solve_module, "CHILD_PROCESS_CELLS", 2)
    in_child = solve(level, time_limit=30)
    assert in_child.status is Status.SOLVED and in_child.optimal and verify(level, in_child.solution) == []
    assert len(in_child.solution) == len(direct.solution)
    astar = solve(level, method="astar", time_limit=30)
    assert astar.status is Status.SOLVED and not astar.optimal


def few_swaps_level(seed: int = 4) -> Level:
    """A 9x8 match level of towers and bishops of scope 1 (72 cells: solved in a child under a
    time limit) whose goal is the start with six random colour swaps: its first bound is 7, 9
    with the step costs, and its first plan has 10 moves."""
    rng = random.Random(seed)
    squares = [rng.choice("TB") + "1" + rng.choice("RGB") for _ in range(72)]
    goal = [square[2] for square in squares]
    for _ in range(6):
        i, j = rng.randrange(72), rng.randrange(72)
        goal[i], goal[j] = goal[j], goal[i]
    return Level.from_rows([" ".join(squares[r * 8:(r + 1) * 8]) for r in range(9)],
                           goal=[" ".join(goal[r * 8:(r + 1) * 8]) for r in range(9)])


def stuck(*args, **kwargs):
    time.sleep(60)  # a step no deadline check cuts short: the child is killed at the limit


def test_a_child_stopped_at_the_limit_yields_its_proven_bound_and_best_plan(monkeypatch):
    """The child reports its proven bound and each better plan as it goes, so the answer of a
    child killed at the limit is the plan it had (verified again here, not proven minimal) with
    its bound; before, it was "unknown" with no bound at all."""
    from puzzlesat.swap import bounds
    from puzzlesat.swap.search import quick_plan
    from puzzlesat.swap.stepcost import StepCostBound

    level = few_swaps_level()
    task = compiled_module.Task.from_level(level)
    costs = StepCostBound(task)  # the tables and the first plan made here, with no time limit,
    plan = quick_plan(task, weight=2.0, step_costs=costs, max_expansions=50 * 72)  # so the child has them in time
    proven = max(bounds.lower_bound(task), costs.bound(task.start))
    monkeypatch.setattr(solve_module, "StepCostBound", lambda task, time_limit=None, lp_share=None: costs)
    monkeypatch.setattr(search_module, "quick_plan", lambda *args, **kwargs: plan)
    monkeypatch.setattr(importlib.import_module("puzzlesat.swap.proof"), "shorter_plan", stuck)  # stuck after the first plan
    result = solve(level, time_limit=0.3)
    assert "killed" in result.stats["stopped"]
    assert result.status is Status.SOLVED and not result.optimal and result.lower_bound == proven == 9
    assert len(result.solution) == 10 and verify(level, result.solution) == []


def test_a_child_stopped_before_any_plan_yields_its_proven_bound(monkeypatch):
    from puzzlesat.swap import bounds

    level = few_swaps_level()
    monkeypatch.setattr(solve_module, "StepCostBound", stuck)  # stuck in the step-cost tables
    result = solve(level, time_limit=0.3)
    assert "killed" in result.stats["stopped"]
    assert result.status is Status.UNKNOWN and result.solution is None
    assert result.lower_bound == bounds.lower_bound(compiled_module.Task.from_level(level)) == 7


def test_what_a_stopped_child_reported_is_checked_before_it_is_returned():
    level = Level.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
    good = solve(level).solution
    reported = Partial(lambda moves: verify(level, moves), method="search")
    reported.progress({"lower_bound": 2})
    reported.answer(good)
    as_short_as_the_bound = reported.result(seconds=1.0)
    assert as_short_as_the_bound.status is Status.SOLVED and as_short_as_the_bound.optimal
    assert as_short_as_the_bound.solution == good
    assert Partial(lambda moves: verify(level, moves), method="search").result(seconds=1.0).lower_bound is None
    with pytest.raises(UnverifiedAnswer, match="search gave an answer that fails the independent check"):
        reported.answer(good[:1])