"""Formats: every public level set parses with the right counts, round trips, clear errors."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlesat.errors import CannotExpress, NotAPuzzle, ParseError
from puzzlesat.roller import detect_format, format, format_all, parse, parse_all, parse_answers, read
from puzzlesat.roller.formats import FORMATS, parse_each
from puzzlesat.roller.model import START_RULES, Level, start_cell
from tests.roller.random_levels import random_level
from tests.support import TEST_DATA, shared_path

DATA = TEST_DATA / "roller"


# -- public level sets --------------------------------------------------------------------------
@pytest.mark.parametrize("convention", ["bottom-left", "row-major"])
def test_tabtale_official_levels_under_both_conventions(convention):
    folder = shared_path("roller", "eranheres-amaze", "data", "all")
    paths = sorted(folder.glob("*.xml"))
    levels = [level for path in paths for level in read(path, start=convention)]
    assert len(levels) == 170
    assert levels[0].name == "001.xml" and levels[0].start_rule == convention
    first = levels[0]
    assert first.size == (6, 6)
    assert first.start == ((4, 1) if convention == "bottom-left" else (1, 1))
    assert all(level.rows[0].count(".") == 0 for level in levels)  # a wall border on every official level


def test_tabtale_default_convention_is_bottom_left():
    path = shared_path("roller", "eranheres-amaze", "data", "all", "001.xml")
    assert read(path)[0] == read(path, start="bottom-left")[0]
    assert read(path)[0] != read(path, start="row-major")[0]


def test_tiled_flip_flags_are_masked():
    text = ('<map width="3" height="1"><layer width="3" height="1"><data encoding="csv">'
            "2684354561,0,3221225473</data></layer></map>")
    level = parse(text, start="row-major")
    assert level.rows == (".#.",)  # floor, wall, floor
    assert level.start == (0, 0)


def test_tmx_base64_zlib_and_tile_elements_read_like_csv():
    import base64
    import zlib

    gids = [0, 1, 1, 0, 2, 0]
    raw = b"".join(g.to_bytes(4, "little") for g in gids)
    csv = parse(f'<map width="3" height="2"><layer><data encoding="csv">{",".join(map(str, gids))}</data></layer></map>')
    b64 = parse(f'<map width="3" height="2"><layer><data encoding="base64">{base64.b64encode(raw).decode()}</data></layer></map>')
    zl = parse('<map width="3" height="2"><layer><data encoding="base64" compression="zlib">'
               f"{base64.b64encode(zlib.compress(raw)).decode()}</data></layer></map>")
    tiles = parse('<map width="3" height="2"><layer><data>' + "".join(f'<tile gid="{g}"/>' for g in gids) + "</data></layer></map>")
    assert csv == b64 == zl == tiles
    assert csv.rows == ("#..", "#.#") and csv.start == (1, 1)


def test_an_unknown_tmx_compression_is_named_as_such():
    """It was raised inside the decoding and wrapped again: 'cannot decode the base64 tile data:
    1: unsupported tile data compression ...'."""
    with pytest.raises(ParseError) as info:
        parse('<map width="1" height="1"><layer><data encoding="base64" compression="zstd">AQAAAA==</data></layer></map>')
    assert info.value.message == "unsupported tile data compression 'zstd' (use csv, base64, zlib or gzip)"
    assert info.value.line == 1


def test_a_negative_tmx_size_is_named_as_such():
    """width="-3" said 'empty level: the board has no cells'."""
    with pytest.raises(ParseError) as info:
        parse('<map width="-3" height="2"><layer><data encoding="csv">1,1,1</data></layer></map>')
    assert info.value.message == "board size -3x2 is negative" and info.value.line == 1


def test_uridanan_invalid_levels_parse():
    folder = shared_path("roller", "uridanan-Amaze", "levels")
    levels = [read(path)[0] for path in sorted(folder.glob("*.xml"))]
    assert [level.name for level in levels] == ["invalid001.xml", "invalid017.xml"]


