"""A Roller record as text for a person: a summary line, and for ``solve`` the level with the
route drawn (each painted cell shows the arrow of the first move that painted it, coloured by
move order on a terminal; ``o`` the start, ``@`` the end). The library never prints; the
command line prints what :func:`show` returns.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["o..", "##."])
>>> record = {"source": "tiny.roller", "index": 0, "seconds": 0.01, "status": "solved", "answer": "RD",
...           "moves_count": 2, "optimal": True, "lower_bound": 2, "name": ""}
>>> print(show(level, record, verb="solve", colour=False))
tiny.roller (3x2): solved in 2 moves, proven minimum, 0.010s
o > >
# # @
moves: RD
"""

from __future__ import annotations

from typing import Any, Mapping

from ..results import no_answer_text, stated_phrase
from ..scene import clean_text
from .model import DELTAS, Level, slide

PALETTE = [34, 36, 32, 33, 35, 31, 94, 96, 92, 93, 95, 91]
ARROWS = {"U": "^", "D": "v", "L": "<", "R": ">"}


def size_text(level: Level) -> str:
    """``"WxH"``: columns by rows.

    >>> size_text(Level.from_rows(["o..", "##."]))
    '3x2'
    """
    return f"{level.width}x{level.height}"


def _where(record: Mapping[str, Any]) -> str:
    """The source, and ``#index`` after it when the record is not the first puzzle of its source."""
    index = record.get("index")
    return record["source"] if not index else f"{record['source']}#{index}"


def summary_line(level: Level | None, record: Mapping[str, Any], where: str | None = None) -> str:
    """One line: where, the level's name (when it says more than the file name), its size, and
    what was proven, with the file's stated minimum and stated answer compared."""
    where = _where(record) if where is None else where
    name = record.get("name")
    base = record["source"].replace("\\", "/").rsplit("/", 1)[-1]
    if name and name not in (base, f"{base}#{record.get('index')}"):
        where += f" [{clean_text(name)}]"  # a file's control characters never reach the terminal
    size = size_text(level) if level is not None else "?"
    status = record["status"]
    if status == "solved":
        count = record["moves_count"]
        text = f"solved in {count} move{'s' if count != 1 else ''}"
        if record.get("solved_by") == "stated answer":
            stopped = f": {record['reason']}" if record.get("reason") else " at its time limit"
            text += f" by the file's shipped answer (the search stopped{stopped}, with no shorter one)"
        text += ", proven minimum" if record["optimal"] else f", not proven minimal (lower bound {record['lower_bound']})"
    else:
        text = no_answer_text(record)
    if record.get("stated_minimum") is not None:
        text += "; " + stated_phrase(record["stated_minimum"], record.get("stated_minimum_match"), status=status,
                                     moves_count=record["moves_count"], optimal=record["optimal"], lower_bound=record["lower_bound"])
    stated = record.get("stated_answer") or {}
    if stated.get("valid") is False:
        first = stated["violations"][0] if stated.get("violations") else "no reason given"
        text += f"; its stated answer is not valid ({first})"
    if stated.get("too_long") and level is not None:
        text += f"; its stated answer has {len(level.known_answer or '')} moves, more than the par {record['stated_minimum']}"
    return f"{where} ({size}): {text}, {record['seconds']:.3f}s"


def picture(level: Level, moves: str | None, *, colour: bool) -> str:
    """The level as text with the route drawn: each painted cell shows the arrow of the first
    move that painted it (coloured by move order on a terminal), ``o`` the start, ``@`` the end."""
    marks: dict[tuple[int, int], tuple[str, int]] = {}
    position = level.start
    for step, direction in enumerate(moves or ""):
        if direction not in DELTAS:
            break
        position, cells = slide(level, position, direction)
        for cell in cells:
            marks.setdefault(cell, (ARROWS[direction], step))
    end = position
    lines = []
    for r, row in enumerate(level.rows):
        out = []
        for c, ch in enumerate(row):
            cell = (r, c)
            if cell == level.start:
                text, code = "o", 1
            elif moves and cell == end:
                text, code = "@", 1
            elif cell in marks:
                text, step = marks[cell]
                code = PALETTE[step % len(PALETTE)]
            elif ch == "#":
                text, code = "#", 90
            else:
                text, code = ".", 0
            out.append(f"\x1b[{code}m{text}\x1b[0m" if colour and code else text)
        lines.append(" ".join(out))
    return "\n".join(lines)


def show(level: Level | None, record: Mapping[str, Any], *, verb: str, colour: bool, where: str | None = None) -> str:
    """The record for a person: the summary line; for ``solve`` also the picture and the moves.
    ``where`` names the puzzle (default: the record's source, with ``#index`` after the first)."""
    head = summary_line(level, record, where)
    if verb == "verify" or level is None:
        return head
    answer = record.get("answer")
    text = head + "\n" + picture(level, answer, colour=colour)
    if answer is not None:
        text += "\nmoves: " + (answer or "(none: the start is the only floor cell)")
    return text
