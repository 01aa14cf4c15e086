"""SAT solver back-ends with wall-clock time limits.

pysat's CaDiCaL cannot be interrupted and holds the GIL, so a limit is enforced by running it
in conflict-budgeted steps (``conf_budget`` + ``solve_limited``), sizing each step from the
conflict rate measured so far so that a step never overshoots the deadline by much. Solvers
that honour ``interrupt`` (Glucose, MiniSat) are stopped by a timer instead. How soon they stop
is theirs: Glucose looks at the flag (and at a conflict budget) only between restarts, and on a
formula where it blocks restarts it can go on well past the limit. A time limit of N seconds
means about N + 1 for the default CaDiCaL, MiniSat and the Maple solvers (encodings/numberlink.md,
"The SAT layer (sat/solver.py)").

>>> s = SatSolver([[1, 2], [-1], [-2, 3]])
>>> s.solve(time_limit=5)
True
>>> s.true_vars() >= {2, 3}
True
>>> s.add_clause([-3]); s.solve()
False
>>> s.close()
"""

from __future__ import annotations

import functools
import threading
import time
from collections import deque
from itertools import repeat
from typing import Iterable, Sequence

import pysolvers
from pysat.solvers import Solver, SolverNames

from ..errors import PuzzlesatError, require_type
from ..timing import Deadline

DEFAULT_SOLVER = "cadical195"
# Solvers whose native code honours Solver.interrupt(); others run in conflict-budgeted steps.
INTERRUPTIBLE = frozenset({"glucose3", "glucose4", "glucose42", "minisat22", "minisatgh", "maplechrono", "maplecm", "maplesat", "mergesat3", "gluecard3", "gluecard4", "minicard"})
# pysat back-ends this layer cannot drive: it needs incremental solving under a time limit.
UNSUPPORTED = {
    "lingeling": "pysat's Lingeling has no limited solve, so a time limit cannot be honoured",
    "kissat404": "Kissat is single-shot (no clauses after a solve, assumptions ignored)",
}

# pysat's C entry points for adding one clause, by solver name: (handle attribute, function)
_RAW_ADD = {
    "cadical195": ("cadical", "cadical195_add_cl"),
    "glucose4": ("glucose", "glucose41_add_cl"),
    "glucose42": ("glucose", "glucose421_add_cl"),
    "minisat22": ("minisat", "minisat22_add_cl"),
}



class UnknownSolver(PuzzlesatError, ValueError):
    """A SAT solver name this layer cannot drive: unknown to pysat, or one it cannot use."""


@functools.cache
def _backend_of_name() -> dict[str, str]:
    """Every name pysat accepts for a SAT back-end (``g4``, ``glucose4``, ...) -> the back-end
    (pysat's key for it, as in :data:`UNSUPPORTED`); made once (every solver made asks)."""
    return {name: backend for backend, names in vars(SolverNames).items() if not backend.startswith("_") for name in names}


def known_solvers() -> list[str]:
    """The SAT back-ends this layer can drive, one name each (pysat also takes short names).

    >>> known_solvers()[:3]
    ['cadical103', 'cadical153', 'cadical195']
    """
    shown = []
    for backend, names in vars(SolverNames).items():
        if not backend.startswith("_") and backend not in UNSUPPORTED:
            shown.append(backend if backend in names else names[-1])  # (pysat's key is not always a name it takes)
    return sorted(shown)


def check_solver_name(name: str) -> None:
    """Raise :class:`UnknownSolver` (a ValueError) naming ``name`` and the known back-ends
    unless this layer can drive it. The solving verbs call it before any work, so a mistyped
    name is refused even for a puzzle that turns out to need no SAT call.

    >>> check_solver_name("glucose4")
    >>> check_solver_name("nosuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    puzzlesat.sat.solver.UnknownSolver: unknown SAT solver 'nosuch' (known: cadical103, cadical153, ...)
    """
    require_type(name, str, "solver", "a SAT solver's name, e.g. 'cadical195'")
    backend = _backend_of_name().get(name)
    if backend is None:
        raise UnknownSolver(f"unknown SAT solver {name!r} (known: {', '.join(known_solvers())})")
    if backend in UNSUPPORTED:
        raise UnknownSolver(f"SAT solver {name!r} cannot be used: {UNSUPPORTED[backend]}")


_FIRST_BUDGET = 2_000
_MAX_STEP_SECONDS = 0.5  # aim for steps this long, so a deadline is missed by well under a second


