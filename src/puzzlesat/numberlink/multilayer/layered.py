"""The reader of the library's own layered text (``layer z`` lines, then each layer's rows; the
``layers`` format of :mod:`.formats`), for puzzles and for the grids of answers.

>>> _parse_layers(["layer 1", "A.", "", "layer 2", ".A"]).pair("A")
Pair(label='A', start=(0, 0, 0), end=(1, 0, 1))
"""

from __future__ import annotations

import re
from typing import Sequence

from ...errors import InvalidPuzzle, ParseError, TimeLimitReached
from ...timing import Deadline
from ..model import BLOCKED, EMPTY
from ..reading import _is_comment, _number
from .model import VIA_MARK, Cell, Puzzle, Via
from .reading import _check_size, _Grid, _Stack

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
