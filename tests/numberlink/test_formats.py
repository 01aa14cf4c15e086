"""Readers and writers of the Numberlink formats: round trips, real files, named errors."""

from __future__ import annotations

import json

import pytest

from puzzlesat.errors import CannotExpress, ParseError
from puzzlesat.numberlink import formats
from puzzlesat.numberlink.formats import detect_format, format, format_solution, parse, parse_all
from puzzlesat.numberlink.model import MAX_CELLS, Pair, Puzzle, Rules, Solution
from puzzlesat.numberlink.verify import verify
from tests.support import TEST_DATA, shared_path

DATA = TEST_DATA / "numberlink"

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


def test_one_wide_number_boards_read_back_as_native_when_told():
    # "1 4 / 10 / 10 / 0 / 0" is also a token grid (0 blank); detection reads it so, by design
    for rows in ([["10"], ["10"], ["0"], ["0"]], [["01"], ["01"], ["2"], ["2"]]):
        puzzle = Puzzle.from_rows(rows)
        text = format(puzzle)
        assert parse(text, fmt="native") == puzzle
        assert detect_format(text) == "tokens"


def test_puzzlink_writer_renumbers_labels_beyond_its_range():
    big = parse("p?numlin/3/1/=388g=388")
    assert big.labels == ("5000",)
    assert format(big, fmt="puzzlink") == "https://puzz.link/p?numlin/3/1/1g1"


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


def test_native_last_row_starting_blocked_is_a_row_not_a_comment():
    text = "A . . B .\nA . . B .\n# . . # .\n# trailing comment"
    puzzle = parse(text)
    assert puzzle.size == (5, 3) and puzzle.blocked == frozenset({(2, 0), (2, 3)})
    assert format(puzzle).startswith("5 3\n")
    assert parse(format(puzzle)) == puzzle


def test_a_headerless_first_row_starting_blocked_is_named_when_the_grid_then_fails():
    """'# 1 . 2' on the first line is a comment (as in every grid format here); when the grid
    below it then fails, the error says that line may have been meant as its first row."""
    text = "# 1 . 2\n. . . .\n1 . . 2\n"
    for read in (parse, parse_all):
        with pytest.raises(ParseError, match=r"label '1' occurs once .*line 1, '# 1 \. 2', was read as a comment.*'W H' size line"):
            read(text)
    assert parse("4 3\n" + text).blocked == frozenset({(0, 0)})  # the advice works
    assert parse("# my own puzzle\n1 . . 2\n. . . .\n1 . . 2\n").size == (4, 3)  # a comment as wide as a row
    with pytest.raises(ParseError) as plain:  # no comment line above: no such note
        parse(". . . .\n1 . . 2\n")
    assert "comment" not in str(plain.value)


@pytest.mark.parametrize(
    "rows",
    [
        [["10"], ["."], ["10"]],  # one column of a two-character label
        [["SIZE", ".", "SIZE"]],  # a label that names another format
        [["1", "2", "3"], ["(1", ".", "(1"], ["1", "2", "3"]],  # dailyprogrammer look-alike
        [["p?numlin/1/1/", ".", "p?numlin/1/1/"]],
    ],
)
def test_native_writer_protects_misleading_first_rows(rows):
    puzzle = Puzzle.from_rows(rows)
    assert parse(format(puzzle)) == puzzle


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


# -- mzucker ---------------------------------------------------------------------------------

def test_mzucker_letters_are_colours_anything_else_is_empty():
    text = "R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO."
    assert detect_format(text) == "mzucker"
    puzzle = parse(text)
    assert puzzle.size == (5, 5) and len(puzzle.pairs) == 5
    # digits and '#' are empty cells to mzucker, labels / blocked cells to the native reader
    odd = parse("A1#\n.2.\nA..", fmt="mzucker")
    assert odd.labels == ("A",) and not odd.blocked


def test_mzucker_leading_blanks_are_cells():
    puzzle = parse(" A \nA B\n  B", fmt="mzucker")
    assert puzzle.pair("A") == Pair("A", (0, 1), (1, 0))
    assert puzzle.pair("B") == Pair("B", (1, 2), (2, 2))


def test_mzucker_refuses_non_square():
    with pytest.raises(ParseError, match="square"):
        parse("A.A\nB.B", fmt="mzucker")


# -- token grids -----------------------------------------------------------------------------

