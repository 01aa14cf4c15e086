"""One pack writer for every family: generated puzzles written one at a time, resumable.

A pack is one text file: its first line names the run (family, size, seed and every option
not at its default), then for each puzzle a line ``# puzzle I: seed S, <facts> (N lines)``,
the N lines of the family's ``pack_entry`` text and a blank line. Each puzzle is appended whole
(one write of the complete block, then flushed to disk) before the next is drawn; a rerun with
the same settings resumes after the last puzzle, and refuses other settings or a damaged file
(the line count of each block shows a block cut short). Puzzle ``I`` is drawn with
:func:`~puzzlesat.seeds.puzzle_seed`, and again with the next attempt's seed while it repeats
an earlier puzzle of the pack. A family with a :class:`~puzzlesat.family.PackFolder` for the
size writes a folder instead (:mod:`puzzlesat.packfiles`). The library prints nothing: the
command line draws progress from ``on_event`` and prints :meth:`PackWriter.summary`.

>>> import dataclasses, os, tempfile
>>> from puzzlesat.registry import get_family
>>> out = os.path.join(tempfile.mkdtemp(), "pack.txt")
>>> request = PackRequest(get_family("numberlink"), (5, 4), count=2, seed=1, out=out)
>>> [entry.index for entry in PackWriter(request)]
[0, 1]
>>> open(out).read().splitlines()[:2]
['# puzzlesat generate numberlink --size 5x4 --seed 1', '# puzzle 0: seed 1000003, 1 tries, unique, method quality, rules cover-all, link lengths 4 5 3 5 3 (6 lines)']
>>> writer = PackWriter(dataclasses.replace(request, count=3))   # a rerun with a larger count resumes
>>> writer.resumed, [entry.index for entry in writer]
(2, [2])
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from . import packfiles
from .errors import PuzzlesatError, require_count
from .family import Family, Generated
from .packfiles import PackError
from .seeds import DUPLICATE_RETRIES, puzzle_seed, require_seed
from .timing import Deadline

EventHandler = Callable[[int, str], None]  # (puzzle index, a note such as "#3: 12 draws")


class RepeatedPuzzles(PuzzlesatError):
    """Every seed tried for a puzzle drew one the pack already holds."""

    def __init__(self, message: str, tries: int = 0) -> None:
        super().__init__(message)
        self.tries = tries


@dataclass(frozen=True)
class PackRequest:
    """What to generate: ``count`` puzzles of ``family`` of ``size`` (a tuple as ``--size``
    gives it, or None for the family's own choice), drawn from the run ``seed``; ``options``
    the family's generate options and options by name (those left out keep their defaults);
    ``time_limit`` seconds per puzzle (its repeats redrawn included); ``out`` the pack's path
    (None: nothing is written, the entries are only yielded)."""

    family: Family
    size: tuple[int, ...] | None
    count: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    time_limit: float | None = None
    out: str | os.PathLike | None = None

    def __post_init__(self) -> None:
        require_count(self.count, "count", "puzzles")
        require_seed(self.seed)
        known = {option.name for option in (*self.family.generate_options, *self.family.options)}
        unknown = sorted(set(self.options) - known)
        if unknown:
            raise ValueError(f"{self.family.name} has no option {', '.join(unknown)} (its options: {', '.join(sorted(known)) or 'none'})")


@dataclass(frozen=True)
class PackEntry:
    """One puzzle written: its index, what the generator made, its JSON record
    (``generated_record`` with family, source, index, status, error and seconds) and its text (the
    block written, or for a folder pack its line and puzzle file, as printed without ``out``)."""

    index: int
    generated: Generated
    record: dict
    text: str
    files: Mapping[str, str] = field(default_factory=dict)


def option_text(option: Any, value: Any) -> str:
    """An option's value as the first line writes it (text given for a value is converted first,
    so that "7" and "7-7" sign alike where they mean the same)."""
    if isinstance(value, str) and option.convert is not None:
        value = option.convert(value)
    if option.kind == "flag":
        return option.flag
    if isinstance(value, float):
        shown = f"{value:g}"
    elif isinstance(value, (tuple, list)):
        shown = "-".join(str(part) for part in value)
    else:
        shown = str(value)
    return f"{option.flag} {shown}"


def signature(request: PackRequest) -> str:
    """The pack's first line: family, size, seed, then every option not at its default, in
    the family's order (a rerun resumes only under the same line).

    >>> from puzzlesat.registry import get_family
    >>> signature(PackRequest(get_family("roller"), (6, 5), count=1, seed=3, options={"moves": "4-9"}))
    '# puzzlesat generate roller --size 6x5 --seed 3 --moves 4-9'
    """
    parts = [f"# puzzlesat generate {request.family.name}"]
    if request.size is not None:
        parts.append("--size " + "x".join(str(n) for n in request.size))
    parts.append(f"--seed {request.seed}")
    for option in (*request.family.generate_options, *request.family.options):
        if option.name in request.options and request.options[option.name] != option.default:
            if option.kind == "flag" and not request.options[option.name]:
                continue
            parts.append(option_text(option, request.options[option.name]))
    return " ".join(parts)


def facts_text(facts: Mapping[str, Any]) -> str:
    """A puzzle's facts for its line: ``unique``, ``not unique``, ``unique unknown``, ``link
    lengths 3 4 5``, ``moves count 12``.

    >>> facts_text({"unique": False, "link_lengths": [3, 4], "moves_count": 7, "optimal": None})
    'not unique, link lengths 3 4, moves count 7, optimal unknown'
    """
    parts = []
    for key, value in facts.items():
        label = key.replace("_", " ")
        if value is True:
            parts.append(label)
        elif value is False:
            parts.append(f"not {label}")
        elif value is None:
            parts.append(f"{label} unknown")
        elif isinstance(value, (list, tuple)):
            parts.append(f"{label} " + " ".join(str(item) for item in value))
        else:
            parts.append(f"{label} {value:g}" if isinstance(value, float) else f"{label} {value}")
    return ", ".join(parts)


def puzzle_line(index: int, generated: Generated, *, name: str = "") -> str:
    """``# puzzle I: [name, ]seed S, T tries, <facts>`` (no timings: the same run writes the same bytes)."""
    facts = facts_text(generated.facts)
    named = f" {name}," if name else ""
    return f"# puzzle {index}:{named} seed {generated.seed}, {generated.tries} tries" + (f", {facts}" if facts else "")


