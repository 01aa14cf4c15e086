"""Wrong arguments to the public verbs fail at the call, with a message naming the argument,
never deep inside a solver; the command line refuses bad option values the same way."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from puzzlesat import numberlink, roller, swap
from puzzlesat.numberlink import backtracking, frontier, multilayer
from puzzlesat.cli import main
from puzzlesat.errors import ParseError
from puzzlesat.results import CountResult, Uniqueness
from puzzlesat.roller.stopgraph import StopGraph
from puzzlesat.roller.timeindexed import solve_time_indexed
from puzzlesat.timing import Deadline

PUZZLE = numberlink.Puzzle.from_rows(["A..", "...", "..A"])  # two answers under the default rules
LEVEL = roller.parse("#####\n#o..#\n#.#.#\n#...#\n#####")
SWAP_LEVEL = swap.parse("start\nT1R T1G\ngoal\nG R\n")


@pytest.mark.parametrize("call, argument", [
    (lambda: numberlink.solve("A.A"), "puzzle"),
    (lambda: numberlink.count("A.A"), "puzzle"),
    (lambda: numberlink.is_unique(LEVEL), "puzzle"),
    (lambda: numberlink.encode("A.A"), "puzzle"),
    (lambda: numberlink.solve(PUZZLE, rules="no-self-touch"), "rules"),
    (lambda: numberlink.verify(PUZZLE, None), "solution"),
    (lambda: numberlink.format_solution(PUZZLE, None), "solution"),
    (lambda: numberlink.format("A.A"), "puzzle"),
    (lambda: numberlink.format_all(["A.A"]), "puzzle must be a Puzzle, not str"),
    (lambda: numberlink.render("A.A"), "puzzle"),
    (lambda: roller.solve("#o.#"), "level"),
    (lambda: roller.verify(LEVEL, None), "moves"),
    (lambda: roller.format(SWAP_LEVEL), "level"),
    (lambda: roller.render(PUZZLE), "level"),
    (lambda: roller.legal_moves("#o.#", (0, 1)), "level must be a Level, not str"),
    (lambda: roller.slide(SWAP_LEVEL, (0, 0), "R"), "level must be a puzzlesat.roller"),
    (lambda: roller.replay("#o.#", "R"), "level must be a Level, not str"),
    (lambda: swap.solve(LEVEL), "level"),
    (lambda: swap.verify(SWAP_LEVEL, None), "moves"),
    (lambda: swap.format("start"), "level"),
    (lambda: swap.render(LEVEL), "level"),
    (lambda: swap.legal_moves("T1R"), "board must be a Level or rows of Square .*not str .*board_from_rows"),
    (lambda: swap.reachable([["T1R", "T1G"]], (0, 0)), "board .*not a cell 'T1R'"),
    (lambda: swap.is_legal(SWAP_LEVEL.grid(), "0,0>0,1"), "board .*not a cell 'T1R'"),
    (lambda: swap.colour_groups(None), "board .*not NoneType"),
    (lambda: swap.mismatches(SWAP_LEVEL, "T1R T1G"), "board"),
    (lambda: swap.swap_pairs(SWAP_LEVEL.start), "level"),
    (lambda: swap.format_all("start"), "level"),
    (lambda: numberlink.solve(PUZZLE, time_limit="5"), "time_limit"),
    (lambda: roller.solve(LEVEL, time_limit="5"), "time_limit"),
    (lambda: swap.solve(SWAP_LEVEL, time_limit=[5]), "time_limit"),
    (lambda: numberlink.count(PUZZLE, limit=2.5), "limit"),
    (lambda: numberlink.Rules(cover_all="no"), "cover_all"),
    (lambda: numberlink.Puzzle.from_rows("A.A"), "rows"),
    (lambda: numberlink.Solution.from_mapping({"A": "abc"}), "path"),
    (lambda: roller.parse(None), "text"),
    (lambda: swap.parse(LEVEL), "text"),
    (lambda: numberlink.generate("5", 5), "width"),
    (lambda: roller.generate(7, 7, moves="4-8"), "moves"),
    (lambda: swap.generate("6", 7), "width"),
    (lambda: swap.generate(6), "both width and height"),
    (lambda: numberlink.generate(5, 5, seed="42"), "seed"),
    (lambda: roller.generate(7, 7, seed=1.5), "seed"),
    (lambda: swap.generate(seed=None), "seed"),
    (lambda: numberlink.Puzzle(2.5, 2, ()), "width and height"),
    (lambda: numberlink.Puzzle(3, 1, (numberlink.Pair("A", (0, 0.0), (0, 2)),)), "start of 'A'"),
    (lambda: numberlink.Puzzle(3, 1, [("A", (0, 0), (0, 2))]), "Pair"),
    (lambda: numberlink.Puzzle(3, 1, (), blocked={(0, "1")}), "blocked cell"),
    (lambda: roller.Level(("####", "#..#", "####"), (1.9, 2.9)), "start"),
    (lambda: roller.Level(("####", "#..#", "####"), "12"), "start"),
    (lambda: swap.render(SWAP_LEVEL, ["0,0>0,1"], frames_per_row="2"), "^frames_per_row must be a whole number"),
    # "'>' not supported between instances of 'str' and 'int'" named no argument
    (lambda: roller.render(LEVEL, cell_size="20"), "^cell_size must be a number of pixels, not str"),
    (lambda: swap.render(SWAP_LEVEL, cell_size="20"), "^cell_size must be a number of pixels, not str"),
    (lambda: numberlink.render(PUZZLE, cell_size=True), "^cell_size must be a number of pixels, not bool"),
])
def test_wrong_types_raise_a_type_error_naming_the_argument(call, argument):
    with pytest.raises(TypeError, match=argument):
        call()


def test_a_level_of_another_family_is_named_by_its_module():
    with pytest.raises(TypeError, match=r"swap\.model\.Level, not puzzlesat\.roller\.model\.Level"):
        swap.solve(LEVEL)


def test_a_puzzle_of_several_layers_given_to_the_one_layer_verbs_is_sent_to_multilayer():
    from puzzlesat.numberlink import multilayer

    stacked = multilayer.parse("layer 1\n1.\n..\n\nlayer 2\n..\n.1")
    for verb in (numberlink.solve, numberlink.count, numberlink.is_unique, numberlink.encode):
        with pytest.raises(TypeError, match=r"multilayer\.model\.Puzzle \(.*several layers has its own verbs in numberlink\.multilayer\)"):
            verb(stacked)


@pytest.mark.parametrize("call, message", [
    (lambda: numberlink.solve(PUZZLE, time_limit=-1), "zero or more seconds"),
    (lambda: roller.solve(LEVEL, time_limit=math.nan), "zero or more seconds"),
    (lambda: numberlink.count(PUZZLE, limit=0), "1 or more"),
    (lambda: backtracking.count(PUZZLE, limit=-1), "1 or more"),
    (lambda: frontier.count_answers(PUZZLE, limit=0), "1 or more"),
    (lambda: numberlink.render(PUZZLE, cell_size=-5), "cell_size"),
    (lambda: roller.render(LEVEL, "UX"), "not moves"),
    (lambda: swap.render(SWAP_LEVEL, cell_size=0), "cell_size"),
    (lambda: roller.render(LEVEL, cell_size=math.inf), "^cell_size must be a positive number of pixels, not inf"),  # SVG of 'inf'
    # the frames were drawn at negative columns and below the picture's height, so cut off
    (lambda: swap.render(SWAP_LEVEL, ["0,0>0,1"], frames_per_row=-1), "^frames_per_row must be 1 or more, not -1"),
    (lambda: swap.generate(30, 30), "2 to 400 cells"),
    (lambda: numberlink.generate(5, 5, max_tries=-1), "max_tries must be 1 or more"),
    (lambda: roller.generate(6, 6, max_tries=0), "max_tries must be 1 or more"),
    (lambda: swap.generate(max_tries=0), "max_tries must be 1 or more"),
    (lambda: swap.generate(certify_time_limit=-1), "^certify_time_limit must be zero or more seconds"),
    (lambda: roller.generate(6, 6, certify_time_limit=-1), "^certify_time_limit must be zero or more seconds"),
    (lambda: numberlink.generate(5, 5, certify_time_limit=-1), "^certify_time_limit must be zero or more seconds"),
    (lambda: multilayer.generate(3, 3, 2, certify_time_limit=math.nan), "^certify_time_limit must be zero or more seconds"),
    # random.Random(-5) draws what random.Random(5) draws: a negative seed would repeat a positive one's puzzle
    (lambda: numberlink.generate(5, 5, seed=-5), "^seed must be 0 or more, not -5"),
    (lambda: multilayer.generate(3, 3, 2, seed=-5), "^seed must be 0 or more, not -5"),
    (lambda: roller.generate(6, 6, seed=-5), "^seed must be 0 or more, not -5"),
    (lambda: swap.generate(seed=-5), "^seed must be 0 or more, not -5"),
])
def test_bad_values_raise_a_value_error_saying_what_is_allowed(call, message):
    with pytest.raises(ValueError, match=message):
        call()


REFUTED = numberlink.Puzzle.from_rows(["A.B", "...", "A.B"])  # chessboard colours: no answer, no search
REFUTED_LAYERS = multilayer.Puzzle.from_layers([["A.", ".A"], ["..", ".."]])  # colours too
ROUTED_LAYERS = multilayer.Puzzle.from_layers([["A.", "A."], ["..", ".."]])  # the router answers it


@pytest.mark.parametrize("call", [
    lambda: numberlink.solve(REFUTED, solver="nosuch"),
    lambda: numberlink.count(REFUTED, solver="nosuch"),
    lambda: numberlink.is_unique(REFUTED, solver="nosuch"),
    lambda: multilayer.solve(REFUTED_LAYERS, solver="nosuch"),
    lambda: multilayer.count(REFUTED_LAYERS, solver="nosuch"),
    lambda: multilayer.is_unique(REFUTED_LAYERS, solver="nosuch"),
    lambda: multilayer.solve(ROUTED_LAYERS, rules=numberlink.Rules(cover_all=False), solver="nosuch"),
    lambda: numberlink.generate(5, 5, method="unionfind", unique=False, solver="nosuch"),
    lambda: solve_time_indexed(StopGraph.of(roller.parse("###\n#o#\n###")), solver="nosuch"),  # nothing to paint
])
def test_an_unknown_sat_solver_is_refused_before_any_work(call):
    with pytest.raises(ValueError, match=r"unknown SAT solver 'nosuch' \(known: .*cadical195.*glucose4"):
        call()


def test_an_unusable_sat_solver_is_refused_under_any_of_its_names():
    for name in ("lingeling", "lgl", "kissat404", "ks"):
        with pytest.raises(ValueError, match=f"SAT solver '{name}' cannot be used"):
            numberlink.solve(REFUTED, solver=name)
    assert numberlink.solve(REFUTED, solver="g4").status.value == "unsatisfiable"  # pysat's short names are known


def test_an_answer_to_another_board_is_refused_when_written_out():
    other = numberlink.solve(numberlink.Puzzle.from_rows(["A...A"])).solution
    for call in (lambda: numberlink.format_solution(PUZZLE, other), lambda: numberlink.render(PUZZLE, other)):
        with pytest.raises(ValueError, match=r"cell \(0, 3\) lies off the 3x3 board"):
            call()
    start = numberlink.Pair("A", (np.int64(0), 1), (0, 2)).start  # numpy's integers are whole numbers too
    assert start == (0, 1) and type(start[0]) is int


def test_a_whole_solve_result_given_as_a_numberlink_answer_says_to_take_its_solution():
    """It said 'a result with no answer has solution None', as for None, though the result held
    an answer (Roller and Swap say "a SolveResult's moves are its .solution")."""
    from puzzlesat.numberlink import multilayer

    layered = multilayer.Puzzle.from_layers([["312", "2.."], [".13", "..."]])
    calls = [lambda: numberlink.verify(PUZZLE, numberlink.solve(PUZZLE)), lambda: numberlink.format_solution(PUZZLE, numberlink.solve(PUZZLE)),
             lambda: multilayer.verify(layered, multilayer.solve(layered)), lambda: multilayer.format_solution(layered, multilayer.solve(layered))]
    for call in calls:
        with pytest.raises(TypeError, match=r"not SolveResult \(a SolveResult's answer is its \.solution\)"):
            call()
    with pytest.raises(TypeError, match=r"not NoneType \(a result with no answer has solution None\)"):
        numberlink.verify(PUZZLE, None)


def test_swap_model_helpers_refuse_what_they_cannot_use():
    with pytest.raises(ValueError, match=r"cell \(5, 5\) is off the 1x2 board"):
        swap.apply_swap(SWAP_LEVEL.start, (0, 0), (5, 5))
    with pytest.raises(TypeError, match="stated_minimum"):
        swap.Level(SWAP_LEVEL.start, SWAP_LEVEL.goal, stated_minimum="3")
    with pytest.raises(TypeError, match="level must be a Level"):
        swap.is_goal(SWAP_LEVEL.start, SWAP_LEVEL.start)
    assert swap.replay(SWAP_LEVEL, ["0,0>0,1"]) == swap.replay(SWAP_LEVEL.start, ["0,0>0,1"])
    with pytest.raises(TypeError, match=r"SolveResult \(a SolveResult's moves are its \.solution\)"):
        swap.verify(SWAP_LEVEL, swap.solve(SWAP_LEVEL))
    with pytest.raises(TypeError, match="not int"):
        roller.is_solution(LEVEL, 123)


def test_a_file_name_given_as_text_gets_a_hint(tmp_path):
    for family, text in ((numberlink, "A..\n...\n..A\n"), (swap, "start\nT1R T1G\ngoal\nG R\n"),
                         (roller, "#####\n#o..#\n#####\n")):
        path = tmp_path / "level.txt"
        path.write_text(text)
        with pytest.raises(ParseError, match=r"read files with read\(\)"):
            family.parse(str(path))
        assert family.read(path)  # read() is the way


def test_levels_read_from_a_file_are_named_after_it(tmp_path):
    path = tmp_path / "pack.swap"
    path.write_text(swap.format_all([SWAP_LEVEL, SWAP_LEVEL]))
    assert [level.name for level in swap.read(path)] == ["pack.swap#0", "pack.swap#1"]
    assert swap.parse("start\nT1R T1G\ngoal\nG R\n", fmt="native") == SWAP_LEVEL
    with pytest.raises(ParseError, match="native format only"):
        swap.parse("start\nT1R T1G\ngoal\nG R\n", fmt="tmx")
    puzzles = [numberlink.Puzzle.from_rows(["A.A"]), numberlink.Puzzle.from_rows(["B", "B"])]
    assert numberlink.parse_all(numberlink.format_all(puzzles)) == puzzles
    # a one-column first board with a blocked cell: written as character grids, still detected
    puzzles = [numberlink.Puzzle.from_rows(["A", "A", "#"]), numberlink.Puzzle.from_rows(["B.B"])]
    assert numberlink.parse_all(numberlink.format_all(puzzles)) == puzzles
    longer = [numberlink.parse("10 . 10"), numberlink.Puzzle.from_rows(["1", "1", "#"])]
    assert numberlink.parse_all(numberlink.format_all(longer)) == longer
    assert numberlink.parse("A.A", source="x.nl").name == "x.nl"


def test_bytes_are_read_like_text_by_every_family():
    assert roller.parse(b"#####\n#o..#\n#.#.#\n#...#\n#####") == LEVEL
    assert swap.parse("start\nT1R T1G\ngoal\nG R\n".encode("utf-8-sig")) == SWAP_LEVEL
    assert numberlink.parse(b"A..\n...\n..A") == PUZZLE


def test_infinite_and_zero_time_limits():
    assert Deadline.of(math.inf).time_limit is None
    assert numberlink.solve(PUZZLE, time_limit=math.inf).solved
    assert numberlink.solve(PUZZLE, time_limit=0).status.value == "unknown"


def test_a_count_stopped_by_a_limit_of_one_does_not_claim_uniqueness():
    first = numberlink.count(PUZZLE, limit=1)
    assert first.count == 1 and first.uniqueness is Uniqueness.UNKNOWN and first.unique is None
    assert numberlink.count(PUZZLE, limit=2).uniqueness is Uniqueness.MULTIPLE
    assert backtracking.count(PUZZLE, limit=1).unique is None
    assert CountResult(1, True, 2).uniqueness is Uniqueness.UNIQUE
    assert CountResult(0, True, 2).uniqueness is Uniqueness.NONE


def test_results_print_as_their_plain_values():
    result = numberlink.count(numberlink.parse("...B\n.A..\n..BA"))
    assert f"{result.uniqueness} {numberlink.solve(PUZZLE).status}" == "unique solved"


@pytest.mark.parametrize("argv, message", [
    (["solve", "PUZZLE", "--time-limit", "-1"], "not a number of seconds"),
    (["verify", "PUZZLE", "--time-limit", "nan"], "not a number of seconds"),
    (["generate", "numberlink", "--certify-limit", "-2"], "not a number of seconds"),
    (["generate", "numberlink", "--max-tries", "-1"], "'-1' is not a whole number of 1 or more"),
    (["generate", "swap", "--max-tries", "0"], "'0' is not a whole number of 1 or more"),
    (["generate", "roller", "--count", "0"], "'0' is not a whole number of 1 or more"),
    (["generate", "numberlink", "--count", "two"], "'two' is not a whole number of 1 or more"),
    (["generate", "roller", "--seed", "-1"], "is not a seed of 0 or more"),
    (["verify", "PUZZLE", "--index", "-1"], "'-1' is not a position from 0"),
    (["verify", "PUZZLE", "--method", "bogus"], "unknown method 'bogus'"),
    (["solve", "PUZZLE", "--format", "toks"], "unknown format 'toks'"),
    (["solve", "PUZZLE", "--solver", "foo"], "unknown SAT solver 'foo'"),
    (["solve", "PUZZLE", "--solver", "lingeling"], "cannot be used"),
    (["generate", "numberlink", "--size", "-3x5"], "size '-3x5' is not WIDTHxHEIGHT"),  # (not argparse's "expected one argument")
    (["generate", "roller", "--size", "8x8", "--moves", "-2-4"], "moves must be N or LO-HI"),
])
def test_the_command_line_refuses_bad_option_values(argv, message, capsys):
    try:  # (refused as the flag is read, or by the family before any drawing: exit 2 either way)
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["generate", "swap", "--size", "0x0"], "has a side of 0"),
    (["generate", "swap", "--size", "30x30"], "must have 2 to 400 cells"),
])
def test_generate_refuses_a_size_its_family_cannot_make(argv, message, capsys):
    """A size no board has is refused while reading the command line; one the family cannot
    make, by the pack writer before any puzzle is drawn (exit 2, the reason on standard error)."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_an_unknown_numberlink_format_is_an_error_line(tmp_path, capsys):
    path = tmp_path / "p.nl"
    path.write_text("A..\n...\n..A\n")
    assert main(["solve", str(path), "--format", "tmx"]) == 1  # a Roller format, not a Numberlink one
    captured = capsys.readouterr()
    assert "unknown format 'tmx'" in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err