def test_starhermit_levels_json():
    levels = read(shared_path("roller", "HypeDriven-starhermit-paint-maze", "data", "levels.json"))
    assert len(levels) == 60
    first = levels[0]
    assert (first.name, first.size, first.start, first.par, first.known_answer) == ("studio-1", (7, 3), (1, 1), 1, "R")
    fourth = levels[3]
    assert fourth.start == (4, 1)  # stored as [x, y] = [1, 4]
    assert len({level.name for level in levels}) == 60


def test_herbou_levels():
    levels = read(shared_path("roller", "herbou-RollerSplatGame_HTML", "js", "levels-data.js"))
    assert len(levels) == 30
    assert levels[0].start == (1, 1) and levels[0].start_rule == "row-major"
    assert min(level.width for level in levels) == 7 and max(level.width for level in levels) == 20


def test_herbou_sample_in_test_data():
    levels = read(DATA / "herbou-levels-1-2.js")
    assert [level.size for level in levels] == [(8, 8), (7, 7)]
    assert levels[1].start == (1, 1)


@pytest.mark.parametrize("line_end", ["\r\n", "\r"])
def test_json_and_javascript_levels_read_with_crlf_and_cr_line_ends(line_end):
    """A lone CR (old Mac editors) ended no line for the herbou reader, so its first // comment
    swallowed the file ('no JavaScript array found'), and starhermit errors all said line 1."""
    herbou = (DATA / "herbou-levels-1-2.js").read_text(encoding="utf-8")
    assert parse_all(herbou.replace("\n", line_end)) == parse_all(herbou)
    bad = "// levels\nconst levels = [\n[\n  [1,1,1],\n  [1,0,1],\n  [1,2,1]\n]\n];\n"
    with pytest.raises(ParseError) as lf:
        parse_all(bad, fmt="herbou")
    with pytest.raises(ParseError) as other:
        parse_all(bad.replace("\n", line_end), fmt="herbou")
    assert other.value.line == lf.value.line == 3 and "other than 0" in other.value.message
    star = json.dumps({"levels": [{"w": 3, "h": 3, "rows": ["###", "#.#", "###"], "start": [1, 1]},
                                  {"w": 3, "h": 3, "rows": ["###", "#x#", "###"], "start": [1, 1]}]}, indent=1)
    with pytest.raises(ParseError) as lf:
        parse_all(star, fmt="starhermit")
    with pytest.raises(ParseError) as other:
        parse_all(star.replace("\n", line_end), fmt="starhermit")
    assert other.value.line == lf.value.line > 1


def test_joseleite19_levels():
    folder = shared_path("roller", "joseleite19-roller-splat-generator")
    levels = {path.parent.name + "/" + path.name: read(path)[0] for path in sorted(folder.glob("*/*.txt"))}
    assert len(levels) == 15
    sizes = {name.split("/")[0]: level.size for name, level in levels.items()}
    assert sizes == {"easy": (10, 10), "medium": (20, 10), "hard": (30, 10)}
    assert read(DATA / "joseleite19-easy-1.txt")[0].start == (7, 3)
    assert detect_format((DATA / "joseleite19-hard-1.txt").read_text()) == "joseleite19"


def test_mazepaint_maps():
    folder = shared_path("roller", "YuuuuBin2k5-MazePaint", "src", "data")
    levels = [read(path)[0] for path in sorted(folder.rglob("map_*.txt"))]
    assert len(levels) == 8
    assert all(level.size == (20, 15) and level.start == (1, 1) for level in levels)
    assert all(level.start_rule == "fixed (1, 1)" for level in levels)


def test_rollersplat_levels_take_the_first_floor_cell():
    folder = shared_path("roller", "RLefrancoise-RollerSplat", "Assets", "Resources", "Levels")
    levels = [read(path)[0] for path in sorted(folder.glob("*.txt"))]
    assert len(levels) == 3
    assert levels[0].rows == ("#####", "#...#", "#.#.#", "#.#.#", "#...#", "#####")
    assert all(level.start == level.floor_cells[0] for level in levels)


