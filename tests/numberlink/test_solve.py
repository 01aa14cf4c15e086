"""Solving, unsatisfiable puzzles, time limits, puzz.link uniqueness and the CLI contract."""

from __future__ import annotations

import importlib
import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from puzzlesat.child import GRACE_SECONDS, can_fork, wants_child
from puzzlesat.cli import main
from puzzlesat.numberlink import formats
from puzzlesat.numberlink.model import Pair, Puzzle, Rules, Solution
from puzzlesat.numberlink import search as search_module
from puzzlesat.numberlink.engine import first as first_module, global_sat, probes, tuning, windows
from puzzlesat.numberlink.engine.state import State
from puzzlesat.numberlink.engine.tuning import WINDOWS
from puzzlesat.numberlink.engine.windows import _window_starts
from puzzlesat.numberlink.solve import count, is_unique, solve
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status, Uniqueness
from puzzlesat.timing import Deadline
from tests.support import ROOT, shared_path

ALL_RULES = [Rules(), Rules(no_self_touch=True), Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)]
EXAMPLES = ROOT / "examples" / "numberlink"

BOARDS = {
    "2x3": ["A.A", "B.B"],
    "3x7 wide": ["A.....B", ".C...C.", "A.....B"],
    "7x3 tall": ["A.B", "...", ".C.", "...", ".C.", "...", "A.B"],
    "5x6 blocked": ["A.#..B", "......", "..##..", "C....C", "A....B"],
    "1x5 strip": ["A...A"],
    "4x4 one pair": ["A...", "....", "....", "...A"],
}


def test_puzzles_and_answers_built_from_numpy_arrays_hold_plain_labels_and_cells() -> None:
    """A grid or path taken from a numpy array: labels were kept as numpy str_ and cells as
    numpy integers, so the puzzle, its answers and their reprs read Pair(label=np.str_('B'), ...)
    and ((np.int64(1), np.int64(1)), ...) while equal to the ones parsed from text."""
    rows = ["...B", ".A..", "..BA"]
    from_array = Puzzle.from_rows(np.array([list(row) for row in rows]))
    assert from_array == Puzzle.from_rows(rows) and repr(from_array.pairs) == repr(Puzzle.from_rows(rows).pairs)
    assert all(type(pair.label) is str for pair in from_array.pairs)
    answer = solve(from_array).solution
    assert "np." not in repr(answer.paths)
    drawn = Solution.from_mapping({label: np.array(cells) for label, cells in answer.paths})
    assert drawn == answer and repr(drawn.paths) == repr(answer.paths) and verify(from_array, drawn) == []
    assert repr(from_array) == "<numberlink.Puzzle 4x3, 2 pairs>" and repr(answer) == "<numberlink.Solution 2 paths, 12 cells>"


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("rows", BOARDS.values(), ids=list(BOARDS))
def test_answers_verify(rows: list[str], rules: Rules) -> None:
    puzzle = Puzzle.from_rows(rows)
    result = solve(puzzle, rules=rules, time_limit=30)
    assert result.status in (Status.SOLVED, Status.UNSATISFIABLE)
    if result.solved:
        assert verify(puzzle, result.solution, rules) == []
        assert result.timings.total > 0 and result.method in ("route", "sat-cadical195")
    counted = count(puzzle, rules=rules, limit=2, time_limit=30)
    assert counted.complete
    assert (counted.count > 0) == result.solved
    for solution in counted.solutions:
        assert verify(puzzle, solution, rules) == []


def test_non_square_example_answer_is_the_unique_one() -> None:
    puzzle = formats.parse((EXAMPLES / "wide_7x5.nl").read_text())
    result = is_unique(puzzle)
    assert result.uniqueness is Uniqueness.UNIQUE and result.method == "sat-cadical195"
    assert result.solutions[0].path("5") == ((4, 2), (4, 3), (4, 4), (4, 5), (4, 6))
    assert count(puzzle, solver="glucose4").method == "sat-glucose4"
    assert count(puzzle, rules=Rules(cover_all=False), limit=2).uniqueness is Uniqueness.UNIQUE


def test_parity_makes_a_cover_all_board_unsatisfiable() -> None:
    puzzle = Puzzle.from_rows(["A.B", "...", "A.B"])
    assert solve(puzzle).status is Status.UNSATISFIABLE
    assert count(puzzle).uniqueness is Uniqueness.NONE
    assert solve(puzzle, rules=Rules(cover_all=False)).solved


def test_isolated_free_cell_is_unsatisfiable_under_cover_all() -> None:
    puzzle = Puzzle.from_rows(["A.A", "###", ".##"])
    assert solve(puzzle).status is Status.UNSATISFIABLE
    assert solve(puzzle, rules=Rules(cover_all=False)).solved


def test_free_region_without_endpoints_is_unsatisfiable_under_cover_all() -> None:
    """Only stray cycles could cover the right half: the cycle cuts must prove it impossible."""
    puzzle = Puzzle.from_rows(["A.#..", "..#..", "A.#.."])
    assert solve(puzzle).status is Status.UNSATISFIABLE
    assert count(puzzle, limit=5).count == 0


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_mzucker_unsolvable_cross(rules: Rules) -> None:
    text = shared_path("numberlink", "mzucker-flow_solver", "puzzles", "unsolvable_cross.txt").read_text()
    puzzle = formats.parse(text)
    assert solve(puzzle, rules=rules, time_limit=30).status is Status.UNSATISFIABLE


