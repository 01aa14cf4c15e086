"""Readers and writers of multi-layer (3-D) Numberlink: the ADC 2017/2018 files, the layered
native text, round trips on non-cubic boards, named errors, and fuzzing (only ParseError)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from puzzlesat.errors import ParseError
from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer.model import MAX_CELLS
from puzzlesat.numberlink.multilayer import Pair, Puzzle, Solution, is_solution, verify
from puzzlesat.numberlink.multilayer import formats
from puzzlesat.numberlink.multilayer.formats import (
    detect_format, format, format_solution, parse, parse_answer_layers, parse_solution, read,
)
from tests.support import TEST_DATA, shared_path

ADC = ("numberlink", "dasadc-github-io-ADC2017-2018")
MAY_LEAVE_EMPTY = Rules(cover_all=False)

SAMPLE_Q = "SIZE 3X3X2\r\nLINE_NUM 3\r\n\r\nLINE#1 (0,0,1) (2,2,1)\r\nLINE#2 (0,2,1) (2,0,1)\r\nLINE#3 (2,1,1)-(0,0,2)\r\n"
SAMPLE_A = "SIZE 3X3X2\r\nLAYER  1\r\n1,2,2\r\n1,2,3\r\n2,2,1\r\nLAYER  2\r\n3,3,3\r\n1,0,3\r\n1,1,1\r\n"

# 4 columns, 3 rows, 2 layers: width, height and layers all differ, so swaps show.
NONCUBIC = Puzzle(4, 3, 2, (Pair("1", (0, 0, 0), (1, 2, 3)), Pair("12", (0, 2, 0), (0, 0, 3))), name="")
NONCUBIC_ANSWER = Solution.from_mapping({
    "1": [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 3), (1, 2, 3)],
    "12": [(0, 2, 0), (0, 2, 1), (0, 2, 2), (0, 2, 3), (0, 1, 3), (0, 0, 3)],
})


# -- the published ADC 2017/2018 files -------------------------------------------------------

@pytest.mark.parametrize("k", range(1, 30))
def test_adc2018_problem_and_published_answer(k):
    question = shared_path(*ADC, "adc2018", "Questions", f"Q{k}.txt")
    answer = shared_path(*ADC, "adc2018", "Answers", f"A{k}.txt")
    [puzzle] = read(question)
    assert puzzle.name == f"Q{k}.txt"
    header = question.read_text().split()
    width, height, layers = (int(n) for n in header[1].upper().split("X"))
    assert puzzle.size == (width, height, layers)
    assert len(puzzle.pairs) == int(header[3])  # LINE_NUM
    solution = parse_solution(answer.read_bytes(), puzzle, source=str(answer))
    assert verify(puzzle, solution, MAY_LEAVE_EMPTY) == []  # SOURCE.txt: all 29 are valid
    # the writers read back equal, in both formats
    assert parse(format(puzzle)) == puzzle
    assert parse(format(puzzle, fmt="adc")) == puzzle
    for fmt in formats.FORMATS:
        assert parse_solution(format_solution(puzzle, solution, fmt=fmt), puzzle) == solution
    # the answer read without its puzzle: the same cells as the solution draws
    size_w, size_h, size_z, grid = parse_answer_layers(answer.read_bytes())
    assert (size_w, size_h, size_z) == puzzle.size
    assert grid == solution.to_layers(puzzle)


def test_adc2018_first_problem_coordinates():
    [puzzle] = read(shared_path(*ADC, "adc2018", "Questions", "Q1.txt"))
    # LINE#1 (0,30,1) (0,0,2): x column, y row from 0, z layer from 1
    assert puzzle.pair("1") == Pair("1", (0, 30, 0), (1, 0, 0))
    solution = parse_solution(shared_path(*ADC, "adc2018", "Answers", "A1.txt").read_text(), puzzle)
    assert solution.to_layers(puzzle)[0][0][0] == "31"  # first cell of "LAYER  1"


def test_adc2018_single_layer_problem_reads_as_one_layer():
    [puzzle] = read(shared_path(*ADC, "adc2018", "Questions", "Q2.txt"))  # SIZE 50X50X1
    assert puzzle.size == (50, 50, 1)


def test_adc2017_sample_pair():
    for q, a in ((SAMPLE_Q, SAMPLE_A),
                 (shared_path(*ADC, "adc2017", "sample_Q.txt").read_bytes(), shared_path(*ADC, "adc2017", "sample_A.txt").read_bytes())):
        puzzle = parse(q)
        assert puzzle == Puzzle.from_layers([["1.2", "..3", "2.1"], ["3..", "...", "..."]])
        solution = parse_solution(a, puzzle)
        assert solution.path("3") == ((0, 1, 2), (1, 1, 2), (1, 0, 2), (1, 0, 1), (1, 0, 0))
        assert solution.path("1") == ((0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 2, 0), (1, 2, 1), (1, 2, 2), (0, 2, 2))
        assert verify(puzzle, solution, MAY_LEAVE_EMPTY) == []
        assert [v.cells for v in verify(puzzle, solution)] == [((1, 1, 1),)]  # the one cell left empty
    assert detect_format(SAMPLE_Q) == "adc"


@pytest.mark.parametrize("path", [
    TEST_DATA / "numberlink" / "adc2015" / "NL_Q02.txt",
    ("numberlink", "kotarot-nl-solver", "single_3d_hls", "NL_Q00.txt"),
])
def test_adc2016_problems_are_read_with_their_vias(path):
    path = path if not isinstance(path, tuple) else shared_path(*path)
    [puzzle] = read(path)
    via_lines = [line for line in path.read_text().splitlines() if line.lstrip().upper().startswith("VIA#")]
    assert len(puzzle.vias) == len(via_lines) >= 2
    assert parse(format(puzzle, fmt="adc")) == puzzle


def test_an_adc2016_file_naming_a_via_twice_is_refused_at_the_second():
    path = shared_path("numberlink", "kotarot-nl-solver", "single_3d", "problem", "issue82.txt")
    with pytest.raises(ParseError, match=r"VIA#a given twice \(lines 9 and 10\)") as caught:
        read(path)
    assert caught.value.source == str(path)
    assert path.read_text(errors="replace").splitlines()[caught.value.line - 1].lstrip().upper().startswith("VIA#")


# -- hand-made boards, round trips -----------------------------------------------------------

def test_noncubic_board_both_writers_and_answers():
    text = format(NONCUBIC)
    assert text == str(NONCUBIC) + "\n"
    assert text == "layer 1\n1 . . 12\n. . . .\n12 . . .\n\nlayer 2\n. . . .\n. . . .\n. . . 1\n"
    adc = format(NONCUBIC, fmt="adc")
    assert adc == "SIZE 4X3X2\nLINE_NUM 2\nLINE#1 (0,0,1) (3,2,2)\nLINE#12 (3,0,1) (0,2,1)\n"
    assert parse(text) == parse(adc) == NONCUBIC
    assert detect_format(text) == "layers" and detect_format(adc) == "adc"
    assert is_solution(NONCUBIC, NONCUBIC_ANSWER, MAY_LEAVE_EMPTY)
    answer = format_solution(NONCUBIC, NONCUBIC_ANSWER, fmt="adc")
    assert answer.splitlines()[:3] == ["SIZE 4X3X2", "LAYER 1", "01,00,00,12"]
    assert answer.splitlines()[5:] == ["LAYER 2", "01,01,01,01", "00,00,00,01", "00,00,00,01"]
    layered = format_solution(NONCUBIC, NONCUBIC_ANSWER)
    assert layered.splitlines()[1] == "1 . . 12"
    for written in (answer, layered):
        assert parse_solution(written, NONCUBIC) == NONCUBIC_ANSWER


def test_layered_character_rows_and_token_rows_agree():
    chars = parse("# a comment before the layers\nlayer 1\nA.#\n.B.\n\nLAYER 2\n...\nAB.\n")
    tokens = parse("layer 1\nA . #\n. B .\n\nlayer 2\n. . .\nA B .\n\n# a comment after them\n")
    assert chars == tokens == Puzzle.from_layers([["A.#", ".B."], ["...", "AB."]])
    with pytest.raises(ParseError, match="a 'layer' line must follow a blank line") as caught:
        parse("layer 1\nA . #\n. B .\nlayer 2\n. . .\nA B .")
    assert caught.value.line == 4
    assert chars.blocked == frozenset({(0, 0, 2)})


def test_layer_line_inside_a_layer_is_a_row():
    puzzle = Puzzle.from_layers([[["layer", "2"], [".", "."]], [["layer", "2"], [".", "#"]]])
    assert parse(format(puzzle)) == puzzle


def test_one_wide_boards_with_long_labels():
    puzzle = Puzzle.from_layers([[["10"], ["."]], [["#"], ["10"]]])
    assert parse(format(puzzle)) == puzzle
    answer = Solution.from_mapping({"10": [(0, 0, 0), (0, 1, 0), (1, 1, 0)]})
    assert parse_solution(format_solution(puzzle, answer), puzzle) == answer
    # every cell a label of one length: the rows read as a character grid (documented)
    full = Puzzle.from_layers([[["AB"], ["AB"]]])
    assert parse(format(full)).size == (2, 2, 1)
    assert parse_solution(format_solution(full, Solution.from_layers(full, [[["AB"], ["AB"]]])), full).path("AB")


def test_one_layer_and_2d_adc_forms():
    assert parse("SIZE 3x1x1\nLINE#07 (0,0,1)-(2,0,1)") == Puzzle.from_layers([["7.7"]])
    assert parse("SIZE 3X1\nLINE#1 (0,0)-(2,0,1)").size == (3, 1, 1)
    puzzle = parse("SIZE 3X1\nLINE_NUM 1\nLINE#1 (0,0) (2,0)")
    assert parse_solution("SIZE 3X1\n01,01,01", puzzle).path("1") == ((0, 0, 0), (0, 0, 1), (0, 0, 2))
    assert parse_solution("SIZE 3X1X1\nLAYER 1\n1,1,1", puzzle) == parse_solution("SIZE 3X1\n01,01,01", puzzle)


def test_read_names_and_errors(tmp_path):
    good = tmp_path / "board.layers"
    good.write_text(format(NONCUBIC))
    assert [(p.name, p) for p in read(good)] == [("board.layers", NONCUBIC)]
    binary = tmp_path / "garbage.bin"
    binary.write_bytes(bytes(range(256)) * 3)
    with pytest.raises(ParseError, match="binary data") as caught:
        read(binary)
    assert caught.value.source == str(binary) and caught.value.line == 1
    with pytest.raises(ParseError, match="cannot read") as caught:
        read(tmp_path / "missing.txt")
    assert caught.value.source.endswith("missing.txt")
    with pytest.raises(ParseError, match="expected 'layer 1'") as caught:
        parse("A.A\n", source="x/flat.txt")
    assert str(caught.value) == "x/flat.txt:1: expected 'layer 1' (the layered format starts each layer with a 'layer z' line)"


def test_writers_refuse_what_adc_cannot_hold():
    lettered = Puzzle.from_layers([["A."], [".A"]])
    with pytest.raises(ValueError, match="label 'A' is not a positive whole number"):
        format(lettered, fmt="adc")
    with pytest.raises(ValueError, match="positive whole number"):
        format(Puzzle.from_layers([["07"], ["07"]]), fmt="adc")
    blocked = Puzzle.from_layers([["1#"], [".1"]])
    with pytest.raises(ValueError, match="blocked cells"):
        format(blocked, fmt="adc")
    with pytest.raises(ValueError, match="blocked cells"):
        format_solution(blocked, Solution.from_layers(blocked, [["1#"], ["11"]]), fmt="adc")
    with pytest.raises(ValueError, match="unknown format"):
        format(NONCUBIC, fmt="svg")
    with pytest.raises(ParseError, match="unknown format"):
        parse(format(NONCUBIC), fmt="native")


def test_answers_with_many_lines_use_wider_numbers():
    pairs = tuple(Pair(str(k), (0, 0, k - 1), (1, 0, k - 1)) for k in range(1, 101))
    puzzle = Puzzle(100, 1, 2, pairs)
    solution = Solution.from_mapping({str(k): [(0, 0, k - 1), (1, 0, k - 1)] for k in range(1, 101)})
    text = format_solution(puzzle, solution, fmt="adc")
    assert text.splitlines()[2].startswith("001,002,")
    assert parse_solution(text, puzzle) == solution


# -- errors: (text, reader, message fragment, line, column) ----------------------------------

P = parse(SAMPLE_Q)
LETTERS = Puzzle.from_layers([["A.", ".B"], ["B.", ".A"]])

BAD = [
    # ADC problems
    ("SIZE 3X3X2\nLINE#1 (3,0,1) (0,0,1)", "parse", "LINE#1 point 1 (3,0,1) is off the 3x3x2 board: x = 3 (columns are 0..2)", 2, 8),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (0,-1,1)", "parse", "LINE#1 point 2 (0,-1,1) is off the 3x3x2 board: y = -1", 2, 16),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (0,0,0)", "parse", "point 2 (0,0,0) is off the 3x3x2 board: z = 0 (layers are 1..2)", 2, 16),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (0,0,3)", "parse", "z = 3 (layers are 1..2)", 2, 16),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (1,0,1)\nLINE#2 (2,2,2) (1,0,1)", "parse", "LINE#2 point 2 (1,0,1) is on a cell already used by LINE#1 (line 2)", 3, 16),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (0,0,1)", "parse", "already used by its own first point", 2, 16),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (1,0,1)\nLINE#01 (2,2,2) (2,1,1)", "parse", "LINE#01 given twice (lines 2 and 3)", 3, None),
    ("SIZE 3X3X2\nLINE#0 (0,0,1) (1,0,1)", "parse", "line numbers start at 1", 2, None),
    ("SIZE 3X3X2\nLINE#1 (0,0) (1,0,1)", "parse", "has no layer z (SIZE gives 2 layers)", 2, 8),
    ("SIZE 3X3X2\nLINE_NUM 2\nLINE#1 (0,0,1) (1,0,1)", "parse", "LINE_NUM says 2 lines but 1 are given", 2, None),
    ("SIZE 3X3X2\nLINE_NUM 1\nLINE_NUM 1\nLINE#1 (0,0,1) (1,0,1)", "parse", "second LINE_NUM (the first is on line 2)", 3, None),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (1,0,1)\n\nSIZE 3X3X2", "parse", "second SIZE line (the first is on line 1)", 4, None),
    ("SIZE 3X3X2\nVIA#a (1,1,1)", "parse", "via 'a' has 1 cell(s): a via joins two or more layers", 2, None),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) to (1,0,1)", "parse", "expected 'LINE#k (x,y,z) (x,y,z)'", 2, None),
    ("SIZE 3X3X2\nhello", "parse", "expected 'LINE#k (x,y,z) (x,y,z)' or 'LINE_NUM n'", 2, None),
    ("# comment\nSIZE 3X3\n\nLINE#1 (0,0)-(9,0)", "parse", "x = 9 (columns are 0..2)", 4, 14),
    ("SIZE 3*3*2\n", "parse", "expected 'SIZE XxYxZ'", 1, None),
    ("LINE_NUM 1\nSIZE 3X3X2", "parse", "expected 'SIZE XxYxZ'", 1, None),
    ("SIZE 3X3X0\n", "parse", "must be at least 1x1x1", 1, None),
    (f"SIZE {MAX_CELLS}X2X1\n", "parse", "is absurd (more than", 1, None),
    ("SIZE 99999999999999999999999X99999999999X8\n", "parse", "is absurd", 1, None),
    (SAMPLE_A, "parse", "this is an ADC answer", 2, None),
    ("", "parse", "empty input", None, None),
    ("\n\n# only a comment\n", "parse", "empty input", 1, None),
    ("SIZE 3X3X2\n\x00", "parse", "binary data", 2, 1),
    # the layered text
    ("layer 1\nA.\n..\n\nlayer 2\n.A.\n...", "parse", "row has 3 cells but the first row (line 2) has 2 (ragged rows)", 6, None),
    ("layer 1\nA.\n..\n\nlayer 2\n.A", "parse", "layer 2 has 1 rows but layer 1 (line 1) has 2", 5, None),
    ("layer 1\nA.\n..\n\nlayer 3\n.A\n..", "parse", "layer 3 where layer 2 was expected", 5, None),
    ("layer 1\nA.\n..\n\nlayer 1\n.A\n..", "parse", "layer 1 given twice (lines 1 and 5)", 5, None),
    ("layer 1\nA.\n.B\n\nlayer 2\n.A\n..", "parse", "label 'B' occurs once (at 3:2; expected exactly 2)", 3, 2),
    ("layer 1\nA A\n. .\n\nlayer 2\n. A\n. .", "parse", "label 'A' occurs 3 times (at 2:1, 2:3, 6:3; expected exactly 2)", 6, 3),
    ("layer 1\nA.\n..\n\nhello\n.A", "parse", "expected 'layer 2' or the end of the input", 5, None),
    ("A.\n.A", "parse", "expected 'layer 1'", 1, None),
    ("layer 1\n\nlayer 2\nA\nA", "parse", "layer 1 has no rows", 1, None),
    ("layer 1\nA\n\nlayer 2\n\n", "parse", "layer 2 has no rows", 4, None),
    ("layer 1\n1\n\nlayer 2\nlayer 3\n1", "parse", "a 'layer' line must follow a blank line", 5, None),
    ("layer 1\nA.B\nB.A\n\nlayer 2\nAAB\nBBA", "parse", "label 'A' occurs 5 times (at 2:1, 3:3, 6:1, 6:2, 7:3; expected exactly 2) (an answer?", 6, 1),
    # ADC answers
    ("SIZE 3X3X1\nLAYER 1\n1,2,2\n1,2,3\n2,2,1", "solution", "answer is 3x3x1 but the puzzle is 3x3x2", 3, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1\nLAYER 3\n3,3,3\n1,0,3\n1,1,1", "solution", "LAYER 3 is out of range: SIZE gives 2 layer(s), 1..2", 6, None),
    ("SIZE 3X3X2\nLAYER 2\n3,3,3\n1,0,3\n1,1,1\nLAYER 1\n1,2,2\n1,2,3\n2,2,1", "solution", "LAYER 2 where LAYER 1 was expected (layers go in order 1..2)", 2, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1\nLAYER 1\n3,3,3\n1,0,3\n1,1,1", "solution", "LAYER 1 given twice (lines 2 and 6)", 6, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1", "solution", "LAYER 2 missing: SIZE gives 2 layers but 1 follow", 5, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\nLAYER 2\n3,3,3\n1,0,3\n1,1,1", "solution", "layer 1 has 2 rows but SIZE gives 3", 5, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1\n3,3,3", "solution", "layer 1 has more than the 3 rows SIZE gives (is the line 'LAYER 2' missing?)", 6, None),
    ("SIZE 3X3X2\n1,2,2\n1,2,3\n2,2,1", "solution", "a row before 'LAYER 1'", 2, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2\n2,2,1", "solution", "row has 2 cells but SIZE gives 3 (ragged rows)", 4, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,x,3", "solution", "unknown symbol 'x' in cell 2", 4, 3),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,,3", "solution", "an empty cell in cell 2", 4, 3),
    ("SIZE 3X3X2\nLAYER one\n", "solution", "expected 'LAYER z' or a row", 2, None),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1\nLAYER 2\n3,3,3\n1,9,3\n1,1,1", "solution", "line number 9 is not a LINE of the puzzle", 8, 3),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,0\nLAYER 2\n3,3,3\n1,0,3\n1,1,1", "solution", "'1' ends at (x,y,z) = (2,2,1) but the answer", 5, 5),
    ("SIZE 2X2X2\nLAYER 1\n1,0\n0,0\nLAYER 2\n0,0\n0,1\n", "solution-letters", "line number 1 is not a LINE", 3, 1),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1\nLAYER 2\n3,3,3\n0,0,3\n1,1,1", "solution", "label '1' is not one simple path", 3, 1),
    ("SIZE 3X3X2\nLAYER 1\n1,2,2\n1,2,3\n2,2,1\nLAYER 2\n3,3,3\n1,3,3\n1,1,1", "solution", "label '3' is not one simple path", 4, 5),
    ("SIZE 3X3X2\nLINE_NUM 3\nLINE#1 (0,0,1) (2,2,1)", "solution", "this is an ADC problem", 2, None),
    ("", "solution", "empty input: no answer found", None, None),
    # layered answers
    ("layer 1\nA.\n.B\n\nlayer 2\nB.\n.A", "solution-letters", "not one simple path", 2, 1),
    ("layer 1\nA.\n.B\n\nlayer 2\nBC\n.A", "solution-letters", "label 'C' is not a label of the puzzle", 6, 2),
    ("layer 1\nA.\n.B\n\nlayer 2\n..\n.A", "solution-letters", "'B' ends at (layer, row, column) = (1, 0, 0) but the answer leaves it unused", 6, 1),
    ("layer 1\nA.\n.B\n\nlayer 2\nB", "solution-letters", "layer 2 has 1 rows", 5, None),
]


@pytest.mark.parametrize("text, reader, fragment, line, column", BAD)
def test_bad_input_names_line_and_problem(text, reader, fragment, line, column):
    with pytest.raises(ParseError) as caught:
        if reader == "parse":
            parse(text, source="bad.txt")
        elif reader == "solution":
            parse_solution(text, P, source="bad.txt")
        else:
            parse_solution(text, LETTERS, source="bad.txt")
    error = caught.value
    assert fragment in error.message
    assert (error.line, error.column, error.source) == (line, column, "bad.txt")
    assert str(error).startswith("bad.txt:")


def test_a_layered_answer_given_as_a_problem_gets_a_hint():
    with pytest.raises(ParseError, match="read answers with parse_solution"):
        parse(format_solution(NONCUBIC, NONCUBIC_ANSWER))


# -- random boards and answers: writers and readers agree ------------------------------------

LABELS = st.one_of(
    st.integers(1, 2000).map(str),
    st.text(st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zs", "Zl", "Zp")), min_size=1, max_size=3)
    .filter(lambda label: not label.startswith("@")),  # '@a' marks the cells of via a (refused as a label)
)


@st.composite
def boards(draw, numeric=False):
    """A random board with paths that never run beside themselves (so the drawing of the
    answer names exactly one path per label) and its puzzle."""
    width, height, layers = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 4))
    cells = [(z, r, c) for z in range(layers) for r in range(height) for c in range(width)]
    taken: set = set()
    blocked = set() if numeric else set(draw(st.sets(st.sampled_from(cells), max_size=3)))
    taken |= blocked
    labels = draw(st.lists(st.integers(1, 2000).map(str) if numeric else LABELS, unique=True, max_size=5))
    paths = {}
    for label in labels:
        free = [cell for cell in cells if cell not in taken]
        if label in (".", "#") or any(ch.isspace() for ch in label) or len(free) < 2:
            continue
        path = [draw(st.sampled_from(free))]
        for _ in range(draw(st.integers(1, 8))):
            z, r, c = path[-1]
            onward = [
                n for n in ((z + 1, r, c), (z - 1, r, c), (z, r + 1, c), (z, r - 1, c), (z, r, c + 1), (z, r, c - 1))
                if 0 <= n[0] < layers and 0 <= n[1] < height and 0 <= n[2] < width
                and n not in taken and n not in path
                and not any(sum(abs(a - b) for a, b in zip(n, p)) == 1 for p in path[:-1])
            ]
            if not onward:
                break
            path.append(draw(st.sampled_from(onward)))
        if len(path) < 2:
            continue
        taken |= set(path)
        paths[label] = path
    pairs = tuple(Pair(label, path[0], path[-1]) for label, path in paths.items())
    puzzle = Puzzle(width, height, layers, pairs, frozenset(blocked))
    return puzzle, Solution.from_mapping(paths)


def _ambiguous_one_wide(puzzle: Puzzle, grid) -> bool:
    """A board one cell wide whose cells all hold labels of one length >= 2 (documented)."""
    tokens = [row[0] for layer in grid for row in layer]
    return puzzle.width == 1 and len({len(t) for t in tokens}) == 1 and len(tokens[0]) > 1


ROUND = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ROUND
@given(boards())
def test_random_boards_round_trip_in_the_layered_format(board):
    puzzle, solution = board
    assume(not _ambiguous_one_wide(puzzle, puzzle.grid().tolist()))
    assert parse(format(puzzle)) == puzzle
    assert is_solution(puzzle, solution, MAY_LEAVE_EMPTY)
    if not _ambiguous_one_wide(puzzle, solution.to_layers(puzzle)):
        assert parse_solution(format_solution(puzzle, solution), puzzle) == solution


@ROUND
@given(boards(numeric=True))
def test_random_boards_round_trip_in_the_adc_format(board):
    puzzle, solution = board
    assert parse(format(puzzle, fmt="adc")) == puzzle
    assert parse_solution(format_solution(puzzle, solution, fmt="adc"), puzzle) == solution
    assert parse_answer_layers(format_solution(puzzle, solution, fmt="adc"))[3] == solution.to_layers(puzzle)


# -- fuzzing: any text gives a puzzle or a ParseError, nothing else ---------------------------

ALPHABET = "0123456789,()-#. \t\n\r xXSIZELNE_UMAYRVlayer1#\ufeff\x00é"
SEEDS = [SAMPLE_Q, SAMPLE_A, format(NONCUBIC), format(NONCUBIC, fmt="adc"),
         format_solution(NONCUBIC, NONCUBIC_ANSWER), format_solution(NONCUBIC, NONCUBIC_ANSWER, fmt="adc"),
         "SIZE 4X4X2\r\nLINE_NUM 2\r\n\r\nLINE#1 (0,0,1) (1,3,2)\r\nVIA#a (2,2,1) (2,2,2)\r\n"]
ANSWER_PUZZLES = (P, NONCUBIC, LETTERS)


def check(text) -> None:
    for fmt in (None, *formats.FORMATS):
        try:
            puzzle = parse(text, fmt=fmt, source="fuzz.txt")
        except ParseError as error:
            assert error.message and str(error).startswith("fuzz.txt")
        else:
            assert isinstance(puzzle, Puzzle)
            if not _ambiguous_one_wide(puzzle, puzzle.grid().tolist()):
                assert parse(format(puzzle)) == puzzle
        try:
            size = parse_answer_layers(text, fmt=fmt)
        except ParseError:
            pass
        else:
            assert len(size[3]) == size[2]
        for answer_to in ANSWER_PUZZLES:
            try:
                solution = parse_solution(text, answer_to, fmt=fmt)
            except ParseError:
                continue
            assert {label for label, _ in solution.paths} == set(answer_to.labels)


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "duplicate-line", "drop-line"]))
        lines = text.split("\n")
        if kind in ("duplicate-line", "drop-line"):
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i]) if kind == "duplicate-line" else lines.pop(i)
            text = "\n".join(lines)
        else:
            i = draw(st.integers(0, len(text)))
            ch = draw(st.sampled_from(ALPHABET))
            text = text[:i] + ("" if kind == "delete" else ch) + text[i + (kind != "insert"):]
    return text


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(alphabet=ALPHABET, max_size=100))
def test_fuzz_random_text(text):
    check(text)


@FUZZ
@given(st.one_of(st.text(max_size=60), st.binary(max_size=60)))
def test_fuzz_random_unicode_and_bytes(text):
    check(text)


@FUZZ
@given(mutated())
def test_fuzz_mutated_valid_files(text):
    check(text)
