"""The Roller CLI adapter: detection, JSON records, pass/fail, human output.

The solver is replaced by the small exact BFS of ``tests/roller/oracle.py`` (monkeypatched in),
so these tests check the adapter, not the solver; one test runs the real ``solve`` when present.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlesat import cli, roller
from puzzlesat.errors import ParseError
from puzzlesat.registry import detect_family
from puzzlesat.results import SolveResult, Status, stated_minimum_match
from puzzlesat.roller import records as roller_records
from puzzlesat.roller.show import picture
from puzzlesat.roller.sniff import sniff
from tests.roller.oracle import install_solver
from tests.support import TEST_DATA, shared_path

DATA = TEST_DATA / "roller"
RING = "# name: ring\n# par: 4\n#####\n#o..#\n#.#.#\n#...#\n#####\n"
STUCK = "#####\n#o..#\n##.##\n#...#\n#####\n"  # once down, the top row cannot be reached again



def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(out):
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


# -- detection ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        RING,
        "#o.\n...",
        "Level 1\n# note\n#####\n#o..#\n#####\n\n#o#\n",
        "..........\n.######.#.\n#..x###.#.\n",
        '<?xml version="1.0"?>\n<map width="2" height="1"><layer><data encoding="csv">1,1</data></layer></map>',
        '{"levels": [{"rows": ["#.#"], "start": [1, 0]}]}',
        "const levels = [\n  // one\n  [[1,1,1],[1,0,1],[1,1,1]]\n];",
        "1 1 1 1\n1 0 0 1\n1 1 1 1",
        "WWWW\nWGGW\nWWWW",
        "...##\n.o...\n\n↓解けない\no = スタート",
    ],
)
def test_roller_texts_are_recognised(text):
    assert sniff(text)
    assert detect_family(text).name == "roller"


@pytest.mark.parametrize(
    "text",
    [
        "A.B\n...\nA.B",
        "o.o\n...",  # a Numberlink pair labelled o
        "x..\n..x",
        "3 3\n1 0 2\n0 0 0\n1 0 2",
        "1 0 1\n0 0 0",  # label 1 twice: Numberlink tokens
        "#.#\n...",  # no start: not claimed
        "#o#\n\n...",  # a block without a start
        "",
        '{"puzzles": []}',
        "<svg/>",
    ],
)
def test_numberlink_and_other_texts_are_not_claimed(text):
    assert not sniff(text)


def test_no_numberlink_file_of_the_public_sets_is_claimed():
    folder = shared_path("numberlink")
    claimed = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.stat().st_size < 2_000_000 and path.suffix not in (".png", ".zip"):
            if sniff(path.read_text(encoding="utf-8", errors="replace")):
                claimed.append(path.name)
    assert claimed == []


def test_every_public_roller_level_file_is_recognised():
    folder = shared_path("roller")
    missed = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "solutions" not in path.parts and path.suffix != ".tsx" and path.name != "SOURCE.txt":
            if not sniff(path.read_text(encoding="utf-8")):
                missed.append(str(path.relative_to(folder)))
    assert missed == []


# -- records ------------------------------------------------------------------------------------
def test_solve_json_record(tmp_path, capsys, oracle):
    path = tmp_path / "ring.roller"
    path.write_text(RING)
    code, out, _ = run(capsys, "solve", str(path), "--json")
    (record,) = json_lines(out)
    assert code == 0
    assert record["family"] == "roller" and record["source"] == str(path) and record["index"] == 0
    assert record["status"] == "solved" and record["error"] is None
    assert sorted(record["moves"]) == sorted("RDLU") and len(record["moves"]) == 4 and record["answer"] == "".join(record["moves"])
    assert record["optimal"] is True and record["lower_bound"] == 4 and record["moves_count"] == 4
    assert record["objective"] == "fewest-moves" and record["unique"] is None and record["solved_by"] is None
    assert record["stated_minimum"] == 4 and record["stated_minimum_match"] == "equal" and record["stated_answer"] is None
    assert record["name"] == "ring" and record["start"] == [1, 1] and record["size"] == {"width": 5, "height": 5}
    assert not {"width", "height", "par", "par_match"} & set(record)
    assert isinstance(record["seconds"], float)


def test_unsolvable_level_is_an_answer_and_passes(tmp_path, capsys, oracle):
    path = tmp_path / "stuck.roller"
    path.write_text(STUCK)
    code, out, err = run(capsys, "verify", str(path), "--json")
    (record,) = json_lines(out)
    assert record["status"] == "unsolvable" and record["moves"] is None and record["answer"] is None and record["optimal"] is False
    assert record["reason"]
    assert code == 0 and "1 passed" in err


def test_par_worse_and_unknown_fail(monkeypatch, tmp_path, capsys):
    def slow(level, *, time_limit=None, method=None, work_limit=None):
        return SolveResult(Status.SOLVED, "RDLU", optimal=False, lower_bound=3, method="fake")

    install_solver(monkeypatch, slow)
    path = tmp_path / "ring.roller"
    path.write_text(RING.replace("par: 4", "par: 3"))
    code, out, _ = run(capsys, "verify", str(path), "--json")
    (record,) = json_lines(out)
    # a longer answer not proven minimal says nothing about the stated 3; the level still fails
    assert record["optimal"] is False and record["lower_bound"] == 3 and record["stated_minimum_match"] is None
    assert not roller_records.passed(record) and code == 1
    path.write_text(RING.replace("par: 4", "par: 2"))  # below the proven lower bound 3: refuted
    code, out, _ = run(capsys, "verify", str(path))
    assert "stated 2 is below the proven lower bound 3" in out and code == 1


def test_par_match_values():
    assert stated_minimum_match("solved", len("RDLU"), 4) == "equal"
    assert stated_minimum_match("solved", len("RDL"), 4) == "better"
    assert stated_minimum_match("solved", len("RDLUR"), 4) == "worse"
    assert stated_minimum_match("solved", len("RDLUR"), 4, optimal=False) is None
    assert stated_minimum_match("solved", len("RDLUR"), 4, optimal=False, lower_bound=5) == "worse"
    assert stated_minimum_match("unsolvable", None, 4) == "worse"
    assert stated_minimum_match("solved", len("RDLU"), None) is None
    assert stated_minimum_match("unknown", None, 4) is None


def test_invalid_answer_from_a_solver_is_an_error_record(monkeypatch, tmp_path, capsys):
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(Status.SOLVED, "R", optimal=True, lower_bound=1))
    path = tmp_path / "ring.roller"
    path.write_text(RING)
    code, out, _ = run(capsys, "solve", str(path), "--json")
    (record,) = json_lines(out)
    assert record["status"] == "error" and "fails the independent check: unpainted" in record["error"] and code == 1


def test_verify_the_licensed_samples(capsys, oracle):
    code, out, err = run(capsys, "verify", str(DATA), "--json")
    records = json_lines(out)
    assert [r["family"] for r in records] == ["roller"] * len(records)
    assert len(records) == 2 + 1 + 1 + 1  # herbou 2, joseleite19 easy and hard, nohtaray 1
    assert all(r["status"] == "solved" and r["optimal"] for r in records)
    assert code == 0 and f"{len(records)} passed" in err


def test_verify_starhermit_par_matches(capsys, oracle):
    path = shared_path("roller", "HypeDriven-starhermit-paint-maze", "data", "levels.json")
    code, out, _ = run(capsys, "verify", str(path), "--json")
    records = json_lines(out)
    assert len(records) == 60
    assert {r["stated_minimum_match"] for r in records} == {"equal"}
    assert all(r["stated_answer"]["valid"] and r["stated_answer"]["source"] is None for r in records)
    assert code == 0


def test_verify_fails_a_level_whose_stated_answer_is_invalid(tmp_path, capsys):
    path = tmp_path / "bad_answer.roller"
    path.write_text("# name: x\n# answer: L\n#####\n#o..#\n#####\n")
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and "its stated answer is not valid (no-move: move 1 (L) cannot leave (1, 1)" in out
    code, out, _ = run(capsys, "verify", str(path), "--json")
    stated = json_lines(out)[0]["stated_answer"]
    assert stated["valid"] is False and stated["violations"][0].startswith("no-move: move 1")


TMX = ('<?xml version="1.0"?>\n<map orientation="orthogonal" width="5" height="4">\n<layer width="5" height="4">\n'
       '<data encoding="csv">\n0,0,0,0,0,\n0,1,1,1,0,\n0,1,0,1,0,\n0,0,0,0,0\n</data>\n</layer>\n</map>\n')


def test_start_convention_option_for_tmx(tmp_path, capsys, oracle):
    path = tmp_path / "level.xml"
    path.write_text(TMX)
    _, out, _ = run(capsys, "solve", str(path), "--json")
    default = json_lines(out)[0]
    _, out, _ = run(capsys, "solve", str(path), "--json", "--start", "row-major")
    row_major = json_lines(out)[0]
    assert default["start"] == [2, 1] and default["start_rule"] == "bottom-left"
    assert row_major["start"] == [1, 1] and row_major["start_rule"] == "row-major"


def test_malformed_file_gives_an_error_line_not_a_traceback(tmp_path, capsys, oracle):
    path = tmp_path / "bad.roller"
    path.write_text("#####\n#o?.#\n#####\n")
    code, out, _ = run(capsys, "verify", str(path), "--json")
    (record,) = json_lines(out)
    assert record["status"] == "error" and f"{path}:2:3" in record["error"] and "unknown symbol" in record["error"]
    assert code == 1


def test_family_option_forces_roller(tmp_path, capsys, oracle):
    path = tmp_path / "level.txt"
    path.write_text("..\n.x")
    _, out, _ = run(capsys, "solve", str(path), "--json", "--family", "roller")
    assert json_lines(out)[0]["status"] == "solved"


# -- human output -------------------------------------------------------------------------------
def test_show_solve_draws_the_route_and_the_moves(tmp_path, capsys, oracle):
    path = tmp_path / "ring.roller"
    path.write_text(RING)
    code, out, _ = run(capsys, "solve", str(path))
    lines = out.splitlines()
    assert "solved in 4 moves, proven minimum" in lines[0] and "stated 4: equal" in lines[0]
    assert lines[1] == "# # # # #" and "o" in lines[2]
    assert lines[-1].startswith("moves: ") and len(lines[-1]) == len("moves: ") + 4
    assert "\x1b[" not in out  # no colours when not on a terminal


def test_picture_colours_on_a_terminal():
    from puzzlesat.roller import parse

    level = parse(RING)
    text = picture(level, "RDLU", colour=True)
    assert "\x1b[" in text and ">" in text and "v" in text


def test_show_verify_is_one_line_per_level(capsys, oracle):
    code, out, _ = run(capsys, "verify", str(DATA / "herbou-levels-1-2.js"))
    lines = out.splitlines()
    assert len(lines) == 3  # two levels and the summary
    assert "#1" in lines[1] and "proven minimum" in lines[0]


def test_real_solver_when_present(tmp_path, capsys):
    pytest.importorskip("puzzlesat.roller.solve")
    path = tmp_path / "ring.roller"
    path.write_text(RING)
    code, out, _ = run(capsys, "solve", str(path), "--json", "--time-limit", "20")
    (record,) = json_lines(out)
    assert record["status"] == "solved" and record["optimal"] is True and record["moves_count"] == 4


def test_examples_verify(capsys):
    """``puzzlesat verify examples/roller`` with the real solver: minima equal the stated pars."""
    pytest.importorskip("puzzlesat.roller.solve")
    from tests.support import ROOT

    folder = ROOT / "examples" / "roller"
    code, out, err = run(capsys, "verify", str(folder), "--json", "--time-limit", "30")
    records = json_lines(out)
    assert len(records) == 7
    assert {r["status"] for r in records} == {"solved", "unsolvable"}
    assert all(r["stated_minimum_match"] in ("equal", None) for r in records)
    assert code == 0


def test_render_draws_the_level_and_its_answer(tmp_path, capsys, oracle):
    ring = tmp_path / "ring.roller"
    ring.write_text(RING)
    stuck = tmp_path / "stuck.roller"
    stuck.write_text(STUCK)
    code, out, _ = run(capsys, "render", str(ring), "--solution", "-o", str(tmp_path / "ring.svg"))
    assert code == 0 and "wrote" in out
    svg = (tmp_path / "ring.svg").read_text()
    assert svg.count('class="move"') == 4 and "4 moves (proven minimum)" in svg
    code, _, err = run(capsys, "render", str(stuck), "--solution", "-o", str(tmp_path / "stuck.svg"))
    assert code == 1 and "unsolvable" in err and (tmp_path / "stuck.svg").exists()
    code, _, _ = run(capsys, "render", str(ring), "-o", str(tmp_path / "plain.svg"))
    assert code == 0 and 'class="move"' not in (tmp_path / "plain.svg").read_text()


def test_a_level_name_cannot_send_control_characters_to_the_terminal(tmp_path, capsys, oracle):
    path = tmp_path / "evil.roller"
    path.write_text("# name: x\x1b]0;title\x07\x1b[31mred\n" + RING.split("\n", 1)[1])
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and "\x1b" not in out and "\x07" not in out and "[x?]0;title??[31mred]" in out


def test_render_says_when_the_answer_drawn_is_not_proven_minimal(monkeypatch, tmp_path, capsys):
    # a time limit that ends the proof after an answer was found (e.g. --method dfs)
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(
        Status.SOLVED, "RDLUR", optimal=False, lower_bound=3, method="fake"))
    ring = tmp_path / "ring.roller"
    ring.write_text(RING)
    code, _, _ = run(capsys, "render", str(ring), "--solution", "-o", str(tmp_path / "ring.svg"))
    svg = (tmp_path / "ring.svg").read_text()
    assert code == 0 and "5 moves (not proven minimal)" in svg and "proven minimum" not in svg


def test_unknown_when_time_runs_out(monkeypatch, tmp_path, capsys):
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(Status.UNKNOWN, None, lower_bound=3, method="fake"))
    path = tmp_path / "ring.roller"
    path.write_text(RING)
    code, out, _ = run(capsys, "verify", str(path), "--json", "--time-limit", "0.01")
    (record,) = json_lines(out)
    assert (record["status"], record["moves"], record["optimal"], record["lower_bound"]) == ("unknown", None, False, 3)
    assert record["stated_minimum_match"] is None and not roller_records.passed(record) and code == 1
    code, out, _ = run(capsys, "verify", str(path))
    assert "unknown (time limit), lower bound 3" in out


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="#.oxWG01 \n[]{}<>\"=/levelsmap", max_size=60))
def test_sniff_never_fails_and_what_it_claims_parses_or_is_refused_clearly(text):
    from puzzlesat.errors import ParseError
    from puzzlesat.roller import parse_all

    if sniff(text):
        try:
            parse_all(text)
        except ParseError:
            pass


def test_tabtale_answer_files_are_refused_with_a_clear_message(tmp_path, capsys):
    path = tmp_path / "solution.txt"
    path.write_text("001.xml,0,1,3,2,4\n002.xml,0,3,1,4,2,3\n")
    assert sniff(path.read_text())
    code, out, _ = run(capsys, "verify", str(path), "--json")
    (record,) = json_lines(out)
    assert record["status"] == "error" and "TabTale answer file" in record["error"] and code == 1


TILESET = ('<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.2" name="40" tilewidth="40" tileheight="40" '
           'tilecount="2" columns="2">\n <image source="40.png" width="80" height="40"/>\n</tileset>\n')


def test_a_tiled_tileset_is_refused_as_not_a_level(tmp_path, capsys):
    """The ``.tsx`` beside TabTale's maps holds their tiles: named, or renamed ``.xml`` in a
    folder, it is said to be no level (it was read as a Numberlink grid: 'ragged rows')."""
    (tmp_path / "40.tsx").write_text(TILESET)
    (tmp_path / "levels").mkdir()
    (tmp_path / "levels" / "40.xml").write_text(TILESET)
    (tmp_path / "levels" / "001.tmx").write_text(BAR_TMX)
    code, out, _ = run(capsys, "solve", str(tmp_path / "40.tsx"))
    assert code == 1 and "40.tsx:1: a Tiled tileset" in out and "not a level" in out
    code, out, _ = run(capsys, "verify", str(tmp_path / "levels"))
    assert "40.xml: skipped: a Tiled tileset" in out and "001.tmx (5x3): solved in 1 move" in out and code == 0
    with pytest.raises(ParseError, match="a Tiled tileset"):
        roller.read(tmp_path / "40.tsx")


def tmx(rows: list[str]) -> str:
    """A TabTale level (Tiled TMX; ``#`` wall is 0, ``.`` floor is 1; the start is not stored)."""
    data = ",\n".join(",".join("0" if ch == "#" else "1" for ch in row) for row in rows)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map width="{len(rows[0])}" height="{len(rows)}">\n'
            f'<layer><data encoding="csv">\n{data}\n</data></layer>\n</map>\n')


