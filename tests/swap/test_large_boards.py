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

from puzzlesat.child import GRACE_SECONDS
from puzzlesat.cli import main
from puzzlesat.results import Status
from puzzlesat.swap.formats import format
from puzzlesat.swap.model import Level
from puzzlesat.swap.solve import solve
from puzzlesat.swap.verify import verify

solve_module = importlib.import_module("puzzlesat.swap.solve")
astar_module = importlib.import_module("puzzlesat.swap.astar")
compiled_module = importlib.import_module("puzzlesat.swap.compiled")

MARGIN = 1.5  # seconds of slack on a loaded machine, beyond the child's grace period


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
