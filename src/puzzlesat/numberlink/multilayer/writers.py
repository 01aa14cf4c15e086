"""Writing multi-layer puzzles and answers as text: the layered text and ADC problems and answers.

>>> from .model import Puzzle
>>> print(format(Puzzle.from_layers([["3.", ".."], ["..", ".3"]]), fmt="adc"), end="")
SIZE 2X2X2
LINE_NUM 1
LINE#3 (0,0,1) (1,1,2)
"""

from __future__ import annotations

import re

from ...errors import CannotExpress, quoted, require_type
from ...results import solution_hint
from ..reading import _canonical
from .model import Puzzle, Solution, layers_text
from .reading import FORMATS

def _line_numbers(puzzle: Puzzle) -> dict[str, int]:
    """Each label as an ADC line number; ValueError unless the ADC format can hold the puzzle."""
    if puzzle.blocked:
        raise CannotExpress(f"the ADC format cannot express blocked cells ({len(puzzle.blocked)} on this board)")
    for label in puzzle.labels:
        if not (label.isdigit() and label.isascii() and _canonical(label) == label and label != "0" and len(label) <= 18):
            raise CannotExpress(
                f"the ADC format numbers its lines: label {quoted(label)} is not a positive whole number "
                "of at most 18 digits without leading zeros (like '7')"
            )
    return {label: int(label) for label in puzzle.labels}


def format(puzzle: Puzzle, *, fmt: str = "layers") -> str:  # noqa: A001 - the verb of every family
    """The puzzle as text: ``layers`` (exactly ``str(puzzle)`` and a newline) or ``adc`` (an
    ADC 2017/2018 problem, or 2016 with ``VIA`` lines when it has vias; needs labels that are
    positive whole numbers and no blocked cells, else ValueError).

    >>> p = Puzzle.from_layers([["7.", ".."], [".#", ".7"]])
    >>> print(format(p), end="")
    layer 1
    7 .
    . .
    <BLANKLINE>
    layer 2
    . #
    . 7
    >>> print(format(Puzzle.from_layers([["7.", ".."], ["..", ".7"]]), fmt="adc"), end="")
    SIZE 2X2X2
    LINE_NUM 1
    LINE#7 (0,0,1) (1,1,2)
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    if fmt == "layers":
        return str(puzzle) + "\n"
    if fmt == "adc":
        number_of = _line_numbers(puzzle)
        lines = [f"SIZE {puzzle.width}X{puzzle.height}X{puzzle.layers}", f"LINE_NUM {len(puzzle.pairs)}"]
        for pair in sorted(puzzle.pairs, key=lambda pair: number_of[pair.label]):
            (z0, r0, c0), (z1, r1, c1) = pair.start, pair.end
            lines.append(f"LINE#{number_of[pair.label]} ({c0},{r0},{z0 + 1}) ({c1},{r1},{z1 + 1})")
        if puzzle.vias:
            lines.append("")
        for via in puzzle.vias:
            if not re.fullmatch(r"[A-Za-z][0-9A-Za-z_]*", via.name):
                raise CannotExpress(f"the ADC format names vias by letters: via {via.name!r} cannot be written")
            lines.append(f"VIA#{via.name} " + " ".join(f"({c},{r},{z + 1})" for z, r, c in via.cells))
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def format_solution(puzzle: Puzzle, solution: Solution, *, fmt: str = "layers") -> str:
    """The answer as text: ``layers`` (the layered grid with every path cell holding its label)
    or ``adc`` (``SIZE``, then per layer ``LAYER z`` and rows of comma-separated line numbers of
    at least two digits, ``00`` unused). ValueError when the solution leaves the board or, for
    ``adc``, when the puzzle has blocked cells or labels that are not positive whole numbers.

    >>> p = Puzzle.from_layers([["1.", ".."], ["..", ".1"]])
    >>> s = Solution.from_layers(p, [["1.", ".."], ["1.", "11"]])
    >>> print(format_solution(p, s, fmt="adc"), end="")
    SIZE 2X2X2
    LAYER 1
    01,00
    00,00
    LAYER 2
    01,00
    01,01
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(solution, Solution, "solution", solution_hint(solution))
    if fmt == "layers":
        return layers_text(solution.grid(puzzle)) + "\n"
    if fmt == "adc":
        number_of = _line_numbers(puzzle)
        known = {label for label, _ in solution.paths}
        unknown = sorted(known - set(number_of))
        if unknown:
            raise ValueError(f"the solution has a path for {unknown[0]!r}, which is not a label of the puzzle")
        solution.check_on_board(puzzle)
        digits = max(2, len(str(max(number_of.values(), default=0))))
        grid = [[["0" * digits] * puzzle.width for _ in range(puzzle.height)] for _ in range(puzzle.layers)]
        for label, cells in solution.paths:
            for z, r, c in cells:
                grid[z][r][c] = str(number_of[label]).zfill(digits)
        lines = [f"SIZE {puzzle.width}X{puzzle.height}X{puzzle.layers}"]
        for z, layer in enumerate(grid, 1):
            lines.append(f"LAYER {z}")
            lines.extend(",".join(row) for row in layer)
        return "\n".join(lines) + "\n"
    raise ValueError(f"cannot write answers in format {fmt!r}; writable: {', '.join(FORMATS)}")
