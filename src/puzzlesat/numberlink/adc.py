"""Reading DA Symposium Algorithm Design Contest (ADC) Numberlink problems (``SIZE WxH``,
``LINE_NUM n``, ``LINE#k (x,y)-(x,y)``) and the rows of their answers, on one layer.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import NotAPuzzle, ParseError, quoted
from ..timing import Deadline
from .model import EMPTY, Puzzle
from .reading import _Board, _canonical, _check_size, _is_comment, _number


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
