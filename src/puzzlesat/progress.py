"""A minimal progress bar on standard error, shown only when it is a terminal.

>>> import io
>>> bar = Progress(total=3, stream=io.StringIO())   # not a terminal: prints nothing
>>> bar.advance(); bar.close()
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int | None, *, label: str = "", stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.perf_counter()
        self._last = 0.0

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        now = time.perf_counter()
        if not self.enabled or (now - self._last < 0.1 and self.done != self.total):
            return
        self._last = now
        elapsed = now - self.started
        if self.total:
            width = 30
            filled = int(width * self.done / self.total)
            bar = "#" * filled + "-" * (width - filled)
            text = f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:6.1f}s {note[:30]:30}"
        else:
            text = f"\r{self.label} {self.done} done {elapsed:6.1f}s {note[:30]:30}"
        self.stream.write(text)
        self.stream.flush()
        _DRAWN.add(self)

    def close(self) -> None:
        if self.enabled and self in _DRAWN:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()
        _DRAWN.discard(self)


_DRAWN: set[Progress] = set()  # bars on the screen now


def clear_all() -> None:
    """Wipe every bar still on the screen (before a message such as "interrupted")."""
    for bar in list(_DRAWN):
        bar.close()
