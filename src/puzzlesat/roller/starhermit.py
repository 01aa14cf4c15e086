"""Reading starhermit's paint-maze ``levels.json``: ``{"levels": [{"id", "rows", "start": [x, y],
"par", "solution"}]}`` (or a bare list of levels), rows over ``#`` wall and ``.`` floor.

>>> [(level.name, level.start, level.par) for level in parse_starhermit('{"levels": [{"id": "a", "rows": ["#..#"], "start": [1, 0], "par": 1}]}')]
[('a', (0, 1), 1)]
"""

from __future__ import annotations

import json

from ..errors import ParseError, quoted, shown
from .model import FLOOR, MOVES, WALL, Level
from .reading import check_size, default_name, json_error, json_number, lf_line_ends, make_level

def parse_starhermit(text: str, *, source: str | None = None, each: bool = False) -> list[Level]:
    """The levels of a starhermit ``levels.json``: ``rows`` over ``#``/``.``, ``start`` [x, y]."""
    entries = _starhermit_entries(lf_line_ends(text))
    levels: list = []
    for index, (entry, line) in enumerate(entries):
        try:
            levels.append(_starhermit_level(entry, index, len(entries), line, source))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _starhermit_entries(text: str) -> list[tuple[object, int | None]]:
    """Each level entry of a starhermit file with the line of its ``"rows"`` key."""
    try:
        data = json.loads(text, parse_int=json_number)
    except json.JSONDecodeError as exc:
        raise json_error(exc) from None
    entries = data.get("levels") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise ParseError('expected a JSON object with a "levels" list (or a list of levels)', line=1)
    if not entries:
        raise ParseError('the "levels" list is empty', line=1)
    out = []
    search_from = 0
    for entry in entries:
        # the line of this level: where its "rows" key appears (searching forward in order)
        offset = text.find('"rows"', search_from)
        line = text.count("\n", 0, offset) + 1 if offset >= 0 else None
        if offset >= 0:
            search_from = offset + 1
        out.append((entry, line))
    return out


def _starhermit_level(entry: object, index: int, count: int, line: int | None, source: str | None) -> Level:
    label = f"level {index}"
    if not isinstance(entry, dict):
        raise ParseError(f"{label} is not a JSON object", line=line)
    if "id" in entry:
        label += f" ({shown(str(entry['id']))})"
    rows = entry.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ParseError(f'{label}: "rows" must be a list of strings', line=line)
    if not rows or not any(rows):
        raise ParseError(f"{label}: empty level", line=line)
    width = max(len(row) for row in rows)
    check_size(width, len(rows), line)
    for r, row in enumerate(rows):
        bad = row.strip(WALL + FLOOR)
        if bad:
            raise ParseError(f"{label}: row {r} holds {bad[0]!r}; rows use '#' wall and '.' floor", line=line)
        if len(row) < width and (not row or row[-1] != WALL):
            raise ParseError(f"{label}: ragged row {r} ({len(row)} cells where the widest has {width}; pad with '#')", line=line)
    for key, size in (("w", width), ("h", len(rows))):
        if key in entry and entry[key] != size:
            raise ParseError(f'{label}: "{key}" is {quoted(entry[key])} but the rows give {size}', line=line)
    where = entry.get("start")
    if not (isinstance(where, list) and len(where) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in where)):
        raise ParseError(f'{label}: "start" must be [column, row], not {quoted(where)}', line=line)
    par = entry.get("par")
    if par is not None and (not isinstance(par, int) or isinstance(par, bool) or par < 0):
        raise ParseError(f'{label}: "par" must be a non-negative whole number, not {quoted(par)}', line=line)
    answer = entry.get("solution")
    if answer is not None and (not isinstance(answer, str) or answer.strip(MOVES)):
        raise ParseError(f'{label}: "solution" must be a string over U D L R, not {quoted(answer)}', line=line)
    padded = [row.ljust(width, WALL) for row in rows]
    name = str(entry.get("id", default_name(source, index, count)))
    return make_level(padded, (where[1], where[0]), line=line, name=name, par=par, known_answer=answer)
