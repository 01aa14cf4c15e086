"""Exported formulas count the family's answers: models projected onto the answer variables
(enumerated with blocking clauses on those variables) against brute-force enumeration."""

from __future__ import annotations

import pytest
from pysat.solvers import Solver

from puzzlesat.numberlink.export import decode, export_cnf as numberlink_cnf
from puzzlesat.numberlink.model import Puzzle
from puzzlesat.sat.dimacs import answer_variables
from tests.numberlink.test_counts import ALL_RULES, CASES, brute_force_answers


def projected_models(cnf, limit: int = 400) -> list[frozenset[int]]:
    """Every model of ``cnf`` read on its answer variables (the true ones), up to ``limit``."""
    answer = answer_variables(cnf)
    found = []
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        while len(found) < limit and solver.solve():
            model = solver.get_model()
            true = frozenset(v for v in answer if model[v - 1] > 0)
            found.append(true)
            solver.add_clause([-v if v in true else v for v in answer])
    return found


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("name,puzzle", CASES, ids=[name for name, _ in CASES])
def test_numberlink_export_counts_the_answers(name: str, puzzle: Puzzle, rules) -> None:
    expected = brute_force_answers(puzzle, rules)
    if len(expected) > 300:
        pytest.skip("too many answers to list")
    cnf = numberlink_cnf(puzzle, rules=rules)
    models = projected_models(cnf)
    assert len(models) == len(expected)
    drawn = set()
    for true in models:
        solution = decode(puzzle, cnf, sorted(true))
        drawn.add(tuple(sorted(solution.as_dict().items())))
    assert drawn == {tuple(sorted(a.items())) for a in expected}


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_numberlink_exclude_leaves_the_other_answers(rules) -> None:
    for name, puzzle in CASES:
        expected = brute_force_answers(puzzle, rules)
        if not expected or len(expected) > 300:
            continue
        cnf = numberlink_cnf(puzzle, rules=rules)
        first = decode(puzzle, cnf, sorted(projected_models(cnf, limit=1)[0]))
        assert len(projected_models(numberlink_cnf(puzzle, rules=rules, exclude=first))) == len(expected) - 1, name