class SatSolver:
    """An incremental SAT solver chosen by name, whose ``solve`` accepts a time limit.

    ``solve`` returns True (satisfiable), False (unsatisfiable) or None (time ran out).

    >>> with SatSolver([[1, 2], [-1, 2]], name="glucose4") as s:
    ...     s.solve(time_limit=5), 2 in s.true_vars(), s.solve([-2])
    (True, True, False)
    """

    def __init__(self, clauses: Iterable[Sequence[int]] = (), *, name: str = DEFAULT_SOLVER, options: dict[str, int] | None = None) -> None:
        check_solver_name(name)
        self.name = name
        self._solver = Solver(name=name)
        if options:  # back-end options by name (CaDiCaL's configure); ignored where unsupported
            configure = getattr(self._solver.solver, "configure", None)
            if configure is not None:
                configure(dict(options))
        self._solver.append_formula([list(c) for c in clauses])
        self.calls = 0
        self.solve_seconds = 0.0

    def add_clause(self, clause: Sequence[int]) -> None:
        self._solver.add_clause(list(clause))

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        self._solver.append_formula([list(c) for c in clauses])

    def add_clause_lists(self, clauses: list[list[int]]) -> None:
        """Add clauses that are already lists of Python ints (no copy; for large formulas)."""
        raw = _RAW_ADD.get(self.name)
        handle = getattr(self._solver.solver, raw[0], None) if raw else None
        if handle is not None:  # skip pysat's two Python wrapper layers (they only record status)
            deque(map(getattr(pysolvers, raw[1]), repeat(handle), clauses), maxlen=0)
            return
        add = self._solver.add_clause
        for clause in clauses:
            add(clause)

    def solve(
        self,
        assumptions: Sequence[int] = (),
        *,
        time_limit: "float | Deadline | None" = None,
        conflict_limit: int | None = None,
    ) -> bool | None:
        """True, False, or None when ``time_limit`` ran out or (if given) the search met
        ``conflict_limit`` conflicts first (a cheap bounded try, e.g. for a local search). Both
        limits hold together: a large conflict budget under a time limit runs in steps that
        stop at the deadline (one budget of many conflicts would overrun it)."""
        deadline = Deadline.of(time_limit)
        self.calls += 1
        start = time.perf_counter()
        try:
            if deadline.expired():
                return None
            if conflict_limit is not None and deadline.time_limit is None:
                self._solver.conf_budget(max(1, int(conflict_limit)))
                return self._solver.solve_limited(assumptions=list(assumptions))
            if deadline.time_limit is None:
                return bool(self._solver.solve(assumptions=list(assumptions)))
            if self.name in INTERRUPTIBLE:
                return self._solve_with_timer(list(assumptions), deadline, conflict_limit)
            return self._solve_in_budgeted_steps(list(assumptions), deadline, conflict_limit)
        except pysolvers.error as exc:
            if "keyboard interrupt" in str(exc).lower():  # pysat's own word for Ctrl-C inside a solver
                self._abandon()
                raise KeyboardInterrupt from None
            raise
        finally:
            self.solve_seconds += time.perf_counter() - start

    def _solve_with_timer(self, assumptions: list[int], deadline: Deadline, conflict_limit: int | None = None) -> bool | None:
        # a conflict budget left by an earlier bounded call (``conflict_limit``) would still
        # apply to solve_limited and end this search long before its time (-1: no budget)
        self._solver.conf_budget(-1 if conflict_limit is None else max(1, int(conflict_limit)))
        timer = threading.Timer(deadline.remaining() or 0.0, self._solver.interrupt)
        timer.start()
        try:
            answer = self._solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            self._solver.clear_interrupt()
        return answer

    def _solve_in_budgeted_steps(self, assumptions: list[int], deadline: Deadline, conflict_limit: int | None = None) -> bool | None:
        """Conflict-budgeted steps of about ``_MAX_STEP_SECONDS`` until an answer, the
        deadline, or (if given) ``conflict_limit`` conflicts in all."""
        left = None if conflict_limit is None else max(1, int(conflict_limit))
        budget = _FIRST_BUDGET if left is None else min(_FIRST_BUDGET, left)
        while True:
            before = self._conflicts()
            t0 = time.perf_counter()
            self._solver.conf_budget(budget)
            answer = self._solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            used = max(self._conflicts() - before, 1)
            if left is not None:
                left -= used
                if left <= 0:
                    return None
            remaining = deadline.remaining() or 0.0
            if remaining <= 0:
                return None
            spent = max(time.perf_counter() - t0, 1e-4)
            rate = used / spent  # conflicts per second
            budget = int(max(100, min(budget * 2, rate * min(remaining, _MAX_STEP_SECONDS))))
            if left is not None:
                budget = min(budget, left)

    def _conflicts(self) -> int:
        return int(self._solver.accum_stats().get("conflicts", 0))

    def set_phases(self, literals: Sequence[int]) -> None:
        """Prefer these polarities when deciding (a hint; solvers without phases ignore it)."""
        try:
            self._solver.set_phases(list(literals))
        except (NotImplementedError, AttributeError):
            pass

    def model(self) -> list[int]:
        return self._solver.get_model() or []

    def true_vars(self) -> set[int]:
        return {lit for lit in self.model() if lit > 0}

    def core(self) -> list[int]:
        return self._solver.get_core() or []

    def stats(self) -> dict[str, int]:
        return dict(self._solver.accum_stats())

    def close(self) -> None:
        self._solver.delete()

    def _abandon(self) -> None:
        """Never free this solver: pysat leaves a solver interrupted by Ctrl-C by jumping out of
        its native code, which can leave its memory half updated, and freeing it then has crashed
        ("double free or corruption") or hung the process. Its handle is dropped instead (the
        memory is leaked; the process is about to stop)."""
        inner = self._solver.solver
        if inner is not None:
            for name, value in list(vars(inner).items()):
                if type(value).__name__ == "PyCapsule":  # the native solver's handle
                    setattr(inner, name, None)

    def __enter__(self) -> "SatSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
