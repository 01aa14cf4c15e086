"""Read and write multi-layer (3-D) Numberlink puzzles and answers.

Rules and the model live in :mod:`.model`; this module only turns text into :class:`Puzzle` /
:class:`Solution` objects and back. Every refusal of input text is a :class:`ParseError` naming
the line (and the column where it applies); every puzzle goes through the ``Puzzle``
constructor, so nothing accepted here can break a solver later. Cells are ``(layer, row,
column)`` from 0; text counts layers from 1, as the contest files do.

>>> p = parse("SIZE 3X2X2\\nLINE_NUM 2\\nLINE#1 (0,0,1) (2,1,2)\\nLINE#2 (2,0,1)-(0,1,2)")
>>> p.size, p.pair("1")
((3, 2, 2), Pair(label='1', start=(0, 0, 0), end=(1, 1, 2)))
>>> print(format(p), end="")
layer 1
1 . 2
. . .
<BLANKLINE>
layer 2
. . .
2 . 1
>>> parse(format(p)) == p == parse(format(p, fmt="adc"))
True

Formats (``FORMATS``; :func:`detect_format` picks one when ``fmt`` is None):

``layers``
    The library's own (what ``str(puzzle)`` prints). For each layer a line ``layer z`` (any
    case; z = 1, 2, ... in order), then the rows of that layer; a ``layer`` line starts the
    input or follows a blank line, and a layer's rows hold no blank line (so every line of a
    layer is a row, even one reading ``layer 2``). Rows are whitespace-separated tokens or,
    when no row of the stack holds whitespace, plain character strings (one character per
    cell): ``.`` empty, ``#`` blocked, any other token a label occurring exactly twice in the
    whole stack; ``@a`` (rows of tokens) a cell of the via named ``a``. Outside the layers,
    lines that are blank or comments (``#`` alone or followed
    by a space or tab) are skipped. Character rows of different lengths, all single tokens,
    are a board one cell wide (labels such as ``10``); a board one cell wide whose every cell
    holds a label of one length of two or more characters reads as a character grid instead.
    The same text with every path cell holding its label is an answer (:func:`parse_solution`).
``adc``
    The DA Symposium Algorithm Design Contest 2017/2018 problems: ``SIZE XxYxZ`` (X columns,
    Y rows, Z layers), optional ``LINE_NUM n``, ``LINE#k (x,y,z) (x,y,z)`` (x the column and
    y the row from 0, z the layer from 1; between the points spaces or ``-``); the label is k
    without leading zeros. A 2-D ``SIZE XxY`` is one layer (its points may omit z). ADC 2016
    problems add ``VIA#a (x,y,z) (x,y,z) ...`` lines: a via (:class:`~.model.Via`) at one place
    on consecutive layers, the only place a line may change layer. Answers: ``SIZE XxYxZ``,
    then per layer ``LAYER z`` and Y rows of X comma-separated line numbers, ``0``/``00``
    unused (:func:`parse_solution`; a via's cells hold the number of the line through it).
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ...errors import CannotExpress, InvalidPuzzle, NotAPuzzle, ParseError, TimeLimitReached, quoted, require_type
from ...results import solution_hint
from ...textio import MAX_INPUT_BYTES, as_text, check_time, collector_paused, read_bytes, with_file_name_hint
from ...timing import Deadline
from ..formats import _canonical, _first_content, _is_comment, _lines, _number, solution_from_drawing
from ..model import BLOCKED, EMPTY
from .model import MAX_CELLS, VIA_MARK, Cell, Pair, Puzzle, Solution, Via, layers_text

__all__ = [
    "FORMATS", "parse", "read", "detect_format", "format", "format_solution",
    "parse_solution", "parse_answer_layers",
]

FORMATS = ("layers", "adc")

# A grid read from text: layers of rows; a row is (line number, [(token, column), ...]).
_Row = tuple[int, list[tuple[str, int]]]
_Grid = list[list[_Row]]


# ---------------------------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------------------------

def _check_size(width: int, height: int, layers: int, line: int | None) -> None:
    """Refuse absurd or empty boards before anything is allocated."""
    if width < 1 or height < 1 or layers < 1:
        raise ParseError(f"board size {width}x{height}x{layers} must be at least 1x1x1", line=line)
    if width * height * layers > MAX_CELLS:
        raise ParseError(
            f"board size {width}x{height}x{layers} is absurd (more than {MAX_CELLS:,} cells)", line=line
        )


def _places(marks: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{line}:{column}" for line, column in marks)


@dataclass
class _Stack:
    """Collects labels (with where each was written) and blocked cells, then builds the Puzzle."""

    width: int
    height: int
    layers: int
    line: int | None  # where the board is declared, for errors the Puzzle constructor raises
    deadline: Deadline | None = None  # passed: TimeLimitReached (see puzzlesat.textio.check_time)

    def __post_init__(self) -> None:
        self.cells: dict[str, list[Cell]] = {}
        self.marks: dict[str, list[tuple[int, int]]] = {}
        self.blocked: set[Cell] = set()
        self.vias: list[Via] = []
        self.endpoints = 0  # added so far: the reader's steps between looks at the clock

    def add(self, label: str, cell: Cell, line: int, column: int) -> None:
        check_time(self.deadline, self.endpoints, line=line)
        self.endpoints += 1
        self.cells.setdefault(label, []).append(cell)
        self.marks.setdefault(label, []).append((line, column))

    def build(self, name: str = "", *, answer_hint: bool = False) -> Puzzle:
        problems = []
        for label, marks in self.marks.items():
            if len(marks) == 2:
                continue
            times = "once" if len(marks) == 1 else f"{len(marks)} times"
            hint = " (an answer? read answers with parse_solution)" if answer_hint and len(marks) > 2 else ""
            where = marks[0] if len(marks) == 1 else marks[2]
            problems.append((where, f"label {quoted(label)} occurs {times} (at {_places(marks[:6])}"
                             f"{', ...' if len(marks) > 6 else ''}; expected exactly 2){hint}"))
        if problems:
            (line, column), message = min(problems)
            raise ParseError(message, line=line, column=column)
        pairs = []
        for step, (label, cells) in enumerate(self.cells.items()):
            check_time(self.deadline, step, line=self.line)
            pairs.append(Pair(label, cells[0], cells[1]))
        try:
            return Puzzle(self.width, self.height, self.layers, tuple(pairs), frozenset(self.blocked), name=name,
                          vias=tuple(self.vias))
        except InvalidPuzzle as error:
            raise ParseError(str(error), line=self.line) from None


def _name(source: str | None) -> str:
    return Path(source.rstrip("/\\")).name if source else ""


def _text_lines(text: str | bytes) -> list[str]:
    return _lines(as_text(text))


# ---------------------------------------------------------------------------------------------
# The layered text
# ---------------------------------------------------------------------------------------------

_LAYER_LINE = re.compile(r"\s*layer\s+([0-9]+)\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"\S+")


def _layer_blocks(lines: Sequence[str]) -> list[tuple[int, list[tuple[int, str]]]]:
    """(line of its ``layer z`` line, [(line number, row text), ...]) for each layer."""
    blocks: list[tuple[int, list[tuple[int, str]]]] = []
    seen: dict[int, int] = {}
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        match = _LAYER_LINE.match(line)
        if match:
            z, expected = _number(match.group(1)), len(blocks) + 1
            if z in seen:
                raise ParseError(f"layer {z} given twice (lines {seen[z]} and {i + 1})", line=i + 1)
            if z != expected:
                raise ParseError(
                    f"layer {z} where layer {expected} was expected (layers are numbered from 1, in order)",
                    line=i + 1,
                )
            seen[z] = i + 1
            header = i + 1
            i += 1
            rows = []
            while i < n and lines[i].strip():
                rows.append((i + 1, lines[i]))
                i += 1
            if not rows:
                raise ParseError(f"layer {z} has no rows (a layer's rows follow its 'layer' line)", line=header)
            blocks.append((header, rows))
            continue
        if _is_comment(line):
            i += 1
            continue
        if not blocks:
            raise ParseError(
                "expected 'layer 1' (the layered format starts each layer with a 'layer z' line)", line=i + 1
            )
        raise ParseError(
            f"expected 'layer {len(blocks) + 1}' or the end of the input (a blank line ended layer {len(blocks)})",
            line=i + 1,
        )
    if not blocks:
        raise ParseError("empty input: no layers found", line=1 if lines else None)
    return blocks


def _cells(row: str, token_mode: bool) -> list[tuple[str, int]]:
    if token_mode:
        return [(m.group(), m.start() + 1) for m in _TOKEN.finditer(row)]
    stripped = row.strip()
    offset = len(row) - len(row.lstrip())
    return [(ch, offset + k + 1) for k, ch in enumerate(stripped)]


def _layered_grid(lines: Sequence[str], *, one_wide: bool | None = None) -> _Grid:
    """The layers of a layered text as a grid; ``one_wide`` says whether rows without
    whitespace are single tokens (a board one cell wide) or character strings (None: decide
    from the rows; rows of different lengths are then one cell wide)."""
    blocks = _layer_blocks(lines)
    return _shaped(blocks, _token_mode(blocks, one_wide))


def _token_mode(blocks: Sequence[tuple[int, list[tuple[int, str]]]], one_wide: bool | None) -> bool:
    rows = [row for _, block in blocks for _, row in block]
    if any(len(row.split()) > 1 for row in rows):
        return True
    if one_wide is not None:
        return one_wide
    return len({len(row.strip()) for row in rows}) > 1


def _shaped(blocks: Sequence[tuple[int, list[tuple[int, str]]]], token_mode: bool) -> _Grid:
    """The blocks cut into cells; every layer as tall and every row as wide as layer 1's first."""
    grid: _Grid = []
    first_line, first_rows = blocks[0]
    height = len(first_rows)
    width = len(_cells(first_rows[0][1], token_mode))
    for z, (header, block) in enumerate(blocks, 1):
        if len(block) != height:
            stray = [number for number, row in block if _LAYER_LINE.match(row)]
            hint = f" (line {stray[0]}: a 'layer' line must follow a blank line)" if stray else ""
            raise ParseError(
                f"layer {z} has {len(block)} rows but layer 1 (line {first_line}) has {height}{hint}",
                line=stray[0] if stray else header,
            )
        layer = []
        for number, row in block:
            cells = _cells(row, token_mode)
            if len(cells) != width:
                hint = " (a 'layer' line must follow a blank line)" if _LAYER_LINE.match(row) else ""
                raise ParseError(
                    f"row has {len(cells)} cells but the first row (line {first_rows[0][0]}) has {width} "
                    f"(ragged rows){hint}",
                    line=number,
                )
            layer.append((number, cells))
        grid.append(layer)
    _check_size(width, height, len(grid), first_line)
    return grid


