"""Reading the grid formats of Numberlink: native, thomasahle, mzucker and tokens (the grammar is in
:mod:`puzzlesat.numberlink.formats`). A text is cut into blocks of rows, each under an optional
size line, and each block read into a Puzzle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..errors import NotAPuzzle, ParseError, TimeLimitReached, quoted
from ..timing import Deadline
from .model import BLOCKED, EMPTY, Puzzle
from .reading import _COMMA_HEADER, _HEADER, _SINGLE_NUMBER, _Board, _Drawing, _LabelThrice, _afresh, _canonical, _check_size, _is_comment, _number


@dataclass
class _Block:
    """The lines of one grid: an optional header (width, height, line) and its rows."""

    header: tuple[int, int, int] | None
    rows: list[tuple[int, str]]
    comment_above: tuple[int, str] | None = None  # a '# ...' line just above, as wide as a row


def _split_blocks(lines: Sequence[str], *, header_required: bool, comma_header: bool, each: bool = False) -> list:
    """Cut the lines into grids (see the module docstring for the grammar). With ``each``, a
    grid whose layout is wrong (its header's row count, a missing header) is its ParseError in
    the list, and the cutting goes on after the next blank line."""
    blocks: list = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip() or _is_comment(line):
            i += 1
            continue
        if not each:
            i = _next_block(lines, i, blocks, header_required=header_required, comma_header=comma_header)
            continue
        try:
            i = _next_block(lines, i, blocks, header_required=header_required, comma_header=comma_header)
        except ParseError as error:
            blocks.append(error)
            while i < n and lines[i].strip():  # skip to the blank line that ends this grid
                i += 1
            if error.line is not None and error.line - 1 > i:
                i = error.line - 1
            while i < n and lines[i].strip():
                i += 1
    return blocks


def _next_block(lines: Sequence[str], i: int, blocks: list, *, header_required: bool, comma_header: bool) -> int:
    """Read the grid that starts on line index ``i`` into ``blocks``; the index after it
    (len(lines) when a "0 0" line ends the input)."""
    n = len(lines)
    line = lines[i]
    match = _HEADER.match(line)
    comma = _COMMA_HEADER.match(line) if comma_header and not match else None
    two_lines = (
        comma_header and not match and not comma and i + 1 < n
        and _SINGLE_NUMBER.match(line) and _SINGLE_NUMBER.match(lines[i + 1])
    )
    if match or comma or two_lines:
        header_lines = 1
        if match:
            width, height = _number(match.group(1)), _number(match.group(2))
        elif comma:
            height, width = _number(comma.group(1)), _number(comma.group(2))
        else:  # Copris: rows and columns on two lines
            height, width = _number(line.strip()), _number(lines[i + 1].strip())
            header_lines = 2
        if width == 0 and height == 0:
            return n  # "0 0" ends the input
        _check_size(width, height, i + 1)
        rows = []
        for k in range(height):
            j = i + header_lines + k
            if j >= n or not lines[j].strip():
                found = k
                raise ParseError(
                    f"header on line {i + 1} says {height} rows but only {found} follow",
                    line=j + 1 if j < n else n,
                )
            rows.append((j + 1, lines[j]))
        i += header_lines + height
        if i < n and lines[i].strip() and not _is_comment(lines[i]) and not _HEADER.match(lines[i]):
            raise ParseError(
                f"header on line {rows[0][0] - header_lines} says {height} rows but more follow "
                "(a blank line must end a grid)",
                line=i + 1,
            )
        blocks.append(_Block((width, height, rows[0][0] - header_lines), rows))
        return i
    if header_required:
        raise ParseError("expected a 'W H' size line before the grid", line=i + 1)
    rows = []
    while i < n and lines[i].strip():
        rows.append((i + 1, lines[i]))
        i += 1
    while len(rows) > 1 and _is_comment(rows[-1][1]) and not _fits(rows[-1][1], rows[0][1]):
        rows.pop()  # trailing comment lines (a '# . A' row as wide as the first row stays a row)
    above = rows[0][0] - 2
    comment_above = None  # a first row '# 1 . 2' (a blocked cell first) reads as a comment line
    if above >= 0 and _is_comment(lines[above]) and _fits(lines[above], rows[0][1]):
        comment_above = (above + 1, lines[above].strip())
    blocks.append(_Block(None, rows, comment_above))
    return i


def _fits(line: str, first_row: str) -> bool:
    """Could ``line`` be a row of the grid that ``first_row`` starts (as many tokens)?"""
    return len(line.split()) == len(first_row.split()) > 1


_NOT_EMPTY = re.compile(r"[^.]")
_TOKEN = re.compile(r"\S+")


def _grid_puzzle(block: _Block, fmt: str, board_type: type[_Board] | None = None, deadline: Deadline | None = None) -> Puzzle:
    """One grid block to a Puzzle; ``fmt`` selects how cells are read (``board_type`` collects
    them: :class:`_Drawing` to ask whether the grid is a drawn answer)."""
    header = block.header
    first_line = header[2] if header else block.rows[0][0]
    token_mode = fmt == "tokens" or (
        fmt == "native"
        and (any(len(row.split()) > 1 for _, row in block.rows) or (header is not None and header[0] == 1))
    )  # a 1-wide grid with a size line holds one token per row (a label may be "10")
    if header:
        width, height = header[0], header[1]
        what = f"header on line {header[2]}"
    else:
        line0, row0 = block.rows[0]
        if token_mode:
            width = len(row0.split())
        elif fmt == "mzucker":
            width = len(block.rows)  # square
        else:
            width = len(row0.rstrip() if fmt == "thomasahle" else row0.strip())
        height = len(block.rows)
        what = f"first row (line {line0})"
    board = (board_type or _Board)(width, height, first_line, deadline)
    for r, (number, row) in enumerate(block.rows):
        if token_mode:
            tokens = row.split()
            if len(tokens) != width:
                raise ParseError(f"row has {len(tokens)} cells but the {what} gives {width} (ragged rows)", line=number)
            if fmt == "tokens":  # 0 (or 00 ...) and - are blank
                used = [c for c, token in enumerate(tokens) if token != "-" and token.strip("0")]
            else:
                used = [c for c, token in enumerate(tokens) if token != EMPTY]
            columns = [m.start() + 1 for m in _TOKEN.finditer(row)] if used else []
            for c in used:
                token, column = tokens[c], columns[c]
                if fmt == "tokens":
                    if not token.isdigit() or not token.isascii():
                        raise ParseError(f"unknown symbol {quoted(token)} (expected a number, 0 or -)", line=number, column=column)
                    board.add(_canonical(token), (r, c), number, column)
                elif token == BLOCKED:
                    board.block((r, c))
                else:
                    board.add(token, (r, c), number, column)
            continue
        if fmt in ("thomasahle", "mzucker"):  # every character is a cell (but trailing blanks)
            cells, offset = row, 0
            if len(cells) != width and len(cells.rstrip()) == width:
                cells = cells.rstrip()
        else:
            stripped = row.strip()
            offset = len(row) - len(row.lstrip())
            cells = stripped
        if len(cells) != width:
            raise ParseError(f"row has {len(cells)} cells but the {what} gives {width} (ragged rows)", line=number)
        for match in _NOT_EMPTY.finditer(cells):
            c = match.start()
            ch = match.group()
            if fmt == "mzucker":
                if ch.isalpha():
                    board.add(ch, (r, c), number, offset + c + 1)
            elif ch == BLOCKED:
                board.block((r, c))
            elif ch.isspace():
                raise ParseError(f"unknown symbol {ch!r} inside a row", line=number, column=offset + c + 1)
            else:
                board.add(ch, (r, c), number, offset + c + 1)
    return board.build()


def _parse_grids(lines: Sequence[str], fmt: str, deadline: Deadline | None = None) -> list[Puzzle]:
    blocks = _split_blocks(
        lines, header_required=fmt in ("thomasahle", "tokens"), comma_header=fmt == "tokens"
    )
    if fmt == "mzucker":
        for block in blocks:
            first = block.rows[0][1]
            if block.header is None and len(block.rows) not in (len(first), len(first.rstrip())):
                raise ParseError(
                    f"mzucker grids are square: {len(block.rows[0][1].rstrip())} columns but {len(block.rows)} rows",
                    line=block.rows[0][0],
                )
    return [_grid_puzzle_or_hint(block, fmt, _afresh(deadline, k)) for k, block in enumerate(blocks)]


def _grid_puzzle_or_hint(block: _Block, fmt: str, deadline: Deadline | None = None) -> Puzzle:
    """:func:`_grid_puzzle`, its error naming a comment line that may have been the grid's
    first row (a row of tokens that starts with a blocked cell, ``# 1 . 2``)."""
    try:
        return _grid_puzzle(block, fmt, deadline=deadline)
    except ParseError as error:
        if isinstance(error, _LabelThrice):
            try:  # a drawn answer (mzucker's hints/*.txt): not a puzzle, skipped in a folder
                _grid_puzzle(block, fmt, _Drawing)
            except NotAPuzzle as drawn:
                raise NotAPuzzle(f"{error.message}; {drawn.message}", line=error.line, column=error.column) from None
            except ParseError:
                pass
        if block.comment_above is None or isinstance(error, TimeLimitReached):
            raise
        number, text = block.comment_above
        raise type(error)(
            f"{error.message} (line {number}, {quoted(text)}, was read as a comment; if it is the grid's "
            "first row, starting with a blocked cell, put a 'W H' size line above the grid)",
            line=error.line, column=error.column, source=error.source,
        ) from None
