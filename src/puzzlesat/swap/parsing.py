"""The reader of the Swap text format (the grammar is in :mod:`.formats`): the lines of a file cut
into drafts of levels (comments, start rows, goal, stated minimum and solution), each built into a
:class:`~.model.Level`, every refusal a ParseError naming line and column.

>>> [level.goal.kind for level in _parse_levels("start\\nT1R T1R\\ngoal cluster\\n---\\nstart\\nT1R T1G T1R\\ngoal touch", None)]
['cluster', 'touch']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..errors import InvalidPuzzle, ParseError, quoted
from ..textio import split_lines
from .model import COLOURS, FIGURE_DIRECTIONS, GOAL_WALL, MAX_CELLS, MAX_SCOPE, MAX_SIDE, WALL_TOKEN, Goal, Level, Move, Square


SEPARATOR = "---"
SQUARE_TOKEN = re.compile(r"^(.)([0-9]+)(.)$")
MOVE_TOKEN = re.compile(r"^([0-9]+),([0-9]+)>([0-9]+),([0-9]+)$")
TOKEN = re.compile(r"\S+")


def _tokens(line: str) -> list[tuple[int, str]]:
    """(1-based column, token) for each space-separated token."""
    return [(m.start() + 1, m.group()) for m in TOKEN.finditer(line)]


def _square(token: str, line: int, column: int, source: Optional[str]) -> Optional[Square]:
    if token == WALL_TOKEN:
        return None

    def fail(message: str) -> ParseError:
        return ParseError(message, line=line, column=column, source=source)

    if set(token) == {"#"}:
        raise fail(f"{quoted(token)}: a wall in the start grid is written ###")
    match = SQUARE_TOKEN.match(token)
    if not match:
        raise fail(f"{quoted(token)} is not a square <figure><scope><colour> such as T1R (or ### for a wall)")
    figure, scope_text, colour = match.groups()
    if figure not in FIGURE_DIRECTIONS:
        raise fail(f"unknown figure {figure!r} in {quoted(token)} (expected T tower, B bishop or Q queen)")
    digits = scope_text.lstrip("0")
    if not digits:
        raise fail(f"scope 0 in {quoted(token)}: a square moves at least 1 cell (scope 1-{MAX_SCOPE})")
    if len(digits) > 9 or int(digits) > MAX_SCOPE:  # (int() refuses more than 4,300 digits)
        raise fail(f"scope {digits if len(digits) <= 9 else quoted(digits, 9)} in {quoted(token)} is above {MAX_SCOPE}")
    scope = int(digits)
    if colour not in COLOURS:
        raise fail(f"unknown colour {colour!r} in {quoted(token)} (colours are letters A-Z)")
    return Square(figure, scope, colour)


@dataclass
class _Draft:
    """A level being read."""

    start_line: int
    comments: list[str]
    start: list[list[Optional[Square]]] = field(default_factory=list)
    start_row_lines: list[int] = field(default_factory=list)
    goal_kind: Optional[str] = None
    goal_line: int = 0
    goal_rows: list[list[Optional[str]]] = field(default_factory=list)
    goal_row_lines: list[int] = field(default_factory=list)
    minimum: Optional[int] = None
    solution: Optional[tuple[Move, ...]] = None


def _is_comment(tokens: list[tuple[int, str]]) -> bool:
    return bool(tokens) and tokens[0][1].startswith("#")


def _parse_levels(text: str, source: Optional[str], first_line: int = 1) -> list[Level]:
    """The levels of ``text``, whose first line is line ``first_line`` of its file."""
    levels: list[Level] = []
    pending_comments: list[str] = []
    draft: Optional[_Draft] = None
    state = "outside"  # outside | start | goal | after

    def fail(message: str, line: int, column: Optional[int] = None) -> ParseError:
        return ParseError(message, line=line, column=column, source=source)

    def finish(at_line: int) -> None:
        nonlocal draft
        if draft is None:
            return
        if state == "start":
            raise fail(f"the level starting at line {draft.start_line} has no 'goal' section", at_line)
        if state == "goal" and len(draft.goal_rows) < len(draft.start):
            raise fail(
                f"the goal grid has {len(draft.goal_rows)} row(s) but the start has {len(draft.start)}",
                at_line,
            )
        levels.append(_build(draft, source))
        draft = None

    lines = split_lines(text)
    for number, raw in enumerate(lines, start=first_line):
        if not raw or raw.isspace():  # (blank: no tokens)
            continue
        tokens = _tokens(raw)
        keyword = tokens[0][1].lower()

        if state == "goal":
            first = tokens[0][1]
            if not (first in (GOAL_WALL, WALL_TOKEN) or (len(first) == 1 and first.isalpha())) and first.startswith("#"):
                continue  # a comment line such as "#note" or "## note"
            assert draft is not None
            if keyword in ("start", SEPARATOR, "minimum", "solution", "moves", "goal"):
                raise fail(f"the goal grid has {len(draft.goal_rows)} row(s) but the start has {len(draft.start)}", number)
            row: list[Optional[str]] = []
            for column, token in tokens:
                if token in (GOAL_WALL, WALL_TOKEN):
                    row.append(None)
                elif len(token) == 1 and token in COLOURS:
                    row.append(token)
                else:
                    raise fail(f"unknown colour {quoted(token)} in the goal grid (colours are letters A-Z, # for a wall)", number, column)
            width = len(draft.start[0])
            if len(row) != width:
                raise fail(f"goal row has {len(row)} cells, the start rows have {width}", number, tokens[width][0] if len(row) > width else None)
            r = len(draft.goal_rows)
            for c, colour in enumerate(row):
                if (colour is None) != (draft.start[r][c] is None):
                    what = "a wall" if colour is None else "a colour"
                    other = "a square" if colour is None else "a wall"
                    raise fail(f"goal cell {r},{c} is {what} but the start has {other} there (walls must match)", number, tokens[c][0])
            draft.goal_rows.append(row)
            draft.goal_row_lines.append(number)
            if len(draft.goal_rows) == len(draft.start):
                state = "after"
            continue

        if state == "start":
            assert draft is not None
            if keyword == "goal":
                if not draft.start:
                    raise fail("the start grid has no rows", number)
                kind = "match" if len(tokens) == 1 else tokens[1][1].lower()
                if kind not in ("match", "cluster", "touch") or len(tokens) > 2:
                    column = tokens[1][0] if len(tokens) > 1 else None
                    raise fail(f"unknown goal {quoted(' '.join(t for _, t in tokens[1:]))} (write 'goal' then the colour grid, 'goal cluster' or 'goal touch')", number, column)
                draft.goal_kind = kind
                draft.goal_line = number
                state = "goal" if kind == "match" else "after"
                continue
            if keyword == "start":
                raise fail(f"the level starting at line {draft.start_line} has no 'goal' section", number)
            if _is_comment(tokens) and tokens[0][1] != WALL_TOKEN:
                continue
            if (len(draft.start) + 1) * len(tokens) > MAX_CELLS or max(len(draft.start) + 1, len(tokens)) > MAX_SIDE:
                raise fail(f"the board is absurdly large (more than {MAX_SIDE} rows or columns, or more than {MAX_CELLS} cells)", number)
            row_squares = [_square(token, number, column, source) for column, token in tokens]
            if draft.start and len(row_squares) != len(draft.start[0]):
                width = len(draft.start[0])
                column = tokens[width][0] if len(row_squares) > width else None
                raise fail(f"start row has {len(row_squares)} cells, the first row has {width} (ragged grid)", number, column)
            draft.start.append(row_squares)
            draft.start_row_lines.append(number)
            continue

        # outside a grid: comments, metadata, separators, the next level
        if keyword == "start":
            finish(number)
            if len(tokens) > 1:
                raise fail("'start' stands alone on its line; the grid follows on the next lines", number, tokens[1][0])
            draft = _Draft(start_line=number, comments=pending_comments)
            pending_comments = []
            state = "start"
            continue
        if tokens[0][1] == SEPARATOR:
            if len(tokens) > 1:
                raise fail("a separator line holds only ---", number, tokens[1][0])
            finish(number)
            state = "outside"
            continue
        if _is_comment(tokens):
            pending_comments.append(raw.strip()[1:].strip())
            continue
        if keyword in ("minimum", "solution", "moves"):
            if draft is None:
                raise fail(f"{keyword!r} line before any level (it follows the level's goal)", number)
            if keyword == "minimum":
                if len(tokens) != 2 or not re.fullmatch(r"[0-9]{1,9}", tokens[1][1]):
                    raise fail("'minimum' takes one whole number of moves", number, tokens[1][0] if len(tokens) > 1 else None)
                if draft.minimum is not None:
                    raise fail("a second 'minimum' line for the same level", number)
                draft.minimum = int(tokens[1][1])
            else:
                if draft.solution is not None:
                    raise fail("a second 'solution' line for the same level", number)
                moves = []
                for column, token in tokens[1:]:
                    match = MOVE_TOKEN.match(token)
                    if not match:
                        raise fail(f"move {quoted(token)} is not written r1,c1>r2,c2", number, column)
                    numbers = [x.lstrip("0") or "0" for x in match.groups()]
                    if max(len(x) for x in numbers) > 9:  # (int() refuses more than 4,300 digits)
                        raise fail(f"move {quoted(token)} names a row or column past any board", number, column)
                    r1, c1, r2, c2 = (int(x) for x in numbers)
                    moves.append(Move((r1, c1), (r2, c2)))
                draft.solution = tuple(moves)
            continue
        if keyword == "goal":
            raise fail("'goal' without a 'start' grid before it", number)
        if draft is None:
            raise fail(f"unexpected {quoted(tokens[0][1])}: a level begins with a line 'start'", number, tokens[0][0])
        raise fail(
            f"unexpected {quoted(tokens[0][1])} after the goal (expected 'minimum N', 'solution MOVES', a comment, '---' or the next 'start')",
            number,
            tokens[0][0],
        )

    finish(len(lines) + first_line)
    if not levels:
        raise ParseError("no swap level in the input (a level begins with a line 'start')", source=source)
    return levels


def _build(draft: _Draft, source: Optional[str]) -> Level:
    if draft.goal_kind == "match":
        start_colours = sorted(sq.colour for row in draft.start for sq in row if sq is not None)
        goal_colours = sorted(c for row in draft.goal_rows for c in row if c is not None)
        if start_colours != goal_colours:
            diff = _count_difference(start_colours, goal_colours)
            raise ParseError(f"the goal's colour counts differ from the start's: {diff}", line=draft.goal_line, source=source)
        goal = Goal.match(draft.goal_rows)
    else:
        assert draft.goal_kind is not None
        goal = Goal(draft.goal_kind)
    try:
        return Level(
            tuple(tuple(row) for row in draft.start),
            goal,
            stated_minimum=draft.minimum,
            stated_solution=draft.solution,
            comments=tuple(draft.comments),
        )
    except InvalidPuzzle as exc:  # pragma: no cover (the parser checks everything first)
        raise ParseError(str(exc), line=draft.start_line, source=source) from None


def _count_difference(start: list[str], goal: list[str]) -> str:
    parts = []
    for colour in sorted(set(start) | set(goal)):
        have, want = start.count(colour), goal.count(colour)
        if have != want:
            parts.append(f"{colour} {have} in start, {want} in goal")
    return "; ".join(parts)