RING_TMX = tmx(["######", "#....#", "#.##.#", "#.##.#", "#....#", "######"])  # bottom-left start (4, 1): 4 moves
BAR_TMX = tmx(["#####", "#...#", "#####"])  # start (1, 1): 1 move
SOLVER_LOG = ("[user@host src]$ python3 run.py --path ../data/all\nparsing: ../data/all\n"
              "=> 001.xml(4) level:l-0 algo:bfs\n001.xml(4) time:0 depth:4 solution:[b'R', b'U', b'L', b'D']\n"
              "001.xml,0,1,3,2,4\n")


def tabtale_set(folder):
    """A third-party set as published: levels, and beside them answers and a solver's log."""
    (folder / "data").mkdir()
    (folder / "data" / "001.xml").write_text(RING_TMX)
    (folder / "data" / "002.xml").write_text(BAR_TMX)
    (folder / "data" / "004.xml").write_text(BAR_TMX)
    (folder / "solutions").mkdir()
    (folder / "solutions" / "solution.txt").write_text("001.xml,0,1,3,2,4\n002.xml,0,1,2,1\n003.xml,0,1\n")
    (folder / "solutions" / "solution_dump.txt").write_text(SOLVER_LOG)
    return folder


def test_verify_of_a_folder_skips_answer_files_and_solver_logs(tmp_path, capsys, oracle):
    folder = tabtale_set(tmp_path)
    code, out, _ = run(capsys, "verify", str(folder))
    assert code == 0  # three levels pass; the two files that are not levels are no failures
    skipped = [line for line in out.splitlines() if ": skipped: " in line]
    assert [line.split(": skipped: ")[0] for line in skipped] == [str(folder / "solutions" / "solution.txt"),
                                                                    str(folder / "solutions" / "solution_dump.txt")]
    assert "a TabTale answer file (3 answers" in skipped[0] and "a solver log holding a TabTale answer file" in skipped[1]
    assert "--answers" in skipped[0]
    assert "3 puzzle(s) in 3 file(s): 3 solved; 3 passed, 0 failed" in out and "2 file(s) skipped" in out
    code, out, err = run(capsys, "verify", str(folder), "--json")
    records = json_lines(out)
    assert code == 0 and [r["status"] for r in records] == ["solved", "solved", "solved", "skipped", "skipped"]
    assert all(r["error"] is None and r["index"] is None and "not a level" in r["reason"] for r in records[3:])
    assert "2 file(s) skipped" in err