def test_nohtaray_reads_the_first_grid_and_ignores_the_commentary():
    text = (DATA / "nohtaray-in.example.txt").read_text(encoding="utf-8")
    assert detect_format(text) == "nohtaray"
    (level,) = parse_all(text)
    assert level.rows == ("...##", "##.#.", ".#.#.", ".....", "####.")
    assert level.start == (3, 2)


# -- native format --------------------------------------------------------------------------------
def test_native_round_trip_keeps_metadata():
    level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"], name="ring", par=4, known_answer="RDLU")
    text = format(level)
    assert text.startswith("# name: ring\n# par: 4\n# answer: RDLU\n")
    again = parse(text)
    assert again == level
    assert (again.name, again.par, again.known_answer) == ("ring", 4, "RDLU")


def test_native_several_levels_with_titles_and_comments():
    text = "Level one\n# a comment\n###\n#o#\n###\n\n\n# name: two\n#o.\n"
    levels = parse_all(text)
    assert [level.name for level in levels] == ["Level one", "two"]
    assert parse_all(format_all(levels)) == levels

def test_native_levels_split_at_lines_of_spaces_and_of_nothing_alike():
    """A line of spaces or tabs ends a level as an empty line does, and line numbers in errors
    count both kinds (empty lines are skipped in bulk, lines of spaces one by one)."""
    text = "# name: a\n###\n#o#\n###\n  \t\n# name: b\n###\n#o#\n###\n\n\n \n# name: c\n###\n#o#\n###\n"
    assert [level.name for level in parse_all(text)] == ["a", "b", "c"]
    broken = text.replace("# name: c\n###\n#o#", "# name: c\n###\n#o?")
    items = parse_each(broken)
    assert [type(item).__name__ for item in items] == ["Level", "Level", "ParseError"]
    assert items[2].line == 15



def test_a_comment_block_before_the_first_level_is_not_a_level():
    """A file opening with a block of comments ('# my pack', a blank line, then the levels) was
    read as a level with no grid rows: an error, and the real levels numbered from #1."""
    text = "# my pack\n# by me\n\n# name: a\n####\n#o.#\n####\n\n# name: b\n###\n#o#\n###\n"
    assert [level.name for level in parse_all(text)] == ["a", "b"]
    assert [type(item).__name__ for item in parse_each(text)] == ["Level", "Level"]
    assert parse("# my pack\n\n####\n#o.#\n####", source="one.roller").name == "one.roller"


def test_native_short_rows_padded_with_walls():
    level = parse("#####\n#o..#\n#.#\n#####")
    assert level.rows == ("#####", "#...#", "#.###", "#####")


def test_every_public_level_round_trips_through_the_native_format():
    folder = shared_path("roller")
    paths = sorted(folder.glob("eranheres-amaze/data/all/*.xml"))[:40] + [folder / "HypeDriven-starhermit-paint-maze" / "data" / "levels.json"]
    for path in paths:
        for level in read(path):
            assert parse(format(level)) == level


def test_tmx_and_starhermit_writers_round_trip():
    folder = shared_path("roller")
    official = [read(path, start=rule)[0] for path in sorted(folder.glob("eranheres-amaze/data/all/*.xml"))[:30]
                for rule in ("bottom-left", "row-major")]
    for level, rule in zip(official, ["bottom-left", "row-major"] * 30):
        assert parse(format(level, fmt="tmx", start=rule), start=rule) == level
    stars = read(folder / "HypeDriven-starhermit-paint-maze" / "data" / "levels.json")
    again = parse_all(format_all(stars, fmt="starhermit"))
    assert again == stars
    assert [(a.name, a.par, a.known_answer) for a in again] == [(b.name, b.par, b.known_answer) for b in stars]


def test_writers_refuse_a_start_they_cannot_store():
    level = parse("#####\n#..o#\n#####")
    for fmt, rule in (("tmx", "bottom-left"), ("herbou", "row-major"), ("rollersplat", "row-major")):
        with pytest.raises(CannotExpress, match=f"the {fmt} format stores no start: read with the {rule} convention "
                                                r"it would start at \(1, 1\), not at the level's \(1, 3\)"):
            format(level, fmt=fmt)
    with pytest.raises(CannotExpress, match=r"the game starts at \(1, 1\), not at the level's \(1, 3\)"):
        format(level, fmt="mazepaint")
    with pytest.raises(ValueError, match="unknown roller format 'sokoban'"):
        format(level, fmt="sokoban")


