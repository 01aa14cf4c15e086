"""Multi-layer (3-D) Numberlink on the command line: ADC 2017/2018 problems and answers and the
layered native text, read as one family with the 2-D puzzles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlesat.cli import main
from puzzlesat.registry import family_for_format

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "numberlink" / "two_layers_4x4x2.nl"
EXAMPLE_ANSWER = [
    [["F", "C", "C", "B"], ["F", "F", "C", "B"], ["E", "F", "B", "B"], ["E", "E", "A", "A"]],
    [["C", "C", "F", "B"], ["D", "D", "F", "D"], ["D", "F", "F", "D"], ["D", "D", "D", "D"]],
]
# unique when every cell is covered; two answers when cells may stay empty
ADC_PROBLEM = """SIZE 3X2X2
LINE_NUM 4
LINE#1 (2,1,1) (1,1,2)
LINE#2 (2,0,1) (1,1,1)
LINE#3 (1,0,2) (2,0,2)
LINE#4 (0,0,1) (0,0,2)
"""
ADC_ANSWER = """SIZE 3X2X2
LAYER 1
04,02,02
04,02,01
LAYER 2
04,03,03
04,01,01
"""


def run(capsys, *argv):
    code = main([str(arg) for arg in argv])
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_solve_prints_every_layer_and_the_json_record_holds_layers_of_rows(capsys):
    code, [record] = run(capsys, "solve", EXAMPLE, "--json")
    assert code == 0
    assert (record["family"], record["status"], record["unique"], record["layers"]) == ("numberlink", "solved", True, 2)
    assert record["grid"] == EXAMPLE_ANSWER
    assert record["paths"]["A"] in ([[0, 3, 2], [0, 3, 3]], [[0, 3, 3], [0, 3, 2]])
    assert all(len(cell) == 3 for cells in record["paths"].values() for cell in cells)
    assert main(["solve", str(EXAMPLE)]) == 0
    text = capsys.readouterr().out
    assert "(4x4x2): solved, unique" in text
    assert "layer 1\nF C C B\nF F C B\nE F B B\nE E A A\n\nlayer 2\nC C F B" in text


def test_adc_problem_with_its_stated_answer(tmp_path, capsys):
    (tmp_path / "Q").mkdir()
    (tmp_path / "A").mkdir()
    problem = tmp_path / "Q" / "Q7.txt"
    problem.write_text(ADC_PROBLEM)
    (tmp_path / "A" / "A7.txt").write_text(ADC_ANSWER)
    code, [record] = run(capsys, "verify", tmp_path / "Q", "--answers", tmp_path / "A", "--json")
    assert code == 0 and record["unique"] is True and record["layers"] == 2
    assert record["stated_answer"] == {"source": str(tmp_path / "A" / "A7.txt"), "valid": True, "violations": [], "same": True,
                                       "too_long": None}
    assert record["answer"] == "layer 1\n4 2 2\n4 2 1\n\nlayer 2\n4 3 3\n4 1 1\n"  # (the layered text of the answer found)

    # cells may stay empty: a second answer (line 1 no longer needs the detour), shown per layer
    code, [record] = run(capsys, "verify", problem, "--allow-empty", "--json")
    assert code == 1 and record["unique"] is False and record["differs"]
    assert len(record["second_grid"]) == 2 and len(record["second_grid"][0]) == 2

    broken = tmp_path / "broken.txt"
    broken.write_text(ADC_ANSWER.replace("04,02,01", "00,02,01"))  # line 4 broken in two
    code, [record] = run(capsys, "verify", problem, "--answers", broken, "--json")
    assert code == 1 and record["stated_answer"]["valid"] is False
    assert "not one simple path" in record["stated_answer"]["violations"][0]


def test_format_names_pick_the_multilayer_readers(tmp_path, capsys):
    assert family_for_format("layers").name == "numberlink"
    layered = tmp_path / "board.txt"
    layered.write_text(EXAMPLE.read_text())
    code, [record] = run(capsys, "solve", layered, "--format", "layers", "--json")
    assert code == 0 and record["grid"] == EXAMPLE_ANSWER
    adc = tmp_path / "q.txt"
    adc.write_text(ADC_PROBLEM)
    code, [record] = run(capsys, "solve", adc, "--format", "ADC", "--json")
    assert code == 0 and record["layers"] == 2
    # a 2-D board named as layered text is refused with the line at fault, not solved as 2-D
    flat = tmp_path / "flat.txt"
    flat.write_text("A.A\n")
    code, [record] = run(capsys, "solve", flat, "--format", "layers", "--json")
    assert code == 1 and record["status"] == "error" and ":1:" in record["error"] and "layer" in record["error"]


@pytest.mark.parametrize("text, fragment", [
    (ADC_PROBLEM.replace("(1,0,2) (2,0,2)", "(1,0,2) (2,0,3)"), "line 5:"),       # z past the last layer
    (ADC_PROBLEM.replace("LINE_NUM 4", "LINE_NUM 5"), "LINE_NUM says 5"),
    (ADC_PROBLEM + "VIA#a (0,1,1) (2,1,2)\n", "line 7: via 'a' is not at one place"),
    ("layer 1\nA.\n..\n\nlayer 2\n.A\n.\n", "ragged"),
])
def test_bad_multilayer_files_are_error_records_naming_the_fault(tmp_path, capsys, text, fragment):
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    code, [record] = run(capsys, "verify", bad, "--json")
    # (no family ending, and no family claims a damaged text: the error gives each family's reason)
    assert code == 1 and record["status"] == "error" and record["family"] is None
    assert f"numberlink: " in record["error"] and fragment in record["error"]


def test_the_one_layer_reader_points_to_the_multilayer_one_and_format_adc_is_kept(tmp_path, capsys):
    from puzzlesat import numberlink
    from puzzlesat.errors import ParseError

    with pytest.raises(ParseError, match="multi-layer.*puzzlesat.numberlink.multilayer"):
        numberlink.parse(ADC_PROBLEM)
    layered = tmp_path / "board.txt"
    layered.write_text(EXAMPLE.read_text())
    code, [record] = run(capsys, "solve", layered, "--format", "adc", "--json")
    assert code == 1 and record["status"] == "error" and "SIZE" in record["error"]


def test_multilayer_answer_files_met_in_a_folder_are_skipped_not_failed(tmp_path, capsys):
    """verify of a contest folder holding ADC 2016-2018 problems and their answers (as the
    dasadc samples ship): the answer file is skipped and said so, as one-layer ADC answers are;
    it was an error, so the folder failed though every problem passed. A problem with a stray
    LAYER line after its LINE lines stays an error, never skipped."""
    (tmp_path / "NL_Q01.txt").write_text(ADC_PROBLEM)
    (tmp_path / "T99_A01.txt").write_text(ADC_ANSWER)
    code, records = run(capsys, "verify", tmp_path, "--json")
    by_name = {Path(record["source"]).name: record for record in records}
    assert code == 0 and by_name["NL_Q01.txt"]["status"] == "solved"
    assert by_name["T99_A01.txt"]["status"] == "skipped" and "this is an ADC answer" in by_name["T99_A01.txt"]["reason"]
    (tmp_path / "NL_Q02.txt").write_text(ADC_PROBLEM + "LAYER 1\n")
    code, records = run(capsys, "verify", tmp_path, "--json")
    broken = next(record for record in records if record["source"].endswith("NL_Q02.txt"))
    assert code == 1 and broken["status"] == "error" and "numberlink: line 7: expected 'LINE#k (x,y,z) (x,y,z)'" in broken["error"]
