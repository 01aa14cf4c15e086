"""``puzzlesat verify FOLDER`` on Numberlink sets that ship answers beside their puzzles in forms
other than ADC answer files: a drawn answer grid (mzucker's ``hints/``) and a solver's output
(imos' ``sample_output``) are skipped and said so, not errors that fail the folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlesat.cli import main
from puzzlesat.errors import NotAPuzzle, ParseError
from puzzlesat.numberlink import parse

from tests.support import shared_path

PUZZLE = "...B\n.A..\n..BA\n"
DRAWN = "BBBB\nBAAA\nBBBA\n"  # its answer, drawn as a grid
IMOS_OUTPUT = "+---+---+---+\n|001     001|\n+ # +   + # +\n| ######### |\n+---+---+---+\n# of solutions: 1\n"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, {Path(r["source"]).name: r for r in (json.loads(line) for line in out.splitlines() if line.startswith("{"))}


def test_a_drawn_answer_or_solver_output_in_a_folder_is_skipped(tmp_path, capsys):
    (tmp_path / "p.txt").write_text(PUZZLE)
    (tmp_path / "hint.txt").write_text(DRAWN)
    (tmp_path / "one_path.txt").write_text("..CCC\n..C..\n")  # one path of an answer, as a hint
    (tmp_path / "sample_output").write_text(IMOS_OUTPUT)
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    assert code == 0 and records["p.txt"]["status"] == "solved"
    for name in ("hint.txt", "one_path.txt"):
        assert records[name]["status"] == "skipped" and "a drawn answer" in records[name]["reason"], name
    assert records["sample_output"]["status"] == "skipped"
    assert "the output of imos' NumberLink solver (1 drawn answer " in records["sample_output"]["reason"]


@pytest.mark.parametrize("text", ["A.A.\n..A.\n", "A.B\nA.B\n..B\n"])
def test_a_puzzle_with_a_label_three_times_is_still_an_error(text):
    """Apart, or joined up beside another label on a board with empty cells: a broken puzzle."""
    with pytest.raises(ParseError, match="occurs more than twice") as caught:
        parse(text)
    assert not isinstance(caught.value, NotAPuzzle)


def test_a_drawn_answer_is_not_a_puzzle():
    with pytest.raises(NotAPuzzle, match=r"^1:3: label .B. occurs more than twice .*; every label.s cells join up: a drawn answer"):
        parse(DRAWN)


def test_a_drawn_answer_named_on_the_command_line_is_an_error(tmp_path, capsys):
    (tmp_path / "hint.txt").write_text(DRAWN)
    code, records = run(capsys, "verify", str(tmp_path / "hint.txt"), "--json")
    assert code == 1 and records["hint.txt"]["status"] == "error" and "a drawn answer" in records["hint.txt"]["error"]


def test_public_sets_mzucker_hints_and_imos_output_are_skipped(capsys):
    mzucker = shared_path("numberlink", "mzucker-flow_solver", "hints")
    imos = shared_path("numberlink", "imos-Puzzle")
    code, records = run(capsys, "verify", str(mzucker), str(imos), "--json", "--time-limit", "10")
    assert {name: r["status"] for name, r in records.items() if r["status"] in ("skipped", "error")} == {
        "jumbo_14x14_19.txt": "skipped", "jumbo_14x14_19_C_only.txt": "skipped", "sample_output": "skipped"}
    assert sum(r["status"] != "skipped" for r in records.values()) == 1  # sample_input's six puzzles: one file