def _parse_layers(lines: Sequence[str], deadline: Deadline | None = None) -> Puzzle:
    blocks = _layer_blocks(lines)
    token_mode = _token_mode(blocks, None)
    if token_mode and not any(len(row.split()) > 1 for _, block in blocks for _, row in block):
        # character rows of different lengths: one cell wide, unless that is no puzzle either;
        # then the text is a character grid with ragged rows, and that is the error to report
        try:
            return _stack_puzzle(_shaped(blocks, True), deadline)
        except TimeLimitReached:
            raise
        except ParseError as error:
            _shaped(blocks, False)
            raise error
    return _stack_puzzle(_shaped(blocks, token_mode), deadline)


def _stack_puzzle(grid: _Grid, deadline: Deadline | None = None) -> Puzzle:
    stack = _Stack(len(grid[0][0][1]), len(grid[0]), len(grid), grid[0][0][0] - 1, deadline)
    via_cells: dict[str, list[tuple[Cell, int, int]]] = {}
    for z, layer in enumerate(grid):
        for r, (number, cells) in enumerate(layer):
            for c, (token, column) in enumerate(cells):
                if token == BLOCKED:
                    stack.blocked.add((z, r, c))
                elif token.startswith(VIA_MARK):
                    if token == VIA_MARK:
                        raise ParseError(f"'{VIA_MARK}' marks a via cell and needs the via's name after it, "
                                         f"e.g. '{VIA_MARK}a' (rows of tokens)", line=number, column=column)
                    via_cells.setdefault(token[1:], []).append(((z, r, c), number, column))
                elif token != EMPTY:
                    stack.add(token, (z, r, c), number, column)
    for name, marks in via_cells.items():
        try:
            stack.vias.append(Via(name, [cell for cell, _, _ in marks]))
        except InvalidPuzzle as error:
            raise ParseError(str(error), line=marks[0][1], column=marks[0][2]) from None
    return stack.build(answer_hint=True)


