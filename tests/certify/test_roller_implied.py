"""Roller's exported formula with its implied rows (``encodings/roller.md``, "The implied rows"):
on boards large enough for the deadlines to bite, its models are still exactly the walks of at
most K moves that paint every floor cell, K the minimum and one more (brute force); a
certificate whose formula file lacks those rows is refused; and the size formula holds."""

from __future__ import annotations

import os
import random
from math import comb

import pytest
from pysat.formula import CNF

from puzzlesat.certify import certify
from puzzlesat.proofcheck import check_certificate
from puzzlesat.roller.export import decode, export_cnf
from puzzlesat.roller.model import MOVES, Level, slide
from puzzlesat.roller.solve import solve
from puzzlesat.roller.stopgraph import StopGraph
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


def _deadline_rows(level: Level, graph: StopGraph, stops: list[set], bound: int) -> int:
    """The deadline rows, counted from distances found again here (forwards from each stop)."""
    rows = 0
    for c in graph.key_cells:
        for t, here in enumerate(stops):
            for v in here:
                seen, frontier, dist = {v}, [v], 1
                while frontier and not any(m.painted >= {c} for u in frontier for m in graph.moves_from.get(u, ())):
                    frontier = [m.head for u in frontier for m in graph.moves_from.get(u, ()) if m.head not in seen]
                    seen.update(frontier)
                    dist += 1
                rows += not frontier or dist > bound - t
    return rows


def test_the_size_formula_matches_the_export() -> None:
    rng = random.Random(1)
    for _ in range(30):
        h, w = rng.choice([(5, 5), (6, 7), (7, 7)])
        rows = ["".join("#" if rng.random() < 0.2 else "." for _ in range(w)) for _ in range(h)]
        floor = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."]
        if len(floor) < 3:
            continue
        level, bound = Level(tuple(rows), rng.choice(floor)), rng.randint(0, 6)
        graph = StopGraph.of(level)
        keys = graph.key_cells
        stops, variables, clauses = [{level.start}], 1, 1
        for t in range(1, bound + 1):
            out = {v: [(d, *slide(level, v, d)) for d in MOVES if slide(level, v, d)[1]] for v in stops[-1]}
            m = sum(map(len, out.values()))
            here = stops[-1] | {x[1] for xs in out.values() for x in xs}
            n = len(here)
            variables += 1 + m + n + len(stops[-1]) + len(keys) + (n - 1 if n > 6 else 0)
            clauses += ((t > 1) + 1 + 2 * m + sum(1 + comb(len(xs), 2) for xs in out.values()) + n + 2 * len(stops[-1]) + m
                        + 1 + (comb(n, 2) if n <= 6 else 3 * n - 4))
            clauses += sum(1 + (t > 1) + sum(c in x[2] for xs in out.values() for x in xs) for c in keys)
            stops.append(here)
        clauses += level.floor_count - 1 + len(keys) * (bound > 0) + _deadline_rows(level, graph, stops, bound)
        cnf = export_cnf(level, moves=bound)
        assert (cnf.nv, len(cnf.clauses)) == (variables, clauses), (rows, level.start, bound)
