"""The shared SAT layer: pool, cardinality (checked by model counting), time limits, counting."""

from __future__ import annotations

import itertools
import time

import pytest
from pysat.examples.genhard import PHP

from puzzlesat.sat import SatSolver, VarPool, at_least, at_most, counter, enumerate_models, exactly, exactly_one
from puzzlesat.timing import Deadline


def count_projected(clauses, xs, solver="cadical195"):
    with SatSolver(clauses, name=solver) as s:
        models, complete = enumerate_models(s, xs, limit=10_000)
    assert complete
    return len(models)


@pytest.mark.parametrize("n,k", [(n, k) for n in range(1, 9) for k in range(0, n + 1)])
def test_cardinality_counts_match_binomials(n, k):
    from math import comb

    pool = VarPool()
    xs = [pool.var("x", i) for i in range(n)]
    assert count_projected(at_most(xs, k, pool), xs) == sum(comb(n, j) for j in range(k + 1))
    assert count_projected(at_least(xs, k, pool), xs) == sum(comb(n, j) for j in range(k, n + 1))
    assert count_projected(exactly(xs, k, pool), xs) == comb(n, k)


def test_exactly_one_large_uses_auxiliaries_and_counts_right():
    pool = VarPool()
    xs = [pool.var("x", i) for i in range(12)]
    clauses = exactly_one(xs, pool)
    assert pool.top > 12
    assert count_projected(clauses, xs) == 12


def _solve_until_the_clock_jumps(monkeypatch, solver: SatSolver, **limits):
    """``solver.solve(**limits)`` with a clock that jumps past any time limit after a few looks:
    the answer, and the conflicts the search made before it stopped."""
    from tests.clock import jump_clock_after

    with monkeypatch.context() as patch:
        clock = jump_clock_after(patch, reads=4)
        answer = solver.solve(**limits)
    assert clock.jumped
    return answer, solver.stats()["conflicts"]


@pytest.mark.parametrize("solver", ["cadical195", "minisat22"])  # budgeted steps, and the timer
def test_time_limit_returns_unknown_promptly(monkeypatch, solver):
    # (not Glucose: it heeds an interrupt only between restarts, late; sat/solver.py)
    hard = PHP(11).clauses  # pigeonhole 12 -> 11: far beyond a second for CDCL
    with SatSolver(hard, name=solver) as s:
        if solver == "cadical195":
            # conflict-budgeted steps, the deadline read between them: a long limit that the
            # clock jumps past after the search has started ends it, unknown
            answer, conflicts = _solve_until_the_clock_jumps(monkeypatch, s, time_limit=60)
            assert answer is None and conflicts > 0
        else:
            # a timer thread interrupts the solver at the limit, in real time: the bound is a
            # hang guard only (PHP(11) runs far longer)
            start = time.perf_counter()
            assert s.solve(time_limit=1.0) is None
            assert time.perf_counter() - start < 1.0 + 30.0


@pytest.mark.parametrize("solver", ["cadical195", "minisat22"])
def test_a_large_conflict_budget_still_stops_at_the_time_limit(monkeypatch, solver):
    """Both limits hold together: a call with a large conflict budget still stops at its
    deadline (it once looked at the clock only before it started, and overran), and a small
    budget still ends a call with a long time limit."""
    with SatSolver(PHP(11).clauses, name=solver) as s:
        if solver == "cadical195":
            answer, conflicts = _solve_until_the_clock_jumps(monkeypatch, s, conflict_limit=10**9, time_limit=60)
            assert answer is None and 0 < conflicts < 10**9
        else:
            start = time.perf_counter()
            assert s.solve(conflict_limit=10**9, time_limit=1.0) is None
            assert time.perf_counter() - start < 1.0 + 30.0  # (a hang guard: the timer is real time)
        before = s.stats()["conflicts"]
        assert s.solve(conflict_limit=50, time_limit=60) is None  # and the budget still ends it
        assert s.stats()["conflicts"] - before <= 50 + 1000  # (solvers stop at their next check)
        assert s.stats()["conflicts"] < 10**6
    with SatSolver([[1, 2], [-1], [-2, 3]], name=solver) as s:
        assert s.solve(conflict_limit=10, time_limit=60) is True and s.true_vars() == {2, 3}


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_conflict_limit_gives_up_then_a_plain_call_still_decides(solver):
    hard = PHP(9).clauses
    with SatSolver(hard, name=solver) as s:
        assert s.solve(conflict_limit=10) is None  # far too few conflicts to refute it
        assert s.solve(conflict_limit=10, time_limit=Deadline(0.0)) is None
    with SatSolver([[1, 2], [-1], [-2, 3]], name=solver) as s:
        assert s.solve(conflict_limit=10) is True and s.true_vars() == {2, 3}
        assert s.solve([-3], conflict_limit=10) is False
        assert s.solve() is True  # the limit held for one call only