# ---------------------------------------------------------------------------------------------
# ADC 2017/2018 problems and answers
# ---------------------------------------------------------------------------------------------

_SIZE = re.compile(r"\s*SIZE\s+([0-9]+)\s*X\s*([0-9]+)\s*(?:X\s*([0-9]+)\s*)?$", re.IGNORECASE)
_SIZE_WORD = re.compile(r"\s*SIZE\b", re.IGNORECASE)
_LINE_NUM = re.compile(r"\s*LINE_NUM\s+([0-9]+)\s*$", re.IGNORECASE)
_POINT = r"(\(\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*(?:,\s*(-?[0-9]+)\s*)?\))"
_LINE = re.compile(r"\s*LINE\s*#\s*([0-9A-Za-z_]+)\s*" + _POINT + r"\s*-?\s*" + _POINT + r"\s*$", re.IGNORECASE)
_LINE_WORD = re.compile(r"\s*LINE(_NUM)?\b|\s*LINE\s*#", re.IGNORECASE)
_VIA = re.compile(r"\s*VIA\s*#", re.IGNORECASE)
_VIA_LINE = re.compile(r"\s*VIA\s*#\s*([A-Za-z][0-9A-Za-z_]*)\s*((?:" + _POINT + r"\s*-?\s*)+)$", re.IGNORECASE)
_ONE_POINT = re.compile(_POINT)
_ADC_LAYER = re.compile(r"\s*LAYER\s+([0-9]+)\s*$", re.IGNORECASE)
_NUMBER_ROW = re.compile(r"\s*[0-9]+\s*(,\s*[0-9]*\s*)*$")


def _signed(digits: str) -> int:
    return -_number(digits[1:]) if digits.startswith("-") else _number(digits)


def _adc_size(line: str, number: int) -> tuple[int, int, int, bool]:
    """(width, height, layers, whether SIZE gave the layers) of a ``SIZE`` line."""
    match = _SIZE.match(line)
    if not match:
        raise ParseError("expected 'SIZE XxYxZ' (columns x rows x layers)", line=number)
    width, height = _number(match.group(1)), _number(match.group(2))
    layers = _number(match.group(3)) if match.group(3) is not None else 1
    _check_size(width, height, layers, number)
    return width, height, layers, match.group(3) is not None