def test_tokens_imos_datasets_and_zero_terminator():
    text = "3 2\n1 0 1\n0 0 0\n\n4 1\n2 0 0 2\n\n0 0\n"
    assert detect_format(text) == "tokens"
    puzzles = parse_all(text)
    assert [p.size for p in puzzles] == [(3, 2), (4, 1)]
    assert puzzles[0].pair("1") == Pair("1", (0, 0), (0, 2))
    assert parse(format(puzzles[1])) == puzzles[1]


def test_tokens_algorithms2012_dash_blank_and_comma_header():
    puzzle = formats.read(DATA / "algorithms2012" / "numlin001.dat")[0]
    assert puzzle.size == (3, 4)
    assert puzzle.pair("1") == Pair("1", (0, 2), (2, 1))
    assert parse("4, 3\n- - 1\n- 2 -\n- 1 -\n2 - -", fmt="tokens") == puzzle  # "rows, cols"
    assert parse(format(puzzle)) == puzzle


def test_tokens_copris_rows_and_columns_on_two_lines():
    text = "3\n4\n1 - - 2\n- - - -\n1 - - 2\n"
    assert detect_format(text) == "tokens"
    puzzle = parse(text)
    assert puzzle.size == (4, 3)
    assert puzzle.pair("2") == Pair("2", (0, 3), (2, 3))


def test_numeric_native_grid_with_header_is_not_a_token_grid():
    # '0' is a label here: a native grid marks empty cells with '.', so no blank means native
    puzzle = Puzzle.from_rows([["0", "1", "2"], ["0", "1", "2"]])
    assert parse(format(puzzle)) == puzzle
    narrow = Puzzle.from_rows([["0", "1"], ["0", "1"], [".", "."]])
    assert format(narrow).startswith(" 0 1\n")  # "0 1" in the first column would be a size line
    assert parse(format(narrow)) == narrow


# -- ADC -------------------------------------------------------------------------------------

def test_adc_2015_problem_and_its_2016_rewrite_agree():
    q2015 = formats.read(DATA / "adc2015" / "Q08.txt")
    q2016 = formats.read(DATA / "adc2015" / "Q08.2016.txt")
    assert q2015 == q2016
    puzzle = q2015[0]
    assert puzzle.size == (12, 11)  # "SIZE 12X11": 12 columns, 11 rows
    assert puzzle.name == "Q08.txt"
    assert puzzle.pair("1") == Pair("1", (0, 1), (0, 10))
    assert puzzle.pair("7") == Pair("7", (6, 5), (10, 0))
    assert parse(format(puzzle)) == puzzle


@pytest.mark.parametrize("answer", ["A08.txt", "A08.2016.txt"])
def test_adc_answers_verify_under_may_leave_empty_rules(answer):
    puzzle = formats.read(DATA / "adc2015" / "Q08.txt")[0]
    solution = formats.parse_solution((DATA / "adc2015" / answer).read_bytes(), puzzle)
    assert verify(puzzle, solution, Rules(cover_all=False)) == []
    assert [v.code for v in verify(puzzle, solution)] == ["uncovered"]
    again = formats.parse_solution(format_solution(puzzle, solution), puzzle)
    assert again == solution


def test_adc_answer_writer_round_trips():
    puzzle = formats.read(DATA / "adc2015" / "Q08.txt")[0]
    original = (DATA / "adc2015" / "A08.txt").read_text()
    solution = formats.parse_solution(original, puzzle)
    text = format_solution(puzzle, solution, fmt="adc")
    assert text.splitlines() == original.splitlines()  # the contest's own layout
    lettered = parse("A.B\nA.B")
    answer = formats.parse_solution("A.B\nA.B", lettered)
    assert format_solution(lettered, answer, fmt="adc") == "SIZE 3X2\n01,00,02\n01,00,02"
    assert formats.parse_solution(format_solution(lettered, answer, fmt="adc"), lettered) == answer  # line 1 is A, 2 is B


def test_adc_line_zero_is_refused_as_on_several_layers():
    """An ADC answer marks unused cells 0, so no answer could name a LINE#0."""
    for text in ("SIZE 3X1\nLINE_NUM 1\nLINE#0 (0,0)-(2,0)", "SIZE 3X2\nLINE#1 (0,1)-(2,1)\nLINE#00 (0,0)-(2,0)"):
        with pytest.raises(ParseError, match=r"LINE#0+: line numbers start at 1 \(0 marks unused cells in answers\)"):
            parse(text)


def test_adc_answer_is_not_a_problem():
    with pytest.raises(ParseError, match="answer") as caught:
        formats.read(DATA / "adc2015" / "A08.txt")
    assert caught.value.line == 2