def test_deadline_is_shared_between_calls():
    d = Deadline(0.0)
    with SatSolver([[1]]) as s:
        assert s.solve(time_limit=d) is None
    with SatSolver([[1]]) as s:
        assert s.solve(time_limit=None) is True


def test_refine_cuts_are_not_counted():
    # x1 or x2; pretend the model {x1, x2} is "not a real answer" and cut it.
    def refine(true_vars):
        return [[-1, -2]] if {1, 2} <= true_vars else []

    with SatSolver([[1, 2]]) as s:
        models, complete = enumerate_models(s, [1, 2], limit=10, refine=refine)
    assert complete and sorted(sorted(m & {1, 2}) for m in models) == [[1], [2]]


def test_pool_keys_round_trip():
    pool = VarPool()
    keys = [("e", (r, c), d) for r, c, d in itertools.product(range(3), range(3), "hv")]
    ids = [pool.var(*k) for k in keys]
    assert len(set(ids)) == len(keys)
    assert [pool.key(i) for i in ids] == keys
    assert pool.get("missing") is None


@pytest.mark.parametrize("name", ["lingeling", "kissat404", "no-such-solver"])
def test_solvers_that_cannot_be_driven_are_refused_clearly(name):
    from puzzlesat.errors import PuzzlesatError

    with pytest.raises(PuzzlesatError, match=name):
        SatSolver([[1]], name=name)


@pytest.mark.parametrize("solver", ["minisat22", "glucose4", "cadical195"])
def test_a_bounded_try_leaves_no_budget_behind_for_a_timed_solve(solver):
    # a cheap bounded try first (conflict_limit), then the real search under a time limit: it
    # must run to its answer, not stop at the first try's leftover conflict budget ("unknown")
    with SatSolver(PHP(7).clauses, name=solver) as s:
        assert s.solve(conflict_limit=5) is None
        assert s.solve(time_limit=60) is False


def test_every_public_name_of_the_sat_layer_shows_an_example_in_help():
    """help() on each function and class of puzzlesat.sat shows a runnable example (run by
    --doctest-modules); exactly_one, at_most, at_least and exactly had no docstring at all, and
    enumerate_models, run_cpsat, VarPool and SatSolver none of their own."""
    import inspect

    import puzzlesat.sat as sat

    missing = []
    for name in sat.__all__:
        value = getattr(sat, name)
        if inspect.isclass(value) and issubclass(value, Exception):
            continue
        if (inspect.isfunction(value) or inspect.isclass(value)) and ">>>" not in (inspect.getdoc(value) or ""):
            missing.append(name)
    assert not [name for name in missing if name != "CpSatOutcome"], missing
    assert "run_cpsat" in (inspect.getdoc(sat.CpSatOutcome) or "")  # a record: says what fills it


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda xs, pool: at_most(xs, 2, None), "pool must be a VarPool, not NoneType"),  # was AttributeError: no attribute 'idpool'
        (lambda xs, pool: exactly_one(xs, {}), "pool must be a VarPool, not dict"),  # 7 literals: was AttributeError; 6 or fewer passed
        (lambda xs, pool: at_least(xs, "2", pool), "k must be a whole number of literals, not str"),  # was '>=' not supported ...
        (lambda xs, pool: at_most(xs, 2.0, pool), "k must be a whole number of literals, not float"),  # was pysat's 'float' object cannot be interpreted ...
        (lambda xs, pool: counter(xs, None, pool), "bound must be a whole number of literals, not NoneType"),
    ],
)
def test_cardinality_arguments_are_checked_at_the_call(call, message):
    pool = VarPool()
    xs = [pool.var("x", i) for i in range(7)]
    with pytest.raises(TypeError, match=message):
        call(xs, pool)


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        (dict(parameters={"linearisation_level": 2}), ValueError, "unknown CP-SAT parameter 'linearisation_level'"),  # was AttributeError from OR-Tools
        (dict(parameters={"linearization_level": "high"}), TypeError, "CP-SAT parameter 'linearization_level' cannot take 'high'"),
        (dict(model="not a model"), TypeError, "model must be a CpModel, not str"),  # was AttributeError: no attribute 'proto'
    ],
)
def test_run_cpsat_arguments_are_named_when_wrong(arguments, error, message):
    from ortools.sat.python import cp_model

    from puzzlesat.sat import run_cpsat

    model = cp_model.CpModel()
    model.new_int_var(0, 3, "x")
    with pytest.raises(error, match=message):
        run_cpsat(**{"model": model, **arguments})