def test_crossing_pairs_are_unsatisfiable_without_data() -> None:
    puzzle = Puzzle(5, 5, (Pair("R", (0, 0), (4, 4)), Pair("G", (0, 4), (4, 0))), frozenset({(2, 2)}))
    for rules in ALL_RULES:
        assert solve(puzzle, rules=rules).status is Status.UNSATISFIABLE


def test_time_limit_while_counting_returns_promptly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting every answer of a nearly empty 30x30 board cannot finish: it stops at its
    deadline, here a long limit the clock jumps past once the counting has started."""
    from tests.clock import jump_clock_after

    puzzle = Puzzle(30, 30, (Pair("A", (0, 0), (29, 29)), Pair("B", (0, 29), (15, 3))))
    clock = jump_clock_after(monkeypatch, reads=100)
    result = count(puzzle, rules=Rules(cover_all=False), limit=10**6, time_limit=60)
    assert clock.jumped and not result.complete
    # the answers found before the deadline are kept: two make it "multiple" (with none or
    # one, it is unknown)
    assert len(result.solutions) == result.count
    assert result.uniqueness is (Uniqueness.MULTIPLE if result.count >= 2 else Uniqueness.UNKNOWN)


def test_time_limit_while_encoding_a_huge_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building the formula of a million cells looks at the deadline as it goes: the clock
    jumps past a long limit a few looks into it, and the answer is unknown before the formula
    is complete (no "variables" in the stats). In process, and under no-self-touch rules, whose
    formula is built at once (default rules first draw an answer by routing, fill.py)."""
    from tests.clock import jump_clock_after

    monkeypatch.setattr(tuning, "CHILD_PROCESS_CELLS", 10**9)
    # (pairs chosen so that no search-free check refutes the board: topology.py)
    puzzle = Puzzle(1000, 1000, (Pair("A", (0, 0), (999, 999)), Pair("B", (0, 999), (500, 501))))
    clock = jump_clock_after(monkeypatch, reads=10)
    result = solve(puzzle, rules=Rules(no_self_touch=True), time_limit=60)
    assert clock.jumped and result.status is Status.UNKNOWN
    assert "variables" not in result.stats


def test_huge_board_under_a_time_limit_runs_in_a_child_process_that_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = Puzzle(600, 500, (Pair("A", (0, 0), (499, 599)), Pair("B", (0, 599), (250, 251))))
    cells = puzzle.width * puzzle.height
    assert wants_child(Deadline(1.0), cells=cells, threshold=tuning.CHILD_PROCESS_CELLS) == can_fork()
    assert not wants_child(Deadline(None), cells=cells, threshold=tuning.CHILD_PROCESS_CELLS)
    from tests.clock import jump_clock_after

    jump_clock_after(monkeypatch, reads=20)  # (the forked child reads the same clock: it jumps there)
    result = count(puzzle, time_limit=60)
    assert result.uniqueness is Uniqueness.UNKNOWN  # (the child saw its deadline pass)


def test_child_process_that_overruns_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "CHILD_PROCESS_CELLS", 10)
    monkeypatch.setattr(first_module, "_first_answer_default", lambda *args: time.sleep(60))  # a solver that hangs
    puzzle = Puzzle.from_rows(["A..B", "....", "A..B"])
    start = time.perf_counter()
    counted = count(puzzle, time_limit=0.5)
    solved = solve(puzzle, time_limit=0.5)
    # a hang guard only (the hanging solver sleeps 60 s each time): "killed" below is the check
    assert time.perf_counter() - start < 2 * (0.5 + GRACE_SECONDS) + 30.0
    assert counted.uniqueness is Uniqueness.UNKNOWN and solved.status is Status.UNKNOWN
    assert "killed" in counted.stats["stopped"] and "killed" in solved.stats["stopped"]


def test_child_process_hands_back_verified_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "CHILD_PROCESS_CELLS", 10)
    puzzle = Puzzle.from_rows(["A..B", "....", "A..B"])
    assert wants_child(Deadline(30), cells=12, threshold=tuning.CHILD_PROCESS_CELLS) == can_fork()
    in_child = count(puzzle, time_limit=30)
    assert in_child.uniqueness is Uniqueness.MULTIPLE and all(verify(puzzle, s) == [] for s in in_child.solutions)
    solved = solve(puzzle, time_limit=30)
    assert solved.solved and verify(puzzle, solved.solution) == []
    assert solve(Puzzle.from_rows(["A.B", "...", "A.B"]), time_limit=30).status is Status.UNSATISFIABLE


