"""OR-Tools CP-SAT runner with the library's time-limit and status conventions.

>>> from ortools.sat.python import cp_model
>>> m = cp_model.CpModel(); x = m.new_int_var(0, 5, "x"); _ = m.add(x >= 3); m.minimize(x)
>>> outcome = run_cpsat(m, time_limit=5)
>>> outcome.status, outcome.solver.value(x), outcome.proven_optimal
('solved', 3, True)
"""

from __future__ import annotations

import queue
import signal
import threading
import time
from dataclasses import dataclass

from ortools.sat import sat_parameters_pb2
from ortools.sat.python import cp_model

from ..errors import require_type
from ..timing import Deadline

DEFAULT_WORKERS = 1  # deterministic and fair against single-threaded baselines


@dataclass
class CpSatOutcome:
    """What :func:`run_cpsat` found: ``status`` ("solved", "unsatisfiable" or "unknown"),
    ``proven_optimal`` (the objective's optimum is proven, or the model has no objective and a
    solution or infeasibility was found), the ``solver`` to read values from, its wall
    ``seconds`` and the best proven ``objective_bound`` (None without an objective)."""

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
    work_limit: float | None = None,
) -> CpSatOutcome:
    """Solve ``model``; ``status`` is "unknown" when the limit ran out with nothing decided.
    ``work_limit`` bounds the search by CP-SAT's deterministic time (a work count in about
    seconds of an idle machine): with one worker, a search it ends ends the same way on any
    machine and load, which a time limit does not.

    ``parameters`` sets further CP-SAT parameters by name (e.g. ``{"linearization_level": 2}``).
    ``workers`` is 1 by default, so runs are repeatable and fair against one-threaded baselines.

    >>> from ortools.sat.python import cp_model
    >>> m = cp_model.CpModel(); x = m.new_int_var(0, 9, "x"); y = m.new_int_var(0, 9, "y")
    >>> _ = m.add(x + y == 12); m.maximize(x - y)
    >>> outcome = run_cpsat(m, time_limit=5, parameters={"linearization_level": 2})
    >>> outcome.status, outcome.proven_optimal, outcome.solver.value(x), outcome.objective_bound
    ('solved', True, 9, 6.0)
    """
    require_type(model, cp_model.CpModel, "model", "an OR-Tools cp_model.CpModel")
    deadline = Deadline.of(time_limit)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    # CP-SAT's own Ctrl-C handler aborts the process (std::bad_function_call, OR-Tools 9.15) and
    # would swallow the interrupt anyway; solve_interruptibly stops the search on Ctrl-C instead,
    # and the caller keeps what it has finished.
    solver.parameters.catch_sigint_signal = False
    for name, value in (parameters or {}).items():
        if not isinstance(name, str) or name not in sat_parameters_pb2.SatParameters.DESCRIPTOR.fields_by_name:
            raise ValueError(f"unknown CP-SAT parameter {name!r} (the names are the fields of OR-Tools' SatParameters, e.g. 'linearization_level')")
        try:
            setattr(solver.parameters, name, value)
        except TypeError:  # OR-Tools names neither the parameter nor the type it takes
            raise TypeError(f"CP-SAT parameter {name!r} cannot take {value!r} ({type(value).__name__})") from None
    if work_limit is not None:
        if isinstance(work_limit, bool) or not isinstance(work_limit, (int, float)) or not work_limit >= 0:
            raise ValueError(f"work_limit must be a number of deterministic seconds, 0 or more, not {work_limit!r}")
        solver.parameters.max_deterministic_time = max(float(work_limit), 1e-9)
    remaining = deadline.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 0.001)
    code = solve_interruptibly(solver, model)
    has_objective = model.has_objective()
    bound = solver.best_objective_bound if has_objective else None
    if code == cp_model.OPTIMAL:
        return CpSatOutcome("solved", True, solver, solver.wall_time, bound)
    if code == cp_model.FEASIBLE:
        return CpSatOutcome("solved", not has_objective, solver, solver.wall_time, bound)
    if code == cp_model.INFEASIBLE:
        return CpSatOutcome("unsatisfiable", True, solver, solver.wall_time, bound)
    return CpSatOutcome("unknown", False, solver, solver.wall_time, bound)


def solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> int:
    """``solver.solve(model)``, stopped at once by Ctrl-C (KeyboardInterrupt raised after the
    search has stopped). Python runs its Ctrl-C handler only between bytecodes of the main
    thread, so a search called there with no time limit went on to its end, minutes or hours;
    here the search runs in a worker thread (CP-SAT releases the GIL) while the main thread
    waits, ready to call ``stop_search``. (It waits on a queue, not ``Thread.join``: a join cut
    short by Ctrl-C marks the thread stopped while it still runs, and a process that ends during
    a search aborts with 'terminate called without an active exception'; nor on a
    ``threading.Event``: a Ctrl-C landing just after ``Event.wait`` took its lock left the lock
    taken, and both threads waited on it for ever. The queue is C code, with no such moment.)"""
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model)
    finished: queue.SimpleQueue = queue.SimpleQueue()  # the search's (code, error), put when it ends

    def search() -> None:
        if hasattr(signal, "pthread_sigmask"):  # (POSIX; elsewhere the main thread's 0.1 s waits see it)
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # Ctrl-C is for the main thread
        try:
            finished.put((solver.solve(model), None))
        except BaseException as exc:  # handed to the main thread
            finished.put((None, exc))

    worker = threading.Thread(target=search, name="cp-sat search", daemon=True)
    try:
        worker.start()
        while True:
            try:
                code, error = finished.get(timeout=0.1)
                break
            except queue.Empty:
                pass
    except KeyboardInterrupt:
        while worker.is_alive() and finished.empty():  # (a stop asked before the search began is lost: ask again)
            solver.stop_search()
            time.sleep(0.1)
        raise
    if error is not None:
        raise error
    return code
