"""Roller solvers: every method agrees on proven minima; public sets; limits; model sizes."""

from __future__ import annotations

import importlib
import random
import signal
import sys
import threading
import time
import types

import pytest
from ortools.sat.python import cp_model

from puzzlesat.errors import UnverifiedAnswer
from puzzlesat.results import SolveResult, Status
from puzzlesat.roller.flow import FlowModel, euler_trail
from puzzlesat.roller.formats import read, read_answers, with_answers
from puzzlesat.roller.model import Level
from puzzlesat.roller.solve import METHODS, solve
from puzzlesat.roller.stopgraph import StopGraph
from puzzlesat.roller.timeindexed import TimeIndexedModel
from puzzlesat.roller.verify import verify
from tests.roller.random_levels import brute_force_minimum, random_level
from tests.support import shared_path

SMALL = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])


def test_every_method_solves_a_small_level():
    for method in METHODS:
        result = solve(SMALL, method=method, time_limit=10)
        assert result.status is Status.SOLVED and result.optimal and result.method == method
        assert len(result.solution) == 4 == result.lower_bound
        assert verify(SMALL, result.solution) == []


def test_methods_agree_with_brute_force_on_random_levels():
    rng = random.Random(2024)
    checked = solvable = 0
    while checked < 100:
        level = random_level(rng, max_side=8)
        if level.floor_count > 26:
            continue
        checked += 1
        truth = brute_force_minimum(level)
        for method in METHODS:
            result = solve(level, method=method, time_limit=20)
            if truth is None:
                assert result.status is Status.UNSATISFIABLE and result.stats["reason"]
            else:
                assert result.status is Status.SOLVED and result.optimal, (method, str(level))
                assert len(result.solution) == truth == result.lower_bound, (method, str(level))
        solvable += truth is not None
    assert solvable > 25


@pytest.mark.slow
def test_methods_agree_on_larger_random_levels():
    # 8x8 boards with more floor than brute force handles: DFS, time-indexed and the default
    # solver must agree on the minimum with each other.
    rng = random.Random(99)
    agreed = 0
    while agreed < 4:
        level = random_level(rng, max_side=8, wall_probability=0.25)
        if not 28 <= level.floor_count <= 38 or not StopGraph.of(level).feasibility().solvable:
            continue
        lengths = {}
        for method in METHODS:
            result = solve(level, method=method, time_limit=30)
            assert result.optimal, (method, str(level), result.stats)
            lengths[method] = len(result.solution)
        assert len(set(lengths.values())) == 1, (lengths, str(level))
        agreed += 1


def test_trivial_levels():
    lone = Level.from_rows(["#o#"])
    for method in METHODS:
        result = solve(lone, method=method)
        assert result.solution == "" and result.optimal and result.lower_bound == 0


def test_unsolvable_levels_say_why():
    two_pockets = Level.from_rows(["o..##", "##.##", ".#.#.", ".....", ".###."])
    for method in METHODS:
        result = solve(two_pockets, method=method)
        assert result.status is Status.UNSATISFIABLE and result.solution is None
        assert "no walk" in result.stats["reason"] and result.stats["cells"]


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="unknown roller method") as caught:
        solve(SMALL, method="magic")
    assert "exact (the default)" in str(caught.value)  # a name solve() takes is among those offered


def test_method_exact_is_the_default_as_for_swap(capsys):
    """'--method exact' names Swap's default; on a folder of both families it must not make
    every Roller level an error."""
    from puzzlesat.cli import main
    from tests.support import ROOT

    assert solve(SMALL, method="exact").method == solve(SMALL).method
    assert main(["verify", str(ROOT / "examples" / "roller"), "--method", "exact"]) == 0
    assert "error" not in capsys.readouterr().out


def test_a_wrong_answer_from_a_method_is_a_bug_not_an_answer(monkeypatch):
    def liar(graph, *, time_limit=None):
        return SolveResult(Status.SOLVED, "R", optimal=True, lower_bound=1, method="liar")

    solve_module = importlib.import_module("puzzlesat.roller.solve")
    monkeypatch.setitem(solve_module.METHODS, "liar", ("flow", "solve_flow"))
    monkeypatch.setattr("puzzlesat.roller.flow.solve_flow", liar)
    with pytest.raises(UnverifiedAnswer, match="liar.*fails the independent check: unpainted"):
        solve(SMALL, method="liar")


def test_euler_trail_refuses_counts_not_connected_to_the_start():
    graph = StopGraph.of(SMALL)
    far = [m for m in graph.moves if m.tail != graph.start][0]
    with pytest.raises(ValueError):
        euler_trail(graph, {far.index: 1})