@pytest.mark.parametrize("name, layers", [("NL_Q02.txt", 2), ("01utf8/NL_Q01.txt", 2)])
def test_adc_3d_problems_are_refused_clearly(name, layers):
    with pytest.raises(ParseError, match=rf"SIZE gives {layers} layers: a multi-layer \(3-D\) board") as caught:
        formats.read(DATA / "adc2015" / name)
    assert caught.value.line == 1


def test_adc_2018_3d_problem_refused():
    with pytest.raises(ParseError, match=r"SIZE gives 2 layers: a multi-layer \(3-D\) board"):
        formats.read(DATA / "adc2018" / "Q24.txt")


def test_adc_small_non_square_with_space_separator_and_lowercase_x():
    puzzle = parse("SIZE 4x2\r\nLINE_NUM 2\r\nLINE#1 (0,0,1) (3,0,1)\r\nLINE#2 (0,1)-(3,1)\r\n".replace("SIZE 4x2", "SIZE 4x2x1"))
    assert puzzle.size == (4, 2)
    assert puzzle.pair("2") == Pair("2", (1, 0), (1, 3))


# -- puzz.link -------------------------------------------------------------------------------

EXAMPLE_URLS = [
    "5/5/1j2h3m1h2j3",
    "14/14/uap6k2p8o7q9lbgam1y6h4j5p5k7h1u3gbg8k2g9u3k4u",
    "15/15/z5g2h9l3o3rck1x9jch1h6kazual4gbi4j8ybi6l7g2m8n5h7z",
]


@pytest.mark.parametrize("body", EXAMPLE_URLS)
def test_puzzlink_url_round_trip(body):
    for prefix in ("https://puzz.link/p?numlin/", "p?numlin/", "http://pzv.jp/p.html?numlin/"):
        puzzle = formats.read(prefix + body)[0]
        assert format(puzzle, fmt="puzzlink") == "https://puzz.link/p?numlin/" + body
        assert parse(format(puzzle)) == puzzle


def test_puzzlink_example_decodes_to_the_spec_grid():
    puzzle = parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
    assert puzzle == parse("1....\n2..3.\n.....\n.1..2\n....3")
    assert formats.url_rules("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3") == Rules(cover_all=False)


def test_puzzlink_url_fragment_is_not_part_of_the_puzzle():
    plain = parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")
    assert parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3#top").pairs == plain.pairs


def test_puzzlink_non_square_large_numbers_and_long_gaps():
    rows = [["." for _ in range(30)] for _ in range(3)]
    for label, a, b in (("17", (0, 0), (2, 29)), ("300", (0, 29), (1, 0)), ("5", (1, 5), (1, 28))):
        rows[a[0]][a[1]] = rows[b[0]][b[1]] = label
    puzzle = Puzzle.from_rows(rows)
    url = format(puzzle, fmt="puzzlink")
    assert url.startswith("https://puzz.link/p?arukone/30/3/-11")  # (cover-all, the default rules: arukone)
    assert parse(url) == puzzle


def test_puzzlink_arukone_pflag_e():
    puzzle = parse("https://puzz.link/p?arukone/e/3/2/1g1")
    assert puzzle.pair("1") == Pair("1", (0, 0), (0, 2))
    assert formats.url_rules("p?arukone/e/3/2/1g1") == Rules(cover_all=False)
    assert formats.url_rules("p?arukone/3/2/1g1") == Rules(cover_all=True)


def test_puzzlink_writer_renumbers_letters_in_reading_order():
    puzzle = parse("B.A\nA.B")
    url = format(puzzle, fmt="puzzlink")
    assert url == "https://puzz.link/p?arukone/3/2/1g22g1"
    assert parse(url).pair("1") == Pair("1", (0, 0), (1, 2))


def test_puzzlink_writer_keeps_the_rules_in_the_variety():
    """A cover-all puzzle goes out as arukone (whose rules are cover-all), a may-leave-empty one as
    Nikoli's numlin; a URL read keeps its rules when written again; no variety forbids self-touch."""
    puzzle = parse("B.A\nA.B")
    assert format(puzzle, fmt="puzzlink", rules=Rules(cover_all=False)) == "https://puzz.link/p?numlin/3/2/1g22g1"
    for url in ("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", "https://puzz.link/p?arukone/5/5/1j2h3m1h2j3"):
        again = format(parse(url), fmt="puzzlink")
        assert again == url and formats.url_rules(again) == formats.url_rules(url)
    assert formats.url_rules(format(parse("p?arukone/e/3/2/1g1"), fmt="puzzlink")) == Rules(cover_all=False)
    with pytest.raises(CannotExpress, match="no-self-touch"):
        format(puzzle, fmt="puzzlink", rules=Rules(no_self_touch=True))


