"""Reading and writing Numberlink answers: the native answer grid (every path cell holds its label) and
ADC answers, and the check that a drawing is an answer to its puzzle, at the cell that shows it is not.

>>> from puzzlesat.numberlink.model import Puzzle, Solution
>>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
>>> print(format_solution(puzzle, parse_solution("AAA\\nBBB", puzzle)))
A A A
B B B
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..errors import ParseError, quoted, require_type, shown
from ..results import solution_hint
from ..textio import as_text
from .adc import _adc_answer_rows
from .grids import _split_blocks
from .model import BLOCKED, EMPTY, ONE_LAYER_HINT, Cell, NotAPath, Puzzle, Solution, TraceCapped
from .reading import _first_content, _lines
from .writers import _grid_text, _no_blocked, _numbered


def format_solution(puzzle: Puzzle, solution: Solution, *, fmt: str = "native") -> str:
    """The answer grid: ``native`` (every path cell holds its label, ``.`` empty, ``#`` blocked)
    or ``adc`` (``SIZE WxH`` then rows of two-digit line numbers, ``00`` unused; labels
    numbered as :func:`format` numbers them for ADC problems).

    >>> p = Puzzle.from_rows(["A.A"])
    >>> print(format_solution(p, Solution.from_rows(p, ["AAA"])))
    A A A
    >>> print(format_solution(p, Solution.from_rows(p, ["AAA"]), fmt="adc"))
    SIZE 3X1
    01,01,01
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    require_type(solution, Solution, "solution", solution_hint(solution))
    if fmt == "native":
        return _grid_text(solution.to_rows(puzzle), puzzle.width, puzzle.height)
    if fmt == "adc":
        _no_blocked(puzzle, "ADC")
        number_of = _numbered(puzzle)
        width = max(2, len(str(max(number_of.values(), default=0))))
        grid = [["0" * width] * puzzle.width for _ in range(puzzle.height)]
        for label, cells in solution.paths:
            for r, c in cells:
                grid[r][c] = str(number_of[label]).zfill(width)
        rows = [f"SIZE {puzzle.width}X{puzzle.height}"] + [",".join(row) for row in grid]
        return "\n".join(rows)
    raise ValueError(f"cannot write answers in format {fmt!r}; writable: native, adc")


def parse_solution(text: str | bytes, puzzle: Puzzle, *, fmt: str | None = None) -> Solution:
    """An answer to ``puzzle``: a native answer grid (every path cell holds its label; also the
    mzucker full-colour hints) or an ADC answer (``SIZE``, optional ``LAYER 1``, rows of
    comma-separated line numbers, ``00`` unused; a line number names the label that
    :func:`format_solution` numbers so, so a lettered puzzle's ADC answer reads back).
    ``fmt``: None (detect), "native" or "adc". An answer that is none is refused at the cell
    that shows it (ParseError with its line and column).

    >>> from puzzlesat.numberlink.formats import parse
    >>> p = parse("A.B\\nA.B")
    >>> parse_solution("A.B\\nA.B", p).path("B")
    ((0, 2), (1, 2))
    >>> parse_solution("SIZE 3X2\\n01,00,02\\n01,00,02", parse("SIZE 3X2\\nLINE#1 (0,0)-(0,1)\\nLINE#2 (2,0)-(2,1)")).path("2")
    ((0, 2), (1, 2))
    >>> parse_solution("SIZE 3X2\\n01,00,02\\n01,00,02", p).path("B")
    ((0, 2), (1, 2))
    """
    require_type(puzzle, Puzzle, "puzzle", "the numberlink Puzzle this answers, e.g. parse(text)")
    lines = _lines(as_text(text))
    first = _first_content(lines)
    if first is None:
        raise ParseError("empty input: no answer found", line=1 if lines else None)
    if fmt is None:
        fmt = "adc" if re.match(r"\s*SIZE\b", first[1], re.IGNORECASE) else "native"
    if fmt == "adc":
        adc_rows, width, height = _adc_answer_rows(lines)
        label_of = {str(number): label for label, number in _numbered(puzzle).items()}  # as format_solution numbers them
        rows = [(number, [(label_of.get(token, token), None) for token in row]) for number, row in adc_rows]  # (cells named by (x,y))
    elif fmt in ("native", "thomasahle", "mzucker"):
        blocks = _split_blocks(lines, header_required=False, comma_header=False)
        if len(blocks) != 1:
            raise ParseError(f"expected one answer grid, found {len(blocks)}", line=first[0] + 1)
        block = blocks[0]
        # (as puzzles are read: a 1-wide grid under a size line holds one token per row, which
        # format_solution writes for labels such as "10")
        token_mode = any(len(row.split()) > 1 for _, row in block.rows) or (block.header is not None and block.header[0] == 1)
        rows = []  # (line number, [(token, column), ...])
        for number, row in block.rows:
            if token_mode:
                rows.append((number, [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", row)]))
            else:
                rows.append((number, [(ch, column) for column, ch in enumerate(row, 1) if not ch.isspace()]))
        height = len(rows)
        width = block.header[0] if block.header else len(rows[0][1])
        for number, row in rows:
            if len(row) != width:
                raise ParseError(f"row has {len(row)} cells but the answer is {width} wide (ragged rows)", line=number)
    else:
        raise ValueError(f"cannot read answers in format {fmt!r}; readable: native, adc")
    if (width, height) != puzzle.size:
        raise ParseError(
            f"answer is {width}x{height} but the puzzle is {puzzle.width}x{puzzle.height}", line=rows[0][0] if rows else None
        )
    return _answer_solution(rows, puzzle, fmt)


def _answer_solution(rows: list[tuple[int, list[tuple[str, int | None]]]], puzzle: Puzzle, fmt: str) -> Solution:
    """The answer drawn by ``rows`` (each a line number and its cells' tokens and columns):
    :func:`solution_from_drawing`."""
    drawing = {(r, c): (token, number, column) for r, (number, cells) in enumerate(rows) for c, (token, column) in enumerate(cells)}

    def where(cell: Cell) -> str:
        return f"(x,y) = ({cell[1]},{cell[0]})" if fmt == "adc" else f"(row, col) = {cell}"

    return solution_from_drawing(drawing, puzzle, fmt, where,
                                 lambda: Solution.from_rows(puzzle, [[token for token, _ in cells] for _, cells in rows]))


def solution_from_drawing(drawing: dict[tuple[int, ...], tuple[str, int, int | None]], puzzle: Any, fmt: str,
                          where: Callable[[tuple[int, ...]], str], read: Callable[[], Any]) -> Any:
    """The answer ``read()`` gives (``Solution.from_rows``, or ``from_layers`` on several
    layers), or a ParseError at the cell of the drawing that shows it is none: a label the puzzle
    does not have, an endpoint holding something else, else the first cell of the label whose
    cells form no simple path between its endpoints. ``drawing`` maps every cell, in reading
    order, to its token, line and column; ``where(cell)`` names a cell as the format does."""
    first_line = next(iter(drawing.values()))[1]
    labels = set(puzzle.labels)
    first: dict[str, tuple[int, int | None]] = {}  # label -> (line, column) of its first cell
    vias = {"@" + via.name for via in getattr(puzzle, "vias", ())}  # (multi-layer ADC 2016: "@a" on an unused via)
    for cell, (token, line, column) in drawing.items():
        if token in (EMPTY, BLOCKED) or token in first:
            continue
        if token in vias:
            raise ParseError(f"not an answer to this puzzle: via {quoted(token[1:])} at {where(cell)} is passed by no path "
                             "(every via is passed by one)", line=line, column=column)
        if token not in labels:
            what = f"line number {shown(token)} is not a LINE" if fmt == "adc" else f"label {quoted(token)} is not a label"
            raise ParseError(f"{what} of the puzzle", line=line, column=column)
        first[token] = (line, column)
    for pair in puzzle.pairs:
        for cell in (pair.start, pair.end):
            token, line, column = drawing[cell]
            if token != pair.label:
                holds = "leaves it unused" if token in (EMPTY, BLOCKED) else f"puts {quoted(token)} there"
                raise ParseError(f"not an answer to this puzzle: {quoted(pair.label)} ends at {where(cell)} but the answer {holds}",
                                 line=line, column=column)
    try:
        return read()
    except NotAPath as error:
        line, column = first.get(error.label, (first_line, None))
        if isinstance(error, TraceCapped):  # (a valid answer may be too tangled to read from its drawing)
            raise ParseError(f"{error} (the drawing is ambiguous where a path runs beside itself)", line=line, column=column) from None
        raise ParseError(f"not an answer to this puzzle: {error}", line=line, column=column) from None
    except ValueError as error:
        raise ParseError(f"not an answer to this puzzle: {error}", line=first_line) from None
