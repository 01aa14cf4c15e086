"""Bounded memory (issue #45): a puzzle whose work allocates past ``memory_limit`` /
``--memory-limit`` ends as "unknown" with the reason "memory limit", through the child helper,
the batch engine (in this process, in a child, on two workers) and the command line, and the
batch goes on to the next puzzle."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import signal
from typing import Any

import pytest

from puzzlesat.batch import Job, run
from puzzlesat.child import can_fork, run_in_child
from puzzlesat.cli import main
from puzzlesat.memory import MemoryLimitReached, held_memory, can_limit, parse_memory
from puzzlesat.numberlink import parse
from puzzlesat.registry import get_family, register, unregister
from puzzlesat.timing import Deadline

pytestmark = pytest.mark.skipif(not (can_fork() and can_limit() and held_memory() is not None),
                                reason="memory limits need fork, resource and /proc (Linux)")
engine = importlib.import_module("puzzlesat.batch.run")  # (the module: puzzlesat.batch.run is also the function)

LIMIT = parse_memory("300M")
HOG_ITEMS = 80_000_000  # a list of 640 MB: past a 300 MB limit, harmless without one


def hog(_: Any = None) -> int:
    return len([0] * HOG_ITEMS)


def _greedy_solve(puzzle: Any, *, options: Any, time_limit: Any) -> dict[str, Any]:
    if len(puzzle.pairs) == 3:  # the cue: a board of three pairs takes all it can
        hog()
    return get_family("numberlink").solve_record(puzzle, options=options, time_limit=time_limit)


BOARDS = ["A.A\nB.B", "AB\n..\nAB", "ABC\n...\nABC", "A..\n...\n..A"]


@pytest.fixture
def greedy():
    register(dataclasses.replace(get_family("numberlink"), name="greedy", extensions=(), solve_record=_greedy_solve))
    try:
        yield [Job.of("greedy", "solve", parse(text), source="set.txt", index=n, options={"allow_empty": True})
               for n, text in enumerate(BOARDS)]
    finally:
        unregister("greedy")


def test_the_child_helper_turns_the_limit_into_memory_limit_reached():
    with pytest.raises(MemoryLimitReached, match="memory limit of 300M reached"):
        run_in_child(hog, None, {}, Deadline(60.0), memory_limit=LIMIT)
    assert run_in_child(len, "abc", {}, Deadline(60.0), memory_limit=LIMIT) == 3  # (a small job is untouched)


def test_a_child_that_dies_under_a_limit_is_read_as_the_limit():
    # (a C extension aborts on a failed allocation: no MemoryError, the process just ends)
    with pytest.raises(MemoryLimitReached):
        run_in_child(lambda _: os.kill(os.getpid(), signal.SIGKILL), None, {}, Deadline(60.0), memory_limit=LIMIT)


def _statuses(records: list[dict]) -> list[tuple[str, Any]]:
    return [(record["status"], record["reason"]) for record in records]


def _expected(records: list[dict]) -> None:
    assert [r["index"] for r in records] == [0, 1, 2, 3]
    assert [r["status"] for r in records] == ["solved", "solved", "unknown", "solved"]
    memory = records[2]
    assert memory["reason"] == "memory limit" and memory["error"] is None and memory["family"] == "greedy"


def test_two_workers_make_the_job_unknown_and_go_on(greedy):
    _expected(list(run(greedy, workers=2, memory_limit=LIMIT)))


def test_one_worker_runs_a_job_in_a_child_and_goes_on(greedy, monkeypatch):
    monkeypatch.setattr(engine, "IN_PROCESS_CHARS", 0)  # every job in a child
    _expected(list(run(greedy, memory_limit=LIMIT)))


def test_one_worker_runs_a_small_job_here_under_the_limit_and_goes_on(greedy, monkeypatch):
    import resource

    limit = 2 * engine.held_memory() + 2**28  # above twice what this process holds: small jobs run here
    monkeypatch.setitem(globals(), "HOG_ITEMS", limit // 8)  # a list as large as the limit: past it
    before = resource.getrlimit(resource.RLIMIT_DATA)
    assert all(engine.in_process(job, limit) for job in greedy)
    _expected(list(run(greedy, memory_limit=limit)))
    assert resource.getrlimit(resource.RLIMIT_DATA) == before  # (the limit is lifted after each job)


def test_the_api_checks_its_argument(greedy):
    with pytest.raises(TypeError, match="memory_limit must be a whole number of bytes"):
        list(run(greedy, memory_limit="300M"))


def test_the_command_line_says_unknown_memory_limit_and_goes_on(greedy, tmp_path, capsys):
    files = []
    for n, text in enumerate(BOARDS):
        files.append(tmp_path / f"p{n}.txt")
        files[-1].write_text(text + "\n")
    argv = ["solve", *map(str, files), "--family", "greedy", "--allow-empty", "--memory-limit", "300M"]
    for extra in ([], ["-j", "2"]):
        code = main([*argv, "--json", *extra])
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert code == 1
        _expected([{**record, "index": n} for n, record in enumerate(records)])
    main(argv)
    out = capsys.readouterr().out
    assert "unknown (memory limit)" in out and out.count("solved") == 3


def test_the_command_line_refuses_a_size_it_cannot_read(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["solve", "x.txt", "--memory-limit", "lots"])
    assert stop.value.code == 2
    assert "memory size 'lots' is not a number of bytes" in capsys.readouterr().err


def _greedy_make(size: Any, *, seed: int, **settings: Any) -> Any:
    hog()  # (every draw: the pack stops at its first puzzle)
    return get_family("numberlink").make(size, seed=seed, **settings)


def test_generate_names_the_puzzle_past_the_limit(tmp_path, capsys, monkeypatch):
    register(dataclasses.replace(get_family("numberlink"), name="greedy", extensions=(), make=_greedy_make))
    try:
        limit = 2 * engine.held_memory() + 2**28  # (this process runs the draws: a limit above what it holds)
        monkeypatch.setitem(globals(), "HOG_ITEMS", limit // 8)
        for extra in ([], ["-j", "2"]):
            argv = ["generate", "greedy", "--size", "4x4", "--count", "3", "--seed", "1", "--memory-limit", str(limit)]
            out = tmp_path / f"pack{len(extra)}.txt"
            assert main([*argv, "--out", str(out), *extra]) == 1
            err = capsys.readouterr().err
            assert "memory limit of" in err and "reached (--memory-limit)" in err, extra
            import resource

            assert resource.getrlimit(resource.RLIMIT_DATA)[0] != limit  # (lifted after the run)
    finally:
        unregister("greedy")


def test_a_store_runs_a_puzzle_stopped_by_its_memory_limit_again(greedy, tmp_path):
    store = tmp_path / "results.sqlite"
    _expected(list(run(greedy, workers=2, memory_limit=LIMIT, store=store)))
    seen = []
    again = list(run(greedy, memory_limit=None, store=store, on_progress=seen.append))  # no limit: it finishes now
    assert [r["status"] for r in again] == ["solved"] * 4 and seen[-1].resumed == 3
    from puzzlesat.batch import Store

    with Store(store) as kept:
        assert kept.get(greedy[2].key)["status"] == "solved"  # (the new record replaced the stopped one)
