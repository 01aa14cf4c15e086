"""Progress of a batch as data (done / total, rate, ETA) for the command line to draw; nothing
here prints. :func:`puzzlesat.batch.run` calls ``on_progress`` with a fresh :class:`Progress`
after every record it yields.

>>> p = Progress(total=10, done=4, resumed=2, elapsed=2.0)
>>> p.rate, p.eta, p.fraction
(1.0, 6.0, 0.4)
>>> p.line()
'4/10 (2 from the store) 1.0/s ETA 6s'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Progress:
    """``done`` records of ``total`` jobs (None while the job stream is still being read),
    ``resumed`` of them taken from the store, ``elapsed`` seconds since the batch began, the
    records by status so far."""

    total: int | None
    done: int
    resumed: int = 0
    elapsed: float = 0.0
    statuses: Mapping[str, int] = field(default_factory=dict)

    @property
    def ran(self) -> int:
        """Records made in this run (not taken from the store)."""
        return self.done - self.resumed

    @property
    def rate(self) -> float | None:
        """Jobs run per second in this run (stored records are not counted: they cost nothing)."""
        return round(self.ran / self.elapsed, 3) if self.elapsed > 0 and self.ran else None

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate, or None when it cannot be told yet."""
        if self.total is None or not self.rate:
            return None
        return round(max(0, self.total - self.done) / self.rate, 1)

    @property
    def fraction(self) -> float | None:
        return None if not self.total else round(self.done / self.total, 4)

    def line(self) -> str:
        """A one-line summary (what a plain, non-terminal progress display would show)."""
        text = f"{self.done}/{self.total if self.total is not None else '?'}"
        if self.resumed:
            text += f" ({self.resumed} from the store)"
        if self.rate:
            text += f" {self.rate:.1f}/s"
        if self.eta is not None:
            text += f" ETA {self.eta:.0f}s"
        return text
