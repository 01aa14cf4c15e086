"""Reading herbou's ``levels-data.js``: ``levels = [[[1,0,...], ...], ...]`` JavaScript arrays
(comments and trailing commas allowed), ``0`` road (floor), ``1`` wall.

>>> [(level.name, level.start) for level in parse_herbou("const levels = [[[1,1,1,1],[1,0,0,1],[1,1,1,1]]];", source="l.js")]
[('l.js#0', (1, 1))]
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import ParseError
from .model import FLOOR, WALL, Level
from .reading import DEFAULT_START, blank_js_comments, check_size, check_start_rule, implied_start, json_error, json_number, lf_line_ends, line_and_column, make_level

def _level_offsets(text: str, start: int) -> list[int]:
    """Offsets of the '[' opening each level (depth 2) in the array that opens at ``start``."""
    offsets, depth = [], 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "[":
            depth += 1
            if depth == 2:
                offsets.append(i)
        elif ch == "]":
            depth -= 1
            if depth == 0:
                break
    return offsets


def parse_herbou(text: str, *, start: str | None = None, source: str | None = None, each: bool = False) -> list[Level]:
    """herbou's ``levels-data.js``: ``levels = [[[1,0,...], ...], ...]``, ``0`` road, ``1`` wall.

    As the game does, the outer border is forced to wall and the ball starts on the first road
    cell in reading order (``start=`` picks another convention).
    """
    check_start_rule(start)
    rule = start or DEFAULT_START["herbou"]
    text = lf_line_ends(text)
    clean = blank_js_comments(text)
    match = re.search(r"\blevels\s*=\s*\[", clean)
    begin = match.end() - 1 if match else clean.find("[")
    if begin < 0:
        raise ParseError("no JavaScript array found (expected `levels = [[[1,0,...], ...], ...]`)", line=1)
    clean = re.sub(r",(\s*)\]", lambda m: " " + m.group(1) + "]", clean)  # trailing commas, same length
    try:
        data, _ = json.JSONDecoder(parse_int=json_number).raw_decode(clean, begin)
    except json.JSONDecodeError as exc:
        raise json_error(exc) from None
    if not isinstance(data, list) or not data:
        raise ParseError("the levels array is empty", line=line_and_column(text, begin)[0])
    single = all(isinstance(row, list) and all(isinstance(v, int) for v in row) for row in data)
    if single:
        data = [data]  # one level: a list of rows
    offsets = [begin] if single else _level_offsets(clean, begin)
    levels: list = []
    for index, grid in enumerate(data):
        line = line_and_column(text, offsets[index])[0] if index < len(offsets) else None
        try:
            levels.append(_herbou_level(grid, index, line, rule, source))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _herbou_level(grid: object, index: int, line: int | None, rule: str, source: str | None) -> Level:
    if not isinstance(grid, list) or not grid or not all(isinstance(row, list) and row for row in grid):
        raise ParseError(f"level {index + 1} is not an array of rows of 0 and 1", line=line)
    width = len(grid[0])
    check_size(width, len(grid), line)
    rows = []
    for r, row in enumerate(grid):
        if len(row) != width:
            raise ParseError(f"level {index + 1}: ragged row {r} ({len(row)} values where the first row has {width})", line=line)
        if any(v not in (0, 1) or isinstance(v, bool) for v in row):
            raise ParseError(f"level {index + 1}: row {r} holds a value other than 0 (road) and 1 (wall)", line=line)
        rows.append("".join(FLOOR if v == 0 and 0 < r < len(grid) - 1 and 0 < c < width - 1 else WALL
                            for c, v in enumerate(row)))
    cell = implied_start(rows, rule, line=line)
    name = f"{Path(source).name if source else 'levels'}#{index}"  # its position from 0, as every multi-level file names its levels
    return make_level(rows, cell, line=line, name=name, start_rule=rule)
