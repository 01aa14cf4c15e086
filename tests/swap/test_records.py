"""Swap's family record and its records: the record shape of docs/record.schema.json, generate
options converted without argparse, a generated level that reads back with its claims, the
public verbs shared with the other families."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from puzzlesat import swap
from puzzlesat.errors import PuzzlesatError, UnverifiedAnswer
from puzzlesat.family import Family, Generated, Violation
from puzzlesat.results import SolveResult, Status
from puzzlesat.swap import records
from puzzlesat.swap.family import FAMILY, make, pack_entry

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "record.schema.json").read_text())
LEVEL = "start\nT1R B1G ### Q2Y\nT3B T1R B1G T1R\ngoal\nR G # R\nB R G Y\n"  # one move: 0,3>1,3
GENERIC = {"family": "swap", "source": "x.swap", "index": 0, "error": None, "seconds": 0.1}


def schema_checked(record: dict) -> dict:
    jsonschema.validate({**GENERIC, **record}, SCHEMA)
    return record


def test_the_family_record() -> None:
    assert isinstance(FAMILY, Family) and swap.FAMILY is FAMILY
    assert (FAMILY.name, FAMILY.extensions, FAMILY.objective.value) == ("swap", (".swap",), "fewest-moves")
    assert FAMILY.format_names() == ("native", "swap") and FAMILY.writable_formats() == ("native",)
    assert FAMILY.exact_methods == ("exact", "search", "cpsat") and FAMILY.baselines == ("astar",)
    assert FAMILY.options == () and FAMILY.defaults() == {}
    assert "puzzlesat generate swap" in FAMILY.generate_example
    assert FAMILY.sniff(LEVEL) and not FAMILY.sniff("5 5\nA...B\n.....\n")
    assert FAMILY.size_text(swap.parse(LEVEL)) == "4x2"  # columns x rows


def test_generate_options_convert_text_and_say_what_is_wrong() -> None:
    options = {option.name: option for option in FAMILY.generate_options}
    assert set(options) == {"difficulty", "goal", "moves", "certify_limit", "max_tries"}
    assert options["difficulty"].choices == ("easy", "medium", "hard", "expert") and options["difficulty"].default == "expert"
    assert options["goal"].choices == ("match", "cluster")
    assert options["moves"].convert("3-8") == (3, 8) and options["moves"].convert(" 4 ") == (4, 4)
    assert options["certify_limit"].convert("2.5") == 2.5 and options["max_tries"].convert("7") == 7
    for name, text, message in [("moves", "5-2", "empty"), ("moves", "a-b", "not N or LO-HI"),
                                ("certify_limit", "-1", "seconds"), ("certify_limit", "nan", "seconds"),
                                ("max_tries", "0", "1 or more"), ("max_tries", "2.5", "1 or more")]:
        with pytest.raises(ValueError, match=message):
            options[name].convert(text)


def test_solve_record_has_the_shared_shape() -> None:
    level = swap.parse(LEVEL + "minimum 1\nsolution 1,3>0,3\n", source="x.swap")
    record = schema_checked(records.solve_record(level, options={}, time_limit=20))
    assert (record["status"], record["answer"], record["moves"], record["moves_count"]) == ("solved", "0,3>1,3", ["0,3>1,3"], 1)
    assert (record["optimal"], record["lower_bound"], record["unique"], record["solved_by"]) == (True, 1, None, None)
    assert record["size"] == {"width": 4, "height": 2} and record["goal"] == "match" and record["name"] == "x.swap"
    assert not {"rows", "cols", "stated_solution_valid", "stated_solution_problem"} & set(record)
    assert record["stated_answer"] == {"source": None, "valid": True, "violations": [], "same": True, "too_long": False}
    assert set(records.blank_record()) <= set(record)
    baseline = schema_checked(records.solve_record(level, options={"method": "astar"}, time_limit=20))
    assert baseline["method"] == "astar" and baseline["optimal"] is False and baseline["moves"] == ["0,3>1,3"]


def test_verify_record_checks_the_stated_answer_and_refuses_one_from_elsewhere() -> None:
    level = swap.parse(LEVEL + "minimum 2\nsolution 0,0>1,1\n")
    record = schema_checked(records.verify_record(level, options={}, time_limit=20))
    assert record["stated_answer"]["valid"] is False and record["stated_answer"]["same"] is False
    assert record["stated_answer"]["violations"] == [
        "wrong-direction: move 1 (0,0>1,1): T1R at 0,0 moves only orthogonally; T1R at 1,1 moves only orthogonally"]
    assert record["stated_minimum_match"] == "better" and not records.passed(record)
    with pytest.raises(PuzzlesatError, match="states its own answer"):
        records.verify_record(level, options={}, time_limit=20, answer=("answers.txt", "0,3>1,3"))


def test_an_answer_failing_verify_is_an_unverified_answer(monkeypatch) -> None:
    wrong = SolveResult(Status.SOLVED, ("0,0>1,1",), optimal=True, lower_bound=1, method="search")
    monkeypatch.setattr(records, "run_solver", lambda level, **_: wrong)
    with pytest.raises(UnverifiedAnswer, match="search gave an answer .* wrong-direction: move 1"):
        records.solve_record(swap.parse(LEVEL), options={}, time_limit=20)


def test_unsolvable_record() -> None:
    record = schema_checked(records.solve_record(swap.parse("start\nB1R B1G\ngoal\nG R\n"), options={}, time_limit=20))
    assert (record["status"], record["answer"], record["moves"], record["optimal"]) == ("unsolvable", None, None, False)
    assert record["reason"]


def test_make_pack_entry_and_generated_record_agree() -> None:
    """A generated level of a non-square size (width 3, height 2) reads back from its pack text
    with its minimum and solution; its generate record carries the same facts."""
    made = make((3, 2), seed=1, options={"difficulty": "easy", "moves": (2, 3)})
    assert isinstance(made, Generated) and (made.puzzle.cols, made.puzzle.rows) == (3, 2)
    assert made.facts == {"moves_count": len(made.answer), "optimal": True} and 2 <= len(made.answer) <= 3
    (level,) = FAMILY.load(pack_entry(made), source="pack.swap", fmt=None, options={})
    assert level == made.puzzle and level.stated_minimum == len(made.answer) and level.stated_solution == made.answer
    assert swap.verify(level, level.stated_solution) == []
    record = schema_checked({**FAMILY.generated_record(made), "source": None})
    assert (record["status"], record["seed"], record["moves"], record["moves_count"]) == (
        "generated", 1, [str(m) for m in made.answer], len(made.answer))
    assert record["answer"] == " ".join(record["moves"]) and record["size"] == {"width": 3, "height": 2}
    assert swap.parse(record["puzzle"]) == made.puzzle
    assert FAMILY.answer_of(level, record) == made.answer


def test_generate_takes_width_then_height() -> None:
    made = swap.generate(3, 2, difficulty="easy", seed=1, moves=(2, 3))
    assert (made.level.cols, made.level.rows) == (3, 2)
    with pytest.raises(ValueError, match="size 21x20 must have 2 to 400 cells"):
        swap.generate(21, 20)


def test_the_public_verbs_match_the_other_families(tmp_path) -> None:
    level = swap.parse(LEVEL)
    assert swap.detect_format(LEVEL) == "native" and swap.detect_format("A.B\n...\n") is None
    assert swap.parse(swap.format(level, fmt="native")) == level == swap.parse(swap.format(level, fmt="swap"))
    with pytest.raises(ValueError, match="native format only"):
        swap.format(level, fmt="numlin")
    path = tmp_path / "one.swap"
    path.write_text(LEVEL)
    assert swap.read(path, fmt="native") == [level]
    baseline = swap.solve(level, method="astar", time_limit=20)
    assert baseline == swap.astar.solve(level, time_limit=20) and baseline.method == "astar" and not baseline.optimal
    (problem,) = swap.verify(level, ["0,0>1,1"])
    assert isinstance(problem, Violation) and problem.step == 1 and problem.cells == ((0, 0), (1, 1))


def test_a_level_has_a_short_repr_and_draws_itself_in_a_notebook() -> None:
    level = swap.parse(LEVEL + "minimum 1\n", source="x.swap")
    assert repr(level) == "<swap Level 'x.swap' 4x2, goal match, 7 squares, stated minimum 1>"
    assert level._repr_svg_().startswith("<svg")
