"""Wall-clock deadlines for long work.

Every long operation takes ``time_limit=`` (seconds, or ``None`` for no limit) and turns it into
a :class:`Deadline` once, so nested steps share one budget.

>>> d = Deadline(None)
>>> d.expired(), d.remaining() is None
(False, True)
>>> Deadline(0.0).expired()
True
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field


NO_LIMIT_ABOVE = 1e6  # seconds: a longer time limit is no limit


@dataclass
class Deadline:
    """A point in time after which work should stop and answer "unknown"."""

    time_limit: float | None
    started: float = field(default_factory=time.perf_counter)

    @classmethod
    def of(cls, limit: "float | Deadline | None", *, name: str = "time_limit") -> "Deadline":
        """A deadline from seconds, ``None`` (never), or an existing deadline (shared).

        Seconds must be a number, zero or more (zero: "unknown" at once); infinity, and any limit
        above ``NO_LIMIT_ABOVE`` seconds (about 11.6 days: waits on child processes overflow at
        24.8), mean no limit. ``name``: the argument an error names.

        >>> Deadline.of(float("inf")).time_limit is None, Deadline.of(1e7).time_limit is None
        (True, True)
        >>> Deadline.of(-1)
        Traceback (most recent call last):
        ...
        ValueError: time_limit must be zero or more seconds, not -1
        """
        if isinstance(limit, Deadline):
            return limit
        if limit is None:
            return cls(None)
        if isinstance(limit, bool) or not isinstance(limit, numbers.Real):
            raise TypeError(f"{name} must be a number of seconds or None, not {type(limit).__name__}")
        if math.isnan(limit) or limit < 0:
            raise ValueError(f"{name} must be zero or more seconds, not {limit!r}")
        return cls(None if limit > NO_LIMIT_ABOVE else float(limit))

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` when there is no limit."""
        if self.time_limit is None:
            return None
        return max(0.0, self.time_limit - self.elapsed())

    def expired(self) -> bool:
        return self.time_limit is not None and self.elapsed() >= self.time_limit

    def earlier(self, seconds: float) -> "Deadline":
        """The same deadline moved ``seconds`` earlier (time kept back for cleaning up).

        >>> d = Deadline(10.0); d.earlier(4.0).remaining() <= 6.0, Deadline(None).earlier(4.0).time_limit
        (True, None)
        """
        if self.time_limit is None:
            return self
        return Deadline(self.time_limit - seconds, started=self.started)

    def again(self) -> "Deadline":
        """The same time limit counted afresh from now (the next of several items that each get
        the whole limit: the next puzzle of a file being read).

        >>> d = Deadline(0.0); d.expired(), Deadline(None).again().time_limit, d.again().time_limit
        (True, None, 0.0)
        """
        return Deadline(self.time_limit)

    def within(self, seconds: float) -> "Deadline":
        """A new deadline ``seconds`` from now, or as much as this one has left if less.

        >>> Deadline(None).within(2.0).time_limit, Deadline(1.0).within(5.0).time_limit <= 1.0
        (2.0, True)
        """
        remaining = self.remaining()
        return Deadline(seconds if remaining is None else min(seconds, remaining))


class Stopwatch:
    """Times named phases: ``with watch("encode"): ...`` adds to ``watch.seconds["encode"]``.

    >>> w = Stopwatch()
    >>> with w("encode"):
    ...     pass
    >>> sorted(w.seconds)
    ['encode']
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._phase: str | None = None
        self._start = 0.0

    def __call__(self, phase: str) -> "Stopwatch":
        self._phase = phase
        return self

    def __enter__(self) -> "Stopwatch":
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._phase is not None
        self.seconds[self._phase] = self.seconds.get(self._phase, 0.0) + time.perf_counter() - self._start
        self._phase = None


def parse_seconds(text: str) -> float:
    """A number of seconds given as text (the command line's ``--time-limit S``): zero or more,
    or a ValueError saying what is wrong.

    >>> parse_seconds("2.5")
    2.5
    >>> parse_seconds("-1")
    Traceback (most recent call last):
    ...
    ValueError: '-1' is not a number of seconds (zero or more)
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value) or value < 0:
        raise ValueError(f"{text!r} is not a number of seconds (zero or more)")
    return value