def test_an_answer_file_or_solver_log_named_on_its_own_is_still_an_error(tmp_path, capsys, oracle):
    folder = tabtale_set(tmp_path)
    code, out, _ = run(capsys, "verify", str(folder / "solutions" / "solution_dump.txt"), str(folder / "data" / "001.xml"))
    assert code == 1
    assert f"error: {folder / 'solutions' / 'solution_dump.txt'}:1: a solver log holding a TabTale answer file" in out
    assert "1 passed, 1 failed" in out


def test_verify_answers_checks_a_tabtale_answer_file_against_its_levels(tmp_path, capsys, oracle):
    folder = tabtale_set(tmp_path)
    table = str(folder / "solutions" / "solution.txt")
    code, out, err = run(capsys, "verify", str(folder / "data"), "--answers", table, "--json")
    by_name = {r["name"]: r for r in json_lines(out)}
    assert code == 1  # 002's stated answer is longer than its proven minimum
    assert by_name["001.xml"]["stated_answer"] == {"source": table, "valid": True, "violations": [], "same": False, "too_long": None}
    assert by_name["001.xml"]["stated_minimum"] == 4 and by_name["001.xml"]["stated_minimum_match"] == "equal"
    assert by_name["002.xml"]["stated_answer"]["source"] == table and by_name["002.xml"]["stated_minimum"] == 3  # RLR
    assert by_name["002.xml"]["stated_minimum_match"] == "better"
    assert by_name["004.xml"]["stated_answer"] is None and by_name["004.xml"]["stated_minimum"] is None
    assert "2 passed, 1 failed" in err
    assert "1 puzzle(s) with no stated answer, 1 answer(s) of solution.txt naming no puzzle checked" in err
    code, out, _ = run(capsys, "verify", str(folder / "data" / "002.xml"), "--answers", table)
    assert code == 1 and "stated 3 is not the minimum: proven minimum 1" in out
    # a solver's log holding a table serves as well; a walk of the whole set skips the other files
    code, out, _ = run(capsys, "verify", str(folder), "--answers", str(folder / "solutions" / "solution_dump.txt"))
    assert code == 0 and "1 file(s) skipped" in out and "3 passed, 0 failed" in out