def test_a_move_off_the_board_is_refused_by_swap_render():
    with pytest.raises(ValueError, match="leaves the 1x2 board"):
        swap.render(SWAP_LEVEL, "0,0>5,5")


def test_ctrl_c_inside_a_solver_is_a_keyboard_interrupt(monkeypatch):
    import pysolvers
    from ortools.sat.python import cp_model

    from puzzlesat.sat import SatSolver
    from puzzlesat.sat.cpsat import run_cpsat

    def interrupted(*args, **kwargs):
        raise pysolvers.error("Caught keyboard interrupt")

    with SatSolver([[1, 2]]) as solver:
        monkeypatch.setattr(solver, "_solve_in_budgeted_steps", interrupted)
        with pytest.raises(KeyboardInterrupt):
            solver.solve(time_limit=5)
        # the interrupted native solver is never freed (freeing it crashed or hung the process)
        assert solver._solver.solver.cadical is None
    model = cp_model.CpModel()
    model.new_bool_var("x")
    # CP-SAT's own Ctrl-C handler aborts the process; ours is Python's
    assert run_cpsat(model, time_limit=5).solver.parameters.catch_sigint_signal is False


def test_the_roller_benchmark_skips_absent_data(monkeypatch, tmp_path):
    import importlib

    bench = importlib.import_module("benchmarks.roller")
    monkeypatch.setattr(bench, "DATA", tmp_path)
    assert all(bench.load_set(name) == [] for name in bench.SETS)


