"""Admissible lower bounds on the number of swaps a Swap level still needs, and cheap proofs
that a level cannot be solved at all.

Rules the bounds rest on: a swap exchanges the contents of two cells, so it changes the colour of
at most two cells; squares only ever move along *candidate pairs* (cells some square could swap),
so a square never leaves its component of the swap graph.

* Match goal: ``mismatch_bound`` (half the mismatched cells, rounded up) and the stronger
  ``cycle_bound``: the mismatched cells form a colour-transfer multigraph (an arc current colour ->
  goal colour per cell); sorting with *arbitrary* swaps needs exactly ``mismatches - cycles``
  swaps where ``cycles`` is the largest number of cycles the arcs decompose into. Real swaps are a
  subset of arbitrary ones, and never cross swap-graph components, so the sum of this number per
  component is admissible (and consistent: one swap changes it by at most one).
* Cluster goal: each colour's squares must gather in a connected region of their number of
  cells, moving one swap-graph edge per swap they take part in, and a swap moves two squares:
  half the least total distance they still have to travel, summed over the colours and rounded
  up, and the most any one colour has to travel (``cluster_bound``).
* Touch goal: a swap can change the loneliness of at most 10 cells (the two cells and their
  orthogonal neighbours).

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> mismatch_bound(task, task.start), cycle_bound(task, task.start)
(2, 2)
>>> max_cycle_packing({("R", "G"): 2, ("G", "R"): 1, ("G", "B"): 1, ("B", "R"): 1})
2
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations
from typing import Hashable, Mapping, Sequence

import numpy as np

from .compiled import CLUSTER, MATCH, TOUCH, Task

EXACT_PACKING_MAX_COLOURS = 8  # beyond this, an admissible relaxation of the cycle count is used


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


def unreachable_reason(task: Task) -> str | None:
    """A short proof that no sequence of swaps reaches the goal, or ``None`` when none is found.

    Match: some swap-graph component holds other colours (with counts) than the goal asks there.
    Touch: a colour with a single square can never touch its own colour.
    Cluster: no connected region of a colour's size can be filled by its squares, which never
    leave their swap-graph components (:meth:`LayoutBound.need` is infinite).

    >>> from .compiled import Task
    >>> unreachable_reason(Task.from_rows(["B1R B1G"], goal=["G R"]))
    'cells (0, 0) cannot exchange squares with the rest of the board and need 1 other colour(s)'
    """
    if task.goal == MATCH:
        assert task.goal_colours is not None
        component = swap_components(task)
        for comp in sorted(set(component)):
            cells = [i for i in range(len(task.cells)) if component[i] == comp]
            have = Counter(task.class_colour[task.start[i]] for i in cells)
            want = Counter(task.goal_colours[i] for i in cells)
            if have != want:
                wrong = sum((want - have).values())
                shown = ", ".join(str(task.cells[i]) for i in cells[:4]) + (" ..." if len(cells) > 4 else "")
                return (
                    f"cells {shown} cannot exchange squares with the rest of the board"
                    f" and need {wrong} other colour(s)"
                )
        return None
    if task.goal == TOUCH:
        counts = Counter(task.class_colour[k] for k in task.start)
        single = sorted(task.colours[x] for x, n in counts.items() if n == 1)
        if single:
            return f"colour {single[0]} has a single square, which can never touch its own colour"
    if task.goal == CLUSTER:
        layout_bound = _layout_bound(task)
        for colour, cells in enumerate(layout_bound.masks(task.colours_of(task.start))):
            if cells and layout_bound.need(cells) >= UNREACHABLE_DISTANCE:
                size = cells.bit_count()
                why = (f"there is no region of {size} connected cells" if layout_bound.regions(size) == () else
                       f"every region of {size} connected cells needs a square from a part of the board it cannot leave")
                return f"the squares of colour {task.colours[colour]} can never gather: {why}"
    if no_goal_layout(task):
        return (
            f"no arrangement of the colours on these cells meets the {task.goal} goal"
            " (every one was tried, keeping each swap-graph component's colours)"
        )
    return None


STATIC_LAYOUT_LIMIT = 20_000  # colour layouts tried at most by no_goal_layout


def no_goal_layout(task: Task, *, limit: int = STATIC_LAYOUT_LIMIT) -> bool:
    """Cluster and touch: True when *no* colour layout meets the goal at all, whatever the
    moves (each swap-graph component keeps its multiset of colours). Decided by trying every
    layout when there are at most ``limit`` of them; otherwise (or for match) False.

    >>> from .compiled import Task
    >>> no_goal_layout(Task.from_rows(["T1R T1G T1R T1G"]))
    False
    >>> no_goal_layout(Task.from_rows(["T1R T1G T1R", "### T1G ###"]))  # the two greens never touch
    True
    >>> no_goal_layout(Task.from_rows(["T1R ### T1R", "T1G ### T1G"]))  # a red in each column for ever
    True
    """
    if task.goal not in (CLUSTER, TOUCH):
        return False
    component = swap_components(task)
    n = len(task.cells)
    remaining: dict[int, Counter] = {}
    for i, k in enumerate(task.start):
        remaining.setdefault(component[i], Counter())[task.class_colour[k]] += 1
    layouts = 1
    for counts in remaining.values():
        size = sum(counts.values())
        layouts *= _multinomial(size, counts.values())
        if layouts > limit:
            return False
    colours = [0] * n
    bound = _layout_bound(task)  # (the one the solver then uses: its regions and needs are kept)

    def found(i: int) -> bool:
        if i == n:
            return bound.of_colours(colours) == 0
        counts = remaining[component[i]]
        for colour in list(counts):
            if counts[colour]:
                counts[colour] -= 1
                colours[i] = colour
                hit = found(i + 1)
                counts[colour] += 1
                if hit:
                    return True
        return False

    return not found(0)


def _multinomial(total: int, parts) -> int:
    from math import comb

    out, left = 1, total
    for part in parts:
        out *= comb(left, part)
        left -= part
    return out


# ------------------------------------------------------------------ match bounds
def mismatches(task: Task, state: Sequence[int]) -> int:
    """Cells whose colour differs from the goal colour."""
    assert task.goal_colours is not None
    return sum(task.class_colour[k] != g for k, g in zip(state, task.goal_colours))


def mismatch_bound(task: Task, state: Sequence[int]) -> int:
    """Half the mismatched cells, rounded up (a swap fixes at most two cells)."""
    return (mismatches(task, state) + 1) // 2


def max_cycle_packing(arcs: Mapping[tuple[Hashable, Hashable], int]) -> int:
    """The largest number of cycles a balanced multigraph (arc -> multiplicity) splits into.

    Exact for up to ``EXACT_PACKING_MAX_COLOURS`` vertices: 2-cycles are taken greedily (some
    maximum decomposition contains them all: two cycles through a->b and b->a can be re-cut into
    the 2-cycle and one closed walk), then a memoised search branches over the simple cycles
    through the smallest vertex left. Beyond that it returns an upper bound on the number of
    cycles (2-cycles plus a third of the rest), which keeps ``cycle_bound`` admissible.

    >>> max_cycle_packing({(0, 1): 1, (1, 2): 1, (2, 0): 1, (0, 2): 1, (2, 1): 1, (1, 0): 1})
    3
    """
    counts = {arc: n for arc, n in arcs.items() if n > 0 and arc[0] != arc[1]}
    vertices = sorted({v for arc in counts for v in arc}, key=repr)
    number = {v: x for x, v in enumerate(vertices)}
    matrix = {(number[a], number[b]): n for (a, b), n in counts.items()}
    two_cycles = 0
    for (a, b), n in list(matrix.items()):
        if a < b and (b, a) in matrix:
            t = min(n, matrix[(b, a)])
            two_cycles += t
            matrix[(a, b)] -= t
            matrix[(b, a)] -= t
    rest = tuple(sorted((arc, n) for arc, n in matrix.items() if n > 0))
    if len(vertices) > EXACT_PACKING_MAX_COLOURS:
        return two_cycles + sum(n for _, n in rest) // 3
    return two_cycles + _packing(rest)


@lru_cache(maxsize=200_000)
def _packing(arcs: tuple[tuple[tuple[int, int], int], ...]) -> int:
    if not arcs:
        return 0
    counts = dict(arcs)
    out: dict[int, list[int]] = {}
    for a, b in counts:
        out.setdefault(a, []).append(b)
    first = min(out)
    best = 0
    # every arc set left is balanced, so the smallest vertex lies on some cycle of any decomposition
    path = [first]
    on_path = {first}

    def extend(v: int) -> None:
        nonlocal best
        for w in out.get(v, ()):
            if w == first:
                cycle = list(zip(path, path[1:] + [first]))
                remaining = dict(counts)
                for arc in cycle:
                    remaining[arc] -= 1
                value = 1 + _packing(tuple(sorted((arc, n) for arc, n in remaining.items() if n > 0)))
                best = max(best, value)
            elif w not in on_path:
                path.append(w)
                on_path.add(w)
                extend(w)
                path.pop()
                on_path.discard(w)

    extend(first)
    return best


def cycle_bound(task: Task, state: Sequence[int], components: Sequence[int] | None = None) -> int:
    """Sum over swap-graph components of mismatches minus the maximum colour-cycle packing.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
    >>> cycle_bound(task, task.start)
    2
    """
    assert task.goal_colours is not None
    if components is None:
        components = swap_components(task)
    arcs: dict[int, Counter] = {}
    for i, k in enumerate(state):
        a, g = task.class_colour[k], task.goal_colours[i]
        if a != g:
            arcs.setdefault(components[i], Counter())[(a, g)] += 1
    return sum(sum(c.values()) - max_cycle_packing(c) for c in arcs.values())


class MatchHeuristic:
    """``cycle_bound`` kept incrementally for search: a state's colour-transfer counts are packed
    in one integer (a bit field per component and arc) and the bound is cached per packed key.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
    >>> h = MatchHeuristic(task); key = h.key(task.start)
    >>> h.value(key), h.value(h.after_swap(key, task.start, 0, 1))
    (2, 1)
    """

    def __init__(self, task: Task) -> None:
        assert task.goal_colours is not None
        self.task = task
        self.components = swap_components(task)
        self.ncomp = max(self.components, default=-1) + 1
        self.ncol = max([*task.goal_colours, *task.class_colour], default=-1) + 1
        self.bits = (len(task.cells) + 1).bit_length()
        self.mask = (1 << self.bits) - 1
        self.cache: dict[int, int] = {}
        # unit[i][a] = the bit field one arc a -> goal(i) adds for cell i (0 when a == goal(i))
        self.unit = [
            [
                0 if a == g else 1 << (self.bits * ((self.components[i] * self.ncol + a) * self.ncol + g))
                for a in range(self.ncol)
            ]
            for i, g in enumerate(task.goal_colours)
        ]
        self.class_colour = task.class_colour

    def key(self, state: Sequence[int]) -> int:
        return sum(self.unit[i][self.class_colour[k]] for i, k in enumerate(state))

    def after_swap(self, key: int, state: Sequence[int], i: int, j: int) -> int:
        ci, cj = self.class_colour[state[i]], self.class_colour[state[j]]
        ui, uj = self.unit[i], self.unit[j]
        return key - ui[ci] - uj[cj] + ui[cj] + uj[ci]

    def value(self, key: int) -> int:
        h = self.cache.get(key)
        if h is None:
            h = 0
            per_component: dict[int, dict[tuple[int, int], int]] = {}
            field_index, rest = 0, key
            while rest:
                n = rest & self.mask
                if n:
                    comp, arc = divmod(field_index, self.ncol * self.ncol)
                    per_component.setdefault(comp, {})[divmod(arc, self.ncol)] = n
                rest >>= self.bits
                field_index += 1
            for arcs in per_component.values():
                h += sum(arcs.values()) - max_cycle_packing(arcs)
            self.cache[key] = h
        return h


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


class AssignmentBound:
    """Match goal: every square of colour X must end on a goal cell of colour X, and a swap moves
    two squares one swap-graph edge each. So half the least total distance of an assignment of
    squares to goal cells of their colour (per colour, a min-cost perfect matching), rounded up,
    is admissible and consistent. Costs are cached per (colour, set of cells) bit mask.

    >>> from .compiled import Task
    >>> task = Task.from_rows(["T1R T1G T1G T1G"], goal=["G G G R"])
    >>> AssignmentBound(task).bound(task.start)
    3
    """

    def __init__(self, task: Task) -> None:
        assert task.goal_colours is not None
        self.task = task
        self.distance = swap_distances(task)
        ncol = max([*task.goal_colours, *task.class_colour], default=-1) + 1
        self.targets = [[i for i, g in enumerate(task.goal_colours) if g == x] for x in range(ncol)]
        self.ncol = ncol
        self.cache: list[dict[int, int]] = [{} for _ in range(ncol)]  # per colour: mask -> cost
        self._matrix: np.ndarray | None = None  # the distances for SciPy, made on its first use

    def masks(self, state: Sequence[int]) -> list[int]:
        """For each colour, the bit mask of cells holding it."""
        masks = [0] * self.ncol
        for i, k in enumerate(state):
            masks[self.task.class_colour[k]] |= 1 << i
        return masks

    def cost(self, colour: int, mask: int) -> int:
        value = self.cache[colour].get(mask)
        if value is None:
            sources = [i for i in range(len(self.task.cells)) if mask >> i & 1]
            targets = self.targets[colour]
            if len(sources) != len(targets):
                value = UNREACHABLE_DISTANCE
            elif len(sources) >= SCIPY_FROM_SQUARES and (assign := scipy_assignment()) is not None:
                if self._matrix is None:
                    self._matrix = np.array(self.distance, dtype=np.int64)
                block = self._matrix[np.ix_(sources, targets)]
                rows, cols = assign(block)
                value = int(block[rows, cols].sum())
            else:
                value = min_cost_assignment([[self.distance[i][j] for j in targets] for i in sources])
            self.cache[colour][mask] = value
        return value

    def total(self, masks: Sequence[int]) -> int:
        return sum(self.cost(x, mask) for x, mask in enumerate(masks))

    def bound(self, state: Sequence[int]) -> int:
        return (self.total(self.masks(state)) + 1) // 2


def match_bound(task: Task, state: Sequence[int]) -> int:
    """The best match-goal bound: the larger of ``cycle_bound`` and the assignment bound."""
    return max(cycle_bound(task, state), AssignmentBound(task).bound(state))


# ------------------------------------------------------------------ cluster and touch bounds
REGION_LIMIT = 20_000  # connected regions of one size enumerated for the cluster bound; past it, its relaxation


class LayoutBound:
    """The cluster and touch bounds of colour layouts (see :func:`cluster_bound` and
    :func:`touch_bound` for what they count), on bit sets: each colour's cells are one integer,
    bit ``r * (width + 1) + c`` for cell ``(r, c)`` (a spare column keeps a shift by one from
    wrapping into the next row), so one step in the four directions is four shifts and a mask,
    a colour's groups are flood fills and the gaps between them breadth-first layers of a few
    integer operations each. A colour's cluster need depends only on the cells it holds and is
    cached per cell set; the connected regions it is measured against are enumerated once per
    size. Build one per level and reuse it: the searches evaluate it for every child (a plain
    breadth-first version took most of a search's time).

    ``fill_parts``: past the region limit, also the filling of parts of the region
    (:meth:`_part_need`), a stronger bound at 0.1-1 ms per new cell set, for bounds taken once
    (a level's start), not in the searches (there, it cost more than it saved; encodings/swap.md,
    "Notes moved from the code").

    >>> from .compiled import Task
    >>> bound = LayoutBound(Task.from_rows(["T1R T1R T1G T1G T1G T1R T1R"]))
    >>> bound.cluster((0, 0, 1, 1, 1, 0, 0)), bound.lonely((0, 1, 0, 0, 1, 1, 0))
    (6, 3)
    """

    def __init__(self, task: Task, *, fill_parts: bool = False) -> None:
        self.task = task
        self.fill_parts = fill_parts
        width = max((c for _, c in task.cells), default=0) + 1
        self.row = width + 1
        self.bits = [1 << (r * self.row + c) for r, c in task.cells]
        self.board = sum(self.bits)
        self.needs: dict[int, int] = {}  # cells of one colour -> the swap-graph steps its squares must take
        self._region_layers: list[tuple[int, ...] | None] = []  # connected regions of 1, 2, ... cells
        self._tables: dict[int, tuple[tuple[int, ...], np.ndarray, np.ndarray] | None] = {}
        self._index = {bit: i for i, bit in enumerate(self.bits)}
        self._distance: list[list[int]] | None = None  # swap_distances, made on first use (cluster goal)
        self._capped: np.ndarray | None = None  # the same as float32, capped at the number of cells
        self._parts: dict[int, tuple[int, int]] = {}  # cells of one colour -> (its part of the bound, of the guide)
        # a state (a class byte per cell) to its layout (a colour byte per cell): state.translate(to_colours)
        self.to_colours = task.colour_table()

    def spread(self, cells: int) -> int:
        """The board cells one orthogonal step from ``cells``."""
        row = self.row
        return ((cells << 1) | (cells >> 1) | (cells << row) | (cells >> row)) & self.board

    def masks(self, colours: Sequence[int]) -> list[int]:
        """Each colour's cells as bits (index = colour)."""
        out = [0] * (max(colours, default=-1) + 1)
        for bit, colour in zip(self.bits, colours):
            out[colour] |= bit
        return out

    def groups(self, cells: int) -> list[int]:
        """The orthogonally connected groups of ``cells``, each as bits."""
        out = []
        while cells:
            group = cells & -cells
            while True:
                grown = (group | self.spread(group)) & cells
                if grown == group:
                    break
                group = grown
            out.append(group)
            cells &= ~group
        return out

    def regions(self, size: int) -> tuple[int, ...] | None:
        """Every connected set of ``size`` board cells, as bits; None when some size up to it
        has more than REGION_LIMIT (grown one cell at a time from single cells, each size from
        the one below)."""
        layers = self._region_layers
        if not layers:
            layers.append(tuple(self.bits))
        while len(layers) < size and layers[-1] is not None:
            grown: set[int] | None = set()
            for region in layers[-1]:
                around = self.spread(region) & ~region
                while around:
                    cell = around & -around
                    grown.add(region | cell)
                    around ^= cell
                if len(grown) > REGION_LIMIT:
                    grown = None
                    break
            layers.append(None if grown is None else tuple(grown))
        return layers[min(size, len(layers)) - 1] if size > 0 else ()

    def need(self, cells: int, groups: list[int] | None = None) -> int:
        """The fewest swap-graph steps the squares of a colour holding ``cells`` must still take
        (cluster goal): over every connected region R of its size (:meth:`regions`), the least
        total distance of a matching of its squares outside R to the cells of R it does not hold
        (the squares inside R stay where they are: distances are a metric, so some least
        matching of all of them to R leaves them in place). Where the regions are too many to
        enumerate, the counting relaxation of :func:`cluster_bound` (each square outside counts
        one), and with ``fill_parts`` the larger of that and the filling of the largest connected
        part of R that can be enumerated (:meth:`_part_need`). ``groups``: :meth:`groups` of
        ``cells`` where the caller has them."""
        value = self.needs.get(cells)
        if value is None:
            if groups is None:
                groups = self.groups(cells)
            value = 0
            if len(groups) > 1:
                size = cells.bit_count()
                table = self._region_table(size)
                if table is None:
                    value = self._relaxed_need(cells, groups)
                    if self.fill_parts:
                        value = max(value, self._part_need(cells, size))
                else:
                    value = self._travel(cells, table)
            self.needs[cells] = value
        return value

    def _region_table(self, size: int) -> "tuple[tuple[int, ...], np.ndarray, np.ndarray] | None":
        """The connected regions of ``size`` cells and, for lower bounds on all of them at once,
        two matrices: a row per region, whether each cell is in it; a row per cell, its
        swap-graph distance to the nearest cell of each region (distances capped at the number
        of cells: only unreachable ones are that long, and a capped bound is still a bound;
        float32, whose sums of these are exact). None past REGION_LIMIT."""
        if size not in self._tables:
            regions = self.regions(size)
            table = None
            if regions is not None:
                n = len(self.bits)
                if self._distance is None:
                    self._distance = swap_distances(self.task)
                    self._capped = np.minimum(np.array(self._distance), n).astype(np.float32)
                width = (self.board.bit_length() + 7) // 8
                packed = np.frombuffer(b"".join(region.to_bytes(width, "little") for region in regions), dtype=np.uint8)
                bits = np.unpackbits(packed.reshape(len(regions), width), axis=1, bitorder="little")
                inside = bits[:, [bit.bit_length() - 1 for bit in self.bits]].astype(bool)
                nearest = np.empty((n, len(regions)), dtype=np.float32)
                for cell in range(n):
                    nearest[cell] = np.where(inside, self._capped[cell], np.float32(n)).min(axis=1, initial=n)
                table = (regions, inside.astype(np.float32), nearest)
            self._tables[size] = table
        return self._tables[size]

    def _travel(self, cells: int, table: "tuple[tuple[int, ...], np.ndarray, np.ndarray]") -> int:
        """:meth:`need` against every region of ``table``: each region's matching cost is at
        least the sum over its empty cells of the distance to the nearest square, and at least
        the sum over the squares of the distance to the nearest cell of the region; regions are
        matched exactly, lowest bound first, while their bound is below the best cost found.
        (A matrix-vector product and a row sum: cheaper than one product of the two matrices
        side by side; encodings/swap.md, "Notes moved from the code".)"""
        regions, inside, nearest = table
        if not regions:  # no connected region of this size: the colour can never gather
            return UNREACHABLE_DISTANCE
        held = self._indices(cells)
        low = np.maximum(inside @ self._capped[held].min(axis=0), nearest[held].sum(axis=0))
        return self._least(regions, low, lambda region: self._matching(cells, region))

    @staticmethod
    def _least(regions: tuple[int, ...], low: np.ndarray, cost) -> int:
        """The least ``cost(region)`` over ``regions``, given a lower bound ``low`` on each: the
        region of the lowest bound first, then the others in order of their bound, while it is
        below the least cost found."""
        first = int(low.argmin())
        best = cost(regions[first])
        candidates = np.flatnonzero(low < best)
        for k in candidates[np.argsort(low[candidates], kind="stable")]:
            if low[k] >= best:
                break
            if k != first:
                best = min(best, cost(regions[k]))
        return best

    def _part_need(self, cells: int, size: int) -> int:
        """:meth:`need` past the region limit, relaxed: every connected region R of ``size``
        cells holds a connected part P of any smaller size (cells of R taken one at a time, each
        beside one taken before), and filling R fills P, so the least cost of filling the cells
        of P that ``cells`` leave empty, each with its own square (:meth:`_filling`), is a lower
        bound for R; the least over every P of the largest size whose regions are enumerated is
        one for the colour. Like the exact need it changes by at most one per swap (a square
        moves one edge), so it is consistent. On 7x6 cluster levels whose colours have too many
        regions, the start's bound rose from 3 to 8, 4 to 6, 5 to 6, 5 to 7 (exact: 11, 9, 9, 8)."""
        part = size - 1
        while part > 1 and self._region_table(part) is None:
            part -= 1
        table = self._region_table(part)
        if table is None:
            return 0
        regions, inside, nearest = table
        if not regions:  # no connected part of that size, so no region of ``size`` either
            return UNREACHABLE_DISTANCE
        held = self._indices(cells)
        # each empty cell of a part takes a square at least as far away as the nearest one; and
        # the squares that fill it are all but size - part of those outside it, each at least
        # as far away as the part's nearest cell (a square inside counts 0): the sum over every
        # square less the size - part largest is at most theirs
        low = inside @ self._capped[held].min(axis=0)
        if size - part <= 2:  # (the largest one or two per part by maxima: argmax across rows is slow)
            away = nearest[held]
            largest = away.max(axis=0)
            spare = away.sum(axis=0) - largest
            if size - part == 2:
                tied = (away == largest).sum(axis=0) > 1
                spare -= np.where(tied, largest, np.where(away == largest, 0, away).max(axis=0))
            low = np.maximum(low, spare)
        return self._least(regions, low, lambda region: self._filling(cells, region))

    def _filling(self, cells: int, part: int) -> int:
        """The least total swap-graph distance of filling the cells of ``part`` that ``cells``
        leave empty, each with a different square of ``cells`` from outside ``part`` (there are
        more of those than empty cells: the part is smaller than the colour)."""
        distance = self._distance
        squares, holes = self._indices(cells & ~part), self._indices(part & ~cells)
        if not holes:
            return 0
        if len(holes) == 1:
            return min(distance[square][holes[0]] for square in squares)
        if len(holes) == 2 and len(squares) <= 4:  # every ordered pair of squares (at most 12)
            to_first = [distance[square][holes[0]] for square in squares]
            to_second = [distance[square][holes[1]] for square in squares]
            return min(a + b for i, a in enumerate(to_first) for j, b in enumerate(to_second) if i != j)
        # one row per square, a column per empty cell and one of cost 0 per square left over
        spare = [0] * (len(squares) - len(holes))
        rows = [[distance[square][hole] for hole in holes] + spare for square in squares]
        solve = scipy_assignment() if len(rows) >= SCIPY_FROM_SQUARES else None
        if solve is None:
            return min_cost_assignment(rows)
        matrix = np.array(rows)
        chosen_rows, chosen_columns = solve(matrix)
        return int(matrix[chosen_rows, chosen_columns].sum())

    def _matching(self, cells: int, region: int) -> int:
        """The least total swap-graph distance from the squares outside ``region`` to its empty cells."""
        distance = self._distance
        squares, holes = self._indices(cells & ~region), self._indices(region & ~cells)
        if len(squares) == 1:
            return distance[squares[0]][holes[0]]
        rows = [[distance[square][hole] for hole in holes] for square in squares]
        if len(rows) > 3:
            return min_cost_assignment(rows)
        return min(sum(row[column] for row, column in zip(rows, order)) for order in permutations(range(len(rows))))

    def _indices(self, cells: int) -> list[int]:
        """The cell indices of bits ``cells``."""
        out = []
        index = self._index
        while cells:
            bit = cells & -cells
            out.append(index[bit])
            cells ^= bit
        return out

    def _relaxed_need(self, cells: int, groups: list[int]) -> int:
        sizes = [group.bit_count() for group in groups]
        value = sum(sizes) - max(sizes)
        for group in groups[:-1]:
            seen = layer = group
            steps = 0
            while layer and steps < value:
                steps += 1
                around = self.spread(layer) & ~seen
                if around & cells:  # another group, reached across steps - 1 other cells
                    value = steps - 1
                    break
                seen |= around
                layer = around
        return value

    def cluster(self, colours: Sequence[int]) -> int:
        """:func:`cluster_bound` of the layout with colour index ``colours[i]`` at cell ``i``."""
        return self._cluster([self.need(cells) for cells in self.masks(colours) if cells])

    @staticmethod
    def _cluster(needs: list[int]) -> int:
        return max((sum(needs) + 1) // 2, max(needs)) if needs else 0

    def lonely(self, colours: Sequence[int]) -> int:
        """Cells with no orthogonal neighbour of their own colour."""
        return sum(self._lonely(cells).bit_count() for cells in self.masks(colours))

    def _lonely(self, cells: int) -> int:
        """The cells of ``cells`` with no orthogonal neighbour among them, as bits."""
        return cells & ~self.spread(cells)

    def of_colours(self, colours: Sequence[int]) -> int:
        """The bound of the level's goal (cluster or touch); 0 exactly when the goal holds."""
        return self.values(colours)[0]

    def guide(self, colours: Sequence[int]) -> int:
        """How far the layout looks from the goal, to order searches (not a bound): for the
        cluster goal, each square outside its colour's largest group counts its distance in
        steps to that group; for the touch goal, each lonely cell counts its distance to the
        nearest other cell of its colour, less one (at least one). 0 exactly when the goal
        holds. The admissible bounds are flat over wide plateaus of cluster and touch layouts,
        so searches ordered by them alone wander, where an order by this distance finds a plan
        at once (encodings/swap.md, "Notes moved from the code").

        >>> from .compiled import Task
        >>> bound = LayoutBound(Task.from_rows(["T1R T1G T1G T1R T1R"]))
        >>> bound.guide((0, 1, 1, 0, 0)), bound.guide((1, 1, 0, 0, 0))
        (3, 0)
        """
        return self.values(colours)[1]

    def values(self, colours: Sequence[int]) -> tuple[int, int]:
        """(:meth:`of_colours`, :meth:`guide`) of a layout, from each colour's cells at once
        (each colour's parts of the two are cached per cell set)."""
        parts = [self._parts_of(cells) for cells in self.masks(colours) if cells]
        guide = sum(part[1] for part in parts)
        if self.task.goal == CLUSTER:
            return self._cluster([part[0] for part in parts]), guide
        assert self.task.goal == TOUCH
        return (sum(part[0] for part in parts) + 9) // 10, guide

    def _parts_of(self, cells: int) -> tuple[int, int]:
        """One colour's part of the bound (cluster: its need; touch: its lonely cells) and of
        the guide."""
        parts = self._parts.get(cells)
        if parts is None:
            guide = 0
            if self.task.goal == CLUSTER:
                groups = self.groups(cells)
                if len(groups) > 1:
                    guide = self._steps(max(groups, key=int.bit_count), cells, nearest=False)
                parts = (self.need(cells, groups), guide)
            else:
                lonely = self._lonely(cells)
                count = lonely.bit_count()
                while lonely:
                    cell = lonely & -lonely
                    lonely ^= cell
                    guide += max(1, self._steps(cell, cells & ~cell, nearest=True) - 1)
                parts = (count, guide)
            self._parts[cells] = parts
        return parts

    def _steps(self, source: int, targets: int, *, nearest: bool) -> int:
        """Steps from ``source`` (bits) across the board to the target cells outside it: to the
        nearest one (``nearest``), else summed over all; a target never reached (walls cut it
        off) counts one step more than the farthest cell reached."""
        targets &= ~source
        seen = layer = source
        steps = total = 0
        while layer and targets:
            steps += 1
            layer = self.spread(layer) & ~seen
            seen |= layer
            reached = layer & targets
            if reached:
                if nearest:
                    return steps
                total += steps * reached.bit_count()
                targets &= ~reached
        return steps if nearest else total + steps * targets.bit_count()


def cluster_bound(task: Task, state: Sequence[int]) -> int:
    """Cluster goal: a lower bound from the distances each split colour's squares must travel.

    For a colour X with n squares, the final group is a connected region R of n cells (walls
    excluded), and a square moves one edge of the swap graph (:func:`swap_graph`) per swap it
    takes part in, so X's squares travel at least the least total distance of a matching of them
    to R's cells; ``need_X`` is the least of that over every such R. One swap moves two squares,
    one edge each, and at most one of X (a swap of two squares of one colour leaves its cells as
    they are), so it lowers ``need_X`` by at most one and the sum of the needs by at most two:
    moves >= ceil(sum need_X / 2) and moves >= max need_X. Admissible, and consistent where the
    regions are enumerated (:data:`REGION_LIMIT`); past that limit, a relaxation counting one step
    per square that must move: if R meets one current group G of X, need_X >= n - |G|; if it meets
    two or more, R holds a chain of non-X cells joining two groups, so need_X >= the fewest non-X
    cells on a path between two groups; so need_X >= min(n - largest group, smallest gap) (not
    always consistent); here (not in the searches, where it costs too much) also the least cost
    of filling a connected part of R of the largest size enumerated
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


def lower_bound(task: Task, state: Sequence[int] | None = None) -> int:
    """The best admissible lower bound for the level's goal (``state`` defaults to the start).

    >>> from .compiled import Task
    >>> lower_bound(Task.from_rows(["T1R T1G T1R T1G"]))
    1
    """
    state = task.start if state is None else state
    if task.goal == MATCH:
        return match_bound(task, state)
    if task.goal == CLUSTER:
        return cluster_bound(task, state)
    return touch_bound(task, state)