def test_verify_answers_with_a_tabtale_file_refuses_other_families_and_bad_tables(tmp_path, capsys, oracle):
    folder = tabtale_set(tmp_path)
    puzzle = tmp_path / "p.nl"
    puzzle.write_text("A.A\n")
    code, out, _ = run(capsys, "verify", str(puzzle), "--answers", str(folder / "solutions" / "solution.txt"))
    assert code == 1 and "holds answers to roller levels, not to numberlink puzzles" in out
    bad = tmp_path / "bad.txt"
    bad.write_text("001.xml,0,1,3\n001.xml,0,1,4\n")
    code, _, err = run(capsys, "verify", str(folder / "data"), "--answers", str(bad))
    assert code == 2 and f"error: {bad}:2: a second, different answer for 001.xml (the first is on line 1)" in err


def test_the_eranheres_set_verifies_with_its_answer_files_skipped_or_checked(capsys):
    folder = shared_path("roller", "eranheres-amaze")
    code, out, _ = run(capsys, "verify", str(folder / "solutions"))
    assert code == 1  # no levels in there: nothing verified
    assert out.count(": skipped: ") == 3 and "0 puzzle(s) in 0 file(s): none read; 0 passed" in out and "3 file(s) skipped" in out
    levels = [str(folder / "data" / "all" / f"00{i}.xml") for i in range(1, 6)]
    code, out, _ = run(capsys, "verify", *levels, "--answers", str(folder / "solutions" / "solution.txt"), "--time-limit", "20")
    assert code == 0 and out.count("proven minimum; stated") == 5 and "5 passed, 0 failed" in out


