"""ADC 2016 vias on multi-layer Numberlink boards: the model's checks, reading and writing, the
named violations. The SAT solver's answers on the via boards (``VIA_BOARDS``, part of ``TINY``)
are compared with an independent enumerator, which applies the via rules directly, in
``test_multilayer_solve``.

The rules (ADC 2016): a via is one place on two or more consecutive layers; a line changes
layer only inside a via, passing all of its cells (the cells between its first and its last
are left only up or down); every via is passed by exactly one line and no line passes two.
"""

from __future__ import annotations

import pytest

from puzzlesat.errors import InvalidPuzzle, ParseError
from puzzlesat.numberlink.model import NotAPath, Rules
from puzzlesat.numberlink.multilayer import Pair, Puzzle, Solution, Via, format, format_solution, parse, parse_solution, solve, verify
from puzzlesat.numberlink.multilayer.solve import contradiction
from puzzlesat.results import Status
from tests.numberlink.test_multilayer_solve import TINY, VIA_BOARDS, brute_force_answers
from tests.support import shared_path


def _puzzle(name: str) -> Puzzle:
    return Puzzle.from_layers(TINY[name], name=name)


def test_the_via_boards_cover_every_outcome() -> None:
    """The via boards are not all alike: under the contest's may-leave-empty rules some have
    one answer and some several, under cover-all rules some one and some none; and the vias
    change the answers (without them, paths would change layer anywhere)."""
    leave_empty = {name: len(brute_force_answers(_puzzle(name), Rules(cover_all=False))) for name in VIA_BOARDS}
    cover_all = {name: len(brute_force_answers(_puzzle(name), Rules())) for name in VIA_BOARDS}
    assert 1 in leave_empty.values() and max(leave_empty.values()) > 1
    assert 0 in cover_all.values() and 1 in cover_all.values()
    free = _puzzle("3x2x2 one via")
    assert len(brute_force_answers(Puzzle(free.width, free.height, free.layers, free.pairs), Rules(cover_all=False))) > 6


def test_a_via_count_that_cannot_match_is_refuted_without_search() -> None:
    puzzle = Puzzle.from_layers([[["A", "@a", "@b"]], [[".", "@a", "@b"]], [[".", ".", "A"]]])
    assert "layers" in (contradiction(puzzle, Rules(cover_all=False)) or "")
    assert solve(puzzle, rules=Rules(cover_all=False)).stats["proof"].startswith("layers 1 to 2")


# -- the model ------------------------------------------------------------------------------

@pytest.mark.parametrize("cells, message", [
    ([(0, 0, 0)], "has 1 cell"),
    ([(0, 0, 0), (1, 0, 1)], "not at one place"),
    ([(0, 0, 0), (2, 0, 0)], "skips a layer"),
])
def test_a_via_must_be_one_place_on_consecutive_layers(cells, message) -> None:
    with pytest.raises(InvalidPuzzle, match=message):
        Via("a", cells)


@pytest.mark.parametrize("label", ["@", "@a"])
def test_a_label_starting_with_the_via_mark_is_refused(label: str) -> None:
    """'@a' in the layered text is a cell of via a, so such a label would not read back as a
    label (hypothesis found a puzzle labelled '@' that the layered text turned into a via)."""
    with pytest.raises(InvalidPuzzle, match="marks a via's cells"):
        Puzzle(1, 1, 2, (Pair(label, (0, 0, 0), (1, 0, 0)),))


@pytest.mark.parametrize("name", ["a b", "a\n", "\t"])
def test_a_via_name_with_whitespace_is_refused(name: str) -> None:
    # the layered text writes a via cell as one token, '@' and the name: 'a b' came back as a
    # via 'a' and a stray 'b', another puzzle
    with pytest.raises(InvalidPuzzle, match="bad via name"):
        Via(name, [(0, 0, 1), (1, 0, 1)])


@pytest.mark.parametrize("name", ["a", "zz", "#", ".", "@"])
def test_a_via_name_without_whitespace_survives_the_layered_text(name: str) -> None:
    puzzle = Puzzle.from_layers([[["1", ".", "."]], [[".", ".", "1"]]], vias=[Via(name, [(0, 0, 1), (1, 0, 1)])])
    assert parse(format(puzzle)) == puzzle


@pytest.mark.parametrize("vias, message", [
    ([Via("a", [(0, 0, 1), (1, 0, 1)]), Via("a", [(0, 1, 1), (1, 1, 1)])], "given twice"),
    ([Via("a", [(0, 0, 0), (1, 0, 0)])], "endpoint of 'A'"),
    ([Via("a", [(0, 0, 1), (1, 0, 1)]), Via("b", [(1, 0, 1), (2, 0, 1)])], "share the cell"),
    ([Via("a", [(2, 0, 1), (3, 0, 1)])], "off the"),
    ([Via("a", [(0, 1, 1), (1, 1, 1)])], "blocked"),
])
def test_vias_must_fit_the_puzzle(vias, message) -> None:
    with pytest.raises(InvalidPuzzle, match=message):
        Puzzle.from_layers([["A..", ".#."], ["...", "..."], ["..A", "..."]], vias=vias)


