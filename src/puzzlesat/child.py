"""Work in a forked child process, stopped half a second after its time limit.

Some steps cannot be interrupted from Python: one CaDiCaL call on tens of millions of clauses,
or the pure-Python tables of a board with a million cells. Run in a child, such work is killed
(and its memory freed) when the limit has passed by :data:`GRACE_SECONDS`, so a limit of N
seconds returns within N + 1 seconds whatever the step does (the other half second is for
killing the child, reaping it and making the result).

The work can tell the parent how far it got: :func:`report_progress` (e.g. a proven bound) and
:func:`report_answer` (each answer as it is found). The parent keeps them as they come
(:class:`Partial`), so a child stopped at the limit still leaves what it had found. Every
family's solve goes through :func:`run_with_deadline`, which decides whether to use a child,
checks what the child hands back and makes the result of a child that was stopped.

A child never outlives its parent: it ends when the parent does (:func:`_exit_with_parent`).

>>> run_in_child(pow, 2, {"exp": 10}, Deadline(5.0)) if can_fork() else 1024
1024
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator, Sequence

from .errors import PuzzlesatError, require_valid
from .memory import MemoryLimitReached, check_limit, current_limit, limit_this_process
from .results import CountResult, SolveResult, Status, Timings
from .timing import Deadline

GRACE_SECONDS = 0.5  # a child's time after its limit to answer with what it has, before it is killed
PARENT_POLL_SECONDS = 0.2  # how often a child without a parent-death signal looks for its parent
_in_child_process = False
_to_parent = None  # in a child: the pipe to the parent


def _child_main(receive, send, parent: int, function: Callable[..., Any], item: Any, arguments: dict,
                memory_limit: int | None = None, nested: bool = False) -> None:
    global _in_child_process, _to_parent
    receive.close()  # the parent's end: with it open here, a write to a full pipe would wait for ever
    _exit_with_parent(parent)
    if not nested:
        _in_child_process, _to_parent = True, send
    limit_this_process(memory_limit)
    try:
        send.send(("result", function(item, **arguments)))
    except MemoryError as exc:  # (what was allocated is free again: the message can be sent)
        send.send(("memory", None) if memory_limit is not None else ("error", exc))
    except BaseException as exc:  # handed to the parent, which raises it
        try:
            send.send(("error", exc))
        except OSError:  # the parent has gone: nobody to tell
            pass
    finally:
        send.close()


def _exit_with_parent(parent: int) -> None:
    """In a child: end this process when its parent (pid ``parent``) ends, by the kernel's
    parent-death signal where there is one (Linux), else by a daemon thread that notices its
    parent's pid change. (A parent killed outright runs no clean-up, so the child must see to it.)"""
    if not _parent_death_signal():
        threading.Thread(target=_watch_parent, args=(parent,), name="parent watch", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the signal was set
        os._exit(1)


def _parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent ends (prctl PR_SET_PDEATHSIG; strictly,
    when the parent's thread that started it ends: start a child from a thread that outlives
    it); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    PR_SET_PDEATHSIG = 1
    zero = ctypes.c_ulong(0)
    return prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGKILL), zero, zero, zero) == 0


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def report_progress(value: Any) -> None:
    """In a child process: hand ``value`` (picklable; how far the work has got, e.g.
    ``{"lower_bound": 7}``) to the parent, which keeps it (:class:`Partial`; ``on_progress`` of
    :class:`Child`). Elsewhere it does nothing, so the same code runs in a child or not. Report
    when something improved, not in a tight loop: each report is pickled and sent."""
    if _to_parent is not None:
        _to_parent.send(("progress", value))


def report_answer(answer: Any) -> None:
    """In a child process: hand an answer found to the parent at once, where it is checked and
    kept (:class:`Partial`) even if the child is stopped before it returns; elsewhere nothing.
    A solver that improves its answer reports each one shorter than the last."""
    if _to_parent is not None:
        _to_parent.send(("answer", answer))