def test_one_bad_level_of_a_level_set_is_one_error_record(tmp_path, capsys):
    good = {"id": "a", "rows": ["#####", "#...#", "#####"], "start": [1, 1]}
    bad = {"id": "b", "rows": ["#####", "#...#", "#####"], "start": [1, 1], "solution": "RX"}
    path = tmp_path / "levels.json"
    path.write_text(json.dumps({"levels": [good, bad, {**good, "id": "c"}]}))
    code, out, _ = run(capsys, "verify", str(path), "--json")
    records = json_lines(out)
    assert code == 1 and [(r["index"], r["status"]) for r in records] == [(0, "solved"), (1, "error"), (2, "solved")]
    assert "level 1 (b)" in records[1]["error"]
    native = tmp_path / "pack.roller"
    native.write_text("#####\n#o..#\n#####\n\n#####\n#...#\n#####\n\n####\n#o.#\n####\n")  # the second has no start
    code, out, _ = run(capsys, "verify", str(native), "--json")
    assert [(r["index"], r["status"]) for r in json_lines(out)] == [(0, "solved"), (1, "error"), (2, "solved")]


@pytest.mark.parametrize("fmt, text, bad_line", [
    ("joseleite19", "#####\n#x..#\n#####\n\n#####\n#...#\n#####\n\n####\n#x.#\n####\n", 5),  # the second has no start
    ("rollersplat", "WWWWW\nWGGGW\nWWWWW\n\nWWWWW\nWGGG\nWWWWW\n\nWWWW\nWGGW\nWWWW\n", 6),  # ragged
    ("herbou", "levels = [\n[[1,1,1,1],[1,0,0,1],[1,1,1,1]],\n[[1,1,1],[1,2,1],[1,1,1]],\n[[1,1,1,1,1],[1,0,0,0,1],[1,1,1,1,1]],\n];\n", 3),
])
def test_one_bad_level_of_a_grid_or_javascript_set_is_one_error_record(tmp_path, capsys, fmt, text, bad_line):
    path = tmp_path / "levels.txt"
    path.write_text(text)
    code, out, _ = run(capsys, "verify", str(path), "--json", "--format", fmt)
    records = json_lines(out)
    assert code == 1 and [(r["index"], r["status"]) for r in records] == [(0, "solved"), (1, "error"), (2, "solved")]
    assert records[1]["error"].startswith(f"{path}:{bad_line}")
    with pytest.raises(ParseError):
        roller.parse_all(text, fmt=fmt)


