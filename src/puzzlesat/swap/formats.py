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

The reader of this grammar is :mod:`.parsing`; this module holds the entry points, detection
and the writer (the native text itself is :func:`.model.level_text`).

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
from dataclasses import replace
from pathlib import Path
from typing import Optional

from ..errors import ParseError, require_type
from ..textio import MAX_INPUT_BYTES, as_text, read_bytes, split_lines, with_file_name_hint
from .model import Level, level_text
from .parsing import SEPARATOR, _parse_levels


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
