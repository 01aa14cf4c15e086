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


from ..child import run_with_deadline
from ..errors import require_count, require_type, require_valid
from ..results import SolveResult, Status, Timings
from ..timing import Deadline, Stopwatch
from . import bounds, proof
from .compiled import MATCH, Task
from .model import Level
from .stepcost import LP_SHARE, BoundTimeout, StepCostBound
from .proof import to_moves
from .verify import verify
from .work import Budget

METHODS = ("search", "cpsat", "astar")
CPSAT_HORIZON_CAP_PER_CELL = 4  # without a time limit, CP-SAT's horizon grows to at most this many swaps per cell
# take none from A* there, and the hard plans need most of it)
# Boards with more cells (the game's largest has 42) are solved under a time limit in a forked
# child, stopped half a second after the limit: their bound tables (all-pairs swap distances, the
# step-cost LP and its repair, quadratic in the distinct squares) and the baseline's states are
# seconds of Python that no deadline check cuts short (encodings/swap.md, "Notes moved from the code").
CHILD_PROCESS_CELLS = 64


def default_method(task: Task) -> str:
    """The exact method fastest for this kind of level (``encodings/swap.md``, "6. Which exact
    method by default"): the search at every size; CP-SAT only where the search's byte-per-cell state
    cannot hold the level (more than 256 distinct squares)."""
    from .search import MAX_CLASSES

    return "search" if len(task.classes) <= MAX_CLASSES else "cpsat"


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
    # (a child stopped at the limit leaves its proven bound and the shortest plan it reported: proof.BestSoFar)
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
    progress = proof.BestSoFar(task, chosen)
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
            share = proof.QUICK_PLAN_SECONDS if remaining is None else min(proof.QUICK_PLAN_SECONDS, proof.QUICK_PLAN_SHARE * remaining)
            share_deadline = budget.phase(Deadline.of(share))
            plan = None
            for weight in proof.QUICK_PLAN_WEIGHTS:  # a greedier second try when the first finds nothing
                plan = quick_plan(task, weight=weight, time_limit=share_deadline, step_costs=step_costs,
                                  max_expansions=proof.QUICK_PLAN_EXPANSIONS_PER_CELL * len(task.cells))
                if plan is not None or share_deadline.expired():
                    break
            plan_stats = {} if plan is None else {"quick_plan": len(plan)}
            progress.found(plan)
            if plan is None:  # beams with a loose length may still find one (or the level is unsolvable)
                share = budget.phase(deadline.within(proof.BEAM_SECONDS if remaining is None else proof.BEAM_SHARE * remaining))
                plan = proof.first_plan(task, lower, widths=proof.BEAM_WIDTHS, time_limit=share, step_costs=step_costs)
                if plan is not None:
                    plan_stats["beam_first_plan"] = len(plan)
                    progress.found(plan)
            # (then the beams for a shorter plan run in a helper beside A*; not in a batch of several: child.one_process)
            beside = proof.may_work_beside() and not budget.by_work
            if plan is not None and len(plan) > lower and not beside:
                share = budget.phase(deadline.within(proof.BEAM_SECONDS if remaining is None else proof.BEAM_SHARE * remaining))
                plan = proof.shorter_plan(task, plan, lower, widths=proof.BEAM_WIDTHS, time_limit=share, step_costs=step_costs)
                plan_stats["beam_plan"] = len(plan)
                guided = proof.shorter_by_distance(task, plan, lower, deadline=budget.phase(deadline.within(proof.DISTANCE_PLAN_SECONDS)))
                if guided is not None:
                    plan = guided
                    plan_stats["distance_plan"] = len(plan)
                progress.found(plan)
            if plan is not None and len(plan) <= lower:
                outcome = None
            else:
                outcome, plan = proof.prove(task, plan, step_costs=step_costs, remaining=remaining, deadline=deadline,
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
            swaps = proof.stated_plan(task, swaps, step_costs=step_costs, budget=budget, stats=stats)
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
