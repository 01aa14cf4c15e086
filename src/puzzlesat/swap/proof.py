"""The proof half of Swap's search method: a plan first (quick plan, beams), then A* with
admissible bounds proves the minimum, told of shorter plans by beams (in a helper process
beside it, or in slices in this process), widening to step-cost bounds on plateaus; and the
canonical plan stated for a proven minimum. :func:`.solve.solve` runs it; the constants below
are its budgets (``encodings/swap.md``, "Notes moved from the code").

>>> from .compiled import Task
>>> from .model import Level
>>> task = Task.from_level(Level.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"]))
>>> len(shorter_plan(task, [(0, 1), (1, 3), (0, 1), (2, 3), (0, 2)], 2, widths=(16,), time_limit=5, step_costs=None))
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..child import Child, may_work_beside, report_answer, report_progress
from ..errors import PuzzlesatError
from ..timing import Deadline
from .compiled import MATCH, Task
from .model import Move
from .stepcost import StepCostBound
from .work import Budget, canonical_plan

if TYPE_CHECKING:
    from .search import Search, SearchOutcome

QUICK_PLAN_SECONDS = 3.0  # at most this long, and at most QUICK_PLAN_SHARE of the time limit,
QUICK_PLAN_SHARE = 0.05  # goes to finding some plan before the proof,
QUICK_PLAN_EXPANSIONS_PER_CELL = 50  # and at most this many expansions per cell (unsolvable levels)
QUICK_PLAN_WEIGHTS = (2.0, 3.0)  # g + weight * h; the second only when the first finds nothing
BEAM_SECONDS = 5.0  # at most this long, and at most BEAM_SHARE of the time limit, goes to beam
BEAM_SHARE = 0.1  # searches for a shorter plan before the proof (it then stops at that length)
BEAM_WIDTHS = (16, 128, 1024)  # widened each time one finds nothing shorter
DISTANCE_PLAN_SECONDS = 2.0  # after those beams (match goal, plan still above the bound), the published
# game's distance guide for at most this long (and its 5,000 expansions: search.distance_plan)
PROBE_SECONDS = 3.0  # the proof's first slice (most levels are decided within it), at most
PROBE_SHARE = 0.05  # this share of the time limit; then, when still open,
WIDE_BEAM_SHARE = 0.3  # up to this share of the time left goes to wide beams at the proven bound
SECOND_SLICE_SHARE = 0.1  # the proof's second slice (after the wide beam): this share of the time left,
SECOND_SLICE_SECONDS = 10.0  # at most this long
PLATEAU_BOUNDS = 8  # further step-cost bounds (one LP each) when the proof is still open after
PLATEAU_SHARE = 0.15  # its second slice, within this share of the time left
PLATEAU_SECONDS = 10.0  # (or this long without a time limit)
SEARCH_MAX_STATES = 3_000_000  # A*'s table (about 1.2 GB); when full, the breadth-first proof takes over
WIDE_BEAM_WIDTHS = (4096,)  # (a plan of that length ends the proof at once; wider: encodings/swap.md, "Notes moved from the code")
HELPER_SLICE_SECONDS = 0.25  # with a helper process beside it, A* runs in slices this long and takes in
# the helper's findings (a shorter plan, further step-cost bounds) between them
HELPER_WIDE_BEAM_SHARE = 0.6  # the helper's wide beams take up to this share of the time left (they


class BestSoFar:
    """The best proven lower bound and the shortest valid plan found so far by one solve.

    The method and each improvement are reported (:func:`~puzzlesat.child.report_progress`,
    :func:`~puzzlesat.child.report_answer`: to the parent when the solve runs in a child
    process, nothing otherwise), so that a child stopped at its time limit still yields them
    (:class:`puzzlesat.child.Partial`)."""

    def __init__(self, task: Task, method: str) -> None:
        self.task, self.method = task, method
        self.lower = 0
        self.plan: list[tuple[int, int]] | None = None
        report_progress({"method": method})

    def bound(self, lower: int) -> None:
        """A proven lower bound on the minimum."""
        if lower > self.lower:
            self.lower = lower
            report_progress({"lower_bound": lower})

    def found(self, plan: "Sequence[tuple[int, int]] | None") -> None:
        """A valid plan (cell-index swaps)."""
        if plan is not None and (self.plan is None or len(plan) < len(self.plan)):
            self.plan = list(plan)
            report_answer(to_moves(self.task, self.plan))


def shorter_plan(
    task: Task,
    plan: "list[tuple[int, int]]",
    lower: int,
    *,
    widths: Sequence[int],
    time_limit: "float | Deadline | None",
    step_costs: StepCostBound | None,
    length: int | None = None,
) -> "list[tuple[int, int]]":
    """The shortest plan found by beam searches of growing width, starting from ``plan``: each
    asks for a plan of at most ``length`` swaps, or (``None``) shorter than the best so far;
    stops at ``lower`` (the plan is then proven minimal), after the widest beam, or at the time
    limit.
    """
    from .search import beam_plan

    deadline = Deadline.of(time_limit)
    left = list(widths)
    while left and len(plan) > lower and not deadline.expired():
        target = len(plan) - 1 if length is None else min(length, len(plan) - 1)
        found = beam_plan(task, length=target, width=left[0], time_limit=deadline, step_costs=step_costs)
        if found is None:
            left.pop(0)
        else:
            plan = found
    return plan


def shorter_by_distance(
    task: Task, plan: "list[tuple[int, int]]", lower: int, *, deadline: Deadline
) -> "list[tuple[int, int]] | None":
    """A plan shorter than ``plan`` by the published game's distance guide
    (:func:`search.distance_plan`, with its cap of 5,000 expansions, until ``deadline``: under a
    time limit, at most :data:`DISTANCE_PLAN_SECONDS`), tried on *match* levels whose ``plan`` is still above
    ``lower`` after the beams; ``None`` when it finds none shorter. It pulls squares toward
    where they are wanted where the beams follow the admissible bounds: on the 7x6 levels left
    open, 27 swaps against the beams' 28 and 17 against 18."""
    from .search import distance_plan

    if task.goal != MATCH or len(plan) <= lower:
        return None
    guided = distance_plan(task, time_limit=deadline)
    return guided if guided is not None and len(guided) < len(plan) else None


