"""What ends each phase of a Swap solve: shares of the time limit, or counts of work; and the
canonical plan a solve states once the minimum is proven.

Under a time limit alone, a solve gives each phase (the quick plan, the beams, A*'s slices,
further bounds) a share of the time left, and runs the beams in a helper process beside A*:
fast, but which plan is found first, which plan is stated and whether the proof ends then
depend on the machine's speed and load. A solve bounded by work (``solve(work_limit=N)``, what
the generator uses) runs the same phases in one process, in a fixed order, each ended by a
count (A* expansions, beam widths, step-cost LPs), so its outcome depends on the level and
``N`` only. Its time limit may still stop it; its caller then treats the outcome as stopped
by the clock, never as a verdict (encodings/swap.md, "Reproducible generation").

>>> budget = Budget(Deadline(None), work=1000)
>>> budget.by_work, budget.expansions(0.05, 3.0, used=0), budget.expansions(0.1, 3.0, used=50)
(True, 50, 145)
>>> Budget(Deadline(None), work=10**9).expansions(0.05, 3.0, used=0)   # at most 3 nominal seconds
45000
>>> Budget(Deadline(None)).expansions(0.05, 3.0, used=0) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..timing import Deadline
from .compiled import Task
from .stepcost import StepCostBound

NOMINAL_EXPANSIONS_PER_SECOND = 15_000  # A* expansions in a nominal second (one core, expert boards)
CANONICAL_WIDTHS = (16, 128)  # beams at the proven minimum that give the stated plan, narrowest first


@dataclass(frozen=True)
class Budget:
    """The limits of one solve: its ``deadline``, and ``work``, the A* and breadth-first
    expansions it may make in all (None: its phases take shares of the time left instead)."""

    deadline: Deadline
    work: int | None = None

    @property
    def by_work(self) -> bool:
        return self.work is not None

    def phase(self, timed: Deadline) -> Deadline:
        """The deadline of a phase whose own count bounds it (a beam's width, a capped
        search): ``timed`` (its share of the time) under a time limit alone; by work, the
        solve's deadline, which only stops it."""
        return self.deadline if self.by_work else timed

    def expansions(self, share: float, seconds: float, *, used: int) -> int | None:
        """By work, the expansions an A* slice may reach in all: ``used`` so far plus ``share``
        of the rest, at most ``seconds`` nominal seconds of them (as a timed slice takes
        ``share`` of the time left, at most ``seconds``); None under a time limit alone."""
        if self.work is None:
            return None
        return used + min(int(share * max(0, self.work - used)), round(seconds * NOMINAL_EXPANSIONS_PER_SECOND))


def canonical_plan(
    task: Task, length: int, *, step_costs: StepCostBound | None, deadline: Deadline,
    widths: Sequence[int] = CANONICAL_WIDTHS,
) -> list[tuple[int, int]] | None:
    """The plan a solve states once ``length`` is its proven minimum, whichever phase found
    its own: the first of the beams of ``widths`` at exactly ``length`` swaps that finds one,
    with ``step_costs`` (the LP's at the start, the same on every machine once it finishes).
    None when none of them finds one or ``deadline`` passes (the plan found is stated then).

    >>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
    >>> canonical_plan(task, 2, step_costs=StepCostBound(task), deadline=Deadline(None))
    [(0, 1), (1, 2)]
    """
    from .search import beam_plan

    for width in widths:
        if deadline.expired():
            return None
        found = beam_plan(task, length=length, width=width, time_limit=deadline, step_costs=step_costs)
        if found is not None:  # (a beam the deadline cut short finds nothing)
            return found
    return None
