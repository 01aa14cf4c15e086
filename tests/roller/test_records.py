"""The Roller family record and its verbs without the command line: loading, the records of
solve / verify / generate in the shared shape (docs/record.schema.json), pass or fail, the
person's text, and the generate options. The solver is the exact BFS of ``oracle.py`` where
the test is about the records, not the solver."""

from __future__ import annotations

import json

import pytest

from puzzlesat.errors import NotAPuzzle, ParseError, UnverifiedAnswer
from puzzlesat.family import Family, Generated, Objective
from puzzlesat.results import SolveResult, Status
from puzzlesat.roller import parse
from puzzlesat.roller.family import FAMILY, GENERATE_OPTIONS, make, pack_entry
from puzzlesat.roller.records import answer_of, generated_record, load, passed, solve_record, verify_record
from tests.roller.oracle import install_solver
from tests.support import ROOT

RING = "# name: ring\n# par: 4\n#####\n#o..#\n#.#.#\n#...#\n#####\n"
STUCK = "#####\n#o..#\n##.##\n#...#\n#####\n"
SHARED_KEYS = {"status", "objective", "size", "name", "rules", "method", "answer", "moves", "moves_count", "unique", "optimal",
               "lower_bound", "solved_by", "reason", "stated_minimum", "stated_minimum_match", "stated_answer",
               "encode_seconds", "solve_seconds"}


def schema_check(record: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text())
    full = {"family": "roller", "source": "test", "index": 0, "error": None, "seconds": 0.0, **record}
    jsonschema.validate(full, schema)


def test_the_family_record() -> None:
    assert isinstance(FAMILY, Family) and FAMILY.name == "roller" and FAMILY.objective is Objective.FEWEST_MOVES
    assert FAMILY.extensions == (".roller",) and FAMILY.sniff_order == 10
    assert [f.name for f in FAMILY.formats] == ["native", "tmx", "starhermit", "joseleite19", "nohtaray", "herbou", "mazepaint", "rollersplat"]
    assert set(FAMILY.format_names()) >= {"roller", "tiled", "tabtale", "json", "js", "amaze"}
    assert all(f.writes for f in FAMILY.formats)
    assert FAMILY.exact_methods == ("flow", "auto", "time-indexed", "astar") and FAMILY.baselines == ("dfs",)
    assert FAMILY.defaults() == {"start": None}
    assert FAMILY.options[0].choices == ("bottom-left", "row-major") and FAMILY.options[0].kind == "choice"
    assert [o.flag for o in GENERATE_OPTIONS] == ["--moves", "--certify-limit", "--min-floor", "--max-tries", "--method"]
    assert "puzzlesat generate roller" in FAMILY.generate_example
    assert FAMILY.sniff(RING) and not FAMILY.sniff("A.B\n...\nA.B")
    assert FAMILY.detect_format(RING) == "native" and FAMILY.size_text(parse(RING)) == "5x5"


@pytest.mark.parametrize("option, text, value", [
    ("moves", "6-12", (6, 12)), ("moves", "5", (5, 5)), ("certify_limit", "2.5", 2.5), ("min_floor", "0", 0), ("max_tries", "9", 9),
])
def test_generate_options_convert_text(option, text, value) -> None:
    (found,) = [o for o in GENERATE_OPTIONS if o.name == option]
    assert found.convert(text) == value


@pytest.mark.parametrize("option, text", [
    ("moves", "12-6"), ("moves", "2"), ("moves", "a-b"), ("certify_limit", "-1"), ("certify_limit", "nan"), ("min_floor", "-1"),
    ("max_tries", "0"), ("max_tries", "many"),
])
def test_generate_options_refuse_bad_text_with_a_value_error(option, text) -> None:
    (found,) = [o for o in GENERATE_OPTIONS if o.name == option]
    with pytest.raises(ValueError, match=repr(text).replace(".", r"\.")):
        found.convert(text)


