"""Writing a Numberlink puzzle in the text formats other than puzz.link URLs: native token rows
(also the answer grids) and the thomasahle, mzucker, dailyprogrammer, ADC and tokens formats.
"""

from __future__ import annotations

from typing import Callable

from ..errors import CannotExpress
from .detect import _detect
from .model import Puzzle
from .reading import _HEADER, _HUGE, _canonical, _is_comment, _number


def _grid_text(grid: list[list[str]], width: int, height: int) -> str:
    """Token rows (columns padded when labels differ in length); a ``W H`` header is added when
    the first row could be misread as a header or a comment."""
    size = max((len(token) for row in grid for token in row), default=1)
    if size == 1:
        rows = [" ".join(row) for row in grid]
    else:
        rows = [" ".join(token.ljust(size) for token in row).rstrip() for row in grid]
    first = rows[0]
    if _HEADER.match(first):
        rows[0] = " " + first  # two numbers in the first column would be a size line
    elif (
        _is_comment(first) or _is_comment(rows[-1])  # a first or last row starting with a blocked cell
        or (width == 1 and size > 1)  # "10" alone on a line would be two cells of a character grid
        or _detect(rows) != "native"  # a first row that looks like another format
    ):
        rows.insert(0, f"{width} {height}")
    return "\n".join(rows)


def _no_blocked(puzzle: Puzzle, fmt: str) -> None:
    if puzzle.blocked:
        raise CannotExpress(f"the {fmt} format cannot express blocked cells ({len(puzzle.blocked)} on this board)")


def _numbered(puzzle: Puzzle, *, first: int = 1) -> dict[str, int]:
    """Each label's number: the labels themselves when they are all numbers >= first (of at
    most 18 digits, which the readers give back as they are), else 1..K in reading order of the
    first endpoint."""
    labels = puzzle.labels
    if all(label.isdigit() and label.isascii() and _canonical(label) == label and _number(label) < _HUGE for label in labels):
        numbers = {label: _number(label) for label in labels}
        if all(value >= first for value in numbers.values()):
            return numbers
    order = sorted(puzzle.pairs, key=lambda pair: min(pair.start, pair.end))
    return {pair.label: k for k, pair in enumerate(order, 1)}


def _format_thomasahle(puzzle: Puzzle) -> str:
    bad = [label for label in puzzle.labels if len(label) != 1]
    if bad:
        raise CannotExpress(f"the thomasahle format needs one-character labels, not {bad[0]!r}")
    rows = ["".join(row) for row in puzzle.grid().tolist()]
    return f"{puzzle.width} {puzzle.height}\n" + "\n".join(rows) + "\n"


def _format_mzucker(puzzle: Puzzle) -> str:
    _no_blocked(puzzle, "mzucker")
    if puzzle.width != puzzle.height:
        raise CannotExpress(f"the mzucker format holds square boards only, not {puzzle.width}x{puzzle.height}")
    bad = [label for label in puzzle.labels if len(label) != 1 or not label.isalpha()]
    if bad:
        raise CannotExpress(f"the mzucker format needs one-letter labels, not {bad[0]!r}")
    return "\n".join("".join(row) for row in puzzle.grid().tolist()) + "\n"


def _format_dailyprogrammer(puzzle: Puzzle) -> str:
    """Colours in reading order of their first endpoint (the reader numbers them 1..n)."""
    _no_blocked(puzzle, "dailyprogrammer")
    lines = [f"{len(puzzle.pairs)} {puzzle.width} {puzzle.height}"]
    for pair in sorted(puzzle.pairs, key=lambda pair: pair.start):
        (r0, c0), (r1, c1) = pair.start, pair.end
        lines.append(f"({c0}, {r0}) ({c1}, {r1})")
    return "\n".join(lines) + "\n"


def _format_adc(puzzle: Puzzle) -> str:
    _no_blocked(puzzle, "ADC")
    number_of = _numbered(puzzle)
    lines = [f"SIZE {puzzle.width}X{puzzle.height}", f"LINE_NUM {len(puzzle.pairs)}"]
    for pair in sorted(puzzle.pairs, key=lambda pair: number_of[pair.label]):
        (r0, c0), (r1, c1) = pair.start, pair.end
        lines.append(f"LINE#{number_of[pair.label]} ({c0},{r0})-({c1},{r1})")
    return "\r\n".join(lines) + "\r\n"


def _format_tokens(puzzle: Puzzle) -> str:
    _no_blocked(puzzle, "tokens")
    number_of = _numbered(puzzle, first=1)  # 0 is the blank
    grid = [["0"] * puzzle.width for _ in range(puzzle.height)]
    for cell, label in puzzle.endpoints().items():
        grid[cell[0]][cell[1]] = str(number_of[label])
    size = max(len(token) for row in grid for token in row)
    body = "\n".join(" ".join(token.rjust(size) for token in row) for row in grid)
    return f"{puzzle.width} {puzzle.height}\n{body}\n0 0\n"


_WRITERS: dict[str, Callable[[Puzzle], str]] = {
    "thomasahle": _format_thomasahle,
    "mzucker": _format_mzucker,
    "dailyprogrammer": _format_dailyprogrammer,
    "adc": _format_adc,
    "tokens": _format_tokens,
}
