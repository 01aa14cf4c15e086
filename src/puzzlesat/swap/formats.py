"""The Swap text format: read and write levels, with errors that name line and column.

Grammar (keywords are case-insensitive, tokens are separated by spaces, blank lines are ignored)::

    file     := level ( '---'? level )*
    level    := comment* 'start' NL startrow+ goal meta*
    startrow := token+            token: <figure><scope><colour> (T/B/Q, 1-9, A-Z) or ### (wall)
    goal     := 'goal' ['match'] NL goalrow{rows}   goalrow: colour letters, # at the walls
              | 'goal cluster' | 'goal touch'
    meta     := 'minimum' N                          the best move count the file claims
              | ('solution' | 'moves') move*         moves r1,c1>r2,c2 (0-based, mover first)
    comment  := '#' text

Several levels per file: each level begins with its own ``start`` line; a ``---`` line between
levels is optional (``format_all`` writes one). Comment lines before a level's ``start`` belong
to that level and are written back by :func:`format`. Inside the start grid a line whose first
token is ``###`` is a row, any other line starting with ``#`` a comment; the goal grid is read
as exactly as many rows as the start has (a row may start with the wall ``#``), so comments
cannot sit inside it. ``minimum`` and ``solution`` lines are metadata: kept on the level
(``stated_minimum``, ``stated_solution``) for comparison, never trusted.

>>> text = '''# a tiny level
... start
... T1R B1G
... T1G T1R
... goal
... R G
... R G
... minimum 1
... '''
>>> level = parse(text)
>>> level.stated_minimum, level.comments
(1, ('a tiny level',))
>>> parse(format(level)) == level and format(parse(format(level))) == format(level)
True
>>> parse("start\\nT1R X1G\\ngoal cluster")
Traceback (most recent call last):
...
puzzlesat.errors.ParseError: 2:5: unknown figure 'X' in 'X1G' (expected T tower, B bishop or Q queen)
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from ..errors import InvalidPuzzle, ParseError, quoted, require_type
from ..textio import MAX_INPUT_BYTES, as_text, read_bytes, split_lines, with_file_name_hint
from .model import (
    COLOURS,
    FIGURE_DIRECTIONS,
    GOAL_WALL,
    MAX_CELLS,
    MAX_SCOPE,
    MAX_SIDE,
    WALL_TOKEN,
    Goal,
    Level,
    Move,
    Square,
    level_text,
)

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


FORMATS = ("native",)  # the one Swap format; "swap" is accepted as its other name


def parse_all(text: str, *, fmt: Optional[str] = None, source: Optional[str] = None) -> list[Level]:
    """Every level in ``text``, in order (``fmt``: None or "native", the only Swap format).
    Raises ParseError (line, column) on anything wrong, including input with no level at all.
    With ``source`` each level is named after it (``"pack.swap#3"`` in a file of several).

    >>> text = "start\\nT1R T1G\\ngoal\\nG R\\n---\\nstart\\nT1R T1G T1R\\ngoal cluster"
    >>> [(level.goal.kind, level.name) for level in parse_all(text, source="pack.swap")]
    [('match', 'pack.swap#0'), ('cluster', 'pack.swap#1')]
    """
    if fmt is not None and (not isinstance(fmt, str) or fmt.strip().lower() not in ("native", "swap")):
        raise ParseError(f"swap reads its native format only, not {fmt!r}", source=source)
    try:
        levels = _parse_levels(as_text(text), source)
    except ParseError as error:
        raise with_file_name_hint(error, text) from None
    if source:
        base = os.path.basename(source.rstrip("/\\")) or source
        names = [base] if len(levels) == 1 else [f"{base}#{k}" for k in range(len(levels))]
        levels = [level if level.name else replace(level, name=name) for level, name in zip(levels, names)]
    return levels


def parse_each(text: str, *, fmt: Optional[str] = None, source: Optional[str] = None) -> list[Level | ParseError]:
    """Like :func:`parse_all`, but in a file of several levels (each from its own ``start``
    line, ``---`` lines between them or not) a level that cannot be read is its
    :class:`ParseError` in the list (with its own line numbers), and the others are still read.
    A file of one level that cannot be read raises.

    >>> text = "start\\nT1R T1G\\ngoal\\nG R\\n---\\nstart\\nT1R X1G\\ngoal\\nG R\\n---\\nstart\\nT1R T1G T1R\\ngoal cluster"
    >>> [type(item).__name__ for item in parse_each(text)]
    ['Level', 'ParseError', 'Level']
    >>> [type(item).__name__ for item in parse_each(text.replace("---\\n", ""))]
    ['Level', 'ParseError', 'Level']
    """
    try:
        return list(parse_all(text, fmt=fmt, source=source))
    except ParseError as whole:
        failure = whole
    lines = split_lines(as_text(text))
    spans = []  # (first line, end) of each piece: cut at a separator, or before a second 'start' line
    begin, has_start = 0, False
    for k in itertools.compress(itertools.count(), lines):  # (empty lines skipped at C speed)
        line = lines[k].strip()
        if line == SEPARATOR:
            spans.append((begin, k))
            begin, has_start = k + 1, False
        elif line.lower() == "start":
            if has_start:  # (comment lines just above it stay with the level before)
                spans.append((begin, k))
                begin = k
            has_start = True
    spans.append((begin, len(lines)))
    if len(spans) < 2:
        raise failure
    pieces: list[Level | ParseError] = []
    for begin, end in spans:
        if not any(line.strip() for line in lines[begin:end]):
            continue
        try:  # (line numbers stay the file's own)
            pieces.extend(_parse_levels("\n".join(lines[begin:end]), source, first_line=begin + 1))
        except ParseError as error:
            pieces.append(error)
    if len(pieces) < 2:
        raise failure
    base = os.path.basename(source.rstrip("/\\")) or source if source else ""
    return [item if isinstance(item, ParseError) or item.name or not base else replace(item, name=f"{base}#{k}")
            for k, item in enumerate(pieces)]


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


def parse(text: str, *, fmt: Optional[str] = None, source: Optional[str] = None) -> Level:
    """The one level in ``text`` (ParseError when there is none or more than one).

    >>> level = parse("start\\nT1R T1G\\ngoal\\nG R")
    >>> level.rows, level.cols, level.goal.colours
    (1, 2, (('G', 'R'),))
    """
    levels = parse_all(text, fmt=fmt, source=source)
    if len(levels) != 1:
        raise ParseError(f"expected one level, found {len(levels)} (use parse_all)", source=source)
    return levels[0]


def read(path: str | Path, *, fmt: Optional[str] = None, max_bytes: int = MAX_INPUT_BYTES) -> list[Level]:
    """Every level in a ``.swap`` file (ParseError naming the file on bad input). At most
    ``max_bytes`` are read (:data:`puzzlesat.textio.MAX_INPUT_BYTES`); devices are refused.

    A file of one level names it after the file.

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "tiny.swap")
    >>> with open(path, "w") as handle:
    ...     _ = handle.write("start\\nT1R T1G\\ngoal\\nG R\\nminimum 1\\n")
    >>> [(level.name, level.stated_minimum) for level in read(path)]
    [('tiny.swap', 1)]
    >>> folder.cleanup()
    """
    data = read_bytes(path, max_bytes=max_bytes)  # (decoded as the other families' files are: UTF-16, cp932, ...)
    return parse_all(data, fmt=fmt, source=str(path))


format_level = level_text  # (the native writer lives beside the Level it writes)


def format(level: Level, *, fmt: str = "native") -> str:  # noqa: A001 (the family verb)
    """The level as text in ``fmt`` (``"native"``, also named ``"swap"``: the one Swap format);
    ``parse(format(level)) == level``.

    >>> print(format(Level.from_rows(["T1R B1G"], goal=["G R"])), end="")
    start
    T1R B1G
    goal
    G R
    """
    require_type(level, Level, "level", "parse text with swap.parse")
    if not isinstance(fmt, str) or fmt.strip().lower() not in ("native", "swap"):
        raise ValueError(f"swap writes its native format only, not {fmt!r}")
    return format_level(level)


def detect_format(text: str) -> Optional[str]:
    """The format of ``text``: ``"native"`` when it looks like a Swap level (a ``start`` line,
    a ``goal`` line and squares such as ``T1R``), else None.

    >>> detect_format("start\\nT1R T1G\\ngoal\\nG R\\n"), detect_format("A.B\\n")
    ('native', None)
    """
    return "native" if sniff(as_text(text)) else None


_START_LINE = re.compile(r"(?im)^[ \t]*start[ \t]*$")
_GOAL_LINE = re.compile(r"(?im)^[ \t]*goal\b")
_SQUARE = re.compile(r"(?<!\S)[TBQ][0-9][A-Z](?!\S)", re.IGNORECASE)  # (t1r: a Swap level, refused by its parser)


def sniff(text: str) -> bool:
    """Whether ``text`` is a Swap level: a line ``start``, a line ``goal ...`` and square tokens
    such as ``T1R`` (in any case, so that lower-case ``t1r`` is refused by the Swap reader,
    saying why; lines end in ``\\n``, ``\\r\\n`` or ``\\r``)."""
    return refusal(text) is None


def refusal(text: str) -> str | None:
    """Why ``text`` is not a Swap level (for the error that no family reads it), or None.

    >>> refusal("start\\nT1R T1G\\n")
    "no 'goal' line"
    """
    head = text[:20_000].replace("\r\n", "\n").replace("\r", "\n")
    missing = [what for what, found in (("a 'start' line", _START_LINE.search(head)), ("a 'goal' line", _GOAL_LINE.search(head)),
                                        ("squares such as T1R", _SQUARE.search(head))) if not found]
    if not missing:
        return None
    return "no " + " and no ".join(what.removeprefix("a ") for what in missing)


def format_all(levels: list[Level]) -> str:
    """Several levels, separated by ``---`` lines; :func:`parse_all` reads them back.

    >>> levels = [Level.from_rows(["T1R B1G"], goal=["G R"]), Level.from_rows(["T1R T1G T1R"])]
    >>> print(format_all(levels), end="")
    start
    T1R B1G
    goal
    G R
    ---
    start
    T1R T1G T1R
    goal cluster
    >>> parse_all(format_all(levels)) == levels
    True
    """
    return f"{SEPARATOR}\n".join(format(level) for level in levels)
