"""Reasons a Numberlink puzzle has no answer that need no search (colours and planarity).

Rules in a sentence: paths join equal labels, never share a cell, and (cover-all) cover every
free cell. Three facts follow that refute some puzzles at once, on any board size:

* **chessboard colours** (cover-all): a path alternates colours, so a path whose end cells have
  colours ``c1, c2`` (+1 black, -1 white) covers ``(c1 + c2) / 2`` more black cells than white;
  all paths together must match the free cells' own count;
* **pairs on the border**: paths are disjoint curves inside the board, so two pairs whose four
  ends lie on the border cannot alternate along it (a, b, a, b);
* **spokes around an island**: paths from the border to one island of endpoint cells (a group
  of endpoints joined side by side, not touching the border, without holes) are disjoint curves
  across the ring between the border and the island, so they meet the island in the same
  cyclic order as the border.

Each check is sound: it reports a reason only when no answer exists under the given rules (the
colour count only under cover-all; the other two under every rule set). Each takes a
``deadline`` (:class:`~puzzlesat.timing.Deadline`): when it passes, the check stops and finds no
reason (None), so the caller's next step answers "unknown" for want of time.

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> contradiction(Puzzle.from_rows(["A.B", "...", "A.B"]), Rules())
'chessboard colours: the free cells have 1 more black than white, but paths between these endpoints cover 2'
>>> contradiction(Puzzle.from_rows(["A.B.", "....", "....", "B.A."]), Rules(cover_all=False))
"pairs 'A' and 'B' alternate along the border: their paths would cross"
>>> contradiction(Puzzle.from_rows(["A.B", "...", "A.B"]), Rules(cover_all=False)) is None
True
"""

from __future__ import annotations

import numpy as np

from ..grid import ORTHOGONAL
from ..timing import Deadline
from .model import Cell, Puzzle, Rules

CHECK_EVERY = 4096  # steps between two looks at the clock (cheap against the steps themselves)


class _OutOfTime(Exception):
    """The deadline passed inside a check: it gives up without a reason."""


def _tick(deadline: Deadline | None, step: int) -> None:
    if deadline is not None and step % CHECK_EVERY == 0 and deadline.expired():
        raise _OutOfTime

# directed unit edges between lattice corners (r, c), with the region's cell on the left
# (r grows downwards): leaving a corner down, right, up or left
_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def contradiction(puzzle: Puzzle, rules: Rules, *, deadline: Deadline | None = None) -> str | None:
    """The first reason found why ``puzzle`` has no answer under ``rules``, or None (also when
    ``deadline`` passes before a reason is found).

    >>> from puzzlesat.timing import Deadline
    >>> contradiction(Puzzle.from_rows(["A.B", "...", "A.B"]), Rules(), deadline=Deadline(0.0)) is None
    True
    """
    return (colour_count_contradiction(puzzle, rules, deadline=deadline)
            or border_contradiction(puzzle, deadline=deadline))


def colour_count_contradiction(puzzle: Puzzle, rules: Rules, *, deadline: Deadline | None = None) -> str | None:
    """Cover-all only: the chessboard colour count (module docstring), or None.

    >>> from puzzlesat.numberlink.model import Puzzle, Rules
    >>> colour_count_contradiction(Puzzle.from_rows(["A.B", "...", "A.B"]), Rules(cover_all=False)) is None
    True
    """
    if not rules.cover_all:
        return None
    if deadline is not None and deadline.expired():
        return None
    free = puzzle.board.free_grid()  # (on arrays: a board may have a million blocked cells)
    rows, cols = np.ogrid[:puzzle.height, :puzzle.width]
    black = int(np.count_nonzero(free & ((rows + cols) % 2 == 0)))  # (0, 0) is black
    white = int(np.count_nonzero(free)) - black
    covered = 0
    for step, pair in enumerate(puzzle.pairs):
        if step % CHECK_EVERY == 0 and deadline is not None and deadline.expired():
            return None
        covered += (_colour(pair.start) + _colour(pair.end)) // 2
    if covered == black - white:
        return None
    return (f"chessboard colours: the free cells have {black - white} more black than white, "
            f"but paths between these endpoints cover {covered}")