def _uniqueness_in_a_pool_worker(text: str) -> str:
    from puzzlesat import numberlink
    from puzzlesat.child import can_fork

    return f"{can_fork()} {numberlink.count(numberlink.parse(text), time_limit=30).uniqueness.value}"


def test_work_meant_for_a_child_process_runs_in_a_pool_worker_in_that_worker(monkeypatch):
    """A worker of multiprocessing.Pool is a daemon, and a daemon may not start processes:
    numberlink.count in such a worker (a benchmark run in parallel) failed with 'daemonic
    processes are not allowed to have children' as it started its frontier count."""
    import importlib
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the frontier count runs in a process of its own only where fork is available")
    # the count starts at once (the workers are forked from this process, so they see it)
    monkeypatch.setattr(importlib.import_module("puzzlesat.numberlink.engine.tuning"), "FRONTIER_DELAY", 0.0)
    text = "1 . . 1 2\n2 . . . .\n. . . . 3\n. 4 . . .\n. . . 3 4"  # (examples/numberlink/first_5x5.nl)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_uniqueness_in_a_pool_worker, (text,)) == "False unique"


def _report_then_hang(steps: int) -> str:
    from puzzlesat.child import report_progress

    for i in range(1, steps + 1):
        report_progress(i)
    time.sleep(60)
    return "never"


def test_a_child_is_stopped_as_soon_as_its_reports_are_enough() -> None:
    from puzzlesat.child import can_fork, run_in_child

    if not can_fork():
        pytest.skip("no fork here")
    seen: list[int] = []
    # (the times asserted are hang guards: the child would hang for 60 s)
    start = time.perf_counter()
    assert run_in_child(_report_then_hang, 3, {}, Deadline(30.0), on_progress=seen.append, stop_when=lambda: len(seen) >= 3) is None
    assert seen == [1, 2, 3] and time.perf_counter() - start < 20  # (stopped then, not at the 30 s limit)
    start = time.perf_counter()  # never enough: stopped at the limit (a second past it)
    assert run_in_child(_report_then_hang, 2, {}, Deadline(0.5), on_progress=seen.append, stop_when=lambda: len(seen) >= 10) is None
    assert seen == [1, 2, 3, 1, 2] and time.perf_counter() - start < 0.5 + 30.0
    assert run_in_child(pow, 2, {"exp": 5}, Deadline(5.0), stop_when=lambda: False) == 32