def entry_block(index: int, generated: Generated, entry: str) -> str:
    """A puzzle's block of a one-file pack: its line (with the count of the lines below it), the
    entry and a blank line."""
    body = entry.rstrip("\n")
    if not body:
        raise ValueError(f"puzzle {index}: pack_entry gave no text")
    return f"{puzzle_line(index, generated)} ({body.count(chr(10)) + 1} lines)\n{body}\n\n"


class Tally:
    """What a run made: puzzles, tries (a failed puzzle's too) and its facts, counted by value."""

    def __init__(self) -> None:
        self.made = self.tries = 0
        self.seconds = 0.0
        self.values: dict[str, dict[Any, int]] = {}  # fact -> value (or list item) -> puzzles
        self.lists: set[str] = set()

    def add(self, generated: Generated) -> None:
        self.made += 1
        self.tries += generated.tries
        for key, value in generated.facts.items():
            counted = self.values.setdefault(key, {})
            if isinstance(value, (list, tuple)):
                self.lists.add(key)
                for item in value:
                    counted[item] = counted.get(item, 0) + 1
            else:
                counted[value] = counted.get(value, 0) + 1

    def lines(self) -> list[str]:
        """A line per yes/no fact (``unique: 5, not unique: 1``) and a histogram per number or list."""
        lines = []
        for key, counted in self.values.items():
            label = key.replace("_", " ")
            if set(counted) <= {True, False, None}:
                said = {True: label, False: f"not {label}", None: f"{label} unknown"}
                lines.append(", ".join(f"{said[value]}: {counted[value]}" for value in (True, False, None) if value in counted))
            elif all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in counted):
                lines.append(f"{label}{' (each item)' if key in self.lists else ''}:")
                top = max(counted.values())
                lines.extend(f"  {value:>6} {n:6d} {'#' * max(1, round(40 * n / top))}" for value, n in sorted(counted.items()))
        return lines


