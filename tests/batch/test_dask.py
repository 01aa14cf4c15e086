"""Runs through a real Dask cluster on localhost (a scheduler and two worker processes): the same
records as a local run, none lost when a worker is killed mid-run, time limits kept."""

from __future__ import annotations

import dataclasses
import os
import signal

import pytest

from puzzlesat.batch import Job, run
from puzzlesat.batch.dask import connect, local_client

from .helpers import example_jobs, local_records, untimed

distributed = pytest.importorskip("distributed")  # (the dev extra installs it: CI runs these)


@pytest.fixture(scope="module")
def cluster():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def client(cluster):
    with connect(cluster.scheduler_address) as client:  # as --scheduler tcp://HOST:PORT does
        client.wait_for_workers(2, timeout=60)
        yield client


def test_a_cluster_gives_the_same_records_as_a_local_run(client) -> None:
    local = [untimed(record) for record in local_records()]
    assert [untimed(record) for record in run(example_jobs(), client=client)] == local


def test_time_limits_hold_on_the_workers(client) -> None:
    hard = next(job for job in example_jobs(slow=True) if job.family == "roller")
    jobs = [dataclasses.replace(hard, verb="solve", time_limit=limit) for limit in (0.01, 0.02)]
    assert [r["status"] for r in run(jobs, client=client)] == ["unknown", "unknown"]


def test_a_worker_killed_mid_run_loses_no_job(client) -> None:
    jobs = [Job.generate("numberlink", (6, 6), seed=n, index=n, options={"method": "unionfind", "allow_multiple": True})
            for n in range(60)]
    pids = client.run(os.getpid)  # worker address -> its process id
    records = []
    for record in run(jobs, client=client, ordered=False):
        records.append(record)
        if len(records) == 5:
            os.kill(next(iter(pids.values())), signal.SIGKILL)
    assert sorted(r["index"] for r in records) == list(range(60))
    # Dask runs the dead worker's jobs again elsewhere; one it could not run would be an error record
    assert all(r["status"] == "generated" or "Dask" in r["error"] for r in records)
    assert sum(r["status"] == "generated" for r in records) >= 55
    client.wait_for_workers(2, timeout=60)  # (the nanny starts a new worker)


def test_local_client_starts_and_closes_a_cluster() -> None:
    jobs = [Job.generate("swap", (2, 1), seed=n, index=n, options={"difficulty": "easy"}) for n in range(3)]
    with local_client(1) as client:
        assert len(client.nthreads()) == 1
        records = list(run(jobs, client=client))
    assert client.status == "closed"
    assert [(r["index"], r["status"]) for r in records] == [(0, "generated"), (1, "generated"), (2, "generated")]


def test_a_store_resumes_a_cluster_run(client, tmp_path) -> None:
    jobs = example_jobs()[:6]
    first = list(run(jobs, client=client, store=tmp_path / "s.sqlite"))
    seen = []
    assert list(run(jobs, client=client, store=tmp_path / "s.sqlite", on_progress=seen.append)) == first
    assert seen[-1].resumed == len(jobs)
