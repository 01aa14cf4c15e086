"""Clocks for tests of time limits, so that no test measures how long the code took.

:func:`jump_clock_after` replaces the clock that every :class:`~puzzlesat.timing.Deadline` reads
with one that jumps past any time limit after a given number of reads: a search given a long
limit then meets its deadline *after it has started*, and the test checks what it does then
(stops with "unknown", records the time-out, starts nothing more) without a bound on speed.
"""

from __future__ import annotations

import time

from puzzlesat import timing

JUMP_SECONDS = 1e7  # added to the clock once it has jumped: more than any time limit (timing.NO_LIMIT_ABOVE)


class JumpingClock:
    """The ``time`` module, but ``perf_counter`` adds ``JUMP_SECONDS`` from read number
    ``reads + 1`` on (a forked child goes on counting its own reads)."""

    def __init__(self, reads: int) -> None:
        self.reads = reads
        self.count = 0

    def perf_counter(self) -> float:
        self.count += 1
        return time.perf_counter() + (JUMP_SECONDS if self.jumped else 0.0)

    @property
    def jumped(self) -> bool:
        return self.count > self.reads

    def __getattr__(self, name: str):
        return getattr(time, name)


def jump_clock_after(monkeypatch, reads: int, modules: tuple = (timing,)) -> JumpingClock:
    """Make the clock of every Deadline (and of the other ``modules`` given, which read
    ``time.perf_counter`` themselves) jump past any limit after ``reads`` reads in all (undone
    by ``monkeypatch`` at the end of the test)."""
    clock = JumpingClock(reads)
    for module in modules:
        monkeypatch.setattr(module, "time", clock)
    return clock


class RacingClock:
    """The ``time`` module, but ``perf_counter`` runs ``factor`` times fast: each second of work
    reads as ``factor`` seconds, as on a machine that many times slower (heavy load)."""

    def __init__(self, factor: float) -> None:
        self.factor = factor
        self.origin = time.perf_counter()

    def perf_counter(self) -> float:
        return self.origin + (time.perf_counter() - self.origin) * self.factor

    def __getattr__(self, name: str):
        return getattr(time, name)


def race_clock(monkeypatch, factor: float, modules: tuple = (timing,)) -> RacingClock:
    """Make the clock of every Deadline (and of the other ``modules`` given) run ``factor``
    times fast: every time budget runs out ``factor`` times sooner (undone by ``monkeypatch``)."""
    clock = RacingClock(factor)
    for module in modules:
        monkeypatch.setattr(module, "time", clock)
    return clock


class FixedRemaining(timing.Deadline):
    """A deadline that always has ``left`` seconds left and never expires: for code that stops
    early by how much it has to clean up (it stops when its clean-up would take ``left``)."""

    def __init__(self, left: float) -> None:
        super().__init__(time_limit=left)
        self.left = left

    def remaining(self) -> float:
        return self.left

    def expired(self) -> bool:
        return False


class UnreadDeadline(timing.Deadline):
    """A deadline that fails the test when it is looked at: for code that must return at once,
    before any work that would need one."""

    def __init__(self) -> None:
        super().__init__(time_limit=60.0)

    def remaining(self) -> float:
        raise AssertionError("the deadline was read: the work was started")

    def expired(self) -> bool:
        raise AssertionError("the deadline was read: the work was started")