def test_puzzlink_writer_refuses_blocked_cells_and_more_labels_than_clues():
    with pytest.raises(CannotExpress, match="blocked"):
        format(parse("A#A"), fmt="puzzlink")
    assert format(parse("4096 . 4096", fmt="native"), fmt="puzzlink") == "https://puzz.link/p?arukone/3/1/1g1"
    many = Puzzle(4096, 2, tuple(Pair(f"x{c}", (0, c), (1, c)) for c in range(4096)))
    with pytest.raises(CannotExpress, match="4096 labels"):
        format(many, fmt="puzzlink")


def test_url_file_with_several_urls():
    puzzles = parse_all("p?numlin/5/5/1j2h3m1h2j3\n\nhttps://puzz.link/p?numlin/3/1/1g1\n")
    assert [p.size for p in puzzles] == [(5, 5), (3, 1)]


# -- answers ---------------------------------------------------------------------------------

def test_native_answer_file_verifies():
    puzzle = formats.read(DATA / "own" / "wide.nl")[0]
    assert puzzle.size == (7, 4) and puzzle.blocked == frozenset({(1, 2)})
    solution = formats.parse_solution((DATA / "own" / "wide_answer.txt").read_text(), puzzle)
    assert verify(puzzle, solution) == []
    assert format_solution(puzzle, solution) == (DATA / "own" / "wide_answer.txt").read_text().strip()


@pytest.mark.parametrize(
    "answer, line, words",
    [
        ("A.B\nA.B\nA.B", 1, ["3x3", "3x2"]),
        ("A.B\nAB", 2, ["ragged"]),
        ("A.A\nB.B", 2, ["not an answer", "'A' ends at (row, col) = (1, 0) but the answer puts 'B' there"]),
        ("A.C\nA.B", 1, ["label 'C' is not a label of the puzzle"]),
        ("SIZE 3X2\n01,00,00\n01,00,02", 2, ["'B' ends at (x,y) = (2,0) but the answer leaves it unused"]),
        ("SIZE 3X2\n01,00,03\n01,00,02", 2, ["line number 3 is not a LINE of the puzzle"]),
        ("SIZE 3X2\n01,00\n01,00,02", 2, ["ragged"]),
        ("SIZE 3X2\n01,00,x2\n01,00,02", 2, ["unknown symbol"]),
        ("SIZE 3X2\n01,00,02", 2, ["2 rows", "1 follow"]),
        ("SIZE 3X2X2\nLAYER 1\n", 1, ["SIZE gives 2 layers", "multilayer"]),
    ],
)
def test_bad_answers(answer, line, words):
    puzzle = parse("A.B\nA.B")
    with pytest.raises(ParseError) as caught:
        formats.parse_solution(answer, puzzle)
    assert caught.value.line == line
    for word in words:
        assert word in caught.value.message


def test_a_bad_answer_is_refused_at_the_cell_that_shows_it():
    """As the multi-layer reader does: the line and column of a foreign label, of an endpoint
    holding something else, else of the first cell of the label whose cells are no path."""
    corners = "A . B\n. . .\nA . B"
    cases = [
        (corners, "A A B\nA . B\nA . B", 1, 1, "label 'A' is not one simple path"),  # (0, 1) hangs off A's path
        (corners, "A . B\n. . .\nA . C", 3, 5, "label 'C' is not a label of the puzzle"),
        (corners, "A . B\nA . B\nA . .", 3, 5, "'B' ends at (row, col) = (2, 2) but the answer leaves it unused"),
        ("A.A\nB.B\n...", "AAA\nBBB\n.B.", 2, 1, "label 'B' is not one simple path"),  # (2, 1) hangs off B's path
    ]
    for puzzle, answer, line, column, words in cases:
        with pytest.raises(ParseError) as caught:
            formats.parse_solution(answer, parse(puzzle))
        assert (caught.value.line, caught.value.column) == (line, column), answer
        assert words in caught.value.message


# -- encodings -------------------------------------------------------------------------------

def test_cp932_bytes_with_japanese_comment(tmp_path):
    path = tmp_path / "japanese.txt"
    path.write_bytes("# 問題 1\n3 2\nA.B\nA.B\n".encode("cp932"))
    assert formats.read(path)[0].size == (3, 2)


