"""A Swap record as text for a person: one summary line, and for ``solve`` the start, the goal
and the board reached side by side, then the moves (coloured on a terminal).

>>> from .formats import parse
>>> level = parse("start\\nT1R T1G\\ngoal\\nG R\\n")
>>> record = {"source": "tiny.swap", "index": 0, "seconds": 0.01, "status": "solved", "moves": ["0,0>0,1"],
...           "moves_count": 1, "optimal": True, "lower_bound": 1, "method": "search"}
>>> print(show(level, record, verb="solve", colour=False))
tiny.swap (2x1 match): solved in 1 move, proven minimum, 0.010s
start     goal      reached
T1R T1G     G   R   T1G T1R
moves: 0,0>0,1
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from ..results import no_answer_text, stated_phrase
from .model import Level, Move
from .moves import replay

ANSI = {"R": "31", "G": "32", "Y": "33", "B": "34", "M": "35", "C": "36", "O": "38;5;208", "W": "97", "P": "38;5;213", "K": "90"}
EXTRA_ANSI = ["91", "92", "93", "94", "95", "96"]
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def size_text(level: Level) -> str:
    """The board as ``WIDTHxHEIGHT`` (columns first, as in every family).

    >>> size_text(Level.from_rows(["T1R T1G T1R"], goal="cluster"))
    '3x1'
    """
    return f"{level.cols}x{level.rows}"


def _where(record: Mapping[str, Any]) -> str:
    """The record's source, with ``#index`` past the first puzzle of a source."""
    index = record.get("index")
    return record["source"] if not index else f"{record['source']}#{index}"


def summary_line(level: Optional[Level], record: Mapping[str, Any], where: str) -> str:
    """One line: where, the size and goal kind, the verdict, the file's claims, the time."""
    size = f"{size_text(level)} {level.goal.kind}" if level is not None else "?"
    status = record["status"]
    stated = record.get("stated_answer") or {}
    stated_count = len(level.stated_solution or ()) if level is not None else None
    if status == "solved":
        count = record["moves_count"]
        text = f"solved in {count} move{'s' if count != 1 else ''}"
        if record.get("solved_by") == "stated answer":
            text += " by the file's stated solution (the search found no shorter plan in time)"
        if record["optimal"]:
            text += ", proven minimum"
        elif record.get("method") == "astar":
            text += " (A* baseline: an upper bound)"
        else:
            text += f", not proven minimal (lower bound {record['lower_bound']})"
    else:
        text = no_answer_text(record)
    if record.get("stated_minimum") is not None:
        text += "; " + stated_phrase(record["stated_minimum"], record.get("stated_minimum_match"), status=status,
                                     moves_count=record.get("moves_count"), optimal=record["optimal"], lower_bound=record["lower_bound"])
    if stated.get("valid") is False:
        text += f"; stated solution invalid ({stated['violations'][0] if stated.get('violations') else 'see verify'})"
    if stated.get("too_long"):
        text += f"; stated solution has {stated_count} moves, more than the stated minimum {record['stated_minimum']}"
    elif (stated.get("valid") and record.get("stated_minimum") is None and record["optimal"]
          and stated_count is not None and stated_count > record["moves_count"]):
        text += f"; stated solution has {stated_count} moves, more than the minimum (the file states no minimum)"
    return f"{where} ({size}): {text}, {record['seconds']:.3f}s"


def _paint(token: str, colour_letter: Optional[str], colour: bool) -> str:
    if not colour:
        return token
    if colour_letter is None:
        return f"\x1b[90m{token}\x1b[0m"
    code = ANSI.get(colour_letter) or EXTRA_ANSI[ord(colour_letter) % len(EXTRA_ANSI)]
    return f"\x1b[{code}m{token}\x1b[0m"


def board_lines(board, *, colour: bool) -> list[str]:
    """A board as text rows of tokens (``T1R``, ``###``), coloured on a terminal."""
    return [" ".join(_paint("###" if sq is None else str(sq), None if sq is None else sq.colour, colour) for sq in row) for row in board]


def goal_lines(level: Level, *, colour: bool) -> list[str]:
    if level.goal.colours is None:
        return [f"({level.goal.kind})"]
    return [" ".join(_paint(f"  {c}" if c else "  #", c, colour) for c in row) for row in level.goal.colours]


def picture(level: Level, moves: Optional[list[str]], *, colour: bool) -> str:
    """Start, goal and (with moves) the board reached, side by side, then the moves."""
    width = 4 * level.cols - 1
    columns = [("start", board_lines(level.start, colour=colour))]
    if level.goal.kind == "match":
        columns.append(("goal", goal_lines(level, colour=colour)))
    if moves is not None:
        reached = replay(level.start, [Move.parse(m) for m in moves])[-1]
        columns.append(("reached", board_lines(reached, colour=colour)))
    lines = ["   ".join(title.ljust(width) for title, _ in columns).rstrip()]
    for r in range(level.rows):
        parts = []
        for _, rows in columns:
            text = rows[r] if r < len(rows) else ""
            parts.append(text + " " * max(0, width - len(_ESCAPE.sub("", text))))
        lines.append("   ".join(parts).rstrip())
    if level.goal.kind != "match":
        lines.append(f"goal: {level.goal.kind}")
    if moves is not None:
        lines.append("moves: " + (" ".join(moves) if moves else "(none: the start meets the goal)"))
    return "\n".join(lines)


def show(level: Optional[Level], record: Mapping[str, Any], *, verb: str, colour: bool, where: Optional[str] = None) -> str:
    """The record for a person: its summary line (``where`` the puzzle's place, by default its
    source and ``#index``), and for ``solve`` the boards and the moves."""
    head = summary_line(level, record, _where(record) if where is None else where)
    if verb == "verify" or level is None:
        return head
    return head + "\n" + picture(level, record.get("moves"), colour=colour)
