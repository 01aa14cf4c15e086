"""A Swap level compiled to small integers for the exact solvers (search, CP-SAT, bounds).

Rules in a sentence: a square at ``u`` may swap contents with the cell ``v`` it reaches (its
figure's directions, distance 1..scope, no wall on the way or at ``v``), and a swap {u, v} is legal
when either end's square reaches the other. The exact solvers do not look at figures, scopes and
colours one by one: they see *classes* (squares with the same figure, scope and colour are
interchangeable), cells numbered row-major without the walls, and for every candidate pair of
cells the set of classes that can make that swap from either end.

>>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
>>> task.cells, task.colours, [task.class_colour[k] for k in range(len(task.classes))]
(((0, 0), (0, 1), (1, 0), (1, 1)), ('G', 'R'), [0, 1])
>>> task.start, task.goal_colours
((1, 0, 0, 1), (0, 1, 1, 0))
>>> [(task.cells[i], task.cells[j]) for i, j in task.pairs]
[((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1))]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..grid import Cell

MATCH, CLUSTER, TOUCH = "match", "cluster", "touch"

DIRECTIONS: Mapping[str, tuple[Cell, ...]] = {
    "T": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "B": ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    "Q": ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)),
}

Square = tuple[str, int, str]  # (figure, scope, colour)


def reachable(
    cell: Cell, figure: str, scope: int, *, height: int, width: int, walls: frozenset[Cell]
) -> list[Cell]:
    """Cells a square with ``figure`` and ``scope`` at ``cell`` can swap with (walls block).

    >>> reachable((0, 0), "T", 2, height=3, width=3, walls=frozenset({(0, 1)}))
    [(1, 0), (2, 0)]
    """
    out = []
    r, c = cell
    for dr, dc in DIRECTIONS[figure]:
        for d in range(1, scope + 1):
            rr, cc = r + d * dr, c + d * dc
            if not (0 <= rr < height and 0 <= cc < width) or (rr, cc) in walls:
                break
            out.append((rr, cc))
    return out


@dataclass(frozen=True)
class Task:
    """The integer view of a level.

    ``cells[i]`` is the i-th non-wall cell; ``classes[k]`` a (figure, scope, colour) present on
    the board; ``start[i]`` the class at cell i; ``goal_colours[i]`` the goal colour index at cell
    i (match goal only, else ``None``); ``pairs`` the candidate swaps (i < j) that some class
    present can make; ``forward[p]`` / ``backward[p]`` the bit masks of classes whose square at
    ``pairs[p][0]`` reaches ``pairs[p][1]`` / at ``pairs[p][1]`` reaches ``pairs[p][0]``.
    """

    height: int
    width: int
    walls: frozenset[Cell]
    cells: tuple[Cell, ...]
    classes: tuple[Square, ...]
    colours: tuple[str, ...]
    class_colour: tuple[int, ...]
    start: tuple[int, ...]
    goal: str
    goal_colours: tuple[int, ...] | None
    reach: tuple[tuple[tuple[int, ...], ...], ...]  # reach[k][i] -> cells (indices)
    pairs: tuple[tuple[int, int], ...]
    forward: tuple[int, ...]
    backward: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal non-wall neighbours of each cell
    index: Mapping[Cell, int] = field(compare=False, repr=False, default_factory=dict)

    @classmethod
    def from_parts(
        cls,
        *,
        height: int,
        width: int,
        squares: Mapping[Cell, Square],
        walls: frozenset[Cell] | set[Cell] = frozenset(),
        goal: "str | Mapping[Cell, str]" = CLUSTER,
    ) -> "Task":
        """Compile from plain parts: ``goal`` is "cluster", "touch" or a map cell -> colour."""
        walls = frozenset(walls)
        cells = tuple(sorted(squares))
        index = {cell: i for i, cell in enumerate(cells)}
        classes = tuple(sorted(set(squares.values()), key=lambda s: (s[2], s[0], s[1])))
        class_index = {square: k for k, square in enumerate(classes)}
        colours = tuple(sorted({square[2] for square in classes}))
        colour_index = {colour: x for x, colour in enumerate(colours)}
        if isinstance(goal, str):
            goal_kind, goal_colours = goal, None
        else:
            goal_kind = MATCH
            extra = sorted({goal[cell] for cell in cells} - set(colours))
            goal_colour_index = dict(colour_index)
            for colour in extra:  # a goal colour absent from the start: the level is unsolvable
                goal_colour_index[colour] = len(goal_colour_index)
            goal_colours = tuple(goal_colour_index[goal[cell]] for cell in cells)
        reach = tuple(
            tuple(
                tuple(index[v] for v in reachable(cell, figure, scope, height=height, width=width, walls=walls))
                for cell in cells
            )
            for figure, scope, _ in classes
        )
        forward_sets: dict[tuple[int, int], int] = {}
        backward_sets: dict[tuple[int, int], int] = {}
        for k in range(len(classes)):
            for i in range(len(cells)):
                for j in reach[k][i]:
                    if i < j:
                        forward_sets[(i, j)] = forward_sets.get((i, j), 0) | (1 << k)
                        backward_sets.setdefault((i, j), 0)
                    else:
                        backward_sets[(j, i)] = backward_sets.get((j, i), 0) | (1 << k)
                        forward_sets.setdefault((j, i), 0)
        pairs = tuple(sorted(forward_sets))
        neighbours = tuple(
            tuple(
                index[(r + dr, c + dc)]
                for dr, dc in DIRECTIONS["T"]
                if (r + dr, c + dc) in index
            )
            for r, c in cells
        )
        return cls(
            height=height,
            width=width,
            walls=walls,
            cells=cells,
            classes=classes,
            colours=colours,
            class_colour=tuple(colour_index[square[2]] for square in classes),
            start=tuple(class_index[squares[cell]] for cell in cells),
            goal=goal_kind,
            goal_colours=goal_colours,
            reach=reach,
            pairs=pairs,
            forward=tuple(forward_sets[p] for p in pairs),
            backward=tuple(backward_sets[p] for p in pairs),
            neighbours=neighbours,
            index=index,
        )

    @classmethod
    def from_level(cls, level) -> "Task":
        """Compile a :class:`puzzlesat.swap.model.Level`."""
        squares = {
            (r, c): (sq.figure, sq.scope, sq.colour)
            for r, row in enumerate(level.start)
            for c, sq in enumerate(row)
            if sq is not None
        }
        goal: "str | dict[Cell, str]" = level.goal.kind
        if level.goal.kind == MATCH:
            goal = {
                (r, c): colour
                for r, row in enumerate(level.goal.colours)
                for c, colour in enumerate(row)
                if colour is not None
            }
        return cls.from_parts(
            height=level.rows, width=level.cols, squares=squares, walls=level.walls, goal=goal
        )

    @classmethod
    def from_rows(cls, rows: Sequence[str], *, goal: "str | Sequence[str]" = CLUSTER) -> "Task":
        """Compile from start tokens per row (``T1R``, ``###``) and goal rows or a goal name."""
        squares: dict[Cell, Square] = {}
        walls = set()
        grid = [row.split() for row in rows]
        for r, tokens in enumerate(grid):
            for c, token in enumerate(tokens):
                if token == "###":
                    walls.add((r, c))
                else:
                    squares[(r, c)] = (token[0], int(token[1:-1]), token[-1])
        goal_map: "str | dict[Cell, str]"
        if isinstance(goal, str):
            goal_map = goal
        else:
            goal_map = {
                (r, c): letter for r, row in enumerate(goal) for c, letter in enumerate(row.split())
                if letter != "#"
            }
        return cls.from_parts(height=len(grid), width=len(grid[0]), squares=squares, walls=walls, goal=goal_map)

    # ----------------------------------------------------------------- state helpers
    def colours_of(self, state: Sequence[int]) -> tuple[int, ...]:
        """The colour index at every cell of ``state`` (a class per cell)."""
        return tuple(self.class_colour[k] for k in state)

    def colour_table(self) -> bytes:
        """The table that turns a state held as bytes (a class per cell) into its colour layout
        (a colour per cell): ``state.translate(task.colour_table())``.

        >>> task = Task.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
        >>> bytes(task.start).translate(task.colour_table()) == bytes(task.colours_of(task.start))
        True
        """
        return bytes(self.class_colour) + bytes(256 - len(self.class_colour))

    def legal_swaps(self, state: Sequence[int]) -> list[tuple[int, int]]:
        """The swaps (i, j), i < j, legal in ``state`` that change it (different classes)."""
        out = []
        for p, (i, j) in enumerate(self.pairs):
            ki, kj = state[i], state[j]
            if ki != kj and ((self.forward[p] >> ki) & 1 or (self.backward[p] >> kj) & 1):
                out.append((i, j))
        return out

    def is_goal(self, state: Sequence[int]) -> bool:
        colours = self.colours_of(state)
        if self.goal == MATCH:
            return colours == self.goal_colours
        if self.goal == TOUCH:
            return all(
                any(colours[n] == colours[i] for n in self.neighbours[i]) for i in range(len(self.cells))
            )
        return all(count == 1 for count in self.group_counts(colours))

    def group_counts(self, colours: Sequence[int]) -> list[int]:
        """For every colour index, the number of orthogonally connected groups it forms."""
        counts = [0] * len(self.colours)
        seen = [False] * len(colours)
        for i, colour in enumerate(colours):
            if seen[i]:
                continue
            counts[colour] += 1
            seen[i] = True
            stack = [i]
            while stack:
                a = stack.pop()
                for b in self.neighbours[a]:
                    if not seen[b] and colours[b] == colour:
                        seen[b] = True
                        stack.append(b)
        return counts