def test_unicode_spaces_and_labels_are_text_not_binary():
    puzzle = parse("# 全角\u3000コメント\n猫..猫\n犬..犬")
    assert set(puzzle.labels) == {"猫", "犬"} and puzzle.size == (4, 2)
    with pytest.raises(ParseError, match="binary") as caught:
        parse("A.A\nB\x07B.")
    assert (caught.value.line, caught.value.column) == (2, 2)


def test_utf8_bom_and_crlf():
    assert parse("\ufeffA.B\r\nA.B\r\n").size == (3, 2)


# -- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, fmt, line, column, words",
    [
        ("A.B\nA.B\n..B", "native", 3, 3, ["'B'", "more than twice", "at 1:3, 2:3, 3:3"]),
        ("A..\n...\nA.B", "native", 3, 3, ["'B'", "once"]),
        ("AAA", "native", 1, 3, ["'A'", "more than twice", "at 1:1, 1:2, 1:3", "(an answer? read answers with parse_solution)"]),
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
        ("2 3 2\n(0, 0) (1, 1)\n(1, 1) (2, 1)\n", None, 3, 1, ["holds both", "at 2:8"]),
        ("3 3 2\n(0, 0) (1, 1)\n", None, 2, None, ["3 colours", "only 1"]),
        ("5 2 2\n(0, 0) (1, 1)\n", None, 1, None, ["cannot fit"]),
        ("1 2 2\n(0, 0) (1, 1)\n(0, 1) (1, 0)\n", None, 3, None, ["more follow"]),
        ("1 2 2\n(0, 0) 1, 1)\n", None, 2, None, ["expected '(x, y) (x, y)'"]),
        ("SIZE 3X2\nLINE#1 (0,0)-(5,0)", None, 2, 14, ["off the 3x2 board"]),
        ("SIZE 3X2\nLINE#1 (0,0)-(1,0)\nLINE#1 (2,0)-(2,1)", None, 3, None, ["LINE#1 given twice"]),
        ("SIZE 3X2\nLINE#1 (0,0)-(1,0)\nLINE#2 (1,0)-(2,1)", None, 3, 8, ["holds both '1'", "'2'"]),
        # a line given as one point twice said "holds both '1' (at 2:8) and '1'"
        ("SIZE 3X2\nLINE#1 (1,0)-(1,0)", None, 2, 14, ["both ends of '1' are the cell (row, col) = (0, 1) (at 2:8 too)"]),
        ("1 3 2\n(2, 1) (2, 1)\n", None, 2, 8, ["both ends of '1' are the cell (row, col) = (1, 2) (at 2:1 too)"]),
        ("SIZE 3X2\nLINE_NUM 3\nLINE#1 (0,0)-(1,0)", None, 2, None, ["LINE_NUM says 3", "1 are given"]),
        ("SIZE 3X2\nLINE#1 (0,0) to (1,0)", None, 2, None, ["expected 'LINE#k"]),
        ("SIZE 3X2X1\nLINE#1 (0,0,1)-(1,0,2)", None, 2, 16, ["layer 2"]),
        ("SIZE 3X2X1\nVIA#a (0,0,1)-(1,0,1)", None, 2, None, ["VIA"]),
        ("SIZE 1000000000X1000000000\n", None, 1, None, ["absurd"]),
        ("p?numlin/3/2/1.1", None, 1, 15, ["'?' clue"]),
        ("p?numlin/3/2/1g1Q", None, 1, 17, ["unknown symbol 'Q'"]),
        ("p?numlin/3/2/-1", None, 1, 14, ["2 hex digits"]),
        ("p?numlin/3/2/1g1z", None, 1, 17, ["past the end"]),
        ("p?numlin/2/1/1g1", None, 1, 16, ["unexpected '1' after the 2 cells"]),
        ("p?numlin/5/5/1j2h3m1h2j3?x=1", None, 1, 25, ["unexpected '?x=1' after the 25 cells"]),
        ("p?numlin/99999/99999/", None, 1, None, ["absurd"]),
        # a number of more than 18 digits was named as 1000000000000000000, a number not in the file
        ("p?numlin/99999999999999999999/5/1", None, 1, None, ["board size 99999999999999999999x5 is absurd"]),
        ("SIZE 5X5\nLINE#1 (0,0)-(123456789012345678901,0)", None, 2, 14, ["(0, 123456789012345678901) is off"]),
        ('{"levels": [\n {"rows": ["#..', None, 2, 12, ["JSON that does not parse", "Unterminated string"]),
        ('\n{"a": 1}\n', None, None, None, ["JSON is not a Numberlink format"]),
        # json's decoder recurses per bracket: a RecursionError escaped as a traceback
        ('{"levels": ' + "[" * 200_000 + "]" * 200_000 + "}", None, 1, None, ["JSON nested too deeply"]),
        ("p?numlin/3/2/1g2", None, 1, 14, ["'1' occurs once"]),
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
    with pytest.raises(ValueError, match="unknown format"):
        format(WIDE, fmt="bogus")


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_every_format_writes_what_it_reads(fmt):
    letters = Puzzle.from_rows(["A..B.", "...C.", "A.CB."])  # 5x3, no blocked cell
    square = Puzzle.from_rows(["A..B", "...C", "A.CB", "...."])
    puzzle = square if fmt == "mzucker" else letters
    text = format(puzzle, fmt=fmt)
    again = parse(text, fmt=fmt)
    assert detect_format(text) == fmt
    assert again.size == puzzle.size
    assert pair_cells(again) == pair_cells(puzzle)
    if fmt in ("native", "thomasahle", "mzucker"):
        assert again == puzzle  # labels kept
    numbered = parse(format(again, fmt="native"))
    assert format(numbered, fmt=fmt) == text  # stable once renumbered


@pytest.mark.parametrize(
    "fmt, puzzle, words",
    [
        ("thomasahle", Puzzle.from_rows([["10", ".", "10"]]), "one-character"),
        ("mzucker", Puzzle.from_rows(["A.A"]), "square"),
        ("mzucker", Puzzle.from_rows(["1.", ".1"]), "one-letter"),
        ("dailyprogrammer", WIDE, "blocked"),
        ("adc", WIDE, "blocked"),
        ("tokens", WIDE, "blocked"),
    ],
)
def test_writers_refuse_what_their_format_cannot_hold(fmt, puzzle, words):
    with pytest.raises(ValueError, match=words):
        format(puzzle, fmt=fmt)


def test_thomasahle_writer_keeps_blocked_cells():
    assert parse(format(WIDE, fmt="thomasahle")) == WIDE


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


# -- every file of the public sets ------------------------------------------------------------

# Files that hold answers, not puzzles (checked against their problems below).
ANSWER_PARTS = ("/A/", "/A.2016/", "/Answers/", "T99_A", "sample_A", "sample_output", "/hints/")
# Problems with several layers: refused with a clear message.
THREE_D = {
    "dasadc-conmgr-ADC2015/sample/01/NL_Q01.txt": 2,
    "dasadc-conmgr-ADC2015/sample/01utf8/NL_Q01.txt": 2,
    "dasadc-conmgr-ADC2015/sample/NL_Q02.txt": 2,
    "dasadc-conmgr-ADC2015/sample/NL_Q03.txt": 3,
    "dasadc-github-io-ADC2017-2018/adc2017/sample_Q.txt": 2,
    "kotarot-nl-solver/single_3d/problem/issue82.txt": 2,
    "kotarot-nl-solver/single_3d_hls/NL_Q00.txt": 3,
}
# 2-D puzzles per set, from each SOURCE.txt ("Puzzle count"); ADC2015 has its 17 problems twice
# (2015 and 2016 notation); ADC2018 has two single-layer problems (Q2 50x50x1, Q12 40x40x1).
EXPECTED_2D = {
    "thomasahle-numberlink": 452,
    "HoustonWeHaveABug-FlowFree": 41,
    "mzucker-flow_solver": 29,
    "dasadc-conmgr-ADC2015": 34,
    "dasadc-github-io-ADC2017-2018": 2,
    "imos-Puzzle": 6,
    "kunisura-algorithms2012": 1,
    "kotarot-nl-solver": 0,
}
EXPECTED_FORMAT = {
    "thomasahle-numberlink": "thomasahle",
    "HoustonWeHaveABug-FlowFree": "dailyprogrammer",
    "mzucker-flow_solver": "mzucker",
    "dasadc-conmgr-ADC2015": "adc",
    "dasadc-github-io-ADC2017-2018": "adc",
    "imos-Puzzle": "tokens",
    "kunisura-algorithms2012": "tokens",
    "kotarot-nl-solver": "adc",
}


def test_every_public_file_parses_or_is_refused_clearly():
    root = shared_path("numberlink")
    counts = {name: 0 for name in EXPECTED_2D}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "SOURCE.txt"):
        relative = path.relative_to(root).as_posix()
        collection = relative.split("/")[0]
        if any(part in "/" + relative for part in ANSWER_PARTS):
            continue
        data = path.read_bytes()
        assert detect_format(data) == EXPECTED_FORMAT[collection], relative
        if relative in THREE_D:
            with pytest.raises(ParseError, match=rf"SIZE gives {THREE_D[relative]} layers: a multi-layer \(3-D\) board"):
                formats.read(path)
            continue
        try:
            puzzles = formats.read(path)
        except ParseError as error:
            assert "multi-layer (3-D)" in error.message and collection == "dasadc-github-io-ADC2017-2018", relative
            continue
        counts[collection] += len(puzzles)
    assert counts == EXPECTED_2D
    for collection in ("thomasahle-numberlink", "HoustonWeHaveABug-FlowFree", "mzucker-flow_solver", "imos-Puzzle"):
        assert f"Puzzle count: {EXPECTED_2D[collection]}" in (root / collection / "SOURCE.txt").read_text()


