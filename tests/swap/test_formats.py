"""The native Swap text format: round trips, several levels per file, every parse error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlesat.errors import ParseError
from puzzlesat.swap import Level, format, format_all, parse, parse_all, parse_each, read

SPEC_EXAMPLE = """# comment
start
T1R B2G ### Q1Y
T3B T1R B1G Q2R
goal
R G # Y
B R G R
"""


def test_spec_example():
    level = parse(SPEC_EXAMPLE)
    assert (level.rows, level.cols, level.goal.kind) == (2, 4, "match")
    assert level.walls == frozenset({(0, 2)})
    assert str(level.square((1, 0))) == "T3B"
    assert level.comments == ("comment",)
    assert format(level) == SPEC_EXAMPLE


def test_metadata_round_trip():
    text = SPEC_EXAMPLE + "minimum 4\nsolution 0,0>1,1 1,3>0,3\n"
    level = parse(text)
    assert level.stated_minimum == 4
    assert [str(m) for m in level.stated_solution] == ["0,0>1,1", "1,3>0,3"]
    assert format(level) == text
    assert parse(format(level)) == level


def test_cluster_touch_and_keywords_case():
    level = parse("START\nT1R T1G\nGoal Cluster\n")
    assert level.goal.kind == "cluster"
    assert parse("start\nT1R T1R\ngoal touch").goal.kind == "touch"
    assert parse("start\nT1R T1G\ngoal match\nG R").goal.kind == "match"


def test_several_levels_with_and_without_separator(tmp_path):
    one = "start\nT1R T1G\ngoal\nG R\nminimum 1\n"
    two = "# second\nstart\n### T1R\nQ1G T1G\ngoal cluster\n"
    levels = parse_all(one + two)
    assert len(levels) == 2 and levels[1].comments == ("second",)
    assert parse_all(one + "---\n" + two) == levels
    path = tmp_path / "pack.swap"
    path.write_text(format_all(levels))
    again = read(path)
    assert again == levels and [lv.stated_minimum for lv in again] == [1, None]


def test_a_level_that_cannot_be_read_leaves_the_others_with_or_without_separators():
    """parse_each cuts a file at '---' lines and before each further 'start' line (separators
    are optional): a file of levels without them lost every level to one typo."""
    from puzzlesat.swap import parse_each

    text = "start\nT1R T1G\ngoal\nG R\nstart\nT1R X1G\ngoal\nG R\nminimum 1\n# third\nSTART\nT1R T1G T1R\ngoal cluster\n"
    items = parse_each(text, source="pack.swap")
    assert [type(item).__name__ for item in items] == ["Level", "ParseError", "Level"]
    assert items[1].line == 6 and "unknown figure 'X'" in str(items[1])
    assert items[2].goal.kind == "cluster" and items[2].name == "pack.swap#2"
    with pytest.raises(ParseError):  # one level: nothing else to keep
        parse_each("start\nT1R X1G\ngoal\nG R\n")


def test_goal_rows_may_start_with_a_wall_and_comments_inside_start():
    text = "start\n### T1R\n# a comment inside the start grid\nT1G T1R\ngoal\n# R\nG R\n"
    level = parse(text)
    assert level.goal.colours == ((None, "R"), ("G", "R"))


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("", None, None, "no swap level"),
        ("# only a comment\n", None, None, "no swap level"),
        ("start\nK1R T1G\ngoal cluster", 2, 1, "unknown figure 'K'"),
        ("start\nT0R T1G\ngoal cluster", 2, 1, "scope 0"),
        ("start\nT1R T12G\ngoal cluster", 2, 5, "scope 12 in .T12G. is above 9"),
        ("start\nT1R T1g\ngoal cluster", 2, 5, "unknown colour 'g'"),
        ("start\nT1R T1?\ngoal cluster", 2, 5, "unknown colour '?'"),
        ("start\nT1R # T1G\ngoal cluster", 2, 5, "written ###"),
        ("start\nTR T1G\ngoal cluster", 2, 1, "is not a square"),
        ("start\nT1R T1G\nT1R\ngoal cluster", 3, None, "ragged"),
        ("start\nT1R T1G\n", 3, None, "no 'goal' section"),
        ("start\nT1R T1G\nstart\n", 3, None, "no 'goal' section"),
        ("start\ngoal cluster", 2, None, "no rows"),
        ("T1R T1G\ngoal cluster", 1, 1, "begins with a line 'start'"),
        ("goal cluster", 1, None, "without a 'start'"),
        ("start\nT1R T1G\ngoal sorted", 3, 6, "unknown goal"),
        ("start\nT1R T1G\ngoal\nG R G", 4, 5, "goal row has 3 cells"),
        ("start\nT1R T1G\nT1G T1R T1R\ngoal cluster", 3, 9, "ragged"),
        ("start\nT1R ###\ngoal\nR G", 4, 3, "walls must match"),
        ("start\nT1R T1G\ngoal\n# R", 4, 1, "walls must match"),
        ("start\nT1R T1G\ngoal\nG G", 3, None, "colour counts differ.*G 1 in start, 2 in goal"),
        ("start\nT1R T1G\ngoal\nr g", 4, 1, "unknown colour 'r'"),
        ("start\nT1R T1G\nT1G T1R\ngoal\nG R\n", 6, None, "goal grid has 1 row"),
        ("start\nT1R T1G\nT1G T1R\ngoal\nG R\nminimum 2", 6, None, "goal grid has 1 row"),
        ("start\nT1R T1G\ngoal cluster\nminimum two", 4, 9, "whole number"),
        ("start\nT1R T1G\ngoal cluster\nsolution 0,0>0,1 0,0-0,1", 4, 18, "not written r1,c1>r2,c2"),
        ("start\nT1R T1G\ngoal cluster\nminimum 1\nminimum 2", 5, None, "second 'minimum'"),
        ("start\nT1R T1G\ngoal cluster\nhello", 4, 1, "unexpected 'hello' after the goal"),
        ("minimum 3\nstart\nT1R T1G\ngoal cluster", 1, None, "before any level"),
        ("start\n" + ("T1R " * 101 + "\n") * 100 + "goal cluster", 101, None, "absurdly large"),
        ("start\n" + "T1R " * 1001 + "\ngoal cluster", 2, None, "absurdly large .more than 1000 rows or columns"),  # 1,001 cells
        ("start\n" + "T1R\n" * 1001 + "goal cluster", 1002, None, "absurdly large .more than 1000 rows or columns"),
    ],
    ids=lambda value: value[:30].replace("\n", "|") if isinstance(value, str) else None,
)
def test_parse_errors_name_line_and_column(text, line, column, message):
    with pytest.raises(ParseError, match=message) as info:
        parse_all(text, source="x.swap")
    assert (info.value.line, info.value.column) == (line, column)
    assert info.value.source == "x.swap"


def test_parse_wants_exactly_one_level():
    with pytest.raises(ParseError, match="expected one level, found 2"):
        parse("start\nT1R\ngoal touch\nstart\nT1R\ngoal touch")


def test_read_missing_file(tmp_path):
    with pytest.raises(ParseError, match="cannot read"):
        read(tmp_path / "nope.swap")
    with pytest.raises(ParseError, match=r"cannot read file: Is a directory$"):  # (not "[Errno 21] ...: '/tmp/...'")
        read(tmp_path)


def test_text_is_read_as_the_other_families_read_it(tmp_path):
    """A UTF-16 file (a Windows editor's) and text keeping its byte order mark (a file opened
    as "utf-8") are read, as Numberlink and Roller read them; they were refused."""
    text = "start\nT1R T1G\ngoal\nG R\n"
    (tmp_path / "wide.swap").write_bytes(text.encode("utf-16"))
    assert [level.rows for level in read(tmp_path / "wide.swap")] == [1]
    assert parse("\ufeff" + text) == parse(text)
    assert [type(item).__name__ for item in parse_each("\ufeff" + text + "---\nstart\nX1R\ngoal\nR\n")] == ["Level", "ParseError"]


TOKENS = st.sampled_from(["start", "goal", "goal cluster", "goal touch", "T1R", "B2G", "Q9Y", "###", "#", "R", "G",
                          "minimum 2", "solution 0,0>0,1", "---", "T0R", "X1R", "r", "", "  ", "\t", "0,0>1,1"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(TOKENS, max_size=5).map(" ".join), max_size=12).map("\n".join) | st.text(max_size=80))
def test_fuzz_parse_all_raises_only_parse_error(text):
    try:
        levels = parse_all(text)
    except ParseError:
        return
    assert levels and all(isinstance(level, Level) for level in levels)
    assert parse_all(format_all(levels)) == levels
