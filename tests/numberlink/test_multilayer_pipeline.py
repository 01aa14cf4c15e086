"""A stack of layers through the engine's pipeline (docs/numberlink-engine.md, step 4): where each
strategy applies on a stack, which step decides small stacks built for it
(``stats["decided_by"]``, ``stats["steps"]``), every verdict against the brute-force enumerator,
and ``--explain`` on a stack file."""

from __future__ import annotations

import importlib
import json

import pytest

from puzzlesat.child import can_fork, wants_child
from puzzlesat.cli import main
from puzzlesat.numberlink.engine import pipeline
from puzzlesat.numberlink.engine.first import FIRST
from puzzlesat.numberlink.engine.frontier_race import FRONTIER
from puzzlesat.numberlink.engine.global_sat import GLOBAL_SAT
from puzzlesat.numberlink.engine.probes import PROBES
from puzzlesat.numberlink.engine.refute import REFUTE
from puzzlesat.numberlink.engine.state import ONE_LAYER, State
from puzzlesat.numberlink.engine.windows import LABEL_WINDOWS, WINDOWS
from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer import Puzzle, Solution, Via, count, solve, verify
from puzzlesat.numberlink.multilayer.search import StackSearch
from puzzlesat.results import Status, Uniqueness
from puzzlesat.timing import Deadline
from tests.numberlink.test_multilayer_solve import brute_force_answers

DEFAULT, STRICT, EMPTY, EMPTY_STRICT = Rules(), Rules(no_self_touch=True), Rules(cover_all=False), Rules(cover_all=False, no_self_touch=True)
# the steps a stack may take (the others read one grid)
STACK_STEPS = {"refute", "first", "probes", "probes:shrunk", "probes:detour", "global-sat", "without-self-touch"}
CROSSED = [["A.B"], ["B.A"]]  # no answer, and no check without search sees it
SNAKE = ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 2), (0, 1, 1), (0, 1, 0), (1, 1, 0), (1, 1, 1), (1, 2, 1), (1, 2, 2))


def test_where_each_strategy_applies_on_a_stack() -> None:
    stack = Puzzle.from_layers([["A.A", "B.B"], ["...", "..."]])
    table = {
        REFUTE: (True, True, True, True), FIRST: (True, True, True, True), GLOBAL_SAT: (True, True, True, True),
        PROBES: (False, False, True, False),  # (the shrinking and the detour: may-leave-empty, touching allowed)
        WINDOWS: (False,) * 4, LABEL_WINDOWS: (False,) * 4, FRONTIER: (False,) * 4,  # (they read one grid)
        pipeline.WITHOUT_SELF_TOUCH: (True, False, False, False),
    }
    for strategy, expected in table.items():
        assert tuple(strategy.applies(stack, rules) for rules in (DEFAULT, STRICT, EMPTY, EMPTY_STRICT)) == expected, strategy.name


def test_a_stack_gets_its_own_search_and_checker() -> None:
    state = State(Puzzle.from_layers([["A.A"], ["..."]]), DEFAULT, solver="cadical195", limit=2, deadline=Deadline(None))
    search = state.search()
    assert state.kind is not ONE_LAYER and not state.one_layer and isinstance(search, StackSearch)
    assert search.checker is verify and state.cells == 6
    state.close()


@pytest.mark.parametrize("layers,rules,uniqueness,decided_by,first", [
    ([["A.", ".A"], ["..", ".."]], DEFAULT, Uniqueness.NONE, "refute", None),  # chessboard colours
    (CROSSED, DEFAULT, Uniqueness.NONE, "first", None),  # the formula has no answer
    (CROSSED, EMPTY, Uniqueness.NONE, "first", None),  # the router gives up, the formula has none
    ([["A..", "BB."], ["...", ".A."]], DEFAULT, Uniqueness.UNIQUE, "global-sat", "answer (sat)"),
    ([["A.", ".."], ["..", ".A"]], DEFAULT, Uniqueness.MULTIPLE, "global-sat", "answer (sat)"),
    ([["A..", "..."], ["...", "..A"]], EMPTY, Uniqueness.MULTIPLE, "probes:detour", "answer (route)"),
    ([["A..", "..."], ["...", "..A"]], EMPTY_STRICT, Uniqueness.MULTIPLE, "global-sat", "answer (route)"),
    ([[".BA"], ["BA."]], STRICT, Uniqueness.UNIQUE, "global-sat", "answer (sat)"),
    ([["AB", ".."], ["..", "BA"]], STRICT, Uniqueness.MULTIPLE, "global-sat", "answer (sat)"),
])
def test_each_step_decides_a_stack_built_for_it(layers, rules: Rules, uniqueness, decided_by: str, first) -> None:
    puzzle = Puzzle.from_layers(layers)
    expected = brute_force_answers(puzzle, rules)
    result = count(puzzle, rules=rules, time_limit=30)
    assert result.uniqueness is {0: Uniqueness.NONE, 1: Uniqueness.UNIQUE}.get(len(expected), Uniqueness.MULTIPLE) is uniqueness
    assert result.stats["decided_by"] == decided_by and set(result.solutions) <= expected
    steps = result.stats["steps"]
    assert steps[0][0] == "refute" and steps[-1][0] == decided_by and {step[0] for step in steps} <= STACK_STEPS
    assert first is None or steps[1][:2] == ["first", first]
    assert all(isinstance(outcome, str) and seconds >= 0 for _, outcome, seconds in steps)


