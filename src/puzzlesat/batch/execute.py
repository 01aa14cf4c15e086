"""Running one job where it lands (this process, a pool worker, a Dask worker): the family's
own record with the generic keys (family, source, index, status, error, seconds) added, as the
command line makes it. Any failure is an error record, never an exception. A generate record
also holds ``pack_entry`` (the puzzle as a pack holds it, ``FAMILY.pack_entry``) and
``pack_facts`` (the facts of its line in a pack), so a pack can be written from records, new or
stored (:meth:`puzzlesat.pack.PackWriter.add`). A job with a ``proof`` folder writes the
certificate of its claim there, in the same worker, and its record says which.

>>> record = execute(Job.generate("numberlink", (4, 4), seed=3, options={"method": "unionfind", "allow_multiple": True}))
>>> record["family"], record["status"], record["seed"], record["error"]
('numberlink', 'generated', 3, None)
>>> execute(Job("numberlink", "solve", error="x.nl: line 1: no puzzle"))["status"]
'error'
>>> called = execute(Job.call("textwrap:shorten", {"text": "one two three", "width": 9}, index=4))
>>> called["status"], called["rows"], called["index"]
('done', ['one [...]'], 4)
"""

from __future__ import annotations

import importlib
import os
import time
import traceback
from typing import Any, Iterator

from ..child import one_process
from ..errors import PuzzlesatError
from ..memory import REASON
from ..registry import get_family
from ..results import blank_record
from .jobs import Job

def base_record(job: Job) -> dict[str, Any]:
    return {"family": job.family, "source": job.source, "index": job.index}


def error_record(job: Job, message: str, seconds: float = 0.0) -> dict[str, Any]:
    """A job that made no record of its own: the generic keys, the shared keys null."""
    try:
        objective: str | None = get_family(job.family).objective.value
    except KeyError:
        objective = None
    record = {**base_record(job), **blank_record(objective)}
    record.update(status="error", error=message, seconds=round(seconds, 4))
    return record


def memory_record(job: Job, seconds: float = 0.0) -> dict[str, Any]:
    """A job whose work reached its memory limit: "unknown", with the reason "memory limit"
    (the batch goes on).

    >>> record = memory_record(Job("numberlink", "solve", "A.A"))
    >>> record["status"], record["reason"], record["error"], record["objective"]
    ('unknown', 'memory limit', None, 'unique')
    """
    record = error_record(job, "", seconds)
    record.update(status="unknown", error=None, reason=REASON)
    return record


def puzzle_of(job: Job) -> Any:
    """The job's puzzle object: the one it carries, else read back from its text."""
    if job.puzzle is not None:
        return job.puzzle
    family = get_family(job.family)
    items = family.load(job.text, source=job.source, fmt=job.fmt, options={**family.defaults(), **job.options_dict()})
    if len(items) != 1 or isinstance(items[0], Exception):
        raise PuzzlesatError(f"the job's text reads as {len(items)} puzzles, not one" if len(items) != 1 else str(items[0]))
    return items[0]


def execute(job: Job) -> dict[str, Any]:
    """The record of one job (its time limit kept by the family's solvers); a
    :class:`MemoryError` (the process's memory limit reached) makes it :func:`memory_record`."""
    if job.error is not None:
        return error_record(job, job.error)
    if job.verb == "call":
        return called(job)
    start = time.perf_counter()
    try:
        family = get_family(job.family)
        options = {**family.defaults(), **job.options_dict()}
        if job.verb == "generate":
            made = family.make(job.size, seed=job.seed, time_limit=job.time_limit, options=options)
            body = {**family.generated_record(made), "pack_entry": family.pack_entry(made), "pack_facts": dict(made.facts)}
        else:
            puzzle = puzzle_of(job)
            if job.verb == "solve":
                body = family.solve_record(puzzle, options=options, time_limit=job.time_limit)
            else:
                body = family.verify_record(puzzle, options=options, time_limit=job.time_limit, answer=job.answer)
            if job.proof is not None:  # the certificate, made where the puzzle was solved
                from ..certify import certify_record

                body.update(certify_record(body, puzzle, family=job.family, options=options, time_limit=job.time_limit,
                                           directory=job.proof))
    except MemoryError:  # (the process's memory limit: puzzlesat.memory)
        return memory_record(job, time.perf_counter() - start)
    except (PuzzlesatError, ValueError, KeyError) as exc:
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        return error_record(job, str(exc), time.perf_counter() - start)
    except Exception as exc:  # an internal bug: reported in the record, the batch goes on
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return error_record(job, f"internal error: {detail}", time.perf_counter() - start)
    record = base_record(job)
    record.update(body)
    record.setdefault("error", None)
    if job.verb != "generate":  # (a generated record's seconds are the generator's own)
        record["seconds"] = round(time.perf_counter() - start, 4)
    record.setdefault("seconds", round(time.perf_counter() - start, 4))
    return record


def execute_in_one_process(job: Job) -> dict[str, Any]:
    """:func:`execute` with no helper process beside the job's solver
    (:func:`~puzzlesat.child.one_process`): how a batch of several jobs runs each of them."""
    with one_process():
        return execute(job)


def called(job: Job) -> dict[str, Any]:
    """The record of a call job (:meth:`Job.call`): what its function gave, as ``rows``; a
    failure part way is an error record that keeps the rows given before it."""
    start = time.perf_counter()
    rows: list[Any] = []
    try:
        module, _, name = (job.function or "").partition(":")
        given = getattr(importlib.import_module(module), name)(**dict(job.options))
        for row in given if isinstance(given, (list, tuple, Iterator)) else [given]:  # (rows, or one)
            rows.append(row)
    except MemoryError:
        record = memory_record(job, time.perf_counter() - start)
    except Exception as exc:  # (a function's failure, whatever it is, ends its job only)
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        record = error_record(job, f"{job.function}: {detail}", time.perf_counter() - start)
    else:
        record = {**base_record(job), "status": "done", "error": None, "seconds": round(time.perf_counter() - start, 4)}
    record["rows"] = rows
    return record