def _content(lines: Sequence[str]) -> list[tuple[int, str]]:
    return [(i + 1, line) for i, line in enumerate(lines) if line.strip() and not _is_comment(line)]


def _parse_adc(lines: Sequence[str], deadline: Deadline | None = None) -> Puzzle:
    content = _content(lines)
    if not content:
        raise ParseError("empty input: no puzzle found", line=1 if lines else None)
    size_line, line = content[0]
    width, height, layers, _ = _adc_size(line, size_line)
    stack = _Stack(width, height, layers, size_line, deadline)
    used: dict[Cell, tuple[str, int]] = {}
    declared: tuple[int, int] | None = None
    seen: dict[str, tuple[str, int]] = {}
    via_lines: dict[str, int] = {}
    for number, line in content[1:]:
        match = _LINE.match(line)
        if match is None and _VIA.match(line):
            _add_via(stack, line, number, used, via_lines)
            continue
        if match is None:
            _refuse_adc_line(line, number, size_line, declared, started=bool(seen or via_lines))
            if _LINE_NUM.match(line):
                declared = (_number(_LINE_NUM.match(line).group(1)), number)
            continue
        name = match.group(1)
        label = _canonical(name) if name.isdigit() else name
        if label == "0":
            raise ParseError(f"LINE#{name}: line numbers start at 1 (0 marks unused cells in answers)", line=number)
        if label in seen:
            raise ParseError(f"LINE#{name} given twice (lines {seen[label][1]} and {number})", line=number)
        seen[label] = (name, number)
        for k, base in enumerate((2, 6), 1):
            column = match.start(base) + 1
            text = match.group(base).replace(" ", "").replace("\t", "")
            x, y = _signed(match.group(base + 1)), _signed(match.group(base + 2))
            if match.group(base + 3) is None:
                if layers != 1:
                    raise ParseError(
                        f"LINE#{name} point {k} {text} has no layer z (SIZE gives {layers} layers)",
                        line=number, column=column,
                    )
                z = 1
            else:
                z = _signed(match.group(base + 3))
            cell = _point_cell(f"LINE#{name}", k, text, (x, y, z), stack, number, column)
            if cell in used:
                whose = "its own first point" if used[cell] == (name, number) else _user(used[cell])
                raise ParseError(
                    f"LINE#{name} point {k} {text} is on a cell already used by {whose}", line=number, column=column
                )
            used[cell] = (name, number)
            stack.add(label, cell, number, column)
    if declared is not None and declared[0] != len(seen):
        raise ParseError(f"LINE_NUM says {declared[0]} lines but {len(seen)} are given", line=declared[1])
    return stack.build()


def _point_cell(what: str, k: int, text: str, xyz: tuple[int, int, int], stack: _Stack, number: int, column: int) -> Cell:
    """The cell ``(layer, row, column)`` of point ``k`` (written ``text``) of a LINE or VIA line
    (``what``, e.g. ``LINE#3``), or the ParseError saying which coordinate is off the board."""
    x, y, z = xyz
    for axis, value, low, high, kind in (
        ("x", x, 0, stack.width - 1, "columns"), ("y", y, 0, stack.height - 1, "rows"), ("z", z, 1, stack.layers, "layers")
    ):
        if not low <= value <= high:
            raise ParseError(
                f"{what} point {k} {text} is off the {stack.width}x{stack.height}x{stack.layers} board: "
                f"{axis} = {value} ({kind} are {low}..{high})",
                line=number, column=column,
            )
    return (z - 1, y, x)


def _user(entry: tuple[str, int]) -> str:
    """Who took a cell, from ``(line name or "VIA#a", line number)``: ``LINE#3 (line 4)``."""
    name, number = entry
    return f"{name if name.startswith('VIA#') else 'LINE#' + name} (line {number})"


def _add_via(stack: _Stack, line: str, number: int, used: dict[Cell, tuple[str, int]], via_lines: dict[str, int]) -> None:
    """An ADC 2016 ``VIA#a (x,y,z) (x,y,z) ...`` line: one place on consecutive layers."""
    match = _VIA_LINE.match(line)
    named = re.match(r"\s*VIA\s*#\s*([^\s(]+)", line)
    if match is None and named is not None and not named.group(1)[0].isalpha():
        raise ParseError(f"VIA#{named.group(1)}: a via is named by letters, as ADC 2016 writes them (VIA#a, VIA#b, ...)",
                         line=number, column=named.start(1) + 1)
    if match is None:
        raise ParseError("expected 'VIA#a (x,y,z) (x,y,z) ...' (a via's name, then its cells: x column, y row "
                         "from 0, z layer from 1)", line=number)
    name = match.group(1)
    if name in via_lines:
        raise ParseError(f"VIA#{name} given twice (lines {via_lines[name]} and {number})", line=number)
    via_lines[name] = number
    cells = []
    offset = match.start(2)
    for k, point in enumerate(_ONE_POINT.finditer(match.group(2)), 1):
        column = offset + point.start() + 1
        text = point.group(1).replace(" ", "").replace("\t", "")
        if point.group(4) is None:
            raise ParseError(f"VIA#{name} point {k} {text} has no layer z", line=number, column=column)
        xyz = (_signed(point.group(2)), _signed(point.group(3)), _signed(point.group(4)))
        cell = _point_cell(f"VIA#{name}", k, text, xyz, stack, number, column)
        if cell in cells:
            raise ParseError(f"VIA#{name} point {k} {text} is its own point {cells.index(cell) + 1} again",
                             line=number, column=column)
        if cell in used:
            raise ParseError(f"VIA#{name} point {k} {text} is on a cell already used by {_user(used[cell])}",
                             line=number, column=column)
        used[cell] = (f"VIA#{name}", number)
        cells.append(cell)
    try:
        stack.vias.append(Via(name, cells))
    except InvalidPuzzle as error:
        raise ParseError(str(error), line=number) from None


