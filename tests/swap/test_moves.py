"""Legal-move generation on hand-made boards, and a cross-check against the independent checker."""

from __future__ import annotations

import random

import pytest

from puzzlesat import swap
from puzzlesat.swap import Goal, Level, Move, apply_move, board_from_rows, is_legal, legal_moves, reachable, reaches, verify
from puzzlesat.swap.moves import mover_of, replay, swap_pairs


def pairs(board):
    return {frozenset((m.source, m.target)) for m in legal_moves(board)}


def test_tower_scope_and_jumping_over_squares():
    board = board_from_rows(["T3R T1G T1G T1G T1G"])
    assert sorted(reachable(board, (0, 0))) == [(0, 1), (0, 2), (0, 3)]
    assert reaches(board, (0, 0), (0, 3)) and not reaches(board, (0, 0), (0, 4))


def test_walls_block_between_and_at_the_end():
    board = board_from_rows(["T3R ### T1G T1G"])
    assert reachable(board, (0, 0)) == []
    assert reachable(board, (0, 3)) == [(0, 2)]
    assert not is_legal(board, "0,0>0,1") and not is_legal(board, "0,0>0,2")


def test_bishop_and_queen_diagonals():
    board = board_from_rows(["B2R T1G T1G", "T1G T1G T1G", "T1G T1G Q1Y"])
    assert sorted(reachable(board, (0, 0))) == [(1, 1), (2, 2)]
    assert sorted(reachable(board, (2, 2))) == [(1, 1), (1, 2), (2, 1)]


def test_diagonal_wall_blocks_bishop():
    board = board_from_rows(["B2R T1G T1G", "T1G ### T1G", "T1G T1G T1G"])
    assert reachable(board, (0, 0)) == []


def test_either_can_reach_rule_and_notation():
    # B1R at 0,0 cannot move right; T1G at 0,1 can move left: the swap is legal in both orders
    board = board_from_rows(["B1R T1G"])
    assert not reaches(board, (0, 0), (0, 1)) and reaches(board, (0, 1), (0, 0))
    assert is_legal(board, "0,0>0,1") and is_legal(board, "0,1>0,0")
    assert [str(m) for m in legal_moves(board)] == ["0,1>0,0"]  # written mover first
    assert mover_of(board, "0,0>0,1") == (0, 1)
    after = apply_move(board, "0,0>0,1")
    assert [str(sq) for sq in after[0]] == ["T1G", "B1R"]  # contents swap completely


def test_complete_swap_moves_figure_and_scope_too():
    board = board_from_rows(["T2R B1G T1Y"])
    after = apply_move(board, Move((0, 0), (0, 2)))
    assert [str(sq) for sq in after[0]] == ["T1Y", "B1G", "T2R"]
    assert reaches(after, (0, 2), (0, 0)) and not reaches(after, (0, 0), (0, 2))
    with pytest.raises(ValueError, match="illegal"):
        apply_move(board_from_rows(["B1R B1G"]), "0,0>0,1")

def test_non_square_board_three_by_two_and_two_by_three():
    tall = board_from_rows(["T1R T1G", "B1G ###", "Q2Y T1R"])
    wide = board_from_rows(["T1R B1G Q2Y", "T1G ### T1R"])
    assert pairs(tall) == {
        frozenset({(0, 0), (0, 1)}), frozenset({(0, 0), (1, 0)}), frozenset({(1, 0), (2, 1)}),
        frozenset({(2, 0), (1, 0)}), frozenset({(2, 0), (2, 1)}), frozenset({(2, 0), (0, 0)}),
        frozenset({(1, 0), (0, 1)}),
    }
    assert pairs(wide) == {
        frozenset({(0, 0), (0, 1)}), frozenset({(0, 0), (1, 0)}), frozenset({(0, 1), (1, 0)}),
        frozenset({(0, 1), (1, 2)}), frozenset({(0, 2), (0, 1)}), frozenset({(0, 2), (1, 2)}),
        frozenset({(0, 2), (0, 0)}),
    }