def test_vias_are_data_that_compare_and_print() -> None:
    one = _puzzle("2x3x2 two vias")
    assert one == _puzzle("2x3x2 two vias") != Puzzle(one.width, one.height, one.layers, one.pairs)
    assert [via.name for via in one.vias] == ["a", "b"] and "@a" in str(one)
    assert Puzzle.from_layers([[row.split() for row in layer] for layer in str(one).split("\n\n")
                               for layer in [layer.splitlines()[1:]]]) == one


# -- reading and writing ---------------------------------------------------------------------

ADC_2016 = """SIZE 4X4X3
LINE_NUM 2

LINE#1 (0,0,1) (3,3,3)
LINE#2 (3,2,1) (1,0,2)

VIA#a (2,2,1) (2,2,2) (2,2,3)
VIA#b (2,0,1)-(2,0,2)
"""

ADC_2016_ANSWER = """SIZE 4X4X3
LAYER 1
1,0,2,2
1,0,0,2
1,1,1,2
0,0,0,0
LAYER 2
0,2,2,0
0,0,0,0
0,0,1,0
0,0,0,0
LAYER 3
0,0,0,0
0,0,0,0
0,0,1,0
0,0,1,1
"""


def test_an_adc_2016_problem_reads_with_its_vias_and_its_answer_checks() -> None:
    puzzle = parse(ADC_2016)
    assert [(via.name, via.cells) for via in puzzle.vias] == [
        ("b", ((0, 0, 2), (1, 0, 2))), ("a", ((0, 2, 2), (1, 2, 2), (2, 2, 2)))]
    answer = parse_solution(ADC_2016_ANSWER, puzzle)
    rules = Rules(cover_all=False)
    assert verify(puzzle, answer, rules) == []
    assert answer.path("1")[4:7] == ((0, 2, 2), (1, 2, 2), (2, 2, 2))  # through via a, all three layers
    assert parse(format(puzzle, fmt="adc")) == puzzle == parse(format(puzzle))
    assert parse_solution(format_solution(puzzle, answer, fmt="adc"), puzzle) == answer
    assert "VIA#a (2,2,1) (2,2,2) (2,2,3)" in format(puzzle, fmt="adc")
    found = solve(puzzle, rules=rules)
    assert found.status is Status.SOLVED and verify(puzzle, found.solution, rules) == []


def test_an_answer_stepping_between_layers_outside_a_via_is_named() -> None:
    puzzle = parse(ADC_2016)
    layers = [block.splitlines()[1:] for block in ADC_2016_ANSWER.split("LAYER ")[1:]]
    # line 2 drops from (x, y) = (3, 0) on layer 1 straight to layer 2, not through via b
    layers[0][0], layers[1][0] = "1,0,0,2", "0,2,2,2"
    text = "SIZE 4X4X3\n" + "".join(f"LAYER {z}\n" + "\n".join(rows) + "\n" for z, rows in enumerate(layers, 1))
    with pytest.raises(ParseError, match="not one simple path") as caught:
        parse_solution(text, puzzle)  # with vias, a drawing is traced along the steps a path may take
    # the message says why: the cells do form a path, but by a step the via rules forbid
    assert str(caught.value).endswith(": its step (0, 0, 3) -> (1, 0, 3) changes layer outside a via")
    stray = Solution.from_mapping({
        "1": parse_solution(ADC_2016_ANSWER, puzzle).path("1"),
        "2": [(0, 2, 3), (0, 1, 3), (0, 0, 3), (1, 0, 3), (1, 0, 2), (1, 0, 1)],
    })
    codes = [v.code for v in verify(puzzle, stray, Rules(cover_all=False))]
    assert codes == ["outside-via", "via-unused"]


def test_an_answer_leaving_a_via_sideways_says_so() -> None:
    puzzle = Puzzle.from_layers([[["A", ".", "."], [".", "@a", "."]], [[".", ".", "."], [".", "@a", "."]],
                                 [[".", ".", "."], [".", "@a", "A"]]])
    drawn = [[["A", "A", "."], [".", "A", "."]], [[".", ".", "."], ["A", "A", "."]], [[".", ".", "."], ["A", "A", "A"]]]
    with pytest.raises(NotAPath, match=r"its step \(1, 1, 1\) -> \(1, 1, 0\) leaves a via's inner cell sideways$"):
        Solution.from_layers(puzzle, drawn)
    with pytest.raises(NotAPath, match=r"from \(0, 0, 0\) to \(2, 1, 2\)$"):  # no path at all: nothing more to say
        Solution.from_layers(puzzle, [[["A", ".", "."], [".", "A", "."]], [[".", ".", "."], [".", "A", "."]],
                                      [[".", ".", "."], [".", "A", "A"]]])


