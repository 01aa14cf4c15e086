"""The results store: a rerun runs nothing, a key runs once per batch, an error is run again,
and a run killed (SIGKILL) at random moments loses nothing it finished and never corrupts it."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from puzzlesat.batch import Job, Store, StoreError, run
from puzzlesat.numberlink import parse
from puzzlesat.registry import get_family, register, unregister

from .helpers import ROOT

CALLS: list[str] = []


def _counted_solve(puzzle: Any, *, options: Any, time_limit: Any) -> dict[str, Any]:
    CALLS.append(str(puzzle))
    return get_family("numberlink").solve_record(puzzle, options=options, time_limit=time_limit)


@pytest.fixture
def counted():
    CALLS.clear()
    register(dataclasses.replace(get_family("numberlink"), name="counted", solve_record=_counted_solve))
    yield CALLS
    unregister("counted")


BOARDS = ["A.A\nB.B", "AB\n..\nAB", "A.A\nB.B", "A..\n...\n..A", "AB\n..\nAB"]  # two boards twice


def jobs_of(boards: list[str]) -> list[Job]:
    return [Job.of("counted", "solve", parse(text), source="set.txt", index=n, options={"allow_empty": True})
            for n, text in enumerate(boards)]


def test_a_key_twice_in_a_batch_runs_once(counted: list[str], tmp_path) -> None:
    records = list(run(jobs_of(BOARDS), store=tmp_path / "s.sqlite"))
    assert len(counted) == 3
    assert [r["index"] for r in records] == [0, 1, 2, 3, 4]
    assert records[2]["answer"] == records[0]["answer"] and records[4]["answer"] == records[1]["answer"]
    with Store(tmp_path / "s.sqlite") as store:
        assert len(store) == 3


def test_a_rerun_runs_nothing_and_yields_the_stored_records(counted: list[str], tmp_path) -> None:
    path = tmp_path / "s.sqlite"
    first = list(run(jobs_of(BOARDS), store=path))
    counted.clear()
    seen = []
    again = list(run(jobs_of(BOARDS), store=str(path), on_progress=seen.append))
    assert counted == []
    assert again == first  # seconds included: the stored records themselves
    assert (seen[-1].done, seen[-1].resumed, seen[-1].total) == (5, 5, 5)
    more = list(run(jobs_of(BOARDS + ["ABC\n...\nABC"]), store=path))  # one new puzzle: only it runs
    assert len(counted) == 1 and more[:5] == first and more[5]["index"] == 5


def test_an_error_record_is_run_again(counted: list[str], tmp_path) -> None:
    path = tmp_path / "s.sqlite"
    job = jobs_of(BOARDS[:1])[0]
    with Store(path) as store:
        store.put(job, {"family": "counted", "status": "error", "error": "the worker process died"})
    [record] = run([job], store=path)
    assert record["status"] == "solved" and len(counted) == 1
    with Store(path) as store:
        assert store.get(job.key)["status"] == "solved" and len(store) == 1


def test_a_file_that_is_not_a_store_is_refused(tmp_path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, " * 100)
    with pytest.raises(StoreError, match="not a results store"):
        Store(path)


WRITERS = """
import os
import sys
import time
import traceback
from puzzlesat.batch import Job, run
from puzzlesat.registry import families

families()  # (what a pool loads before it forks its workers: each writer forked from here starts at once)


def work(n):  # (a tiny job: the kills test the store, not the solvers)
    time.sleep(0.01)
    return {"n": n}


path, count = sys.argv[1], int(sys.argv[2])
while sys.stdin.readline():  # a writer per line: a process of its own, forked, that the test kills
    pid = os.fork()
    if pid == 0:
        try:
            jobs = [Job.call("__main__:work", {"n": n}, source="pack", index=n) for n in range(count)]
            for record in run(jobs, workers=2, store=path, ordered=False):
                print(record["index"], flush=True)
        except BaseException:
            traceback.print_exc()  # (to the test's stderr: the writer then ends without its records)
        finally:
            os._exit(0)
    print("writer", pid, flush=True)
    os.waitpid(pid, 0)
    print("ended", flush=True)
"""


WATCHDOG_SECONDS = 120.0  # (the 20 kills take 4-7 s under load)
KILLS = 20  # (the number: each writer is forked from one process, so a kill costs no process start)


def test_sigkill_at_random_moments_loses_nothing_finished(tmp_path) -> None:
    """A run of tiny jobs on two workers into a store, killed (SIGKILL) 20 times: a third of
    the kills land anywhere in its first 0.2 s (listing its jobs, opening the store, starting
    its workers, the first writes), the others at a random moment after its first new record;
    each run resumes the store the last one left."""
    path = str(tmp_path / "killed.sqlite")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    chance = random.Random(43)
    finished: set[int] = set()
    writers = subprocess.Popen([sys.executable, "-c", WRITERS, path, "3000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               env=env, text=True)
    assert writers.stdin is not None and writers.stdout is not None

    def read_until(mark: str) -> str:  # (the records said before it are finished ones)
        while True:
            line = writers.stdout.readline()
            assert line, "the writers' process ended"
            if line.strip().isdigit():
                finished.add(int(line))
                if mark == "record":
                    return line
            elif line.startswith(mark):
                return line
            elif line.startswith("ended"):  # (before any record: it failed, its traceback is on stderr)
                raise AssertionError("a writer ended before its first record")

    watchdog = threading.Timer(WATCHDOG_SECONDS, writers.kill)  # (a stuck writer fails the test, never hangs it)
    watchdog.start()
    try:
        for kill in range(KILLS):
            writers.stdin.write("go\n")
            writers.stdin.flush()
            pid = int(read_until("writer").split()[1])
            if kill % 3:
                read_until("record")
                time.sleep(chance.uniform(0.0, 0.1))
            else:
                time.sleep(chance.uniform(0.0, 0.2))
            os.kill(pid, signal.SIGKILL)
            read_until("ended")
    finally:
        watchdog.cancel()
        writers.stdin.close()
        writers.wait(timeout=60)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = db.execute("SELECT idx, status, record FROM results").fetchall()
    indexes = [index for index, _, _ in rows]
    assert len(indexes) == len(set(indexes))  # each finished job once
    assert finished <= set(indexes) and len(finished) >= KILLS * 2 // 3  # every record yielded was stored
    assert {status for _, status, _ in rows} == {"done"}
    assert all(json.loads(record)["rows"] == [{"n": index}] for index, _, record in rows)  # whole records
    with Store(path) as store:  # and it opens as a store, resumable
        assert len(store) == len(rows)
