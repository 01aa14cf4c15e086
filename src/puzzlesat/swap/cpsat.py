"""Bounded-horizon CP-SAT model of a Swap level: is there a plan of exactly (or at most) H swaps?

Rules in a sentence: at every step each non-wall cell holds one square class; one candidate swap
{u, v} happens per step, allowed when the class at one end reaches the other end; the swapped
cells exchange classes, every other cell keeps its class; the goal holds after step H.
Growing H from an admissible lower bound, the first feasible horizon is the minimum, proven by
the infeasibility of every horizon below it. ``encodings/swap.md`` documents the model exactly.
The model of one horizon is :class:`.cpsat_encoding.SwapEncoding`; this module grows the horizon.

>>> from .compiled import Task
>>> task = Task.from_rows(["T1R T1G T1B"], goal=["G B R"])
>>> outcome = solve_min(task, time_limit=10)
>>> outcome.status, outcome.swaps, outcome.lower_bound
('solved', [(0, 1), (1, 2)], 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..sat.cpsat import run_cpsat
from ..timing import Deadline, Stopwatch
from . import bounds
from .compiled import Task
from .cpsat_encoding import CPSAT_PARAMETERS, OutOfTime, SwapEncoding


@dataclass
class HorizonOutcome:
    """One horizon's answer: "solved" (with swaps), "unsatisfiable" or "unknown"."""

    status: str
    swaps: list[tuple[int, int]] | None
    encode_s: float
    solve_s: float
    size: dict


@dataclass
class MinOutcome:
    """The minimum search over horizons: ``lower_bound`` is the first horizon not refuted."""

    status: str  # "solved" (proven minimum), "unknown"
    swaps: list[tuple[int, int]] | None
    lower_bound: int
    encode_s: float = 0.0
    solve_s: float = 0.0
    stats: dict = field(default_factory=dict)


def solve_horizon(
    task: Task,
    horizon: int,
    *,
    time_limit: "float | Deadline | None" = None,
    allow_idle: bool = False,
    **options,
) -> HorizonOutcome:
    """Decide whether ``task`` has a plan of exactly ``horizon`` swaps (at most, with idling)."""
    watch = Stopwatch()
    deadline = Deadline.of(time_limit)
    try:
        with watch("encode"):
            encoding = SwapEncoding(task, horizon, allow_idle=allow_idle, deadline=deadline, **options)
    except OutOfTime:
        return HorizonOutcome("unknown", None, watch.seconds.get("encode", 0.0), 0.0, {})
    if deadline.expired():
        return HorizonOutcome("unknown", None, watch.seconds["encode"], 0.0, encoding.size())
    outcome = run_cpsat(encoding.model, time_limit=deadline, parameters=CPSAT_PARAMETERS)
    swaps = encoding.decode(outcome.solver) if outcome.status == "solved" else None
    return HorizonOutcome(outcome.status, swaps, watch.seconds["encode"], outcome.seconds, encoding.size())


def solve_min(
    task: Task,
    *,
    time_limit: "float | Deadline | None" = None,
    lower_bound: int | None = None,
    max_horizon: int | None = None,
    on_bound: "Callable[[int], None] | None" = None,
    **options,
) -> MinOutcome:
    """Grow the horizon from an admissible lower bound until a plan exists (a proven minimum);
    ``on_bound`` is called with the proven lower bound each time a horizon is refuted."""
    deadline = Deadline.of(time_limit)
    horizon = bounds.lower_bound(task) if lower_bound is None else lower_bound
    if task.is_goal(task.start):
        return MinOutcome("solved", [], 0)
    horizon = max(horizon, 1)
    encode_s = solve_s = 0.0
    refuted = []
    while max_horizon is None or horizon <= max_horizon:
        if deadline.expired():
            break
        outcome = solve_horizon(task, horizon, time_limit=deadline, **options)
        encode_s += outcome.encode_s
        solve_s += outcome.solve_s
        if outcome.status == "solved":
            return MinOutcome("solved", outcome.swaps, horizon, encode_s, solve_s,
                              {"refuted": refuted, **outcome.size})
        if outcome.status == "unknown":
            break
        refuted.append(horizon)
        horizon += 1
        if on_bound is not None:
            on_bound(horizon)
    return MinOutcome("unknown", None, horizon, encode_s, solve_s, {"refuted": refuted})
