"""Read and write Numberlink puzzles in the formats of the public puzzle sets.

Rules of the game live in :mod:`puzzlesat.numberlink.model`; this module only turns text into
:class:`Puzzle` / :class:`Solution` objects and back. Every refusal is a :class:`ParseError` naming
the line (and column where it applies); every puzzle goes through the ``Puzzle`` constructor, so
nothing accepted here can break the solver later.

>>> puzzle = parse("3 2\\nA.B\\nA.B")
>>> puzzle.width, puzzle.height, puzzle.labels
(3, 2, ('A', 'B'))
>>> print(format(puzzle))
A . B
A . B
>>> format(parse("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"), fmt="puzzlink")
'https://puzz.link/p?numlin/5/5/1j2h3m1h2j3'
>>> parse("2 3 2\\n(0, 0) (2, 0)\\n(0, 1) (2, 1)").pairs[0]
Pair(label='1', start=(0, 0), end=(0, 2))

Formats (``FORMATS``; :func:`detect_format` picks one when ``fmt`` is None):

``native``
    Rows of whitespace-separated tokens, or a plain character grid (one character per cell) when
    no row holds whitespace: ``.`` empty, ``#`` blocked, anything else a label that occurs exactly
    twice. An optional ``W H`` line before the rows states the size (then exactly H rows follow).
    Blank lines separate puzzles. A line starting with ``#`` followed by a space (or a lone ``#``)
    is a comment when it stands *outside* a grid: before the first row or header, or after the
    last row (there only when it has not as many tokens as the rows). Inside a grid every line
    is a row, so after a ``W H`` header a row may start with a blocked cell; a headerless token
    grid whose first row starts with ``#`` needs the header (:func:`format` writes one then). A line of two integers starting in the first column, before
    a grid, is a header (``0 0`` ends the input); a first row of two numbers is written indented.
``thomasahle``
    The same grammar with the ``W H`` header required before every grid (his files: ``#``
    comments, blank lines between puzzles, ``0 0`` at the end). Every character is a cell.
``mzucker``
    A square character grid: letters are colours, any other character an empty cell.
``dailyprogrammer``
    Challenge #280: ``ncolours width height``, then per colour ``(x, y) (x, y)`` with x the
    column and y the row, from 0. Colours are labelled ``1`` .. ``n`` in file order.
``adc``
    DA Symposium Algorithm Design Contest problems: ``SIZE 12X11``, ``LINE_NUM n``,
    ``LINE#k (x,y)-(x,y)``; also the 2016 form ``SIZE 12X11X1`` with ``(x,y,z)`` points when there is
    a single layer. Several layers are refused here (:mod:`.multilayer` reads them). Lines are
    labelled by k, from 1 (``0`` marks unused cells in answers).
    ADC answers (``SIZE`` then rows of comma-separated line numbers, ``00`` unused, optional
    ``LAYER 1``) are read by :func:`parse_solution`.
``puzzlink``
    A puzz.link / pzv.jp URL ``p?numlin/COLS/ROWS/BODY`` or ``p?arukone/[e/]COLS/ROWS/BODY``;
    numbers become labels (``"1"``, ``"2"``, ...); one URL per line. Nikoli's numlin lets cells
    stay empty and the arukone pflag ``e`` says the same: :func:`url_rules` gives the rules a URL
    asks for (the Puzzle itself holds no rules). A ``?`` clue (``.``) is refused.
``tokens``
    imos / Copris / algorithms2012 token grids: ``W H`` (or ``rows, cols`` with a comma, or
    Copris' rows and columns on two lines), then rows of integers, ``0`` or ``-`` blank; several
    datasets may follow; ``0 0`` ends.

Writing: :func:`format` gives native text, a puzz.link URL or any of the other formats;
:func:`format_solution` gives the native answer grid (every path cell holds its label).
"""

from __future__ import annotations

import builtins
import copy
import itertools
import json
import os
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..errors import CannotExpress, InvalidPuzzle, NotAPuzzle, ParseError, TimeLimitReached, quoted, require_type, shown
from ..grid import group_of
from ..results import solution_hint
from ..textio import MAX_INPUT_BYTES, as_text, check_time, collector_paused, read_bytes, split_lines, with_file_name_hint
from ..timing import Deadline
from .model import BLOCKED, DEFAULT_RULES, EMPTY, MAX_CELLS, ONE_LAYER_HINT, Cell, NotAPath, Pair, Puzzle, Rules, Solution, StatedRules, TraceCapped

FORMATS = ("native", "thomasahle", "mzucker", "dailyprogrammer", "adc", "puzzlink", "tokens")

PUZZLINK_PREFIX = "https://puzz.link/p?"
MAX_URL_NUMBER = 4095  # '+XXX': the largest clue a numlin URL holds with the standard encoders


# ---------------------------------------------------------------------------------------------
# Text preparation
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# Building a puzzle from located endpoints
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# Grid formats: native, thomasahle, mzucker, tokens
# ---------------------------------------------------------------------------------------------

@dataclass
class _Block:
    """The lines of one grid: an optional header (width, height, line) and its rows."""

    header: tuple[int, int, int] | None
    rows: list[tuple[int, str]]
    comment_above: tuple[int, str] | None = None  # a '# ...' line just above, as wide as a row


def _split_blocks(lines: Sequence[str], *, header_required: bool, comma_header: bool, each: bool = False) -> list:
    """Cut the lines into grids (see the module docstring for the grammar). With ``each``, a
    grid whose layout is wrong (its header's row count, a missing header) is its ParseError in
    the list, and the cutting goes on after the next blank line."""
    blocks: list = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip() or _is_comment(line):
            i += 1
            continue
        if not each:
            i = _next_block(lines, i, blocks, header_required=header_required, comma_header=comma_header)
            continue
        try:
            i = _next_block(lines, i, blocks, header_required=header_required, comma_header=comma_header)
        except ParseError as error:
            blocks.append(error)
            while i < n and lines[i].strip():  # skip to the blank line that ends this grid
                i += 1
            if error.line is not None and error.line - 1 > i:
                i = error.line - 1
            while i < n and lines[i].strip():
                i += 1
    return blocks


def _next_block(lines: Sequence[str], i: int, blocks: list, *, header_required: bool, comma_header: bool) -> int:
    """Read the grid that starts on line index ``i`` into ``blocks``; the index after it
    (len(lines) when a "0 0" line ends the input)."""
    n = len(lines)
    line = lines[i]
    match = _HEADER.match(line)
    comma = _COMMA_HEADER.match(line) if comma_header and not match else None
    two_lines = (
        comma_header and not match and not comma and i + 1 < n
        and _SINGLE_NUMBER.match(line) and _SINGLE_NUMBER.match(lines[i + 1])
    )
    if match or comma or two_lines:
        header_lines = 1
        if match:
            width, height = _number(match.group(1)), _number(match.group(2))
        elif comma:
            height, width = _number(comma.group(1)), _number(comma.group(2))
        else:  # Copris: rows and columns on two lines
            height, width = _number(line.strip()), _number(lines[i + 1].strip())
            header_lines = 2
        if width == 0 and height == 0:
            return n  # "0 0" ends the input
        _check_size(width, height, i + 1)
        rows = []
        for k in range(height):
            j = i + header_lines + k
            if j >= n or not lines[j].strip():
                found = k
                raise ParseError(
                    f"header on line {i + 1} says {height} rows but only {found} follow",
                    line=j + 1 if j < n else n,
                )
            rows.append((j + 1, lines[j]))
        i += header_lines + height
        if i < n and lines[i].strip() and not _is_comment(lines[i]) and not _HEADER.match(lines[i]):
            raise ParseError(
                f"header on line {rows[0][0] - header_lines} says {height} rows but more follow "
                "(a blank line must end a grid)",
                line=i + 1,
            )
        blocks.append(_Block((width, height, rows[0][0] - header_lines), rows))
        return i
    if header_required:
        raise ParseError("expected a 'W H' size line before the grid", line=i + 1)
    rows = []
    while i < n and lines[i].strip():
        rows.append((i + 1, lines[i]))
        i += 1
    while len(rows) > 1 and _is_comment(rows[-1][1]) and not _fits(rows[-1][1], rows[0][1]):
        rows.pop()  # trailing comment lines (a '# . A' row as wide as the first row stays a row)
    above = rows[0][0] - 2
    comment_above = None  # a first row '# 1 . 2' (a blocked cell first) reads as a comment line
    if above >= 0 and _is_comment(lines[above]) and _fits(lines[above], rows[0][1]):
        comment_above = (above + 1, lines[above].strip())
    blocks.append(_Block(None, rows, comment_above))
    return i