def _refuse_adc_line(line: str, number: int, size_line: int, declared: tuple[int, int] | None, *, started: bool) -> None:
    """Raise the ParseError for a line of an ADC problem that is no LINE; return for LINE_NUM.
    ``started``: a LINE or VIA line came before (so the file is a problem, not an answer)."""
    if _LINE_NUM.match(line):
        if declared is not None:
            raise ParseError(f"second LINE_NUM (the first is on line {declared[1]})", line=number)
        return
    if _SIZE_WORD.match(line):
        raise ParseError(f"second SIZE line (the first is on line {size_line}): one ADC problem per file", line=number)
    if _ADC_LAYER.match(line) or _NUMBER_ROW.match(line):
        if started or declared is not None:  # a problem with a stray row: its error, never skipped
            raise ParseError("expected 'LINE#k (x,y,z) (x,y,z)' (a LAYER line or a row of line numbers belongs "
                             "in an answer file)", line=number)
        raise NotAPuzzle(  # (skipped when verify meets it in a folder, as one-layer ADC answers are)
            "this is an ADC answer (LAYER lines, rows of line numbers), not a problem: read it with parse_solution "
            "(on the command line: puzzlesat verify PUZZLE --answers ANSWER)",
            line=number,
        )
    if _LINE_WORD.match(line):
        raise ParseError("expected 'LINE#k (x,y,z) (x,y,z)' (x column, y row from 0, z layer from 1)", line=number)
    raise ParseError("expected 'LINE#k (x,y,z) (x,y,z)' or 'LINE_NUM n'", line=number)


def _adc_answer_grid(lines: Sequence[str]) -> _Grid:
    """The layers of an ADC answer; tokens are line numbers without leading zeros, ``.`` unused."""
    content = _content(lines)
    if not content:
        raise ParseError("empty input: no answer found", line=1 if lines else None)
    size_line, line = content[0]
    width, height, layers, _ = _adc_size(line, size_line)
    grid: _Grid = []
    seen: dict[int, int] = {}
    implicit = 0  # the line of the first row when a one-layer answer has no LAYER line
    for number, line in content[1:]:
        match = _ADC_LAYER.match(line)
        if match:
            z = _number(match.group(1))
            if implicit:
                raise ParseError(f"LAYER {z} after rows that had no LAYER line (line {implicit})", line=number)
            if z in seen:
                raise ParseError(f"LAYER {z} given twice (lines {seen[z]} and {number})", line=number)
            if not 1 <= z <= layers:
                raise ParseError(f"LAYER {z} is out of range: SIZE gives {layers} layer(s), 1..{layers}", line=number)
            if z != len(grid) + 1:
                raise ParseError(
                    f"LAYER {z} where LAYER {len(grid) + 1} was expected (layers go in order 1..{layers})", line=number
                )
            if grid and len(grid[-1]) < height:
                raise ParseError(f"layer {len(grid)} has {len(grid[-1])} rows but SIZE gives {height}", line=number)
            seen[z] = number
            grid.append([])
            continue
        if _SIZE_WORD.match(line):
            raise ParseError(f"second SIZE line (the first is on line {size_line}): one answer per file", line=number)
        if _LINE_WORD.match(line) or _VIA.match(line):
            raise ParseError("this is an ADC problem (LINE lines), not an answer: read it with parse", line=number)
        if "," not in line and not line.lstrip()[:1].isdigit():
            raise ParseError("expected 'LAYER z' or a row of comma-separated line numbers", line=number)
        if not grid:
            if layers != 1:
                raise ParseError(f"a row before 'LAYER 1' (SIZE gives {layers} layers, each after its LAYER line)", line=number)
            implicit = number
            grid.append([])
        if len(grid[-1]) == height:
            more = f" (is the line 'LAYER {len(grid) + 1}' missing?)" if len(grid) < layers else ""
            raise ParseError(f"layer {len(grid)} has more than the {height} rows SIZE gives{more}", line=number)
        grid[-1].append((number, _answer_cells(line, number, width)))
    last = content[-1][0]
    if not grid:
        raise ParseError(f"no rows: SIZE gives {layers} layer(s) of {height} rows", line=last)
    if len(grid[-1]) < height:
        raise ParseError(f"layer {len(grid)} has {len(grid[-1])} rows but SIZE gives {height}", line=last)
    if len(grid) < layers:
        raise ParseError(f"LAYER {len(grid) + 1} missing: SIZE gives {layers} layers but {len(grid)} follow", line=last)
    return grid


