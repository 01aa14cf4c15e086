"""The pack writer's files: writing whole (a temporary name, then renamed) or appending one
complete block; reading back what a previous run left, in a pack file (:func:`existing_file`)
or in a pack folder for families whose puzzles go one per file (:func:`existing`).

A pack folder (``out``) holds ``pack.txt`` (the run's first line, then one line per puzzle:
``# puzzle I: NAME, seed S, <facts>``) and the files the family's
:class:`~puzzlesat.family.PackFolder` names for each puzzle. A puzzle's files are written
(each whole) before its line is appended, so a line always names finished files; files beyond
the last line are written again by a rerun.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
>>> write_whole(path, "one\\n"); append(path, "two\\n"); open(path).read()
'one\\ntwo\\n'
"""

from __future__ import annotations

import os
import re
from typing import Any, Mapping

from .errors import PuzzlesatError
from .family import PackFolder
from .seeds import accepted_seeds, puzzle_seed
from .textio import output_file_problem

HEADER = re.compile(r"# puzzle (\d{1,18}): seed (\d{1,40}),.* \((\d{1,9}) lines\)")  # a puzzle's line in a pack file
MANIFEST = "pack.txt"
PART = ".part"  # the ending of a file being written
LINE = re.compile(r"# puzzle (\d{1,18}): (\S+), seed (\d{1,40})(?:,.*)?")


class PackError(PuzzlesatError, ValueError):
    """A pack that cannot be written or resumed: the message names the file and the problem."""


