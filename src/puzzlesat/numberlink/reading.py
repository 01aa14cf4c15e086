"""The pieces every Numberlink reader shares: the text's lines (binary data refused), numbers as
written, comment lines, the size check, and the board that collects labelled endpoints with where
each was written and builds the Puzzle (or says the grid is a drawn answer).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from ..errors import InvalidPuzzle, NotAPuzzle, ParseError, quoted
from ..grid import group_of
from ..textio import check_time, split_lines
from ..timing import Deadline
from .model import MAX_CELLS, Pair, Puzzle, StatedRules


_NOT_TEXT = ("Cc", "Cs", "Co", "Cn")  # control, surrogate, private-use and unassigned characters


def _lines(text: str) -> list[str]:
    """The lines of ``text`` without line ends or BOM, after refusing binary data (control
    characters other than tabs; any Unicode letter, mark, symbol or space is fine)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = split_lines(text)
    if "".join(lines).replace("\t", "").isprintable():  # (the common case, checked at C speed)
        return lines
    for number, line in enumerate(lines, 1):
        if not line.isprintable():
            for column, ch in enumerate(line, 1):
                if ch not in "\t\x0b\x0c" and unicodedata.category(ch) in _NOT_TEXT:
                    raise ParseError(
                        f"binary data, not text (character {ch!r})", line=number, column=column
                    )
    return lines


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return stripped == "#" or stripped.startswith("# ") or stripped.startswith("#\t")


_HEADER = re.compile(r"(\d+)[ \t]+(\d+)\s*$")  # from the first column: an indented "1 2" is a row
_COMMA_HEADER = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*$")
_SINGLE_NUMBER = re.compile(r"\s*(\d+)\s*$")


_HUGE = 10**18  # stands for any number too long to be a size or coordinate


class _Long(int):
    """A number too long to be a size or coordinate: it counts as ``_HUGE`` (refused later as
    absurd or off the board) and prints as written, so an error names the number in the file."""

    def __new__(cls, digits: str) -> "_Long":
        number = super().__new__(cls, _HUGE)
        number.digits = digits if len(digits) <= 40 else f"{digits[:20]}...({len(digits)} digits)"
        return number

    def __str__(self) -> str:
        return self.digits

    __repr__ = __str__


def _number(digits: str) -> int:
    """A decimal number; absurdly long ones count as _HUGE (refused later as absurd or off the
    board) instead of tripping Python's limit on converting long digit strings.

    >>> print(f"{_number('99999999999999999999')}x{_number('5')}")
    99999999999999999999x5
    """
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else _Long(digits)


def _signed(digits: str) -> int:
    return -_number(digits[1:]) if digits.startswith("-") else _number(digits)


def _canonical(digits: str) -> str:
    """A number label without leading zeros (``07`` and ``7`` name the same line)."""
    return digits.lstrip("0") or "0"


def _check_size(width: int, height: int, line: int | None) -> None:
    """Refuse absurd or empty boards before anything is allocated."""
    if width < 1 or height < 1:
        raise ParseError(f"board size {width}x{height} must be at least 1x1", line=line)
    if width * height > MAX_CELLS:
        raise ParseError(
            f"board size {width}x{height} is absurd (more than {MAX_CELLS:,} cells)", line=line
        )


@dataclass(slots=True)
class _Mark:
    """One label occurrence: the cell and where in the text it was written."""

    cell: tuple[int, int]
    line: int
    column: int | None = None


def _places(marks: Sequence[_Mark]) -> str:
    """``line 3, line 5`` or ``3:4, 5:1`` (line:column) for error messages."""
    if any(mark.column is not None for mark in marks):
        return ", ".join(f"{mark.line}:{mark.column}" for mark in marks)
    return "lines " + ", ".join(str(mark.line) for mark in marks)


class _LabelThrice(ParseError):
    """A label met a third time on a grid (a broken puzzle, or a drawn answer: :class:`_Drawing`)."""


