"""The batch flags of ``solve``, ``verify`` and ``generate`` (``-j``, ``--unordered``,
``--store``, ``--scheduler``, ``--dask``, ``--memory-limit``) and the loop that runs a command's puzzles through
the one batch engine (:func:`puzzlesat.batch.run`), with the progress line drawn from the
engine's progress data. A command lists its slots in input order: a job to run, or a record it
made itself (an input that could not be read); :func:`records` yields (slot, record) in that
order, or as the jobs finish with ``--unordered``.

>>> from puzzlesat.batch import Job
>>> args = argparse.Namespace(jobs=1, unordered=False, store=None, scheduler=None, dask=None, memory_limit=None)
>>> slots = [Slot(record={"status": "error", "index": None}),
...          Slot(job=Job.generate("swap", (2, 1), seed=0, options={"difficulty": "easy"}))]
>>> [record["status"] for _, record in records(args, slots)]
['error', 'generated']
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ..batch import Job, Progress as BatchProgress, run
from ..memory import DEFAULT_SHARE, default_memory_limit, describe_memory, parse_memory
from .arguments import converter, count_argument


def jobs_argument(text: str) -> int:
    """``-j N``: worker processes, 0 for one per core.

    >>> jobs_argument("0"), jobs_argument(" 4 ")
    (0, 4)
    """
    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of worker processes (a whole number; 0: one per core)")
    return value


def add_batch_options(p: argparse.ArgumentParser, *, unordered: bool = True) -> None:
    """The batch flags; ``unordered``: whether ``--unordered`` is offered (a pack is written in
    index order, so generate does not offer it)."""
    group = p.add_argument_group("batch (puzzlesat.batch: docs/batch.md)")
    group.add_argument("-j", "--jobs", type=jobs_argument, default=1, metavar="N",
                       help="worker processes (0: one per core; default 1, in this process)")
    if unordered:
        group.add_argument("--unordered", action="store_true", help="print records as they finish, not in input order")
    group.add_argument("--store", default=None, metavar="FILE.sqlite",
                       help="results store: every record is kept; a rerun skips what is done, a repeated puzzle runs once")
    group.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT", help="run on this Dask scheduler's workers")
    group.add_argument("--dask", type=count_argument, default=None, metavar="N", help="run on a local Dask cluster of N workers")
    default = default_memory_limit()
    here = f"; here {describe_memory(default)}" if default is not None else ""
    group.add_argument("--memory-limit", type=memory_argument, default=default, metavar="SIZE",
                       help=f"memory one puzzle may take, e.g. 500M, 2G, or none; past it the puzzle ends as unknown "
                            f"(reason: memory limit) and the batch goes on (default: {DEFAULT_SHARE:.0%}".replace("%", "%%")
                            + f" of physical memory{here})")


memory_argument = converter(parse_memory, "memory size")


def batch_problem(args: argparse.Namespace) -> str | None:
    """Flags that cannot go together, said before anything runs."""
    if getattr(args, "scheduler", None) and getattr(args, "dask", None):
        return "argument --dask: not allowed with --scheduler (one cluster at a time)"
    store = getattr(args, "store", None)
    if store is not None and not os.path.isdir(os.path.dirname(os.path.abspath(store))):
        return f"argument --store: no folder {os.path.dirname(store)} to hold {os.path.basename(store)}"
    return None


def uses_engine(args: argparse.Namespace) -> bool:
    """Whether more than the in-process loop of one puzzle at a time was asked for."""
    return (getattr(args, "jobs", 1) != 1 or getattr(args, "store", None) is not None
            or getattr(args, "scheduler", None) is not None or getattr(args, "dask", None) is not None)


def interrupted(progress: Any, finished: int, args: argparse.Namespace) -> int:
    """Ctrl-C in a batch: what finished is printed (and in ``--store``), said on standard error."""
    progress.close()
    kept = f" (in {args.store})" if getattr(args, "store", None) else ""
    print(f"interrupted: {finished} finished kept{kept}", file=sys.stderr)
    return 130


@dataclass
class Slot:
    """One place in a command's output: a job to run, or a ``record`` already made; ``extra``
    is what the command needs to print it (the puzzle, its family...)."""

    job: Job | None = None
    record: dict[str, Any] | None = None
    extra: Any = None
    make: Callable[[], dict[str, Any]] | None = None  # (a record made in turn, here: a puzzle no text holds)

    def made(self) -> dict[str, Any]:
        return self.record if self.record is not None or self.make is None else self.make()


@contextlib.contextmanager
def cluster(args: argparse.Namespace) -> Iterator[Any]:
    """The Dask client ``--scheduler`` or ``--dask`` asks for (None for neither), closed on
    leaving, quietly (Dask's own logging of a cluster shut down is not the user's business)."""
    if getattr(args, "scheduler", None) is None and getattr(args, "dask", None) is None:
        yield None
        return
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")  # (read by the workers a local cluster starts)
    from ..batch import dask

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    if args.scheduler is not None:
        client = dask.connect(args.scheduler)
        try:
            yield client
        finally:
            with contextlib.suppress(Exception):
                client.close()
        return
    try:
        with dask.local_client(args.dask) as client:
            yield client
    except KeyboardInterrupt:
        _close_half_started_clusters()
        raise


def _close_half_started_clusters() -> None:
    """Ctrl-C while a local cluster starts leaves it half made, and Dask's own exit hook then
    fails over it with a traceback: close what is there here, quietly, and drop that hook."""
    import atexit

    try:
        from distributed.deploy import spec
    except ImportError:
        return
    for made in list(getattr(spec.SpecCluster, "_instances", ())):
        with contextlib.suppress(BaseException):
            made.close(timeout=5)
    if hasattr(spec, "close_clusters"):
        atexit.unregister(spec.close_clusters)


def records(args: argparse.Namespace, slots: list[Slot], *,
            on_progress: Callable[[BatchProgress], None] | None = None) -> Iterator[tuple[Slot, dict[str, Any]]]:
    """(slot, record) for every slot: the jobs run by :func:`puzzlesat.batch.run` with the
    command's batch flags; in input order, or as they finish with ``--unordered`` (the records
    made already first)."""
    jobs = [slot.job for slot in slots if slot.job is not None]
    ordered = not getattr(args, "unordered", False)
    with cluster(args) as client:
        found = run(jobs, workers=getattr(args, "jobs", 1), store=getattr(args, "store", None), client=client,
                    ordered=ordered, on_progress=on_progress, memory_limit=getattr(args, "memory_limit", None))
        try:
            if ordered:
                for slot in slots:
                    yield slot, (slot.made() if slot.job is None else next(found))
                return
            by_place: dict[tuple[str, Any], list[Slot]] = {}
            for slot in slots:
                if slot.job is None:
                    yield slot, slot.made()
                else:
                    by_place.setdefault((slot.job.source, slot.job.index), []).append(slot)
            for record in found:
                yield by_place[(record["source"], record["index"])].pop(0), record
        finally:
            found.close()  # (a batch left early stops its workers)
