"""Capped model enumeration that blocks only the answer variables.

Auxiliary variables (counters, ranks, flows) may take several values for one answer; blocking
them would count the same answer many times. So each found model is blocked on its *answer*
variables only. A ``refine`` callback lets an encoding reject a model that is not a real answer
(a stray cycle, say) by returning clauses that cut it; the solver is then asked again without
counting that model.

>>> from puzzlesat.sat.solver import SatSolver
>>> s = SatSolver([[1, 2]])
>>> found, complete = enumerate_models(s, answer_vars=[1, 2], limit=5)
>>> len(found), complete
(3, True)
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..timing import Deadline
from .solver import SatSolver

Refine = Callable[[set[int]], list[list[int]]]


def enumerate_models(
    solver: SatSolver,
    answer_vars: Sequence[int],
    *,
    limit: int,
    time_limit: "float | Deadline | None" = None,
    refine: Refine | None = None,
    assumptions: Sequence[int] = (),
) -> tuple[list[set[int]], bool]:
    """Find up to ``limit`` models differing on ``answer_vars``.

    Returns ``(models, complete)`` where each model is the set of true variables, and
    ``complete`` says the search ended (found ``limit`` or proved there are no more) rather
    than running out of time. Each model found is blocked on ``answer_vars`` only, so the
    solver is left with those answers excluded. ``refine(true_vars)`` may return clauses that
    cut a model which is not a real answer (it is then not counted); ``assumptions`` hold in
    every call.

    >>> s = SatSolver([[1, 2], [-2, 3]])   # x3 is auxiliary: it follows x2
    >>> models, complete = enumerate_models(s, [1, 2], limit=10, time_limit=5)
    >>> sorted(sorted(m & {1, 2}) for m in models), complete
    ([[1], [1, 2], [2]], True)
    >>> enumerate_models(SatSolver([[1, 2]]), [1, 2], limit=1)[1]   # stopped at the limit: complete
    True
    """
    deadline = Deadline.of(time_limit)
    models: list[set[int]] = []
    while len(models) < limit:
        answer = solver.solve(assumptions, time_limit=deadline)
        if answer is None:
            return models, False
        if not answer:
            return models, True
        true_vars = solver.true_vars()
        if refine is not None:
            cuts = refine(true_vars)
            if cuts:
                solver.add_clauses(cuts)
                continue
        models.append(true_vars)
        solver.add_clause([-v if v in true_vars else v for v in answer_vars])
    return models, True