def test_answers_found_before_a_child_process_is_stopped_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that has found an answer but overruns the limit afterwards (on a board of a
    million cells, freeing the solver's memory alone takes seconds) is killed; the answer it
    reported stays. Once it has reported all the caller asked for (one answer for solve,
    ``limit`` for count) it is stopped at once, not at the limit. The times asserted are hang
    guards only, well under the 60 s the child would hang: the stats say how it was stopped."""
    monkeypatch.setattr(tuning, "CHILD_PROCESS_CELLS", 1)
    monkeypatch.setattr(search_module.Search, "close", lambda self: time.sleep(60))  # (in the child only)
    puzzle = Puzzle.from_rows(["A..A", "B..B"])
    for rules in (Rules(), Rules(no_self_touch=True)):
        start = time.perf_counter()
        solved = solve(puzzle, rules=rules, time_limit=30)
        assert time.perf_counter() - start < 20  # (a hang guard: not at the 30 s limit)
        assert solved.solved and verify(puzzle, solved.solution, rules) == []
        assert "stopped" in solved.stats["stopped"]  # (stopped once it had its answer, not killed at the limit)
        start = time.perf_counter()
        first = count(puzzle, rules=rules, limit=1, time_limit=30)
        assert time.perf_counter() - start < 20  # (a hang guard)
        assert first.count == 1 and first.complete and first.solutions == (solved.solution,)
        assert "stopped" in first.stats["stopped"]
        start = time.perf_counter()
        counted = count(puzzle, rules=rules, time_limit=0.5)  # (the proof that no second exists never comes)
        assert time.perf_counter() - start < 0.5 + GRACE_SECONDS + 30.0  # (a hang guard)
        assert "killed" in counted.stats["stopped"]
        assert counted.count == 1 and not counted.complete and counted.uniqueness is Uniqueness.UNKNOWN
        assert counted.solutions == (solved.solution,)


def test_time_limit_on_a_hard_published_puzzle() -> None:
    """janko #66 (25x25) under touching rules, with a second: multiple, or unknown with every
    answer found kept and valid. (How soon it returns is for benchmarks/; the bound below
    only guards against a hang.)"""
    text = shared_path("numberlink", "thomasahle-numberlink", "puzzles", "janko").read_text()
    puzzle = formats.parse_all(text)[65]
    start = time.perf_counter()
    result = count(puzzle, time_limit=1.0)
    assert time.perf_counter() - start < 1.0 + 30.0
    assert result.uniqueness in (Uniqueness.UNKNOWN, Uniqueness.MULTIPLE)
    for solution in result.solutions:
        assert verify(puzzle, solution) == []


# generate(14, 11, method="unionfind", seed=0, rules=no-self-touch): unique without touching;
# with touching allowed a second answer differs from the first only in a small window
WINDOW_MULTIPLE = [
    "1 . # . . . 2 . . . . 3 . 3",
    "4 1 . . . . . . 5 5 . . . .",
    "4 # 2 6 . 7 . . . 8 9 # 9 .",
    ". . . 6 . . 10 7 . 11 . . . .",
    "12 # . . . . 10 . . . 11 13 13 .",
    "14 12 15 15 . . . . 16 . . . . .",
    "14 . . . . . . . 16 . # . . .",
    "17 . . # 18 . 19 . 20 . . . 21 .",
    "22 # 17 . . 20 . 23 . 24 . 23 21 .",
    "22 . . . 25 . 19 25 . 24 . 8 . .",
    "18 . 26 . 26 . . . . . . . . #",
]


def test_second_answer_in_a_window_decides_multiple(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = formats.parse("\n".join(WINDOW_MULTIPLE))
    assert is_unique(puzzle, rules=Rules(no_self_touch=True), time_limit=30).unique is True
    assert count(puzzle, time_limit=30).stats["local_variant"] == "two turns"  # (found before any window)
    monkeypatch.setattr(probes, "_two_turn_variant", lambda *args: None)
    result = count(puzzle, time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.stats["local_variant"] == "window"
    first, second = result.solutions
    assert first != second and verify(puzzle, first) == [] and verify(puzzle, second) == []
    cells_changed = [cell for label, cells in first.paths for cell in cells if cell not in second.path(label)]
    rows = [r for r, _ in cells_changed]
    columns = [c for _, c in cells_changed]
    assert cells_changed and max(rows) - min(rows) < max(size for size, _ in WINDOWS) and max(columns) - min(columns) < max(size for size, _ in WINDOWS)


def test_answer_that_must_touch_itself_is_found_in_a_window() -> None:
    """Row stripes, and in the top-right corner two endpoints side by side whose path must run
    round two cells beside them: no answer without touching, one that touches in one spot."""
    labels = "BCDEFGHIJKLMNO"
    rows = [labels[r] + "." * 16 + labels[r] + "A." if r < 2 else labels[r] + "." * 18 + labels[r] for r in range(14)]
    puzzle = Puzzle.from_rows(rows)
    assert solve(puzzle, rules=Rules(no_self_touch=True), time_limit=30).status is Status.UNSATISFIABLE
    result = solve(puzzle, time_limit=30)
    assert result.solved and result.stats["first_answer"] == "touching-window"
    assert result.solution.path("A") == ((0, 18), (0, 19), (1, 19), (1, 18))
    assert verify(puzzle, result.solution) == []
    counted = count(puzzle, time_limit=30)
    assert counted.stats["first_answer"] == "touching-window" and counted.count >= 1
    assert all(verify(puzzle, answer) == [] for answer in counted.solutions)


def test_janko_190_needs_touching_and_is_solved() -> None:
    """HoustonWeHaveABug's raetsel_190a (janko Arukone 190, 35x48): a path runs beside its own
    endpoint; the default formula alone found no answer in 60 s."""
    path = shared_path("numberlink", "HoustonWeHaveABug-FlowFree", "puzzles", "flowfree_raetsel_190a.txt")
    puzzle = formats.parse(path.read_text())
    result = solve(puzzle, time_limit=30)
    assert result.solved and result.stats["first_answer"] == "touching-window"
    assert verify(puzzle, result.solution) == [] and verify(puzzle, result.solution, Rules(no_self_touch=True)) != []


ADC2015 = ("dasadc-conmgr-ADC2015", "sample", "ADC2015_QA", "Q")


@pytest.mark.slow
@pytest.mark.parametrize("name,first", [("Q07.txt", "covering"), ("Q10.txt", "covering"), ("Q11.txt", "covering"), ("Q17.txt", None)])
def test_adc_2015_puzzles_that_the_may_leave_empty_formula_missed(name: str, first: str | None) -> None:
    """Q07, Q10, Q11 (their published answers cover every cell) and Q17 (49 empty cells) were
    not solved in 30 s by the may-leave-empty formula alone."""
    puzzle = formats.parse(shared_path("numberlink", *ADC2015, name).read_bytes())
    rules = Rules(cover_all=False)
    result = solve(puzzle, rules=rules, time_limit=30)
    assert result.solved and verify(puzzle, result.solution, rules) == []
    assert result.stats.get("first_answer") == first


def test_few_empty_search_finds_answers_and_proves_none() -> None:
    rules = Rules(cover_all=False)
    solvable = Puzzle.from_rows(["A.......", "........", "..B..C..", "........", "..C..B..", "A......."])
    crossing = Puzzle.from_rows(["..A..", ".....", "B...B", ".....", "..A.."])
    for puzzle, expected in ((solvable, Status.SOLVED), (crossing, Status.UNSATISFIABLE)):
        search = search_module.Search(puzzle, rules, "cadical195", Deadline(30), formula_rules=Rules(cover_all=False, no_self_touch=True))
        try:
            status, solution = search.answer_with_few_empty(bounds=(0, 2))
        finally:
            search.close()
        assert status is expected
        if solution is not None:
            assert verify(puzzle, solution, rules) == []


def test_few_empty_search_drops_counter_bounds_too_big_for_memory(monkeypatch) -> None:
    """The totalizer over the empty cells has about cells x bound clauses (a 1002 x 1002 board
    with bound 128 ran out of 24 GB): bounds over the cap are dropped, the plain search stays."""
    puzzle = Puzzle.from_rows(["A.......", "........", "..B..C..", "........", "..C..B..", "A......."])
    rules = Rules(cover_all=False)
    monkeypatch.setattr(tuning, "EMPTY_COUNTER_MAX_CLAUSES", 2 * 42)  # 42 inner cells: bound 2 fits, 8 not
    search = search_module.Search(puzzle, rules, "cadical195", Deadline(30), formula_rules=Rules(cover_all=False, no_self_touch=True))
    try:
        status, solution = search.answer_with_few_empty(bounds=(8, 2))
        assert status is Status.SOLVED and verify(puzzle, solution, rules) == []
    finally:
        search.close()
    counted = []
    monkeypatch.setattr(search_module, "counter", lambda lits, bound, pool: counted.append(bound) or ([], []))
    search = search_module.Search(puzzle, rules, "cadical195", Deadline(30), formula_rules=Rules(cover_all=False, no_self_touch=True))
    try:
        search.answer_with_few_empty(bounds=(8, 2))
    finally:
        search.close()
    assert counted == [2]


def test_no_window_search_on_big_boards() -> None:
    """Each window call assumes every edge outside the window: on big boards that is too slow."""
    from puzzlesat.numberlink.engine.tuning import MAX_WINDOW_CELLS

    big = Puzzle(210, 200, (Pair("A", (0, 0), (199, 209)), Pair("B", (0, 209), (199, 0))))
    small = Puzzle(20, 20, (Pair("A", (0, 0), (19, 19)), Pair("B", (0, 19), (19, 0))))
    assert big.width * big.height > MAX_WINDOW_CELLS >= small.width * small.height
    for puzzle, expected in ((big, 0), (small, 4 * 4 + 3 * 3)):  # 8x8 from 0, 4, 8, 12; 12x12 from 0, 6, 8
        search = search_module.Search(puzzle, Rules(), "cadical195", Deadline(30))
        try:
            assert len(list(windows.window_masks(search, WINDOWS))) == expected
        finally:
            search.close()


# two answers: labels 4 and 7 trade their routes over a 3x4 patch (no other path changes)
def test_two_turns_trade_the_stretches_between_blocks_where_two_paths_step_side_by_side() -> None:
    """Stepping the opposite way at both 2x2 blocks the paths trade their stretches as they are;
    stepping the same way, reversed. A result that breaks the rules is not returned."""
    from puzzlesat.numberlink.engine.probes import _side_by_side, _two_turn_variant

    opposite = Puzzle.from_rows(["...A", ".AB.", "B..."])
    first = Solution.from_rows(opposite, ["BBBA", "BABA", "BAAA"])
    assert list(_side_by_side(first)) == [("A", "B", False)]
    assert _two_turn_variant(opposite, first, Rules()) == Solution.from_rows(opposite, ["AAAA", "AABB", "BBBB"])
    assert _two_turn_variant(opposite, first, Rules(no_self_touch=True)) is None  # (A runs beside itself there)
    same = Puzzle.from_rows(["....", ".A..", ".B..", "A..B"])
    first = Solution.from_rows(same, ["BBBB", "BAAB", "BBAB", "AAAB"])
    assert list(_side_by_side(first)) == [("A", "B", True)]
    variant = _two_turn_variant(same, first, Rules())
    assert variant is not None and variant != first and verify(same, variant) == []
    # two paths side by side all the way, stepping the same way, meet the blocks in the same
    # order: turning two of them would join A's ends to B's
    parallel = Puzzle.from_rows(["A..A", "B..B"])
    first = Solution.from_rows(parallel, ["AAAA", "BBBB"])
    assert _side_by_side(first) == {("A", "B", True): [(0, 0), (1, 1), (2, 2)]}
    assert _two_turn_variant(parallel, first, Rules()) is None


LABEL_WINDOW_MULTIPLE = [
    ". . . 1 1 2 2",
    ". # . . 3 . .",
    ". . 4 . . . 3",
    "5 . . . 4 . .",
    "5 . 6 7 . # .",
    "7 . . 6 . . .",
]


def test_label_sets_are_connected_by_touching_paths() -> None:
    from puzzlesat.numberlink.engine.windows import _label_sets

    puzzle = Puzzle.from_rows(["A.A", "B.B", "C.C"])
    answer = solve(puzzle).solution
    groups = list(_label_sets(puzzle, answer, 3))
    assert groups == [frozenset("A"), frozenset("B"), frozenset("C"), frozenset("AB"), frozenset("BC"), frozenset("ABC")]
    assert list(_label_sets(puzzle, answer, 1)) == groups[:3]
    # may-leave-empty: A and C touch across the empty middle row, B touches nobody
    spaced = Puzzle.from_rows(["AA#BB", "#.###", "CC###"])  # (every path is forced)
    answer = solve(spaced, rules=Rules(cover_all=False)).solution
    assert list(_label_sets(spaced, answer, 2)) == [frozenset("A"), frozenset("B"), frozenset("C"), frozenset("AC")]


def test_label_window_holds_a_second_answer_that_no_small_square_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second answer reroutes two paths; the window of those two labels' cells holds it,
    windows of one label do not, nor do 2x2 squares; count() takes it from the label windows
    when the square windows miss it and no search runs beside them (neither the frontier count
    nor the global search in a process of its own, which may decide first: on a loaded machine
    it did, and this test failed by timing)."""
    puzzle = formats.parse("\n".join(LABEL_WINDOW_MULTIPLE))
    first = solve(puzzle).solution
    search = search_module.Search(puzzle, Rules(), "cadical195", Deadline(30))
    try:
        search.block(first)
        assert windows._window_variant(search, first, windows=((2, 1000),)) is None
        assert windows._label_window_variant(search, first, most=1) is None
        second = windows._label_window_variant(search, first, most=2)
    finally:
        search.close()
    assert second is not None and verify(puzzle, second) == []
    assert {label for label, cells in first.paths if second.path(label) != cells} == {"4", "7"}

    square_windows = windows._window_variant
    monkeypatch.setattr(windows, "_window_variant", lambda *args, **kwargs: square_windows(*args, **kwargs, windows=((2, 1000),)))
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)  # no frontier count beside
    monkeypatch.setattr(global_sat, "_may_work_beside", lambda: False)  # no global search beside
    monkeypatch.setattr(tuning, "LABEL_WINDOW_AFTER", 0.0)  # no global search first
    assert count(puzzle, time_limit=30).stats["local_variant"] == "two turns"  # (found before any window)
    monkeypatch.setattr(probes, "_two_turn_variant", lambda *args: None)
    result = count(puzzle, time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.stats["local_variant"] == "label window"
    assert result.stats["decided_by"] == "windows:label"
    assert all(verify(puzzle, answer) == [] for answer in result.solutions)


def test_a_window_call_asks_whether_to_stop_between_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``stop``, a bounded call runs in steps of STOP_STEP_CONFLICTS conflicts and asks
    between two (so the frontier count beside is read while a large window is searched): it
    gives up at the first "yes", and otherwise reaches the verdict of one call."""
    monkeypatch.setattr(tuning, "STOP_STEP_CONFLICTS", 50)
    puzzle = formats.read(EXAMPLES / "medium_10x10.nl")[0]  # unique: refuting a second answer takes hundreds of conflicts
    first = solve(puzzle).solution
    for answer in (False, True):
        search = search_module.Search(puzzle, Rules(), "cadical195", Deadline(30))
        asked: list[bool] = []

        def stop() -> bool:
            asked.append(answer)
            return answer

        try:
            search.block(first)
            calls = search.solver.calls
            assert search.bounded_answer([], 100_000, stop) is None
            if answer:
                assert len(asked) == 1 and search.solver.calls == calls + 1
            else:  # (the last call refutes)
                assert len(asked) >= 2 and search.solver.calls >= calls + len(asked) + 1
        finally:
            search.close()


def test_the_global_search_runs_beside_the_windows_where_no_frontier_count_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Default rules, no frontier count (as on boards over FRONTIER_MAX_SIDE cells across): the
    global search for a second answer runs in a forked copy of the search beside the windows.
    It proves a unique puzzle unique; on a puzzle with several answers whichever finds one
    first gives it, verified."""
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)
    unique = formats.read(EXAMPLES / "medium_10x10.nl")[0]
    result = count(unique, time_limit=30)
    assert result.complete and result.uniqueness is Uniqueness.UNIQUE
    assert result.stats["global_search"] == "beside the windows: unsatisfiable" and result.stats["decided_by"] == "global-sat"
    assert result.stats["proof_solver"] == "fresh beside the windows"
    monkeypatch.setattr(probes, "_two_turn_variant", lambda *args: None)
    several = formats.parse("\n".join(LABEL_WINDOW_MULTIPLE))
    result = count(several, time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.solutions[0] != result.solutions[1]
    assert all(verify(several, answer) == [] for answer in result.solutions)


def test_the_proofs_search_leaves_its_phases_free_and_blocks_every_answer_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The global proof (in turn on a fresh solver, or made anew beside the windows) does not
    set its phases to the first answer, which the windows' shared search does; made anew, it
    blocks the answers it is given and still finds the others, or proves there are none."""
    preferred: list[int] = []
    plain_prefer = search_module.SatSearch.prefer
    monkeypatch.setattr(search_module.SatSearch, "prefer", lambda self, answer: (preferred.append(id(self)), plain_prefer(self, answer)))
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)
    monkeypatch.setattr(global_sat, "_may_work_beside", lambda: False)
    monkeypatch.setattr(tuning, "LABEL_WINDOW_AFTER", 0.0)
    result = count(formats.read(EXAMPLES / "medium_10x10.nl")[0], time_limit=30)
    assert result.uniqueness is Uniqueness.UNIQUE and result.stats["proof_solver"] == "fresh after the windows"
    assert len(preferred) == 1  # (the windows' search only)
    preferred.clear()
    several = formats.parse("\n".join(LABEL_WINDOW_MULTIPLE))
    state = State(several, Rules(), solver="cadical195", limit=3, deadline=Deadline(30))
    try:
        status, first = state.search().next_answer()
        assert status is Status.SOLVED
        state.found.append(first)
        status, second = global_sat._global_search(state.search(), anew=state)
        assert status is Status.SOLVED and second != first and verify(several, second) == []
        state.found.append(second)
        assert global_sat._global_search(state.search(), anew=state)[1] not in (first, second)
        assert preferred == []
    finally:
        state.close()


@pytest.mark.parametrize("fresh", [True, False])
def test_the_global_proof_in_turn_after_the_windows_runs_on_a_fresh_solver(monkeypatch: pytest.MonkeyPatch, fresh: bool) -> None:
    """Where nothing runs beside the windows (no fork, as in a batch worker), the proof of
    uniqueness after them gets a fresh solver (boards of at most FRESH_PROOF_MAX_CELLS cells),
    with the first answer blocked: the same verdict, the time before it kept."""
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)
    monkeypatch.setattr(global_sat, "_may_work_beside", lambda: False)
    monkeypatch.setattr(tuning, "LABEL_WINDOW_AFTER", 0.0)  # (the head start ends at once: the proof comes after the label windows)
    monkeypatch.setattr(tuning, "FRESH_PROOF_MAX_CELLS", 10_000 if fresh else 0)
    result = count(formats.read(EXAMPLES / "medium_10x10.nl")[0], time_limit=30)
    assert result.complete and result.uniqueness is Uniqueness.UNIQUE and result.stats["decided_by"] == "global-sat"
    names = [step[0] for step in result.stats["steps"]]
    assert names[-1] == "global-sat" and names.index("windows:label") < len(names) - 1
    assert result.stats.get("proof_solver") == ("fresh after the windows" if fresh else None)
    assert result.timings.encode > 0 and result.timings.solve > 0


def test_count_searches_on_by_itself_when_the_search_beside_dies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)
    monkeypatch.setattr(global_sat, "_global_search", lambda search, **_: os._exit(1))
    result = count(formats.read(EXAMPLES / "medium_10x10.nl")[0], time_limit=30)
    assert result.complete and result.uniqueness is Uniqueness.UNIQUE
    assert result.stats["global_search"].startswith("failed")


def test_label_window_decides_a_may_leave_empty_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    """ADC 2015 Q07 (36x36, may-leave-empty): its covering first answer has a second answer
    that reroutes two paths further than any square window reaches (uniqueness was unknown
    at 30 s before label windows)."""
    path = shared_path("numberlink", "dasadc-conmgr-ADC2015", "sample", "ADC2015_QA", "Q", "Q07.txt")
    puzzle = formats.read(path)[0]
    monkeypatch.setattr(tuning, "LABEL_WINDOW_AFTER", 0.0)  # (the global search finds none in 30 s anyway)
    result = count(puzzle, rules=Rules(cover_all=False), time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.stats["local_variant"] == "label window"
    first, second = result.solutions
    assert verify(puzzle, first, Rules(cover_all=False)) == [] and verify(puzzle, second, Rules(cover_all=False)) == []
    assert 1 <= sum(second.path(label) != cells for label, cells in first.paths) <= tuning.LABEL_WINDOW_LABELS


@pytest.mark.parametrize("length,size,starts", [(5, 8, [0]), (8, 8, [0]), (14, 8, [0, 4, 6]), (20, 8, [0, 4, 8, 12])])
def test_windows_cover_the_board(length: int, size: int, starts: list[int]) -> None:
    assert _window_starts(length, size) == starts


PUZZLINK = [
    "p?numlin/14/14/uap6k2p8o7q9lbgam1y6h4j5p5k7h1u3gbg8k2g9u3k4u",
    "p?numlin/15/15/z5g2h9l3o3rck1x9jch1h6kazual4gbi4j8ybi6l7g2m8n5h7z",
]


@pytest.mark.parametrize("url", PUZZLINK)
def test_puzzlink_examples_have_exactly_one_answer(url: str) -> None:
    try:
        puzzle = formats.parse(url)
    except NotImplementedError:
        pytest.skip("puzz.link reader not written yet")
    rules = formats.url_rules(url)
    assert rules == Rules(cover_all=False)  # numlin: Nikoli's rules, cells may stay empty
    result = count(puzzle, rules=rules, limit=2, time_limit=120)
    assert result.uniqueness is Uniqueness.UNIQUE
    assert verify(puzzle, result.solutions[0], rules) == []


# -- the CLI contract ------------------------------------------------------------------------
KEYS = {"family", "source", "index", "status", "unique", "grid", "paths", "seconds", "error",  # and the shared record shape's
        "objective", "size", "answer", "moves", "reason", "solved_by", "stated_answer", "rules", "method", "encode_seconds", "solve_seconds"}


def test_cli_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "wide_7x5.nl"
    assert main(["solve", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert KEYS <= set(record)
    assert record["family"] == "numberlink" and record["source"] == str(path) and record["index"] == 0
    assert record["status"] == "solved" and record["unique"] is True and record["error"] is None
    puzzle = formats.parse(path.read_text())
    grid = record["grid"]
    assert len(grid) == puzzle.height and all(len(row) == puzzle.width for row in grid)
    rebuilt = {label: tuple(map(tuple, cells)) for label, cells in record["paths"].items()}
    from puzzlesat.numberlink.model import Solution

    solution = Solution.from_mapping(rebuilt)
    assert verify(puzzle, solution) == []
    assert solution.to_rows(puzzle) == grid


def test_cli_shows_where_a_puzzle_is_ambiguous(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A puzzle with several answers: the record carries the second answer and the labels whose
    paths differ; the text output names them and draws the second answer."""
    from puzzlesat.numberlink.model import Solution

    path = tmp_path / "two.nl"
    path.write_text("\n".join(LABEL_WINDOW_MULTIPLE) + "\n")
    puzzle = formats.parse(path.read_text())
    assert main(["solve", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["unique"] is False and record["differs"] == ["4", "7"]
    first = Solution.from_mapping({label: tuple(map(tuple, cells)) for label, cells in record["paths"].items()})
    second = Solution.from_mapping({label: tuple(map(tuple, cells)) for label, cells in record["second_paths"].items()})
    assert verify(puzzle, first) == [] and verify(puzzle, second) == [] and first != second
    assert second.to_rows(puzzle) == record["second_grid"] != record["grid"]
    assert main(["solve", str(path)]) == 0
    text = capsys.readouterr().out
    assert "multiple answers (paths 4, 7 differ; a path may run beside itself here, --no-self-touch forbids it)" in text and "another answer:" in text
    unique = tmp_path / "one.nl"
    unique.write_text("A . A\nB . B\n")
    assert main(["solve", str(unique), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["unique"] is True and "differs" not in record and "second_grid" not in record


def test_cli_suggests_no_self_touch_only_when_an_answer_runs_beside_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """thomasahle inputs5 #11 has exactly two answers and no path of either runs beside itself,
    so --no-self-touch leaves both: the line names the differing paths without suggesting it."""
    path = tmp_path / "two_clean.nl"
    path.write_text(". . . C\n. B A .\n. . . .\n. A B .\nC . . .\n")
    puzzle = formats.parse(path.read_text())
    assert count(puzzle, limit=3).count == count(puzzle, rules=Rules(no_self_touch=True), limit=3).count == 2
    assert main(["verify", str(path)]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert "multiple answers (paths A, C differ)" in line and "no-self-touch" not in line


def test_cli_says_when_a_url_is_checked_under_rules_it_does_not_ask_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nikoli's numlin (and arukone with the e flag) lets cells stay empty: such a URL checked
    under the default cover-all rules says so and names the flag; the rules are never applied
    silently, and a URL checked under the rules it asks for has no note."""
    numlin = "https://puzz.link/p?numlin/5/3/1i1k2i2"  # 1 . . . 1 / . . . . . / 2 . . . 2: needs empty cells
    assert main(["verify", numlin]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert "unsolvable [checked under cover-all rules; the URL asks for may-leave-empty rules: --allow-empty]" in line
    assert main(["verify", numlin, "--allow-empty"]) == 1  # (two answers)
    assert "checked under" not in capsys.readouterr().out
    urls = tmp_path / "urls.txt"
    urls.write_text("p?arukone/5/5/1j2h3m1h2j3\n# a comment line\np?arukone/e/5/3/1i1k2i2\n")
    assert main(["verify", str(urls)]) == 1
    first, second = capsys.readouterr().out.splitlines()[:2]
    assert first.startswith(f"{urls}#0") and "checked under" not in first
    assert second.startswith(f"{urls}#1") and "the URL asks for may-leave-empty rules: --allow-empty" in second


def test_cli_render_says_when_a_url_is_drawn_under_rules_it_does_not_ask_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    numlin = "https://puzz.link/p?numlin/5/3/1i1k2i2"  # needs empty cells
    picture = str(tmp_path / "answer.svg")
    assert main(["render", numlin, "--solution", "-o", picture]) == 1  # no answer under cover-all
    err = capsys.readouterr().err
    assert "no answer drawn: unsolvable under cover-all rules" in err
    assert "note: checked under cover-all rules; the URL asks for may-leave-empty rules: --allow-empty" in err
    assert main(["render", numlin, "--solution", "--allow-empty", "-o", picture]) == 0
    assert "the URL asks for" not in capsys.readouterr().err
    urls = tmp_path / "urls.txt"
    urls.write_text("p?arukone/5/5/1j2h3m1h2j3\np?arukone/e/5/3/1i1k2i2\n")
    assert main(["render", str(urls), "--index", "0", "--solution", "-o", picture]) == 0  # asks for cover-all
    assert "the URL asks for" not in capsys.readouterr().err
    assert main(["render", str(urls), "--index", "1", "--solution", "-o", picture]) == 1
    assert "the URL asks for may-leave-empty rules" in capsys.readouterr().err


def test_cli_verify_json_over_the_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(EXAMPLES), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert len(records) == len(list(EXAMPLES.glob("*.nl"))) >= 5
    for record in records:
        assert KEYS <= set(record)
        assert record["status"] == "solved" and record["unique"] is True


def test_cli_verify_reports_a_bad_file_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a_bad.nl").write_text("A . B\n. . .\nA . .\n")
    (tmp_path / "b_good.nl").write_text("A . A\nB . B\n")
    assert main(["verify", str(tmp_path), "--json"]) != 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [r["status"] for r in records] == ["error", "solved"]
    assert "'B'" in records[0]["error"] and records[1]["unique"] is True


def test_cli_allow_empty_and_unsatisfiable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "parity.nl"
    path.write_text("A . B\n. . .\nA . B\n")
    main(["solve", str(path), "--json"])
    assert json.loads(capsys.readouterr().out)["status"] == "unsolvable"
    main(["solve", str(path), "--json", "--allow-empty"])
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "solved" and record["unique"] is False


def test_colour_count_refutes_a_huge_board_at_once() -> None:
    """thomasahle inputs6 #2 (1002 x 1002, five pairs): four spokes from the corners to a centre
    block and one pair on diagonal neighbours; the paths would cover one black cell more than
    white, and the board has as many of each: refuted before any formula is built (the SAT
    formula takes many seconds to refute it)."""
    from puzzlesat.numberlink.topology import colour_count_contradiction

    pairs = (Pair("a", (0, 0), (500, 500)), Pair("b", (0, 1001), (500, 501)), Pair("c", (501, 500), (1001, 0)),
             Pair("d", (501, 501), (1001, 1001)), Pair("e", (997, 997), (998, 998)))
    puzzle = Puzzle(1002, 1002, pairs)
    solved, counted = solve(puzzle, time_limit=60), count(puzzle, time_limit=60)
    assert "variables" not in solved.stats and "variables" not in counted.stats  # (no formula)
    assert solved.status is Status.UNSATISFIABLE and counted.uniqueness is Uniqueness.NONE and counted.complete
    assert "chessboard" in solved.stats["proof"]
    assert colour_count_contradiction(puzzle, Rules(cover_all=False)) is None  # (cells may stay empty: no such count)


def test_colour_count_never_refutes_a_puzzle_that_has_answers() -> None:
    from puzzlesat.numberlink.topology import colour_count_contradiction
    from tests.numberlink.test_counts import _random_puzzles, brute_force_answers

    refuted = 0
    for _, puzzle in _random_puzzles(11, 150):
        if colour_count_contradiction(puzzle, Rules()) is not None:
            refuted += 1
            assert brute_force_answers(puzzle, Rules()) == []
    assert refuted > 10  # (the check does fire on random boards)


def _options_given(monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, rules: Rules, **encode_options) -> dict:
    """The CaDiCaL options ``loaded_solver`` gives the formula of ``puzzle`` under ``rules``."""
    given: list[dict] = []
    real = search_module.SatSolver

    def recording(*args, options=None, **kwargs):
        given.append(dict(options or {}))
        return real(*args, options=options, **kwargs)

    monkeypatch.setattr(search_module, "SatSolver", recording)
    encoding = search_module._encode(puzzle, rules, labels="log", **encode_options)
    solver, _ = search_module.loaded_solver(encoding, "cadical195", Deadline(None))
    solver.close()
    return given[0]


def test_large_no_self_touch_formulas_run_without_inprocessing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cover-all no-self-touch formulas past STRICT_FORMULA_CLAUSES get CaDiCaL without its
    inprocessing (measured faster on 50x50 boards); smaller ones, default-rules ones and
    formulas with touch selectors keep the family's usual options."""
    solve_module = importlib.import_module("puzzlesat.numberlink.solve")  # (the package's solve is the function)
    large = Puzzle(50, 50, tuple(Pair(f"L{i}", (0, 3 * i), (49, 3 * i)) for i in range(16)))
    small = Puzzle(10, 10, (Pair("A", (0, 0), (9, 9)), Pair("B", (0, 9), (1, 8))))
    strict = Rules(no_self_touch=True)
    assert solve_module.encode(large, strict).num_clauses > tuning.STRICT_FORMULA_CLAUSES
    assert _options_given(monkeypatch, large, strict) == {**tuning.CADICAL_OPTIONS, **tuning.CADICAL_BIG_FORMULA_OPTIONS}
    for puzzle, rules, extra in ((small, strict, {}), (large, Rules(), {}), (large, strict, {"touch_selectors": True})):
        assert _options_given(monkeypatch, puzzle, rules, **extra) == tuning.CADICAL_OPTIONS


def test_wide_windows_take_the_time_the_core_would_wait_for_the_search_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the global search runs beside (here held back: it only sleeps), the core that ran
    the windows tries larger squares: the second answer no 2x2 square and no single label's
    window holds is found in a 5x5 one. Where nothing runs beside, no wide window is tried."""
    puzzle = formats.parse("\n".join(LABEL_WINDOW_MULTIPLE))
    monkeypatch.setattr(tuning, "FRONTIER_MAX_SIDE", 0)
    monkeypatch.setattr(tuning, "WINDOWS", ((2, 1000),))
    monkeypatch.setattr(tuning, "LABEL_WINDOW_LABELS", 1)
    monkeypatch.setattr(tuning, "WIDE_WINDOWS", ((5, 5000), (7, 5000)))  # (7: the board's side, left out)
    monkeypatch.setattr(probes, "_two_turn_variant", lambda *args: None)
    monkeypatch.setattr(global_sat, "_global_search", lambda search, **_: time.sleep(60))
    result = count(puzzle, time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.stats["decided_by"] == "windows:wide"
    assert result.stats["local_variant"] == "wide window" and all(verify(puzzle, answer) == [] for answer in result.solutions)
    monkeypatch.setattr(global_sat, "_may_work_beside", lambda: False)
    monkeypatch.setattr(tuning, "LABEL_WINDOW_AFTER", 0.0)
    result = count(puzzle, time_limit=30)
    assert result.uniqueness is Uniqueness.MULTIPLE and "windows:wide" not in [step[0] for step in result.stats["steps"]]
