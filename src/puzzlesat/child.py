"""Work in a forked child process, stopped a second after its time limit.

Some steps cannot be interrupted from Python: one CaDiCaL call on tens of millions of clauses,
or the pure-Python tables of a board with a million cells. Run in a child, such work is killed
(and its memory freed) when the limit has passed by :data:`GRACE_SECONDS`, so a limit of N
seconds returns within about N + 1 seconds whatever the step does.

The work can tell the parent how far it got (:func:`report_progress`, e.g. a proven bound and
the best answer so far): the parent keeps the latest report, so a child stopped at the limit
still leaves what it had found.

>>> run_in_child(pow, 2, {"exp": 10}, Deadline(5.0)) if can_fork() else 1024
1024
"""

from __future__ import annotations

import multiprocessing
import time
from typing import Any, Callable

from .errors import PuzzlesatError
from .timing import Deadline

GRACE_SECONDS = 1.0
_in_child_process = False
_to_parent = None  # in a child: the pipe to the parent


def _child_main(send, function: Callable[..., Any], item: Any, arguments: dict) -> None:
    global _in_child_process, _to_parent
    _in_child_process, _to_parent = True, send
    try:
        send.send(("result", function(item, **arguments)))
    except BaseException as exc:  # handed to the parent, which raises it
        send.send(("error", exc))
    finally:
        send.close()


def report_progress(value: Any) -> None:
    """In a child process: hand ``value`` (picklable; how far the work has got) to the parent,
    which keeps the latest (:attr:`Child.progress`; ``on_progress`` of :func:`run_in_child`).
    Elsewhere it does nothing, so the same code runs in a child or not. Report when something
    improved, not in a tight loop: each report is pickled and sent."""
    if _to_parent is not None:
        _to_parent.send(("progress", value))


class Child:
    """``function(item, **arguments)`` running in a forked process beside this one.

    ``progress`` is the latest value the function reported (:func:`report_progress`), read
    while :meth:`done` waits; ``on_progress`` is also called with each as it comes in."""

    def __init__(self, function: Callable[..., Any], item: Any, arguments: dict, *,
                 on_progress: Callable[[Any], None] | None = None) -> None:
        context = multiprocessing.get_context("fork")
        self.receive, send = context.Pipe(duplex=False)
        self.progress: Any = None
        self.on_progress = on_progress
        self._final: tuple[str, Any] | None = None  # ("result" | "error" | "died", value)
        self.process = context.Process(target=_child_main, args=(send, function, item, arguments), daemon=True)
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
            else:
                self._final = (kind, value)
        return True

    def result(self) -> Any:
        """The function's value (its exception is raised here); call once :meth:`done`."""
        if self._final is None:
            self.done(None)
        assert self._final is not None
        kind, value = self._final
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


POLL_SECONDS = 0.05  # how often run_in_child asks ``stop_when`` while it waits


def run_in_child(function: Callable[..., Any], item: Any, arguments: dict, deadline: Deadline, *,
                 on_progress: Callable[[Any], None] | None = None, stop_when: Callable[[], bool] | None = None) -> Any:
    """``function(item, **arguments)`` in a forked process; None when it has not answered
    :data:`GRACE_SECONDS` after ``deadline`` (it is then killed, and its memory goes with it),
    or at once when ``deadline`` has already passed.
    ``on_progress`` is called with each value the function reports (:func:`report_progress`)
    before it answers or is killed. ``stop_when``, asked every POLL_SECONDS while the child
    runs, says when what it reported is all the caller needs: the child is then stopped and
    None returned at once (on a large board the work can take seconds to clean up after it).

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
    """
    if deadline.expired():  # (a time limit of 0: "unknown" at once, as in process; no process started)
        return None
    child = Child(function, item, arguments, on_progress=on_progress)
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
