"""The swap graph of a Swap level: which cells can ever exchange squares (its components, whose squares
never leave them), its edges, and the fewest edges between every two cells.

>>> from .compiled import Task
>>> swap_components(Task.from_rows(["T1R B1G T1R"])), swap_components(Task.from_rows(["B1R B1G B1R"]))
((0, 0, 0), (0, 1, 2))
"""

from __future__ import annotations

from .compiled import Task


# ------------------------------------------------------------------ swap-graph components
def swap_components(task: Task) -> tuple[int, ...]:
    """Component id of each cell in the graph of swaps that can ever happen.

    Start from every candidate pair; a component's squares never leave it, so only the classes
    that start inside a component can make swaps there: drop the pairs no such class can make
    and repeat until nothing changes.

    >>> from .compiled import Task
    >>> swap_components(Task.from_rows(["T1R B1G T1R"]))
    (0, 0, 0)
    >>> swap_components(Task.from_rows(["B1R B1G B1R"]))
    (0, 1, 2)
    """
    n = len(task.cells)
    component = [0] * n
    while True:
        present: dict[int, int] = {}
        for i, k in enumerate(task.start):
            present[component[i]] = present.get(component[i], 0) | (1 << k)
        parent = list(range(n))

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for p, (i, j) in enumerate(task.pairs):
            if component[i] == component[j] and (task.forward[p] | task.backward[p]) & present[component[i]]:
                parent[find(i)] = find(j)
        roots: dict[int, int] = {}
        new = [roots.setdefault(find(i), len(roots)) for i in range(n)]
        if len(set(new)) == len(set(component)):
            return tuple(new)
        component = new


# ------------------------------------------------------------------ distances and assignment
UNREACHABLE_DISTANCE = 1 << 20


def swap_graph(task: Task) -> list[list[int]]:
    """Neighbours of each cell in the graph of swaps that can ever happen (see
    :func:`swap_components`): a square moves one edge of this graph per swap it takes part in.

    >>> from .compiled import Task
    >>> swap_graph(Task.from_rows(["T1R B1G T1R"]))
    [[1], [0, 2], [1]]
    """
    component = swap_components(task)
    present: dict[int, int] = {}
    for i, k in enumerate(task.start):
        present[component[i]] = present.get(component[i], 0) | (1 << k)
    adjacent: list[list[int]] = [[] for _ in task.cells]
    for p, (i, j) in enumerate(task.pairs):
        if component[i] == component[j] and (task.forward[p] | task.backward[p]) & present[component[i]]:
            adjacent[i].append(j)
            adjacent[j].append(i)
    return adjacent


def swap_distances(task: Task) -> list[list[int]]:
    """Fewest swap-graph edges between every two cells (``UNREACHABLE_DISTANCE`` across components)."""
    adjacent = swap_graph(task)
    n = len(task.cells)
    table = []
    for source in range(n):
        row = [UNREACHABLE_DISTANCE] * n
        row[source] = 0
        frontier = [source]
        while frontier:
            nxt = []
            for a in frontier:
                for b in adjacent[a]:
                    if row[b] == UNREACHABLE_DISTANCE:
                        row[b] = row[a] + 1
                        nxt.append(b)
            frontier = nxt
        table.append(row)
    return table
