"""The batch engine: a stream of jobs in, their records out as they finish, in this process, on
a pool of worker processes, or on a Dask cluster; with a results store, what is done is never
run again.

>>> from puzzlesat.batch import Job, run
>>> jobs = [Job.generate("numberlink", (4, 4), seed=n, source="pack.txt", index=n,
...                      options={"method": "unionfind", "allow_multiple": True}) for n in range(3)]
>>> [(r["index"], r["status"]) for r in run(jobs)]
[(0, 'generated'), (1, 'generated'), (2, 'generated')]
"""

from __future__ import annotations

import math
import time
from contextlib import nullcontext
from typing import Any, Callable, Hashable, Iterable, Iterator

from ..child import Child, can_fork, one_process
from ..memory import MemoryLimitReached, held_memory, check_limit, limited
from .execute import error_record, execute, execute_in_one_process, memory_record
from .jobs import Job
from .pool import Pool, cpu_count, overrun
from .progress import Progress
from .store import Store, open_store

Tasks = Iterable[tuple[Hashable, Job]]


def run(jobs: Iterable[Job], *, workers: int = 1, store: Store | str | None = None, client: Any = None,
        ordered: bool = True, on_progress: Callable[[Progress], None] | None = None,
        memory_limit: int | None = None) -> Iterator[dict[str, Any]]:
    """The records of ``jobs`` (each exactly the family's record with family, source, index,
    status, error and seconds), yielded as they finish.

    ``workers``: 1 runs the jobs here, one after another; more runs them on that many worker
    processes (0: one per core); a worker that dies makes its job an error record and is
    replaced. Wherever it runs, each job of a batch of several runs in one process: its solver
    starts no helper process beside it (:func:`~puzzlesat.child.one_process`), so that its record
    and its use of the cores are the same at every number of workers; a batch of one job runs
    here, with helpers if its solver has them (the cores are its own). ``client``: a
    ``distributed.Client`` (see :mod:`puzzlesat.batch.dask`) runs them on its Dask cluster
    instead. ``store``: a :class:`Store` or the path of one; a job whose key it holds is not
    run again (its stored record is yielded, with this job's source and index), and every new
    record is committed to it as it arrives. A job whose key came
    earlier in the same batch runs once. ``ordered``: records in the order of ``jobs``,
    else as they finish. ``on_progress``: called with a :class:`Progress` after each record.
    ``memory_limit``: bytes one job may take (None: no limit); a job that reaches it is a
    record "unknown" with the reason "memory limit" and the batch goes on. It is set in each
    worker; with ``workers=1`` a small job runs here with the limit set for its span, any other
    in a forked child of its own (:func:`in_process`; all here where fork is not available). A
    Dask cluster keeps its workers' own memory limits.

    Ctrl-C (KeyboardInterrupt) stops the workers and is raised again; the records yielded
    before it are in the store.

    >>> import os, tempfile
    >>> from puzzlesat.numberlink import parse
    >>> path = os.path.join(tempfile.mkdtemp(), "results.sqlite")
    >>> puzzles = [parse("A.A\\nB.B"), parse("AB\\n..\\nAB"), parse("A.A\\nB.B")]
    >>> jobs = [Job.of("numberlink", "verify", p, source="set.txt", index=n) for n, p in enumerate(puzzles)]
    >>> [(r["index"], r["status"], r["unique"]) for r in run(jobs, store=path)]
    [(0, 'solved', True), (1, 'solved', True), (2, 'solved', True)]
    >>> seen = []
    >>> again = list(run(jobs, store=path, on_progress=seen.append))   # resumed: nothing runs
    >>> [r["index"] for r in again], seen[-1].resumed, seen[-1].done
    ([0, 1, 2], 3, 3)
    """
    memory_limit = check_limit(memory_limit)
    total = len(jobs) if hasattr(jobs, "__len__") else None  # (a stream's total is known once it is read)
    opened, close_store = open_store(store)
    pool = None
    try:
        if client is not None:
            from .dask import imap as dask_imap

            executor: Callable[[Tasks], Iterator[tuple[Hashable, dict[str, Any]]]] = lambda tasks: dask_imap(client, tasks)
        elif workers == 1 or total == 1:  # (one job: here, whatever the workers, with the cores to itself)
            alone = total == 1
            executor = ((lambda tasks: _inline(tasks, alone=alone)) if memory_limit is None
                        else lambda tasks: _bounded(tasks, memory_limit, alone=alone))
        else:
            pool = Pool(workers if workers > 0 else cpu_count(), memory_limit=memory_limit)
            executor = pool.imap
        yield from _Batch(jobs, opened, ordered, total, on_progress).records(executor)
    except BaseException:
        if pool is not None:
            pool.close(kill=True)
            pool = None
        raise
    finally:
        if pool is not None:
            pool.close()
        if close_store and opened is not None:
            opened.close()


