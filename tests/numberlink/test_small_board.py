"""The compiled small-board search (``puzzlesat.numberlink._small`` through :mod:`.small_search`)
and its engine strategy ``small-board``: its counts equal the backtracking baseline's and the
SAT road's on seeded random small boards under the four rule sets, its verdicts on janko equal
the SAT pipeline's, it stops at its node budget and its deadline without a verdict, and the
pipeline goes on after it. Under CI the extension must be built (a failure, not a skip)."""

from __future__ import annotations

import importlib
import os
import random

import pytest

from puzzlesat import numberlink
from puzzlesat.numberlink import backtracking, small_search
from puzzlesat.numberlink.engine import pipeline, tuning
from puzzlesat.numberlink.engine.small_board import SMALL_BOARD
from puzzlesat.numberlink.engine.state import State
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.solve import count as sat_count
from puzzlesat.numberlink.verify import verify
from puzzlesat.timing import Deadline

from ..support import shared_path

gen = importlib.import_module("puzzlesat.numberlink.generate")

RULE_SETS = (Rules(), Rules(cover_all=False), Rules(no_self_touch=True), Rules(cover_all=False, no_self_touch=True))
NOT_BUILT = "the C extension puzzlesat.numberlink._small is not built (no C compiler at install): the SAT road runs alone"


def test_the_extension_is_built_under_ci() -> None:
    if os.environ.get("CI") == "true":
        assert small_search.AVAILABLE, NOT_BUILT
    elif not small_search.AVAILABLE:
        pytest.skip(NOT_BUILT)
    assert SMALL_BOARD.applies(Puzzle.from_rows(["A.A"]), Rules())


needs_extension = pytest.mark.skipif(not small_search.AVAILABLE and os.environ.get("CI") != "true", reason=NOT_BUILT)
pytestmark = needs_extension


@pytest.fixture(autouse=True)
def sat_road() -> None:
    """(Overrides tests/numberlink/conftest.py's: the compiled search stays on here.)"""


