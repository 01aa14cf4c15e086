"""The thin SAT layer every family shares: pool, cardinality, solvers with limits, counting."""

from .card import at_least, at_most, at_most_one, counter, exactly, exactly_one
from .counting import enumerate_models
from .cpsat import CpSatOutcome, run_cpsat
from .pool import VarPool
from .solver import DEFAULT_SOLVER, SatSolver, UnknownSolver, check_solver_name, known_solvers

__all__ = [
    "VarPool", "SatSolver", "DEFAULT_SOLVER", "check_solver_name", "known_solvers", "UnknownSolver", "enumerate_models", "run_cpsat", "CpSatOutcome",
    "at_most_one", "exactly_one", "at_most", "at_least", "exactly", "counter",
]