class PackWriter:
    """Writes ``request.count`` puzzles to ``request.out``, resuming what a previous run with
    the same settings left (:attr:`resumed` puzzles). Iterating makes and writes the rest one
    at a time, yielding a :class:`PackEntry` each; a puzzle the family cannot make raises its
    GenerationFailed (the puzzles before it stay written), and one that only repeats earlier
    puzzles :class:`RepeatedPuzzles`. ``on_event(index, note)`` is called on each draw (the
    family's ``on_try`` arguments are in :attr:`drawing`).
    Raises :class:`PackError` when ``out`` cannot be written or resumed."""

    def __init__(self, request: PackRequest, *, on_event: EventHandler | None = None) -> None:
        self.request = request
        self.family = request.family
        self.on_event = on_event
        self.first_line = signature(request)
        self.out = None if request.out is None else os.fspath(request.out)
        layout = self.family.pack_folder
        self.folder = layout if layout is not None and layout.applies(request.size) else None
        self.tally = Tally()
        self.drawing: tuple[int, int, tuple] | None = None  # (index, draws, the family's last on_try arguments)
        self._seen: set[str] = set()  # a pack never holds one puzzle twice
        self._fresh = True  # nothing of this run in out yet: the first write replaces it whole
        self._needs_blank = False
        self.resumed = 0
        if self.out is None:
            return
        if self.folder is not None:
            identities = packfiles.existing(self.out, self.first_line, self.folder, request)
        else:
            identities, self._needs_blank = packfiles.existing_file(self.out, self.first_line, request)
        self.resumed = len(identities)
        self._seen.update(identities)
        self._fresh = not identities

    # -- making and writing --------------------------------------------------------------------
    def __iter__(self) -> Iterator[PackEntry]:
        for index in range(self.resumed + self.tally.made, self.request.count):
            yield self._next(index)

    def _next(self, index: int) -> PackEntry:
        request = self.request
        started = time.perf_counter()
        deadline = Deadline.of(request.time_limit)  # one for the puzzle, its repeats redrawn included
        self.drawing = (index, 0, ())
        tries = 0
        try:
            for attempt in range(DUPLICATE_RETRIES):
                made = request.family.make(request.size, seed=puzzle_seed(request.seed, index, attempt), time_limit=deadline,
                                           options=dict(request.options), on_try=self._tried)
                texts = self._texts(made, index)
                if texts[1] not in self._seen:
                    break
                tries += made.tries
            else:
                raise RepeatedPuzzles(f"puzzle {index}: only repeats of earlier puzzles of the pack after "
                                      f"{DUPLICATE_RETRIES} seeds", tries)
        except BaseException as exc:
            self.tally.tries += tries + getattr(exc, "tries", 0)
            self.tally.seconds += time.perf_counter() - started
            raise
        block, identity, files = texts
        if self.out is not None:
            self._write(index, made, block, files)
        self._seen.add(identity)
        self.tally.add(made)
        self.tally.tries += tries
        self.tally.seconds += time.perf_counter() - started
        self.drawing = None
        return PackEntry(index, made, self._record(index, made, request.family.generated_record(made)), block, dict(files))

    def _record(self, index: int, made: Generated, generated_record: Mapping[str, Any]) -> dict:
        record = {"family": self.family.name, "source": self.out, "index": index, "status": "generated", "error": None,
                  **generated_record, "seconds": round(made.seconds, 4)}
        record.setdefault("seed", made.seed)
        record.setdefault("tries", made.tries)
        return record

    def add(self, index: int, made: Generated, entry: str, generated_record: Mapping[str, Any]) -> PackEntry | None:
        """Write puzzle ``index`` made elsewhere (the batch engine: its record's ``pack_entry``
        text and the ``generated_record`` keys; ``made`` needs only seed, tries, facts and
        seconds), as :meth:`__iter__` writes its own; None when it repeats an earlier puzzle of the
        pack (then draw it again with the next attempt's seed, as :meth:`__iter__` does).

        >>> from puzzlesat.registry import get_family
        >>> writer = PackWriter(PackRequest(get_family("numberlink"), (3, 1), count=2))
        >>> made = Generated(None, None, seed=5, tries=1, facts={"unique": True})
        >>> writer.add(0, made, "A.A", {}).text, writer.add(1, made, "A.A", {})
        ('# puzzle 0: seed 5, 1 tries, unique (1 lines)\\nA.A\\n\\n', None)
        """
        if self.folder is not None:
            raise ValueError(f"a {self.family.name} pack of this size is a folder: its puzzles are made by the writer itself")
        entry = entry.rstrip("\n")
        if entry in self._seen:
            return None
        block = entry_block(index, made, entry)
        if self.out is not None:
            self._write(index, made, block, {})
        self._seen.add(entry)
        self.tally.add(made)
        self.tally.seconds += made.seconds
        return PackEntry(index, made, self._record(index, made, generated_record), block)

    def _texts(self, made: Generated, index: int) -> tuple[str, str, dict[str, str]]:
        """(the block as written or printed, the text that tells this puzzle from others, its files)."""
        if self.folder is None:
            entry = self.family.pack_entry(made).rstrip("\n")
            return entry_block(index, made, entry), entry, {}
        names = self.folder.names(index)
        texts = self.folder.files(made, index, options=dict(self.request.options), first_line=self.first_line)
        shown = texts[0].removeprefix(self.first_line + "\n")  # (printed after the pack's first line: not twice)
        named = names[0] if self.out is not None else ""
        block = puzzle_line(index, made, name=named) + "\n" + shown.rstrip("\n") + "\n\n"
        return block, texts[0], dict(zip(names, texts))

    def _tried(self, *detail: Any) -> None:
        index, draws, _ = self.drawing or (0, 0, ())
        self.drawing = (index, draws + 1, detail)
        if self.on_event is not None:
            self.on_event(index, f"#{index}: {self.drawn()}")

    def drawn(self) -> str:
        """What the draws of the puzzle being made gave so far (the family's ``draw_note``, else
        their number), or "" before its first draw."""
        if not self.drawing or not self.drawing[1]:
            return ""
        index, draws, detail = self.drawing
        if self.family.draw_note is not None:
            return self.family.draw_note(*detail)
        return f"{draws} draws"

    def _write(self, index: int, made: Generated, block: str, files: Mapping[str, str]) -> None:
        if self.folder is not None:
            line = puzzle_line(index, made, name=next(iter(files))) + "\n"
            packfiles.write(self.out, files, line, first_line=self.first_line if self._fresh else None)
        elif self._fresh:  # the first line and the first block, whole or not at all
            packfiles.write_whole(self.out, self.first_line + "\n" + block)
        else:
            packfiles.append(self.out, ("\n" if self._needs_blank else "") + block)
        self._fresh = self._needs_blank = False

    def summary(self) -> str:
        """The closing lines: puzzles written (and already there), tries, seconds and rate, then
        the facts counted (``unique: 9, not unique: 1``, a histogram of link lengths...)."""
        tally, request = self.tally, self.request
        where = f" to {self.out}" if self.out else ""
        resumed = f" ({self.resumed} already there)" if self.resumed else ""
        size = " " + "x".join(str(n) for n in request.size) if request.size else ""
        rate = f", {60 * tally.made / tally.seconds:.1f} per minute" if tally.seconds > 0 and tally.made else ""
        head = (f"{tally.made} puzzle(s) written{where}{resumed}: {request.family.name}{size}, {tally.tries} tries, "
                f"{tally.seconds:.2f} s{rate}")
        lines = [head, *tally.lines()]
        if self.folder is not None and self.folder.summary is not None and self.out is not None:
            lines.append(self.folder.summary(self.out, options=dict(request.options)))
        return "\n".join(lines)


__all__ = ["PackRequest", "PackWriter", "PackEntry", "PackError", "RepeatedPuzzles", "signature", "puzzle_seed"]
