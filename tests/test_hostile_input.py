"""Absurd pieces of input in every family's readers: a token of 100,000 characters gives an error
message of normal length that still names the line, and a number of 5,000 digits (past the
4,300 that Python's ``int`` converts) gives a clean ParseError, never a bare ValueError."""

from __future__ import annotations

import pytest

from puzzlesat import numberlink, roller, swap
from puzzlesat.errors import ParseError, quoted
from puzzlesat.numberlink import multilayer

BIG = "Z" * 100_000
DIGITS = "9" * 5_000
MESSAGE_MAX = 300

TMX = ('<?xml version="1.0"?>\n<map orientation="orthogonal" width="3" height="3" tilewidth="1" tileheight="1">\n'
       '<layer name="a" width="LW" height="3"><data encoding="csv">1,1,1,1,GID,1,1,1,1</data></layer></map>\n')

LONG_TOKENS = {
    "numberlink label": (numberlink.parse, f"{BIG} .\n. .\n", 1),
    "numberlink URL tail": (numberlink.parse, "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3" + BIG, 1),
    "multilayer label": (multilayer.parse, f"layer 1\nA {BIG}\n. .\nlayer 2\nA .\n. .\n", 2),
    "roller answer": (roller.parse, f"# answer: R{BIG}\n#####\n#o..#\n#####\n", 1),
    "roller par": (roller.parse, f"# par: {BIG}\n#####\n#o..#\n#####\n", 1),
    "roller json solution": (roller.parse, '{"levels": [{"id": 1, "rows": ["#####", "#...#", "#####"], '
                                           '"start": [1,1], "solution": "' + BIG + '"}]}', 1),
    "roller json start": (roller.parse, '{"levels": [{"id": 1, "rows": ["#####", "#...#", "#####"], '
                                        '"start": ["' + BIG + '", 1]}]}', 1),
    "roller json id": (roller.parse, '{"levels": [{"id": "' + BIG + '", "rows": ["#####", "#...#", "#####"], '
                                     '"start": [1, "a"]}]}', 1),
    "roller mazepaint": (lambda text: roller.parse(text, fmt="mazepaint"), f"1 1 1\n1 0 {BIG}\n1 1 1\n", 2),
    "swap square": (swap.parse, f"start\nT1R {BIG}\ngoal\nR R\n", 2),
    "swap goal colour": (swap.parse, f"start\nT1R T1G\ngoal\nR {BIG}\n", 4),
    "swap goal kind": (swap.parse, f"start\nT1R T1G\ngoal {BIG}\n", 3),
    "swap move": (swap.parse, f"start\nT1R T1G\ngoal\nG R\nsolution {BIG}\n", 5),
    "swap first line": (swap.parse, f"{BIG}\nstart\nT1R T1G\n", 1),
    "swap line after the goal": (swap.parse, f"start\nT1R T1G\ngoal\nG R\n{BIG}\n", 5),
}


@pytest.mark.parametrize("case", sorted(LONG_TOKENS))
def test_a_huge_token_gives_a_short_message_that_names_its_line(case) -> None:
    parse, text, line = LONG_TOKENS[case]
    with pytest.raises(ParseError) as caught:
        parse(text)
    message = str(caught.value)
    assert len(message) <= MESSAGE_MAX, message[:MESSAGE_MAX]
    assert caught.value.line == line
    assert "characters" in message  # the piece is cut short and its length said


HUGE_NUMBERS = {
    "swap scope": (swap.parse, f"start\nT{DIGITS}R T1G\ngoal\nG R\n", "is above"),
    "swap scope after zeros": (swap.parse, f"start\nT000{DIGITS}R T1G\ngoal\nG R\n", "is above"),
    "swap move row": (swap.parse, f"start\nT1R T1G\ngoal\nG R\nsolution {DIGITS},0>0,1\n", "past any board"),
    "roller tmx layer width": (lambda text: roller.parse(text, fmt="tmx"),
                               TMX.replace("LW", DIGITS).replace("GID", "0"), "not a whole number"),
    "roller tmx gid": (lambda text: roller.parse(text, fmt="tmx"),
                       TMX.replace("LW", "3").replace("GID", DIGITS), "not a tile number"),
    "roller herbou value": (lambda text: roller.parse(text, fmt="herbou"),
                            "const levels = [[[1,1,1],[1,0," + DIGITS + "],[1,1,1]]];", "holds a value"),
    "roller starhermit par": (roller.parse, '{"levels": [{"id": 1, "rows": ["#####", "#...#", "#####"], '
                                            '"start": [1,1], "par": ' + DIGITS + '}]}', '"par" must be'),
}


@pytest.mark.parametrize("case", sorted(HUGE_NUMBERS))
def test_a_number_too_long_for_int_is_a_parse_error(case) -> None:
    parse, text, words = HUGE_NUMBERS[case]
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert words in str(caught.value)
    assert len(str(caught.value)) <= MESSAGE_MAX


def test_tmx_layer_sizes_that_are_no_numbers_are_named() -> None:
    """'²' passes str.isdigit but not int(); the layer's size was read only when it was digits."""
    with pytest.raises(ParseError, match=r"<layer> attribute width='²' is not a whole number"):
        roller.parse(TMX.replace("LW", "²").replace("GID", "0"), fmt="tmx")
    assert roller.parse(TMX.replace("LW", "3").replace("GID", "0"), fmt="tmx").width == 3


def test_adc_writer_refuses_a_label_too_long_to_be_a_line_number() -> None:
    puzzle = multilayer.parse(f"SIZE 2X2X2\nLINE_NUM 1\nLINE#{DIGITS} (0,0,1)-(1,1,2)\n")
    with pytest.raises(ValueError, match="at most 18 digits") as caught:
        multilayer.format(puzzle, fmt="adc")
    assert len(str(caught.value)) <= MESSAGE_MAX


def test_quoted_keeps_short_pieces_whole() -> None:
    assert quoted("T1X") == "'T1X'"
    assert quoted("x" * 40) == repr("x" * 40)
    assert quoted("x" * 41).endswith("... (41 characters)")


def test_leading_zeros_do_not_make_a_number_long() -> None:
    level = swap.parse(f"start\nT{'0' * 5000}1R T1G\ngoal\nG R\nsolution {'0' * 5000},0>0,1\n")
    assert level.start[0][0].scope == 1
    assert (level.stated_solution[0].source, level.stated_solution[0].target) == ((0, 0), (0, 1))


def test_an_adc_answer_with_a_huge_line_number_gives_a_short_message() -> None:
    puzzle = numberlink.parse("SIZE 2X1\nLINE_NUM 1\nLINE#1 (0,0)-(1,0)\n")
    with pytest.raises(ParseError, match=r"line number '9{40}'\.\.\. \(5000 characters\) is not a LINE") as caught:
        numberlink.parse_solution(f"SIZE 2X1\n{DIGITS},01\n", puzzle)
    assert len(str(caught.value)) <= MESSAGE_MAX