def test_a_stated_par_must_be_the_minimum_and_a_shipped_answer_no_longer_than_it(tmp_path, capsys):
    board = "#####\n#o..#\n#.#.#\n#...#\n#####\n"  # a ring: 4 moves paint it (RDLU)
    cases = {"exact.roller": ("4", "RDLU"), "loose.roller": ("5", None), "long.roller": ("4", "RDLUR")}
    for name, (par, answer) in cases.items():
        text = f"# par: {par}\n" + (f"# answer: {answer}\n" if answer else "") + board
        (tmp_path / name).write_text(text)
    code, out, _ = run(capsys, "verify", str(tmp_path), "--json")
    by_name = {r["source"].rsplit("/", 1)[1]: r for r in json_lines(out)}
    assert {name: roller_records.passed(r) for name, r in by_name.items()} == {"exact.roller": True, "loose.roller": False, "long.roller": False}
    assert by_name["loose.roller"]["stated_minimum_match"] == "better" and by_name["long.roller"]["stated_answer"]["too_long"] is True
    exact = by_name["exact.roller"]
    assert exact["stated_answer"] == {"source": None, "valid": True, "violations": [], "same": exact["answer"] == "RDLU", "too_long": False}
    code, out, _ = run(capsys, "verify", str(tmp_path / "loose.roller"), str(tmp_path / "long.roller"))
    assert "stated 5 is not the minimum: proven minimum 4" in out and "its stated answer has 5 moves, more than the par 4" in out


