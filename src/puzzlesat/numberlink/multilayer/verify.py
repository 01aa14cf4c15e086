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
from ..verify import CODES, Violation
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
    out: list[Violation] = []
    paths = solution.as_dict()
    if len(paths) != len(solution.paths):
        out.append(Violation("branch", "a label has more than one path"))
    for pair in puzzle.pairs:
        if pair.label not in paths:
            out.append(Violation("missing-path", f"label {pair.label!r} has no path", pair.label))
    labels = set(puzzle.labels)
    for label in paths:
        if label not in labels:
            out.append(Violation("unknown-label", f"path for unknown label {label!r}", label))

    endpoint_label = puzzle.endpoints()
    owner: dict[Cell, str] = {}
    for label, cells in solution.paths:
        if label not in labels:
            continue
        pair = puzzle.pair(label)
        off = tuple(c for c in cells if not puzzle.on_board(c))
        if off:
            out.append(Violation("off-board", f"path {label!r} leaves the board at {off[0]}", label, off))
            continue
        if len(cells) < 2 or {cells[0], cells[-1]} != {pair.start, pair.end}:
            out.append(Violation("not-connected", f"path {label!r} does not run from {pair.start} to {pair.end}", label, (cells[0], cells[-1]) if cells else ()))
        gaps = tuple(b for a, b in zip(cells, cells[1:]) if not is_adjacent(a, b))
        if gaps:
            out.append(Violation("not-connected", f"path {label!r} jumps to {gaps[0]}", label, gaps))
        seen: set[Cell] = set()
        repeats = []
        for cell in cells:
            if cell in seen:
                repeats.append(cell)
            seen.add(cell)
        if repeats:
            out.append(Violation("branch", f"path {label!r} visits {repeats[0]} twice", label, tuple(repeats)))
        used_blocked = tuple(c for c in cells if c in puzzle.blocked)
        if used_blocked:
            out.append(Violation("blocked-cell", f"path {label!r} uses blocked cell {used_blocked[0]}", label, used_blocked))
        for cell in seen:
            other = endpoint_label.get(cell)
            if other is not None and other != label:
                out.append(Violation("crossing", f"path {label!r} runs through the endpoint of {other!r} at {cell}", label, (cell,)))
            elif cell in owner and owner[cell] != label:
                out.append(Violation("crossing", f"paths {owner[cell]!r} and {label!r} share {cell}", label, (cell,)))
            owner.setdefault(cell, label)

    if rules.cover_all:
        uncovered = tuple(c for c in puzzle.free_cells() if c not in owner)
        if uncovered:
            out.append(Violation("uncovered", f"{len(uncovered)} free cell(s) on no path, first {uncovered[0]}", None, uncovered))
    if rules.no_self_touch:
        for label, cells in solution.paths:
            position = {cell: i for i, cell in enumerate(cells)}
            for i, (z, r, c) in enumerate(cells):
                for n in ((z + 1, r, c), (z, r + 1, c), (z, r, c + 1)):
                    j = position.get(n)
                    if j is not None and abs(i - j) != 1:
                        out.append(Violation("self-touch", f"path {label!r} runs beside itself at {(z, r, c)} and {n}", label, ((z, r, c), n)))
    return out


def is_solution(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> bool:
    """True when ``solution`` breaks no rule.

    >>> puzzle = Puzzle.from_layers([["A"], ["A"]])
    >>> is_solution(puzzle, Solution.from_mapping({"A": [(0, 0, 0), (1, 0, 0)]}))
    True
    """
    return not verify(puzzle, solution, rules)
