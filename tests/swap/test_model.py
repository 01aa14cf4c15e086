"""The Swap model: squares, goals, levels, goal tests."""

from __future__ import annotations

import pytest

from puzzlesat.errors import InvalidPuzzle
from puzzlesat.swap import Goal, Level, Move, Square, board_from_rows, colour_groups, is_goal, lonely_squares, mismatches
from puzzlesat.swap.model import apply_swap


def test_square_validation():
    assert str(Square("Q", 9, "Z")) == "Q9Z"
    for figure, scope, colour in [("K", 1, "R"), ("T", 0, "R"), ("T", 10, "R"), ("T", 1, "r"), ("T", 1, "RR")]:
        with pytest.raises(InvalidPuzzle):
            Square(figure, scope, colour)


def test_a_square_scope_is_a_whole_number_written_back_as_one():
    """A bool is no scope (Square("Q", True, "R") was kept and written QTrueR, which the
    parser refuses); a numpy integer is kept as an int."""
    import numpy as np

    with pytest.raises(InvalidPuzzle):
        Square("Q", True, "R")
    square = Square("Q", np.int64(2), "R")
    assert type(square.scope) is int and str(square) == "Q2R"


def test_level_is_hashable_and_metadata_does_not_count():
    a = Level.from_rows(["T1R T1G"], goal=["G R"])
    b = Level(a.start, a.goal, stated_minimum=3, comments=("x",))
    assert a == b and hash(a) == hash(b)
    assert {a.start: 1}[b.start] == 1


def test_non_square_board_dimensions():
    level = Level.from_rows(["T1R T1G ###", "B1G Q2R T1R"], goal="cluster")
    assert (level.rows, level.cols) == (2, 3)
    assert level.walls == frozenset({(0, 2)})
    assert level.square_cells() == [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
    assert level.colours == ("G", "R")


@pytest.mark.parametrize(
    "rows, goal, message",
    [
        (["T1R T1G"], ["G G"], "colour counts"),
        (["T1R ###"], ["R G"], "walls differ"),
        (["T1R T1G"], ["G R", "R G"], "not 1x2"),
        (["T1R", "T1G T1R"], "cluster", "differ in length"),
    ],
)
def test_invalid_levels(rows, goal, message):
    with pytest.raises(InvalidPuzzle, match=message):
        Level.from_rows(rows, goal=goal)


def test_match_goal_and_mismatches():
    level = Level.from_rows(["T1R T1G", "T1G T1R"], goal=["R G", "R G"])
    assert mismatches(level, level.start) == 2
    assert not is_goal(level, level.start)
    assert is_goal(level, apply_swap(level.start, (1, 0), (1, 1)))


def test_cluster_goal_walls_separate_and_diagonals_do_not_count():
    board = board_from_rows(["T1R ### T1R", "T1G T1G T1G"])
    assert {c: len(g) for c, g in colour_groups(board).items()} == {"R": 2, "G": 1}
    level = Level(board, Goal.cluster())
    assert not is_goal(level, board)
    diagonal = board_from_rows(["T1R T1G", "T1G T1R"])
    assert not is_goal(Level(diagonal, Goal.cluster()), diagonal)
    joined = board_from_rows(["T1R T1R", "T1G T1G"])
    assert is_goal(Level(joined, Goal.cluster()), joined)


def test_touch_goal():
    board = board_from_rows(["T1R T1R T1G", "T1G T1B T1B"])
    assert lonely_squares(board) == [(0, 2), (1, 0)]
    assert not is_goal(Level(board, Goal.touch()), board)
    good = board_from_rows(["T1R T1R T1R", "T1G T1G T1G"])
    assert is_goal(Level(good, Goal.touch()), good)


def test_move_text_round_trip_and_errors():
    assert str(Move.parse(" 10,2 > 3,4 ")) == "10,2>3,4"
    for bad in ["1,2-3,4", "1,2>3", "a,b>c,d", ""]:
        with pytest.raises(ValueError):
            Move.parse(bad)


def test_from_rows_takes_a_goal_object_and_names_a_goal_it_cannot_use():
    """goal=Goal.touch() (the public type) said "'Goal' object is not iterable", goal=None
    "'NoneType' object is not iterable"."""
    for goal in (Goal.touch(), Goal.cluster(), Goal.match(["G R"])):
        assert Level.from_rows(["T1R T1G"], goal=goal).goal == goal
    with pytest.raises(TypeError, match="goal must be 'cluster', 'touch', the goal colour rows or a Goal, not NoneType"):
        Level.from_rows(["T1R T1G"], goal=None)