def test_all_adc2015_answers_verify_under_may_leave_empty_rules():
    root = shared_path("numberlink", "dasadc-conmgr-ADC2015", "sample", "ADC2015_QA")
    checked = 0
    for problem_dir, answer_dir, suffix in (("Q", "A", ".txt"), ("Q.2016", "A.2016", ".2016.txt")):
        for number in range(4, 21):
            puzzle = formats.read(root / problem_dir / f"Q{number:02d}{suffix}")[0]
            answer = (root / answer_dir / f"A{number:02d}{suffix}").read_bytes()
            solution = formats.parse_solution(answer, puzzle, fmt="adc")
            assert verify(puzzle, solution, Rules(cover_all=False)) == [], number
            checked += 1
    assert checked == 34


def test_adc2018_single_layer_answers_verify():
    root = shared_path("numberlink", "dasadc-github-io-ADC2017-2018", "adc2018")
    for number in (2, 12):
        puzzle = formats.read(root / "Questions" / f"Q{number}.txt")[0]
        solution = formats.parse_solution((root / "Answers" / f"A{number}.txt").read_bytes(), puzzle)
        assert verify(puzzle, solution, Rules(cover_all=False)) == []


def test_mzucker_hint_is_the_full_answer():
    root = shared_path("numberlink", "mzucker-flow_solver")
    puzzle = formats.read(root / "puzzles" / "jumbo_14x14_19.txt")[0]
    solution = formats.parse_solution((root / "hints" / "jumbo_14x14_19.txt").read_text(), puzzle)
    assert verify(puzzle, solution) == []


