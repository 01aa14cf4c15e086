"""The Numberlink family record: its records in the shared shape (docs/record.schema.json), its
format writer over every format it reads, its generator verbs and its option converters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlesat.errors import CannotExpress, ParseError, UnverifiedAnswer
from puzzlesat.family import Generated, Violation
from puzzlesat.numberlink import multilayer, parse, records, verify
from puzzlesat.numberlink.family import FAMILY, GENERATE_OPTIONS, canonical_format
from puzzlesat.numberlink.model import Pair, Puzzle, Rules, Solution
from puzzlesat.numberlink.show import show

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "record.schema.json").read_text())
GENERIC = {"family": "numberlink", "source": "test", "index": 0, "error": None, "seconds": 0.01}  # (what the CLI adds)

STACK = multilayer.Puzzle.from_layers([["312", "2.."], [".13", "..."]])


def valid(record: dict) -> dict:
    jsonschema.validate({**GENERIC, **record}, SCHEMA)
    return record


def test_solve_and_verify_records_have_the_shared_shape_one_layer_and_several() -> None:
    solved = valid(FAMILY.solve_record(parse("...B\n.A..\n..BA"), options={}, time_limit=None))
    assert (solved["status"], solved["unique"], solved["objective"], solved["moves"]) == ("solved", True, "unique", None)
    assert solved["answer"] == "B B B B\nB A A A\nB B B A" and solved["size"] == {"width": 4, "height": 3}
    assert solved["stated_answer"] is None and solved["solved_by"] is None and solved["reason"] is None
    refuted = valid(FAMILY.solve_record(parse("A.B\n...\nA.B"), options={}, time_limit=None))
    assert refuted["status"] == "unsolvable" and "chessboard" in refuted["reason"] and refuted["answer"] is None and refuted["unique"] is None
    stacked = valid(FAMILY.verify_record(STACK, options={}, time_limit=None))
    assert stacked["size"] == {"width": 3, "height": 2, "layers": 2} and stacked["layers"] == 2
    assert stacked["answer"].startswith("layer 1\n") and FAMILY.passed(stacked)
    answer = FAMILY.answer_of(STACK, stacked)
    assert isinstance(answer, multilayer.Solution) and multilayer.verify(STACK, answer) == []


def test_a_stated_answer_is_checked_and_decides_uniqueness() -> None:
    puzzle = parse("A..\n...\n..A")
    options = {"allow_empty": True}
    record = valid(FAMILY.verify_record(puzzle, options=options, time_limit=None, answer=("a.txt", "A..\nA..\nAAA")))
    assert record["stated_answer"]["valid"] and record["unique"] is False and not FAMILY.passed(record)
    assert FAMILY.passed({**record, "unique_required": False})
    bad = valid(FAMILY.verify_record(puzzle, options={}, time_limit=None, answer=("a.txt", "A..\nA..\nAAA")))
    assert bad["stated_answer"]["valid"] is False and bad["stated_answer"]["violations"][0].startswith("uncovered:")
    assert "--allow-empty" in bad["stated_answer"]["hint"] and not FAMILY.passed(bad)
    unreadable = FAMILY.verify_record(puzzle, options={}, time_limit=None, answer=(None, "A.\n.A"))
    assert unreadable["stated_answer"]["valid"] is False and "3x3" in unreadable["stated_answer"]["violations"][0]
    missing = FAMILY.verify_record(puzzle, options={"answers": "answers/"}, time_limit=None)
    assert missing["stated_answer"] is None and missing["stated_answer_missing"] is True
    assert "; no stated answer found" in show(puzzle, {**missing, "seconds": 0.0}, verb="verify", colour=False)


def test_an_answer_that_fails_the_checker_is_never_reported(monkeypatch) -> None:
    from puzzlesat.results import CountResult

    puzzle = parse("A.A\nB.B")
    wrong = Solution.from_mapping({"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 2)]})  # B jumps
    monkeypatch.setattr(records, "sat_count", lambda *args, **kwargs: CountResult(1, True, 2, (wrong,), method="stub"))
    with pytest.raises(UnverifiedAnswer, match="stub"):
        FAMILY.solve_record(puzzle, options={}, time_limit=None)


def test_the_backtracking_baseline_is_a_method_of_the_record() -> None:
    record = valid(FAMILY.solve_record(parse("...B\n.A..\n..BA"), options={"method": "backtracking"}, time_limit=None))
    assert record["method"] == "backtracking" and record["unique"] is True
    with pytest.raises(ValueError, match="one\nlayer|one layer"):
        FAMILY.solve_record(STACK, options={"method": "backtracking"}, time_limit=None)


def test_the_rules_a_source_states_are_kept_and_said_never_applied() -> None:
    [url] = FAMILY.load("https://puzz.link/p?numlin/5/3/1i1k2i2", source="u", fmt="puzz.link", options={})
    record = valid(FAMILY.solve_record(url, options={}, time_limit=None))
    assert record["rules"] == "cover-all" and record["stated_rules"] == "may-leave-empty" and record["stated_rules_by"] == "url"
    assert "the URL asks for may-leave-empty rules: --allow-empty" in show(url, {**record, "seconds": 0.0}, verb="verify", colour=False)
    pack = "# puzzlesat generate numberlink --size 3x1 (rules: cover-all, no-self-touch)\n3 1\nA.A\n"
    [puzzle] = FAMILY.load(pack, source="p", fmt=None, options={})
    record = FAMILY.solve_record(puzzle, options={"allow_empty": True}, time_limit=None)
    assert record["stated_rules"] == "cover-all, no-self-touch" and record["stated_rules_by"] == "pack"
    assert "pack was generated" not in show(puzzle, {**record, "seconds": 0.0}, verb="verify", colour=False)  # (it passed)


@pytest.mark.parametrize("fmt", [f.name for f in FAMILY.formats if f.writes])
def test_every_format_read_is_written_and_read_back(fmt: str) -> None:
    puzzle = parse("A..B\n.C..\n..CB\nA..." if fmt == "mzucker" else "1..2\n.3..\n..32\n1...")  # (mzucker: letters)
    if fmt == "layers":
        [again] = FAMILY.load(FAMILY.format(puzzle, fmt=fmt), source="x", fmt=fmt, options={})
        assert isinstance(again, multilayer.Puzzle) and again.layers == 1 and again.labels == puzzle.labels
        assert FAMILY.format(again, fmt="native") == FAMILY.format(puzzle, fmt="native")  # (a stack of one goes back to one layer)
        return
    [again] = FAMILY.load(FAMILY.format(puzzle, fmt=fmt), source="x", fmt=fmt, options={})
    assert again == puzzle
    assert FAMILY.detect_format(FAMILY.format(puzzle, fmt=fmt)) in (fmt, "native", "tokens")  # (some texts are several formats)


def test_what_a_format_cannot_hold_is_named() -> None:
    blocked = parse("A#A\nB.B")
    for fmt in ("puzzlink", "adc", "tokens", "dailyprogrammer", "mzucker"):
        with pytest.raises(CannotExpress, match="blocked|square"):
            FAMILY.format(blocked, fmt=fmt)
    assert FAMILY.format(blocked, fmt="native") and FAMILY.format(blocked, fmt="thomasahle")
    with pytest.raises(CannotExpress, match="2 layers"):
        FAMILY.format(STACK, fmt="native")
    with pytest.raises(CannotExpress, match="no-self-touch"):
        FAMILY.format(Puzzle(3, 1, (Pair("A", (0, 0), (0, 2)),)), fmt="puzzlink", rules=Rules(no_self_touch=True))
    [strict] = FAMILY.load("# puzzlesat generate numberlink (rules: cover-all, no-self-touch)\nA.A", source="p", fmt=None, options={})
    with pytest.raises(CannotExpress, match="no-self-touch"):  # (the rules its pack states go with it)
        FAMILY.format(strict, fmt="puzzlink")
    assert FAMILY.format(STACK, fmt="adc").startswith("SIZE 3X2X2")


def test_format_names_and_aliases() -> None:
    assert canonical_format("URL") == "puzzlink" and canonical_format("imos") == "tokens" and canonical_format("ADC") == "adc"
    with pytest.raises(ValueError, match="unknown format 'tmx'"):
        canonical_format("tmx")
    with pytest.raises(ParseError, match="unknown format"):
        FAMILY.load("A.A", source="x", fmt="tmx", options={})
    assert len(set(FAMILY.format_names())) == len(FAMILY.format_names())


def test_make_pack_entry_and_generated_record_read_back() -> None:
    made = FAMILY.make((5, 4), seed=3, time_limit=None, options={"method": "unionfind", "allow_multiple": True})
    assert isinstance(made, Generated) and made.seed == 3 and verify(made.puzzle, made.answer) == []
    [again] = FAMILY.load(FAMILY.pack_entry(made), source="pack", fmt=None, options={})
    assert again == made.puzzle
    record = valid({**FAMILY.generated_record(made), "seconds": 0.0})
    assert record["status"] == "generated" and record["unique"] == made.facts["unique"] and record["tries"] == made.tries
    assert parse(record["puzzle"]) == made.puzzle and record["link_lengths"] == made.facts["link_lengths"]
    stack = FAMILY.make((4, 4, 2), seed=1, time_limit=None, options={"method": "routing", "allow_empty": True, "lines": 3})
    assert stack.puzzle.layers == 2 and stack.facts["unique"] is None
    [read] = FAMILY.load(FAMILY.pack_entry(stack), source="Q0000.txt", fmt=None, options={})
    assert read == stack.puzzle
    record = valid({**FAMILY.generated_record(stack), "seconds": 0.0})
    assert multilayer.verify(stack.puzzle, multilayer.parse_solution(record["answer"], stack.puzzle), Rules(cover_all=False)) == []


@pytest.mark.parametrize("size, options, words", [
    ((5, 5), {"method": "split"}, "multi-layer"),
    ((5, 5), {"lines": 4}, "--lines"),
    ((5, 5), {"method": "unionfind", "band": 0.2}, "--band"),
    ((5, 5), {"allow_multiple": True}, "--allow-multiple"),
    ((5, 5, 2), {"method": "quality"}, "one-layer"),
    ((5, 5, 2), {"target": 3.0}, "--target"),
    ((5, 5, 2), {"method": "routing"}, "may-leave-empty|allow-empty"),
])
def test_make_refuses_what_cannot_be_met_before_drawing(size, options, words) -> None:
    with pytest.raises(ValueError, match=words):
        FAMILY.make(size, seed=0, time_limit=None, options=options)


def test_generate_option_converters_say_what_is_wrong() -> None:
    by_name = {option.name: option for option in GENERATE_OPTIONS}
    assert by_name["band"].convert("0.25") == 0.25 and by_name["max_tries"].convert("7") == 7
    for name, text in (("band", "-1"), ("target", "0"), ("max_tries", "0"), ("certify_limit", "soon"), ("lines", "2.5")):
        with pytest.raises(ValueError, match=repr(text)):
            by_name[name].convert(text)
    assert not {"size", "count", "seed", "out", "time_limit", "json"} & set(by_name)
    assert not {option.name for option in FAMILY.options} & set(by_name)


def test_violations_are_the_shared_type_and_reprs_are_short() -> None:
    puzzle = parse("A.A\nB.B")
    [violation] = verify(puzzle, Solution.from_mapping({"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 2)]}), Rules(cover_all=False))
    assert isinstance(violation, Violation) and violation.code == "not-connected" and violation.label == "B"
    assert repr(puzzle) == "<numberlink.Puzzle 3x2, 2 pairs>" and repr(STACK) == "<numberlink.multilayer.Puzzle 3x2x2, 3 pairs>"
    assert puzzle._repr_svg_().startswith("<svg") and STACK._repr_svg_().startswith("<svg")
    assert multilayer.solve(STACK).solution._repr_svg_().startswith("<svg")
