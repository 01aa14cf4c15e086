"""The independent answer checker for multi-layer puzzles: the family's named checks, with
steps between layers.

It knows nothing about SAT; every answer a solver returns passes through it. The codes are the
family's (:data:`puzzlesat.numberlink.CODES`); a path "runs beside itself" when a cell of it is
one step (on its layer, or above or below) from a cell of it that is not next on the path.

>>> from puzzlesat.numberlink.model import Rules
>>> p = Puzzle.from_layers([["A.", ".."], [".B", "AB"]])
>>> s = Solution.from_layers(p, [["A.", ".."], ["AB", "AB"]])
>>> [v.code for v in verify(p, s)]
['uncovered']
>>> verify(p, s, Rules(cover_all=False))
[]
"""

from __future__ import annotations

from ...errors import require_type
from ..model import DEFAULT_RULES, Rules
from ..verify import CODES, Violation, check_paths
from .model import Cell, Puzzle, Solution, is_adjacent

__all__ = ["CODES", "Violation", "verify", "is_solution"]


def verify(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> list[Violation]:
    """Every rule the answer breaks, in the order of ``CODES``; empty when the answer is valid.

    >>> puzzle = Puzzle.from_layers([["A"], ["A"]])
    >>> verify(puzzle, Solution.from_mapping({"A": [(0, 0, 0), (1, 0, 0)]}))
    []
    >>> [v.code for v in verify(puzzle, Solution.from_mapping({"A": [(0, 0, 0)]}))]
    ['not-connected', 'uncovered']
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(solution, Solution, "solution", "a result with no answer has solution None")
    require_type(rules, Rules, "rules")
    return check_paths(puzzle, solution, rules, adjacent=is_adjacent, onward=_onward)


def _onward(cell: Cell) -> tuple[Cell, ...]:
    z, r, c = cell
    return ((z + 1, r, c), (z, r + 1, c), (z, r, c + 1))


def is_solution(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> bool:
    """True when ``solution`` breaks no rule.

    >>> puzzle = Puzzle.from_layers([["A"], ["A"]])
    >>> is_solution(puzzle, Solution.from_mapping({"A": [(0, 0, 0), (1, 0, 0)]}))
    True
    """
    return not verify(puzzle, solution, rules)