def _answer_cells(line: str, number: int, width: int) -> list[tuple[str, int]]:
    cells = []
    start = 0
    for k, piece in enumerate(line.split(","), 1):
        cell = piece.strip()
        column = start + (len(piece) - len(piece.lstrip())) + 1
        start += len(piece) + 1
        if not (cell.isdigit() and cell.isascii()):
            what = "an empty cell" if not cell else f"unknown symbol {quoted(cell)}"
            raise ParseError(
                f"{what} in cell {k} (expected a line number, 0 for unused)", line=number, column=column
            )
        label = _canonical(cell)
        cells.append((EMPTY if label == "0" else label, column))
    if len(cells) != width:
        raise ParseError(f"row has {len(cells)} cells but SIZE gives {width} (ragged rows)", line=number)
    return cells


# ---------------------------------------------------------------------------------------------
# Detection and the public reading API
# ---------------------------------------------------------------------------------------------

def _detect(lines: Sequence[str]) -> str:
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no puzzle found", line=1 if lines else None)
    line = first[1]
    if _SIZE_WORD.match(line) or _LINE_WORD.match(line) or _VIA.match(line):
        return "adc"
    return "layers"


def detect_format(text: str | bytes) -> str:
    """The name (one of ``FORMATS``) of the format ``text`` is written in: ``adc`` when it opens
    with ``SIZE`` (or a ``LINE``), else ``layers``.

    >>> detect_format("SIZE 3X3X2\\nLINE_NUM 0"), detect_format("layer 1\\nA.A")
    ('adc', 'layers')
    """
    return _detect(_text_lines(text))


def layered_format(text: str | bytes) -> str | None:
    """The format of ``text`` when it is a multi-layer puzzle, else None: ``adc`` when it opens
    with an ADC ``SIZE XxYxZ`` line of more than one layer, ``layers`` when it opens with a
    ``layer`` line. A single-layer ADC problem (``SIZE 5X5`` or ``SIZE 5X5X1``) is a 2-D puzzle
    and gives None; so does text that is no puzzle at all (its reader names the fault).

    >>> layered_format("SIZE 3X3X2\\nLINE_NUM 0"), layered_format("SIZE 3X3X1"), layered_format("layer 1\\nA A")
    ('adc', None, 'layers')
    """
    head = _head(text)
    first = _first_content(_text_lines(head)) or (None if head is text else _first_content(_text_lines(text)))
    if first is None:
        return None
    match = _SIZE.match(first[1])
    if match:
        return "adc" if match.group(3) is not None and _number(match.group(3)) > 1 else None
    return "layers" if _LAYER_LINE.match(first[1]) else None


HEAD_CHARS = 65_536  # how much of a text layered_format looks at first (its opening line decides)


def _head(text: str | bytes) -> str | bytes:
    """The whole lines of ``text`` within its first HEAD_CHARS characters (all of a short text,
    or of bytes): splitting a text of a million lines takes a noticeable time."""
    if not isinstance(text, str) or len(text) <= HEAD_CHARS:
        return text
    return text[:text.rfind("\n", 0, HEAD_CHARS) + 1]


def _fail(error: ParseError, text: object, source: str | None) -> ParseError:
    error = with_file_name_hint(error, text)
    return error.with_source(source) if source else error


def parse(text: str | bytes, *, fmt: str | None = None, source: str | None = None, deadline: Deadline | None = None) -> Puzzle:
    """The multi-layer puzzle in ``text``, in ``fmt`` (one of ``FORMATS``; detected when None).
    ``source`` (a file name) is named in errors, and its file name becomes the puzzle's ``name``.
    ``deadline`` (none by default): the reading ends by it, or raises
    :class:`~puzzlesat.errors.TimeLimitReached`.

    >>> parse("layer 1\\nA.\\n..\\n\\nlayer 2\\n.#\\n.A").pair("A")
    Pair(label='A', start=(0, 0, 0), end=(1, 1, 1))
    >>> parse("SIZE 2X2X2\\nLINE#1 (0,0,1) (1,1,3)", source="Q9.txt")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: Q9.txt:2:16: LINE#1 point 2 (1,1,3) is off the 2x2x2 board: z = 3 (layers are 1..2)
    """
    try:
        if fmt is not None and fmt not in FORMATS:
            raise ParseError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        lines = _text_lines(text)
        chosen = fmt or _detect(lines)
        with collector_paused():
            puzzle = _parse_adc(lines, deadline) if chosen == "adc" else _parse_layers(lines, deadline)
    except ParseError as error:
        raise _fail(error, text, source) from None
    name = _name(source)
    if not name:
        return puzzle
    renamed = copy.copy(puzzle)  # (a new Puzzle would check every pair again; the name takes no part in the checks)
    object.__setattr__(renamed, "name", name)
    return renamed