class _Board:
    """Collects labels and blocked cells with their text positions, then builds the Puzzle
    (:class:`~puzzlesat.errors.TimeLimitReached` when ``deadline`` passes first)."""

    def __init__(self, width: int, height: int, line: int | None, deadline: Deadline | None = None) -> None:
        _check_size(width, height, line)
        self.width = width
        self.height = height
        self.line = line
        self.deadline = deadline
        self.marks: dict[str, list[_Mark]] = {}
        self.blocked: set[tuple[int, int]] = set()
        self.taken: dict[tuple[int, int], tuple[str, _Mark]] = {}

    def add(self, label: str, cell: tuple[int, int], line: int, column: int | None = None) -> None:
        mark = _Mark(cell, line, column)
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise ParseError(
                f"endpoint of {quoted(label)} at (row, col) = {cell} is off the {self.width}x{self.height} board",
                line=line, column=column,
            )
        if cell in self.taken:
            other, first = self.taken[cell]
            if other == label:  # (a line given as one point twice: 'LINE#1 (0,0)-(0,0)')
                raise ParseError(f"both ends of {quoted(label)} are the cell (row, col) = {cell} (at {_places([first])} too)",
                                 line=line, column=column)
            raise ParseError(
                f"cell (row, col) = {cell} holds both {quoted(other)} (at {_places([first])}) and {quoted(label)}",
                line=line, column=column,
            )
        check_time(self.deadline, len(self.taken), line=line)
        self.taken[cell] = (label, mark)
        marks = self.marks.setdefault(label, [])
        marks.append(mark)
        if len(marks) == 3:
            raise _LabelThrice(
                f"label {quoted(label)} occurs more than twice (at {_places(marks)}; expected exactly 2) "
                "(an answer? read answers with parse_solution)",  # (as a layered board says it)
                line=line, column=column,
            )

    def block(self, cell: tuple[int, int]) -> None:
        self.blocked.add(cell)

    def build(self, name: str = "", stated_rules: StatedRules | None = None) -> Puzzle:
        pairs = []
        for step, (label, marks) in enumerate(self.marks.items()):
            check_time(self.deadline, step, line=self.line)
            if len(marks) != 2:
                raise ParseError(
                    f"label {quoted(label)} occurs once (at {_places(marks)}; expected exactly 2)",
                    line=marks[0].line, column=marks[0].column,
                )
            start, end = sorted((marks[0].cell, marks[1].cell))
            pairs.append(Pair(label, start, end))
        # one canonical order (reading order of the first endpoint, start before end) whatever
        # the format lists first, so that the same board read from any format compares equal
        pairs.sort(key=lambda pair: pair.start)
        try:
            return Puzzle(self.width, self.height, tuple(pairs), frozenset(self.blocked), name=name, stated_rules=stated_rules)
        except InvalidPuzzle as error:
            raise ParseError(str(error), line=self.line) from None


class _Drawing(_Board):
    """A grid read as drawn paths: any number of cells per label. Its ``build`` raises
    :class:`NotAPuzzle` when some label has more than two cells, every label's cells join up
    orthogonally, and either no cell is empty (an answer grid) or one label is drawn (one path of
    an answer, as a hint); else a ParseError."""

    def add(self, label: str, cell: tuple[int, int], line: int, column: int | None = None) -> None:
        self.marks.setdefault(label, []).append(_Mark(cell, line, column))

    def build(self, name: str = "") -> Puzzle:
        groups = {label: {mark.cell for mark in marks} for label, marks in self.marks.items()}
        used = sum(map(len, groups.values())) + len(self.blocked)
        if (groups and any(len(cells) > 2 for cells in groups.values()) and all(map(_joined, groups.values()))
                and (len(groups) == 1 or used == self.width * self.height)):
            raise NotAPuzzle(
                "every label's cells join up: a drawn answer, not a puzzle (check it against its puzzle: "
                "puzzlesat verify PUZZLE --answers ANSWER)",
                line=self.line,
            )
        raise ParseError("not a drawn answer", line=self.line)


def _joined(cells: set[tuple[int, int]]) -> bool:
    """Whether ``cells`` form one orthogonally connected group."""
    return len(group_of(next(iter(cells)), cells)) == len(cells)


def _afresh(deadline: Deadline | None, index: int) -> Deadline | None:
    """The deadline of the puzzle at ``index`` in a file: the caller's for the first (the work
    on the whole text came before it), the same limit counted from now for each later one."""
    return deadline if deadline is None or index == 0 else deadline.again()


def _first_content(lines: Sequence[str]) -> tuple[int, str] | None:
    for i in itertools.compress(itertools.count(), lines):  # (empty lines skipped at C speed)
        line = lines[i]
        if not line.isspace() and not _is_comment(line):
            return i, line
    return None