def test_model_sizes_match_their_formulas():
    rng = random.Random(8)
    for _ in range(25):
        graph = StopGraph.of(random_level(rng))
        flow = FlowModel(graph)
        proto = flow.model.proto
        assert FlowModel.size(graph) == {"variables": len(proto.variables), "constraints": len(proto.constraints)}
        timed = TimeIndexedModel(graph)
        for _ in range(4):
            timed.grow()
        assert TimeIndexedModel.size(graph, 4) == {"variables": timed.pool.top, "clauses": timed.clauses}
        timed.sat.close()


def test_starhermit_minimum_equals_par_on_every_level():
    levels = read(shared_path("roller", "HypeDriven-starhermit-paint-maze", "data", "levels.json"))
    assert len(levels) == 60
    for level in levels:
        result = solve(level, time_limit=30)
        assert result.optimal and len(result.solution) == level.par, level.name


@pytest.mark.parametrize("start, answers", [("bottom-left", "solution.txt"), ("row-major", "best_solution.txt")])
def test_tabtale_first_levels_proven_and_never_longer_than_submitted(start, answers):
    # The first 30 official levels (the fast ones; all 170 run in benchmarks/roller.py).
    folder = shared_path("roller", "eranheres-amaze", "data", "all")
    known = read_answers(shared_path("roller", "eranheres-amaze", "solutions", answers))
    paths = sorted(folder.glob("*.xml"))[:30]
    levels = with_answers([level for p in paths for level in read(p, start=start)], known)
    for level in levels:
        result = solve(level, time_limit=30)
        assert result.status is Status.SOLVED and result.optimal, level.name
        if level.known_answer and not verify(level, level.known_answer):
            assert len(result.solution) <= len(level.known_answer), level.name


def test_uridanan_invalid_levels_are_unsolvable():
    folder = shared_path("roller", "uridanan-Amaze", "levels")
    for name in ("invalid001.xml", "invalid017.xml"):
        for start in ("bottom-left", "row-major"):
            (level,) = read(folder / name, start=start)
            result = solve(level)
            assert result.status is Status.UNSATISFIABLE and "never be painted" in result.stats["reason"]


def test_time_limit_is_honoured(monkeypatch):
    # A 14x14 open-ish board that a method may or may not finish before its deadline (here a
    # long limit the clock jumps past after a few looks): either way a consistent answer.
    from tests.clock import jump_clock_after

    rng = random.Random(4)
    rows = ["".join("#" if rng.random() < 0.22 else "." for _ in range(14)) for _ in range(14)]
    floor = [(r, c) for r in range(14) for c in range(14) if rows[r][c] == "."]
    level = Level(tuple(rows), floor[0])
    for method in METHODS:
        with monkeypatch.context() as patch:
            jump_clock_after(patch, reads=3)
            result = solve(level, method=method, time_limit=60)
        if result.status is Status.SOLVED and not result.optimal:
            assert result.lower_bound <= len(result.solution)
        if result.status is Status.UNKNOWN:
            assert result.solution is None and result.lower_bound is not None


def test_time_limit_is_honoured_while_the_layers_are_built(monkeypatch):
    # a carved 100x100 level: its run-cover bound is 244, and building 244 layers takes seconds;
    # the deadline is read once a layer, so a clock that jumps past the limit a few looks in
    # stops the building after a few layers, before any SAT call
    from puzzlesat.roller.generate import carve
    from tests.clock import jump_clock_after

    level = carve(100, 100, steps=2000, rng=random.Random(5))
    clock = jump_clock_after(monkeypatch, reads=12)
    result = solve(level, method="time-indexed", time_limit=60)
    assert clock.jumped and result.status is Status.UNKNOWN and result.lower_bound >= 200
    assert 0 < result.stats["horizon"] < result.lower_bound and result.stats["sat_calls"] == 0


@pytest.mark.parametrize("side, steps", [(141, 8000), (223, 20000)])
def test_time_limit_is_honoured_on_boards_of_13000_and_35000_floor_cells(monkeypatch, side, steps):
    # the 141x141 board is just under the child-process size and solved in process, the 223x223
    # one in a child process (which reads the same clock): A* stops at a deadline that the clock
    # jumps past after a few looks, and says so (how fast the stop graph is built is for
    # benchmarks/; encodings/roller.md, "Notes moved from the code")
    from puzzlesat.roller.generate import carve
    from puzzlesat.roller.solve import CHILD_PROCESS_CELLS
    from tests.clock import jump_clock_after

    level = carve(side, side, steps=steps, rng=random.Random(5))
    assert (side * side > CHILD_PROCESS_CELLS) == (side == 223)
    jump_clock_after(monkeypatch, reads=20)
    result = solve(level, method="astar", time_limit=60)
    assert result.status is Status.UNKNOWN and result.stats["out_of"] == "time"