def read(path: str | os.PathLike, *, fmt: str | None = None, max_bytes: int = MAX_INPUT_BYTES,
         deadline: Deadline | None = None) -> list[Puzzle]:
    """The puzzle in a file, as a list of one (the shape of the 2-D family's ``read``), named
    after the file. Bytes are decoded as the 2-D reader does (UTF-8, UTF-16 with a BOM,
    cp932, else Latin-1); binary data is refused as a ParseError. At most ``max_bytes`` are
    read (:data:`puzzlesat.textio.MAX_INPUT_BYTES`); devices and sockets are refused; ``deadline``
    as :func:`parse`.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "Q0.txt")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("SIZE 2X1X2\\r\\nLINE_NUM 1\\r\\nLINE#1 (0,0,1) (1,0,2)\\r\\n")
    >>> [(p.name, p.size, p.labels) for p in read(path)]
    [('Q0.txt', (2, 1, 2), ('1',))]
    >>> folder.cleanup()
    """
    name = os.fspath(path)
    data = read_bytes(name, max_bytes=max_bytes)
    return [parse(data, fmt=fmt, source=str(name), deadline=deadline)]


def _answer_grid(text: str | bytes, fmt: str | None, one_wide: bool | None) -> tuple[_Grid, str]:
    if fmt is not None and fmt not in FORMATS:
        raise ParseError(f"unknown answer format {fmt!r}; expected one of {', '.join(FORMATS)}")
    lines = _text_lines(text)
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no answer found", line=1 if lines else None)
    chosen = fmt or ("adc" if _SIZE_WORD.match(first[1]) else "layers")
    if chosen == "adc":
        return _adc_answer_grid(lines), chosen
    return _layered_grid(lines, one_wide=one_wide), chosen


def parse_answer_layers(
    text: str | bytes, *, fmt: str | None = None, source: str | None = None
) -> tuple[int, int, int, list[list[list[str]]]]:
    """``(width, height, layers, grid)`` of an answer read without its puzzle: ``grid`` holds
    layers of rows of tokens, ``.`` for unused cells (ADC line numbers without leading zeros;
    a layered answer's tokens as written). ``fmt``: None (detect), ``adc`` or ``layers``.

    >>> parse_answer_layers("SIZE 2X1X2\\nLAYER 1\\n01,00\\nLAYER 2\\n01,01")
    (2, 1, 2, [[['1', '.']], [['1', '1']]])
    """
    try:
        grid, _ = _answer_grid(text, fmt, None)
    except ParseError as error:
        raise _fail(error, text, source) from None
    tokens = [[[token for token, _ in cells] for _, cells in layer] for layer in grid]
    return len(tokens[0][0]), len(tokens[0]), len(tokens), tokens


