"""The original generator: its tables, determinism, and certification by proof.

The exact solver (puzzlesat.swap.solve) is replaced here by a test-local breadth-first search
so that these tests check the generator's own logic; the real solver is exercised by its tests.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter, deque

import pytest

from puzzlesat.results import SolveResult, Status
from puzzlesat.swap import apply_move, colour_groups, is_goal, legal_moves, replay, verify
from puzzlesat.swap.generate import (
    DISTRIBUTIONS,
    PALETTE,
    SIZES,
    GenerationFailed,
    draw_level,
    draw_scope,
    generate,
    piece_counts,
)

generate_module = importlib.import_module("puzzlesat.swap.generate")


def bfs_solve(level, *, time_limit=None, work_limit=None):
    start = level.start
    parent = {start: None}
    frontier = deque([start])
    while frontier:
        board = frontier.popleft()
        if is_goal(level, board):
            moves = []
            while parent[board] is not None:
                board, move = parent[board]
                moves.append(move)
            return SolveResult(Status.SOLVED, tuple(moves[::-1]), optimal=True, lower_bound=len(moves), method="bfs")
        for move in legal_moves(board):
            child = apply_move(board, move, check=False)
            if child not in parent:
                parent[child] = (board, move)
                frontier.append(child)
        if len(parent) > 300_000:
            return SolveResult(Status.UNKNOWN, method="bfs")
    return SolveResult(Status.UNSATISFIABLE, method="bfs")


@pytest.fixture
def exact(monkeypatch):
    monkeypatch.setattr(generate_module, "exact_solve", bfs_solve)


def connected(level, diagonal):
    cells = set(level.square_cells())
    first = next(iter(cells))
    seen, todo = {first}, [first]
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else [])
    while todo:
        r, c = todo.pop()
        for dr, dc in steps:
            n = (r + dr, c + dc)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


@pytest.mark.parametrize("difficulty", list(SIZES))
@pytest.mark.parametrize("goal", ["match", "cluster"])
def test_draws_respect_the_tables(difficulty, goal):
    rng = random.Random(hash((difficulty, goal)) % 1000)
    lo, hi = SIZES[difficulty]
    for _ in range(40):
        level = draw_level(rng, difficulty=difficulty, goal=goal)
        area = level.rows * level.cols
        assert lo <= level.rows <= hi and lo <= level.cols <= hi
        assert set(level.colours) <= set(PALETTE) and len(level.colours) >= 2
        max_colours = 6 if area > 25 else 5 if area > 20 else 4 if area > 15 else 3 if area > 8 else 2
        assert len(level.colours) <= max_colours
        walls = len(level.walls)
        if area <= 6:
            assert walls == 0
        elif area < 9:
            assert walls <= 1
        squares = [level.square(cell) for cell in level.square_cells()]
        assert all(sq.scope in (1, 2, 3) for sq in squares)
        assert connected(level, diagonal=(goal == "match"))
        if goal == "match":
            assert level.goal.colours != tuple(tuple(None if sq is None else sq.colour for sq in row) for row in level.start)
        else:
            assert not is_goal(level, level.start)


def test_colour_chunks_are_equal_and_consecutive():
    rng = random.Random(3)
    for _ in range(60):
        level = draw_level(rng, difficulty="expert", goal="match")
        squares = [level.square(cell) for cell in level.square_cells()]
        counts = sorted(Counter(sq.colour for sq in squares).values(), reverse=True)
        chunk = max(counts)
        assert all(c == chunk for c in counts[:-1])  # every colour a full chunk but the last
        assert counts[-1] <= chunk


def test_piece_counts_follow_the_distribution_table():
    rng = random.Random(0)
    assert len(DISTRIBUTIONS) == 15
    for distribution in DISTRIBUTIONS:
        for area in (4, 6, 8, 9, 16, 25, 36, 42):
            walls, bishops, queens, towers = piece_counts(area, distribution, rng)
            assert walls + bishops + queens + towers == area and min(walls, bishops, queens, towers) >= 0
            if area >= 9:
                assert walls == int(distribution[0] * area / 100 + 0.5)
    assert piece_counts(20, (5, 0, 0), rng) == (1, 0, 0, 19)
    assert piece_counts(36, (45, 0, 55), rng) == (16, 0, 20, 0)


def test_scope_frequencies():
    rng = random.Random(11)
    counts = Counter(draw_scope(rng) for _ in range(4000))
    for scope, p in ((1, 0.55), (2, 0.30), (3, 0.15)):
        assert abs(counts[scope] / 4000 - p) < 0.03


def test_size_override_seven_by_six():
    level = draw_level(random.Random(2), size=(7, 6))
    assert (level.rows, level.cols) == (7, 6)


def test_draw_is_deterministic():
    assert draw_level(random.Random(5)) == draw_level(random.Random(5))
    assert draw_level(random.Random(5)) != draw_level(random.Random(6))


def test_generate_certifies_with_the_proven_minimum(exact):
    made = generate(difficulty="easy", goal="match", seed=3)
    assert verify(made.level, made.solution) == []
    assert made.min_moves == len(made.solution) == made.level.stated_minimum >= 1
    assert bfs_solve(made.level).solution is not None and len(bfs_solve(made.level).solution) == made.min_moves
    assert made == generate(difficulty="easy", goal="match", seed=3)  # same seed, same level
    assert made.level != generate(difficulty="easy", goal="match", seed=4).level


def test_generate_cluster_and_moves_range(exact):
    made = generate(difficulty="easy", goal="cluster", seed=1, moves=(2, 3))
    assert 2 <= made.min_moves <= 3
    final = replay(made.level.start, made.solution)[-1]
    assert all(len(groups) == 1 for groups in colour_groups(final).values())


def test_unsolvable_draws_are_rejected_by_proof_and_unknown_ones_skipped(monkeypatch):
    outcomes = iter([SolveResult(Status.UNSATISFIABLE), SolveResult(Status.UNKNOWN),
                     SolveResult(Status.SOLVED, ("0,0>0,1",), optimal=False)])

    def fake(level, *, time_limit=None, work_limit=None):
        return next(outcomes, None) or bfs_solve(level)

    monkeypatch.setattr(generate_module, "exact_solve", fake)
    made = generate(difficulty="easy", goal="match", seed=0)
    assert made.stats["unsolvable"] == 1 and made.stats["unknown"] == 2 and made.tries == 4


def test_generate_gives_up_clearly(exact):
    with pytest.raises(GenerationFailed, match="out of range"):
        generate(difficulty="easy", goal="match", seed=0, moves=(40, 50), max_tries=5)
    with pytest.raises(ValueError, match="empty"):
        generate(moves=(5, 2))
    with pytest.raises(ValueError, match="difficulty"):
        generate(difficulty="insane")


def test_move_counts_no_level_of_the_size_needs_are_refused_before_any_draw(exact, monkeypatch):
    monkeypatch.setattr(generate_module, "draw_level", lambda *a, **k: pytest.fail("drew a level"))
    # two cells hold two arrangements: at most one move (a 2x3 board took 10,000 draws, 10 s, to fail)
    with pytest.raises(ValueError, match="no 2x1 level needs 2 moves: .* at most 1 move;"):
        generate(2, 1, moves=(2, 5))
    with pytest.raises(ValueError, match=r"no 3x2 level needs 1000 moves: .*6! arrangements.* at most 719 moves"):
        generate(3, 2, moves=1000)
    with pytest.raises(ValueError, match=r"no easy \(at most 3x3\) level needs 400000 moves"):
        generate(difficulty="easy", moves=(400_000, 500_000))


def test_a_request_at_the_bound_is_drawn_not_refused(exact):
    made = generate(2, 1, moves=(1, 1), seed=0)
    assert (made.level.cols, made.level.rows) == (2, 1)  # width (columns) first
    assert made.min_moves == 1


@pytest.mark.parametrize("moves, error, message", [
    ((-1, 3), ValueError, "moves must be 0 or more, not -1"),
    ((True, 3), TypeError, "whole number or a"),
    ((1, False), TypeError, "whole number or a"),
])
def test_absurd_move_ranges_are_refused(moves, error, message):
    with pytest.raises(error, match=message):
        generate(moves=moves, max_tries=3)


def test_cli_refuses_impossible_move_counts_with_exit_2(capsys):
    from puzzlesat.cli import main

    assert main(["generate", "swap", "--size", "2x3", "--moves", "1000"]) == 2
    err = capsys.readouterr().err
    assert "error: no 2x3 level needs 1000 moves" in err and "Traceback" not in err


def test_generate_with_the_real_exact_solver_matches_breadth_first_search():
    pytest.importorskip("puzzlesat.swap.solve")
    for seed, goal in ((1, "match"), (2, "cluster")):
        made = generate(difficulty="easy", goal=goal, seed=seed, certify_time_limit=20)
        assert verify(made.level, made.solution) == []
        assert len(bfs_solve(made.level).solution) == made.min_moves


def test_range_prefilters_are_proofs_and_do_not_change_the_level(exact, monkeypatch):
    filtered = generate(difficulty="easy", goal="match", seed=5, moves=(3, 4))
    monkeypatch.setattr(generate_module, "PREFILTER_CAP", 0)  # no quick A* answers
    plain = generate(difficulty="easy", goal="match", seed=5, moves=(3, 4))
    assert filtered == plain and filtered.tries == plain.tries
    assert filtered.stats["out_of_range"] == plain.stats["out_of_range"] >= 1


def test_timeout_with_lower_bound_above_the_range_counts_as_out_of_range(monkeypatch):
    answers = iter([SolveResult(Status.UNKNOWN, lower_bound=9), SolveResult(Status.UNKNOWN, lower_bound=1)])
    monkeypatch.setattr(generate_module, "exact_solve", lambda level, *, time_limit=None, work_limit=None: next(answers, None) or bfs_solve(level))
    monkeypatch.setattr(generate_module, "PREFILTER_CAP", 0)
    made = generate(difficulty="easy", goal="match", seed=0, moves=(0, 8))
    assert made.stats["out_of_range"] == 1 and made.stats["unknown"] == 1


def test_impossible_draw_is_refused_not_looped():
    with pytest.raises(ValueError, match="could be drawn"):
        draw_level(random.Random(0), goal="cluster", size=(1, 2))  # two squares are always clustered


def test_draws_whose_start_bound_is_above_the_range_are_rejected_without_a_search(monkeypatch):
    searched = []

    def recording(level, *, time_limit=None, work_limit=None):
        searched.append(level)
        return bfs_solve(level)

    monkeypatch.setattr(generate_module, "exact_solve", recording)
    made = generate(difficulty="easy", goal="match", seed=0, moves=(1, 1))
    assert made.min_moves == 1
    assert all(generate_module.start_bound(level) <= 1 for level in searched)
    assert made.tries > len(searched)  # some draws never reached the search


def test_each_draw_is_reported_and_a_failure_says_where_the_draws_fell(exact):
    """on_try(tries, stats) after every draw, and the give-up message says whether the draws
    fell below or above the range and how far ('29 out of range' said neither: 'generate swap
    --moves 30-40' ground on for minutes with nothing on the screen)."""
    calls = []
    with pytest.raises(GenerationFailed) as failed:
        generate(difficulty="easy", goal="match", seed=0, moves=(40, 50), max_tries=5,
                 on_try=lambda tries, stats: calls.append((tries, stats["below"], stats["most_below"])))
    assert [tries for tries, _, _ in calls] == [1, 2, 3, 4, 5]
    _, below, most = calls[-1]
    assert below == 5 and most < 40
    assert f"5 out of range: 5 below it, each solved in at most {most} moves" in str(failed.value)


def test_draws_above_the_range_are_said_to_be_above_it_with_the_bound_proven(exact, monkeypatch):
    monkeypatch.setattr(generate_module, "start_bound", lambda level: 7)
    with pytest.raises(GenerationFailed, match=r"3 out of range: 3 above it, each needing at least 7\)"):
        generate(difficulty="easy", goal="match", seed=0, moves=(1, 6), max_tries=3)


def test_the_time_limit_ends_the_call_and_never_decides_a_draw(monkeypatch):
    """The capped A* prefilter and the exact proof each got the budget reckoned before the
    prefilter, so a call of time_limit=N could run for about 2 N (N=0.5: 1.0 s; N=2: 2.7 s on a
    7x6 level). Now both get the call's own deadline, and once it has passed the call ends:
    a draw whose proof the clock cut short is never counted (#45: which level a seed gives must
    not depend on the machine's speed); the proofs are bounded by work instead."""
    import time

    def slow_prefilter(level, *, cap, time_limit=None):
        time.sleep(time_limit.remaining())  # the prefilter spends all the time left and finds nothing
        return SolveResult(Status.UNKNOWN, None)

    solved = []
    monkeypatch.setattr(generate_module, "astar_solve", slow_prefilter)
    monkeypatch.setattr(generate_module, "exact_solve", lambda level, **limits: solved.append(limits))
    with pytest.raises(GenerationFailed, match="within 0.3s"):
        generate(difficulty="easy", goal="match", seed=0, moves=(1, 6), time_limit=0.3)
    assert solved == []  # no proof started once the time was up

    def cut_short(level, *, time_limit=None, work_limit=None):
        solved.append((time_limit.time_limit, work_limit))
        time.sleep(time_limit.remaining())
        return SolveResult(Status.UNKNOWN, None)  # as a proof the deadline stopped returns

    monkeypatch.setattr(generate_module, "exact_solve", cut_short)
    with pytest.raises(GenerationFailed, match="within 0.3s") as failed:
        generate(difficulty="easy", goal="match", seed=0, time_limit=0.3, certify_time_limit=2)
    assert solved == [(0.3, generate_module.certify_work(2))]  # the call's deadline, and work for the proof
    assert failed.value.stats["unknown"] == 0  # not counted as a draw whose proof ran out of work