def test_an_answer_leaving_a_via_unused_says_so() -> None:
    puzzle = Puzzle.from_layers([[["A", "@a", "."]], [[".", "@a", "A"]]])
    with pytest.raises(ParseError, match=r"2:3: not an answer to this puzzle: via 'a' at \(layer, row, column\) = \(0, 0, 1\) "
                                         r"is passed by no path"):
        parse_solution("layer 1\nA @a A\n\nlayer 2\nA @a A", puzzle)


def test_a_path_through_two_vias_is_named() -> None:
    puzzle = Puzzle.from_layers([[["A", "@a", ".", "@b", "A"]], [[".", "@a", ".", "@b", "."]]])
    twice = Solution.from_mapping({"A": [(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 2), (1, 0, 3), (0, 0, 3), (0, 0, 4)]})
    assert [v.code for v in verify(puzzle, twice, Rules(cover_all=False))] == ["several-vias"]


@pytest.mark.parametrize("text, message", [
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a (1,1,1) (1,2,2)", "3: via 'a' is not at one place"),
    ("SIZE 3X3X3\nLINE#1 (0,0,1) (2,2,3)\nVIA#a (1,1,1) (1,1,3)", "3: via 'a' skips a layer"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a (0,0,1) (0,0,2)", "3:7: VIA#a point 1 (0,0,1) is on a cell already used by LINE#1"),
    ("SIZE 3X3X2\nVIA#a (1,1,1) (1,1,2)\nLINE#1 (1,1,1) (2,2,2)", "3:8: LINE#1 point 1 (1,1,1) is on a cell already used by VIA#a"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a (1,1,1) (1,1,2)\nVIA#a (2,1,1) (2,1,2)", "4: VIA#a given twice (lines 3 and 4)"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a (1,1,1) (1,1,3)", "3:15: VIA#a point 2 (1,1,3) is off the 3x3x2 board"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a (1,1) (1,1,2)", "3:7: VIA#a point 1 (1,1) has no layer z"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a (1,1,1) (1,1,2) (1,1,1)", "3:23: VIA#a point 3 (1,1,1) is its own point 1 again"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#a", "3: expected 'VIA#a (x,y,z) (x,y,z) ...'"),
    ("SIZE 3X3X2\nLINE#1 (0,0,1) (2,2,2)\nVIA#1 (1,1,1) (1,1,2)", "3:5: VIA#1: a via is named by letters"),
    ("layer 1\n1 @ .\n\nlayer 2\n. . 1", "2:3: '@' marks a via cell"),
    ("layer 1\n1 @a .\n\nlayer 2\n. . 1\n\nlayer 3\n. @a .", "2:3: via 'a' skips a layer"),
])
def test_bad_vias_are_parse_errors_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert message in str(caught.value)


def test_a_via_named_other_than_by_letters_is_not_written_as_adc() -> None:
    puzzle = Puzzle.from_layers([[["1", "@x1", "."]], [[".", "@x1", "1"]]])
    assert "VIA#x1" in format(puzzle, fmt="adc")
    with pytest.raises(ValueError, match="names vias by letters"):
        format(Puzzle.from_layers([[["1", "@1", "."]], [[".", "@1", "1"]]]), fmt="adc")


ADC_2016_FILES = [
    "dasadc-conmgr-ADC2015/sample/NL_Q02.txt", "dasadc-conmgr-ADC2015/sample/NL_Q03.txt",
    "dasadc-conmgr-ADC2015/sample/01/NL_Q01.txt", "kotarot-nl-solver/single_3d_hls/NL_Q00.txt",
]


@pytest.mark.parametrize("name", ADC_2016_FILES)
def test_public_adc_2016_problems_solve_under_the_contest_rules(name: str) -> None:
    path = shared_path("numberlink", *name.split("/"))
    if not path.exists():
        pytest.skip(f"{path} absent")
    puzzle = parse(path.read_bytes())
    assert puzzle.vias
    rules = Rules(cover_all=False)
    found = solve(puzzle, rules=rules, time_limit=30)
    assert found.status is Status.SOLVED and verify(puzzle, found.solution, rules) == []
    answer = path.with_name(path.name.replace("NL_Q", "T99_A"))
    if answer.exists():
        assert verify(puzzle, parse_solution(answer.read_bytes(), puzzle), rules) == []
