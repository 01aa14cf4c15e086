"""Proven-minimum Swap solving: the fewest swaps that reach the goal, with a proof.

Rules in a sentence: a square swaps with a cell it reaches (its figure's directions, distance
1..scope, walls block), a swap is legal when either square reaches the other, and the answer is
a shortest sequence of such swaps after which the goal (match / cluster / touch) holds.

Methods: ``"search"`` (partial-expansion A* over the full state with admissible bounds,
:mod:`.search`, told of shorter plans by beam searches before and during the proof), ``"cpsat"`` (bounded-horizon CP-SAT model grown from the lower bound,
:mod:`.cpsat`), ``"astar"`` (the published baseline, :mod:`.astar`, never proven optimal).
``method=None`` or ``"exact"`` picks the faster exact method (``encodings/swap.md``, "6. Which exact method by default").
Every answer passes :func:`puzzlesat.swap.verify.verify` before it is returned.

>>> from .model import Level
>>> level = Level.from_rows(["T1R T1G", "T1G T1R"], goal=["G R", "R G"])
>>> result = solve(level)
>>> result.status.value, [str(m) for m in result.solution], result.optimal, result.lower_bound
('solved', ['0,0>1,0', '0,1>1,1'], True, 2)
>>> solve(Level.from_rows(["B1R B1G"], goal=["G R"])).status.value
'unsatisfiable'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..child import Child, can_fork, report_answer, report_progress, run_with_deadline
from ..errors import PuzzlesatError, require_count, require_type, require_valid
from ..results import SolveResult, Status, Timings
from ..timing import Deadline, Stopwatch
from . import bounds
from .compiled import MATCH, Task
from .model import Level, Move
from .stepcost import LP_SHARE, BoundTimeout, StepCostBound
from .verify import verify
from .work import Budget, canonical_plan

if TYPE_CHECKING:
    from .search import Search, SearchOutcome

METHODS = ("search", "cpsat", "astar")
CPSAT_HORIZON_CAP_PER_CELL = 4  # without a time limit, CP-SAT's horizon grows to at most this many swaps per cell
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
# take none from A* there, and the hard plans need most of it)
# Boards with more cells (the game's largest has 42) are solved under a time limit in a forked
# child, stopped a second after the limit: their bound tables (all-pairs swap distances, the
# step-cost LP and its repair, quadratic in the distinct squares) and the baseline's states are
# seconds of Python that no deadline check cuts short (encodings/swap.md, "Notes moved from the code").
CHILD_PROCESS_CELLS = 64


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
    longer than the bound, and the process can fork), A* starts at once while a helper process runs
    the beams for a shorter plan first (:func:`prove_with_helper`). Otherwise A* for a first slice
    (``remaining`` is the time left when solving began); when that does not decide, wide beams for a
    plan of exactly A*'s proven bound (the A* order may reach one late on a wide f plateau), a
    second slice, then (match goal) further step-cost bounds optimised at states of the plateau the
    proof must clear (fewer states, at some LP time) and A* with the rest of the time (where this
    process can fork, the beams and those bounds run in a helper process beside A* instead:
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
    if shorten_first and plan is not None and can_fork():
        outcome, plan, more = prove_with_helper(run, plan, step_costs=step_costs, deadline=deadline, stats=stats,
                                                progress=progress, shorten_first=True)
    else:
        outcome = run.run(budget.phase(deadline.within(PROBE_SECONDS if remaining is None else PROBE_SHARE * remaining)),
                          max_expanded=budget.expansions(PROBE_SHARE, PROBE_SECONDS, used=0))
        open_with_plan = outcome.status == "unknown" and "state_cap" not in outcome.stats and plan is not None
        if open_with_plan and can_fork() and not budget.by_work:
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


def default_method(task: Task) -> str:
    """The exact method fastest for this kind of level (``encodings/swap.md``, "6. Which exact
    method by default"): the search at every size; CP-SAT only where the search's byte-per-cell state
    cannot hold the level (more than 256 distinct squares)."""
    from .search import MAX_CLASSES

    return "search" if len(task.classes) <= MAX_CLASSES else "cpsat"


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


def solve(
    level: Level,
    *,
    method: str | None = None,
    time_limit: "float | Deadline | None" = None,
    work_limit: int | None = None,
) -> SolveResult:
    """The fewest moves for ``level``, proven minimal unless the time limit ran out.

    Returns SOLVED (``solution`` a tuple of :class:`Move`; ``optimal`` True when the minimum is
    proven — when the time limit ends the proof first, the search method still returns the plan
    it found, with ``optimal`` False and the proven ``lower_bound``), UNSATISFIABLE (proven:
    ``stats["reason"]`` says why) or UNKNOWN (time limit, no plan; ``lower_bound`` is the best
    proven bound on the minimum). A proven minimum is stated with the canonical plan of that
    length (:func:`.work.canonical_plan`) when its beams find one (``stats["plan"]`` says
    ``"canonical"``, else ``"found"``), so the plan does not depend on which phase was faster.

    ``work_limit`` (the search method): A* and breadth-first expansions allowed in all; then the
    phases run in this process in a fixed order, each ended by a count, and the outcome
    depends on the level and ``work_limit`` only (``stats["work_cap"]`` when it ran out), as a
    seeded generator needs; ``time_limit`` may still stop the solve, and the caller must then
    take the outcome as stopped by the clock (encodings/swap.md, "Reproducible generation").

    >>> level = Level.from_rows(["T1R T1G T1R"], goal="cluster")
    >>> result = solve(level, time_limit=10)
    >>> result.status.value, [str(m) for m in result.solution], result.optimal
    ('solved', ['0,0>0,1'], True)
    """
    require_type(level, Level, "level", "parse text with swap.parse")
    deadline = Deadline.of(time_limit)
    if method == "exact":
        method = None
    if method is not None and method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected exact, {', '.join(METHODS)})")
    if work_limit is not None:
        require_count(work_limit, "work_limit", "expansions")
        if method not in (None, "search"):
            raise ValueError(f"work_limit bounds the search method's expansions, not {method!r}'s")
    # (a child stopped at the limit leaves its proven bound and the shortest plan it reported: BestSoFar)
    in_child = run_with_deadline(solve, level, dict(method=method, time_limit=deadline, work_limit=work_limit),
                                 deadline=deadline,
                                 cells=level.rows * level.cols, threshold=CHILD_PROCESS_CELLS,
                                 check=lambda moves: verify(level, moves), method=method or "search")
    if in_child is not None:
        return in_child
    if method == "astar":
        from .astar import astar_solve

        return astar_solve(level, time_limit=deadline)
    watch = Stopwatch()
    with watch("encode"):
        task = Task.from_level(level)
        reason = bounds.unreachable_reason(task)
        lower = 0 if reason else bounds.lower_bound(task)
    chosen = method or default_method(task)
    if work_limit is not None and chosen != "search":
        raise ValueError(f"work_limit bounds the search's expansions; this level needs {chosen!r} (over 256 distinct squares)")
    budget = Budget(deadline, work_limit)
    encode = watch.seconds["encode"]
    progress = BestSoFar(task, chosen)
    if reason is None:
        progress.bound(lower)  # (before the step-cost tables, which are slow on large boards)
    if reason is not None:
        return SolveResult(Status.UNSATISFIABLE, None, Timings(encode, 0.0), optimal=False,
                           lower_bound=None, method=chosen, stats={"reason": reason})
    if task.is_goal(task.start):
        return SolveResult(Status.SOLVED, (), Timings(encode, 0.0), optimal=True, lower_bound=0,
                           method=chosen, stats={})

    step_costs = None
    if task.goal == MATCH:  # the step costs come from a linear program, solved once per level
        try:
            with watch("bound"):
                step_costs = StepCostBound(task, time_limit=deadline, lp_share=None if budget.by_work else LP_SHARE)
                lower = max(lower, step_costs.bound(task.start))
        except BoundTimeout:  # a large board: its tables alone outlast the time limit
            return SolveResult(Status.UNKNOWN, None, Timings(encode + watch.seconds["bound"], 0.0), optimal=False,
                               lower_bound=lower, method=chosen, stats={"stopped": "time limit (building the bound)"})
        encode += watch.seconds["bound"]
    progress.bound(lower)
    fallback = None  # a valid plan not proven shortest, returned when the proof runs out of time
    if chosen == "search":
        from .search import MAX_CLASSES, quick_plan

        if len(task.classes) > MAX_CLASSES:
            raise ValueError(f"the search handles at most {MAX_CLASSES} distinct squares; use method='cpsat'")

        with watch("solve"):
            # an upper bound first (a few percent of the budget): the search then looks only for
            # shorter plans, and a level that times out still gets a verified plan and its gap
            remaining = deadline.remaining()
            share = QUICK_PLAN_SECONDS if remaining is None else min(QUICK_PLAN_SECONDS, QUICK_PLAN_SHARE * remaining)
            share_deadline = budget.phase(Deadline.of(share))
            plan = None
            for weight in QUICK_PLAN_WEIGHTS:  # a greedier second try when the first finds nothing
                plan = quick_plan(task, weight=weight, time_limit=share_deadline, step_costs=step_costs,
                                  max_expansions=QUICK_PLAN_EXPANSIONS_PER_CELL * len(task.cells))
                if plan is not None or share_deadline.expired():
                    break
            plan_stats = {} if plan is None else {"quick_plan": len(plan)}
            progress.found(plan)
            if plan is None:  # beams with a loose length may still find one (or the level is unsolvable)
                share = budget.phase(deadline.within(BEAM_SECONDS if remaining is None else BEAM_SHARE * remaining))
                plan = first_plan(task, lower, widths=BEAM_WIDTHS, time_limit=share, step_costs=step_costs)
                if plan is not None:
                    plan_stats["beam_first_plan"] = len(plan)
                    progress.found(plan)
            beside = can_fork() and not budget.by_work  # (then the beams for a shorter plan run in a helper beside A*)
            if plan is not None and len(plan) > lower and not beside:
                share = budget.phase(deadline.within(BEAM_SECONDS if remaining is None else BEAM_SHARE * remaining))
                plan = shorter_plan(task, plan, lower, widths=BEAM_WIDTHS, time_limit=share, step_costs=step_costs)
                plan_stats["beam_plan"] = len(plan)
                guided = shorter_by_distance(task, plan, lower, deadline=budget.phase(deadline.within(DISTANCE_PLAN_SECONDS)))
                if guided is not None:
                    plan = guided
                    plan_stats["distance_plan"] = len(plan)
                progress.found(plan)
            if plan is not None and len(plan) <= lower:
                outcome = None
            else:
                outcome, plan = prove(task, plan, step_costs=step_costs, remaining=remaining, deadline=deadline,
                                      stats=plan_stats, progress=progress, shorten_first=beside, budget=budget)
        if outcome is None:
            status, swaps, stats = "solved", plan, {"expanded": 0, **plan_stats}
        else:
            status, swaps, lower = outcome.status, outcome.swaps, max(lower, outcome.lower_bound)
            stats = {**outcome.stats, **plan_stats}
            if plan is not None:
                fallback = plan
        timings = Timings(encode, watch.seconds["solve"])
    else:
        from .cpsat import solve_min

        # CP-SAT refutes one horizon at a time and cannot prove a level unsolvable; without a
        # time limit it stops (unknown) at a generous horizon instead of running forever
        cap = None if deadline.time_limit is not None else CPSAT_HORIZON_CAP_PER_CELL * len(task.cells)
        outcome = solve_min(task, time_limit=deadline, lower_bound=lower, max_horizon=cap, on_bound=progress.bound)
        status, swaps, lower = outcome.status, outcome.swaps, max(lower, outcome.lower_bound)
        stats = dict(outcome.stats)
        timings = Timings(encode + outcome.encode_s, outcome.solve_s)

    if status == "solved":
        assert swaps is not None
        if chosen == "search":
            swaps = stated_plan(task, swaps, step_costs=step_costs, budget=budget, stats=stats)
        moves = to_moves(task, swaps)
        require_valid(verify(level, moves), f"the {chosen} solver")  # (never an unchecked answer)
        return SolveResult(Status.SOLVED, moves, timings, optimal=True, lower_bound=len(moves),
                           method=chosen, stats=stats)
    if status == "unsatisfiable":
        stats["reason"] = "every reachable arrangement was searched and none meets the goal"
        return SolveResult(Status.UNSATISFIABLE, None, timings, optimal=False, lower_bound=None,
                           method=chosen, stats=stats)
    if fallback is not None:
        moves = to_moves(task, fallback)
        require_valid(verify(level, moves), f"the {chosen} solver's first plan")
        return SolveResult(Status.SOLVED, moves, timings, optimal=False, lower_bound=lower,
                           method=chosen, stats=stats)
    return SolveResult(Status.UNKNOWN, None, timings, optimal=False, lower_bound=lower,
                       method=chosen, stats=stats)
