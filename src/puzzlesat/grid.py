"""Grid helpers shared by the families. A cell is ``(row, col)`` everywhere.

>>> list(orthogonal_neighbours((0, 0), height=2, width=3))
[(1, 0), (0, 1)]
"""

from __future__ import annotations

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
