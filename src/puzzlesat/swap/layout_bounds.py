"""Lower bounds on the swaps a Swap level of the cluster or touch goal still needs, on bit sets
(:class:`LayoutBound`): how far each colour's squares still travel to gather in one region, and
the lonely cells, of which a swap mends at most ten. The functions of a level and a state that
use it (``cluster_bound``, ``touch_bound``) are in :mod:`.cluster_touch_bounds`.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1R T1G"], goal="cluster")
>>> LayoutBound(task).cluster(task.colours_of(task.start))
1
"""

from __future__ import annotations

from itertools import permutations
from typing import Sequence

import numpy as np

from .assignment import SCIPY_FROM_SQUARES, min_cost_assignment, scipy_assignment
from .compiled import CLUSTER, TOUCH, Task
from .swapgraph import UNREACHABLE_DISTANCE, swap_distances


REGION_LIMIT = 20_000  # connected regions of one size enumerated for the cluster bound; past it, its relaxation


class LayoutBound:
    """The cluster and touch bounds of colour layouts (see
    :func:`~.cluster_touch_bounds.cluster_bound` and :func:`~.cluster_touch_bounds.touch_bound`
    for what they count), on bit sets: each colour's cells are one integer,
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