def test_writers_name_a_par_or_answer_they_would_lose():
    level = parse("# par: 1\n# answer: R\n#####\n#o..#\n#####")
    for fmt in ("tmx", "joseleite19", "nohtaray", "herbou", "mazepaint", "rollersplat"):
        with pytest.raises(CannotExpress, match=rf"the {fmt} format stores no par or answer: its stated minimum \(par 1\) "
                                                r"and its shipped answer \(1 moves\) would be lost"):
            format(level, fmt=fmt)
        assert parse(format(level.without_stated(), fmt=fmt), fmt=fmt) == level
    for fmt in ("native", "starhermit"):
        again = parse(format(level, fmt=fmt), fmt=fmt)
        assert (again, again.par, again.known_answer) == (level, 1, "R")


def test_herbou_writer_refuses_floor_on_the_border():
    with pytest.raises(CannotExpress, match=r"walls the board's border: its floor cell \(0, 0\) on the border would be lost"):
        format(Level.from_rows(["o.", ".."]), fmt="herbou")


def _bordered(level: Level) -> Level:
    """The level inside a ring of wall."""
    wall = "#" * (level.width + 2)
    rows = (wall, *("#" + row + "#" for row in level.rows), wall)
    return Level(rows, (level.start[0] + 1, level.start[1] + 1))


def _holds(level: Level, fmt: str, rule: str | None) -> bool:
    """Whether ``fmt`` can hold ``level`` (read back with ``rule``), decided apart from the writers."""
    if fmt not in ("native", "starhermit") and (level.par is not None or level.known_answer is not None):
        return False
    implied = {"tmx": "bottom-left", "herbou": "row-major", "rollersplat": "row-major"}
    if fmt in implied and level.start != start_cell(list(level.rows), rule or implied[fmt]):
        return False
    if fmt == "mazepaint" and level.start != ((1, 1) if rule is None else start_cell(list(level.rows), rule)):
        return False
    border = {(r, c) for r, c in level.floor_cells if r in (0, level.height - 1) or c in (0, level.width - 1)}
    return not (fmt == "herbou" and border)


def _candidates(rng: random.Random) -> list[Level]:
    """Random levels, bordered or not, with their own start and with each start a format implies."""
    out = []
    for _ in range(25):
        for level in (random_level(rng), _bordered(random_level(rng))):
            starts = {level.start, *(start_cell(list(level.rows), rule) for rule in START_RULES)}
            if level.is_floor((1, 1)):
                starts.add((1, 1))
            out.extend(Level(level.rows, start) for start in sorted(starts))
    par = out[0]
    out.append(Level(par.rows, par.start, name="stated", par=7, known_answer="RD"))
    return out


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_round_trips_every_level_it_can_hold(fmt):
    """format(level, fmt=X) is read back by parse(..., fmt=X) as the same level (and, in the formats
    that hold them, the same name, par and answer); a level X cannot hold is CannotExpress."""
    rng = random.Random(f"round trip {fmt}")
    written = refused = 0
    for level in _candidates(rng):
        for rule in (None, *START_RULES):
            if not _holds(level, fmt, rule):
                with pytest.raises(CannotExpress):
                    format(level, fmt=fmt, start=rule)
                refused += 1
                continue
            again = parse(format(level, fmt=fmt, start=rule), fmt=fmt, start=rule)
            assert again == level, (fmt, rule, level)
            if fmt in ("native", "starhermit"):
                assert (again.par, again.known_answer) == (level.par, level.known_answer)
                assert again.name == level.name or (fmt == "starhermit" and not level.name)
            written += 1
    assert written >= 40 and (refused > 0 or fmt in ("native", "starhermit", "joseleite19", "nohtaray"))


