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

The bounds live by goal: :mod:`.match_bounds` (over :mod:`.assignment`) and :mod:`.layout_bounds`
(cluster and touch), over the swap graph of :mod:`.swapgraph`; the proofs that a level cannot be
solved are in :mod:`.reachability`. This module picks the bound for a level's goal.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> mismatch_bound(task, task.start), cycle_bound(task, task.start)
(2, 2)
>>> max_cycle_packing({("R", "G"): 2, ("G", "R"): 1, ("G", "B"): 1, ("B", "R"): 1})
2
"""

from __future__ import annotations

from typing import Sequence

from .assignment import SCIPY_FROM_SQUARES, assignment_with_potentials, min_cost_assignment, scipy_assignment  # noqa: F401 (imported from here too)
from .compiled import CLUSTER, MATCH, Task
from .cluster_touch_bounds import cluster_bound, touch_bound  # noqa: F401 (some imported from here too)
from .layout_bounds import LayoutBound  # noqa: F401 (imported from here too)
from .match_bounds import AssignmentBound, MatchHeuristic, cycle_bound, match_bound, max_cycle_packing, mismatch_bound  # noqa: F401 (some imported from here too)
from .reachability import no_goal_layout, unreachable_reason  # noqa: F401 (imported from here too)
from .swapgraph import UNREACHABLE_DISTANCE, swap_components, swap_distances, swap_graph  # noqa: F401 (imported from here too)


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
