"""Grid helpers shared by the families. A cell is ``(row, col)`` everywhere.

>>> list(orthogonal_neighbours((0, 0), height=2, width=3))
[(1, 0), (0, 1)]
>>> as_cell([2, 1], "start")
(2, 1)
>>> as_cell((2.5, 1), "start")
Traceback (most recent call last):
...
TypeError: start must be a (row, column) pair of whole numbers, not (2.5, 1)
"""

from __future__ import annotations

import operator
from typing import Iterator

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def orthogonal_neighbours(cell: Cell, *, height: int, width: int) -> Iterator[Cell]:
    r, c = cell
    for dr, dc in ORTHOGONAL:
        rr, cc = r + dr, c + dc
        if 0 <= rr < height and 0 <= cc < width:
            yield (rr, cc)


def is_adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def group_of(start: Cell, cells: "set[Cell] | frozenset[Cell]") -> set[Cell]:
    """The cells of ``cells`` joined to ``start`` side by side (``start`` included).

    >>> sorted(group_of((0, 0), {(0, 0), (0, 1), (1, 1), (3, 3)}))
    [(0, 0), (0, 1), (1, 1)]
    """
    group, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for other in ((r + dr, c + dc) for dr, dc in ORTHOGONAL):
            if other in cells and other not in group:
                group.add(other)
                todo.append(other)
    return group


def is_whole_number(value: object) -> bool:
    """An int or a numpy integer (answers read back from arrays), never a bool, float or str."""
    if type(value) is int:  # the common case, first: a million-cell answer checks each cell
        return True
    if isinstance(value, (bool, str, bytes)):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def as_cell(value: object, what: str) -> Cell:
    """``value`` as a ``(row, column)`` of plain ints, or a TypeError naming ``what`` it is."""
    try:
        row, column = value  # type: ignore[misc]
    except (TypeError, ValueError):
        row = column = None
    if not (is_whole_number(row) and is_whole_number(column)):
        raise TypeError(f"{what} must be a (row, column) pair of whole numbers, not {value!r}")
    return (operator.index(row), operator.index(column))