def _inline(tasks: Tasks, *, alone: bool = False) -> Iterator[tuple[Hashable, dict[str, Any]]]:
    """Each job here in turn, in one process (:func:`~puzzlesat.child.one_process`) unless
    ``alone`` (the batch's only job may have helpers beside it)."""
    for token, job in tasks:
        with nullcontext() if alone else one_process():
            record = execute(job)
        yield token, record


IN_PROCESS_CHARS = 2_500  # a job whose puzzle text (or generated board) is this small runs here under a memory limit


def in_process(job: Job, memory_limit: int) -> bool:
    """Whether a job runs in this process under ``memory_limit`` (:func:`_bounded`): a
    small puzzle, while this process holds under half the limit; else a forked child.

    >>> from puzzlesat.batch import Job
    >>> in_process(Job("numberlink", "solve", "A . A"), 2**40), in_process(Job("numberlink", "solve", "A . A" * 1000), 2**40)
    (True, False)
    """
    size = len(job.text or "") if job.size is None else math.prod(job.size)
    held = held_memory()
    return size <= IN_PROCESS_CHARS and held is not None and held < memory_limit // 2


def _bounded(tasks: Tasks, memory_limit: int, *, alone: bool = False) -> Iterator[tuple[Hashable, dict[str, Any]]]:
    """Each job under ``memory_limit``: a small one (:func:`in_process`) here, with the limit set
    on this process for its span (a :class:`MemoryError` makes it "unknown"); any other in a
    forked child of its own, whose death from the limit (a C extension may abort on a failed
    allocation) ends that job, not this process. A child still running well past its time
    limit is stopped, as in a pool (:func:`overrun`). In one process each unless ``alone``, as
    :func:`_inline`."""
    for token, job in tasks:
        if not can_fork() or in_process(job, memory_limit):
            with limited(memory_limit), nullcontext() if alone else one_process():
                record = execute(job)
            yield token, record
            continue
        start = time.perf_counter()
        work = execute if alone else execute_in_one_process
        child = Child(work, job, {}, memory_limit=memory_limit, nested=True)  # (its family may fork for its deadline)
        try:
            limit = overrun(job.time_limit)
            if child.done(limit):
                record = child.result()
            else:
                record = error_record(job, f"stopped after {limit:.1f}s: still running well past its time limit of "
                                           f"{job.time_limit:g}s", time.perf_counter() - start)
        except MemoryLimitReached:
            record = memory_record(job, time.perf_counter() - start)
        finally:
            child.stop()
        yield token, record


