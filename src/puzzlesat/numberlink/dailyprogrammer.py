"""Reading dailyprogrammer challenge #280 Numberlink puzzles: ``ncolours width height``, then
per colour ``(x, y) (x, y)`` (x the column, y the row, from 0); colours labelled 1..n.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import ParseError
from ..timing import Deadline
from .model import Puzzle
from .reading import _Board, _afresh, _check_size, _is_comment, _number, _signed


_DP_HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s+(\d+)\s*$")
_DP_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def _parse_dailyprogrammer(lines: Sequence[str], deadline: Deadline | None = None) -> list[Puzzle]:
    return [_dailyprogrammer_puzzle(lines, start, stop, _afresh(deadline, k))
            for k, (start, stop) in enumerate(_dailyprogrammer_blocks(lines))]


def _dailyprogrammer_blocks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first line index, end index) of each puzzle: each starts at a line that is not blank or
    a comment (its header, ``ncolours width height``, or what stands where one should) and
    runs to the next header line."""
    starts = []
    for i, line in enumerate(lines):
        if not line.strip() or _is_comment(line):
            continue
        if not starts or _DP_HEADER.match(line):
            starts.append(i)
    return list(zip(starts, starts[1:] + [len(lines)]))


def _dailyprogrammer_puzzle(lines: Sequence[str], i: int, n: int, deadline: Deadline | None = None) -> Puzzle:
    """The puzzle of lines ``i`` .. ``n - 1`` (line numbers in errors count from the input's
    start)."""
    line = lines[i]
    match = _DP_HEADER.match(line)
    if not match:
        raise ParseError("expected 'ncolours width height'", line=i + 1)
    colours, width, height = (_number(g) for g in match.groups())
    header_line = i + 1
    _check_size(width, height, header_line)
    if 2 * colours > width * height:
        raise ParseError(
            f"{colours} colours cannot fit on a {width}x{height} board (2 cells each)", line=header_line
        )
    board = _Board(width, height, header_line, deadline)
    i += 1
    for k in range(1, colours + 1):
        while i < n and not lines[i].strip():
            i += 1
        if i >= n:
            raise ParseError(
                f"header on line {header_line} says {colours} colours but only {k - 1} follow", line=n
            )
        points = list(_DP_POINT.finditer(lines[i]))
        rest = _DP_POINT.sub("", lines[i]).strip()
        if len(points) != 2 or rest:
            raise ParseError("expected '(x, y) (x, y)'", line=i + 1)
        for point in points:
            x, y = _signed(point.group(1)), _signed(point.group(2))
            board.add(str(k), (y, x), i + 1, point.start() + 1)
        i += 1
    while i < n and (not lines[i].strip() or _is_comment(lines[i])):
        i += 1
    if i < n and _DP_POINT.search(lines[i]):
        raise ParseError(f"header on line {header_line} says {colours} colours but more follow", line=i + 1)
    if i < n:
        raise ParseError("expected 'ncolours width height'", line=i + 1)
    return board.build()
