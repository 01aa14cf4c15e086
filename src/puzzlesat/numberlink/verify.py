"""The independent answer checker: an ordered list of named checks with stable codes.

It knows nothing about SAT or search; every answer a solver returns passes through it.

>>> from puzzlesat.numberlink.model import Puzzle, Solution, Rules
>>> p = Puzzle.from_rows(["A.B", "...", "A.B"])
>>> s = Solution.from_rows(p, ["A.B", "A.B", "A.B"])
>>> [v.code for v in verify(p, s)]
['uncovered']
>>> verify(p, s, Rules(cover_all=False))
[]
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Callable, Iterable

import numpy as np

from ..errors import require_type
from ..family import Violation  # (the shared type: code, message, label, cells)
from ..grid import Cell, is_adjacent
from ..results import solution_hint
from .model import DEFAULT_RULES, ONE_LAYER_HINT, Puzzle, Rules, Solution

# Stable violation codes, in the order they are checked.
CODES = {
    "missing-path": "a label of the puzzle has no path",
    "unknown-label": "a path for a label that is not in the puzzle",
    "off-board": "a path cell lies outside the board",
    "not-connected": "a path does not run from one endpoint of its pair to the other in orthogonal steps",
    "branch": "a path visits one cell twice (it loops back on itself or branches)",
    "blocked-cell": "a path uses a blocked cell",
    "crossing": "two paths share a cell (or a path runs through another label's endpoint)",
    "uncovered": "a free cell lies on no path (cover-all rules)",
    "self-touch": "a path runs beside itself (no-self-touch rules)",
    "outside-via": "a path changes layer outside a via, or leaves a via's inner cell sideways (multi-layer puzzles with vias, ADC 2016)",
    "via-unused": "a via is not passed through all its cells by one path (multi-layer puzzles with vias)",
    "several-vias": "a path passes through more than one via (multi-layer puzzles with vias)",
}


def verify(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> list[Violation]:
    """Every rule the answer breaks, in check order; an empty list means the answer is valid.

    Checks run in the order of ``CODES`` and do not stop at the first fault.

    >>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
    >>> verify(puzzle, Solution.from_rows(puzzle, ["AAA", "BBB"]))
    []
    >>> gap = Solution.from_mapping({"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 2)]})
    >>> [v.code for v in verify(puzzle, gap)]
    ['not-connected', 'uncovered']
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    require_type(solution, Solution, "solution", solution_hint(solution))
    require_type(rules, Rules, "rules")
    if plainly_valid(puzzle, solution, rules):
        return []
    return check_paths(puzzle, solution, rules, adjacent=is_adjacent, onward=_onward)


def plainly_valid(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> bool:
    """The checks of :func:`verify` on arrays (the puzzle's :class:`~.board.Board`: its shape,
    free cells and pair ends, not its edges, which the encoding reads), with no report: True
    exactly when ``verify`` finds no violation (held against it on many broken answers in the
    tests). Stacks of layers without vias too (steps between layers are then plain steps);
    the via rules are checked by the multi-layer verify alone. ``verify`` runs it first and, when it says False, runs its own checks
    to name what is wrong: a valid answer costs a few array steps on any board size.

    >>> puzzle = Puzzle.from_rows(["A.A", "B.B"])
    >>> plainly_valid(puzzle, Solution.from_rows(puzzle, ["AAA", "BBB"]))
    True
    >>> plainly_valid(puzzle, Solution.from_mapping({"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 2)]}))
    False
    """
    board = puzzle.board
    shape = board.shape  # (H, W), or (L, H, W) on a stack: cells are tuples of len(shape) numbers
    paths = solution.paths
    order = {label: k for k, label in enumerate(puzzle.labels)}
    pair_of = [order.get(label, -1) for label, _ in paths]
    if len(paths) != len(order) or min(pair_of, default=0) < 0 or len(set(pair_of)) != len(pair_of):
        return False  # (a label with two paths, a missing path, an unknown label)
    lengths = np.array([len(cells) for _, cells in paths], dtype=np.int64)
    if len(lengths) and lengths.min() < 2:
        return False
    total = int(lengths.sum())
    dims = len(shape)
    try:
        at = np.fromiter(chain.from_iterable(chain.from_iterable(cells for _, cells in paths)), dtype=np.int64, count=dims * total).reshape(-1, dims)
    except (OverflowError, ValueError):  # (a coordinate far off any board, a cell of other dimensions: the plain checks name it)
        return False
    if total and (at.min() < 0 or np.any(at.max(axis=0) >= shape)):
        return False
    index = np.ravel_multi_index(tuple(at.T), shape) if total else np.zeros(0, dtype=np.int64)
    last = np.cumsum(lengths) - 1
    first = last - lengths + 1
    pairs = np.array(pair_of, dtype=np.int64)
    starts, ends = board.starts[pairs], board.ends[pairs]
    head, tail = index[first], index[last]
    if not np.all(((head == starts) & (tail == ends)) | ((head == ends) & (tail == starts))):
        return False
    step = np.abs(np.diff(at, axis=0)).sum(axis=1)
    step[last[:-1]] = 1  # (from one path's last cell to the next path's first: no step)
    if np.any(step != 1) or not board.free[index].all():
        return False
    size = board.num_cells
    if np.bincount(index, minlength=size).max(initial=0) > 1:
        return False  # a cell twice on one path, or on two (another label's endpoint lies on its own path)
    if rules.cover_all and total != int(board.free.sum()):
        return False  # (no cell twice and every one free: the free cells are covered exactly when counted)
    if rules.no_self_touch:
        owner = np.full(size, -1, dtype=np.int64)
        owner[index] = np.repeat(np.arange(len(paths)), lengths)
        position = np.zeros(size, dtype=np.int64)
        position[index] = np.arange(total) - np.repeat(first, lengths)
        owner, position = owner.reshape(shape), position.reshape(shape)
        for axis in range(dims):  # each pair of neighbours along each axis once
            near = tuple(slice(None, -1) if a == axis else slice(None) for a in range(dims))
            far = tuple(slice(1, None) if a == axis else slice(None) for a in range(dims))
            same = (owner[near] >= 0) & (owner[near] == owner[far])
            if np.any(same & (np.abs(position[near] - position[far]) != 1)):
                return False
    return True


def _onward(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return ((r + 1, c), (r, c + 1))


def check_paths(puzzle, solution, rules: Rules, *, adjacent: Callable[[Any, Any], bool],
                onward: Callable[[Any], Iterable[Any]]) -> list[Violation]:
    """The checks of :func:`verify` for any board shape: ``puzzle`` and ``solution`` need the
    queries both the one-layer and the multi-layer types have (``pairs``, ``pair``,
    ``endpoints``, ``on_board``, ``free_cells``, ``blocked``; ``paths``, ``as_dict``);
    ``adjacent(a, b)`` says whether two cells are one step apart and ``onward(cell)`` gives the
    cells one step on in each direction, each pair of neighbours once (for the self-touch check)."""
    out: list[Violation] = []
    paths = solution.as_dict()
    if len(paths) != len(solution.paths):
        out.append(Violation("branch", "a label has more than one path"))
    for pair in puzzle.pairs:
        if pair.label not in paths:
            out.append(Violation("missing-path", f"label {pair.label!r} has no path", label=pair.label))
    labels = set(puzzle.labels)
    for label in paths:
        if label not in labels:
            out.append(Violation("unknown-label", f"path for unknown label {label!r}", label=label))

    endpoint_label = puzzle.endpoints()
    owner: dict[Cell, str] = {}
    for label, cells in solution.paths:
        if label not in labels:
            continue
        pair = puzzle.pair(label)
        off = tuple(c for c in cells if not puzzle.on_board(c))
        if off:
            out.append(Violation("off-board", f"path {label!r} leaves the board at {off[0]}", label=label, cells=tuple(off)))
            continue
        if len(cells) < 2 or {cells[0], cells[-1]} != {pair.start, pair.end}:
            out.append(Violation("not-connected", f"path {label!r} does not run from {pair.start} to {pair.end}", label=label, cells=(cells[0], cells[-1]) if cells else ()))
        gaps = tuple(b for a, b in zip(cells, cells[1:]) if not adjacent(a, b))
        if gaps:
            out.append(Violation("not-connected", f"path {label!r} jumps to {gaps[0]}", label=label, cells=tuple(gaps)))
        seen: set[Cell] = set()
        repeats = []
        for cell in cells:
            if cell in seen:
                repeats.append(cell)
            seen.add(cell)
        if repeats:
            out.append(Violation("branch", f"path {label!r} visits {repeats[0]} twice", label=label, cells=tuple(repeats)))
        used_blocked = tuple(c for c in cells if c in puzzle.blocked)
        if used_blocked:
            out.append(Violation("blocked-cell", f"path {label!r} uses blocked cell {used_blocked[0]}", label=label, cells=tuple(used_blocked)))
        for cell in seen:
            other = endpoint_label.get(cell)
            if other is not None and other != label:
                out.append(Violation("crossing", f"path {label!r} runs through the endpoint of {other!r} at {cell}", label=label, cells=(cell,)))
            elif cell in owner and owner[cell] != label:
                out.append(Violation("crossing", f"paths {owner[cell]!r} and {label!r} share {cell}", label=label, cells=(cell,)))
            owner.setdefault(cell, label)

    if rules.cover_all:
        uncovered = tuple(c for c in puzzle.free_cells() if c not in owner)
        if uncovered:
            out.append(Violation("uncovered", f"{len(uncovered)} free cell(s) on no path, first {uncovered[0]}", cells=tuple(uncovered)))
    if rules.no_self_touch:
        for label, cells in solution.paths:
            position = {cell: i for i, cell in enumerate(cells)}
            for i, cell in enumerate(cells):
                for n in onward(cell):
                    j = position.get(n)
                    if j is not None and abs(i - j) != 1:
                        out.append(Violation("self-touch", f"path {label!r} runs beside itself at {cell} and {n}", label=label, cells=(cell, n)))
    return out


def is_solution(puzzle: Puzzle, solution: Solution, rules: Rules = DEFAULT_RULES) -> bool:
    """True when ``solution`` breaks no rule (the same verb in every family).

    >>> puzzle = Puzzle.from_rows(["A.A"])
    >>> is_solution(puzzle, Solution.from_mapping({"A": [(0, 0), (0, 1), (0, 2)]}))
    True
    """
    return not verify(puzzle, solution, rules)


is_valid = is_solution  # the name of the first release, kept for its callers