def random_board(rng: random.Random) -> Puzzle:
    """3x3 to 7x7: either the ends of a random partition into paths (solvable under cover-all,
    sometimes with its leftovers free and one end moved) or pairs dropped at random."""
    width, height = rng.randint(3, 7), rng.randint(3, 7)
    if rng.random() < 0.5:
        links, blocked = gen.unionfind_links(width, height, rng)
        links = [link for link in links if len(link) >= 2]
        puzzle, _ = gen._puzzle_from_links(width, height, links, frozenset() if rng.random() < 0.3 else blocked)
        taken = set(puzzle.endpoints()) | puzzle.blocked
        spare = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
        if rng.random() < 0.3 and puzzle.pairs and spare:
            pairs = list(puzzle.pairs)
            pairs[0] = Pair(pairs[0].label, pairs[0].start, rng.choice(spare))
            puzzle = Puzzle(width, height, tuple(pairs), puzzle.blocked)
        return puzzle
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    pairs = rng.randint(1, min(5, width * height // 3))
    blocked = rng.choice([0, 0, rng.randint(1, width * height // 6)])
    return Puzzle(width, height, tuple(Pair(str(i + 1), cells[2 * i], cells[2 * i + 1]) for i in range(pairs)),
                  frozenset(cells[2 * pairs: 2 * pairs + blocked]))


def test_counts_equal_the_backtracking_baseline_and_sat_on_random_small_boards() -> None:
    rng = random.Random(4604)
    seen = set()
    for i in range(500):
        puzzle = random_board(rng)
        for rules in RULE_SETS:
            compiled = small_search.search(puzzle, rules, limit=3, nodes=10**8)
            baseline = backtracking.count(puzzle, rules=rules, limit=3, time_limit=30)
            assert compiled.complete and baseline.complete
            assert len(compiled.answers) == baseline.count, f"{rules}:\n{puzzle}"
            if baseline.count < 3:  # every answer there is: the same ones
                assert set(compiled.answers) == set(baseline.solutions), f"{rules}:\n{puzzle}"
            if i % 10 == 0:  # the SAT road (slower) on a tenth of them
                sat = sat_count(puzzle, rules=rules, limit=2, time_limit=30)
                assert sat.complete and sat.count == min(2, len(compiled.answers)), f"{rules}:\n{puzzle}"
            seen.add((rules, min(len(compiled.answers), 2)))
    assert seen == {(rules, k) for rules in RULE_SETS for k in (0, 1, 2)}  # every rule set, none / one / several


@pytest.mark.parametrize("rules,budget,decided", [(Rules(no_self_touch=True), 300_000, 268), (Rules(), 20_000, 40)],
                         ids=["no-self-touch", "default"])
def test_verdicts_on_janko_equal_the_sat_pipeline_s(rules: Rules, budget: int, decided: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every janko puzzle the search decides within the budget (under default rules, without the
    corner rule, far fewer) gets the SAT pipeline's verdict."""
    puzzles = numberlink.read(shared_path("numberlink", "thomasahle-numberlink", "puzzles", "janko"))
    compiled = {}
    for i, puzzle in enumerate(puzzles):
        found = small_search.search(puzzle, rules, limit=2, nodes=budget)
        if found.complete:
            compiled[i] = len(found.answers)
    assert len(compiled) >= decided
    monkeypatch.setattr(tuning, "SMALL_BOARD_CELLS", 0)
    for i, answers in compiled.items():
        sat = sat_count(puzzles[i], rules=rules, limit=2, time_limit=60)
        assert sat.complete and sat.count == answers, f"janko #{i} under {rules}"


def test_a_budget_of_one_node_gives_no_verdict() -> None:
    puzzle = Puzzle.from_rows(["A....", ".....", "..B..", ".....", "A...B"])
    assert small_search.search(puzzle, Rules(), limit=2, nodes=10**6).complete
    stopped = small_search.search(puzzle, Rules(), limit=2, nodes=1)
    assert not stopped.complete and stopped.nodes == 1 and stopped.answers == ()


def test_the_deadline_stops_the_search() -> None:
    open_board = Puzzle.from_rows(["A......", ".......", ".......", ".......", ".......", ".......", "......A"])
    rules = Rules(cover_all=False)  # paths from corner to corner: far more than 10**6 of them
    stopped = small_search.search(open_board, rules, limit=10**6, nodes=10**9, deadline=Deadline(0.0))
    assert not stopped.complete and 0 < stopped.nodes < 10**5
    assert all(verify(open_board, answer, rules) == [] for answer in stopped.answers)


NST = Rules(no_self_touch=True)
TWO_ANSWERS = ["12...3", ".2.4..", "...4..", "5.56.3", "..16.7", ".88..7", "....99"]  # under no-self-touch
FIRST_BEFORE_THE_END = ["...#.1", ".#...#", ".12..2"]  # one answer, found before the search ends


def run_count(puzzle: Puzzle, rules: Rules) -> State:
    state = State(puzzle, rules, solver="cadical195", limit=2, deadline=Deadline(60))
    pipeline.count(state)
    return state


@pytest.mark.parametrize("rows,count", [(TWO_ANSWERS, 2), (["A..A", "B..B"], 1), (["AB.", "...", ".BA"], 0), (["A.B", "...", "A.B"], 0)])
def test_the_pipeline_decides_small_no_self_touch_boards_by_the_compiled_search(rows, count: int) -> None:
    result = run_count(Puzzle.from_rows(rows), NST).count_result()
    assert result.complete and result.count == count and result.stats["decided_by"] == "small-board"
    assert [step[0] for step in result.stats["steps"]] == ["small-board"]
    solved = numberlink.solve(Puzzle.from_rows(rows), rules=NST)
    assert solved.stats["decided_by"] == "small-board" and (solved.solution is not None) == (count > 0)
    if count:
        assert solved.stats["first_answer"] == "small-board" and verify(Puzzle.from_rows(rows), solved.solution, NST) == []


def test_a_stopped_search_keeps_its_answer_and_the_pipeline_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = Puzzle.from_rows(FIRST_BEFORE_THE_END)
    first = small_search.search(puzzle, NST, limit=1, nodes=10**6)
    assert first.complete and len(first.answers) == 1
    assert small_search.search(puzzle, NST, limit=2, nodes=10**6).nodes > first.nodes
    monkeypatch.setattr(tuning, "SMALL_BOARD_NODES", first.nodes)  # a first answer, then the budget ends
    state = run_count(puzzle, NST)
    assert [step[0] for step in state.steps][:3] == ["small-board", "refute", "first"]
    assert state.steps[0][1].startswith("nothing (stopped") and state.steps[2][1].startswith("nothing")
    assert state.found == [first.answers[0]] and state.exhausted and state.decided_by not in (None, "small-board")
    monkeypatch.setattr(tuning, "SMALL_BOARD_NODES", 1)  # stopped at once: the SAT road decides alone
    again = run_count(puzzle, NST)
    assert again.found == [first.answers[0]] and again.exhausted and again.steps[2][0] == "first"


def test_default_rules_take_a_first_answer_without_touching_and_no_verdict() -> None:
    puzzle = Puzzle.from_rows(["A..B", "....", "A..B"])  # no answer without touching; two with
    assert small_search.search(puzzle, NST, limit=1, nodes=10**6).answers == ()
    counted = numberlink.count(puzzle)
    assert counted.count == 2 and counted.complete and counted.stats["decided_by"] != "small-board"
    assert counted.stats["steps"][0][0] == "small-board" and counted.stats["steps"][0][1].startswith("nothing (no answer without touching")
    solved = numberlink.solve(Puzzle.from_rows(["A.A", "B.B"]))
    assert solved.stats["decided_by"] == "small-board" and solved.stats["first_answer"] == "small-board"
    many = numberlink.count(Puzzle.from_rows(["A..", "...", "..A"]), rules=Rules(cover_all=False), limit=20)
    assert many.count == 12 and many.complete and many.stats["decided_by"] != "small-board"
    assert not SMALL_BOARD.applies(puzzle, Rules(cover_all=False))