def restamp(record: dict[str, Any], job: Job) -> dict[str, Any]:
    """A record made for another job of the same key, as this job's (its family, source, index,
    and the file its stated answer came from: the same answer text may sit in two files).

    >>> made = {"source": "a/Q1.txt", "index": 0, "stated_answer": {"source": "a/A1.txt", "valid": True}}
    >>> again = restamp(made, Job("numberlink", "verify", "A.A", source="b/Q1.txt", answer=("b/A1.txt", "A A A")))
    >>> again["source"], again["stated_answer"]
    ('b/Q1.txt', {'source': 'b/A1.txt', 'valid': True})
    """
    found = {**record, "family": job.family, "source": job.source, "index": job.index}
    if job.answer is not None and isinstance(record.get("stated_answer"), dict):
        found["stated_answer"] = {**record["stated_answer"], "source": job.answer[0]}
    return found


class _Batch:
    """One run's bookkeeping: which position waits for which key, what is ready to yield."""

    def __init__(self, jobs: Iterable[Job], store: Store | None, ordered: bool, total: int | None,
                 on_progress: Callable[[Progress], None] | None) -> None:
        self.jobs = jobs
        self.store = store
        self.ordered = ordered
        self.total = total
        self.on_progress = on_progress
        self.stored = store.keys(errors=False) if store is not None else set()
        self.waiting: dict[str, list[tuple[int, Job]]] = {}  # key -> positions waiting for its record
        # keys run in this batch -> their record (None when the store holds it: memory stays small)
        self.finished: dict[str, dict[str, Any] | None] = {}
        self.ready: dict[int, dict[str, Any]] = {}  # position -> record not yet yielded
        self.resumed_at: set[int] = set()
        self.next = 0  # (ordered) the next position to yield
        self.done = 0
        self.resumed = 0
        self.statuses: dict[str, int] = {}
        self.started = time.perf_counter()

    def tasks(self) -> Iterator[tuple[Hashable, Job]]:
        """The jobs to run (keyed by their key); stored and repeated ones are settled here."""
        position = -1
        for position, job in enumerate(self.jobs):
            key = job.key
            if key in self.waiting:  # the same key earlier in this batch: wait for its record
                self.waiting[key].append((position, job))
            elif key in self.finished:  # the same key earlier in this batch, done already
                self.waiting[key] = [(position, job)]
                self._settle(key, self.finished[key] or (self.store.get(key) if self.store is not None else None) or {})
            elif key in self.stored:
                self.waiting[key] = [(position, job)]
                self.resumed_at.add(position)
                record = self.store.get(key) if self.store is not None else None
                self._settle(key, record or {})
            else:
                self.waiting[key] = [(position, job)]
                yield key, job
        if self.total is None:
            self.total = position + 1

    def _settle(self, key: str, record: dict[str, Any]) -> None:
        for position, job in self.waiting.pop(key):
            self.ready[position] = restamp(record, job)

    def records(self, executor: Callable[[Tasks], Iterator[tuple[Hashable, dict[str, Any]]]]) -> Iterator[dict[str, Any]]:
        jobs_by_key: dict[Hashable, Job] = {}

        def remembered() -> Iterator[tuple[Hashable, Job]]:
            for key, job in self.tasks():
                jobs_by_key[key] = job
                yield key, job

        for key, record in executor(remembered()):
            job = jobs_by_key.pop(key)
            if self.store is not None:
                self.store.put(job, record)
            self.finished[str(key)] = None if self.store is not None else record
            self._settle(str(key), record)
            yield from self._flush()
        yield from self._flush()

    def _flush(self) -> Iterator[dict[str, Any]]:
        while True:
            if self.ordered:
                if self.next not in self.ready:
                    return
                position = self.next
                self.next += 1
            elif self.ready:
                position = next(iter(self.ready))
            else:
                return
            record = self.ready.pop(position)
            self.done += 1
            self.resumed += position in self.resumed_at
            self.resumed_at.discard(position)
            self.statuses[record.get("status")] = self.statuses.get(record.get("status"), 0) + 1
            yield record
            if self.on_progress is not None:
                self.on_progress(Progress(self.total, self.done, self.resumed, round(time.perf_counter() - self.started, 3),
                                          dict(self.statuses)))
