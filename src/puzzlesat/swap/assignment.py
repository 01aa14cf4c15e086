"""Least-cost assignments (a min-cost perfect matching of rows to columns): our own for small
matrices, SciPy's for larger ones when it is installed.

>>> min_cost_assignment([[4, 1], [2, 3]])
3
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence


def min_cost_assignment(cost: Sequence[Sequence[int]]) -> int:
    """The least total cost of a perfect matching of rows to columns (square matrix), by the
    Hungarian method with potentials, O(n^3).

    >>> min_cost_assignment([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    5
    """
    return assignment_with_potentials(cost)[0]


def assignment_with_potentials(cost: Sequence[Sequence[int]]) -> tuple[int, list[int], list[int]]:
    """The least matching cost and optimal dual potentials ``row``, ``column`` with
    ``row[i] + column[j] <= cost[i][j]`` and ``sum(row) + sum(column)`` equal to that cost.

    >>> total, row, column = assignment_with_potentials([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    >>> total, sum(row) + sum(column)
    (5, 5)
    """
    n = len(cost)
    if n == 0:
        return 0, [], []
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    owner = [0] * (n + 1)  # owner[column] = row matched to it (1-based; 0 = none)
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0] = row
        column0 = 0
        slack = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column0] = True
            row0 = owner[column0]
            delta = inf
            column1 = 0
            cost_row = cost[row0 - 1]
            for column in range(1, n + 1):
                if not used[column]:
                    reduced = cost_row[column - 1] - u[row0] - v[column]
                    if reduced < slack[column]:
                        slack[column] = reduced
                        way[column] = column0
                    if slack[column] < delta:
                        delta = slack[column]
                        column1 = column
            for column in range(n + 1):
                if used[column]:
                    u[owner[column]] += delta
                    v[column] -= delta
                else:
                    slack[column] -= delta
            column0 = column1
            if owner[column0] == 0:
                break
        while column0:
            column1 = way[column0]
            owner[column0] = owner[column1]
            column0 = column1
    total = int(sum(cost[owner[column] - 1][column - 1] for column in range(1, n + 1)))
    return total, [int(x) for x in u[1:]], [int(x) for x in v[1:]]


SCIPY_FROM_SQUARES = 4
"""Colours of at least this many squares are matched by SciPy; smaller ones by our own
:func:`min_cost_assignment`, which is faster there (8-20 µs a call against SciPy's 20 µs; 26-86 µs
against 20-25 µs from 4 to 10 squares). A level with no larger colour never imports SciPy."""


@lru_cache(maxsize=None)
def scipy_assignment():
    """SciPy's ``linear_sum_assignment`` (the same optimum as :func:`min_cost_assignment`,
    faster from :data:`SCIPY_FROM_SQUARES` squares on), or None without SciPy; imported on first
    use (it takes a good part of a second), not with this module, so that a command that solves
    no Swap level (or only small ones) never pays for it. SciPy is a dependency: without it some
    expert levels take several times as long (encodings/swap.md, "Notes moved from the code")."""
    try:
        from scipy.optimize import linear_sum_assignment
    except ImportError:  # pragma: no cover - exercised only without SciPy
        return None
    return linear_sum_assignment