def _colour(cell: Cell) -> int:
    return 1 if (cell[0] + cell[1]) % 2 == 0 else -1


def border_contradiction(puzzle: Puzzle, *, deadline: Deadline | None = None) -> str | None:
    """Pairs alternating along the border, or spokes meeting an island out of order, or None
    (also when ``deadline`` passes first).

    >>> from puzzlesat.numberlink.model import Pair, Puzzle
    >>> ring = [Pair("a", (0, 0), (2, 2)), Pair("b", (0, 5), (2, 3)), Pair("c", (5, 0), (3, 3)), Pair("d", (5, 5), (3, 2))]
    >>> border_contradiction(Puzzle(6, 6, tuple(ring)))
    'paths from the border to the island at (2, 2) would cross: going round, they leave the border in the order c, d, b, a but reach the island in the order c, b, a, d'
    """
    try:
        return _border_contradiction(puzzle, deadline)
    except _OutOfTime:
        return None


def _border_contradiction(puzzle: Puzzle, deadline: Deadline | None) -> str | None:
    if deadline is not None and deadline.expired():
        return None
    height, width = puzzle.height, puzzle.width
    if height < 2 or width < 2:
        return None
    on_rim = _positions(_rim(height, width))
    crossing = _alternating_rim_pairs(puzzle, on_rim)
    if crossing is not None:
        return f"pairs {crossing[0]!r} and {crossing[1]!r} alternate along the border: their paths would cross"
    # each endpoint off the border whose partner is on it: (label, that end, the partner on the rim)
    spoke_of = {}
    for step, p in enumerate(puzzle.pairs):
        _tick(deadline, step)
        for start, end in ((p.start, p.end), (p.end, p.start)):
            if start in on_rim and end not in on_rim:
                spoke_of[end] = (p.label, end, start)
    for step, island in enumerate(_islands(puzzle, on_rim, deadline), 1):
        _tick(deadline, step)
        spokes = [spoke_of[cell] for cell in island if cell in spoke_of]
        if len(spokes) < 3:
            continue
        first = min(island)
        boundary = _boundary(island.__contains__, first, deadline)
        around = _positions(boundary) if boundary is not None and len(boundary) == _exposed_sides(island) else None
        if around is None:
            continue  # (holes, pinched corners or broken runs: no simple order to compare)
        leaving = [label for label, _, start in sorted(spokes, key=lambda s: on_rim[s[2]])]
        if any(end not in around for _, end, _ in spokes):
            continue  # (an end walled in by other endpoints: no path leaves it anyway)
        arriving = [label for label, end, _ in sorted(spokes, key=lambda s: around[s[1]])]
        turn = arriving.index(leaving[0])
        arriving = arriving[turn:] + arriving[:turn]  # (read from the same label, the same way round)
        if arriving != leaving:
            return (f"paths from the border to the island at {first} would cross: going round, they leave the "
                    f"border in the order {', '.join(leaving)} but reach the island in the order {', '.join(arriving)}")
    return None


def _rim(height: int, width: int) -> list[Cell]:
    """The board's border as :func:`_boundary` walks it (one entry per unit edge, the board on
    the left: down the left side, right along the bottom, up the right side, left along the
    top), read off directly (walking it cell by cell was a noticeable share of the time on small boards).

    >>> _rim(2, 3)
    [(0, 0), (1, 0), (1, 0), (1, 1), (1, 2), (1, 2), (0, 2), (0, 2), (0, 1), (0, 0)]
    """
    return ([(r, 0) for r in range(height)] + [(height - 1, c) for c in range(width)]
            + [(r, width - 1) for r in range(height - 1, -1, -1)] + [(0, c) for c in range(width - 1, -1, -1)])