FIRST_PLAN_SLACK = (2, 8)  # a first plan by beams may be up to 2 x the lower bound + 8 swaps long


def first_plan(
    task: Task,
    lower: int,
    *,
    widths: Sequence[int],
    time_limit: "float | Deadline | None",
    step_costs: StepCostBound | None,
) -> "list[tuple[int, int]] | None":
    """Some plan by beam searches of growing width allowed a loose length (FIRST_PLAN_SLACK
    over ``lower``), for levels where the quick plan found none; None when none of them does
    (not a proof of anything). It finds plans on levels where no other search finds one
    (encodings/swap.md, "Notes moved from the code")."""
    from .search import beam_plan

    deadline = Deadline.of(time_limit)
    factor, extra = FIRST_PLAN_SLACK
    for width in widths:
        if deadline.expired():
            return None
        found = beam_plan(task, length=factor * lower + extra, width=width, time_limit=deadline, step_costs=step_costs)
        if found is not None:
            return found
    return None


def prove(
    task: Task,
    plan: "list[tuple[int, int]] | None",
    *,
    step_costs: StepCostBound | None,
    remaining: float | None,
    deadline: Deadline,
    stats: dict,
    progress: BestSoFar | None = None,
    shorten_first: bool = False,
    budget: Budget | None = None,
) -> "tuple[SearchOutcome, list[tuple[int, int]] | None]":
    """The proof by search, told of ``plan`` (a valid plan, or None). With ``shorten_first`` (``plan``
    longer than the bound, and :func:`~puzzlesat.child.may_work_beside`), A* starts at once while a helper process runs
    the beams for a shorter plan first (:func:`prove_with_helper`). Otherwise A* for a first slice
    (``remaining`` is the time left when solving began); when that does not decide, wide beams for a
    plan of exactly A*'s proven bound (the A* order may reach one late on a wide f plateau), a
    second slice, then (match goal) further step-cost bounds optimised at states of the plateau the
    proof must clear (fewer states, at some LP time) and A* with the rest of the time (where
    a helper may work beside it, the beams and those bounds run in a helper process beside A* instead:
    :func:`prove_with_helper`); when A*'s table fills up, the layered breadth-first proof of "no
    plan shorter than ``plan``". Returns the :class:`search.SearchOutcome` and the best plan known
    (the beams' when shorter); records what it ran in ``stats``, and its bounds and plans in
    ``progress``. A ``budget`` by work (:class:`.work.Budget`) runs the same steps in this process,
    A*'s slices ended by shares of its expansions, never by the clock."""
    from .search import Search, layered_proof, plateau_step_costs

    budget = budget or Budget(deadline)
    on_bound = None if progress is None else progress.bound
    more: list[StepCostBound] = []  # further step-cost bounds, for hard proofs
    run = Search(task, known_plan=plan, step_costs=step_costs, time_limit=deadline, max_states=SEARCH_MAX_STATES,
                 on_bound=on_bound)
    if shorten_first and plan is not None and may_work_beside():
        outcome, plan, more = prove_with_helper(run, plan, step_costs=step_costs, deadline=deadline, stats=stats,
                                                progress=progress, shorten_first=True)
    else:
        outcome = run.run(budget.phase(deadline.within(PROBE_SECONDS if remaining is None else PROBE_SHARE * remaining)),
                          max_expanded=budget.expansions(PROBE_SHARE, PROBE_SECONDS, used=0))
        open_with_plan = outcome.status == "unknown" and "state_cap" not in outcome.stats and plan is not None
        if open_with_plan and may_work_beside() and not budget.by_work:
            outcome, plan, more = prove_with_helper(run, plan, step_costs=step_costs, deadline=deadline, stats=stats,
                                                    progress=progress)
        elif open_with_plan:
            left = deadline.remaining()
            share = budget.phase(deadline.within(BEAM_SECONDS if left is None else WIDE_BEAM_SHARE * left))
            wide = shorter_plan(task, plan, run.lower_bound(), widths=WIDE_BEAM_WIDTHS, time_limit=share,
                                step_costs=step_costs, length=run.lower_bound())
            plan = take_wide_plan(run, plan, wide, stats=stats, progress=progress)
            if step_costs is not None:  # (match goal: only then are there step costs)
                left = deadline.remaining()
                second = SECOND_SLICE_SECONDS if left is None else min(SECOND_SLICE_SECONDS, SECOND_SLICE_SHARE * left)
                outcome = run.run(budget.phase(deadline.within(second)),
                                  max_expanded=budget.expansions(SECOND_SLICE_SHARE, SECOND_SLICE_SECONDS, used=run.expanded))
                if outcome.status == "unknown":
                    left = deadline.remaining()
                    share = budget.phase(deadline.within(PLATEAU_SECONDS if left is None else PLATEAU_SHARE * left))
                    more = plateau_step_costs(task, step_costs, limit=len(plan) - 1, count=PLATEAU_BOUNDS, time_limit=share,
                                              lp_share=None if budget.by_work else 1.0)
                    stats["plateau_bounds"] = len(more)
                    if "state_cap" not in outcome.stats:
                        run.strengthen(more)
                        outcome = run.run(deadline, max_expanded=budget.work)
            else:
                outcome = run.run(deadline, max_expanded=budget.work)
        elif outcome.status == "unknown" and "state_cap" not in outcome.stats:
            outcome = run.run(deadline, max_expanded=budget.work)  # no plan known: A* alone, with the rest
    if outcome.status == "unknown" and "state_cap" in outcome.stats and plan is not None:
        # A*'s table is full: the breadth-first proof stores far more states in the same
        # memory and settles "is there a plan shorter than the one we have?"
        lower, expanded = outcome.lower_bound, outcome.stats["expanded"]
        stats.update(a_star_expanded=expanded, proof="layered")
        del run  # free A*'s table first
        outcome = layered_proof(task, length=len(plan) - 1, known_plan=plan, step_costs=step_costs,
                                more_step_costs=more, time_limit=deadline, on_bound=on_bound,
                                max_expanded=None if budget.work is None else max(0, budget.work - expanded))
        outcome.lower_bound = max(outcome.lower_bound, lower)
    return outcome, plan