class Child:
    """``function(item, **arguments)`` running in a forked process beside this one.

    ``progress`` is the latest value the function reported (:func:`report_progress`), read
    while :meth:`done` waits; ``on_progress`` is also called with each as it comes in, and
    ``on_answer`` with each answer (:func:`report_answer`; dropped without it).

    ``memory_limit``: bytes the process may take (:func:`puzzlesat.memory.limit_this_process`);
    a function that reaches it, by a :class:`MemoryError` or by dying (a C extension aborts on a
    failed allocation; under a limit any silent death is read so), raises
    :class:`~puzzlesat.memory.MemoryLimitReached` from :meth:`result`; a child forked where a
    limit is set has it too (rlimits are inherited), and is read the same way. ``nested``: the
    function may start children of its own (:func:`can_fork` stays true in it; its reports are
    then not sent here)."""

    def __init__(self, function: Callable[..., Any], item: Any, arguments: dict, *,
                 on_progress: Callable[[Any], None] | None = None, on_answer: Callable[[Any], None] | None = None,
                 memory_limit: int | None = None, nested: bool = False) -> None:
        context = multiprocessing.get_context("fork")
        self.receive, send = context.Pipe(duplex=False)
        self.progress: Any = None
        self.on_progress, self.on_answer = on_progress, on_answer
        self.memory_limit = check_limit(memory_limit) if memory_limit is not None else current_limit()
        self._final: tuple[str, Any] | None = None  # ("result" | "error" | "memory" | "died", value)
        # (a nested child is no daemon: a daemon may start no process, and its work may fork for its deadline)
        self.process = context.Process(target=_child_main, daemon=not nested,
                                       args=(self.receive, send, os.getpid(), function, item, arguments, memory_limit, nested))
        self.process.start()
        send.close()

    def done(self, wait: float | None = 0.0) -> bool:
        """Whether the result is in (waiting up to ``wait`` seconds, None: for ever); progress
        reports that come in meanwhile are kept."""
        ends = None if wait is None else time.monotonic() + wait
        while self._final is None:
            left = None if ends is None else max(0.0, ends - time.monotonic())
            if not self.receive.poll(left):
                return False
            try:
                kind, value = self.receive.recv()
            except (EOFError, OSError):  # the child died without a word (e.g. out of memory)
                self._final = ("died", None)
                break
            if kind == "progress":
                self.progress = value
                if self.on_progress is not None:
                    self.on_progress(value)
            elif kind == "answer":
                if self.on_answer is not None:
                    self.on_answer(value)
            else:
                self._final = (kind, value)
        return True

    def result(self) -> Any:
        """The function's value (its exception is raised here); call once :meth:`done`."""
        if self._final is None:
            self.done(None)
        assert self._final is not None
        kind, value = self._final
        if kind == "memory" or (kind == "died" and self.memory_limit is not None):
            raise MemoryLimitReached(self.memory_limit)
        if kind == "died":
            raise PuzzlesatError("the solver process ended without an answer (out of memory?)")
        if kind == "error":
            raise value
        return value

    def kill(self) -> None:
        """Stop the process at once (a signal; :meth:`stop` then reaps it)."""
        self.process.kill()  # (nothing happens when it has already been reaped)

    def stop(self) -> None:
        """Kill the process, wait for it and close the pipe (closed even when the wait is
        interrupted, e.g. by Ctrl-C)."""
        try:
            self.kill()
            self.process.join()
        finally:
            self.receive.close()


def stop_all(children: list[Child]) -> None:
    """Stop every child: all are killed before any is waited for, so that an interrupt (Ctrl-C)
    while one is reaped leaves none of the others running."""
    for child in children:
        child.kill()
    for child in children:
        child.stop()


def can_fork() -> bool:
    """Whether work can go to a child: the platform forks, this is not a child already, and
    this process may start one (a worker of ``multiprocessing.Pool`` is a daemon, and a daemon
    may not: the work then runs in this process, as where fork is not available)."""
    return (not _in_child_process and not multiprocessing.current_process().daemon
            and "fork" in multiprocessing.get_all_start_methods())


# inside one_process(): no helper process beside the work; per thread, each job its own
_one_process: contextvars.ContextVar[bool] = contextvars.ContextVar("puzzlesat_one_process", default=False)


@contextlib.contextmanager
def one_process() -> Iterator[None]:
    """Work done inside runs alone in its process: :func:`may_work_beside` is False, so a solver
    starts no helper process to work beside it (a process that waits for a child doing the work
    in its place, :func:`run_with_deadline`, is still allowed). A batch of several jobs runs
    each so, wherever it lands, so that its records and its use of the cores are the same at
    every number of workers. It holds for the thread that enters it, not for the others.

    >>> with one_process():
    ...     may_work_beside()
    False
    >>> may_work_beside() == can_fork()
    True
    """
    token = _one_process.set(True)
    try:
        yield
    finally:
        _one_process.reset(token)


