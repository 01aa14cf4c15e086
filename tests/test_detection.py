"""Content detection that does not guess wrong (#45): a text with no family ending goes to a
family only when it matches that family's grammar without doubt; otherwise the ParseError
names every family tried and why each refused."""

from __future__ import annotations

import pytest

from puzzlesat.errors import ParseError
from puzzlesat.registry import detect_family, families, get_family

URL = "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"

CLAIMED = {
    "numberlink grid": ("A.B\nA.B\n", "numberlink"),
    "numberlink thomasahle": ("3 2\nA.A\nB.B\n", "numberlink"),
    "numberlink adc": ("SIZE 3X2\nLINE_NUM 1\nLINE#1 (0,0)-(2,0)\n", "numberlink"),
    "numberlink url": (URL + "\n", "numberlink"),
    "numberlink layers": ("layer 1\nA .\nA .\n\nlayer 2\n. .\n. .\n", "numberlink"),
    "roller grid": ("#####\n#o..#\n#####\n", "roller"),
    "roller titled grid": ("Level 1\n#####\n#o..#\n#####\n", "roller"),
    "roller tmx": ('<map width="3" height="1"><layer><data encoding="csv">1,1,1</data></layer></map>', "roller"),
    "swap": ("start\nT1R T1G\ngoal\nG R\n", "swap"),
}

# text -> what each family's refusal must say (a piece of it)
REFUSED = {
    "numberlink grid over a roller row": ("A.A\nx..\n", {"numberlink": "label 'x' occurs once", "roller": "not a Roller grid"}),
    "roller without its ball": ("#####\n#...#\n#####\n", {"roller": "exactly one ball", "numberlink": "no labels"}),
    "roller with two balls": ("#####\n#o.o#\n#####\n", {"roller": "2 o", "numberlink": "Roller level"}),
    "roller with a stray symbol": ("#####\n#o.$#\n#####\n", {"roller": "not a Roller grid", "numberlink": "label"}),
    "swap without its goal": ("start\nT1R T1G\n", {"swap": "no 'goal' line", "numberlink": "Swap level"}),
    "swap without its start": ("T1R T1G\ngoal\nG R\n", {"swap": "no 'start' line", "numberlink": "Swap level"}),
    "empty": ("\n\n", {"numberlink": "empty", "roller": "empty"}),
}


@pytest.mark.parametrize("case", sorted(CLAIMED))
def test_each_family_claims_its_own_text_and_reads_it(case) -> None:
    text, name = CLAIMED[case]
    family = detect_family(text, "puzzle.txt")
    assert family.name == name
    loaded = family.load(text, source="puzzle.txt", fmt=None, options=family.defaults())
    assert loaded and not any(isinstance(item, ParseError) for item in loaded)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_text_no_family_reads_names_every_family_and_its_reason(case) -> None:
    text, said = REFUSED[case]
    with pytest.raises(ParseError) as caught:
        detect_family(text, "u.txt")
    message = caught.value.message
    assert caught.value.source == "u.txt"
    assert "no family reads this text" in message
    for family in families():
        assert f"{family.name}: " in message
    for name, piece in said.items():
        reason = message.split(f"{name}: ", 1)[1].split("; ")[0]
        assert piece in reason, (name, reason)


def test_a_numberlink_grid_with_a_roller_row_is_not_solved_as_roller() -> None:
    roller = get_family("roller")
    assert not roller.sniff("A.A\nx..\n")
    # as before, --family roller still reads it (a title, then a level): only guessing changed
    assert roller.load("A.A\nx..\n", source="u.txt", fmt=None, options=roller.defaults())


def test_a_url_and_a_stray_line_is_not_a_roller_level() -> None:
    for stray in ("x", "o", "x..", "#o#"):
        text = f"{URL}\n{stray}\n"
        assert not get_family("roller").sniff(text)
        family = detect_family(text, "u.txt")
        assert family.name == "numberlink"
        items = family.load(text, source="u.txt", fmt=None, options=family.defaults())
        assert [type(item).__name__ for item in items] == ["Puzzle", "ParseError"]
        assert items[1].line == 2


def test_a_file_ending_still_decides_before_content() -> None:
    assert detect_family("A.A\nx..\n", "u.roller").name == "roller"
    assert detect_family("#####\n#o.o#\n#####\n", "u.nl").name == "numberlink"


def test_every_family_says_why_it_refuses() -> None:
    for family in families():
        assert family.refusal is not None
        assert family.refusal("\x00\x01 nonsense ~~~") and not family.sniff("\x00\x01 nonsense ~~~")


def test_a_huge_numberlink_text_is_claimed_by_its_format_without_a_second_parse() -> None:
    from puzzlesat.numberlink.family import SNIFF_PARSE_CHARS

    lines = ["SIZE 1000X1000", "LINE_NUM 1", "LINE#1 (0,0)-(999,999)"] + ["# padding line"] * (SNIFF_PARSE_CHARS // 14)
    text = "\n".join(lines) + "\n"
    assert len(text) > SNIFF_PARSE_CHARS
    assert detect_family(text, "big.txt").name == "numberlink"
