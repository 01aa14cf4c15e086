"""Answers drawn along the walls under cover-all + no-self-touch (``numberlink.hug``): whatever
the walk returns must pass the family's checker (which knows nothing of it) under no-self-touch;
it finds the spirals of several arms that such boards need, and when it fails the SAT search
answers (or refutes) as before. Large boards go this way in ``solve``; here the threshold is
lowered so that small boards do."""

from __future__ import annotations

import random

import pytest

from puzzlesat.numberlink import hug
from puzzlesat.numberlink.engine import tuning
from puzzlesat.numberlink.generate import unionfind_links
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.solve import solve
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status

NO_TOUCH = Rules(no_self_touch=True)
FOREVER = float("inf")


def four_arms(side: int) -> Puzzle:
    """Four pairs from the corners to the four middle cells (the 1002 x 1002 board's shape)."""
    h = side // 2
    return Puzzle(side, side, (Pair("a", (0, 0), (h - 1, h - 1)), Pair("b", (0, side - 1), (h - 1, h)),
                               Pair("c", (side - 1, 0), (h, h - 1)), Pair("d", (side - 1, side - 1), (h, h))))


def transposed(puzzle: Puzzle) -> Puzzle:
    """The same board mirrored on its diagonal: its spirals turn the other way."""
    return Puzzle(puzzle.height, puzzle.width, tuple(Pair(p.label, p.start[::-1], p.end[::-1]) for p in puzzle.pairs),
                  frozenset(cell[::-1] for cell in puzzle.blocked))


@pytest.mark.parametrize("side", [10, 18, 26])
def test_spirals_of_four_arms_are_drawn_and_verified(side):
    for puzzle in (four_arms(side), transposed(four_arms(side))):  # (the mirror pass draws the second)
        answer = hug.wall_walk(puzzle, stop=FOREVER)
        assert answer is not None
        assert verify(puzzle, answer, NO_TOUCH) == []


def test_a_spiral_of_two_arms():
    puzzle = Puzzle.from_rows(["A......", ".......", "....A..", "..B....", ".......", "......B"])
    answer = hug.wall_walk(puzzle, stop=FOREVER)
    assert answer is not None and verify(puzzle, answer, NO_TOUCH) == []
    assert answer.to_rows(puzzle)[2] == list("BAAAABA")


def test_whatever_is_drawn_passes_the_checker():
    """Random boards (ends of random paths, and a few pairs with random ends): the walk returns
    an answer valid under no-self-touch or nothing."""
    rng = random.Random(46)
    drawn = 0
    for n in range(300):
        width, height = rng.choice(((4, 4), (5, 5), (6, 5), (6, 6), (7, 7), (8, 6)))
        if n % 2:
            links, blocked = unionfind_links(width, height, random.Random(n))
            puzzle = Puzzle(width, height, tuple(Pair(str(i + 1), link[0], link[-1]) for i, link in enumerate(links)), blocked)
        else:
            cells = [(r, c) for r in range(height) for c in range(width)]
            rng.shuffle(cells)
            puzzle = Puzzle(width, height, tuple(Pair("ABCD"[k], cells[2 * k], cells[2 * k + 1]) for k in range(rng.randint(1, 4))))
        answer = hug.wall_walk(puzzle, stop=FOREVER)
        if answer is not None:
            assert verify(puzzle, answer, NO_TOUCH) == [], puzzle
            drawn += 1
    assert drawn >= 10


def test_a_passed_stop_draws_nothing():
    assert hug.wall_walk(four_arms(18), stop=0.0) is None


@pytest.fixture
def walk_small_boards(monkeypatch):
    monkeypatch.setattr(tuning, "WALK_MIN_CELLS", 0)


def test_solve_draws_the_spiral_and_says_so(walk_small_boards):
    puzzle = four_arms(18)
    result = solve(puzzle, rules=NO_TOUCH, time_limit=30)
    assert result.status is Status.SOLVED and result.stats["first_answer"] == "wall-walk"
    assert verify(puzzle, result.solution, NO_TOUCH) == []


def test_solve_falls_back_to_sat_when_the_walk_fails(walk_small_boards):
    # (thomasahle inputs1 #0: its paths do not follow the walls)
    puzzle = Puzzle.from_rows(["A..AB...", "..CDE.E.", "..F.....", "..G.HI..", "....D...", "...C....", ".F.G..HB", ".......I"])
    assert hug.wall_walk(puzzle, stop=FOREVER) is None
    result = solve(puzzle, rules=NO_TOUCH, time_limit=30)
    assert result.status is Status.SOLVED and result.stats.get("first_answer") != "wall-walk"
    assert verify(puzzle, result.solution, NO_TOUCH) == []
    unsolvable = four_arms(8)  # (the walk fails and SAT proves there is no answer)
    assert hug.wall_walk(unsolvable, stop=FOREVER) is None
    assert solve(unsolvable, rules=NO_TOUCH, time_limit=30).status is Status.UNSATISFIABLE


def test_default_rules_do_not_walk(walk_small_boards):
    result = solve(four_arms(10), rules=Rules(), time_limit=30)
    assert result.status is Status.SOLVED and result.stats.get("first_answer") != "wall-walk"