def may_work_beside() -> bool:
    """Whether a solver may start a helper process that works at the same time as it (on
    another core): :func:`can_fork`, and not inside :func:`one_process`."""
    return can_fork() and not _one_process.get()


POLL_SECONDS = 0.05  # how often run_in_child asks ``stop_when`` while it waits


def run_in_child(function: Callable[..., Any], item: Any, arguments: dict, deadline: Deadline, *,
                 on_progress: Callable[[Any], None] | None = None, on_answer: Callable[[Any], None] | None = None,
                 stop_when: Callable[[], bool] | None = None, memory_limit: int | None = None) -> Any:
    """``function(item, **arguments)`` in a forked process; None when it has not answered
    :data:`GRACE_SECONDS` after ``deadline`` (it is then killed, and its memory goes with it),
    or at once when ``deadline`` has already passed.
    ``on_progress`` and ``on_answer`` are called with each value and answer the function reports
    (:func:`report_progress`, :func:`report_answer`) before it answers or is killed. ``stop_when``,
    asked every POLL_SECONDS while the child runs, says when what it reported is all the caller
    needs: the child is then stopped and None returned at once (on a large board the work can
    take seconds to clean up after it). ``memory_limit``: bytes the child may take; reaching it
    raises :class:`~puzzlesat.memory.MemoryLimitReached` here.

    >>> def count_to(n):
    ...     for i in range(1, n + 1):
    ...         report_progress(i)
    ...     return "done"
    >>> seen = []
    >>> run_in_child(count_to, 3, {}, Deadline(5.0), on_progress=seen.append) if can_fork() else "done"
    'done'
    >>> seen if can_fork() else [1, 2, 3]
    [1, 2, 3]
    >>> run_in_child(count_to, 3, {}, Deadline(0.0)) is None   # no time: no process, no answer
    True
    >>> try:
    ...     run_in_child(lambda n: bytearray(n), 2**31, {}, Deadline(5.0), memory_limit=2**28)
    ... except MemoryLimitReached as exc:
    ...     print(exc)
    memory limit of 256M reached
    """
    if deadline.expired():  # (a time limit of 0: "unknown" at once, as in process; no process started)
        return None
    child = Child(function, item, arguments, on_progress=on_progress, on_answer=on_answer, memory_limit=memory_limit)
    try:
        remaining = deadline.remaining()
        ends = None if remaining is None else time.monotonic() + remaining + GRACE_SECONDS
        while True:
            left = None if ends is None else max(0.0, ends - time.monotonic())
            if child.done(left if stop_when is None else POLL_SECONDS if left is None else min(POLL_SECONDS, left)):
                return child.result()
            if (stop_when is not None and stop_when()) or (ends is not None and time.monotonic() >= ends):
                return None
    finally:
        child.stop()


class Partial:
    """What a child process reported before it answered or was stopped, kept in the parent as
    it comes, so that a child killed at its time limit still leaves it: ``answers``, the
    distinct answers it reported (:func:`report_answer`) in order, each checked by ``check``
    (the family's verify: a list of violations) as it arrives; ``lower_bound``, the largest
    proven bound it reported (``report_progress({"lower_bound": n})``); ``method``, the method
    it said it runs (``{"method": name}``; else the caller's). ``wanted``: how many answers are
    all the caller needs.

    >>> partial = Partial(lambda moves: [] if moves.endswith("U") else ["ends elsewhere"], method="dfs")
    >>> partial.progress({"lower_bound": 2}); partial.answer("RDLU"); partial.answer("DRU")
    >>> partial.progress({"lower_bound": 3}); partial.progress({"lower_bound": 1})
    >>> partial.answers, partial.lower_bound
    (['RDLU', 'DRU'], 3)
    >>> partial.result(seconds=2.0)   # the last answer, as short as the bound: proven
    SolveResult(solved, dfs, 3 moves, optimal, lower bound 3, 2.00 s)
    >>> partial.answer("RD")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.UnverifiedAnswer: dfs gave an answer that fails the independent check: ends elsewhere (a bug in puzzlesat: please report this puzzle)
    """

    def __init__(self, check: Callable[[Any], Sequence[object]], *, method: str, wanted: int | None = None) -> None:
        self.check, self.wanted, self.method = check, wanted, method
        self.answers: list[Any] = []
        self.lower_bound: int | None = None

    def progress(self, report: Any) -> None:
        if not isinstance(report, dict):
            return
        lower = report.get("lower_bound")
        if lower is not None and (self.lower_bound is None or lower > self.lower_bound):
            self.lower_bound = lower
        self.method = report.get("method") or self.method

    def answer(self, answer: Any) -> None:
        require_valid(self.check(answer), self.method)
        if answer not in self.answers:
            self.answers.append(answer)

    @property
    def enough(self) -> bool:
        """Whether the answers are all the caller needs (``wanted`` of them)."""
        return self.wanted is not None and len(self.answers) >= self.wanted

    def result(self, *, seconds: float, limit: int | None = None) -> SolveResult | CountResult:
        """The result of a child stopped (``stats["stopped"]`` says why) after ``seconds``. A
        :class:`CountResult` of at most ``limit`` answers when ``limit`` is given; else a
        :class:`SolveResult`: the last answer (for fewest moves, the shortest) as SOLVED,
        proven minimal only when as short as the bound, or UNKNOWN with the bound."""
        found = len(self.answers) if limit is None else min(limit, len(self.answers))
        stopped = (f"{found} answer{'s' * (found != 1)} found (solver process stopped)" if self.enough
                   else "time limit (solver process killed)")
        method, timings, stats = self.method, Timings(0.0, seconds), {"stopped": stopped}
        if limit is not None:
            return CountResult(found, found >= limit, limit, tuple(self.answers[:found]), timings, method, stats)
        if not self.answers:
            return SolveResult(Status.UNKNOWN, None, timings, False, self.lower_bound, method, stats)
        answer = self.answers[-1]
        optimal = self.lower_bound is not None and len(answer) <= self.lower_bound
        return SolveResult(Status.SOLVED, answer, timings, optimal, len(answer) if optimal else self.lower_bound, method, stats)


