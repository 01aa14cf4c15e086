"""The independent checker: each violation code, as data run by one test."""

from __future__ import annotations

import pytest

from puzzlesat.swap import CODES, Move, Violation, parse, verify

MATCH = parse("""start
T1R B1G ### Q2Y
T3B T1R B1G T1R
goal
R G # R
B R G Y
""")
CLUSTER = parse("start\nT1R T1G ### T1R\nT1G T1R T1G T1G\ngoal cluster")
TOUCH = parse("start\nT1R T1G T1R\nT1G T1R T1G\ngoal touch")


def test_valid_solution_in_both_notations():
    assert verify(MATCH, ["0,3>1,3"]) == []
    assert verify(MATCH, ["1,3>0,3"]) == []  # the tower at 1,3 reaches up: either order
    assert verify(MATCH, [Move((0, 3), (1, 3))]) == []
    assert verify(MATCH, "0,3>1,3") == []


def test_moves_of_numpy_integers_are_read_like_ints():
    """Cells taken from numpy arrays (np.argwhere) hold numpy integers: the same move, not bad
    notation (is_legal and apply_move accept it too); a bool is no coordinate."""
    import numpy as np

    row, col = np.int64(0), np.int64(3)
    assert verify(MATCH, [Move((row, col), (row + 1, col))]) == []
    assert [v.code for v in verify(MATCH, [Move((row, col), (np.int32(2), col))])] == ["off-board"]
    assert [v.code for v in verify(MATCH, [Move((False, 3), (True, 3))])] == ["bad-notation"]


@pytest.mark.parametrize(
    "level, moves, code, step, fragment",
    [
        (MATCH, ["0,3>1,3", "zz"], "bad-notation", 2, "not written"),
        (MATCH, ["0,0>0,0"], "bad-notation", 1, "same cell"),
        (MATCH, [3], "bad-notation", 1, "not written"),
        (MATCH, [Move(("a", 1), (0, 0))], "bad-notation", 1, "not written"),
        (MATCH, ["0,0>2,0"], "off-board", 1, "2,0 is off the board of 2 row(s) and 4 column(s)"),
        (MATCH, ["0,1>0,2"], "wall", 1, "0,2 is a wall"),
        (MATCH, ["0,1>0,3"], "wall", 1, "blocked by the wall at 0,2"),  # Q2Y at 0,3 would reach 0,1 but for the wall
        (MATCH, ["1,1>1,3"], "out-of-range", 1, "T1R at 1,1 moves at most 1, not 2"),
        (MATCH, ["1,1>0,0"], "wrong-direction", 1, "moves only orthogonally"),
        (parse("start\nB1R B1G\ngoal cluster"), ["0,0>0,1"], "wrong-direction", 1, "moves only diagonally"),
        (MATCH, [], "goal-not-reached", 0, "2 square(s) differ"),
        (MATCH, ["0,0>1,0", "0,0>1,0"], "goal-not-reached", 2, "2 square(s) differ"),
        (CLUSTER, [], "goal-not-reached", 0, "R in 3 groups"),
        (TOUCH, [], "goal-not-reached", 0, "6 square(s) without"),
    ],
)
def test_violation_codes(level, moves, code, step, fragment):
    violations = verify(level, moves)
    assert len(violations) == 1
    (v,) = violations
    assert (v.code, v.step) == (code, step) and fragment in v.message, v
    assert v.code in CODES and str(v) == f"{code}: {v.message}"
    if code != "goal-not-reached":  # the message names the move (the shared Violation prints code: message)
        assert v.message.startswith(f"move {step}"), v


def test_out_of_range_beats_wrong_direction_when_one_side_is_close():
    level = parse("start\nT1R T1G T1G\ngoal cluster")
    (v,) = verify(level, ["0,0>0,2"])
    assert v.code == "out-of-range"


def test_replay_stops_at_the_first_illegal_move():
    violations = verify(MATCH, ["1,1>0,0", "0,3>1,3"])
    assert [v.step for v in violations] == [1]


def test_cluster_and_touch_solutions():
    cluster = parse("start\nT1R T1G\nT1G T1R\ngoal cluster")
    assert verify(cluster, ["0,1>1,1"]) == []
    assert verify(cluster, [])[0].code == "goal-not-reached"
    touch = parse("start\nT1R T1G\nT1G T1R\ngoal touch")
    assert verify(touch, ["0,1>1,1"]) == []


def test_violation_is_the_shared_plain_data():
    from puzzlesat.family import Violation as Shared

    v = Violation("wall", "x", 3)
    assert Violation is Shared and v == Violation("wall", "x", 3) and str(v) == "wall: x"
    (blocked,) = verify(MATCH, ["0,3>1,3", "0,1>0,2"])
    assert str(blocked) == "wall: move 2 (0,1>0,2): cell 0,2 is a wall" and blocked.cells == ((0, 2),)
