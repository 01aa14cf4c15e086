"""The pieces every multi-layer reader shares: the formats' names, the grid a reader cuts text
into, the size check, the text's lines, and the stack that collects labelled endpoints (with
where each was written) and builds the Puzzle.

>>> stack = _Stack(2, 1, 2, 1)
>>> stack.add("A", (0, 0, 0), 2, 1); stack.add("A", (1, 0, 1), 3, 2)
>>> stack.build("Q1.txt").pair("A")
Pair(label='A', start=(0, 0, 0), end=(1, 0, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ...errors import InvalidPuzzle, ParseError, quoted
from ...textio import as_text, check_time
from ...timing import Deadline
from ..reading import _lines
from .model import MAX_CELLS, Cell, Pair, Puzzle, Via

FORMATS = ("layers", "adc")

# A grid read from text: layers of rows; a row is (line number, [(token, column), ...]).
_Row = tuple[int, list[tuple[str, int]]]
_Grid = list[list[_Row]]


def _check_size(width: int, height: int, layers: int, line: int | None) -> None:
    """Refuse absurd or empty boards before anything is allocated."""
    if width < 1 or height < 1 or layers < 1:
        raise ParseError(f"board size {width}x{height}x{layers} must be at least 1x1x1", line=line)
    if width * height * layers > MAX_CELLS:
        raise ParseError(
            f"board size {width}x{height}x{layers} is absurd (more than {MAX_CELLS:,} cells)", line=line
        )


def _places(marks: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{line}:{column}" for line, column in marks)


@dataclass
class _Stack:
    """Collects labels (with where each was written) and blocked cells, then builds the Puzzle."""

    width: int
    height: int
    layers: int
    line: int | None  # where the board is declared, for errors the Puzzle constructor raises
    deadline: Deadline | None = None  # passed: TimeLimitReached (see puzzlesat.textio.check_time)

    def __post_init__(self) -> None:
        self.cells: dict[str, list[Cell]] = {}
        self.marks: dict[str, list[tuple[int, int]]] = {}
        self.blocked: set[Cell] = set()
        self.vias: list[Via] = []
        self.endpoints = 0  # added so far: the reader's steps between looks at the clock

    def add(self, label: str, cell: Cell, line: int, column: int) -> None:
        check_time(self.deadline, self.endpoints, line=line)
        self.endpoints += 1
        self.cells.setdefault(label, []).append(cell)
        self.marks.setdefault(label, []).append((line, column))

    def build(self, name: str = "", *, answer_hint: bool = False) -> Puzzle:
        problems = []
        for label, marks in self.marks.items():
            if len(marks) == 2:
                continue
            times = "once" if len(marks) == 1 else f"{len(marks)} times"
            hint = " (an answer? read answers with parse_solution)" if answer_hint and len(marks) > 2 else ""
            where = marks[0] if len(marks) == 1 else marks[2]
            problems.append((where, f"label {quoted(label)} occurs {times} (at {_places(marks[:6])}"
                             f"{', ...' if len(marks) > 6 else ''}; expected exactly 2){hint}"))
        if problems:
            (line, column), message = min(problems)
            raise ParseError(message, line=line, column=column)
        pairs = []
        for step, (label, cells) in enumerate(self.cells.items()):
            check_time(self.deadline, step, line=self.line)
            pairs.append(Pair(label, cells[0], cells[1]))
        try:
            return Puzzle(self.width, self.height, self.layers, tuple(pairs), frozenset(self.blocked), name=name,
                          vias=tuple(self.vias))
        except InvalidPuzzle as error:
            raise ParseError(str(error), line=self.line) from None


def _name(source: str | None) -> str:
    return Path(source.rstrip("/\\")).name if source else ""


def _text_lines(text: str | bytes) -> list[str]:
    return _lines(as_text(text))