def take_wide_plan(
    run: "Search",
    plan: "list[tuple[int, int]]",
    wide: "list[tuple[int, int]]",
    *,
    stats: dict,
    progress: BestSoFar | None,
    key: str = "wide_beam_plan",
) -> "list[tuple[int, int]]":
    """The beams' best plan ``wide`` taken in (its length recorded in ``stats[key]``): when
    shorter than ``plan``, A* (``run``) and ``progress`` are told of it. Returns the shorter."""
    stats[key] = len(wide)
    if len(wide) >= len(plan):
        return plan
    run.improve(wide)
    if progress is not None:
        progress.found(wide)
    return wide


def helper_work(
    task: Task,
    *,
    plan: "list[tuple[int, int]]",
    length: int,
    step_costs: StepCostBound | None,
    deadline: Deadline,
    shorten: bool = False,
) -> None:
    """The work of :func:`prove_with_helper`'s helper process, each finding reported to the
    parent as it comes (:func:`report_progress`). With ``shorten``: only the beams of
    :data:`BEAM_WIDTHS` for a plan shorter than ``plan``, stopping at ``length`` swaps (the
    proven bound), within :data:`BEAM_SHARE` of the time left (``{"beam_plan": swaps}``, the
    best plan they leave), then :func:`shorter_by_distance` (``{"distance_plan": swaps}`` when
    it finds a shorter one). Otherwise: wide beams for a plan of ``length`` swaps
    (``{"wide_beam_plan": swaps}``, the best plan they leave, ``plan`` itself when they find
    none shorter), then (match goal, when that plan is still longer than ``length``) further
    step-cost bounds at the plateau below it (``{"step_costs": costs}`` for each)."""
    from .search import plateau_step_costs

    if shorten:
        left = deadline.remaining()
        share = deadline.within(BEAM_SECONDS if left is None else BEAM_SHARE * left)
        plan = shorter_plan(task, plan, length, widths=BEAM_WIDTHS, time_limit=share, step_costs=step_costs)
        report_progress({"beam_plan": plan})
        guided = shorter_by_distance(task, plan, length, deadline=deadline.within(DISTANCE_PLAN_SECONDS))
        if guided is not None:
            report_progress({"distance_plan": guided})
        return
    left = deadline.remaining()
    share = deadline.within(BEAM_SECONDS if left is None else HELPER_WIDE_BEAM_SHARE * left)
    wide = shorter_plan(task, plan, length, widths=WIDE_BEAM_WIDTHS, time_limit=share, step_costs=step_costs,
                        length=length)
    report_progress({"wide_beam_plan": wide})
    if step_costs is not None and len(wide) > length:
        # (all the time left: here the LPs take none from A*)
        share = deadline.within(PLATEAU_SECONDS) if deadline.time_limit is None else deadline
        plateau_step_costs(task, step_costs, limit=len(wide) - 1, count=PLATEAU_BOUNDS, time_limit=share,
                           on_found=lambda bound: report_progress({"step_costs": bound.costs}))


