"""A pool of worker processes on this machine, one job at a time per worker, that knows which
job each worker holds: a worker that dies (killed, out of memory) turns exactly its job into an
error record and is replaced, and the batch goes on. (``concurrent.futures`` cannot say which
job broke its pool: one death fails every job in flight.)

Each job keeps its own time limit inside its worker (the family's solvers stop and answer
"unknown"); a job still running well past its limit (``overrun``) has its worker stopped, as
a backstop for a solver that does not look at the clock.

Workers are forked on Linux (they start fast and see families added with
:func:`puzzlesat.registry.register`), spawned elsewhere; they ignore Ctrl-C, which the pool's
owner handles by closing the pool, and end with the pool's process, however it ends.

>>> from puzzlesat.batch.jobs import Job
>>> with Pool(2) as pool:
...     out = dict(pool.imap((n, Job.generate("numberlink", (4, 4), seed=n, options={"method": "unionfind", "allow_multiple": True}))
...                          for n in range(3)))
>>> sorted(out), [out[n]["seed"] for n in range(3)]
([0, 1, 2], [0, 1, 2])
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from multiprocessing.connection import Connection, wait
from typing import Any, Hashable, Iterable, Iterator

from ..registry import families
from ..memory import REASON, check_limit, limit_this_process
from .execute import error_record, execute_in_one_process, memory_record
from .jobs import Job

START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def overrun(time_limit: float | None) -> float | None:
    """Seconds a job may run before its worker is stopped: twice its limit and 30 s more."""
    return None if time_limit is None else 2 * time_limit + 30.0


def _die_with(parent: int) -> None:
    """End this worker when the pool's process ends, even by SIGKILL (Linux: the kernel sends
    SIGKILL to the worker at once; elsewhere the worker sees it between jobs)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # (it ended before that was set)
        os._exit(0)


def _serve(conn: Connection, parent: int, memory_limit: int | None = None) -> None:
    """A worker: take a job, send its record back, until told to stop (None), the pipe closes
    or the pool's process is gone. ``memory_limit``: bytes this worker may take."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    limit_this_process(memory_limit)
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != parent:
                    return
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            conn.send(execute_in_one_process(job))
        except (BrokenPipeError, OSError):  # the pool's owner is gone: nobody wants the record
            return


class _Worker:
    def __init__(self, context: Any, memory_limit: int | None = None) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, os.getpid(), memory_limit), daemon=True)
        self.process.start()
        child.close()
        self.token: Hashable | None = None
        self.job: Job | None = None
        self.started = 0.0

    def give(self, token: Hashable, job: Job) -> None:
        self.token, self.job, self.started = token, job, time.monotonic()
        self.conn.send(job)

    def stop(self, *, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(timeout=2.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def died(process: Any) -> str:
    """Why a worker process ended, in words."""
    code = process.exitcode
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        hint = " (killed: out of memory, or by hand)" if -code == signal.SIGKILL else ""
        return f"the worker process died from signal {name}{hint}"
    return f"the worker process ended with exit code {code}"


class Pool:
    """``workers`` processes; :meth:`imap` runs (token, job) pairs on them. ``memory_limit``:
    bytes each worker may take; a job that reaches it is a record "unknown" with the reason
    "memory limit" (:func:`~puzzlesat.batch.execute.memory_record`), whether it raised
    MemoryError or its worker died of it (under a limit, a worker's death is read so), and its
    worker is replaced (its heap may be left in pieces)."""

    def __init__(self, workers: int, *, start_method: str = START_METHOD, memory_limit: int | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a pool has 1 worker or more, not {workers}")
        self._context = multiprocessing.get_context(start_method)
        self.memory_limit = check_limit(memory_limit)
        if start_method == "fork":
            families()  # (imported once here, every worker forked from now on has them)
        self._workers = [self._start() for _ in range(workers)]
        self.replaced = 0  # workers started again after one died or was stopped

    def _start(self) -> _Worker:
        return _Worker(self._context, self.memory_limit)

    def _died(self, job: Job, worker: _Worker) -> dict[str, Any]:
        """The record of a job whose worker died under it."""
        elapsed = time.monotonic() - worker.started
        return memory_record(job, elapsed) if self.memory_limit is not None else error_record(job, died(worker.process), elapsed)

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers now running."""
        return [worker.process.pid for worker in self._workers]

    def imap(self, tasks: Iterable[tuple[Hashable, Job]]) -> Iterator[tuple[Hashable, dict[str, Any]]]:
        """(token, record) for every (token, job), as each finishes; jobs are taken from
        ``tasks`` only as workers free up, so a long stream is never held in memory."""
        pending = iter(tasks)
        exhausted = False
        while True:
            idle = [worker for worker in self._workers if worker.job is None]
            while idle and not exhausted:
                task = next(pending, None)
                if task is None:
                    exhausted = True
                    break
                idle.pop().give(*task)
            busy = [worker for worker in self._workers if worker.job is not None]
            if not busy:
                return
            limits = [w.started + overrun(w.job.time_limit) for w in busy if w.job.time_limit is not None]
            timeout = max(0.0, min(limits) - time.monotonic()) if limits else None
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=timeout)
            for worker in busy:
                result = self._collect(worker, ready)
                if result is not None:
                    yield result

    def _collect(self, worker: _Worker, ready: list[Any]) -> tuple[Hashable, dict[str, Any]] | None:
        """The (token, record) a worker has for us now, if any (a record, or its death)."""
        job, token = worker.job, worker.token
        assert job is not None
        if worker.conn in ready:
            try:
                record = worker.conn.recv()
            except (EOFError, OSError):
                worker.process.join(timeout=2.0)
                record = self._died(job, worker)
                self._replace(worker)
            else:
                worker.job = worker.token = None
                if record.get("reason") == REASON and record.get("status") == "unknown":
                    self._replace(worker)
            return token, record
        if worker.process.sentinel in ready:
            worker.process.join(timeout=2.0)
            record = self._died(job, worker)
            self._replace(worker)
            return token, record
        limit = overrun(job.time_limit)
        elapsed = time.monotonic() - worker.started
        if limit is not None and elapsed > limit:
            record = error_record(job, f"stopped after {elapsed:.1f}s: still running well past its time limit of "
                                       f"{job.time_limit:g}s", elapsed)
            self._replace(worker, kill=True)
            return token, record
        return None

    def _replace(self, worker: _Worker, *, kill: bool = False) -> None:
        worker.stop(kill=kill)
        self._workers[self._workers.index(worker)] = self._start()
        self.replaced += 1

    def close(self, *, kill: bool = False) -> None:
        """Stop every worker (``kill``: at once, dropping the jobs they hold)."""
        for worker in self._workers:
            worker.stop(kill=kill or worker.job is not None)
        self._workers = []

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.close(kill=kind is not None)


def cpu_count() -> int:
    """The cores this process may use (what ``-j 0`` asks for)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
