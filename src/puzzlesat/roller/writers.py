"""Writing a Roller level in each format :mod:`.formats` reads (``formats.format(level, fmt=)``).

Each writer writes what the format's own tools read, so that :func:`.formats.parse` with the
same ``fmt`` (and ``start``) gives the same level back. Where the format cannot hold the level
it raises :class:`~puzzlesat.errors.CannotExpress` naming what would be lost: a start the
format does not store and its start convention does not give, floor on the border of a
herbou board (the game walls it), or a par or shipped answer (only ``native`` and
``starhermit`` keep them; ``level.without_stated()`` drops them). A level's name goes where
the format has a place for it (``native``, ``starhermit``); the others name levels by file.

>>> from puzzlesat.roller.model import Level
>>> print(write(Level.from_rows(["#####", "#o..#", "#####"]), "rollersplat", None), end="")
WWWWW
WGGGW
WWWWW
>>> write(Level.from_rows(["#####", "#..o#", "#####"]), "tmx", "bottom-left")
Traceback (most recent call last):
...
puzzlesat.errors.CannotExpress: the tmx format stores no start: read with the bottom-left convention it would start at (1, 1), not at the level's (1, 3)
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from ..errors import CannotExpress
from .model import FLOOR, Level, start_cell

KEEPS_STATED = ("native", "starhermit")  # the formats that store a par and a shipped answer
ONE_LEVEL = ("tmx", "nohtaray", "mazepaint")  # the formats whose file holds one level


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _nothing_stated(level: Level, fmt: str) -> None:
    lost = []
    if level.par is not None:
        lost.append(f"its stated minimum (par {level.par})")
    if level.known_answer is not None:
        lost.append(f"its shipped answer ({len(level.known_answer)} moves)")
    if lost:
        raise CannotExpress(f"the {fmt} format stores no par or answer: {' and '.join(lost)} would be lost; "
                            f"write it as {' or '.join(KEEPS_STATED)}, or write level.without_stated()")


def _start_implied(level: Level, fmt: str, rule: str) -> None:
    implied = start_cell(list(level.rows), rule)
    if implied != level.start:
        raise CannotExpress(f"the {fmt} format stores no start: read with the {rule} convention it would start at "
                            f"{implied}, not at the level's {level.start}")


def _grid(level: Level, wall: str, floor: str, start: str | None) -> list[str]:
    """The board rows over the format's symbols, the start drawn as ``start`` when it has one."""
    rows = [row.replace("#", "\0").replace(FLOOR, floor).replace("\0", wall) for row in level.rows]
    if start is not None:
        r, c = level.start
        rows[r] = rows[r][:c] + start + rows[r][c + 1 :]
    return rows


def native(level: Level, start: str | None = None) -> str:
    lines = []
    if level.name and _one_line(level.name):
        lines.append(f"# name: {_one_line(level.name)}")
    if level.par is not None:
        lines.append(f"# par: {level.par}")
    if level.known_answer is not None:
        lines.append(f"# answer: {level.known_answer}")
    lines.extend(level.to_rows())
    return "\n".join(lines) + "\n"


def tmx(level: Level, start: str | None = "bottom-left") -> str:
    """A Tiled map as TabTale's files are written: the board only (1 floor, 0 wall)."""
    _nothing_stated(level, "tmx")
    _start_implied(level, "tmx", start or "bottom-left")
    csv = ",\n".join(",".join("1" if ch == FLOOR else "0" for ch in row) for row in level.rows)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.2" orientation="orthogonal" renderorder="right-down" width="{level.width}" '
        f'height="{level.height}" tilewidth="40" tileheight="40" infinite="0">\n'
        f' <layer id="1" name="Tile Layer 1" width="{level.width}" height="{level.height}">\n'
        f'  <data encoding="csv">\n{csv}\n</data>\n </layer>\n</map>\n'
    )


