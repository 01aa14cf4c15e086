"""The batch engine gives the command line's records, in this process and on worker processes;
a worker that dies costs only its job; time limits hold inside workers; Ctrl-C stops cleanly."""

from __future__ import annotations

import dataclasses
import os

import pytest

from puzzlesat.batch import Job, Store, run
from puzzlesat.batch.pool import Pool
from puzzlesat.numberlink import parse
from puzzlesat.registry import register, unregister

from .helpers import cli_records, dying_family, example_jobs, untimed, where
from .helpers import local_records as cached_local_records


@pytest.fixture(scope="module")
def local_records() -> list[dict]:
    return list(cached_local_records())


def test_one_worker_gives_the_command_lines_records(local_records: list[dict]) -> None:
    expected = {where(record): untimed(record) for record in cli_records()}
    assert len(local_records) == len(example_jobs()) >= 20
    for record in local_records:
        assert untimed(record) == expected[where(record)], where(record)
    assert {record["family"] for record in local_records} == {"numberlink", "roller", "swap"}


def test_two_workers_give_the_same_records_in_order(local_records: list[dict]) -> None:
    records = list(run(example_jobs(), workers=2))
    assert [untimed(r) for r in records] == [untimed(r) for r in local_records]


def test_unordered_gives_every_record_once(local_records: list[dict]) -> None:
    records = list(run(example_jobs(), workers=2, ordered=False))
    assert sorted(where(r) for r in records) == sorted(where(r) for r in local_records)
    by_place = {where(r): untimed(r) for r in local_records}
    assert all(untimed(r) == by_place[where(r)] for r in records)


def test_time_limits_hold_inside_workers() -> None:
    hard = next(job for job in example_jobs(slow=True) if job.family == "roller")  # 0.15 s or more to solve
    jobs = [dataclasses.replace(hard, verb="solve", time_limit=limit) for limit in (0.01, 0.02, None)]
    records = list(run(jobs, workers=2))
    assert [r["status"] for r in records] == ["unknown", "unknown", "solved"]


def test_a_killed_worker_makes_its_job_an_error_and_the_batch_goes_on() -> None:
    register(dying_family())
    try:
        boards = ["A.A\nB.B", "AB\n..\nAB", "ABC\n...\nABC", "A..\n...\n..A", "AB.\n...\n.AB"]
        jobs = [Job.of("dying", "solve", parse(text), source="set.txt", index=n, options={"allow_empty": True})
                for n, text in enumerate(boards)]
        with Pool(2) as pool:
            first = pool.pids
            records = dict(pool.imap((job.index, job) for job in jobs))
            assert pool.replaced == 1 and pool.pids != first
        assert records[2]["status"] == "error" and "SIGKILL" in records[2]["error"]
        assert [records[n]["status"] for n in (0, 1, 3, 4)] == ["solved"] * 4
        # the same through run(): in order, the dead job's record in its place
        assert [r["status"] for r in run(jobs, workers=2)] == ["solved", "solved", "error", "solved", "solved"]
    finally:
        unregister("dying")


def test_ctrl_c_stops_the_workers_and_keeps_what_finished(tmp_path) -> None:
    jobs = [Job.generate("numberlink", (5, 5), seed=n, index=n, options={"method": "unionfind", "allow_multiple": True})
            for n in range(40)]
    seen: list[int] = []

    def interrupt(progress) -> None:
        seen.append(progress.done)
        if progress.done == 3:
            raise KeyboardInterrupt

    before = _children()
    kept = []
    with pytest.raises(KeyboardInterrupt):
        for record in run(jobs, workers=2, store=tmp_path / "s.sqlite", on_progress=interrupt):
            kept.append(record)
    assert len(kept) == 3
    with Store(tmp_path / "s.sqlite") as store:
        assert {job.key for job in jobs[:3]} <= store.keys()
        assert len(store) < len(jobs)
    assert _children() <= before  # no worker left behind


def _children() -> set[str]:
    """This process's child processes (Linux), by id."""
    if not os.path.isdir("/proc"):
        return set()
    return {pid for pid in os.listdir("/proc") if pid.isdigit() and _parent(pid) == os.getpid()}


def _parent(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def test_a_job_of_a_batch_of_several_runs_alone_and_the_only_job_may_have_helpers() -> None:
    """In a batch of several a job runs in one process at every -j (no helper beside its
    solver: the same record and cores wherever it lands); a batch of one job runs here with
    helpers where this process may fork, at any -j."""
    from puzzlesat.child import can_fork

    jobs = [Job.call("tests.batch.helpers:may_work_beside", {"n": n}, index=n) for n in range(3)]
    for how in ({"workers": 1}, {"workers": 2}, {"workers": 1, "memory_limit": 2**34}):
        assert [record["rows"] for record in run(jobs, **how)] == [[False]] * 3, how
        assert [record["rows"] for record in run(jobs[:1], **how)] == [[can_fork()]], how  # (True on Linux)


def test_one_process_holds_for_the_thread_that_enters_it() -> None:
    """A worker with several threads (Dask's --nthreads above 1) runs one job per thread: a
    job leaving ``one_process`` must not let another thread's job start helpers, nor end
    that other job's ``one_process``."""
    import threading

    from puzzlesat.child import can_fork, may_work_beside, one_process

    inside, leave, seen = threading.Event(), threading.Event(), {}

    def job() -> None:
        with one_process():
            inside.set()
            leave.wait(10)
            seen["job"] = may_work_beside()

    worker = threading.Thread(target=job)
    worker.start()
    assert inside.wait(10)
    seen["other"] = may_work_beside()  # (this thread never entered one_process)
    with one_process():
        pass  # (entered and left here while the other thread is inside)
    leave.set()
    worker.join(10)
    assert seen == {"other": can_fork(), "job": False}
