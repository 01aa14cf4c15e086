"""``puzzlesat verify --answers``: stated Numberlink answers (ADC answer files, native answer
grids) paired with their puzzle files by name and checked by ``verify`` under the same rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlesat.cli import main
from puzzlesat.cli.inputs import answer_files
from puzzlesat.errors import ParseError
from puzzlesat.numberlink import records as numberlink_records

PUZZLE = "...B\n.A..\n..BA\n"  # unique: B B B B / B A A A / B B B A
ANSWER = "BBBB\nBAAA\nBBBA\n"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_answer_files_are_paired_by_name_in_the_adc_style(tmp_path):
    answers = tmp_path / "A"
    answers.mkdir()
    for name in ("A04.txt", "A05.2016.txt", "T99_A01.txt", "Q07.txt", "A104.txt"):
        (answers / name).write_text("")
    sources = ["Q/Q04.txt", "Q/Q05.2016.txt", "Q/NL_Q01.txt", "Q/Q07.txt", "Q/Q06.txt", "Q/Q10.txt", "p?numlin/2/1/11"]
    found = {source: path.rsplit("/", 1)[-1] for source, path in answer_files(sources, str(answers)).items()}
    assert found == {"Q/Q04.txt": "A04.txt", "Q/Q05.2016.txt": "A05.2016.txt", "Q/NL_Q01.txt": "T99_A01.txt", "Q/Q07.txt": "Q07.txt"}
    (answers / "X_A04.txt").write_text("")
    with pytest.raises(ParseError, match=r"Q04.txt could be answered by \S*/A04.txt or \S*/X_A04.txt"):
        answer_files(["Q/Q04.txt"], str(answers))
    with pytest.raises(ParseError, match="one answer file for 2 puzzle files"):
        answer_files(["a.txt", "b.txt"], str(answers / "A04.txt"))
    with pytest.raises(ParseError, match="no such file or folder"):
        answer_files(["a.txt"], str(tmp_path / "missing"))


def test_a_valid_stated_answer_passes_and_an_invalid_one_fails_with_its_violations(tmp_path, capsys):
    puzzle = tmp_path / "Q01.txt"
    puzzle.write_text(PUZZLE)
    good = tmp_path / "good.txt"
    good.write_text(ANSWER)
    code, [record] = run(capsys, "verify", str(puzzle), "--answers", str(good), "--json")
    assert code == 0
    assert record["stated_answer"] == {"source": str(good), "valid": True, "violations": [], "same": True, "too_long": None}

    broken = tmp_path / "broken.txt"
    broken.write_text("BBBB\nB.AA\nBBBA\n")  # A no longer reaches its endpoint at (1, 1)
    code, [record] = run(capsys, "verify", str(puzzle), "--answers", str(broken), "--json")
    assert code == 1 and record["status"] == "solved" and record["unique"] is True
    assert record["stated_answer"]["valid"] is False
    assert record["stated_answer"]["violations"][0] == f"{broken}:2:2: not an answer to this puzzle: 'A' ends at (row, col) = (1, 1) but the answer leaves it unused"

    assert main(["verify", str(puzzle), "--answers", str(broken)]) == 1
    assert "stated answer INVALID" in capsys.readouterr().out


def test_an_answer_leaving_cells_empty_is_named_and_valid_under_may_leave_empty_rules(tmp_path, capsys):
    puzzle = tmp_path / "Q02.txt"
    puzzle.write_text("A.A\n...\nB.B\n")
    answer = tmp_path / "A02.txt"
    answer.write_text("AAA\n...\nBBB\n")
    _, [record] = run(capsys, "verify", str(puzzle), "--answers", str(answer), "--json")
    problems = record["stated_answer"]["violations"]
    assert record["stated_answer"]["valid"] is False and problems[0].startswith("uncovered:") and len(problems) == 1
    assert "--allow-empty" in record["stated_answer"]["hint"]
    _, [record] = run(capsys, "verify", str(puzzle), "--answers", str(answer), "--json", "--allow-empty")
    assert record["stated_answer"]["valid"] is True


def test_answers_in_the_verified_folder_are_not_verified_as_puzzles(tmp_path, capsys):
    (tmp_path / "Q01.txt").write_text(PUZZLE)
    (tmp_path / "A01.txt").write_text(ANSWER)
    code, records = run(capsys, "verify", str(tmp_path), "--answers", str(tmp_path), "--json")
    assert code == 0
    assert [(r["source"].rsplit("/", 1)[-1], r["stated_answer"]["valid"]) for r in records] == [("Q01.txt", True)]
    (tmp_path / "Q02.txt").write_text(PUZZLE)  # no answer of its own: checked as a puzzle only
    code, records = run(capsys, "verify", str(tmp_path), "--answers", str(tmp_path), "--json")
    assert code == 0 and [r["stated_answer"] is None for r in records] == [False, True]


def test_a_valid_different_answer_decides_an_open_uniqueness(tmp_path, capsys, monkeypatch):
    puzzle = tmp_path / "Q03.txt"
    puzzle.write_text("A.A\n...\nB.B\n")  # under may-leave-empty rules: AAA/.../BBB among others
    answer = tmp_path / "A03.txt"
    answer.write_text("AAA\n...\nBBB\n")
    found = {"status": "solved", "unique": None, "grid": [["A", "A", "A"], ["A", "A", "A"], ["B", "B", "B"]],
             "paths": {"A": [[0, 0], [1, 0], [1, 1], [1, 2], [0, 2]], "B": [[2, 0], [2, 1], [2, 2]]}}
    monkeypatch.setattr(numberlink_records, "_record", lambda puzzle, options, time_limit: dict(found))
    _, [record] = run(capsys, "verify", str(puzzle), "--answers", str(answer), "--json", "--allow-empty")
    assert record["stated_answer"]["same"] is False and record["unique"] is False
    assert record["differs"] == ["A"] and record["second_grid"][1] == [".", ".", "."]

    monkeypatch.setattr(numberlink_records, "_record", lambda puzzle, options, time_limit: {**found, "unique": True})
    _, [record] = run(capsys, "verify", str(puzzle), "--answers", str(answer), "--json", "--allow-empty")
    assert record["status"] == "error" and "proven unique" in record["error"]


def test_answers_are_refused_for_other_families_and_multi_puzzle_files(tmp_path, capsys):
    pack = tmp_path / "Q04.txt"
    pack.write_text("3 1\nA.A\n\n3 1\nB.B\n")
    answer = tmp_path / "A04.txt"
    answer.write_text("AAA\n")
    code, records = run(capsys, "verify", str(pack), "--answers", str(answer), "--json")
    assert code == 1 and [r["status"] for r in records] == ["error", "error"]
    assert "a file of one puzzle; this one holds 2" in records[0]["error"]
    level = tmp_path / "Q05.swap"
    level.write_text("start\nT1R T1G\ngoal\nG R\n")
    code, records = run(capsys, "verify", str(level), "--answers", str(answer), "--json")
    assert code == 1 and "--answers checks Numberlink answer files and Roller answer tables; a swap level states its own" in records[0]["error"]


ADC = "numberlink/dasadc-conmgr-ADC2015/sample/ADC2015_QA"


def test_the_published_adc_2015_answers_are_valid(shared_data, capsys):
    folder = shared_data / ADC
    if not folder.is_dir():
        pytest.skip("ADC 2015 set not present")
    sources = [str(folder / "Q" / name) for name in ("Q05.txt", "Q08.txt", "Q20.txt")]
    code, records = run(capsys, "verify", *sources, "--answers", str(folder / "A"), "--allow-empty", "--json", "--time-limit", "20")
    assert [r["stated_answer"]["valid"] for r in records] == [True, True, True]
    assert [r["unique"] for r in records] == [True, False, False]


def test_answers_are_found_in_subfolders_beside_their_puzzles_and_never_shared(tmp_path, capsys):
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "sub").mkdir()
    for folder in (tmp_path / "top", tmp_path / "top" / "sub"):
        (folder / "Q01.txt").write_text(PUZZLE)
        (folder / "A01.txt").write_text(ANSWER)
    code, records = run(capsys, "verify", str(tmp_path / "top"), "--answers", str(tmp_path / "top"), "--json")
    assert code == 0 and [r["stated_answer"]["source"] for r in records] == [str(tmp_path / "top" / "A01.txt"), str(tmp_path / "top" / "sub" / "A01.txt")]
    other = tmp_path / "other"
    other.mkdir()
    (other / "Q01.txt").write_text(PUZZLE)
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "A01.txt").write_text(ANSWER)
    with pytest.raises(ParseError, match="would share one answer file"):
        answer_files([str(tmp_path / "top" / "Q01.txt"), str(other / "Q01.txt")], str(answers))
    with pytest.raises(ParseError, match="the answer file is the puzzle file itself"):
        answer_files([str(other / "Q01.txt")], str(other / "Q01.txt"))


def test_the_answer_beside_a_puzzle_wins_over_a_file_of_its_name_elsewhere(tmp_path):
    for year in ("2015", "2016"):
        (tmp_path / year).mkdir()
        (tmp_path / year / "Q01.txt").write_text(PUZZLE)
        (tmp_path / year / "A01.txt").write_text(ANSWER)
    found = answer_files([str(tmp_path / "2016" / "Q01.txt")], str(tmp_path))
    assert found == {str(tmp_path / "2016" / "Q01.txt"): str(tmp_path / "2016" / "A01.txt")}
    (tmp_path / "2016" / "copy").mkdir()
    (tmp_path / "2016" / "copy" / "A01.txt").symlink_to(tmp_path / "2016" / "A01.txt")  # two paths, one file
    assert answer_files([str(tmp_path / "2016" / "Q01.txt")], str(tmp_path)) == found


def test_an_unnumbered_question_is_answered_by_the_same_name_with_a_for_q(tmp_path):
    for name in ("sample_Q.txt", "sample_A.txt", "unique.txt", "Q.txt", "A.txt"):
        (tmp_path / name).write_text("")
    sources = [str(tmp_path / name) for name in ("sample_Q.txt", "unique.txt", "Q.txt")]
    found = {Path(k).name: Path(v).name for k, v in answer_files(sources, str(tmp_path)).items()}
    assert found == {"sample_Q.txt": "sample_A.txt", "Q.txt": "A.txt"}


def test_puzzles_without_a_stated_answer_and_answers_without_a_puzzle_are_reported(tmp_path, capsys):
    questions, answers = tmp_path / "Q", tmp_path / "A"
    questions.mkdir()
    answers.mkdir()
    (questions / "Q01.txt").write_text(PUZZLE)
    (questions / "Q02.txt").write_text(PUZZLE)  # no A02.txt
    (answers / "A01.txt").write_text(ANSWER)
    (answers / "A09.txt").write_text(ANSWER)  # no Q09.txt
    code, records = run(capsys, "verify", str(questions), "--answers", str(answers), "--json")
    assert code == 0 and [r["stated_answer"] is None for r in records] == [False, True]
    assert [r.get("stated_answer_missing", False) for r in records] == [False, True]
    code = main(["verify", str(questions), "--answers", str(answers)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Q02.txt (4x3): solved, unique; no stated answer found," in out
    summary = out.splitlines()[-1]
    assert "1 puzzle(s) with no stated answer" in summary
    assert "1 answer file(s) paired with no puzzle" in summary and "A09.txt" in summary
    main(["verify", str(questions / "Q01.txt")])  # without --answers nothing is said about answers
    out = capsys.readouterr().out
    assert "stated answer" not in out and "answer file" not in out


def test_allow_multiple_lets_solved_puzzles_with_several_answers_pass(tmp_path, capsys):
    """Contest sets of routing problems have many answers: with --allow-multiple a solved puzzle
    passes (uniqueness still reported); a wrong stated answer or an unsolvable puzzle still fails."""
    several = tmp_path / "Q01.txt"
    several.write_text("A..B\n....\nA..B\n")  # two ways to fill (and more with empty cells)
    answer = tmp_path / "A01.txt"
    answer.write_text("A..B\nA..B\nA..B\n")
    code, [record] = run(capsys, "verify", str(several), "--allow-empty", "--json")
    assert code == 1 and record["unique"] is False and "unique_required" not in record
    code, [record] = run(capsys, "verify", str(several), "--allow-empty", "--allow-multiple", "--json")
    assert code == 0 and record["unique"] is False and record["unique_required"] is False
    code, [record] = run(capsys, "verify", str(several), "--answers", str(answer), "--allow-empty", "--allow-multiple", "--json")
    assert code == 0 and record["stated_answer"]["valid"] is True
    answer.write_text("A..B\nA...\nA..B\n")  # B broken
    code, [record] = run(capsys, "verify", str(several), "--answers", str(answer), "--allow-empty", "--allow-multiple", "--json")
    assert code == 1 and record["stated_answer"]["valid"] is False
    unsolvable = tmp_path / "Q02.txt"
    unsolvable.write_text("A.B\n...\nB.A\n")
    code, [record] = run(capsys, "verify", str(unsolvable), "--allow-multiple", "--json")
    assert code == 1 and record["status"] == "unsolvable"


def test_an_answer_file_verified_as_a_puzzle_says_how_to_check_it(tmp_path, capsys):
    """A one-layer and a multi-layer ADC answer given to verify alone: the error names the
    command that checks an answer (the library call it named means nothing on the command line)."""
    one_layer = tmp_path / "A01.txt"
    one_layer.write_text("SIZE 3X2\n01,00,02\n01,00,02\n")
    layered = tmp_path / "A02.txt"
    layered.write_text("SIZE 2X1X2\nLAYER 1\n01,00\nLAYER 2\n01,00\n")
    assert main(["verify", str(one_layer), str(layered)]) == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("error:")]
    assert len(errors) == 2
    assert all("this is an ADC answer" in line and "puzzlesat verify PUZZLE --answers ANSWER" in line for line in errors)


def test_one_answer_file_pairs_with_one_puzzlink_url(tmp_path, capsys):
    """'verify URL --answers FILE': a puzz.link URL is the one puzzle the answer file answers;
    it was refused (exit 2) as 'one answer file for 0 puzzle files'."""
    answer = tmp_path / "answer.txt"
    answer.write_text("1 1 2 2 2\n2 1 2 3 2\n2 1 2 3 2\n2 1 2 3 2\n2 2 2 3 3\n")
    code, [record] = run(capsys, "verify", "p?numlin/5/5/1j2h3m1h2j3", "--answers", str(answer), "--allow-empty", "--json")
    assert code == 0
    assert record["stated_answer"] == {"source": str(answer), "valid": True, "violations": [], "same": True, "too_long": None}
    answer.write_text("1 1 2 2 2\n2 1 2 3 2\n2 1 2 3 2\n2 1 2 3 2\n2 2 2 3 .\n")  # path 3 stops short
    code, [record] = run(capsys, "verify", "p?numlin/5/5/1j2h3m1h2j3", "--answers", str(answer), "--allow-empty", "--json")
    assert code == 1 and record["stated_answer"]["valid"] is False
    with pytest.raises(ParseError, match="one answer file for 2 puzzle files"):
        answer_files(["p?numlin/5/5/1j2h3m1h2j3", "b.txt"], str(answer))


def test_answer_files_met_in_a_folder_are_skipped_not_failed(tmp_path, capsys):
    """verify of a contest folder holding problems and their answers (as the ADC 2015 set ships):
    an answer file is skipped and said so, as Roller's answer files are; it was an error, so the
    folder failed (exit 1) though every problem passed."""
    (tmp_path / "Q01.txt").write_text(PUZZLE)
    (tmp_path / "A01.txt").write_text("SIZE 3X2\n01,00,02\n01,00,02\n")
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    assert code == 0
    by_name = {Path(record["source"]).name: record for record in records}
    assert by_name["Q01.txt"]["status"] == "solved"
    assert by_name["A01.txt"]["status"] == "skipped" and by_name["A01.txt"]["error"] is None
    assert "this is an ADC answer" in by_name["A01.txt"]["reason"]
    # a problem with a stray row of line numbers after its LINE lines is a broken problem: an
    # error, never skipped
    (tmp_path / "Q02.txt").write_text("SIZE 3X2\nLINE_NUM 1\nLINE#1 (0,0)-(2,0)\n01,01,01\n")
    code, records = run(capsys, "verify", str(tmp_path), "--json")
    broken = next(record for record in records if record["source"].endswith("Q02.txt"))
    # (without a family ending no family claims a damaged text: the error says why each refused)
    assert code == 1 and broken["status"] == "error" and ("numberlink: line 4: expected 'LINE#k (x,y)-(x,y)' "
                                                          "(a row of line numbers belongs in an answer file)") in broken["error"]


def test_a_valid_stated_answer_shows_solvable_a_puzzle_the_search_left_open(tmp_path, capsys, monkeypatch):
    """A search that runs out of time finds no answer; the stated one, once checked, shows the
    puzzle solvable: 'solved' with that answer, uniqueness unknown (passes only where several
    answers are allowed). An invalid stated answer leaves the puzzle unknown."""
    from puzzlesat.results import CountResult

    monkeypatch.setattr(numberlink_records, "sat_count", lambda *args, **kwargs: CountResult(0, False, 2))  # out of time
    puzzle = tmp_path / "Q01.txt"
    puzzle.write_text(PUZZLE)
    good = tmp_path / "good.txt"
    good.write_text(ANSWER)
    code, [record] = run(capsys, "verify", str(puzzle), "--answers", str(good), "--json")
    assert code == 1 and record["status"] == "solved" and record["solved_by"] == "stated answer"
    assert record["unique"] is None and record["grid"] == [list("BBBB"), list("BAAA"), list("BBBA")]
    assert record["paths"]["A"][0] in ([1, 1], [2, 3]) and record["stated_answer"]["valid"] is True
    code, [record] = run(capsys, "verify", str(puzzle), "--answers", str(good), "--json", "--allow-multiple")
    assert code == 0 and record["status"] == "solved"
    assert main(["verify", str(puzzle), "--answers", str(good), "--allow-multiple"]) == 0
    assert "solved by the stated answer" in capsys.readouterr().out

    broken = tmp_path / "broken.txt"
    broken.write_text("BBBB\nB.AA\nBBBA\n")
    code, [record] = run(capsys, "verify", str(puzzle), "--answers", str(broken), "--json", "--allow-multiple")
    assert code == 1 and record["status"] == "unknown" and record["grid"] is None and record["solved_by"] is None
