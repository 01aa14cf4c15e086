"""Running a batch on a Dask cluster (``pip install 'puzzlesat[cluster]'``): every job goes to a
worker as a future and its record comes back as it completes. Dask itself moves the jobs, and
when a worker dies it runs that worker's jobs again elsewhere; a job whose workers keep dying
(``distributed.worker-allowed-failures``, 3 by default) becomes an error record, never lost.

A cluster across machines::

    dask scheduler                                   # on one machine: tcp://HOST:8786
    dask worker tcp://HOST:8786 --nworkers 4 --nthreads 1   # on each machine, one process a core

then ``connect("tcp://HOST:8786")`` (``--scheduler tcp://HOST:8786``), or on one machine
:func:`local_client` (``--dask N``). Each machine needs puzzlesat (same version) installed.
The solvers keep each job's time limit on the worker; one thread per worker process keeps
solvers from sharing a core. In Python::

    from puzzlesat.batch import run
    from puzzlesat.batch.dask import local_client
    with local_client(2) as client:
        records = list(run(jobs, client=client))
"""

from __future__ import annotations

import contextlib
from typing import Any, Hashable, Iterable, Iterator

from .execute import error_record, execute_in_one_process
from .jobs import Job

MISSING = "Dask runs need the cluster extra: pip install 'puzzlesat[cluster]' (distributed)"


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ImportError(MISSING) from None
    return distributed


def connect(address: str, *, timeout: float = 30.0) -> Any:
    """A ``distributed.Client`` of the running scheduler at ``address`` (``tcp://HOST:PORT``)."""
    return _distributed().Client(address, timeout=timeout)


@contextlib.contextmanager
def local_client(workers: int, *, threads_per_worker: int = 1) -> Iterator[Any]:
    """A Dask cluster of ``workers`` processes on this machine, and a client of it; both are
    closed on leaving the ``with``."""
    distributed = _distributed()
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker, processes=True,
                                       host="127.0.0.1", dashboard_address=":0")
    try:
        with distributed.Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def slots(client: Any) -> int:
    """The threads of the cluster's workers now (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def imap(client: Any, tasks: Iterable[tuple[Hashable, Job]], *,
         in_flight: int | None = None) -> Iterator[tuple[Hashable, dict[str, Any]]]:
    """(token, record) for every (token, job), run on the client's cluster as each completes;
    at most ``in_flight`` jobs (default: four for each of the cluster's threads, and 16: enough
    to hide the round trips to the scheduler) are out at once,
    so a long stream is never all submitted; the jobs still out when this stops are cancelled."""
    distributed = _distributed()
    limit = in_flight or 4 * slots(client) + 16
    pending = iter(tasks)
    out: dict[str, tuple[Hashable, Job, Any]] = {}
    completed = distributed.as_completed()

    def submit_next() -> bool:
        task = next(pending, None)
        if task is None:
            return False
        token, job = task
        future = client.submit(execute_in_one_process, job, pure=False)  # (as in a pool: run.run)
        out[future.key] = (token, job, future)
        completed.add(future)
        return True

    try:
        for _ in range(limit):
            if not submit_next():
                break
        for future in completed:
            token, job, _ = out.pop(future.key)
            try:
                record = future.result()
            except Exception as exc:  # KilledWorker (its workers kept dying), a lost connection
                record = error_record(job, f"the Dask cluster could not run it: {type(exc).__name__}: {exc}")
            future.release()
            yield token, record
            submit_next()
    finally:
        if out:
            client.cancel([future for _, _, future in out.values()])