def write_whole(path: str, text: str) -> None:
    """``text`` to ``path`` whole or not at all: written to a temporary name, flushed, renamed."""
    temporary = path + PART
    with open(temporary, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def append(path: str, text: str) -> None:
    """``text`` added at the end of ``path`` in one write, flushed to disk before returning."""
    data = text.encode("utf-8")
    handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        while data:
            data = data[os.write(handle, data):]
        os.fsync(handle)
    finally:
        os.close(handle)


def has_manifest(folder: str) -> bool:
    path = os.path.join(folder, MANIFEST)
    return os.path.exists(path) and os.path.getsize(path) > 0


def write(folder: str, files: Mapping[str, str], line: str, *, first_line: str | None) -> None:
    """One puzzle of a pack folder: its files (each whole), then its line in ``pack.txt``
    (after ``first_line`` when the pack starts here)."""
    for name, text in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_whole(path, text)
    manifest = os.path.join(folder, MANIFEST)
    if first_line is not None:
        write_whole(manifest, first_line + "\n" + line)
    else:
        append(manifest, line)


def existing(folder: str, first_line: str, layout: PackFolder, request: Any) -> list[str]:
    """The puzzle texts a previous run with these settings left in ``folder`` (which is made
    when missing); raises PackError naming what stops a resume: ``pack.txt`` must open with
    ``first_line`` and number its puzzles 0..n-1 with their file names and this run's seeds,
    and every puzzle's files must read back and pass the family's ``check``."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise PackError(f"{folder} is a file; a pack of {request.family.name} puzzles of this size is a folder (out names the folder)")
    if not os.path.exists(folder):
        problem = output_file_problem(folder)  # (the folder is made, not its parents)
        if problem:
            raise PackError(problem)
        os.makedirs(folder)
        return []
    manifest = os.path.join(folder, MANIFEST)
    _remove_parts(folder, layout)
    if not has_manifest(folder):
        if any(name != MANIFEST for name in os.listdir(folder)):
            raise PackError(f"{folder} holds files but no {MANIFEST}: not a pack of this command; choose another out")
        return []
    text = _opened(manifest, first_line, pack=folder, which=f"the first line of {MANIFEST}")
    if text is None:
        return []
    rest = text.partition("\n")[2]
    if not text.endswith("\n"):
        raise PackError(f"{manifest} ends in the middle of a line (the run writing it stopped there); "
                        "remove the incomplete last line to resume")
    found = []
    for index, line in enumerate(rest.splitlines()):
        match = LINE.fullmatch(line)
        if match is None or int(match.group(1)) != index:
            raise PackError(f"cannot resume {folder}: line {index + 2} of {MANIFEST} is not the line of puzzle {index} ({line[:80]!r})")
        names = layout.names(index)
        if match.group(2) != names[0]:
            raise PackError(f"cannot resume {folder}: puzzle {index} names {match.group(2)}, not {names[0]}")
        seed = int(match.group(3))
        if seed not in accepted_seeds(request.seed, index):
            raise PackError(f"cannot resume {folder}: puzzle {index} has seed {seed}, not one of this run's "
                            f"(first {puzzle_seed(request.seed, index)})")
        found.append(_checked(folder, layout, names, index, request))
    return found


def _checked(folder: str, layout: PackFolder, names: tuple[str, ...], index: int, request: Any) -> str:
    """The puzzle file's text of puzzle ``index``, its files read back and checked."""
    try:
        texts = []
        for name in names:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                texts.append(handle.read())
        layout.check(tuple(texts), options=dict(request.options), sources=tuple(os.path.join(folder, name) for name in names))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise PackError(f"cannot resume {folder}: puzzle {index}: {exc}") from None
    return texts[0]


def _remove_parts(folder: str, layout: PackFolder) -> None:
    """Temporary files a run stopped while writing left behind."""
    for place in {folder, *(os.path.join(folder, os.path.dirname(name)) for name in layout.names(0))}:
        if os.path.isdir(place):
            for name in os.listdir(place):
                if name.endswith(PART):
                    os.remove(os.path.join(place, name))


def existing_file(out: str, first_line: str, request: Any) -> tuple[list[str], bool]:
    """The entry texts a previous run with these settings left in the pack file ``out``, and
    whether its last blank line is missing (an editor dropped it); raises PackError naming the
    problem: another first line, a block that is not this run's or that the family does not
    read back, a file that ends inside a block."""
    problem = output_file_problem(out)
    if problem:
        raise PackError(problem)
    if not os.path.exists(out) or os.path.getsize(out) == 0:
        return [], False
    text = _opened(out, first_line, pack=out, which="its first line")
    if text is None:
        return [], False
    rest = text.partition("\n")[2]
    entries = _blocks(out, rest, request)
    return entries, bool(entries) and not text.endswith("\n\n")


def _opened(path: str, first_line: str, *, pack: str, which: str) -> str | None:
    """The text of a pack's record file (``path``; ``pack``: what ``out`` named) that opens
    with this run's ``first_line``; None when it was cut inside that line (nothing finished);
    a PackError when it cannot be read or another run's settings open it (``which`` line)."""
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError(f"cannot resume {pack}: {exc}") from None
    if (first_line + "\n").startswith(text):  # cut inside its first line: nothing was finished
        return None
    first = text.partition("\n")[0]
    if first != first_line:
        raise PackError(f"{pack} was not written by a run with these settings ({which} is {first[:200]!r}; "
                        f"this run's: {first_line!r}); choose another out")
    return text


def _blocks(out: str, rest: str, request: Any) -> list[str]:
    """The entries of the blocks after the first line, each checked: numbered 0..n-1, a seed
    of this run, its announced lines all there, and read back by the family as one puzzle."""
    lines = rest.split("\n")
    tail = lines.pop()  # (text after the last newline: a line cut short)
    entries: list[str] = []
    at = 0
    while at < len(lines):
        number = at + 2  # (of the file: the first line is line 1)
        found = HEADER.fullmatch(lines[at])
        index = len(entries)
        if found is None:
            raise PackError(f"cannot resume {out}: line {number} is not the line of puzzle {index} "
                            f"({lines[at][:80]!r}); a pack resumes only as this command wrote it")
        if int(found.group(1)) != index:
            raise PackError(f"cannot resume {out}: line {number} is puzzle {found.group(1)}'s, not puzzle {index}'s")
        seed, count = int(found.group(2)), int(found.group(3))
        if seed not in accepted_seeds(request.seed, index):
            raise PackError(f"cannot resume {out}: puzzle {index} has seed {seed}, not one of this run's "
                            f"(first {puzzle_seed(request.seed, index)})")
        body = lines[at + 1 : at + 1 + count]
        if len(body) < count:
            raise PackError(f"{out} ends in the middle of puzzle {index} ({len(body)} of its {count} lines; the run "
                            "writing it stopped there); remove the incomplete last block to resume")
        at += 1 + count
        if at < len(lines):
            if lines[at]:
                raise PackError(f"cannot resume {out}: line {at + 2} should be the blank line after puzzle {index}")
            at += 1
        entry = "\n".join(body)
        _check_entry(out, index, entry, request)
        entries.append(entry)
    if tail:
        raise PackError(f"{out} ends in the middle of puzzle {len(entries)} (in its first line; the run writing it "
                        "stopped there); remove the incomplete last block to resume")
    return entries


def _check_entry(out: str, index: int, entry: str, request: Any) -> None:
    try:
        items = request.family.load(entry + "\n", source=out, fmt=None, options=dict(request.options))
    except (ValueError, PuzzlesatError) as exc:
        items = [exc]
    if len(items) != 1 or isinstance(items[0], Exception):
        problem = f": {items[0]}" if items and isinstance(items[0], Exception) else f" ({len(items)} puzzles in its block)"
        raise PackError(f"cannot resume {out}: puzzle {index} does not read back as one puzzle{problem}")