@pytest.mark.parametrize("fmt", ["native", "starhermit", "joseleite19", "herbou", "rollersplat"])
def test_formats_of_several_levels_round_trip_a_set(fmt):
    rng = random.Random(5)
    levels = []
    while len(levels) < 6:
        level = _bordered(random_level(rng))
        level = level.with_start(start_cell(list(level.rows), "row-major"))  # what herbou and rollersplat imply
        levels.append(level)
    assert parse_all(format_all(levels, fmt=fmt), fmt=fmt) == levels


@pytest.mark.parametrize("fmt", ["tmx", "nohtaray", "mazepaint"])
def test_formats_of_one_level_refuse_several(fmt):
    level = Level.from_rows(["###", "#o#", "###"])
    with pytest.raises(CannotExpress, match=f"a {fmt} file holds one level, not 2"):
        format_all([level, level], fmt=fmt)


def test_native_writer_keeps_a_name_on_one_line():
    level = Level.from_rows(["o."], name="two\nlines")
    assert parse(format(level)).name == "two lines"


# -- errors ---------------------------------------------------------------------------------------
ERRORS = [
    # (text, fmt, start, expected line, expected column or None, words in the message)
    ("####\n#..#\n####", None, None, 1, None, "no start"),
    ("####\n#oo#\n####", None, None, 2, 3, "two starts"),
    ("######\n#o...\n######", None, None, 2, 6, "ragged"),
    ("####\n#o?#\n####", None, None, 2, 3, "unknown symbol '?'"),
    ("####\n#o #\n####", None, None, 2, 3, "unknown symbol a space"),
    ("", None, None, None, None, "empty input"),
    ("# name: x\n# note\n", None, None, 1, None, "empty level"),
    ("x.o", None, None, 1, 1, "no grid rows"),
    ("#o#\n# par: many\n", None, None, 2, None, "par must be a whole number"),  # the line of the par, not the grid's
    ("#o#\n# answer: RQ\n", None, None, 2, None, "answer"),
    ("# name: a\n# par: -3\n####\n#o.#\n####", None, None, 2, None, "zero or more"),
    ("# par: 1\n# answer: RQ\n####\n#o.#\n####", None, None, 2, None, "holds a letter other than"),
    (("#" * 2000 + "\n") * 600, None, None, 501, None, "absurd"),
    ('{"levels":[{"rows":["###","#.#","###"],"start":[0,0]}]}', None, None, 1, None, "wall"),
    ('{"levels": [\n {"rows": ["###", "#.#",\n "###"] "start": [1, 1]}]}', None, None, 3, 9, "malformed JSON"),
    ('{"levels": [\n {"rows": ["#.#"], "start": [1]}]}', None, None, 2, None, '"start" must be'),
    ('{"levels": [\n {"rows": ["#x#"], "start": [1, 0]}]}', None, None, 2, None, "holds 'x'"),
    ('{"levels": []}', None, None, 1, None, "empty"),
    ('<map width="3" height="3">\n<layer><data encoding="csv">0,0,0\n</layer></map>', None, None, 3, 3, "malformed XML"),
    ('<map width="3" height="3">\n<layer width="3" height="3">\n<data encoding="csv">0,0,0,\n0,1,0</data></layer></map>',
     None, None, 3, None, "holds 6 values, expected"),
    ('<map width="100000" height="100000"><layer><data encoding="csv">0</data></layer></map>', None, None, 1, None, "absurd"),
    ('<map width="2" height="1"><layer><data encoding="csv">0,0</data></layer></map>', None, None, 1, None, "no floor"),
    ('<map width="2" height="2"><layer>\n<data encoding="csv">\n0,0,\n0,a</data></layer></map>', None, None, 4, None, "'a'"),
    ('<map width="2" height="1"><layer>\n<data encoding="csv">1,-1</data></layer></map>', None, None, 2, None, "'-1' in the csv data is not a tile number"),
    ('<map width="2" height="1"><layer><data encoding="csv">1,4294967296</data></layer></map>', None, None, 1, None, "not a tile number"),
    ('<map width="2" height="1"><layer><data><tile gid="1"/><tile gid="-1"/></data></layer></map>', None, None, 1, None, "not a tile number"),
    ('<map width="2" height="2"></map>', None, None, 1, None, "no tile layer"),
    ('<svg width="2" height="2"></svg>', None, None, 1, None, "not a Tiled map"),
    ("1 1 1\n1 0 2\n1 1 1", None, None, 2, 5, "unknown value '2'"),
    ("1 1 1\n1 1 1\n1 0 1", None, None, 2, None, "fixed start"),
    ("1 1 1\n1 0\n1 1 1", None, None, 2, None, "ragged"),
    ("const levels = [\n[[1,1],\n[1,2]]\n];", None, None, 2, None, "0 (road) and 1 (wall)"),
    ("const levels = [\n[[1,1],\n[1 1]]\n];", None, None, 3, 4, "malformed JSON"),
    ("const levels = [\n[[1,1,1],\n[1,1]]\n];", None, None, 2, None, "ragged"),
    ("# par: 2\n####\n#o.#\n# par: 3\n####", None, None, 4, None, "a second '# par:' line for the same level (the first is line 1)"),
    ("# answer: R\n# answer: RL\n####\n#o.#\n####", None, None, 2, None, "a second '# answer:' line"),
    ("#o#", "sokoban", None, None, None, "unknown roller format"),
    ("#o#", None, "top-right", None, None, "start must be one of"),
    ("..\n..", "joseleite19", None, 1, None, "no start: the grid has no 'x'"),
]