# A parent process that runs a long solve in a child through run_with_deadline; the child says
# its pid, then sleeps or sends reports for ever. ``how`` leaves the child one way to notice that
# its parent has gone: the kernel's signal, the watching thread, or the pipe whose reader is gone.
PARENT_OF_A_LONG_CHILD = """
import os, sys, time
import puzzlesat.child as child
from puzzlesat.timing import Deadline

work, how = sys.argv[1], sys.argv[2]
if how != "signal":
    child._parent_death_signal = lambda: False
if how == "pipe":
    child._exit_with_parent = lambda parent: None

def long_solve(item, *, time_limit):
    print(os.getpid(), flush=True)
    while work == "reports":
        child.report_progress("x" * 65536)
    time.sleep(600)

deadline = Deadline(600.0)
child.run_with_deadline(long_solve, None, dict(time_limit=deadline), deadline=deadline, cells=2, threshold=1,
                        check=lambda answer: [], method="long")
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True  # (no /proc here: it answered the signal)


@pytest.mark.parametrize("work, how", [("sleeps", "signal"), ("sleeps", "thread"), ("reports", "pipe")])
def test_a_child_does_not_outlive_its_parent_killed_outright(work, how):
    """SIGKILL on the parent runs no clean-up: the child must end by itself (before, one left
    blocked in a write to its pipe stayed for ever)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from puzzlesat.child import can_fork

    if not can_fork() or not hasattr(os, "getppid"):
        pytest.skip("no fork here")
    source = str(Path(__file__).resolve().parents[1] / "src")
    environment = {**os.environ, "PYTHONPATH": source + os.pathsep + os.environ.get("PYTHONPATH", "")}
    parent = subprocess.Popen([sys.executable, "-c", PARENT_OF_A_LONG_CHILD, work, how], stdout=subprocess.PIPE,
                              env=environment, text=True)
    try:
        line = parent.stdout.readline()  # (the child's pid, once it runs)
        assert line.strip().isdigit(), line
        pid = int(line)
        assert _running(pid)
    finally:
        parent.kill()
        parent.wait()
        parent.stdout.close()
    for _ in range(100):  # up to 10 s
        if not _running(pid):
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        pytest.fail(f"the child {pid} outlived its parent ({work}, {how})")


def _answers_then_hang(answers: list, *, time_limit, result=None):
    from puzzlesat.child import report_answer

    for answer in answers:
        report_answer(answer)
    if result is not None:
        return result
    time.sleep(60)


def test_what_a_child_hands_back_is_checked_and_kept():
    """run_with_deadline: answers reported are checked as they come (a wrong one is an
    UnverifiedAnswer, and the child is stopped), and so are the answers of the child's result;
    once ``wanted`` answers are in the child is stopped and they are the count."""
    from puzzlesat.child import can_fork, run_with_deadline
    from puzzlesat.errors import UnverifiedAnswer
    from puzzlesat.results import CountResult, SolveResult, Status

    if not can_fork():
        pytest.skip("no fork here")

    def run(answers, *, result=None, wanted=None, counting=False, limit=30.0):
        deadline = Deadline(limit)
        return run_with_deadline(_answers_then_hang, answers, dict(time_limit=deadline, result=result), deadline=deadline,
                                 cells=2, threshold=1, check=lambda a: [] if a.startswith("ok") else [f"{a} is wrong"],
                                 method="toy", wanted=wanted, counting=counting)

    counted = run(["ok1", "ok2", "ok1", "ok3"], wanted=2, counting=True)  # (stopped then, not killed at the limit)
    assert isinstance(counted, CountResult) and counted.solutions == ("ok1", "ok2") and counted.complete
    assert counted.method == "toy" and counted.stats["stopped"] == "2 answers found (solver process stopped)"
    with pytest.raises(UnverifiedAnswer, match="toy gave an answer that fails the independent check: bad is wrong"):
        run(["ok1", "bad"])
    good = SolveResult(Status.SOLVED, "ok", method="toy")
    assert run([], result=good) == good
    with pytest.raises(UnverifiedAnswer, match="odd is wrong"):
        run([], result=SolveResult(Status.SOLVED, "odd", method="toy"))
    with pytest.raises(UnverifiedAnswer, match="odd is wrong"):
        run([], result=CountResult(2, True, 2, ("ok", "odd"), method="toy"))
    stopped = run(["ok1", "ok22"], limit=0.2)  # killed at the limit: the last answer stays
    assert stopped.status is Status.SOLVED and stopped.solution == "ok22" and "killed" in stopped.stats["stopped"]
