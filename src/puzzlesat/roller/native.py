"""Reading the native Roller text (``.roller`` files; the grammar is in :mod:`.formats`): blocks of
rows, ``#`` wall, ``.`` floor, ``o`` the start, under comment lines that may name the level and
give its par and answer.

>>> [level.name for level in parse_native("# name: one\\n###\\n#o#\\n#.#\\n###\\n\\n# name: two\\n####\\n#o.#\\n####")]
['one', 'two']
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..errors import ParseError, quoted
from ..textio import split_lines
from .model import BALL, FLOOR, MAX_CELLS, MOVES, WALL, Level
from .reading import default_name, make_level


METADATA_RE = re.compile(r"^#\s+(name|par|answer)\s*:\s*(.*?)\s*$", re.IGNORECASE)


def _is_comment(line: str) -> bool:
    return line.startswith("#") and len(line) > 1 and line[1] in " \t"


def _blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Non-blank lines grouped into blocks separated by blank lines, with 1-based line numbers."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    previous = -2
    for index in itertools.compress(itertools.count(), lines):  # (empty lines skipped at C speed: they end a block too)
        line = lines[index].rstrip()
        if current and (not line or index != previous + 1):
            blocks.append(current)
            current = []
        if line:
            current.append((index + 1, line))
        previous = index
    if current:
        blocks.append(current)
    return blocks


def _parse_grid_block(
    block: list[tuple[int, str]],
    *,
    symbols: dict[str, str],
    start_symbol: str,
    fmt: str,
) -> tuple[list[str], tuple[int, int] | None, dict[str, tuple[str, int]], int]:
    """Read one block of a text grid: (board rows over '#'/'.', start, metadata as key -> (value,
    line), first row line).

    ``symbols`` maps each accepted character to WALL, FLOOR or BALL.
    """
    metadata: dict[str, tuple[str, int]] = {}  # key -> (value, line)
    rows: list[str] = []
    row_lines: list[int] = []
    start: tuple[int, int] | None = None
    start_where: tuple[int, int] | None = None
    title_where: tuple[int, int, str] | None = None
    widest = 0
    for number, line in block:
        if _is_comment(line):
            match = METADATA_RE.match(line)
            if match:
                key = match.group(1).lower()
                if key in metadata:  # two pars (or names, answers): which one the file claims is unclear
                    raise ParseError(f"a second '# {key}:' line for the same level (the first is line {metadata[key][1]})",
                                     line=number)
                metadata[key] = (match.group(2), number)
            continue
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        if not rows and text[0] not in symbols:
            metadata.setdefault("title", (text, number))  # a title line before the grid
            title_where = title_where or (number, indent + 1, text[0])
            continue
        cells = []
        for i, ch in enumerate(text):
            column = indent + i + 1
            kind = symbols.get(ch)
            if kind is None:
                symbol = "a space" if ch.isspace() else repr(ch)
                raise ParseError(f"unknown symbol {symbol} in a {fmt} grid (accepted: {' '.join(repr(s) for s in symbols)})",
                                 line=number, column=column)
            if kind == BALL:
                if start is not None:
                    assert start_where is not None
                    raise ParseError(f"two starts: {start_symbol!r} at line {start_where[0]} column {start_where[1]} and here",
                                     line=number, column=column)
                start = (len(rows), i)
                start_where = (number, column)
                kind = FLOOR
            cells.append(kind)
        rows.append("".join(cells))
        row_lines.append(number)
        widest = max(widest, len(cells))
        if len(rows) * widest > MAX_CELLS:
            raise ParseError(f"board is absurdly large (more than {MAX_CELLS} cells)", line=number)
    if not rows:
        if title_where is not None:
            number, column, ch = title_where
            raise ParseError(f"no grid rows: this line starts with {ch!r}, not a {fmt} grid symbol "
                             f"({' '.join(repr(s) for s in symbols)})", line=number, column=column)
        raise ParseError("empty level: comments but no grid rows", line=block[0][0])
    width = max(len(row) for row in rows)
    for row, number in zip(rows, row_lines):
        if len(row) < width and row[-1] != WALL:
            raise ParseError(f"ragged row: {len(row)} cells where the widest row has {width}, and it ends in floor "
                             f"(pad short rows with '#')", line=number, column=len(row) + 1)
    rows = [row.ljust(width, WALL) for row in rows]
    return rows, start, metadata, row_lines[0]


def _metadata_fields(metadata: dict[str, tuple[str, int]]) -> dict[str, Any]:
    """Level fields from ``# name:``, ``# par:`` and ``# answer:`` lines (errors name their line)."""
    fields: dict[str, Any] = {}
    if "name" in metadata:
        fields["name"] = metadata["name"][0]
    elif "title" in metadata:
        fields["name"] = metadata["title"][0]
    if "par" in metadata:
        par, line = metadata["par"]
        try:
            fields["par"] = int(par)
        except ValueError:
            raise ParseError(f"par must be a whole number, not {quoted(par)}", line=line) from None
        if fields["par"] < 0:
            raise ParseError(f"par must be a whole number of moves, zero or more, not {quoted(par)}", line=line)
    if "answer" in metadata:
        text, line = metadata["answer"]
        answer = re.sub(r"[\s,]", "", text).upper()
        if answer.strip(MOVES):
            raise ParseError(f"answer {quoted(text)} holds a letter other than U, D, L, R", line=line)
        fields["known_answer"] = answer
    return fields


NATIVE_SYMBOLS = {WALL: WALL, FLOOR: FLOOR, BALL: BALL}


def parse_native(text: str, *, source: str | None = None, each: bool = False) -> list[Level]:
    """Every level of a native text (blocks separated by blank lines). ``each``: a level that
    cannot be read is its ParseError in the list (see :func:`parse_each`)."""
    blocks = _native_blocks(text)
    levels: list = []
    for index, block in enumerate(blocks):
        try:
            levels.append(_native_level(block, index, len(blocks), source))
        except ParseError as error:
            if not each:
                raise
            levels.append(error)
    return levels


def _native_blocks(text: str) -> list:
    """The level blocks of a native text. A block of comments only (a file's header, a note
    between levels, a trailing note) is not a level and is dropped; a text of comments only
    keeps its first block, which is then an error naming it.

    >>> len(_native_blocks("# my pack\\n\\n###\\n#o#\\n###\\n\\n# the end"))
    1
    """
    blocks = _blocks(split_lines(text))
    if not blocks:
        raise ParseError("empty input: no level found")
    levels = [block for block in blocks if not all(_is_comment(line) for _, line in block)]
    return levels or blocks[:1]


def _native_level(block: list, index: int, count: int, source: str | None) -> Level:
    rows, start, metadata, first = _parse_grid_block(block, symbols=NATIVE_SYMBOLS, start_symbol=BALL, fmt="native")
    if start is None:
        raise ParseError("no start: the grid has no 'o'", line=first)
    fields = _metadata_fields(metadata)
    fields.setdefault("name", default_name(source, index, count))
    return make_level(rows, start, line=first, **fields)
