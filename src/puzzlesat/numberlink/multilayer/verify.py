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

With vias (ADC 2016) a path changes layer only inside a via, passing all its cells, every via
is passed by one path and no path passes two; a path "runs beside itself" only where it could
step (two cells on neighbouring layers outside a via are not beside each other).

>>> from puzzlesat.numberlink.multilayer import Via
>>> p = Puzzle.from_layers([["A.", ".."], ["..", ".A"]], vias=[Via("a", [(0, 1, 0), (1, 1, 0)])])
>>> [v.code for v in verify(p, Solution.from_mapping({"A": [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1)]}))]
['uncovered', 'outside-via', 'via-unused']
>>> verify(p, Solution.from_mapping({"A": [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 1, 1)]}), Rules(cover_all=False))
[]
"""

from __future__ import annotations

from ...errors import require_type
from ...results import solution_hint
from ..model import DEFAULT_RULES, Rules
from ..verify import CODES, Violation, check_paths, plainly_valid
from .model import Cell, Puzzle, Solution, is_adjacent

__all__ = ["CODES", "Violation", "verify", "is_solution"]

# Stacks of fewer cells skip the array checks: there the plain checks are quicker
# (encodings/numberlink-multilayer.md, "Notes moved from the code")
ARRAY_CHECK_CELLS = 64


def verify(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> list[Violation]:
    """Every rule the answer breaks, in the order of ``CODES``; empty when the answer is valid.

    >>> puzzle = Puzzle.from_layers([["A"], ["A"]])
    >>> verify(puzzle, Solution.from_mapping({"A": [(0, 0, 0), (1, 0, 0)]}))
    []
    >>> [v.code for v in verify(puzzle, Solution.from_mapping({"A": [(0, 0, 0)]}))]
    ['not-connected', 'uncovered']
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(solution, Solution, "solution", solution_hint(solution))
    require_type(rules, Rules, "rules")
    if not puzzle.vias:
        if puzzle.num_cells >= ARRAY_CHECK_CELLS and plainly_valid(puzzle, solution, rules):  # (the one-layer array checks, on the stack's board)
            return []
        return check_paths(puzzle, solution, rules, adjacent=is_adjacent, onward=_onward)
    found = check_paths(puzzle, solution, rules, adjacent=is_adjacent,
                        onward=lambda cell: [n for n in _onward(cell) if puzzle.is_step(cell, n)])
    via_faults = _via_violations(puzzle, solution)
    order = list(CODES)
    return sorted(found + via_faults, key=lambda v: order.index(v.code))  # stable: each code's own order kept


def _onward(cell: Cell) -> tuple[Cell, ...]:
    z, r, c = cell
    return ((z + 1, r, c), (z, r + 1, c), (z, r, c + 1))


def _via_violations(puzzle: Puzzle, solution: Solution) -> list[Violation]:
    """The via rules: layer changes only through vias, each via passed whole by one path, no
    path through two."""
    out: list[Violation] = []
    labels = set(puzzle.labels)
    for label, cells in solution.paths:
        if label not in labels or not all(puzzle.on_board(cell) for cell in cells):
            continue  # reported by the shared checks
        outside = tuple(b for a, b in zip(cells, cells[1:]) if is_adjacent(a, b) and not puzzle.is_step(a, b))
        if outside:
            out.append(Violation("outside-via", f"path {label!r} steps to {outside[0]} outside a via", label=label, cells=tuple(outside)))
        passed = {puzzle.via_at(a).name for a, b in zip(cells, cells[1:])  # type: ignore[union-attr]
                  if a[0] != b[0] and puzzle.is_step(a, b)}  # (a step between layers inside one via)
        if len(passed) > 1:
            names = ", ".join(sorted(passed))
            out.append(Violation("several-vias", f"path {label!r} passes through vias {names}", label=label))
    where = {cell: (label, i) for label, cells in solution.paths for i, cell in enumerate(cells)}
    for via in puzzle.vias:
        owners = {where[cell][0] if cell in where else None for cell in via.cells}
        positions = [where[cell][1] for cell in via.cells if cell in where]
        whole = len(owners) == 1 and None not in owners and len(positions) == len(via.cells) and (
            all(b == a + 1 for a, b in zip(positions, positions[1:])) or all(b == a - 1 for a, b in zip(positions, positions[1:])))
        if not whole:
            out.append(Violation("via-unused", f"via {via.name!r} at {via.cells[0]} is not passed through by one path", cells=tuple(via.cells)))
    return out


def is_solution(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> bool:
    """True when ``solution`` breaks no rule.

    >>> puzzle = Puzzle.from_layers([["A"], ["A"]])
    >>> is_solution(puzzle, Solution.from_mapping({"A": [(0, 0, 0), (1, 0, 0)]}))
    True
    """
    return not verify(puzzle, solution, rules)