def parse_solution(
    text: str | bytes, puzzle: Puzzle, *, fmt: str | None = None, source: str | None = None
) -> Solution:
    """An answer to ``puzzle``: an ADC answer (``SIZE XxYxZ``, ``LAYER z`` blocks of
    comma-separated line numbers, ``00`` unused) or a layered answer (the layered text with
    every path cell holding its label, ``.`` or ``#`` for cells on no path). Each label's cells
    must trace one simple path between its endpoints. ``fmt``: None (detect), ``adc`` or
    ``layers``.

    >>> p = parse("SIZE 3X3X2\\nLINE_NUM 1\\nLINE#1 (0,0,1) (2,2,2)")
    >>> parse_solution("SIZE 3X3X2\\nLAYER 1\\n1,1,1\\n0,0,1\\n0,0,0\\nLAYER 2\\n0,0,0\\n0,0,1\\n0,0,1", p).path("1")
    ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 2), (1, 1, 2), (1, 2, 2))
    >>> parse_solution("layer 1\\n1 1 .\\n. . .\\n. . .\\n\\nlayer 2\\n. . .\\n. . .\\n. . 1", p)
    Traceback (most recent call last):
    ...
    puzzlesat.errors.ParseError: 2:1: not an answer to this puzzle: label '1' is not one simple path from (0, 0, 0) to (1, 2, 2)
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    try:
        grid, chosen = _answer_grid(text, fmt, puzzle.width == 1)
        return _solution(grid, puzzle, chosen)
    except ParseError as error:
        raise _fail(error, text, source) from None


def _solution(grid: _Grid, puzzle: Puzzle, fmt: str) -> Solution:
    size = (len(grid[0][0][1]), len(grid[0]), len(grid))
    if size != puzzle.size:
        raise ParseError(
            f"answer is {size[0]}x{size[1]}x{size[2]} but the puzzle is {puzzle.size_text}", line=grid[0][0][0]
        )
    drawing = {(z, r, c): (token, number, column) for z, layer in enumerate(grid)
               for r, (number, cells) in enumerate(layer) for c, (token, column) in enumerate(cells)}
    tokens = [[[token for token, _ in cells] for _, cells in layer] for layer in grid]
    return solution_from_drawing(drawing, puzzle, fmt, lambda cell: _where(cell, fmt), lambda: Solution.from_layers(puzzle, tokens))


def _where(cell: Cell, fmt: str) -> str:
    z, r, c = cell
    return f"(x,y,z) = ({c},{r},{z + 1})" if fmt == "adc" else f"(layer, row, column) = {cell}"


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def _line_numbers(puzzle: Puzzle) -> dict[str, int]:
    """Each label as an ADC line number; ValueError unless the ADC format can hold the puzzle."""
    if puzzle.blocked:
        raise CannotExpress(f"the ADC format cannot express blocked cells ({len(puzzle.blocked)} on this board)")
    for label in puzzle.labels:
        if not (label.isdigit() and label.isascii() and _canonical(label) == label and label != "0" and len(label) <= 18):
            raise CannotExpress(
                f"the ADC format numbers its lines: label {quoted(label)} is not a positive whole number "
                "of at most 18 digits without leading zeros (like '7')"
            )
    return {label: int(label) for label in puzzle.labels}


def format(puzzle: Puzzle, *, fmt: str = "layers") -> str:  # noqa: A001 - the verb of every family
    """The puzzle as text: ``layers`` (exactly ``str(puzzle)`` and a newline) or ``adc`` (an
    ADC 2017/2018 problem, or 2016 with ``VIA`` lines when it has vias; needs labels that are
    positive whole numbers and no blocked cells, else ValueError).

    >>> p = Puzzle.from_layers([["7.", ".."], [".#", ".7"]])
    >>> print(format(p), end="")
    layer 1
    7 .
    . .
    <BLANKLINE>
    layer 2
    . #
    . 7
    >>> print(format(Puzzle.from_layers([["7.", ".."], ["..", ".7"]]), fmt="adc"), end="")
    SIZE 2X2X2
    LINE_NUM 1
    LINE#7 (0,0,1) (1,1,2)
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    if fmt == "layers":
        return str(puzzle) + "\n"
    if fmt == "adc":
        number_of = _line_numbers(puzzle)
        lines = [f"SIZE {puzzle.width}X{puzzle.height}X{puzzle.layers}", f"LINE_NUM {len(puzzle.pairs)}"]
        for pair in sorted(puzzle.pairs, key=lambda pair: number_of[pair.label]):
            (z0, r0, c0), (z1, r1, c1) = pair.start, pair.end
            lines.append(f"LINE#{number_of[pair.label]} ({c0},{r0},{z0 + 1}) ({c1},{r1},{z1 + 1})")
        if puzzle.vias:
            lines.append("")
        for via in puzzle.vias:
            if not re.fullmatch(r"[A-Za-z][0-9A-Za-z_]*", via.name):
                raise CannotExpress(f"the ADC format names vias by letters: via {via.name!r} cannot be written")
            lines.append(f"VIA#{via.name} " + " ".join(f"({c},{r},{z + 1})" for z, r, c in via.cells))
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def format_solution(puzzle: Puzzle, solution: Solution, *, fmt: str = "layers") -> str:
    """The answer as text: ``layers`` (the layered grid with every path cell holding its label)
    or ``adc`` (``SIZE``, then per layer ``LAYER z`` and rows of comma-separated line numbers of
    at least two digits, ``00`` unused). ValueError when the solution leaves the board or, for
    ``adc``, when the puzzle has blocked cells or labels that are not positive whole numbers.

    >>> p = Puzzle.from_layers([["1.", ".."], ["..", ".1"]])
    >>> s = Solution.from_layers(p, [["1.", ".."], ["1.", "11"]])
    >>> print(format_solution(p, s, fmt="adc"), end="")
    SIZE 2X2X2
    LAYER 1
    01,00
    00,00
    LAYER 2
    01,00
    01,01
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(solution, Solution, "solution", solution_hint(solution))
    if fmt == "layers":
        return layers_text(solution.grid(puzzle)) + "\n"
    if fmt == "adc":
        number_of = _line_numbers(puzzle)
        known = {label for label, _ in solution.paths}
        unknown = sorted(known - set(number_of))
        if unknown:
            raise ValueError(f"the solution has a path for {unknown[0]!r}, which is not a label of the puzzle")
        solution.check_on_board(puzzle)
        digits = max(2, len(str(max(number_of.values(), default=0))))
        grid = [[["0" * digits] * puzzle.width for _ in range(puzzle.height)] for _ in range(puzzle.layers)]
        for label, cells in solution.paths:
            for z, r, c in cells:
                grid[z][r][c] = str(number_of[label]).zfill(digits)
        lines = [f"SIZE {puzzle.width}X{puzzle.height}X{puzzle.layers}"]
        for z, layer in enumerate(grid, 1):
            lines.append(f"LAYER {z}")
            lines.extend(",".join(row) for row in layer)
        return "\n".join(lines) + "\n"
    raise ValueError(f"cannot write answers in format {fmt!r}; writable: {', '.join(FORMATS)}")
