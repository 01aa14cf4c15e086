"""The thin SAT layer every family shares: pool, cardinality, solvers with limits, counting."""

from .card import at_least, at_most, at_most_one, counter, exactly, exactly_one
from .counting import enumerate_models
from .pool import VarPool
from .solver import DEFAULT_SOLVER, SatSolver, UnknownSolver, check_solver_name, known_solvers

__all__ = [
    "VarPool", "SatSolver", "DEFAULT_SOLVER", "check_solver_name", "known_solvers", "UnknownSolver", "enumerate_models", "run_cpsat", "CpSatOutcome",
    "at_most_one", "exactly_one", "at_most", "at_least", "exactly", "counter",
]


def __getattr__(name: str):
    """``run_cpsat`` and ``CpSatOutcome`` load OR-Tools (and with it pandas, about 0.15 s) on
    first use, not with this package: Numberlink never needs them."""
    if name in ("run_cpsat", "CpSatOutcome"):
        from . import cpsat

        return getattr(cpsat, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
