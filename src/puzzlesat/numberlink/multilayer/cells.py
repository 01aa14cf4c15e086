"""The cells of a stack of layers, its endpoint pairs and the ADC 2016 vias that join layers (the multi-layer model,
:mod:`.model`, re-exports every name here).

>>> is_adjacent((0, 1, 1), (1, 1, 1)), Via("a", [(1, 2, 2), (0, 2, 2)]).layer_span
(True, (0, 1))
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from ...errors import InvalidPuzzle
from ...grid import is_whole_number
from ..model import EndpointPair, NotAPath, trace

Cell = tuple[int, int, int]  # (layer, row, column)

STEPS: tuple[Cell, ...] = ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))


def as_cell(value: object, what: str) -> Cell:
    """``value`` as a ``(layer, row, column)`` of plain ints, or a TypeError naming ``what``.

    >>> as_cell([1, 2, 0], "start")
    (1, 2, 0)
    """
    try:
        layer, row, column = value  # type: ignore[misc]
    except (TypeError, ValueError):
        layer = row = column = None
    if not all(is_whole_number(part) for part in (layer, row, column)):
        raise TypeError(f"{what} must be a (layer, row, column) triple of whole numbers, not {value!r}")
    return (operator.index(layer), operator.index(row), operator.index(column))


def is_adjacent(a: Cell, b: Cell) -> bool:
    """One step apart: on one layer side by side, or at one place on neighbouring layers.

    >>> is_adjacent((0, 1, 1), (1, 1, 1)), is_adjacent((0, 1, 1), (1, 1, 2))
    (True, False)
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1


class Pair(EndpointPair):
    """A label and its two endpoint cells ``(layer, row, column)``.

    >>> Pair("A", [1, 0, 1], (0, 2, 3))
    Pair(label='A', start=(1, 0, 1), end=(0, 2, 3))
    """

    start: Cell
    end: Cell
    as_cell = staticmethod(as_cell)


@dataclass(frozen=True)
class Via:
    """An ADC 2016 via: a ``name`` (``a``, ``b``, ... as the contest files write it) and its
    ``cells``, one place on two or more consecutive layers, in layer order.

    >>> Via("a", [(1, 2, 2), (0, 2, 2)])
    Via(name='a', cells=((0, 2, 2), (1, 2, 2)))
    >>> Via("a", [(0, 2, 2), (2, 2, 2)])
    Traceback (most recent call last):
    ...
    puzzlesat.errors.InvalidPuzzle: via 'a' skips a layer: its cells must lie on consecutive layers at one place
    """

    name: str
    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"a via's name must be a non-empty str, not {self.name!r}")
        if any(ch.isspace() for ch in self.name):  # written as one token, '@' and the name
            raise InvalidPuzzle(f"bad via name {self.name!r}: a via's name holds no whitespace")
        if isinstance(self.cells, (str, bytes)) or not hasattr(self.cells, "__iter__"):
            raise TypeError(f"the cells of via {self.name!r} must be a sequence of (layer, row, column) triples")
        cells = tuple(sorted(as_cell(cell, f"a cell of via {self.name!r}") for cell in self.cells))
        object.__setattr__(self, "cells", cells)
        if len(cells) < 2:
            raise InvalidPuzzle(f"via {self.name!r} has {len(cells)} cell(s): a via joins two or more layers")
        if len({cell[1:] for cell in cells}) != 1:
            raise InvalidPuzzle(f"via {self.name!r} is not at one place: all its cells must share (row, column)")
        if any(b[0] != a[0] + 1 for a, b in zip(cells, cells[1:])):
            raise InvalidPuzzle(f"via {self.name!r} skips a layer: its cells must lie on consecutive layers at one place")

    @property
    def layer_span(self) -> tuple[int, int]:
        """(first layer, last layer), from 0."""
        return self.cells[0][0], self.cells[-1][0]

    @property
    def inner_cells(self) -> tuple[Cell, ...]:
        """The cells between its first and its last, entered and left only from above and below."""
        return self.cells[1:-1]


def via_fault(puzzle, pair, cells: set[Cell]) -> str:
    """When ``cells`` trace a path for ``pair`` only by steps the via rules forbid, the words
    naming the first such step (to end a NotAPath message); else "".

    >>> from .model import Puzzle
    >>> p = Puzzle.from_layers([[["A", "@a", "."]], [[".", "@a", "A"]]])
    >>> via_fault(p, p.pair("A"), {(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 0, 2)})
    ': its step (0, 0, 0) -> (1, 0, 0) changes layer outside a via'
    """
    try:
        path = trace(pair, cells, steps=STEPS)
    except NotAPath:  # (capped: say nothing more)
        return ""
    for a, b in zip(path or (), (path or ())[1:]):
        if not puzzle.is_step(a, b):
            what = "changes layer outside a via" if a[0] != b[0] else "leaves a via's inner cell sideways"
            return f": its step {a} -> {b} {what}"
    return ""


def layers_text(grid: np.ndarray) -> str:
    """A Z x H x W grid of tokens as text: ``layer z`` (from 1), then its rows, a blank line
    between layers."""
    blocks = []
    for z, layer in enumerate(grid.tolist(), 1):
        blocks.append("\n".join([f"layer {z}"] + [" ".join(row) for row in layer]))
    return "\n\n".join(blocks)