def test_requests_a_board_cannot_meet_and_answers_of_another_board_are_refused():
    with pytest.raises(ValueError, match="one cell wide"):
        roller.generate(3, 10)
    big = numberlink.Puzzle.from_rows(["A...", "....", "...A"])
    with pytest.raises(ValueError, match="off the 3x3 board"):
        numberlink.render(PUZZLE, numberlink.solve(big).solution)


def test_a_count_has_no_truth_value_and_results_compare_without_their_timings():
    multiple = numberlink.is_unique(PUZZLE)
    with pytest.raises(TypeError, match=r"test \.unique"):
        bool(multiple)  # "if is_unique(puzzle):" would hold for every puzzle
    assert multiple.unique is False
    assert numberlink.solve(PUZZLE) == numberlink.solve(PUZZLE)
    assert numberlink.count(PUZZLE, limit=3) == numberlink.count(PUZZLE, limit=3)


def test_edge_cases_found_in_the_last_read(monkeypatch):
    import argparse
    import signal

    import importlib

    from puzzlesat.cli import commands

    cli = importlib.import_module("puzzlesat.cli.main")  # (puzzlesat.cli.main is also the function)

    # a board with no edge at all: nothing to orient
    assert numberlink.is_unique(numberlink.Puzzle.from_rows(["##"])).uniqueness is Uniqueness.UNIQUE
    # pairs handed over as a generator are kept
    pairs = (numberlink.Pair("A", (0, 0), (0, 2)) for _ in range(1))
    assert len(numberlink.Puzzle(3, 1, pairs).pairs) == 1
    # Roller's format aliases pass the command line's check; a fragment after the URL's last slash is dropped
    assert cli.bad_option_value(argparse.Namespace(command="verify", fmt="TabTale", method=None, solver=None)) is None
    assert numberlink.parse("p?numlin/3/1/1g1/#top").size == (3, 1)
    # a Ctrl-C the process was started to ignore stays ignored while the command runs
    seen = []
    monkeypatch.setattr(commands, "command_verify", lambda args: seen.append(signal.getsignal(signal.SIGINT)) or 0)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert cli.main(["verify", "anything"]) == 0
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [signal.SIG_IGN]


def test_format_names_are_read_in_any_case(capsys):
    examples = Path(__file__).resolve().parents[1] / "examples"
    assert main(["solve", str(examples / "numberlink" / "first_5x5.nl"), "--format", "NATIVE"]) == 0
    assert main(["solve", str(examples / "swap" / "spec-example.swap"), "--format", "Native"]) == 0
    capsys.readouterr()