def test_every_public_puzzle_round_trips_through_native_text():
    root = shared_path("numberlink")
    files = [
        *sorted((root / "thomasahle-numberlink" / "puzzles").iterdir()),
        *sorted((root / "HoustonWeHaveABug-FlowFree" / "puzzles").glob("*.txt")),
        *sorted((root / "mzucker-flow_solver" / "puzzles").glob("*.txt")),
        *sorted((root / "dasadc-conmgr-ADC2015" / "sample" / "ADC2015_QA" / "Q").glob("*.txt")),
        root / "imos-Puzzle" / "NumberLink" / "sample_input",
    ]
    for path in files:
        for puzzle in formats.read(path):
            if puzzle.width * puzzle.height > 100_000:
                continue  # the 1002x1002 boards: covered by the speed check below
            assert parse(format(puzzle), fmt="native") == puzzle, puzzle.name
            if not puzzle.blocked:
                assert parse(format(puzzle, fmt="puzzlink")).size == puzzle.size


def test_largest_public_boards_parse_and_round_trip():
    """The 1002x1002 boards (speed is measured by hand, not asserted: about 0.05 s to read
    inputs6's four million-cell boards, 0.1 s to write one, 0.08 s to read it back)."""
    root = shared_path("numberlink")
    puzzles = formats.read(root / "thomasahle-numberlink" / "puzzles" / "inputs6")
    huge = formats.read(root / "HoustonWeHaveABug-FlowFree" / "puzzles" / "flowfree_huge.txt")[0]
    assert [p.size for p in puzzles][:3] == [(1002, 1002)] * 3 and huge.size == (1002, 1002)
    assert parse(format(huge)) == huge