def test_verify_answers_with_a_folder_counts_the_levels_it_gave_no_answer(tmp_path, capsys, oracle):
    """A folder of TabTale answer files pairs with no level (it is paired by file name, as for
    Numberlink): the summary says no level had a stated answer; it said 0 levels had none."""
    folder = tabtale_set(tmp_path)
    code, out, _ = run(capsys, "verify", str(folder / "data"), "--answers", str(folder / "solutions"), "--json")
    assert [record["stated_answer"] for record in json_lines(out)] == [None, None, None]
    code, out, _ = run(capsys, "verify", str(folder / "data"), "--answers", str(folder / "solutions"))
    assert "3 puzzle(s) with no stated answer, 2 answer file(s) paired with no puzzle" in out


@pytest.mark.parametrize("table, message", [
    ("001.xml,0,1,3,9\n", "answer field 5 is '9', not a move digit 1-4"),
    ("001.xml,0,R,U\n", "answer field 3 is 'R', not a move digit 1-4"),
    ("001.xml,fast,1,3\n", "answer field 2 is 'fast', not the seconds the answer took"),
])
def test_verify_answers_names_the_bad_line_of_an_answer_file_with_no_good_line(tmp_path, capsys, oracle, table, message):
    """Read as a Numberlink answer file, it gave '--answers checks Numberlink answers; a roller
    level states its own answer in its file'."""
    folder = tabtale_set(tmp_path)
    bad = tmp_path / "answers.txt"
    bad.write_text(table)
    code, out, err = run(capsys, "verify", str(folder / "data"), "--answers", str(bad))
    assert code == 2 and f"error: {bad}:1: {message}" in err