def starhermit_all(levels: Iterable[Level]) -> str:
    """One ``levels.json`` holding every level (start as [x, y], par, solution, id)."""
    entries = []
    for index, level in enumerate(levels):
        entry: dict[str, Any] = {"id": level.name or f"level-{index + 1}", "w": level.width, "h": level.height,
                                 "rows": list(level.rows), "start": [level.start[1], level.start[0]]}
        if level.par is not None:
            entry["par"] = level.par
        if level.known_answer is not None:
            entry["solution"] = level.known_answer
        entries.append(entry)
    return json.dumps({"version": 1, "levels": entries}, indent=1) + "\n"


def starhermit(level: Level, start: str | None = None) -> str:
    return starhermit_all([level])


def joseleite19(level: Level, start: str | None = None) -> str:
    """``#`` wall, ``.`` floor, ``x`` the start."""
    _nothing_stated(level, "joseleite19")
    return "\n".join(_grid(level, "#", ".", "x")) + "\n"


def nohtaray(level: Level, start: str | None = None) -> str:
    """nohtaray's solver input: the grid with ``o`` the start (the text after it is commentary)."""
    _nothing_stated(level, "nohtaray")
    return "\n".join(level.to_rows()) + "\n"


def rollersplat(level: Level, start: str | None = "row-major") -> str:
    """``W`` wall, ``G`` ground; the start is the first floor cell in reading order (or ``start``'s)."""
    _nothing_stated(level, "rollersplat")
    _start_implied(level, "rollersplat", start or "row-major")
    return "\n".join(_grid(level, "W", "G", None)) + "\n"


def mazepaint(level: Level, start: str | None = None) -> str:
    """Space-separated ``0`` floor / ``1`` wall; the game starts the ball at (1, 1) (or at
    ``start``'s convention when given, as the reader takes it)."""
    _nothing_stated(level, "mazepaint")
    if start is not None:
        _start_implied(level, "mazepaint", start)
    elif level.start != (1, 1):
        raise CannotExpress(f"the mazepaint format stores no start: the game starts at (1, 1), not at the level's {level.start}")
    return "\n".join(" ".join("0" if ch == FLOOR else "1" for ch in row) for row in level.rows) + "\n"


def _herbou_level(level: Level, rule: str) -> str:
    _nothing_stated(level, "herbou")
    _start_implied(level, "herbou", rule)
    last_row, last_col = level.height - 1, level.width - 1
    border = [(r, c) for r, c in level.floor_cells if r in (0, last_row) or c in (0, last_col)]
    if border:
        raise CannotExpress(f"the herbou format walls the board's border: its floor cell {border[0]} on the border would be lost")
    rows = ",".join("[" + ",".join("0" if ch == FLOOR else "1" for ch in row) + "]" for row in level.rows)
    return f"  [{rows}]"


def herbou_all(levels: Iterable[Level], start: str | None = None) -> str:
    """herbou's ``levels-data.js``: one JavaScript array of levels, each rows of 0 road / 1 wall."""
    body = ",\n".join(_herbou_level(level, start or "row-major") for level in levels)
    return f"const levels = [\n{body}\n];\n"


def herbou(level: Level, start: str | None = None) -> str:
    return herbou_all([level], start)


WRITERS: dict[str, Callable[[Level, str | None], str]] = {
    "native": native,
    "tmx": tmx,
    "starhermit": starhermit,
    "joseleite19": joseleite19,
    "nohtaray": nohtaray,
    "herbou": herbou,
    "mazepaint": mazepaint,
    "rollersplat": rollersplat,
}


def write(level: Level, fmt: str, start: str | None) -> str:
    """``level`` in the format named ``fmt`` (a canonical name); ``start``: the start convention
    of a format that stores none (None: the format's own)."""
    return WRITERS[fmt](level, start)


def write_all(levels: list[Level], fmt: str, start: str | None) -> str:
    """Several levels in one text: blocks separated by blank lines, or one document (starhermit,
    herbou); a format whose file holds one level refuses several."""
    if fmt == "starhermit":
        return starhermit_all(levels)
    if fmt == "herbou":
        return herbou_all(levels, start)
    if fmt in ONE_LEVEL and len(levels) != 1:
        raise CannotExpress(f"a {fmt} file holds one level, not {len(levels)}: write each with format(level, fmt={fmt!r})")
    return "\n".join(write(level, fmt, start) for level in levels)

