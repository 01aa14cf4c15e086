"""The reader of DA Symposium Algorithm Design Contest problems (2016 ``VIA`` lines included) and
answers on several layers: the ``adc`` format of :mod:`.formats`.

>>> _parse_adc(["SIZE 2X1X2", "LINE_NUM 1", "LINE#1 (0,0,1) (1,0,2)"]).pair("1")
Pair(label='1', start=(0, 0, 0), end=(1, 0, 1))
"""

from __future__ import annotations

import re
from typing import Sequence

from ...errors import InvalidPuzzle, NotAPuzzle, ParseError, quoted
from ...timing import Deadline
from ..model import EMPTY
from ..reading import _canonical, _is_comment, _number
from .model import Cell, Puzzle, Via
from .reading import _check_size, _Grid, _Stack

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