def prove_with_helper(
    run: "Search",
    plan: "list[tuple[int, int]]",
    *,
    step_costs: StepCostBound | None,
    deadline: Deadline,
    stats: dict,
    progress: BestSoFar | None,
    shorten_first: bool = False,
) -> "tuple[SearchOutcome, list[tuple[int, int]], list[StepCostBound]]":
    """The rest of :func:`prove` with the wide beams and the plateau bounds in a forked helper
    process (:func:`helper_work`) on the second core, while A* (``run``, after its first slice)
    goes on here, in slices that take in each finding as it arrives: run in turn, the two took
    time from each other, and the verdict depended on the machine's load. With
    ``shorten_first`` (A* not started yet), a first helper runs the beams for a shorter plan,
    which could take a tenth of the time limit before A* in one process; once it is done, the
    second helper starts with the bound A* has proven meanwhile (encodings/swap.md, "Notes moved
    from the code"). Returns A*'s
    outcome (decided, or unknown at the deadline or its state cap), the best plan known and
    the further step-cost bounds received."""
    reports: list[dict] = []
    more: list[StepCostBound] = []

    def start(shorten: bool) -> Child:
        return Child(helper_work, run.task, dict(plan=plan, length=run.lower_bound(), step_costs=step_costs,
                                                 deadline=deadline, shorten=shorten), on_progress=reports.append)

    helper = start(shorten_first)
    stats["helper"] = "process"
    running, wide_beam_due = True, shorten_first

    def take_in() -> None:
        nonlocal plan, running, helper, wide_beam_due
        if running and helper.done(0.0):
            running = False
            try:
                helper.result()
            except PuzzlesatError as exc:  # it died (out of memory): A* goes on alone
                stats["helper"] = f"failed: {exc}"
                wide_beam_due = False
        for report in reports:
            if "step_costs" in report:
                more.append(StepCostBound(run.task, costs=report["step_costs"]))
                run.strengthen(more)
                stats["plateau_bounds"] = len(more)
            else:  # a plan: {"beam_plan" | "distance_plan" | "wide_beam_plan": swaps}
                [(key, swaps)] = report.items()
                plan = take_wide_plan(run, plan, swaps, stats=stats, progress=progress, key=key)
        reports.clear()
        if wide_beam_due and not running and len(plan) > run.lower_bound():
            helper.stop()
            helper, running, wide_beam_due = start(False), True, False
            take_in()  # (whatever it has found already)

    try:
        while True:
            take_in()
            outcome = run.run(deadline.within(HELPER_SLICE_SECONDS) if running else deadline)
            if outcome.status != "unknown" or deadline.expired():
                return outcome, plan, more
            if "state_cap" in outcome.stats:  # the layered proof takes over, with what the helper has found
                take_in()
                return outcome, plan, more
    finally:
        helper.stop()