def test_legal_moves_listed_once_and_mover_first():
    board = board_from_rows(["Q2R Q2G", "Q2G Q2R"])
    moves = legal_moves(board)
    assert len(moves) == len({m.cells for m in moves}) == 6
    assert all(reaches(board, m.source, m.target) for m in moves)


def random_board(rng, rows, cols):
    tokens = []
    for _ in range(rows):
        row = []
        for _ in range(cols):
            if rng.random() < 0.2:
                row.append("###")
            else:
                row.append(rng.choice("TBQ") + str(rng.choice([1, 1, 2, 3])) + rng.choice("RG"))
        tokens.append(row)
    if all(t == "###" for row in tokens for t in row):
        tokens[0][0] = "T1R"
    return board_from_rows(tokens)


def test_legal_moves_agree_with_independent_checker_on_random_boards():
    rng = random.Random(5)
    for _ in range(150):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        board = random_board(rng, rows, cols)
        level = Level(board, Goal.cluster())
        legal = pairs(board)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for u in cells:
            for v in cells:
                if u >= v:
                    continue
                checker_says = not any(x.code != "goal-not-reached" for x in verify(level, [Move(u, v)]))
                assert checker_says == (frozenset((u, v)) in legal) == is_legal(board, Move(v, u)), (board, u, v)
        assert legal <= {frozenset(p) for p in swap_pairs(level)}


def test_replay_returns_each_board():
    board = board_from_rows(["T1R T1G"])
    boards = replay(board, "0,0>0,1 0,1>0,0")
    assert boards[0] == boards[2] != boards[1]


def test_every_board_function_takes_a_level_for_its_start_board():
    from puzzlesat.swap import Level, board_rows, colour_groups, is_legal, lonely_squares, reachable, reaches
    from puzzlesat.swap.model import board_colours
    from puzzlesat.swap.moves import apply_move, mover_of

    level = Level.from_rows(["T1R T1G", "### T2R"], goal=["G R", "# R"])
    board = level.start
    assert reachable(level, (0, 0)) == reachable(board, (0, 0)) == [(0, 1)]
    assert reaches(level, (0, 0), (0, 1)) and is_legal(level, "0,1>0,0")
    assert apply_move(level, "0,0>0,1") == apply_move(board, "0,0>0,1")
    assert mover_of(level, "0,1>0,0") == mover_of(board, "0,1>0,0") == (0, 1)
    assert board_rows(level) == board_rows(board) and board_colours(level) == board_colours(board)
    assert colour_groups(level) == colour_groups(board) and lonely_squares(level) == lonely_squares(board)
    # a cell off the board reaches nothing (a negative index must not wrap to the last row)
    assert reachable(board, (5, 5)) == reachable(board, (-1, 0)) == [] and not reaches(board, (-1, 0), (0, 0))


@pytest.mark.parametrize(
    "call",
    [
        lambda level: swap.parse_moves(5),  # was "'int' object is not iterable"
        lambda level: swap.render(level, 5),
        lambda level: swap.replay(level, None),
        lambda level: swap.replay(level, [((1, 0), (1, 1))]),  # a pair of cells: was "expected string or bytes-like object, got 'tuple'"
        lambda level: swap.apply_move(level, ((1, 0), (1, 1))),  # was "... got 'tuple'", from the re module
        lambda level: swap.is_legal(level, [(1, 0), (1, 1)]),
        lambda level: swap.Level(level.start, level.goal, stated_solution=b"1,0>1,1"),
        lambda level: swap.Move.parse(7),
    ],
)
def test_moves_that_are_neither_move_nor_notation_are_named(call):
    level = swap.parse("start\nT1R T1G\nT1G T1R\ngoal\nR G\nR G")
    with pytest.raises(TypeError, match=r"moves must be a string of moves or a sequence of moves, not|a move must be a Move or a string r1,c1>r2,c2, not"):
        call(level)
