"""The Numberlink engine's pipeline (docs/numberlink-engine.md): its lists of strategies, where
each applies, which strategy decides small boards built for it (``stats["decided_by"]``), the
steps it records, ``--explain``, and the no-self-touch statement of an undecided default count."""

from __future__ import annotations

import json

import pytest

from puzzlesat.cli import main
from puzzlesat.numberlink import formats, records, show
from puzzlesat.numberlink.engine import pipeline
from puzzlesat.numberlink.engine.first import FIRST
from puzzlesat.numberlink.engine.frontier_race import FRONTIER
from puzzlesat.numberlink.engine.global_sat import GLOBAL_SAT
from puzzlesat.numberlink.engine.probes import PROBES
from puzzlesat.numberlink.engine.refute import REFUTE
from puzzlesat.numberlink.engine.state import State
from puzzlesat.numberlink.engine.windows import LABEL_WINDOWS, WINDOWS
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.numberlink.solve import count, solve
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status, Uniqueness
from puzzlesat.timing import Deadline
from tests.support import ROOT

DEFAULT, STRICT, EMPTY, EMPTY_STRICT = Rules(), Rules(no_self_touch=True), Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)
SWAP = ["...A", ".A..", "...."]  # A must run beside itself; its middle turned round is a second answer
TWO_TURNS = ["C#A..", ".A.B.", "..B..", "C...#"]  # A and B trade the stretches between two 2x2 blocks


def test_the_pipelines_are_short_lists_in_the_documented_order() -> None:
    assert [s.name for s in pipeline.SOLVE] == ["small-board", "refute", "first"]
    assert [s.name for s in pipeline.count_strategies(1)] == ["small-board", "refute", "first"]
    assert [s.name for s in pipeline.count_strategies(2)] == ["small-board", "refute", "first", "probes", "deciders"]
    assert [s.name for s in pipeline.count_strategies(5)] == ["refute", "first", "probes", "enumerate"]


def test_where_each_strategy_applies() -> None:
    narrow, wide = Puzzle.from_rows(["A.A", "B.B"]), Puzzle(30, 20, Puzzle.from_rows(["A.A"]).pairs)
    table = {
        REFUTE: (True, True, True, True), FIRST: (True, True, True, True), GLOBAL_SAT: (True, True, True, True),
        PROBES: (True, False, True, False),  # (touching allowed: the no-self-touch answers need no probe)
        WINDOWS: (True, False, True, True), LABEL_WINDOWS: (True, False, True, True),
        FRONTIER: (True, False, False, False),  # (default rules only)
        pipeline.WITHOUT_SELF_TOUCH: (True, False, False, False),
    }
    for strategy, expected in table.items():
        assert tuple(strategy.applies(narrow, rules) for rules in (DEFAULT, STRICT, EMPTY, EMPTY_STRICT)) == expected, strategy.name
    assert not FRONTIER.applies(wide, DEFAULT) and not FRONTIER.applies(Puzzle(20, 30, wide.pairs), DEFAULT)  # (both sides past 18)
    assert pipeline.WITHOUT_SELF_TOUCH.applies(wide, DEFAULT) and not pipeline.WITHOUT_SELF_TOUCH.applies(Puzzle(300, 300, wide.pairs), DEFAULT)


@pytest.mark.parametrize("rows,rules,uniqueness,decided_by", [
    (["A.B", "...", "A.B"], DEFAULT, Uniqueness.NONE, "refute"),  # chessboard colours
    (["....", "A..A", "...."], DEFAULT, Uniqueness.NONE, "first"),  # the full formula has no answer
    (SWAP, DEFAULT, Uniqueness.MULTIPLE, "probes:swap"),
    (TWO_TURNS, DEFAULT, Uniqueness.MULTIPLE, "probes:two-turns"),
    (["A..", "...", "..A"], EMPTY, Uniqueness.MULTIPLE, "probes:detour"),
    (["A.", ".A"], EMPTY, Uniqueness.MULTIPLE, "probes:corner-move"),
    (TWO_TURNS, EMPTY, Uniqueness.MULTIPLE, "windows"),
    (["A.A", "B.B"], STRICT, Uniqueness.UNIQUE, "global-sat"),
])
def test_each_strategy_decides_a_board_built_for_it(rows: list[str], rules: Rules, uniqueness: Uniqueness, decided_by: str) -> None:
    puzzle = Puzzle.from_rows(rows)
    result = count(puzzle, rules=rules, time_limit=30)
    assert result.uniqueness is uniqueness and result.stats["decided_by"] == decided_by
    assert all(verify(puzzle, answer, rules) == [] for answer in result.solutions)
    steps = result.stats["steps"]
    assert steps[0][0] == "refute" and steps[-1][0] == decided_by
    assert all(isinstance(name, str) and isinstance(outcome, str) and seconds >= 0 for name, outcome, seconds in steps)