def stated_plan(
    task: Task, swaps: "list[tuple[int, int]]", *, step_costs: StepCostBound | None, budget: Budget, stats: dict
) -> "list[tuple[int, int]]":
    """The plan to state for a proven minimum ``len(swaps)``: the canonical one
    (:func:`.work.canonical_plan`) when it is found, else ``swaps`` (``stats["plan"]`` says
    which). Under a time limit alone only with the LP's step costs (a match level's LP cut short
    by the clock leaves half costs, and other beams), as those are the same on every machine."""
    fixed = step_costs is None or step_costs.optimised or budget.by_work
    canonical = canonical_plan(task, len(swaps), step_costs=step_costs, deadline=budget.deadline) if swaps and fixed else None
    stats["plan"] = "canonical" if canonical is not None or not swaps else "found"
    return swaps if canonical is None else canonical


def to_moves(task: Task, swaps: Sequence[tuple[int, int]]) -> tuple[Move, ...]:
    """Cell-index swaps as :class:`Move` s, each written from a square that reaches the other
    cell (the earlier cell when both do)."""
    state = list(task.start)
    moves = []
    for a, b in swaps:
        i, j = min(a, b), max(a, b)
        if j in task.reach[state[i]][i]:
            mover, target = i, j
        else:
            mover, target = j, i
        moves.append(Move(task.cells[mover], task.cells[target]))
        state[i], state[j] = state[j], state[i]
    return tuple(moves)
