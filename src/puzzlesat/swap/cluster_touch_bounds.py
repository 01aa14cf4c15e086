"""The cluster and touch bounds of a Swap level in a given state, for the searches and the
solver: each takes the level's :class:`~.layout_bounds.LayoutBound`, kept for the last few
levels, so that its regions and needs are reused from call to call.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1R T1G"], goal="cluster")
>>> cluster_bound(task, task.start), touch_bound(task, task.start)
(1, 1)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .compiled import Task
from .layout_bounds import LayoutBound


def cluster_bound(task: Task, state: Sequence[int]) -> int:
    """Cluster goal: a lower bound from the distances each split colour's squares must travel.

    For a colour X with n squares, the final group is a connected region R of n cells (walls
    excluded), and a square moves one edge of the swap graph (:func:`~.swapgraph.swap_graph`) per
    swap it takes part in, so X's squares travel at least the least total distance of a matching of
    them to R's cells; ``need_X`` is the least of that over every such R. One swap moves two
    squares, one edge each, and at most one of X (a swap of two squares of one colour leaves its
    cells as they are), so it lowers ``need_X`` by at most one and the sum of the needs by at most
    two: moves >= ceil(sum need_X / 2) and moves >= max need_X. Admissible, and consistent where the
    regions are enumerated (:data:`~.layout_bounds.REGION_LIMIT`); past that limit, a relaxation
    counting one step per square that must move: if R meets one current group G of X,
    need_X >= n - |G|; if it meets two or more, R holds a chain of non-X cells joining two groups, so need_X >=
    the fewest non-X cells on a path between two groups; so need_X >= min(n - largest group,
    smallest gap) (not always consistent); here (not in the searches, where it costs too much) also
    the least cost of filling a connected part of R of the largest size enumerated
    (:meth:`LayoutBound._part_need`), if larger. Computed by :class:`LayoutBound`, which the
    searches keep for a whole level.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1R T1G"])
    >>> cluster_bound(task, task.start)
    1
    >>> task = Task.from_rows(["T1R T1R T1G T1G T1G T1R T1R"])  # two reds pass three greens
    >>> cluster_bound(task, task.start)
    6
    """
    return _layout_bound(task).cluster(task.colours_of(state))


@lru_cache(maxsize=16)
def _layout_bound(task: Task) -> LayoutBound:
    """One :class:`LayoutBound` per recent level, for the bound functions that take a level
    and a state (its regions and needs are then reused from call to call), with the filling of
    parts past the region limit (these bounds are taken a few times per level, not per child)."""
    return LayoutBound(task, fill_parts=True)


def lonely_cells(task: Task, state: Sequence[int]) -> int:
    """Cells with no orthogonal neighbour of their own colour."""
    return _layout_bound(task).lonely(task.colours_of(state))


def touch_bound(task: Task, state: Sequence[int]) -> int:
    """Lonely cells / 10, rounded up: a swap changes the colour of two cells, and only those cells
    and their orthogonal neighbours can stop being lonely."""
    return (lonely_cells(task, state) + 9) // 10
