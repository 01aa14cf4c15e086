"""The published A* baseline: never an invalid answer, never below the true minimum, never
claims optimality; cap, exhaustion and time limit behave as documented."""

from __future__ import annotations

import random
from collections import deque

import pytest

from puzzlesat.results import Status
from puzzlesat.swap import Goal, Level, apply_move, board_from_rows, is_goal, legal_moves, parse, verify
from puzzlesat.swap.astar import astar_solve


class TooBig(Exception):
    pass


def bfs_minimum(level: Level, limit: int = 200_000):
    """Reference breadth-first search over full boards (test-only oracle); None = unsolvable."""
    start = level.start
    if is_goal(level, start):
        return 0
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        board, depth = frontier.popleft()
        for move in legal_moves(board):
            child = apply_move(board, move, check=False)
            if child in seen:
                continue
            if is_goal(level, child):
                return depth + 1
            seen.add(child)
            if len(seen) > limit:
                raise TooBig
            frontier.append((child, depth + 1))
    return None


def random_level(rng: random.Random, goal: str) -> Level:
    rows, cols = rng.randint(2, 3), rng.randint(2, 3)
    palette = "RG" if goal == "touch" else "RGY"
    tokens = [[rng.choice("TBQ") + str(rng.choice([1, 1, 2])) + rng.choice(palette) for _ in range(cols)] for _ in range(rows)]
    if rows * cols > 4 and rng.random() < 0.5:
        tokens[rng.randrange(rows)][rng.randrange(cols)] = "###"
    board = board_from_rows(tokens)
    if goal == "match":
        colours = [sq.colour for row in board for sq in row if sq is not None]
        rng.shuffle(colours)
        it = iter(colours)
        return Level(board, Goal.match([[None if sq is None else next(it) for sq in row] for row in board]))
    return Level(board, Goal(goal))


@pytest.mark.parametrize("goal", ["match", "cluster", "touch"])
def test_astar_is_an_upper_bound_and_always_valid(goal):
    rng = random.Random({"match": 1, "cluster": 2, "touch": 3}[goal])
    checked = 0
    for _ in range(30):
        level = random_level(rng, goal)
        try:
            minimum = bfs_minimum(level, limit=20_000)
        except TooBig:
            continue
        if minimum is None:  # proven by exhausting the states, or unknown when the cap came first
            result = astar_solve(level, cap=300)
            assert result.status in (Status.UNSATISFIABLE, Status.UNKNOWN) and result.optimal is False
            continue
        result = astar_solve(level)
        assert result.optimal is False and result.method == "astar"
        assert result.status is Status.SOLVED
        assert verify(level, result.solution) == []
        assert len(result.solution) >= minimum
        checked += 1
    assert checked >= 10


def test_all_four_published_heuristics_run_for_match():
    level = parse("start\nT1R T2G B1Y\nQ1G T1R T1Y\nB2Y T1G T1R\ngoal\nG R Y\nY G R\nR Y G")
    result = astar_solve(level)
    assert set(result.stats["runs"]) == {"H_E", "H_M", "H_EM", "H_MM"}
    assert result.stats["heuristic"] in result.stats["runs"]
    best = min(r["moves"] for r in result.stats["runs"].values() if r["moves"] is not None)
    assert len(result.solution) == best


def test_unsolvable_is_proven_by_exhausting_the_states():
    level = parse("start\nB1R B1G\ngoal\nG R")  # bishops on one row never move
    result = astar_solve(level)
    assert result.status is Status.UNSATISFIABLE and result.solution is None


def test_cap_and_time_limit_give_unknown():
    level = parse("start\nT1R T1R T1G\nT1G T1Y T1Y\nT1Y T1G T1R\ngoal\nY G R\nG Y R\nY R G")
    assert bfs_minimum(level) >= 3
    capped = astar_solve(level, cap=1)
    assert capped.status is Status.UNKNOWN
    assert all(run["status"] == "cap" for run in capped.stats["runs"].values())
    assert astar_solve(level, time_limit=0.0).status is Status.UNKNOWN


def expert_level() -> Level:
    """A 7x6 expert level that no run solves in a few thousand expansions."""
    from puzzlesat.swap.generate import draw_level

    return draw_level(random.Random(3), difficulty="expert", goal="match", size=(7, 6))


def test_the_baseline_stops_at_a_deadline_reached_inside_a_run(monkeypatch):
    """The deadline is checked during a run, not only between runs: when the clock passes the
    limit mid-search, that run stops with "timeout", no further run starts, and the answer is
    unknown (the clock jumps instead of being waited for: no bound on speed)."""
    from tests.clock import jump_clock_after

    clock = jump_clock_after(monkeypatch, reads=200)
    result = astar_solve(expert_level(), time_limit=60.0, cap=1_000_000)
    runs = result.stats["runs"]
    assert clock.jumped
    assert result.status is Status.UNKNOWN and result.solution is None
    assert [run["status"] for run in runs.values()] == ["timeout"]  # the first run, and no other
    assert 0 < next(iter(runs.values()))["expansions"] < 200


def test_the_baseline_keeps_back_the_time_to_free_its_states():
    """A run stops while the time left is still enough to free the states it holds (about
    FREE_SECONDS_PER_STATE_CELL per state and board cell), so the baseline returns at its limit:
    with room for twice as many states it expands more, and either way stops with "timeout"
    although its deadline never passes."""
    from puzzlesat.swap.astar import FREE_SECONDS_PER_STATE_CELL
    from tests.clock import FixedRemaining

    level = expert_level()
    cells = 7 * 6  # the state holds one entry per board cell
    expansions = []
    for states in (2_000, 4_000):
        deadline = FixedRemaining(FREE_SECONDS_PER_STATE_CELL * cells * states)
        result = astar_solve(level, time_limit=deadline, cap=1_000_000, heuristics=["H_E"])
        run = result.stats["runs"]["H_E"]
        assert result.status is Status.UNKNOWN and run["status"] == "timeout"
        expansions.append(run["expansions"])
    assert 0 < expansions[0] < expansions[1] < 1_000_000


def test_start_already_at_goal():
    level = parse("start\nT1R T1G\ngoal\nR G")
    result = astar_solve(level)
    assert result.status is Status.SOLVED and result.solution == () and result.optimal is False


def test_unknown_heuristic_name():
    with pytest.raises(ValueError, match="unknown heuristic"):
        astar_solve(parse("start\nT1R T1G\ngoal\nG R"), heuristics=["H_X"])


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        (dict(level="start\nT1R T1G\ngoal\nG R"), TypeError, "level must be a Level, not str"),  # was AttributeError: 'str' object has no attribute 'rows'
        (dict(cap="5000"), TypeError, "cap must be a whole number of expansions, not str"),  # was '>=' not supported deep in a run
        (dict(cap=None), TypeError, "cap must be a whole number"),
        (dict(cap=-1), ValueError, "cap must be 0 or more expansions, not -1"),  # was UNKNOWN, 'every run stopped at its cap'
        (dict(heuristics="H_E"), TypeError, r"a sequence of names, e\.g\. \['H_E'\]"),  # was "unknown heuristic 'H'"
        (dict(heuristics=[]), ValueError, "at least one heuristic"),  # was UNKNOWN with no run at all
    ],
)
def test_baseline_arguments_are_checked_at_the_call(arguments, error, message):
    arguments = {"level": parse("start\nT1R T1G\ngoal\nG R"), **arguments}
    with pytest.raises(error, match=message):
        astar_solve(**arguments)
