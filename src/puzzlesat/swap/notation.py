"""A Swap move and its notation ``r,c>r,c`` (row and column from 0 of the two cells it swaps).

>>> parse_moves("0,0>0,1 1,0>1,1")
(Move(source=(0, 0), target=(0, 1)), Move(source=(1, 0), target=(1, 1)))
"""

from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass
from typing import Iterable, Union

from ..grid import Cell
from ..results import solve_result_hint


MOVE_PATTERN = re.compile(r"^\s*([0-9]+)\s*,\s*([0-9]+)\s*>\s*([0-9]+)\s*,\s*([0-9]+)\s*$")


@dataclass(frozen=True, order=True)
class Move:
    """A swap written ``r1,c1>r2,c2`` (0-based): the moving square's cell, then the target.

    The effect is symmetric (the two contents exchange), and a swap is legal when *either*
    square can reach the other's cell, so both ``a>b`` and ``b>a`` are accepted for a legal swap.
    Moves produced by this library (``legal_moves``, solvers) name a square that can actually
    reach the other first (the earlier cell in row-major order when both can).

    >>> m = Move.parse("0,1>2,3")
    >>> m.source, m.target, m.cells == Move((2, 3), (0, 1)).cells
    ((0, 1), (2, 3), True)
    """

    source: Cell
    target: Cell

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read ``r1,c1>r2,c2``; raises ValueError on any other text, TypeError on a non-string."""
        if not isinstance(text, str):
            raise TypeError(f"a move must be a Move or a string r1,c1>r2,c2, not {type(text).__name__} {reprlib.repr(text)}"
                            " (Move(source, target) builds one from two (row, column) cells)")
        match = MOVE_PATTERN.match(text)
        if not match:
            raise ValueError(f"move {text!r} is not written r1,c1>r2,c2")
        r1, c1, r2, c2 = (int(x) for x in match.groups())
        return cls((r1, c1), (r2, c2))

    @property
    def cells(self) -> frozenset[Cell]:
        """The unordered pair of cells swapped."""
        return frozenset((self.source, self.target))

    def reversed(self) -> "Move":
        return Move(self.target, self.source)

    def __str__(self) -> str:
        return f"{self.source[0]},{self.source[1]}>{self.target[0]},{self.target[1]}"


MoveLike = Union[Move, str]


def parse_moves(moves: str | Iterable[MoveLike]) -> tuple[Move, ...]:
    """Moves from a space-separated string or a sequence of Move / ``r1,c1>r2,c2`` strings.

    >>> [str(m) for m in parse_moves("0,0>0,1  1,1>0,0")]
    ['0,0>0,1', '1,1>0,0']
    >>> parse_moves([((0, 0), (0, 1))])
    Traceback (most recent call last):
    ...
    TypeError: a move must be a Move or a string r1,c1>r2,c2, not tuple ((0, 0), (0, 1)) (Move(source, target) builds one from two (row, column) cells)
    """
    if isinstance(moves, bytes) or not isinstance(moves, (str, Iterable)):
        raise TypeError(f"moves must be a string of moves or a sequence of moves, not {type(moves).__name__}{solve_result_hint(moves)}")
    items = moves.split() if isinstance(moves, str) else list(moves)
    return tuple(m if isinstance(m, Move) else Move.parse(m) for m in items)