def _fits(line: str, first_row: str) -> bool:
    """Could ``line`` be a row of the grid that ``first_row`` starts (as many tokens)?"""
    return len(line.split()) == len(first_row.split()) > 1


_NOT_EMPTY = re.compile(r"[^.]")
_TOKEN = re.compile(r"\S+")


def _grid_puzzle(block: _Block, fmt: str, board_type: type[_Board] | None = None, deadline: Deadline | None = None) -> Puzzle:
    """One grid block to a Puzzle; ``fmt`` selects how cells are read (``board_type`` collects
    them: :class:`_Drawing` to ask whether the grid is a drawn answer)."""
    header = block.header
    first_line = header[2] if header else block.rows[0][0]
    token_mode = fmt == "tokens" or (
        fmt == "native"
        and (any(len(row.split()) > 1 for _, row in block.rows) or (header is not None and header[0] == 1))
    )  # a 1-wide grid with a size line holds one token per row (a label may be "10")
    if header:
        width, height = header[0], header[1]
        what = f"header on line {header[2]}"
    else:
        line0, row0 = block.rows[0]
        if token_mode:
            width = len(row0.split())
        elif fmt == "mzucker":
            width = len(block.rows)  # square
        else:
            width = len(row0.rstrip() if fmt == "thomasahle" else row0.strip())
        height = len(block.rows)
        what = f"first row (line {line0})"
    board = (board_type or _Board)(width, height, first_line, deadline)
    for r, (number, row) in enumerate(block.rows):
        if token_mode:
            tokens = row.split()
            if len(tokens) != width:
                raise ParseError(f"row has {len(tokens)} cells but the {what} gives {width} (ragged rows)", line=number)
            if fmt == "tokens":  # 0 (or 00 ...) and - are blank
                used = [c for c, token in enumerate(tokens) if token != "-" and token.strip("0")]
            else:
                used = [c for c, token in enumerate(tokens) if token != EMPTY]
            columns = [m.start() + 1 for m in _TOKEN.finditer(row)] if used else []
            for c in used:
                token, column = tokens[c], columns[c]
                if fmt == "tokens":
                    if not token.isdigit() or not token.isascii():
                        raise ParseError(f"unknown symbol {quoted(token)} (expected a number, 0 or -)", line=number, column=column)
                    board.add(_canonical(token), (r, c), number, column)
                elif token == BLOCKED:
                    board.block((r, c))
                else:
                    board.add(token, (r, c), number, column)
            continue
        if fmt in ("thomasahle", "mzucker"):  # every character is a cell (but trailing blanks)
            cells, offset = row, 0
            if len(cells) != width and len(cells.rstrip()) == width:
                cells = cells.rstrip()
        else:
            stripped = row.strip()
            offset = len(row) - len(row.lstrip())
            cells = stripped
        if len(cells) != width:
            raise ParseError(f"row has {len(cells)} cells but the {what} gives {width} (ragged rows)", line=number)
        for match in _NOT_EMPTY.finditer(cells):
            c = match.start()
            ch = match.group()
            if fmt == "mzucker":
                if ch.isalpha():
                    board.add(ch, (r, c), number, offset + c + 1)
            elif ch == BLOCKED:
                board.block((r, c))
            elif ch.isspace():
                raise ParseError(f"unknown symbol {ch!r} inside a row", line=number, column=offset + c + 1)
            else:
                board.add(ch, (r, c), number, offset + c + 1)
    return board.build()


def _parse_grids(lines: Sequence[str], fmt: str, deadline: Deadline | None = None) -> list[Puzzle]:
    blocks = _split_blocks(
        lines, header_required=fmt in ("thomasahle", "tokens"), comma_header=fmt == "tokens"
    )
    if fmt == "mzucker":
        for block in blocks:
            first = block.rows[0][1]
            if block.header is None and len(block.rows) not in (len(first), len(first.rstrip())):
                raise ParseError(
                    f"mzucker grids are square: {len(block.rows[0][1].rstrip())} columns but {len(block.rows)} rows",
                    line=block.rows[0][0],
                )
    return [_grid_puzzle_or_hint(block, fmt, _afresh(deadline, k)) for k, block in enumerate(blocks)]


def _afresh(deadline: Deadline | None, index: int) -> Deadline | None:
    """The deadline of the puzzle at ``index`` in a file: the caller's for the first (the work
    on the whole text came before it), the same limit counted from now for each later one."""
    return deadline if deadline is None or index == 0 else deadline.again()


def _grid_puzzle_or_hint(block: _Block, fmt: str, deadline: Deadline | None = None) -> Puzzle:
    """:func:`_grid_puzzle`, its error naming a comment line that may have been the grid's
    first row (a row of tokens that starts with a blocked cell, ``# 1 . 2``)."""
    try:
        return _grid_puzzle(block, fmt, deadline=deadline)
    except ParseError as error:
        if isinstance(error, _LabelThrice):
            try:  # a drawn answer (mzucker's hints/*.txt): not a puzzle, skipped in a folder
                _grid_puzzle(block, fmt, _Drawing)
            except NotAPuzzle as drawn:
                raise NotAPuzzle(f"{error.message}; {drawn.message}", line=error.line, column=error.column) from None
            except ParseError:
                pass
        if block.comment_above is None or isinstance(error, TimeLimitReached):
            raise
        number, text = block.comment_above
        raise type(error)(
            f"{error.message} (line {number}, {quoted(text)}, was read as a comment; if it is the grid's "
            "first row, starting with a blocked cell, put a 'W H' size line above the grid)",
            line=error.line, column=error.column, source=error.source,
        ) from None


# ---------------------------------------------------------------------------------------------
# dailyprogrammer #280
# ---------------------------------------------------------------------------------------------

_DP_HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s+(\d+)\s*$")
_DP_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def _parse_dailyprogrammer(lines: Sequence[str], deadline: Deadline | None = None) -> list[Puzzle]:
    return [_dailyprogrammer_puzzle(lines, start, stop, _afresh(deadline, k))
            for k, (start, stop) in enumerate(_dailyprogrammer_blocks(lines))]


