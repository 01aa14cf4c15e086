"""A fourth family added through the registry alone (tests/toy_family.py) gets every command:
solve, verify, generate, convert and render run on it from the command line, and its records
follow the schema. Nothing in puzzlesat names it."""

from __future__ import annotations

import json

import pytest

from puzzlesat import registry
from puzzlesat.cli import main

from .schema import assert_valid
from .toy_family import FAMILY


@pytest.fixture(autouse=True)
def toy_registered():
    registry.register(FAMILY)
    yield
    registry.unregister(FAMILY.name)


def records(out: str) -> list[dict]:
    found = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    for record in found:
        assert_valid(record)
    return found


def test_the_toy_is_a_family_and_found_by_its_ending_and_content():
    assert FAMILY in registry.families()
    assert registry.family_for_path("rows.parity") is FAMILY
    assert registry.detect_family("# parity\n0110\n") is FAMILY
    assert registry.family_for_format("dots") is FAMILY


def test_solve_from_the_command_line(tmp_path, capsys):
    rows = tmp_path / "rows.parity"
    rows.write_text("# parity\n0110\n1001\n100\n")
    code = main(["solve", str(rows), "--json"])
    found = records(capsys.readouterr().out)
    assert code == 1  # the odd row is unsolvable
    assert [r["status"] for r in found] == ["solved", "solved", "unsolvable"]
    assert found[0]["moves"] == ["1"] and found[0]["optimal"] is True and found[0]["family"] == "parity"
    assert found[1]["moves_count"] == 3
    assert main(["solve", str(rows), "--index", "1", "--wrap", "--json"]) == 0
    (wrapped,) = records(capsys.readouterr().out)
    assert wrapped["moves"] == ["3"] and wrapped["rules"] == "wrap"


def test_solve_prints_for_a_person_with_the_generic_head(tmp_path, capsys):
    rows = tmp_path / "rows.parity"
    rows.write_text("# parity\n0110\n")
    assert main(["solve", str(rows)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{rows} (4x1): solved in 1 moves, proven minimum")


def test_methods_and_formats_come_from_the_record(tmp_path, capsys):
    rows = tmp_path / "rows.txt"
    rows.write_text("..##\n")
    assert main(["solve", str(rows), "--family", "parity", "--format", "dots", "--method", "sweep", "--json"]) == 0
    (record,) = records(capsys.readouterr().out)
    assert record["method"] == "sweep" and record["optimal"] is False
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(rows), "--method", "nonsense"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "unknown method 'nonsense'" in err and "parity: bfs, sweep" in err


def test_verify_with_a_stated_answer_file(tmp_path, capsys):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "Q01.parity").write_text("# parity\n0110\n")
    (folder / "Q02.parity").write_text("# parity\n1100\n")
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "A01.parity").write_text("1\n")
    (answers / "A02.parity").write_text("1\n")  # wrong: move 0 clears 1100
    code = main(["verify", str(folder), "--answers", str(answers), "--json"])
    captured = capsys.readouterr()
    found = {r["source"].rsplit("/", 1)[-1]: r for r in records(captured.out)}
    assert code == 1
    assert found["Q01.parity"]["stated_answer"]["valid"] is True
    assert found["Q02.parity"]["stated_answer"]["valid"] is False
    assert "2 puzzle(s) in 2 file(s)" in captured.err and "1 passed, 1 failed" in captured.err


def test_error_records_name_file_and_line(tmp_path, capsys):
    rows = tmp_path / "bad.parity"
    rows.write_text("0110\n01x0\n")
    assert main(["verify", str(rows), "--json"]) == 1
    found = records(capsys.readouterr().out)
    assert [r["status"] for r in found] == ["solved", "error"]
    assert found[1]["error"].startswith(f"{rows}:2:")
    assert main(["verify", str(rows)]) == 1
    assert f"error: {rows}:2: a row of 0 and 1" in capsys.readouterr().out


def test_generate_from_the_command_line(tmp_path, capsys):
    pack = tmp_path / "pack.parity"
    assert main(["generate", "parity", "--size", "6x1", "--count", "3", "--seed", "4", "--out", str(pack)]) == 0
    capsys.readouterr()
    assert main(["verify", str(pack), "--json"]) == 0
    assert len(records(capsys.readouterr().out)) == 3
    assert main(["generate", "parity", "--size", "6x1", "--count", "2", "--ones", "2", "--json"]) == 0
    found = records(capsys.readouterr().out)
    assert [r["status"] for r in found] == ["generated", "generated"]
    assert all(r["puzzle"].count("1") == 2 for r in found)


def test_convert_from_the_command_line(tmp_path, capsys):
    rows = tmp_path / "rows.parity"
    rows.write_text("# parity\n0110\n10010\n")
    out = tmp_path / "rows.dots"
    assert main(["convert", str(rows), "-o", str(out), "--to", "dots"]) == 0
    assert out.read_text() == ".##.\n\n#..#.\n"
    assert main(["convert", str(out), "--family", "parity", "-o", "-", "--to", "native", "--index", "1"]) == 0
    assert capsys.readouterr().out == "# parity\n10010\n"
    assert main(["convert", str(rows), "-o", "-", "--to", "hex", "--index", "0"]) == 0
    assert capsys.readouterr().out == "0x6\n"
    long_row = tmp_path / "long.parity"
    long_row.write_text("# parity\n0110011001\n")
    assert main(["convert", str(long_row), "-o", str(tmp_path / "x"), "--to", "byte"]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "2 would be lost" in err
    assert main(["convert", str(rows), "-o", "-", "--to", "svg"]) == 2
    assert "parity writes native, dots, byte" in capsys.readouterr().err


def test_render_from_the_command_line(tmp_path, capsys):
    rows = tmp_path / "rows.parity"
    rows.write_text("# parity\n0110\n")
    picture = tmp_path / "rows.svg"
    assert main(["render", str(rows), "--solution", "-o", str(picture)]) == 0
    svg = picture.read_text()
    assert svg.count('class="cell"') == 4 and svg.count('class="move"') == 1
    assert "rows.parity  (4x1), 1 move (proven minimum)" in svg
    odd = tmp_path / "odd.parity"
    odd.write_text("# parity\n100\n")
    assert main(["render", str(odd), "--solution", "-o", str(picture)]) == 1
    assert "no answer drawn: unsolvable" in capsys.readouterr().err


def test_the_toy_family_passes_the_contract():
    from .test_family_contract import record_problems

    assert record_problems(FAMILY) == []