def _alternating_rim_pairs(puzzle: Puzzle, on_rim: dict[Cell, int]) -> tuple[str, str] | None:
    """Two labels whose four ends lie on the border in the order a, b, a, b, or None.

    Walking round the border, each pair's first end opens it and its second end must close the
    pair opened last (brackets): a second end met while another pair is open inside names two
    pairs that alternate. Linear in the pairs (a check of every two pairs is quadratic, and runs
    before any time limit applies)."""
    ends_on_rim = [p for p in puzzle.pairs if p.start in on_rim and p.end in on_rim]
    order = {p.label: k for k, p in enumerate(ends_on_rim)}
    open_labels: list[str] = []
    seen: set[str] = set()
    for _, label in sorted((on_rim[cell], p.label) for p in ends_on_rim for cell in (p.start, p.end)):
        if label not in seen:
            seen.add(label)
            open_labels.append(label)
        elif open_labels[-1] == label:
            open_labels.pop()
        else:
            return tuple(sorted((label, open_labels[-1]), key=order.__getitem__))  # type: ignore[return-value]
    return None


def _islands(puzzle: Puzzle, on_rim: dict[Cell, int], deadline: Deadline | None = None) -> list[set[Cell]]:
    """Groups of endpoint cells joined side by side, none of them on the border (raises
    _OutOfTime when ``deadline`` passes: a million endpoints take seconds)."""
    ends: set[Cell] = set()
    for step, pair in enumerate(puzzle.pairs):
        _tick(deadline, step)
        ends.add(pair.start)
        ends.add(pair.end)
    width = puzzle.width
    islands, seen = [], set()
    step = 0
    for place in sorted(r * width + c for r, c in ends):  # (reading order; whole numbers sort much faster than cells)
        cell = divmod(place, width)
        if cell in seen:
            continue
        group, todo = {cell}, [cell]  # (grid.group_of, with a look at the clock)
        while todo:
            step += 1
            _tick(deadline, step)
            r, c = todo.pop()
            for other in ((r + dr, c + dc) for dr, dc in ORTHOGONAL):
                if other in ends and other not in group:
                    group.add(other)
                    todo.append(other)
        seen |= group
        if not any(member in on_rim for member in group):
            islands.append(group)
    return islands


def _exposed_sides(cells: set[Cell]) -> int:
    return sum((r + dr, c + dc) not in cells for r, c in cells for dr, dc in _STEPS)


def _boundary(inside, top_left: Cell, deadline: Deadline | None = None) -> list[Cell] | None:
    """The cells along a region's outer boundary, one entry per unit edge, walked with the
    region on the left from the left side of ``top_left`` (a region cell whose left and upper
    neighbours are outside), or None where the boundary touches itself at a corner."""
    start = top_left
    corner, heading = start, 0  # down the left side of the top-left cell
    cells = []
    while True:
        r, c = corner
        dr, dc = _STEPS[heading]
        cells.append(_cell_on_left(corner, heading))
        corner = (r + dr, c + dc)
        if corner == start and heading == 3:
            return cells
        _tick(deadline, len(cells))
        outgoing = [h for h in range(4) if _is_boundary_edge(inside, corner, h)]
        if len(outgoing) != 1:
            return None
        heading = outgoing[0]
        if len(cells) > 4 * 10_000_000:  # (cannot happen for a closed walk; a guard all the same)
            return None


def _cell_on_left(corner: Cell, heading: int) -> Cell:
    """The cell on the left of the unit edge leaving ``corner`` in direction ``heading``."""
    r, c = corner
    return ((r, c), (r - 1, c), (r - 1, c - 1), (r, c - 1))[heading]


def _is_boundary_edge(inside, corner: Cell, heading: int) -> bool:
    """Whether the edge leaving ``corner`` has a region cell on its left and none on its right."""
    r, c = corner
    right = ((r, c - 1), (r, c), (r - 1, c), (r - 1, c - 1))[heading]
    return inside(_cell_on_left(corner, heading)) and not inside(right)


def _positions(boundary: list[Cell]) -> dict[Cell, int] | None:
    """Each cell's place along the boundary (where its run of edges starts, the walk read as a
    cycle), or None when a cell's edges do not form one run."""
    n = len(boundary)
    # start the numbering where a run begins, so no run wraps around the end of the list
    shift = next((i for i in range(n) if boundary[i] != boundary[i - 1]), 0)
    order = boundary[shift:] + boundary[:shift]
    place: dict[Cell, int] = {}
    for i, cell in enumerate(order):
        if cell in place:
            if order[i - 1] != cell:
                return None
        else:
            place[cell] = i
    return place
