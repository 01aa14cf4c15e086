"""The Level model and the slide rule."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlesat.errors import InvalidPuzzle
from puzzlesat.roller.model import MOVES, Level, legal_moves, replay, slide, start_cell, stop_of

# A non-square board (5 wide, 3 high) with a wall inside: w/h swaps show here.
WIDE = Level.from_rows(["o...#",
                        ".#...",
                        "....."])


def test_sizes_and_floor_grid_on_a_non_square_board():
    assert (WIDE.width, WIDE.height, WIDE.size) == (5, 3, (5, 3))
    assert WIDE.floor.shape == (3, 5)
    assert WIDE.floor.dtype == bool
    assert not WIDE.floor[0, 4] and not WIDE.floor[1, 1] and WIDE.floor[2, 4]
    assert WIDE.floor_count == int(WIDE.floor.sum()) == 13
    with pytest.raises(ValueError):
        WIDE.floor[0, 0] = False  # read-only view of an immutable level


def test_slides_stop_at_walls_and_at_the_edge():
    assert slide(WIDE, (0, 0), "R") == ((0, 3), ((0, 1), (0, 2), (0, 3)))  # wall at (0, 4)
    assert slide(WIDE, (0, 0), "D") == ((2, 0), ((1, 0), (2, 0)))  # the edge
    assert slide(WIDE, (2, 0), "R") == ((2, 4), ((2, 1), (2, 2), (2, 3), (2, 4)))
    assert slide(WIDE, (2, 4), "U") == ((1, 4), ((1, 4),))  # wall at (0, 4)
    assert slide(WIDE, (1, 2), "L") == ((1, 2), ())  # a wall next to it: not a move
    assert slide(WIDE, (0, 0), "U") == ((0, 0), ())  # the edge next to it
    assert stop_of(WIDE, (0, 0), "R") == (0, 3)
    with pytest.raises(ValueError):
        slide(WIDE, (0, 0), "X")


def test_legal_moves_are_the_slides_that_move():
    for cell in WIDE.floor_cells:
        assert list(legal_moves(WIDE, cell)) == [d for d in MOVES if slide(WIDE, cell, d)[1]]


def test_replay_paints_the_path_and_ignores_moves_that_cannot_move():
    stops, painted = replay(WIDE, "RDL")
    assert stops == [(0, 0), (0, 3), (2, 3), (2, 0)]
    assert painted == {(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0)}
    assert replay(WIDE, "U")[0] == [(0, 0), (0, 0)]


def test_equality_ignores_metadata_and_levels_are_hashable():
    a = Level(("..", ".."), (0, 0), name="a", par=2, known_answer="RD")
    b = Level(("..", ".."), (0, 0), name="b")
    assert a == b and hash(a) == hash(b)
    assert a != a.with_start((1, 1))
    assert len({a, b, a.with_start((1, 1))}) == 2


def test_from_rows_round_trips_through_to_rows_and_from_floor():
    assert WIDE.to_rows() == ["o...#", ".#...", "....."]
    assert Level.from_floor(WIDE.floor, WIDE.start) == WIDE
    assert Level.from_floor(np.ones((2, 3), dtype=bool), (1, 2)).start == (1, 2)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Level((), (0, 0)), "empty"),
        (lambda: Level(("",), (0, 0)), "empty"),
        (lambda: Level(("..", "."), (0, 0)), "differ in length"),
        (lambda: Level((".x",), (0, 0)), "holds 'x'"),
        (lambda: Level(("#.",), (0, 0)), "wall"),
        (lambda: Level(("..",), (0, 5)), "off the"),
        (lambda: Level(("..",), (0, 0), par=-1), "par"),
        (lambda: Level(("..",), (0, 0), par=True), "par"),  # was kept, and written as '# par: True', which no parser reads
        (lambda: Level(("..",), (0, 0), known_answer="RX"), "U, D, L, R"),
        (lambda: Level.from_rows(["o.o"]), "exactly one start"),
        (lambda: Level.from_rows(["..."]), "exactly one start"),
        (lambda: Level(("." * 1001,) * 1000, (0, 0)), "absurd"),
    ],
)
def test_invalid_levels_are_refused(make, message):
    with pytest.raises(InvalidPuzzle, match=message):
        make()


@pytest.mark.parametrize("make", [lambda: Level("o..", (0, 0)), lambda: Level.from_rows("o.."), lambda: Level.from_rows("o..\n...")])
def test_rows_given_as_one_string_are_refused(make):
    """One string was read as a column of one-cell rows ('o..' became a 1x3 level), as Numberlink refuses it."""
    with pytest.raises(TypeError, match="not one string"):
        make()


def test_rows_given_as_cells_build_the_same_level_as_strings():
    """Rows of one-character cells (lists, a numpy array of characters), as Numberlink's and
    Swap's from_rows take them: from_rows raised AttributeError ('list' object has no attribute
    'replace'), and Level(rows=...) said "cell (0, 0) holds '['"."""
    rows = ["o...#", ".#...", "....."]
    assert Level.from_rows([list(row) for row in rows]) == WIDE
    assert Level.from_rows(np.array([list(row) for row in rows])) == WIDE
    assert Level([list(row.replace("o", ".")) for row in rows], (0, 0)) == WIDE
    built = Level.from_rows(np.array([list(row) for row in rows]))
    assert all(type(row) is str for row in built.rows)  # plain str, not numpy str_: reprs stay readable
    with pytest.raises(InvalidPuzzle, match="holds 'x'"):
        Level.from_rows([["o", "x"]])


def test_start_conventions_differ_and_ignore_walls():
    rows = ["####", "#..#", "#.##", "#..#", "####"]
    assert start_cell(rows, "bottom-left") == (3, 1)
    assert start_cell(rows, "row-major") == (1, 1)
    assert start_cell(["###"], "row-major") is None
    assert start_cell(["###"], "bottom-left") is None
    with pytest.raises(ValueError):
        start_cell(rows, "top-right")


def test_cropped_drops_all_wall_border_and_keeps_the_start():
    level = Level.from_rows(["#####", "#o..#", "#.#.#", "#####"])
    small = level.cropped()
    assert small.to_rows() == ["o..", ".#."]
    assert small.floor_count == level.floor_count


def test_the_ball_never_leaves_a_wall_cell():
    level = Level.from_rows(["#####", "#o..#", "#####"])
    assert legal_moves(level, (1, 1)) == ["R"]
    for cell in ((0, 1), (9, 9), (-1, 1)):
        with pytest.raises(ValueError, match="not a floor cell"):
            legal_moves(level, cell)


def test_several_levels_are_never_written_as_one_tmx_text():
    from puzzlesat.roller import format_all, parse, parse_all

    levels = [parse("#####\n#o..#\n#####"), parse("####\n#o.#\n####")]
    with pytest.raises(ValueError, match="a tmx file holds one level, not 2"):
        format_all(levels, fmt="tmx")
    assert parse_all(format_all(levels[:1], fmt="tmx"), start="row-major")[0].rows == levels[0].rows
