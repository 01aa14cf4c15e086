"""Readers and writers of the Numberlink formats: round trips, real files, named errors."""

from __future__ import annotations

import pytest

from puzzlesat.errors import ParseError
from puzzlesat.numberlink import formats
from puzzlesat.numberlink.formats import detect_format, format, format_solution, parse, parse_all
from puzzlesat.numberlink.model import MAX_CELLS, Pair, Puzzle, Solution

# A non-square board everywhere: w/h swaps hide on square ones.
WIDE = Puzzle.from_rows(["A..B.", "#..C.", "A.CB."])  # 5 wide, 3 high, one blocked cell


def pair_cells(puzzle: Puzzle) -> set[frozenset]:
    """The endpoint pairs as label-free sets (formats renumber labels)."""
    return {frozenset((p.start, p.end)) for p in puzzle.pairs}


# -- native ----------------------------------------------------------------------------------

def test_native_character_grid_and_token_grid_agree():
    chars = parse("A..B.\n#..C.\nA.CB.")
    tokens = parse("A . . B .\n# . . C .\nA . C B .")
    assert chars == tokens == WIDE
    assert chars.size == (5, 3)
    assert chars.blocked == frozenset({(1, 0)})
    assert chars.pair("B") == Pair("B", (0, 3), (2, 3))


def test_native_round_trip_non_square():
    text = format(WIDE)
    assert text.splitlines()[0] == "A . . B ."
    assert parse(text) == WIDE
    assert detect_format(text) == "native"


def test_native_multi_character_labels_round_trip():
    puzzle = Puzzle.from_rows([["10", ".", "7"], [".", "#", "."], ["10", ".", "7"], [".", ".", "."]])
    text = format(puzzle)
    assert parse(text) == puzzle
    assert parse(text).size == (3, 4)


def test_native_header_and_comments():
    text = "# a comment\n5 3\n#..B.\nA..C.\nA.CB.\n# trailing comment\n"
    puzzle = parse(text, fmt="native")
    assert puzzle.size == (5, 3)
    assert (0, 0) in puzzle.blocked


def test_native_writer_adds_header_when_first_row_starts_blocked():
    puzzle = Puzzle.from_rows([["#", "A", "A"], ["B", ".", "B"]])
    text = format(puzzle)
    assert text.splitlines()[0] == "3 2"
    assert parse(text) == puzzle


def test_native_several_puzzles_separated_by_blank_lines():
    puzzles = parse_all("A.A\n\nB..\n..B\n", fmt="native", source="two.txt")
    assert [p.size for p in puzzles] == [(3, 1), (3, 2)]
    assert [p.name for p in puzzles] == ["two.txt#0", "two.txt#1"]


def test_format_solution_round_trips_through_solution_rows():
    puzzle = parse("A.B\n...\nA.B\n...")
    solution = Solution.from_rows(puzzle, ["A.B", "A.B", "A.B", "..."])
    text = format_solution(puzzle, solution)
    assert text == "A . B\nA . B\nA . B\n. . ."
    assert Solution.from_rows(puzzle, [row.split() for row in text.splitlines()]) == solution


# -- thomasahle ------------------------------------------------------------------------------

THOMASAHLE = """# Author: somebody

5 3
A..B.
...C.
A.CB.

# Tests something
2 4
ab
..
..
ab

0 0
ignored after the end
"""


def test_thomasahle_multi_puzzle_file():
    assert detect_format(THOMASAHLE) == "thomasahle"
    puzzles = parse_all(THOMASAHLE, source="dir/janko")
    assert [p.size for p in puzzles] == [(5, 3), (2, 4)]
    assert [p.name for p in puzzles] == ["janko#0", "janko#1"]
    assert puzzles[1].pair("a") == Pair("a", (0, 0), (3, 0))
    for puzzle in puzzles:
        assert parse(format(puzzle)) == puzzle


def test_thomasahle_punctuation_labels_are_case_sensitive():
    puzzle = parse("4 2\n[a\\A\n[A\\a", fmt="thomasahle")
    assert set(puzzle.labels) == {"[", "a", "\\", "A"}
    assert parse(format(puzzle)) == puzzle


# -- dailyprogrammer -------------------------------------------------------------------------

def test_dailyprogrammer_x_is_column_y_is_row():
    puzzle = parse("2 4 2\n(0, 0) (3, 1)\n(1, 0) (2, 0)\n")
    assert puzzle.size == (4, 2)
    assert puzzle.pair("1") == Pair("1", (0, 0), (1, 3))
    assert puzzle.pair("2") == Pair("2", (0, 1), (0, 2))
    assert parse(format(puzzle)) == puzzle
    assert detect_format("2 4 2\n(0, 0) (3, 1)\n(1, 0) (2, 0)\n") == "dailyprogrammer"


