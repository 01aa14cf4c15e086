"""What every reader of Roller levels shares: the start conventions, size checks, a Level built
with its errors as ParseErrors at a line, default names, and JSON / line-number helpers.

>>> implied_start(["#..", ".#."], "bottom-left", line=1), default_name("pack.roller", 2, 5)
((1, 0), 'pack.roller#2')
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..errors import InvalidPuzzle, ParseError
from ..textio import MAX_INPUT_BYTES, as_text, read_bytes
from .model import MAX_CELLS, START_RULES, Level, start_cell

DEFAULT_START = {"tmx": "bottom-left", "herbou": "row-major", "rollersplat": "row-major"}  # formats that store no start


def check_start_rule(start: str | None) -> None:
    if start is not None and start not in START_RULES:
        raise ValueError(f"start must be one of {', '.join(START_RULES)}, not {start!r}")


def check_size(width: int, height: int, line: int | None = None) -> None:
    if width * height > MAX_CELLS:
        raise ParseError(f"board size {width}x{height} is absurd (more than {MAX_CELLS} cells)", line=line)
    if width < 0 or height < 0:
        raise ParseError(f"board size {width}x{height} is negative", line=line)
    if width < 1 or height < 1:
        raise ParseError("empty level: the board has no cells", line=line)


def make_level(rows: list[str], start: tuple[int, int], *, line: int | None = None, **metadata: Any) -> Level:
    """Build a Level, turning model errors into ParseErrors at ``line``."""
    try:
        return Level(tuple(rows), start, **metadata)
    except InvalidPuzzle as exc:
        raise ParseError(str(exc), line=line) from None


def implied_start(rows: list[str], rule: str, *, line: int | None) -> tuple[int, int]:
    cell = start_cell(rows, rule)
    if cell is None:
        raise ParseError("no floor cell, so no start: the level is empty", line=line)
    return cell


def lf_line_ends(text: str) -> str:
    """``text`` with CRLF and lone CR line ends (old Mac editors) written as LF, for the readers
    that count lines by LF (JSON, JavaScript): a // comment then ends at its line end, and an
    error names the line an editor shows."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def default_name(source: str | None, index: int, count: int) -> str:
    base = Path(source).name if source else ""
    if count <= 1:
        return base
    return f"{base}#{index}" if base else f"#{index}"


def json_error(exc: json.JSONDecodeError) -> ParseError:
    return ParseError(f"malformed JSON: {exc.msg}", line=exc.lineno, column=exc.colno)


def json_number(digits: str) -> int | float:
    """A JSON integer as the levels' checks see it: too long for ``int`` (Python refuses more than
    4,300 digits, with a ValueError that is no JSONDecodeError) it stays a number, but no whole
    one (infinity), so it is refused as any other value that is not a tile, size or move count."""
    return int(digits) if len(digits) <= 18 else float(digits)


def blank_js_comments(text: str) -> str:
    """The text with // and /* */ comments replaced by spaces (newlines kept, so offsets hold)."""
    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group())
    return re.sub(r"//[^\n]*|/\*.*?\*/", blank, text, flags=re.DOTALL)


def read_text(path: str | Path, *, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """The decoded text of a file of at most ``max_bytes`` (devices and sockets refused)."""
    return as_text(read_bytes(path, max_bytes=max_bytes))