def _dailyprogrammer_blocks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first line index, end index) of each puzzle: each starts at a line that is not blank or
    a comment (its header, ``ncolours width height``, or what stands where one should) and
    runs to the next header line."""
    starts = []
    for i, line in enumerate(lines):
        if not line.strip() or _is_comment(line):
            continue
        if not starts or _DP_HEADER.match(line):
            starts.append(i)
    return list(zip(starts, starts[1:] + [len(lines)]))


def _dailyprogrammer_puzzle(lines: Sequence[str], i: int, n: int, deadline: Deadline | None = None) -> Puzzle:
    """The puzzle of lines ``i`` .. ``n - 1`` (line numbers in errors count from the input's
    start)."""
    line = lines[i]
    match = _DP_HEADER.match(line)
    if not match:
        raise ParseError("expected 'ncolours width height'", line=i + 1)
    colours, width, height = (_number(g) for g in match.groups())
    header_line = i + 1
    _check_size(width, height, header_line)
    if 2 * colours > width * height:
        raise ParseError(
            f"{colours} colours cannot fit on a {width}x{height} board (2 cells each)", line=header_line
        )
    board = _Board(width, height, header_line, deadline)
    i += 1
    for k in range(1, colours + 1):
        while i < n and not lines[i].strip():
            i += 1
        if i >= n:
            raise ParseError(
                f"header on line {header_line} says {colours} colours but only {k - 1} follow", line=n
            )
        points = list(_DP_POINT.finditer(lines[i]))
        rest = _DP_POINT.sub("", lines[i]).strip()
        if len(points) != 2 or rest:
            raise ParseError("expected '(x, y) (x, y)'", line=i + 1)
        for point in points:
            x, y = _signed(point.group(1)), _signed(point.group(2))
            board.add(str(k), (y, x), i + 1, point.start() + 1)
        i += 1
    while i < n and (not lines[i].strip() or _is_comment(lines[i])):
        i += 1
    if i < n and _DP_POINT.search(lines[i]):
        raise ParseError(f"header on line {header_line} says {colours} colours but more follow", line=i + 1)
    if i < n:
        raise ParseError("expected 'ncolours width height'", line=i + 1)
    return board.build()


# ---------------------------------------------------------------------------------------------
# ADC (DA Symposium Algorithm Design Contest) problems and answers
# ---------------------------------------------------------------------------------------------

_ADC_SIZE = re.compile(r"\s*SIZE\s+(\d+)\s*[xX]\s*(\d+)\s*(?:[xX]\s*(\d+)\s*)?$", re.IGNORECASE)
_ADC_LINE_NUM = re.compile(r"\s*LINE_NUM\s+(\d+)\s*$", re.IGNORECASE)
_ADC_POINT = r"\(\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)"
_ADC_LINE = re.compile(
    r"\s*LINE\s*#\s*(\w+)\s*" + _ADC_POINT + r"\s*-?\s*" + _ADC_POINT + r"\s*$", re.IGNORECASE
)
_ADC_VIA = re.compile(r"\s*VIA\s*#", re.IGNORECASE)
_ADC_LAYER = re.compile(r"\s*LAYER\s+(\d+)\s*$", re.IGNORECASE)


def _adc_label(name: str) -> str:
    """``LINE#07`` and answer cells ``07`` both name label ``"7"``."""
    return _canonical(name) if name.isdigit() and name.isascii() else name


def _adc_size(line: str, number: int) -> tuple[int, int]:
    match = _ADC_SIZE.match(line)
    if not match:
        raise ParseError("expected 'SIZE WxH' (or 'SIZE XxYxZ')", line=number)
    width, height = _number(match.group(1)), _number(match.group(2))
    layers = _number(match.group(3)) if match.group(3) is not None else 1
    if layers > 1:
        raise ParseError(f"SIZE gives {layers} layers: a multi-layer (3-D) board, read by puzzlesat.numberlink.multilayer "
                         "(the command line reads it so itself)", line=number)
    if layers < 1:
        raise ParseError("SIZE has 0 layers", line=number)
    _check_size(width, height, number)
    return width, height


def _parse_adc(lines: Sequence[str], deadline: Deadline | None = None) -> list[Puzzle]:
    content = [(i + 1, line) for i, line in enumerate(lines) if line.strip() and not _is_comment(line)]
    if not content:
        raise ParseError("empty input: no puzzle found", line=1 if lines else None)
    number, line = content[0]
    width, height = _adc_size(line, number)
    board = _Board(width, height, number, deadline)
    declared: tuple[int, int] | None = None
    seen: dict[str, int] = {}
    for number, line in content[1:]:
        match = _ADC_LINE.match(line)  # (most lines: tried first, the other forms only when it fails)
        if not match:
            declared = _adc_other_line(line, number, declared, started=bool(seen))
            continue
        label = _adc_label(match.group(1))
        if label == "0":  # (as the multi-layer reader: its answer could not name it)
            raise ParseError(f"LINE#{match.group(1)}: line numbers start at 1 (0 marks unused cells in answers)", line=number)
        if label in seen:
            raise ParseError(f"LINE#{match.group(1)} given twice (lines {seen[label]} and {number})", line=number)
        seen[label] = number
        for base in (2, 5):
            x, y, z = match.group(base), match.group(base + 1), match.group(base + 2)
            column = match.start(base)  # 1-based column of the '('
            if z is not None and _number(z) != 1:
                raise ParseError(
                    f"point of LINE#{match.group(1)} is on layer {_number(z)} but the board has one layer",
                    line=number, column=column,
                )
            board.add(label, (_number(y), _number(x)), number, column)
    if declared is not None and declared[0] != len(seen):
        raise ParseError(f"LINE_NUM says {declared[0]} lines but {len(seen)} are given", line=declared[1])
    return [board.build()]


def _adc_other_line(line: str, number: int, declared: tuple[int, int] | None, *, started: bool) -> tuple[int, int] | None:
    """A line of an ADC problem that is no ``LINE#k``: ``LINE_NUM n`` (the count declared and
    where, returned), else the error that names what it is. ``started``: a LINE#k came before."""
    if _ADC_LAYER.match(line) or re.match(r"\s*\d+\s*(,\s*\d+\s*)*$", line):
        if started or declared is not None:  # a problem with a stray row: its error, never skipped
            raise ParseError("expected 'LINE#k (x,y)-(x,y)' (a row of line numbers belongs in an answer file)", line=number)
        raise NotAPuzzle(  # (skipped when verify meets it in a folder, as Roller's answer files are)
            "this is an ADC answer (rows of line numbers), not a problem: read it with parse_solution "
            "(on the command line: puzzlesat verify PUZZLE --answers ANSWER)",
            line=number,
        )
    match = _ADC_LINE_NUM.match(line)
    if match:
        if declared is not None:
            raise ParseError(f"second LINE_NUM (the first is on line {declared[1]})", line=number)
        return (_number(match.group(1)), number)
    if _ADC_VIA.match(line):
        raise ParseError("VIA lines join layers: not allowed in a single-layer problem", line=number)
    if re.match(r"\s*SIZE\b", line, re.IGNORECASE):
        raise ParseError("second SIZE line: one ADC problem per file", line=number)
    raise ParseError("expected 'LINE#k (x,y)-(x,y)'", line=number)


def _adc_answer_rows(lines: Sequence[str]) -> tuple[list[tuple[int, list[str]]], int, int]:
    """The rows (line number, labels with ``.`` for unused) of an ADC answer and its size."""
    content = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    if not content:
        raise ParseError("empty input: no answer found", line=1 if lines else None)
    number, line = content[0]
    width, height = _adc_size(line, number)
    rows: list[tuple[int, list[str]]] = []
    for number, line in content[1:]:
        match = _ADC_LAYER.match(line)
        if match:
            if _number(match.group(1)) != 1 or rows:
                raise ParseError(f"LAYER {match.group(1)}: only single-layer answers are supported", line=number)
            continue
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) != width:
            raise ParseError(f"row has {len(cells)} cells but SIZE gives {width} (ragged rows)", line=number)
        row = []
        for column, cell in enumerate(cells, 1):
            if not (cell.isdigit() and cell.isascii()):
                raise ParseError(f"unknown symbol {quoted(cell)} in cell {column} (expected a line number)", line=number)
            label = _canonical(cell)
            row.append(EMPTY if label == "0" else label)
        rows.append((number, row))
        if len(rows) > height:
            raise ParseError(f"more than the {height} rows SIZE gives", line=number)
    if len(rows) != height:
        raise ParseError(f"SIZE gives {height} rows but {len(rows)} follow", line=content[-1][0])
    return rows, width, height