# -- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, fmt, line, column, words",
    [
        ("A.B\nA.B\n..B", "native", 3, 3, ["'B'", "more than twice", "lines 1, 2, 3"]),
        ("A..\n...\nA.B", "native", 3, 3, ["'B'", "once"]),
        ("A.B\nA.\n..B", "native", 2, None, ["ragged", "2 cells"]),
        ("3 2\nA.A\n", "thomasahle", 2, None, ["2 rows", "only 1"]),
        ("3 1\nA.A\nB.B\n", "thomasahle", 3, None, ["more follow"]),
        ("2 2\n1 x\n1 0\n", "tokens", 2, 3, ["unknown symbol", "'x'"]),
        ("", None, None, None, ["empty"]),
        ("\n\n   \n", None, 1, None, ["empty"]),
        ("A.\x00A", "native", 1, 3, ["binary"]),
        ("1000000000 1000000000\n", "thomasahle", 1, None, ["absurd"]),
        ("2001 2000\n", None, 1, None, ["absurd"]),
        ("1 3 2\n(0, 0) (3, 1)\n", "dailyprogrammer", 2, 8, ["off the 3x2 board"]),
        ("2 3 2\n(0, 0) (1, 1)\n(1, 1) (2, 1)\n", None, 3, 1, ["holds both", "line 2"]),
        ("3 3 2\n(0, 0) (1, 1)\n", None, 2, None, ["3 colours", "only 1"]),
        ("5 2 2\n(0, 0) (1, 1)\n", None, 1, None, ["cannot fit"]),
        ("1 2 2\n(0, 0) (1, 1)\n(0, 1) (1, 0)\n", None, 3, None, ["more follow"]),
        ("1 2 2\n(0, 0) 1, 1)\n", None, 2, None, ["expected '(x, y) (x, y)'"]),
    ],
)
def test_errors_name_line_column_and_problem(text, fmt, line, column, words):
    with pytest.raises(ParseError) as caught:
        parse_all(text, fmt=fmt, source="bad.txt")
    error = caught.value
    assert error.line == line
    if column is not None:
        assert error.column == column
    assert error.source == "bad.txt"
    for word in words:
        assert word in error.message
    assert str(error).startswith("bad.txt")


def test_absurd_header_is_refused_before_reading_rows():
    with pytest.raises(ParseError, match="absurd"):
        parse_all(f"{MAX_CELLS} 2\n", fmt="thomasahle")


def test_unknown_format_name():
    with pytest.raises(ValueError, match="unknown format"):
        parse_all("A.A", fmt="bogus")


def test_parse_refuses_several_puzzles():
    with pytest.raises(ParseError, match="expected one puzzle, found 2"):
        parse("A.A\n\nB.B")


def test_formats_tuple():
    assert formats.FORMATS == ("native", "thomasahle", "mzucker", "dailyprogrammer", "adc", "puzzlink", "tokens")


# -- the public sets (skipped when ../shared/data is absent) ----------------------------------

THOMASAHLE_COUNTS = {
    "inputs1": 10, "inputs2": 3, "inputs3": 20, "inputs4": 11, "inputs5": 20, "inputs6": 4,
    "inputs7": 1, "inputs8": 1, "inputs9": 101, "inputs10": 11, "janko": 270,
}


def test_thomasahle_files_give_the_source_counts():
    from tests.support import shared_path

    folder = shared_path("numberlink", "thomasahle-numberlink")
    assert "Puzzle count: 452" in (folder / "SOURCE.txt").read_text()
    total = 0
    for name, expected in THOMASAHLE_COUNTS.items():
        puzzles = formats.read(folder / "puzzles" / name)
        assert len(puzzles) == expected, name
        assert all(p.name.startswith(name) for p in puzzles)
        total += len(puzzles)
    assert total == 452


def test_houston_dailyprogrammer_files_all_parse():
    from tests.support import shared_path

    folder = shared_path("numberlink", "HoustonWeHaveABug-FlowFree")
    files = sorted((folder / "puzzles").glob("*.txt"))
    assert len(files) == 41
    for path in files:
        assert detect_format(path.read_text()) == "dailyprogrammer", path.name
        assert len(formats.read(path)) == 1
    # flowfree_large is thomasahle's inputs6 #3 written the dailyprogrammer way
    large = formats.read(folder / "puzzles" / "flowfree_large.txt")[0]
    thomas = shared_path("numberlink", "thomasahle-numberlink", "puzzles", "inputs6")
    assert pair_cells(large) == pair_cells(formats.read(thomas)[3])