def test_benchmark_rows_have_the_shared_keys():
    from benchmarks import ROW_KEYS
    from benchmarks.roller import run

    shared_path("roller", "uridanan-Amaze", "levels")
    rows = list(run(time_limit=2, sets=["uridanan-invalid"], methods=["auto", "dfs"]))
    assert len(rows) == 8
    for row in rows:
        assert set(ROW_KEYS) <= set(row) and {"moves", "optimal", "lower_bound", "known"} <= set(row)
        assert row["status"] == "unsatisfiable" and row["check"] == "ok"


def test_dfs_rule_variants_all_find_the_minimum():
    from puzzlesat.roller.dfs import solve_dfs

    rng = random.Random(77)
    checked = 0
    while checked < 40:
        level = random_level(rng, max_side=6)
        graph = StopGraph.of(level)
        if level.floor_count > 22 or not graph.feasibility().solvable:
            continue
        checked += 1
        truth = brute_force_minimum(level)
        for components in (False, True):
            for early_discard in (False, True):
                result = solve_dfs(graph, time_limit=20, components=components, early_discard=early_discard)
                assert result.optimal and len(result.solution) == truth, (components, early_discard, str(level))
                assert not verify(level, result.solution)
        if truth == 0:
            continue
        capped = solve_dfs(graph, max_moves=truth - 1)  # a cap below the minimum: no answer, not a proof
        assert capped.solution is None and not capped.optimal and capped.status is Status.UNKNOWN


def test_the_baseline_is_reached_as_a_method_and_as_its_own_module():
    from puzzlesat.roller import dfs

    blocked = Level.from_rows(["#.#", "o..", "###"])
    for level in (SMALL, blocked):
        own, by_name = dfs.solve(level, time_limit=20), solve(level, method="dfs", time_limit=20)
        assert (own.status, own.solution, own.optimal, own.method) == (by_name.status, by_name.solution, by_name.optimal, "dfs")
    assert len(dfs.solve(SMALL).solution) == 4 and dfs.solve(blocked).status is Status.UNSATISFIABLE
    assert dfs.solve(blocked).stats["reason"]  # the exact feasibility check ran first


def test_large_boards_under_a_time_limit_run_in_a_child_process(monkeypatch):
    solve_module = importlib.import_module("puzzlesat.roller.solve")
    level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
    direct = solve(level)
    monkeypatch.setattr(solve_module, "CHILD_PROCESS_CELLS", 10)
    in_child = solve(level, time_limit=30)
    assert in_child.status is Status.SOLVED and verify(level, in_child.solution) == []
    assert len(in_child.solution) == len(direct.solution) and in_child.optimal


def test_a_child_process_that_overruns_its_limit_is_stopped(monkeypatch):
    solve_module = importlib.import_module("puzzlesat.roller.solve")
    monkeypatch.setattr(solve_module, "CHILD_PROCESS_CELLS", 10)
    monkeypatch.setattr(StopGraph, "of", staticmethod(lambda level: time.sleep(60)))  # tables that never finish
    level = Level.from_rows(["#####", "#o..#", "#####"])
    start = time.perf_counter()
    result = solve(level, time_limit=0.3)
    # a hang guard only (the tables sleep 60 s): "killed" below is the check
    assert time.perf_counter() - start < 0.3 + importlib.import_module("puzzlesat.child").GRACE_SECONDS + 30.0
    assert result.status is Status.UNKNOWN and "killed" in result.stats["stopped"]


REPORT_SECONDS = 2.0  # the limit of the stopped solves below: the stuck part sleeps 60 s