def test_solve_says_what_decided() -> None:
    assert solve(Puzzle.from_rows(["A.B", "...", "A.B"])).stats["decided_by"] == "refute"
    solved = solve(Puzzle.from_rows(SWAP))
    assert solved.stats["decided_by"] == "first" and solved.stats["first_answer"] == "touching-window"
    assert [step[0] for step in solved.stats["steps"]] == ["refute", "first"]
    none = solve(Puzzle.from_rows(["....", "A..A", "...."]))
    assert none.status is Status.UNSATISFIABLE and none.stats["decided_by"] == "first"


def test_an_undecided_count_says_nothing_decided() -> None:
    result = count(Puzzle.from_rows(["A..B", "....", "A..B"]), time_limit=0)
    assert result.uniqueness is Uniqueness.UNKNOWN and result.stats["decided_by"] is None


def test_an_undecided_default_count_says_whether_it_is_unique_without_self_touch() -> None:
    """Only refute and first run, so that nothing decides: the no-self-touch check (run with its
    own full pipeline) states what the puzzle is under those rules; a decided count, and other
    rule sets, never run it."""
    undecided = (REFUTE, FIRST)
    unique = formats.read(ROOT / "examples" / "numberlink" / "wide_7x5.nl")[0]
    several = formats.parse(". . . C\n. B A .\n. . . .\n. A B .\nC . . .")  # (two answers, neither touching)
    for puzzle, said in ((unique, "unique"), (several, "multiple")):
        state = State(puzzle, DEFAULT, solver="cadical195", limit=2, deadline=Deadline(30))
        result = pipeline.count(state, undecided)
        assert result.uniqueness is Uniqueness.UNKNOWN and result.stats["without_self_touch"] == said
        assert count(puzzle, rules=STRICT).uniqueness.value == said
        assert result.stats["steps"][-1][0] == "without-self-touch"
    state = State(unique, STRICT, solver="cadical195", limit=2, deadline=Deadline(30))
    assert "without_self_touch" not in pipeline.count(state, undecided).stats
    assert "without_self_touch" not in count(unique).stats


def test_show_states_the_no_self_touch_verdict_of_an_undecided_record() -> None:
    puzzle = Puzzle.from_rows(["A.A", "B.B"])
    record = {**records.solve_record(puzzle, options={}, time_limit=None), "unique": None, "without_self_touch": "unique"}
    assert "solved, uniqueness unknown (unique without self-touch)" in show.show(puzzle, record, verb="verify", colour=False)


def test_explain_prints_the_steps_and_the_record_keeps_them(tmp_path, capsys) -> None:
    path = tmp_path / "swap.nl"
    path.write_text("\n".join(" ".join(row) for row in SWAP) + "\n")
    assert main(["solve", str(path), "--explain"]) == 0
    text = capsys.readouterr().out
    assert "first        answer (touching-window)" in text and "probes:swap  answer" in text and "<- decided" in text
    main(["verify", str(path), "--json"])
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["decided_by"] == "probes:swap" and "steps" not in record
    main(["verify", str(path), "--json", "--explain"])
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert [step[0] for step in record["steps"]] == ["refute", "first", "probes:swap"]
    assert main(["verify", str(path)]) == 1
    assert "<- decided" not in capsys.readouterr().out