def wants_child(deadline: Deadline, *, cells: int, threshold: int) -> bool:
    """Whether a solve goes to a child process: a time limit is set, the board has more than
    ``threshold`` cells (the family's own bound) and this process can fork."""
    return deadline.time_limit is not None and cells > threshold and can_fork()


def run_with_deadline(function: Callable[..., Any], item: Any, arguments: dict, *, deadline: Deadline, cells: int,
                      threshold: int, check: Callable[[Any], Sequence[object]], method: str,
                      wanted: int | None = None, counting: bool = False) -> SolveResult | CountResult | None:
    """A family's solve (or count), ``function(item, **arguments)``, run in a child process
    stopped :data:`GRACE_SECONDS` after ``deadline`` when :func:`wants_child` says so; None
    when it is for this process to run (no time limit, a small board, or no fork).

    Each answer the child reports, and each answer of its result, passes ``check`` (the
    family's verify of one answer: a list of violations) or raises
    :class:`~puzzlesat.errors.UnverifiedAnswer` naming ``method``. A child stopped at the limit,
    or once it has reported ``wanted`` answers, leaves the result :meth:`Partial.result` makes
    of its reports (a :class:`CountResult` of up to ``wanted`` answers when ``counting``).
    Give ``deadline`` itself to ``function`` in ``arguments``, so the child keeps the same clock.

    >>> def solve_slowly(moves, *, time_limit):   # finds an answer, then never ends
    ...     report_answer(moves)
    ...     time.sleep(60)
    >>> deadline = Deadline(0.2)
    >>> run = run_with_deadline(solve_slowly, "RD", dict(time_limit=deadline), deadline=deadline, cells=9,
    ...                         threshold=4, check=lambda moves: [], method="slow")
    >>> run.status.value if can_fork() else "solved", run.stats["stopped"] if can_fork() else "time limit (solver process killed)"
    ('solved', 'time limit (solver process killed)')
    >>> run_with_deadline(solve_slowly, "RD", {}, deadline=Deadline(None), cells=9, threshold=4,
    ...                   check=lambda moves: [], method="slow") is None   # no time limit: run it here
    True
    """
    if not wants_child(deadline, cells=cells, threshold=threshold):
        return None
    started = time.perf_counter()
    partial = Partial(check, wanted=wanted, method=method)
    result = run_in_child(function, item, arguments, deadline, on_progress=partial.progress, on_answer=partial.answer,
                          stop_when=None if wanted is None else lambda: partial.enough)
    if result is None:
        return partial.result(seconds=time.perf_counter() - started, limit=wanted if counting else None)
    answers = result.solutions if isinstance(result, CountResult) else () if result.solution is None else (result.solution,)
    for answer in answers:  # (checked here again: the child's own check is of the child's making)
        require_valid(check(answer), result.method or method)
    return result