def test_load_reads_every_level_and_refuses_an_answer_table() -> None:
    levels = load(RING + "\n" + STUCK, source="two.roller", fmt=None, options={})
    assert [level.name for level in levels] == ["ring", "two.roller#1"]
    tmx = ('<map width="4" height="3"><layer><data encoding="csv">0,0,0,0,0,1,1,0,0,0,0,0</data></layer></map>')
    assert load(tmx, source="a.xml", fmt=None, options={"start": "row-major"})[0].start_rule == "row-major"
    with pytest.raises(NotAPuzzle, match="a TabTale answer file"):
        load("001.xml,0,1,3\n", source="solution.txt", fmt=None, options={})


def test_solve_record_has_the_shared_keys(oracle) -> None:
    record = solve_record(parse(RING), options={}, time_limit=10)
    assert SHARED_KEYS <= set(record)
    assert record["status"] == "solved" and record["objective"] == "fewest-moves" and record["size"] == {"width": 5, "height": 5}
    assert record["answer"] == "".join(record["moves"]) and record["moves_count"] == 4 == record["lower_bound"]
    assert record["optimal"] is True and record["unique"] is None and record["solved_by"] is None
    assert (record["stated_minimum"], record["stated_minimum_match"], record["stated_answer"]) == (4, "equal", None)
    assert (record["start"], record["start_rule"]) == ([1, 1], None) and passed(record)
    assert answer_of(parse(RING), record) == record["answer"]
    schema_check(record)
    stuck = solve_record(parse(STUCK), options={}, time_limit=10)
    assert (stuck["status"], stuck["answer"], stuck["moves"], stuck["optimal"]) == ("unsolvable", None, None, False)
    assert stuck["reason"] and passed(stuck) and answer_of(parse(STUCK), stuck) is None
    schema_check(stuck)


def test_solve_record_takes_the_method_from_the_options() -> None:
    record = solve_record(parse(RING), options={"method": "astar"}, time_limit=10)
    assert record["method"] == "astar" and record["optimal"] is True


def test_a_solver_answer_that_fails_verify_is_an_unverified_answer(monkeypatch) -> None:
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(Status.SOLVED, "R", optimal=True, lower_bound=1))
    with pytest.raises(UnverifiedAnswer, match="fails the independent check: unpainted"):
        solve_record(parse(RING), options={}, time_limit=10)


def test_a_stated_answer_shorter_than_a_proven_bound_is_an_unverified_answer(monkeypatch) -> None:
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(Status.UNKNOWN, None, lower_bound=5, method="fake"))
    with pytest.raises(UnverifiedAnswer, match="the stated answer of 4 moves is valid, but roller method 'fake' proved at least 5"):
        verify_record(parse(RING.replace("# par: 4", "# answer: RDLU")), options={}, time_limit=10)


def test_verify_record_checks_the_entry_of_an_answer_table(oracle) -> None:
    level = parse(RING.replace("# name: ring", "# name: 001.xml"))
    table = ("answers.txt", "001.xml,0,1,4,2,3\n002.xml,0,1\n")  # RDLU
    record = verify_record(level, options={}, time_limit=10, answer=table)
    assert record["stated_answer"] == {"source": "answers.txt", "valid": True, "violations": [], "same": record["answer"] == "RDLU",
                                       "too_long": False}
    assert passed(record)
    schema_check(record)
    wrong = verify_record(level, options={}, time_limit=10, answer=("answers.txt", "001.xml,0,2\n"))  # L: no move
    assert wrong["stated_answer"]["valid"] is False and wrong["stated_answer"]["violations"][0].startswith("no-move: move 1 (L)")
    assert not passed(wrong)
    none = verify_record(level, options={}, time_limit=10, answer=("answers.txt", "002.xml,0,1\n"))
    assert none["stated_answer"] is None and passed(none)
    single = verify_record(level, options={}, time_limit=10, answer=("ring.txt", "R D L U R\n"))  # one answer, longer than the par
    assert single["stated_answer"]["source"] == "ring.txt" and single["stated_answer"]["too_long"] is True and not passed(single)
    # an entry of a table the command line read (answer_table) comes as its letters, an empty one as ""
    entry = verify_record(level, options={}, time_limit=10, answer=("answers.txt", "RDLU"))
    assert entry["stated_answer"]["source"] == "answers.txt" and entry["stated_answer"]["valid"] and passed(entry)
    assert verify_record(level, options={}, time_limit=10, answer=("answers.txt", ""))["stated_answer"] is None
    assert FAMILY.answer_table(table[1], table[0]) == {"001.xml": "RDLU", "002.xml": "R"}
    with pytest.raises(ParseError, match="nor one answer over U D L R"):
        verify_record(level, options={}, time_limit=10, answer=("ring.txt", "north\n"))