@pytest.mark.parametrize("text, fmt, start, line, column, words", ERRORS, ids=[case[-1] for case in ERRORS])
def test_parse_errors_name_the_line_and_the_problem(text, fmt, start, line, column, words):
    with pytest.raises(ParseError) as info:
        parse_all(text, fmt=fmt, start=start, source="level.txt")
    error = info.value
    assert words in error.message
    assert error.line == line
    if column is not None:
        assert error.column == column
    assert str(error).startswith("level.txt")


def test_parse_wants_exactly_one_level():
    with pytest.raises(ParseError, match="expected one level, found 2"):
        parse("#o#\n\n#o#")


def test_reading_a_missing_file_is_a_parse_error(tmp_path):
    with pytest.raises(ParseError, match="cannot read"):
        read(tmp_path / "absent.roller")


def test_answer_file_errors_name_the_line():
    assert parse_answers("a.xml,0\n") == {"a.xml": ""}
    with pytest.raises(ParseError) as info:
        parse_answers("a.xml,0,1,2\nb.xml,0,1,7\n")
    assert info.value.line == 2


def test_answer_lines_are_read_out_of_a_solver_log_and_other_lines_skipped():
    log = ("[user@host src]$ python3 run.py\nparsing: ../data/all\n=> 001.xml(4) level:l-0\n"
           "001.xml(4) time:0 depth:4 solution:[b'R', b'U', b'L', b'D']\n# a comment, 9.xml,0,1\n"
           "001.xml,0,1,3,2,4\n109 dan.xml,12.5,4\n")
    assert parse_answers(log) == {"001.xml": "RULD", "109 dan.xml": "D"}
    assert parse_answers("001.xml,0,1\n001.xml,3,1\n") == {"001.xml": "R"}  # the same answer twice


def test_an_answer_file_read_as_levels_is_said_to_be_one(tmp_path):
    """roller.read of TabTale's solution.txt says what it is, as the command line does (it was
    '1:1: no grid rows: this line starts with '0', not a native grid symbol')."""
    path = tmp_path / "solution.txt"
    path.write_text("001.xml,0,1,3\n002.xml,0,4\n")
    for call in (lambda: read(path), lambda: parse_each(path.read_text()), lambda: parse(path.read_text())):
        with pytest.raises(NotAPuzzle, match=r"a TabTale answer file \(2 answers\), not a level: read it with read_answers"):
            call()
    with pytest.raises(ParseError, match="no grid rows"):  # a format named is read as that format
        parse_all(path.read_text(), fmt="native")


