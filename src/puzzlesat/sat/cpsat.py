"""OR-Tools CP-SAT runner with the library's time-limit and status conventions.

>>> from ortools.sat.python import cp_model
>>> m = cp_model.CpModel(); x = m.new_int_var(0, 5, "x"); _ = m.add(x >= 3); m.minimize(x)
>>> outcome = run_cpsat(m, time_limit=5)
>>> outcome.status, outcome.solver.value(x), outcome.proven_optimal
('solved', 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from ..timing import Deadline

DEFAULT_WORKERS = 1  # deterministic and fair against single-threaded baselines


@dataclass
class CpSatOutcome:
    status: str  # "solved", "unsatisfiable" or "unknown"
    proven_optimal: bool
    solver: cp_model.CpSolver
    seconds: float
    objective_bound: float | None


def run_cpsat(
    model: cp_model.CpModel,
    *,
    time_limit: "float | Deadline | None" = None,
    workers: int = DEFAULT_WORKERS,
    seed: int = 0,
    parameters: "dict[str, object] | None" = None,
) -> CpSatOutcome:
    """Solve ``model``; ``status`` is "unknown" when the limit ran out with nothing decided.

    ``parameters`` sets further CP-SAT parameters by name (e.g. ``{"linearization_level": 2}``).
    """
    deadline = Deadline.of(time_limit)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # CP-SAT's own Ctrl-C handler aborts the process (std::bad_function_call, OR-Tools 9.15) and
    # would swallow the interrupt anyway; without it Python raises KeyboardInterrupt when the
    # call returns (within its time limit), and the caller keeps what it has finished.
    solver.parameters.catch_sigint_signal = False
    for name, value in (parameters or {}).items():
        setattr(solver.parameters, name, value)
    remaining = deadline.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 0.001)
    code = solver.solve(model)
    has_objective = model.has_objective()
    bound = solver.best_objective_bound if has_objective else None
    if code == cp_model.OPTIMAL:
        return CpSatOutcome("solved", True, solver, solver.wall_time, bound)
    if code == cp_model.FEASIBLE:
        return CpSatOutcome("solved", not has_objective, solver, solver.wall_time, bound)
    if code == cp_model.INFEASIBLE:
        return CpSatOutcome("unsatisfiable", True, solver, solver.wall_time, bound)
    return CpSatOutcome("unknown", False, solver, solver.wall_time, bound)