@pytest.mark.slow
@pytest.mark.skipif(not importlib.import_module("puzzlesat.child").can_fork(), reason="needs fork")
def test_a_stopped_child_process_answers_with_what_it_reported(monkeypatch):
    """A solve in a child process stopped at its limit still gives the bound it had proven and
    the shortest answer it had found (replayed in the parent); before, it said only 'unknown'.
    The limits leave the child time to report on a loaded machine (at 0.3 s a clean-clone run
    of the suite once stopped the DFS child before its answer came in)."""
    solve_module = importlib.import_module("puzzlesat.roller.solve")
    monkeypatch.setattr(solve_module, "CHILD_PROCESS_CELLS", 10)
    level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
    minimum = len(solve(level).solution)
    run_bound = FlowModel(StopGraph.of(level)).bound
    assert 0 < run_bound

    flow_module = importlib.import_module("puzzlesat.roller.flow")
    monkeypatch.setattr(flow_module, "run_cpsat", lambda *a, **k: time.sleep(60))  # stuck after the model is built
    stuck = solve(level, method="flow", time_limit=REPORT_SECONDS)
    assert stuck.status is Status.UNKNOWN and "killed" in stuck.stats["stopped"]
    assert stuck.lower_bound == run_bound and stuck.solution is None

    dfs_module = importlib.import_module("puzzlesat.roller.dfs")
    finished_search = dfs_module.DepthFirstSearch.run
    monkeypatch.setattr(dfs_module.DepthFirstSearch, "run", lambda self: (finished_search(self), time.sleep(60))[0])
    found = solve(level, method="dfs", time_limit=REPORT_SECONDS)
    assert found.status is Status.SOLVED and "killed" in found.stats["stopped"]
    assert len(found.solution) == minimum and verify(level, found.solution) == []
    assert not found.optimal and found.lower_bound is None  # the DFS proves nothing until it returns


class EndlessSearch:
    """A CP-SAT solver whose search goes on until ``stop_search`` is called (a level with no
    time limit whose proof takes hours)."""

    def __init__(self) -> None:
        self.parameters = types.SimpleNamespace()
        self.searching = threading.Event()
        self.stopped = threading.Event()

    def solve(self, model: object) -> int:
        self.searching.set()
        self.stopped.wait(30)
        return cp_model.UNKNOWN

    def stop_search(self) -> None:
        self.stopped.set()


def test_ctrl_c_stops_the_flow_models_search_when_there_is_no_time_limit(monkeypatch):
    """Ctrl-C (SIGINT to the main thread) during a CP-SAT search stops the search and raises
    KeyboardInterrupt; before, the search ran on to its end, since Python handles a signal only
    when the call into OR-Tools returns."""
    search = EndlessSearch()
    monkeypatch.setattr(cp_model, "CpSolver", lambda: search)
    main_thread = threading.main_thread().ident
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=lambda: search.searching.wait(30) and signal.pthread_kill(main_thread, signal.SIGINT),
                         daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            solve(SMALL, method="flow")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert search.stopped.is_set()


class OneSecondSearch:
    """A CP-SAT solver whose search ends after a second, or when stopped; it takes no lock."""

    def __init__(self) -> None:
        self.parameters = types.SimpleNamespace()
        self.stopped = False
        self.best_objective_bound, self.wall_time = 0.0, 1.0  # (read after an unknown end)

    def solve(self, model: object) -> int:
        ends = time.monotonic() + 1
        while not self.stopped and time.monotonic() < ends:
            time.sleep(0.01)
        return cp_model.UNKNOWN

    def stop_search(self) -> None:
        self.stopped = True


def test_ctrl_c_just_after_the_wait_takes_its_lock_does_not_hang(monkeypatch):
    """'puzzlesat verify' of a Roller folder hung for ever after Ctrl-C (1 run in 30): the main
    thread waited for the search with threading.Event.wait, and a Ctrl-C landing between the
    event's lock being taken and its with-block being entered left the lock taken; the main
    thread then waited on it for ever, and so did the search thread, to say it had finished.
    Here that Ctrl-C is made to land there (a trace raising KeyboardInterrupt as the lock's
    __enter__ returns, in the waits of solve_interruptibly); an alarm ends a hang."""
    monkeypatch.setattr(cp_model, "CpSolver", OneSecondSearch)

    def on_call(frame, event, arg):
        caller = frame.f_back
        if (frame.f_code is threading.Condition.__enter__.__code__ and caller is not None and caller.f_back is not None
                and caller.f_back.f_code.co_name == "solve_interruptibly"):
            return raise_on_return
        return None

    def raise_on_return(frame, event, arg):
        if event == "return":
            sys.settrace(None)
            raise KeyboardInterrupt
        return raise_on_return

    def hung(signum, frame):
        raise TimeoutError("the main thread still waits 5 s after Ctrl-C")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(5)
    try:
        sys.settrace(on_call)
        try:
            solve(SMALL, method="flow")
        except KeyboardInterrupt:
            pass  # the Ctrl-C was made to land in a wait (no wait of the main thread takes a lock: it does not)
        finally:
            sys.settrace(None)
        ends = time.monotonic() + 3
        while any(thread.name == "cp-sat search" for thread in threading.enumerate()) and time.monotonic() < ends:
            time.sleep(0.05)
        assert not any(thread.name == "cp-sat search" for thread in threading.enumerate()), "the search thread never ended"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