def test_a_known_answer_that_runs_beside_itself_gives_its_shrunk_form() -> None:
    puzzle = Puzzle.from_layers([["A..", "...", "..."], ["...", "...", "..A"]])
    known = Solution.from_mapping({"A": SNAKE})
    result = count(puzzle, rules=EMPTY, known=known)
    assert result.uniqueness is Uniqueness.MULTIPLE and result.stats["decided_by"] == "probes:shrunk"
    assert [step[:2] for step in result.stats["steps"]] == [["refute", "nothing"], ["first", "answer (known)"], ["probes:shrunk", "answer"]]
    assert result.stats["local_variant"] == "shrunk" and verify(puzzle, result.solutions[1], EMPTY_STRICT) == []


def test_solve_and_full_counts_on_a_stack_say_what_decided() -> None:
    puzzle = Puzzle.from_layers([["A..", "..."], ["...", "..A"]])
    routed = solve(puzzle, rules=EMPTY)
    assert routed.status is Status.SOLVED and routed.method == "route" and routed.stats["decided_by"] == "first"
    assert [step[0] for step in routed.stats["steps"]] == ["refute", "first"] and routed.stats["first_answer"] == "route"
    none = solve(Puzzle.from_layers(CROSSED))
    assert none.status is Status.UNSATISFIABLE and none.stats["decided_by"] == "first"
    vias = Puzzle.from_layers([["A.", ".."], ["..", ".A"]], vias=[Via("a", [(0, 0, 1), (1, 0, 1)]), Via("b", [(0, 1, 0), (1, 1, 0)])])
    refuted = solve(vias, rules=EMPTY)
    assert refuted.status is Status.UNSATISFIABLE and refuted.stats["decided_by"] == "refute" and "via" in refuted.stats["proof"]
    everything = count(Puzzle.from_layers([["A.", ".."], ["..", ".A"]]), rules=EMPTY, limit=100)
    assert everything.count == 18 and everything.complete and everything.stats["decided_by"] == "global-sat"
    assert {step[0] for step in everything.stats["steps"]} == {"refute", "first", "probes", "global-sat"}  # (probes: only a second answer)


def test_an_undecided_default_count_of_a_stack_says_whether_it_is_unique_without_self_touch() -> None:
    """As on one layer: only refute and first run, so nothing decides, and the no-self-touch
    check (its own pipeline, on the stack's search) states the verdict under those rules."""
    puzzle = Puzzle.from_layers([["A..", "BB."], ["...", ".A."]])
    state = State(puzzle, DEFAULT, solver="cadical195", limit=2, deadline=Deadline(30))
    result = pipeline.count(state, (REFUTE, FIRST))
    said = {0: "none", 1: "unique"}.get(len(brute_force_answers(puzzle, STRICT)), "multiple")
    assert result.uniqueness is Uniqueness.UNKNOWN and result.stats["without_self_touch"] == said
    assert result.stats["steps"][-1][0] == "without-self-touch"


def test_explain_on_a_stack_file(tmp_path, capsys) -> None:
    path = tmp_path / "stack.txt"
    path.write_text("SIZE 3X3X2\nLINE_NUM 1\nLINE#1 (0,0,1) (2,2,2)\n")  # (an ADC problem: cells may stay empty)
    assert main(["solve", str(path), "--allow-empty", "--explain"]) == 0
    text = capsys.readouterr().out
    assert "first          answer (route)" in text and "probes:detour  answer" in text and "<- decided" in text
    main(["verify", str(path), "--allow-empty", "--json", "--explain"])
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["decided_by"] == "probes:detour" and [step[0] for step in record["steps"]] == ["refute", "first", "probes:detour"]


def test_a_big_stack_runs_the_pipeline_in_a_child_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stack of more than the stack's CHILD_PROCESS_CELLS runs in a child process (where one
    can be forked): answers checked by the stack's verify, the verdict the same, the refutation
    made here first (no child for it)."""
    monkeypatch.setattr(importlib.import_module("puzzlesat.numberlink.multilayer.solve"), "CHILD_PROCESS_CELLS", 4)
    puzzle = Puzzle.from_layers([["A.", ".."], ["..", ".A"]])
    counted = count(puzzle, time_limit=30)
    assert counted.uniqueness is Uniqueness.MULTIPLE and all(verify(puzzle, s) == [] for s in counted.solutions)
    assert wants_child(Deadline(30), cells=puzzle.num_cells, threshold=4) == can_fork()
    assert [step[0] for step in counted.stats["steps"]] in (["refute", "first", "global-sat"], ["refute", "child process"])
    solved = solve(puzzle, rules=EMPTY, time_limit=30)
    assert solved.solved and verify(puzzle, solved.solution, EMPTY) == []
    refuted = solve(Puzzle.from_layers([["A.", ".A"], ["..", ".."]]), time_limit=30)
    assert refuted.status is Status.UNSATISFIABLE and refuted.stats["decided_by"] == "refute"
