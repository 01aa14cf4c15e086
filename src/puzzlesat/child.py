"""Work in a forked child process, stopped a second after its time limit.

Some steps cannot be interrupted from Python: one CaDiCaL call on tens of millions of clauses,
or the pure-Python tables of a board with a million cells. Run in a child, such work is killed
(and its memory freed) when the limit has passed by :data:`GRACE_SECONDS`, so a limit of N
seconds returns within about N + 1 seconds whatever the step does.

>>> run_in_child(pow, 2, {"exp": 10}, Deadline(5.0)) if can_fork() else 1024
1024
"""

from __future__ import annotations

import multiprocessing
from typing import Any, Callable

from .errors import PuzzlesatError
from .timing import Deadline

GRACE_SECONDS = 1.0
_in_child_process = False


def _child_main(send, function: Callable[..., Any], item: Any, arguments: dict) -> None:
    global _in_child_process
    _in_child_process = True
    try:
        send.send(("result", function(item, **arguments)))
    except BaseException as exc:  # handed to the parent, which raises it
        send.send(("error", exc))
    finally:
        send.close()


class Child:
    """``function(item, **arguments)`` running in a forked process beside this one."""

    def __init__(self, function: Callable[..., Any], item: Any, arguments: dict) -> None:
        context = multiprocessing.get_context("fork")
        self.receive, send = context.Pipe(duplex=False)
        self.process = context.Process(target=_child_main, args=(send, function, item, arguments), daemon=True)
        self.process.start()
        send.close()

    def done(self, wait: float | None = 0.0) -> bool:
        """Whether the result is in (waiting up to ``wait`` seconds, None: for ever)."""
        return self.receive.poll(wait)

    def result(self) -> Any:
        """The function's value (its exception is raised here); call once :meth:`done`."""
        try:
            kind, value = self.receive.recv()
        except EOFError:  # the child died without a word (e.g. out of memory)
            raise PuzzlesatError("the solver process ended without an answer (out of memory?)") from None
        if kind == "error":
            raise value
        return value

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.receive.close()


def can_fork() -> bool:
    """Whether work can go to a child: the platform forks, and this is not a child already."""
    return not _in_child_process and "fork" in multiprocessing.get_all_start_methods()


def run_in_child(function: Callable[..., Any], item: Any, arguments: dict, deadline: Deadline) -> Any:
    """``function(item, **arguments)`` in a forked process; None when it has not answered
    :data:`GRACE_SECONDS` after ``deadline`` (it is then killed, and its memory goes with it)."""
    child = Child(function, item, arguments)
    try:
        remaining = deadline.remaining()
        if not child.done(None if remaining is None else remaining + GRACE_SECONDS):
            return None
        return child.result()
    finally:
        child.stop()