def test_verify_record_takes_a_valid_stated_answer_when_the_search_stops(monkeypatch) -> None:
    install_solver(monkeypatch, lambda level, *, time_limit=None, method=None, work_limit=None: SolveResult(Status.UNKNOWN, None, lower_bound=4, method="fake"))
    record = verify_record(parse(RING.replace("# par: 4", "# answer: RDLU")), options={}, time_limit=0)
    assert (record["status"], record["answer"], record["moves"], record["solved_by"]) == ("solved", "RDLU", list("RDLU"), "stated answer")
    assert record["optimal"] is True and record["lower_bound"] == 4 and record["stated_answer"]["same"] is True
    assert record["stated_minimum_match"] == "equal" and passed(record)
    schema_check(record)


def test_show_tells_the_record(oracle) -> None:
    level = parse(RING)
    record = {"source": "ring.roller", "index": 0, "seconds": 0.5, "error": None, **solve_record(level, options={}, time_limit=10)}
    text = FAMILY.show(level, record, verb="solve", colour=False)
    lines = text.splitlines()
    assert lines[0] == "ring.roller [ring] (5x5): solved in 4 moves, proven minimum; stated 4: equal, 0.500s"
    assert lines[1] == "# # # # #" and lines[-1] == f"moves: {record['answer']}"
    assert FAMILY.show(level, record, verb="verify", colour=False) == lines[0]
    assert "\x1b[" in FAMILY.show(level, record, verb="solve", colour=True)


def test_make_pack_entry_and_load_agree() -> None:
    made = make((7, 6), seed=4, time_limit=None, options={"moves": "3-6", "name": "pack-0"})
    assert isinstance(made, Generated) and made.facts == {"moves_count": len(made.answer), "optimal": True}
    assert 3 <= len(made.answer) <= 6 and made.puzzle.size == (7, 6) and made.seed == 4
    (again,) = load(pack_entry(made), source="pack.roller", fmt=None, options={})
    assert again == made.puzzle and again.name == "pack-0"
    assert (again.par, again.known_answer) == (len(made.answer), made.answer)
    record = generated_record(made)
    assert record["status"] == "generated" and record["puzzle"] == pack_entry(made) and record["moves"] == list(made.answer)
    assert record["size"] == {"width": 7, "height": 6} and record["optimal"] is True and record["tries"] == made.tries
    schema_check(record)
    assert make((7, 6), seed=4, time_limit=None, options={"moves": (3, 6), "name": "pack-0"}).puzzle == made.puzzle
    assert make(None, seed=1, time_limit=None, options={"moves": "3-5"}).puzzle.size == (8, 8)  # generate roller's default size


def test_make_refuses_a_size_that_is_not_two_numbers() -> None:
    with pytest.raises(ValueError, match="a Roller size is WIDTHxHEIGHT, not 5x5x2"):
        make((5, 5, 2), seed=0, time_limit=None, options={})
    with pytest.raises(ValueError, match="moves must be N or LO-HI"):
        make((8, 8), seed=0, time_limit=None, options={"moves": "lots"})