@pytest.mark.parametrize("text, bad", [
    ("3 1\nA.A\n\n3 3\nB.B\n...\n\n3 1\nC.C\n", "says 3 rows but only 2 follow"),  # a row missing
    ("3 1\nA.A\n\n3 1\nB.B\n...\n\n3 1\nC.C\n", "says 1 rows but more follow"),  # a row too many
    ("3 1\nA.A\n\n3 2\nB.B\n...\nB..\nB..\n\n3 1\nC.C\n", "says 2 rows but more follow"),
])
def test_a_grid_whose_header_disagrees_with_its_rows_is_one_error_in_a_pack(text, bad):
    items = formats.parse_each(text, source="pack.txt")
    assert [type(item).__name__ for item in items] == ["Puzzle", "ParseError", "Puzzle"]
    assert bad in str(items[1]) and str(items[1]).startswith("pack.txt:")
    assert [p.labels for p in (items[0], items[2])] == [("A",), ("C",)]
    with pytest.raises(ParseError, match=bad.split(" but")[0]):
        parse_all(text)


@pytest.mark.parametrize("bad, message", [
    ("2 3 3\n(0, 0) (2, 0)\n(0, 2) (9, 2)\n", "7:8: endpoint of '2' at (row, col) = (2, 9) is off the 3x3 board"),
    ("2 3 3\n(0, 0) (2, 0)\n\n", "header on line 5 says 2 colours but only 1 follow"),
    ("2 3 3\n(0, 0) (2, 0)\n(0, 2) (2, 2)\n(1, 1) (1, 2)\n", "8: header on line 5 says 2 colours but more follow"),
])
def test_a_bad_dailyprogrammer_puzzle_is_one_error_in_a_file_of_several(bad, message, tmp_path, capsys):
    """A file of several dailyprogrammer #280 puzzles: the one that cannot be read is its error
    and the others are still read (as for grids and URLs); one bad puzzle made the whole file
    an error."""
    good = "2 3 3\n(0, 0) (0, 2)\n(1, 0) (2, 2)\n"
    text = good + "# the next one is broken\n" + bad + "\n" + good
    items = formats.parse_each(text, source="dp.txt")
    assert [type(item).__name__ for item in items] == ["Puzzle", "ParseError", "Puzzle"]
    assert message in str(items[1]) and str(items[1]).startswith("dp.txt:")
    with pytest.raises(ParseError):
        parse_all(text)
    from puzzlesat.cli import main

    (tmp_path / "dp.txt").write_text(text)
    assert main(["verify", str(tmp_path / "dp.txt"), "--format", "dailyprogrammer", "--json"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [record["status"] for record in records] == ["solved", "error", "solved"]


def test_a_pack_cut_inside_its_last_grid_keeps_the_grids_before_it():
    pack = "".join(f"3 2\n{c}.{c}\n...\n\n" for c in "ABCD")
    items = formats.parse_each(pack[:-6])  # the last grid loses its second row
    assert [type(item).__name__ for item in items] == ["Puzzle"] * 3 + ["ParseError"]


def test_one_wide_answer_with_long_labels_reads_back():
    """format_solution writes a 1-wide answer with labels such as '10' under a '1 H' size line,
    one token per row; parse_solution read each row as characters ('row has 2 cells but the
    answer is 1 wide'), so 'verify --answers' refused the answer it had written."""
    puzzle = parse("1 5\n10\n.\n10\nAB\nAB")
    solution = Solution.from_rows(puzzle, [["10"], ["10"], ["10"], ["AB"], ["AB"]])
    text = format_solution(puzzle, solution)
    assert text.splitlines()[0] == "1 5"
    assert formats.parse_solution(text, puzzle) == solution
    assert formats.parse_solution(text, puzzle, fmt="native") == solution


def test_number_labels_too_long_to_keep_are_renumbered_for_adc_and_tokens():
    """Labels of more than 18 digits (which the readers keep as text) were all written as
    1000000000000000000 by the adc and tokens writers and the ADC answer writer: two such lines
    came out as one LINE given twice, and a single one lost its number."""
    puzzle = parse("99999999999999999999 . 99999999999999999999\n1234567890123456789 . 1234567890123456789")
    for fmt in ("adc", "tokens"):
        again = parse(format(puzzle, fmt=fmt), fmt=fmt)
        assert again.labels == ("1", "2") and pair_cells(again) == pair_cells(puzzle), fmt
    solution = Solution.from_rows(puzzle, [["99999999999999999999"] * 3, ["1234567890123456789"] * 3])
    text = format_solution(puzzle, solution, fmt="adc")
    assert text.splitlines()[1:] == ["01,01,01", "02,02,02"]
    assert formats.parse_solution(text, puzzle) == solution
    kept = parse("999999999999999999 . 999999999999999999\n1 . 1")  # 18 digits: kept
    assert "LINE#999999999999999999 (0,0)-(2,0)" in format(kept, fmt="adc")
