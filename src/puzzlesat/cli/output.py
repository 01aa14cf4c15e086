"""What the command line prints: records as JSON lines or as text for a person (the family's
``show``, its line starting with where the puzzle is), colours on a terminal, render captions
and picture files, and a progress bar on standard error.

>>> place({"source": "pack.txt", "index": 2}, 3), place({"source": "one.nl", "index": 0}, 1)
('pack.txt#2', 'one.nl')
>>> import io
>>> bar = Progress(total=3, stream=io.StringIO())   # not a terminal: prints nothing
>>> bar.advance(); bar.close()
>>> from puzzlesat.batch import Progress as Data
>>> bar = Progress(total=None, stream=io.StringIO()); bar.enabled = True   # as on a terminal
>>> bar.engine(Data(total=10, done=4, elapsed=2.0)); shown = bar.stream.getvalue().split()
>>> shown[1], shown[-3:]
('4/10', ['2.0/s', 'ETA', '3s'])
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from ..errors import READING_TIME_LIMIT, ParseError, TimeLimitReached
from ..family import Family
from ..results import blank_record as shared_blank_record
from ..scene import Scene, ending_problem, png_scale
from .certificates import certificate_line
from .inputs import is_url


# -- records ----------------------------------------------------------------------------------
def blank_record(family: Family | None) -> dict[str, Any]:
    """The shared keys of a record whose puzzle was not solved (an error, a skipped file)."""
    return {} if family is None else shared_blank_record(str(family.objective))


def base_record(family: Family | None, source: str, index: int | None) -> dict[str, Any]:
    return {"family": family.name if family else None, "source": source, "index": index}


def error_record(family: Family | None, source: str, index: int | None, message: str, seconds: float = 0.0) -> dict[str, Any]:
    record = base_record(family, source, index)
    record.update(blank_record(family))
    record.update(status="error", error=message, seconds=round(seconds, 4))
    return record


def unread_record(family: Family | None, source: str, index: int | None, error: ParseError) -> dict[str, Any]:
    """The record of a puzzle that could not be read: "unknown", with the reason
    :data:`~puzzlesat.errors.READING_TIME_LIMIT`, when its time limit ran out while it was read
    (TimeLimitReached); else an error record.

    >>> unread_record(None, "big.txt", None, TimeLimitReached("time", line=9))["reason"]
    'time limit while reading'
    >>> unread_record(None, "bad.txt", 0, ParseError("no puzzle", line=1))["error"]
    '1: no puzzle'
    """
    if not isinstance(error, TimeLimitReached):
        return error_record(family, source, index, str(error))
    record = base_record(family, source, index)
    record.update(blank_record(family))
    record.update(status="unknown", error=None, reason=READING_TIME_LIMIT, seconds=0.0)
    return record


def skipped_record(family: Family | None, source: str, reason: str) -> dict[str, Any]:
    """``verify`` of a folder: a file found in it that is known not to be a puzzle (an answer
    table, a solver's log), with what it is in ``reason``; neither a puzzle nor a failure."""
    record = base_record(family, source, None)
    record.update(blank_record(family))
    record.update(status="skipped", reason=reason, error=None, seconds=0.0)
    return record


# -- text for a person --------------------------------------------------------------------------
def place(record: dict[str, Any], puzzles_in_source: int) -> str:
    """Where a record's puzzle is, for human output: the source, and ``#index`` when the source
    holds more than one puzzle (or the index asked for is not there)."""
    index = record.get("index")
    if index is None or (puzzles_in_source == 1 and index == 0):
        return record["source"]
    return f"{record['source']}#{index}"


def use_colour() -> bool:
    """ANSI colours on a terminal, never when piped or when NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def emit(record: dict[str, Any], *, json_lines: bool, family: Family | None, item: Any, verb: str,
         puzzles_in_source: int = 1) -> None:
    """Print one record: a JSON line, or a line (and a picture) for a person."""
    if json_lines:
        print(json.dumps(record), flush=True)
        return
    where = place(record, puzzles_in_source)
    if record["status"] == "skipped":
        print(f"{where}: skipped: {record['reason']}", flush=True)
        return
    if record["status"] == "error":
        message = record["error"]
        if message.startswith(record["source"]):  # it names the file (and line) itself
            numbered = where != record["source"]
            print(f"error: {message}" + (f" (puzzle #{record['index']})" if numbered else ""), flush=True)
        else:
            print(f"{where}: error: {message}", flush=True)
        return
    if item is None:  # (a puzzle not read in time: nothing of it to show)
        print(f"{where}: {record['status']} ({record.get('reason')})", flush=True)
        return
    assert family is not None
    print(family.show(item, record, verb=verb, colour=use_colour(), where=where), flush=True)
    if "certificate_claim" in record:  # solve / verify --proof
        print(certificate_line(record), flush=True)


# -- render -----------------------------------------------------------------------------------
def caption(source: str, index: int | None, name: str, size: str) -> str:
    """The caption ``puzzlesat render`` puts over a picture: file name (or URL), position in a
    multi-puzzle file, the puzzle's own name when it adds something, and its size.

    >>> caption("levels/pack.txt", 2, "ring", "5x5")
    'pack.txt #2 [ring]  (5x5)'
    >>> caption("levels/pack.txt", 2, "pack.txt#2", "4x4")  # a name made of the file's own
    'pack.txt #2  (4x4)'
    >>> caption("levels/pack.txt", None, "pack.txt#0", "4x4")  # no --index: the first puzzle
    'pack.txt  (4x4)'
    """
    base = source if is_url(source) else source.replace("\\", "/").rsplit("/", 1)[-1]
    text = base + (f" #{index}" if index else "")
    if name and name not in text and name not in (base, f"{base}#{index or 0}"):
        text += f" [{name}]"
    return text + f"  ({size})"


def output_problem(output: str) -> str | None:
    """Why ``puzzlesat render`` could not write ``output`` (checked before any solving), or None."""
    path = Path(output)
    problem = ending_problem(path)
    if problem:
        return problem
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"cannot write {output}: no folder {folder}"
    return None


def save_picture(scene: Scene, output: str) -> int:
    """Write ``scene`` to ``output`` (.svg or .png) for ``puzzlesat render``: prints where it
    went, or a one-line error on stderr; returns the exit status (0 written, 2 not)."""
    try:
        path = scene.save(output, scale=png_scale(scene))
    except OSError as exc:
        print(f"error: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (ValueError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


# -- progress -----------------------------------------------------------------------------------
class Progress:
    """A minimal progress bar on standard error, shown only when it is a terminal."""

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
        self.show(note)

    def engine(self, data: Any) -> None:
        """Draw the batch engine's progress (a :class:`puzzlesat.batch.Progress`): its jobs
        done of total, their rate and the time left."""
        self.total, self.done = data.total, data.done
        rate = f"{data.rate:.1f}/s" if data.rate else ""
        eta = f"ETA {data.eta:.0f}s" if data.eta is not None else ""
        self.show(" ".join(part for part in (rate, eta) if part))

    def show(self, note: str = "") -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self._last < 0.1 and self.done != self.total):
            return
        self._last = now
        elapsed = now - self.started
        if self.total:
            width = 30
            filled = int(width * min(self.done, self.total) / self.total)
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
