"""Cheap proofs that a Swap level cannot be solved at all: a swap-graph component that holds other
colours than the goal asks there, a colour that can never gather or touch, or no layout of the
colours that meets the goal.

>>> from .compiled import Task
>>> unreachable_reason(Task.from_rows(["T1R T1G"], goal="touch"))
'colour G has a single square, which can never touch its own colour'
"""

from __future__ import annotations

from collections import Counter

from .compiled import CLUSTER, MATCH, TOUCH, Task
from .cluster_touch_bounds import _layout_bound
from .swapgraph import UNREACHABLE_DISTANCE, swap_components


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