# ---------------------------------------------------------------------------------------------
# puzz.link numlin / arukone URLs
# ---------------------------------------------------------------------------------------------

_URL_LINE = re.compile(r"^\s*(?:\S*?\?)?(numlin|arukone)/(\S*)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class _Url:
    variety: str
    pflags: tuple[str, ...]
    width: int
    height: int
    body: str
    body_column: int  # 1-based column of the body's first character


def _split_url(line: str, number: int) -> _Url:
    match = _URL_LINE.match(line)
    if not match:
        raise ParseError("expected a puzz.link URL like 'https://puzz.link/p?numlin/5/5/1j2h3m1h2j3'", line=number)
    variety = match.group(1).lower()
    parts = match.group(2).split("/")
    pflags = []
    while parts and parts[0] and not parts[0].isdigit():
        pflags.append(parts.pop(0))
    if len(parts) < 2 or not all(p.isdigit() and p.isascii() for p in parts[:2]):
        raise ParseError(f"expected {variety}/COLS/ROWS/BODY", line=number, column=match.start(2) + 1)
    width, height = _number(parts[0]), _number(parts[1])
    _check_size(width, height, number)
    body = parts[2] if len(parts) > 2 else ""
    if len(parts) > 3 and any(parts[3:]):
        raise ParseError("unexpected text after the URL body", line=number)
    column = match.start(2) + 1 + sum(len(p) + 1 for p in pflags) + len(parts[0]) + len(parts[1]) + 2
    return _Url(variety, tuple(pflags), width, height, body, column)


def _url_lines(lines: Sequence[str]) -> list[tuple[int, str]]:
    """(line number, line) of every URL line (blank and comment lines skipped)."""
    return [(number, line) for number, line in enumerate(lines, 1) if line.strip() and not _is_comment(line)]


def _parse_puzzlink(lines: Sequence[str], deadline: Deadline | None = None) -> list[Puzzle]:
    return [_puzzlink_puzzle(line, number, _afresh(deadline, k)) for k, (number, line) in enumerate(_url_lines(lines))]


def _puzzlink_puzzle(line: str, number: int, deadline: Deadline | None = None) -> Puzzle:
    """The puzzle of one URL, on line ``number`` of its input."""
    line = line.split("#", 1)[0]  # a #fragment names a place on the page, never part of the puzzle
    url = _split_url(line, number)
    board = _Board(url.width, url.height, number, deadline)
    cells = url.width * url.height
    body = url.body
    position, i = 0, 0
    while i < len(body):
        ch = body[i]
        column = url.body_column + i
        if position >= cells:
            raise ParseError(f"unexpected {quoted(body[i:])} after the {cells} cells of the board", line=number, column=column)
        if ch in "0123456789abcdef":
            value, width = int(ch, 16), 1
        elif ch in "-+=%":
            digits = {"-": 2, "+": 3, "=": 3, "%": 3}[ch]
            chunk = body[i + 1:i + 1 + digits]
            if len(chunk) != digits or any(d not in "0123456789abcdef" for d in chunk):
                raise ParseError(f"{ch!r} must be followed by {digits} hex digits", line=number, column=column)
            value = int(chunk, 16) + {"-": 0, "+": 0, "=": 4096, "%": 8192}[ch]
            width = 1 + digits
        elif ch == ".":
            raise ParseError("a '?' clue (number unknown) cannot be a pair label", line=number, column=column)
        elif "g" <= ch <= "z":
            position += int(ch, 36) - 15
            if position > cells:
                raise ParseError(f"{ch!r} skips past the end of the {cells}-cell board", line=number, column=column)
            i += 1
            continue
        else:
            raise ParseError(f"unknown symbol {ch!r} in the URL body", line=number, column=column)
        board.add(str(value), divmod(position, url.width), number, column)
        position += 1
        i += width
    return board.build(name=line.strip(), stated_rules=StatedRules(_rules_of(url), "url"))


def url_rules(url: str) -> Rules:
    """The rules a puzz.link URL asks for: Nikoli's numlin and arukone with pflag ``e`` let
    cells stay empty; plain arukone covers every cell.

    >>> url_rules("p?numlin/5/5/1j2h3m1h2j3").cover_all, url_rules("p?arukone/5/5/1j2h3m1h2j3").cover_all
    (False, True)
    """
    return _rules_of(_split_url(url.strip(), 1))


def _rules_of(url: _Url) -> Rules:
    may_leave_empty = url.variety == "numlin" or any("e" in flag for flag in url.pflags)
    return Rules(cover_all=not may_leave_empty)


def _url_variety(puzzle: Puzzle, rules: Rules | None) -> str:
    """The puzz.link variety whose rules are ``rules`` (default: the ones the puzzle's source
    stated, else the library's default, cover-all): ``arukone`` covers every cell, ``numlin``
    lets cells stay empty; no variety forbids a path to run beside itself."""
    if rules is None:
        rules = puzzle.stated_rules.rules if puzzle.stated_rules is not None else DEFAULT_RULES
    if rules.no_self_touch:
        raise CannotExpress("a puzz.link URL cannot state no-self-touch rules (neither numlin nor arukone forbids "
                            "a path to run beside itself)")
    return "arukone" if rules.cover_all else "numlin"


def _format_puzzlink(puzzle: Puzzle, rules: Rules | None = None) -> str:
    variety = _url_variety(puzzle, rules)
    if puzzle.blocked:
        raise CannotExpress(f"a puzz.link {variety} URL cannot express blocked cells ({len(puzzle.blocked)} on this board)")
    labels = puzzle.labels
    numeric = all(label.isdigit() and label.isascii() and _canonical(label) == label for label in labels)
    if numeric and all(_number(label) <= MAX_URL_NUMBER for label in labels):
        number_of = {label: _number(label) for label in labels}
    else:  # renumber 1..K in reading order of each label's first endpoint
        order = sorted(puzzle.pairs, key=lambda pair: min(pair.start, pair.end))
        number_of = {pair.label: k for k, pair in enumerate(order, 1)}
    if len(number_of) > MAX_URL_NUMBER:
        raise CannotExpress(f"puzz.link clues go up to {MAX_URL_NUMBER}; this puzzle has {len(number_of)} labels")
    at = {cell: number_of[label] for cell, label in puzzle.endpoints().items()}
    out, gap = [], 0
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            value = at.get((r, c))
            if value is None:
                gap += 1
                if gap == 20:
                    out.append("z")
                    gap = 0
                continue
            if gap:
                out.append(_skip(gap))
                gap = 0
            if value < 16:
                out.append(builtins.format(value, "x"))
            elif value < 256:
                out.append("-" + builtins.format(value, "02x"))
            else:
                out.append("+" + builtins.format(value, "03x"))
    if gap:
        out.append(_skip(gap))
    return f"{PUZZLINK_PREFIX}{variety}/{puzzle.width}/{puzzle.height}/{''.join(out)}"


def _skip(gap: int) -> str:
    """The letter g..z that skips 1..20 empty cells."""
    return "0123456789abcdefghijklmnopqrstuvwxyz"[15 + gap]


# ---------------------------------------------------------------------------------------------
# Detection and the public reading API
# ---------------------------------------------------------------------------------------------

_URL = re.compile(r"^\s*(?:https?://[^?\s]*)?\??(?:p\?)?(numlin|arukone)/", re.IGNORECASE)


def _first_content(lines: Sequence[str]) -> tuple[int, str] | None:
    for i in itertools.compress(itertools.count(), lines):  # (empty lines skipped at C speed)
        line = lines[i]
        if not line.isspace() and not _is_comment(line):
            return i, line
    return None


def _detect(lines: Sequence[str]) -> str:
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no puzzle found", line=1 if lines else None)
    i, line = first
    stripped = line.strip()
    raw = line.rstrip()  # a size line starts in the first column
    if _URL.match(stripped) or re.match(r"^\s*\S*\?(numlin|arukone)/", stripped):
        return "puzzlink"
    if re.match(r"SIZE\b", stripped, re.IGNORECASE):
        return "adc"
    if _DP_HEADER.match(stripped):
        nxt = _first_content(lines[i + 1:])
        if nxt is not None and nxt[1].lstrip().startswith("("):
            return "dailyprogrammer"
    if _SINGLE_NUMBER.match(stripped) and i + 2 < len(lines) and _SINGLE_NUMBER.match(lines[i + 1]):
        row = lines[i + 2].split()
        if len(row) > 1 and all(t == "-" or (t.isdigit() and t.isascii()) for t in row):
            return "tokens"  # Copris: rows, columns, then the grid
    if _HEADER.match(raw) or _COMMA_HEADER.match(raw):
        header = _HEADER.match(raw) or _COMMA_HEADER.match(raw)
        height = _number(header.group(2) if _HEADER.match(raw) else header.group(1))
        rows = []
        for row in lines[i + 1:i + 1 + min(height, 100)]:
            if not row.strip():
                break
            rows.append(row.split())
        if not rows:
            return "native"
        numeric = all(t == "-" or (t.isdigit() and t.isascii()) for row in rows for t in row)
        blanks = any(t == "-" or not t.strip("0") for row in rows for t in row)
        if any(len(row) > 1 for row in rows):
            # numbers only: a token grid; a native grid of numbers needs '.' for its empty cells
            return "tokens" if numeric and (blanks or _COMMA_HEADER.match(raw)) else "native"
        # one token per row: a character grid, unless a 1-wide grid of numbers with blanks
        one_wide = bool(_HEADER.match(raw)) and _number(_HEADER.match(raw).group(1)) == 1
        if one_wide and numeric and any(row[0] == "-" or not row[0].strip("0") or len(row[0]) > 1 for row in rows):
            return "tokens"
        if one_wide and any(len(row[0]) > 1 for row in rows):
            return "native"  # one cell per row, some labels longer than a character
        return "thomasahle"
    rows = []
    for line in lines[i:]:
        if not line.strip():
            break
        rows.append(line.strip())
    if all(len(row) == len(rows) for row in rows) and all(ch.isalpha() or ch == "." for row in rows for ch in row):
        return "mzucker"
    return "native"


def detect_format(text: str | bytes) -> str:
    """The name (one of ``FORMATS``) of the format ``text`` is written in.

    >>> detect_format("3 2\\nA.B\\nA.B"), detect_format("SIZE 3X2\\nLINE_NUM 0"), detect_format("p?numlin/1/1/g")
    ('thomasahle', 'adc', 'puzzlink')
    """
    return _detect(_lines(as_text(text)))


_PARSERS: dict[str, Callable[[Sequence[str], Deadline | None], list[Puzzle]]] = {
    "native": lambda lines, deadline: _parse_grids(lines, "native", deadline),
    "thomasahle": lambda lines, deadline: _parse_grids(lines, "thomasahle", deadline),
    "mzucker": lambda lines, deadline: _parse_grids(lines, "mzucker", deadline),
    "tokens": lambda lines, deadline: _parse_grids(lines, "tokens", deadline),
    "dailyprogrammer": _parse_dailyprogrammer,
    "adc": _parse_adc,
    "puzzlink": _parse_puzzlink,
}


def _source_name(source: str | None) -> str:
    if not source:
        return ""
    if _URL.match(source) or "?" in source:
        return source
    return os.path.basename(source.rstrip("/\\")) or source


def parse_all(text: str | bytes, *, fmt: str | None = None, source: str | None = None,
              deadline: Deadline | None = None) -> list[Puzzle]:
    """Every puzzle in ``text`` (several for multi-puzzle files such as thomasahle's).

    ``fmt`` is one of ``FORMATS`` (auto-detected when None); ``source`` (a file name or URL) is
    named in errors and in each puzzle's ``name`` (``"janko#12"``: 0-based position in the file).
    ``deadline`` (none by default): the reading of each puzzle ends by it, or raises
    :class:`~puzzlesat.errors.TimeLimitReached` (the first puzzle, with the work on the whole
    text before it, by ``deadline`` itself; each later one by the same limit counted afresh).

    >>> [p.size for p in parse_all("2 1\\nAA\\n\\n1 2\\nB\\nB\\n0 0")]
    [(2, 1), (1, 2)]
    >>> many = "SIZE 2X1100\\n" + "\\n".join(f"LINE#{k + 1} (0,{k})-(1,{k})" for k in range(1100))
    >>> parse_all(many, deadline=Deadline(0.0))
    Traceback (most recent call last):
    ...
    puzzlesat.errors.TimeLimitReached: 1026: the time limit ran out while the puzzle was read
    >>> parse_all("SIZE 3X1\\nLINE#1 (0,0)-(2,0)", deadline=Deadline(0.0))[0].labels  # (too small to look at the clock)
    ('1',)
    """
    with collector_paused():
        return _parse_all(text, fmt=fmt, source=source, deadline=deadline)


def _parse_all(text: str | bytes, *, fmt: str | None, source: str | None, deadline: Deadline | None,
               lines: list[str] | None = None) -> list[Puzzle]:
    """:func:`parse_all`; ``lines``: the text's lines when the caller has split them already."""
    try:
        if fmt is not None and fmt not in FORMATS:
            raise ParseError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        if lines is None:
            lines = _lines(as_text(text))
        if fmt is None:
            _refuse_solver_output(lines)
        chosen = fmt or _detect(lines)
        puzzles = _PARSERS[chosen](lines, deadline)
        if not puzzles:
            raise ParseError(f"no puzzle found ({chosen} format)", line=1 if lines else None)
    except ParseError as error:
        if not isinstance(error, TimeLimitReached):
            error = with_file_name_hint(_as_json_problem(text) or error, text)
        raise error.with_source(source) if source else error from None
    base = _source_name(source)
    if len(puzzles) == 1:
        names = [base]
    else:
        names = [f"{base}#{k}" for k in range(len(puzzles))]
    return [_renamed(p, name) for p, name in zip(puzzles, names)]


_IMOS_BORDER = re.compile(r"\+(---\+)+$")
_IMOS_COUNT = re.compile(r"# of solutions: \S+$")


def _refuse_solver_output(lines: Sequence[str]) -> None:
    """Raise :class:`NotAPuzzle` for the output of imos' NumberLink solver (its
    ``sample_output``: each answer drawn in ``+---+`` boxes, then ``# of solutions: N``), which
    no grid format reads."""
    first = _first_content(lines)
    if first is None or not _IMOS_BORDER.match(first[1].strip()):  # (most texts: one line looked at)
        return
    counts = sum(1 for line in lines if _IMOS_COUNT.match(line.strip()))
    if counts:
        raise NotAPuzzle(f"the output of imos' NumberLink solver ({counts} drawn answer{'s' if counts != 1 else ''} "
                         "with '# of solutions' counts), not a puzzle", line=1)


def _as_json_problem(text: str | bytes) -> ParseError | None:
    """For text that failed to parse and opens like JSON (``{`` or ``[``, which a grid row may
    also do): what is wrong with it as JSON, since no Numberlink format is JSON."""
    try:
        whole = as_text(text)
    except (TypeError, ValueError):
        return None
    body = whole.lstrip("\ufeff \t\r\n")
    after = body[1:].lstrip()[:1]  # what follows the opening bracket: a JSON key or value starts so
    if not ((body.startswith("{") and after in ('"', "}")) or (body.startswith("[") and after and after in '{["]-0123456789')):
        return None
    try:
        json.loads(body)
    except json.JSONDecodeError as error:
        skipped = whole[: len(whole) - len(body)]  # the blank lines before the JSON keep their numbers
        return ParseError(f"JSON that does not parse: {error.msg}", line=error.lineno + skipped.count("\n"), column=error.colno)
    except RecursionError:  # (json's decoder recurses once per nested bracket)
        return ParseError("JSON nested too deeply, and no Numberlink format is JSON", line=1)
    return ParseError("JSON is not a Numberlink format (a Roller level set holds levels with rows and a start)")


def parse_each(text: str | bytes, *, fmt: str | None = None, source: str | None = None,
               deadline: Deadline | None = None) -> list[Puzzle | ParseError]:
    """Like :func:`parse_all`, but in a file of several grids (native, thomasahle, tokens),
    dailyprogrammer puzzles or URLs (puzzlink) a puzzle that cannot be read is its
    :class:`ParseError` in the list, and the others are still read: one ragged row, or a size
    line that disagrees with its rows (a truncated download), does not hide the rest of a
    270-puzzle file. A file of one puzzle that cannot be read still raises. ``deadline``: as
    :func:`parse_all` (a puzzle of several not read in time is its TimeLimitReached).

    >>> [type(item).__name__ for item in parse_each("3 1\\nA.A\\n\\n3 1\\nA.B\\n\\n3 1\\nB.B")]
    ['Puzzle', 'ParseError', 'Puzzle']
    """
    with collector_paused():
        return _parse_each(text, fmt=fmt, source=source, deadline=deadline)


def _parse_each(text: str | bytes, *, fmt: str | None, source: str | None, deadline: Deadline | None) -> list[Puzzle | ParseError]:
    try:
        lines = _lines(as_text(text))  # (split once: the puzzles are read again one by one when one fails)
    except ParseError:
        lines = None  # (binary data: parse_all says so, with its hints)
    try:
        return list(_parse_all(text, fmt=fmt, source=source, deadline=deadline, lines=lines))
    except ParseError:
        cut = None if lines is None else _pieces(lines, fmt)
        if cut is None or len(cut[1]) < 2:
            raise  # (re-raised bare: an exception kept in a local here would hold this frame, a cycle)
    chosen, pieces = cut
    base = _source_name(source)
    out: list[Puzzle | ParseError] = []
    for k, piece in enumerate(pieces):
        try:
            if isinstance(piece, ParseError):  # its layout could not be read
                raise piece
            clock = _afresh(deadline, k)
            if chosen == "puzzlink":
                puzzle = _puzzlink_puzzle(piece[1], piece[0], clock)
            elif chosen == "dailyprogrammer":
                puzzle = _dailyprogrammer_puzzle(lines, *piece, clock)
            else:
                puzzle = _grid_puzzle_or_hint(piece, chosen, clock)
            out.append(_renamed(puzzle, f"{base}#{k}"))
        except ParseError as error:
            out.append(error.with_source(source) if source else error.with_traceback(None))
    return out


def _pieces(lines: Sequence[str], fmt: str | None) -> tuple[str, list] | None:
    """(format, pieces) of a text whose puzzles can be read one by one (grids, dailyprogrammer
    puzzles, URLs), else None."""
    try:
        chosen = fmt or _detect(lines)
        if chosen == "puzzlink":  # one URL per line
            return chosen, _url_lines(lines)
        if chosen in ("native", "thomasahle", "tokens"):
            return chosen, _split_blocks(lines, header_required=chosen in ("thomasahle", "tokens"), comma_header=chosen == "tokens", each=True)
        if chosen == "dailyprogrammer":
            return chosen, _dailyprogrammer_blocks(lines)
    except ParseError:
        pass
    return None


def _renamed(puzzle: Puzzle, name: str) -> Puzzle:
    """``puzzle`` named ``name``: a copy with the name changed (a new Puzzle would check every
    pair again, seconds on a million of them; the name takes no part in the checks)."""
    if puzzle.name == name or not name:
        return puzzle
    renamed = copy.copy(puzzle)
    object.__setattr__(renamed, "name", name)
    return renamed


def parse(text: str | bytes, *, fmt: str | None = None, source: str | None = None, deadline: Deadline | None = None) -> Puzzle:
    """The one puzzle in ``text``; a ParseError when there are none or several.

    >>> parse("A.B\\n#..\\nA.B").blocked
    frozenset({(1, 0)})
    """
    puzzles = parse_all(text, fmt=fmt, source=source, deadline=deadline)
    if len(puzzles) != 1:
        raise ParseError(f"expected one puzzle, found {len(puzzles)} (use parse_all)", source=source)
    return puzzles[0]


def read(path_or_url: str | os.PathLike, *, fmt: str | None = None, max_bytes: int = MAX_INPUT_BYTES,
         deadline: Deadline | None = None) -> list[Puzzle]:
    """Every puzzle in a file, or the puzzle a puzz.link URL describes (no network: the URL is
    the data). A file of one puzzle names it after the file. At most ``max_bytes`` are read
    (:data:`puzzlesat.textio.MAX_INPUT_BYTES`); devices and sockets are refused; ``deadline``
    as :func:`parse_all`.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "tiny.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("3 2\\nA.A\\nB.B\\n")
    >>> [(p.name, p.size, p.labels) for p in read(path)]
    [('tiny.txt', (3, 2), ('A', 'B'))]
    >>> folder.cleanup()
    >>> [p.size for p in read("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3")]
    [(5, 5)]
    """
    name = os.fspath(path_or_url)
    if isinstance(name, str) and (_URL.match(name) or re.match(r"^\s*\S*\?(numlin|arukone)/", name)):
        return parse_all(name, fmt=fmt or "puzzlink", source=name, deadline=deadline)
    data = read_bytes(name, max_bytes=max_bytes)
    return parse_all(data, fmt=fmt, source=str(name), deadline=deadline)


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def _grid_text(grid: list[list[str]], width: int, height: int) -> str:
    """Token rows (columns padded when labels differ in length); a ``W H`` header is added when
    the first row could be misread as a header or a comment."""
    size = max((len(token) for row in grid for token in row), default=1)
    if size == 1:
        rows = [" ".join(row) for row in grid]
    else:
        rows = [" ".join(token.ljust(size) for token in row).rstrip() for row in grid]
    first = rows[0]
    if _HEADER.match(first):
        rows[0] = " " + first  # two numbers in the first column would be a size line
    elif (
        _is_comment(first) or _is_comment(rows[-1])  # a first or last row starting with a blocked cell
        or (width == 1 and size > 1)  # "10" alone on a line would be two cells of a character grid
        or _detect(rows) != "native"  # a first row that looks like another format
    ):
        rows.insert(0, f"{width} {height}")
    return "\n".join(rows)


MULTI_PUZZLE_FORMATS = ("native", "thomasahle", "puzzlink")


def format_all(puzzles: Sequence[Puzzle], *, fmt: str = "native") -> str:
    """Several puzzles as one text that :func:`parse_all` reads back, with the format named or
    detected: native or thomasahle grids separated by blank lines, or one puzz.link URL per line
    (the other formats hold one puzzle). Native packs whose labels are all one character are
    written as character grids each under its ``W H`` line (native text too, and detected as one
    format whatever the boards; token rows after a one-column first board would be read as
    thomasahle's). A native pack with longer labels is token rows, which detection reads back
    unless its first board is one cell wide (such a board also reads as a thomasahle or token
    grid: then name the format, ``parse_all(text, fmt="native")``).

    >>> print(format_all([Puzzle.from_rows(["AA"]), Puzzle.from_rows(["B.B"])]))
    2 1
    AA
    <BLANKLINE>
    3 1
    B.B
    """
    if fmt not in MULTI_PUZZLE_FORMATS:
        raise ValueError(f"format {fmt!r} holds one puzzle per file; several are written as {', '.join(MULTI_PUZZLE_FORMATS)}")
    for puzzle in puzzles:  # (before their labels are read)
        require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    if fmt == "native" and all(len(label) == 1 for puzzle in puzzles for label in puzzle.labels):
        fmt = "thomasahle"
    texts = [format(puzzle, fmt=fmt).rstrip("\n") for puzzle in puzzles]
    return "\n".join(texts) if fmt == "puzzlink" else "\n\n".join(texts)


def format(puzzle: Puzzle, *, fmt: str = "native", rules: Rules | None = None) -> str:  # noqa: A001 - the verb of every family
    """The puzzle as text in any of ``FORMATS``: ``native`` token rows, a ``puzzlink`` URL, or
    the other public formats (to hand puzzles to the tools that read them).

    Native text always reads back as an equal puzzle with ``fmt="native"``, and with the format
    detected too except on a board one cell wide whose labels are all numbers, among them ``0``
    or numbers of several digits: such text is also a token grid (``0`` blank), and detection
    reads it so. A puzz.link URL holds numbers 0..4095 and
    no blocked cells: labels that are all such numbers are kept; otherwise (letters, say) the
    labels are renumbered 1..K in reading order of their first endpoint, since only the pairs
    matter to the puzzle. The URL keeps the rules (``rules``, default the ones the puzzle's
    source stated, else cover-all): ``arukone`` for cover-all, ``numlin`` (Nikoli's) for
    may-leave-empty. The same renumbering applies to ``adc`` and ``tokens`` (positive
    numbers); ``dailyprogrammer`` numbers colours in reading order; ``thomasahle`` needs
    one-character labels, ``mzucker`` one-letter labels on a square board; only ``native`` and
    ``thomasahle`` hold blocked cells. What a format cannot hold (blocked cells, more than
    4095 labels in a URL, no-self-touch rules in a URL...) raises
    :class:`~puzzlesat.errors.CannotExpress` naming it.

    >>> print(format(Puzzle.from_rows(["A.#", "A.."])))
    A . #
    A . .
    >>> format(Puzzle.from_rows(["B.A", "A.B"]), fmt="puzzlink")
    'https://puzz.link/p?arukone/3/2/1g22g1'
    >>> format(Puzzle.from_rows(["B.A", "A.B"]), fmt="puzzlink", rules=Rules(cover_all=False))
    'https://puzz.link/p?numlin/3/2/1g22g1'
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    if fmt == "native":
        return _grid_text(puzzle.grid().tolist(), puzzle.width, puzzle.height)
    if fmt == "puzzlink":
        return _format_puzzlink(puzzle, rules)
    if fmt in _WRITERS:
        return _WRITERS[fmt](puzzle)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


# Writers for the other public formats, so puzzles can be handed to the tools that read them.

def _no_blocked(puzzle: Puzzle, fmt: str) -> None:
    if puzzle.blocked:
        raise CannotExpress(f"the {fmt} format cannot express blocked cells ({len(puzzle.blocked)} on this board)")


def _numbered(puzzle: Puzzle, *, first: int = 1) -> dict[str, int]:
    """Each label's number: the labels themselves when they are all numbers >= first (of at
    most 18 digits, which the readers give back as they are), else 1..K in reading order of the
    first endpoint."""
    labels = puzzle.labels
    if all(label.isdigit() and label.isascii() and _canonical(label) == label and _number(label) < _HUGE for label in labels):
        numbers = {label: _number(label) for label in labels}
        if all(value >= first for value in numbers.values()):
            return numbers
    order = sorted(puzzle.pairs, key=lambda pair: min(pair.start, pair.end))
    return {pair.label: k for k, pair in enumerate(order, 1)}


def _format_thomasahle(puzzle: Puzzle) -> str:
    bad = [label for label in puzzle.labels if len(label) != 1]
    if bad:
        raise CannotExpress(f"the thomasahle format needs one-character labels, not {bad[0]!r}")
    rows = ["".join(row) for row in puzzle.grid().tolist()]
    return f"{puzzle.width} {puzzle.height}\n" + "\n".join(rows) + "\n"


def _format_mzucker(puzzle: Puzzle) -> str:
    _no_blocked(puzzle, "mzucker")
    if puzzle.width != puzzle.height:
        raise CannotExpress(f"the mzucker format holds square boards only, not {puzzle.width}x{puzzle.height}")
    bad = [label for label in puzzle.labels if len(label) != 1 or not label.isalpha()]
    if bad:
        raise CannotExpress(f"the mzucker format needs one-letter labels, not {bad[0]!r}")
    return "\n".join("".join(row) for row in puzzle.grid().tolist()) + "\n"


def _format_dailyprogrammer(puzzle: Puzzle) -> str:
    """Colours in reading order of their first endpoint (the reader numbers them 1..n)."""
    _no_blocked(puzzle, "dailyprogrammer")
    lines = [f"{len(puzzle.pairs)} {puzzle.width} {puzzle.height}"]
    for pair in sorted(puzzle.pairs, key=lambda pair: pair.start):
        (r0, c0), (r1, c1) = pair.start, pair.end
        lines.append(f"({c0}, {r0}) ({c1}, {r1})")
    return "\n".join(lines) + "\n"


def _format_adc(puzzle: Puzzle) -> str:
    _no_blocked(puzzle, "ADC")
    number_of = _numbered(puzzle)
    lines = [f"SIZE {puzzle.width}X{puzzle.height}", f"LINE_NUM {len(puzzle.pairs)}"]
    for pair in sorted(puzzle.pairs, key=lambda pair: number_of[pair.label]):
        (r0, c0), (r1, c1) = pair.start, pair.end
        lines.append(f"LINE#{number_of[pair.label]} ({c0},{r0})-({c1},{r1})")
    return "\r\n".join(lines) + "\r\n"


def _format_tokens(puzzle: Puzzle) -> str:
    _no_blocked(puzzle, "tokens")
    number_of = _numbered(puzzle, first=1)  # 0 is the blank
    grid = [["0"] * puzzle.width for _ in range(puzzle.height)]
    for cell, label in puzzle.endpoints().items():
        grid[cell[0]][cell[1]] = str(number_of[label])
    size = max(len(token) for row in grid for token in row)
    body = "\n".join(" ".join(token.rjust(size) for token in row) for row in grid)
    return f"{puzzle.width} {puzzle.height}\n{body}\n0 0\n"


_WRITERS: dict[str, Callable[[Puzzle], str]] = {
    "thomasahle": _format_thomasahle,
    "mzucker": _format_mzucker,
    "dailyprogrammer": _format_dailyprogrammer,
    "adc": _format_adc,
    "tokens": _format_tokens,
}


def format_solution(puzzle: Puzzle, solution: Solution, *, fmt: str = "native") -> str:
    """The answer grid: ``native`` (every path cell holds its label, ``.`` empty, ``#`` blocked)
    or ``adc`` (``SIZE WxH`` then rows of two-digit line numbers, ``00`` unused; labels
    numbered as :func:`format` numbers them for ADC problems).

    >>> p = Puzzle.from_rows(["A.A"])
    >>> print(format_solution(p, Solution.from_rows(p, ["AAA"])))
    A A A
    >>> print(format_solution(p, Solution.from_rows(p, ["AAA"]), fmt="adc"))
    SIZE 3X1
    01,01,01
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    require_type(solution, Solution, "solution", solution_hint(solution))
    if fmt == "native":
        return _grid_text(solution.to_rows(puzzle), puzzle.width, puzzle.height)
    if fmt == "adc":
        _no_blocked(puzzle, "ADC")
        number_of = _numbered(puzzle)
        width = max(2, len(str(max(number_of.values(), default=0))))
        grid = [["0" * width] * puzzle.width for _ in range(puzzle.height)]
        for label, cells in solution.paths:
            for r, c in cells:
                grid[r][c] = str(number_of[label]).zfill(width)
        rows = [f"SIZE {puzzle.width}X{puzzle.height}"] + [",".join(row) for row in grid]
        return "\n".join(rows)
    raise ValueError(f"cannot write answers in format {fmt!r}; writable: native, adc")


def parse_solution(text: str | bytes, puzzle: Puzzle, *, fmt: str | None = None) -> Solution:
    """An answer to ``puzzle``: a native answer grid (every path cell holds its label; also the
    mzucker full-colour hints) or an ADC answer (``SIZE``, optional ``LAYER 1``, rows of
    comma-separated line numbers, ``00`` unused; a line number names the label that
    :func:`format_solution` numbers so, so a lettered puzzle's ADC answer reads back).
    ``fmt``: None (detect), "native" or "adc". An answer that is none is refused at the cell
    that shows it (ParseError with its line and column).

    >>> p = parse("A.B\\nA.B")
    >>> parse_solution("A.B\\nA.B", p).path("B")
    ((0, 2), (1, 2))
    >>> parse_solution("SIZE 3X2\\n01,00,02\\n01,00,02", parse("SIZE 3X2\\nLINE#1 (0,0)-(0,1)\\nLINE#2 (2,0)-(2,1)")).path("2")
    ((0, 2), (1, 2))
    >>> parse_solution("SIZE 3X2\\n01,00,02\\n01,00,02", p).path("B")
    ((0, 2), (1, 2))
    """
    require_type(puzzle, Puzzle, "puzzle", "the numberlink Puzzle this answers, e.g. parse(text)")
    lines = _lines(as_text(text))
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no answer found", line=1 if lines else None)
    if fmt is None:
        fmt = "adc" if re.match(r"\s*SIZE\b", first[1], re.IGNORECASE) else "native"
    if fmt == "adc":
        adc_rows, width, height = _adc_answer_rows(lines)
        label_of = {str(number): label for label, number in _numbered(puzzle).items()}  # as format_solution numbers them
        rows = [(number, [(label_of.get(token, token), None) for token in row]) for number, row in adc_rows]  # (cells named by (x,y))
    elif fmt in ("native", "thomasahle", "mzucker"):
        blocks = _split_blocks(lines, header_required=False, comma_header=False)
        if len(blocks) != 1:
            raise ParseError(f"expected one answer grid, found {len(blocks)}", line=first[0] + 1)
        block = blocks[0]
        # (as puzzles are read: a 1-wide grid under a size line holds one token per row, which
        # format_solution writes for labels such as "10")
        token_mode = any(len(row.split()) > 1 for _, row in block.rows) or (block.header is not None and block.header[0] == 1)
        rows = []  # (line number, [(token, column), ...])
        for number, row in block.rows:
            if token_mode:
                rows.append((number, [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", row)]))
            else:
                rows.append((number, [(ch, column) for column, ch in enumerate(row, 1) if not ch.isspace()]))
        height = len(rows)
        width = block.header[0] if block.header else len(rows[0][1])
        for number, row in rows:
            if len(row) != width:
                raise ParseError(f"row has {len(row)} cells but the answer is {width} wide (ragged rows)", line=number)
    else:
        raise ValueError(f"cannot read answers in format {fmt!r}; readable: native, adc")
    if (width, height) != puzzle.size:
        raise ParseError(
            f"answer is {width}x{height} but the puzzle is {puzzle.width}x{puzzle.height}", line=rows[0][0] if rows else None
        )
    return _answer_solution(rows, puzzle, fmt)


def _answer_solution(rows: list[tuple[int, list[tuple[str, int | None]]]], puzzle: Puzzle, fmt: str) -> Solution:
    """The answer drawn by ``rows`` (each a line number and its cells' tokens and columns):
    :func:`solution_from_drawing`."""
    drawing = {(r, c): (token, number, column) for r, (number, cells) in enumerate(rows) for c, (token, column) in enumerate(cells)}

    def where(cell: Cell) -> str:
        return f"(x,y) = ({cell[1]},{cell[0]})" if fmt == "adc" else f"(row, col) = {cell}"

    return solution_from_drawing(drawing, puzzle, fmt, where,
                                 lambda: Solution.from_rows(puzzle, [[token for token, _ in cells] for _, cells in rows]))


def solution_from_drawing(drawing: dict[tuple[int, ...], tuple[str, int, int | None]], puzzle: Any, fmt: str,
                          where: Callable[[tuple[int, ...]], str], read: Callable[[], Any]) -> Any:
    """The answer ``read()`` gives (``Solution.from_rows``, or ``from_layers`` on several
    layers), or a ParseError at the cell of the drawing that shows it is none: a label the puzzle
    does not have, an endpoint holding something else, else the first cell of the label whose
    cells form no simple path between its endpoints. ``drawing`` maps every cell, in reading
    order, to its token, line and column; ``where(cell)`` names a cell as the format does."""
    first_line = next(iter(drawing.values()))[1]
    labels = set(puzzle.labels)
    first: dict[str, tuple[int, int | None]] = {}  # label -> (line, column) of its first cell
    vias = {"@" + via.name for via in getattr(puzzle, "vias", ())}  # (multi-layer ADC 2016: "@a" on an unused via)
    for cell, (token, line, column) in drawing.items():
        if token in (EMPTY, BLOCKED) or token in first:
            continue
        if token in vias:
            raise ParseError(f"not an answer to this puzzle: via {quoted(token[1:])} at {where(cell)} is passed by no path "
                             "(every via is passed by one)", line=line, column=column)
        if token not in labels:
            what = f"line number {shown(token)} is not a LINE" if fmt == "adc" else f"label {quoted(token)} is not a label"
            raise ParseError(f"{what} of the puzzle", line=line, column=column)
        first[token] = (line, column)
    for pair in puzzle.pairs:
        for cell in (pair.start, pair.end):
            token, line, column = drawing[cell]
            if token != pair.label:
                holds = "leaves it unused" if token in (EMPTY, BLOCKED) else f"puts {quoted(token)} there"
                raise ParseError(f"not an answer to this puzzle: {quoted(pair.label)} ends at {where(cell)} but the answer {holds}",
                                 line=line, column=column)
    try:
        return read()
    except NotAPath as error:
        line, column = first.get(error.label, (first_line, None))
        if isinstance(error, TraceCapped):  # (a valid answer may be too tangled to read from its drawing)
            raise ParseError(f"{error} (the drawing is ambiguous where a path runs beside itself)", line=line, column=column) from None
        raise ParseError(f"not an answer to this puzzle: {error}", line=line, column=column) from None
    except ValueError as error:
        raise ParseError(f"not an answer to this puzzle: {error}", line=first_line) from None
