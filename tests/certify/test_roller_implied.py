"""Roller's exported formula with its implied rows (``encodings/roller.md``, "The implied rows"):
on boards large enough for the deadlines to bite, its models are still exactly the walks of at
most K moves that paint every floor cell, K the minimum and one more (brute force); and a
certificate whose formula file lacks those rows is refused."""

from __future__ import annotations

import os
import random

import pytest
from pysat.formula import CNF

from puzzlesat.certify import certify
from puzzlesat.proofcheck import check_certificate
from puzzlesat.roller.export import decode, export_cnf
from puzzlesat.roller.model import Level
from puzzlesat.roller.solve import solve
from tests.certify.test_export_counts import projected_models, roller_walks


def _levels(seed: int, n: int) -> list[tuple[Level, int]]:
    """Walled 5x5 to 6x7 boards with a few inner walls and a minimum of 4 to 7 moves."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        h, w = rng.choice([(5, 5), (5, 6), (6, 6), (6, 7)])
        rows = ["".join("#" if r in (0, h - 1) or c in (0, w - 1) or rng.random() < 0.2 else "." for c in range(w)) for r in range(h)]
        floor = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."]
        if len(floor) < 6:
            continue
        level = Level(tuple(rows), rng.choice(floor))
        result = solve(level, time_limit=10)
        if result.optimal and result.solution is not None and 4 <= len(result.solution) <= 7:
            out.append((level, len(result.solution)))
    return out


@pytest.mark.parametrize("level,k", _levels(7, 8), ids=lambda x: "/".join(x.rows) + f"@{x.start}" if isinstance(x, Level) else str(x))
def test_the_implied_rows_keep_every_short_walk(level: Level, k: int) -> None:
    for bound in (k - 1, k, k + 1):
        expected = roller_walks(level, bound)
        cnf = export_cnf(level, moves=bound)
        assert any("is painted by step" in line for line in cnf.comments)
        models = projected_models(cnf, limit=5000)
        assert len(models) == len(expected) and {decode(cnf, sorted(m)) for m in models} == expected, bound
        assert bool(expected) == (bound >= k)


def test_a_formula_file_without_the_implied_rows_is_refused(tmp_path) -> None:
    level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
    directory = str(tmp_path / "c")
    assert certify(level, family="roller", time_limit=30, directory=directory)["certificate"] == directory
    assert check_certificate(directory).confirmed
    cnf = export_cnf(level, moves=3)
    painted = {int(line.split()[2]) for line in cnf.comments if "is painted by step" in line}
    plain = [c for c in cnf.clauses if not painted & {abs(x) for x in c}]
    assert painted and len(plain) < len(cnf.clauses)
    CNF(from_clauses=plain).to_file(os.path.join(directory, "formula.cnf"))
    check = check_certificate(directory)
    assert not check.confirmed and "not the puzzle's formula" in check.reason