@pytest.mark.parametrize("text, line, message", [
    ("001.xml,0,1\n001.xml,0,2\n", 2, "a second, different answer for 001.xml (the first is on line 1)"),
    ("001.xml,fast,1\n", 1, "answer field 2 is 'fast', not the seconds"),
    ("just a log\nno answers here\n", None, "no TabTale answer line"),
])
def test_answer_file_faults_are_named(text, line, message):
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse_answers(text)
    assert info.value.line == line


def test_detection():
    assert detect_format("<?xml version='1.0'?><map/>") == "tmx"
    assert detect_format('{"levels": []}') == "starhermit"
    assert detect_format("const levels = [[[1]]];") == "herbou"
    assert detect_format("0 1\n1 0") == "mazepaint"
    assert detect_format("WWW\nWGW\nWWW") == "rollersplat"
    assert detect_format("#x.\n...") == "joseleite19"
    assert detect_format("#o.\n...\n\n#o.") == "native"
    assert detect_format("#o.\n...\n\nこれは解説\no = start") == "nohtaray"


def test_levels_titled_with_an_equals_sign_or_accents_are_all_read():
    """Such titles were taken for nohtaray's commentary: only the first level was read."""
    text = "Stage 1\n#####\n#o..#\n#####\n\nStage 2 = hard\n#####\n#o.##\n#####\n\nNiveau 3 – été\n####\n#o.#\n####\n"
    assert detect_format(text) == "native"
    assert [level.name for level in parse_all(text)] == ["Stage 1", "Stage 2 = hard", "Niveau 3 – été"]


# -- fuzz -----------------------------------------------------------------------------------------
FUZZ_ALPHABET = "#.ox \n\t01WG,[]{}<>\"=:/aé"


def _check_levels(levels):
    assert levels and all(isinstance(level, Level) for level in levels)
    for level in levels:
        assert level.is_floor(level.start)
        assert parse(format(level)) == level


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=FUZZ_ALPHABET, max_size=80))
def test_random_text_gives_levels_or_a_parse_error(text):
    _check_each(text)
    try:
        levels = parse_all(text)
    except ParseError:
        return
    _check_levels(levels)


def _check_each(text, fmt=None):
    """parse_each: a clean error for the whole input, or one item per level, each a level or a
    clean error; the same levels as parse_all whenever that succeeds."""
    try:
        items = parse_each(text, fmt=fmt)
    except ParseError:
        return
    assert items and all(isinstance(item, (Level, ParseError)) for item in items)
    if all(isinstance(item, Level) for item in items):
        assert items == parse_all(text, fmt=fmt)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="#.o", min_size=1, max_size=9), min_size=1, max_size=7))
def test_random_grids_give_levels_or_a_parse_error(rows):
    _check_each("\n\n".join(rows))
    try:
        levels = parse_all("\n".join(rows))
    except ParseError:
        return
    _check_levels(levels)


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2, 3) | st.text("#.o", max_size=4),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["levels", "rows", "start", "par", "solution", "w"]), inner, max_size=4),
                    max_leaves=12))
def test_random_json_gives_levels_or_a_parse_error(value):
    _check_each(json.dumps({"levels": [value, value]} if not isinstance(value, dict) else value), fmt="starhermit")
    try:
        levels = parse_all(json.dumps({"levels": [value]} if not isinstance(value, dict) else value), fmt="starhermit")
    except ParseError:
        return
    _check_levels(levels)


def nohtaray_commentary_levels():
    """The example boards in nohtaray's commentary, each titled by its annotation (read as
    native blocks: the title line before a grid becomes the level's name)."""
    import re

    text = (DATA / "nohtaray-in.example.txt").read_text(encoding="utf-8")
    levels = []
    for block in re.split(r"\n\s*\n", re.split(r"\n\s*\n", text, maxsplit=1)[1]):
        try:
            levels.extend(parse_all(block, fmt="native"))
        except ParseError:
            continue  # the legend, and the board without a start
    return levels


def test_nohtaray_commentary_examples_match_their_annotations():
    from tests.roller.oracle import bfs_min_moves

    levels = nohtaray_commentary_levels()
    assert len(levels) == 6
    for level in levels:
        unsolvable = "解けない" in level.name  # "cannot be solved"
        assert (bfs_min_moves(level) is None) == unsolvable, level.name