def test_a_valid_shipped_answer_is_the_answer_when_the_search_runs_out(monkeypatch, capsys, tmp_path):
    """As Numberlink's and Swap's verify: a search stopped with no answer (or a longer one) takes
    the level's valid shipped answer ("solved_by": "stated answer"), which shows it solvable, and
    is the proven minimum when the proven lower bound reaches it; roller said "unknown"."""
    example = TEST_DATA.parent.parent / "examples" / "roller" / "small.roller"
    code, out, _ = run(capsys, "verify", str(example), "--time-limit", "0", "--json")
    (record,) = json_lines(out)
    assert code == 1 and record["status"] == "solved" and record["solved_by"] == "stated answer"
    assert record["answer"] == "LURLDLRD" and record["moves"] == list("LURLDLRD") and record["moves_count"] == 8
    assert record["optimal"] is False and record["stated_minimum_match"] == "equal" and record["stated_answer"]["same"] is True
    code, out, _ = run(capsys, "verify", str(example), "--time-limit", "0")
    assert "solved in 8 moves by the file's shipped answer (the search stopped at its time limit, with no shorter one)" in out
    broken = tmp_path / "broken.roller"
    broken.write_text(example.read_text().replace("# answer: LURLDLRD", "# answer: LURL"))
    code, out, _ = run(capsys, "verify", str(broken), "--time-limit", "0", "--json")
    (record,) = json_lines(out)
    assert record["status"] == "unknown" and record["solved_by"] is None and record["stated_answer"]["valid"] is False
    code, out, _ = run(capsys, "verify", str(example), "--json")
    (record,) = json_lines(out)
    assert record["optimal"] is True and record["solved_by"] is None  # proven by the search itself


def test_an_astar_search_stopped_by_its_memory_cap_does_not_say_time_limit(monkeypatch, capsys, tmp_path):
    """With no time limit, A* stops at its cap on stored states; that was reported as
    'unknown (time limit)'."""
    import functools

    from puzzlesat.roller import astar

    monkeypatch.setattr(astar, "solve_astar", functools.partial(astar.solve_astar, max_states=5))
    example = (TEST_DATA.parent.parent / "examples" / "roller" / "small.roller").read_text()
    path = tmp_path / "small.roller"  # the example without its shipped answer, which verify would take as the answer
    path.write_text("".join(line for line in example.splitlines(keepends=True) if not line.startswith("# answer:")))
    path = str(path)
    code, out, _ = run(capsys, "verify", path, "--method", "astar")
    assert code == 1 and "unknown (A* stopped at its memory cap, " in out and "time limit" not in out
    code, out, _ = run(capsys, "verify", path, "--method", "astar", "--json")
    (record,) = json_lines(out)
    assert record["status"] == "unknown" and record["reason"].startswith("A* stopped at its memory cap")
