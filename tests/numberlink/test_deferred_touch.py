"""Deferred no-self-touch rows (cover-all + no-self-touch, ``encode(..., defer_touch=True)``).

The rows "no edge => the labels differ" are left out of what ``feed`` gives the solver and added
for the edges a model breaks (``Encoding.touch_clauses``). Held here: every answer under default
rules, forced onto the fed formula and given the rows its models break, is refuted exactly when
it touches itself; and the searches that use it count as before.
"""

from __future__ import annotations

import random

import pytest

from puzzlesat.numberlink.encoding import encode
from puzzlesat.numberlink.formats import parse_all
from puzzlesat.numberlink.model import Puzzle, Rules
from puzzlesat.numberlink.solve import count
from puzzlesat.numberlink.verify import verify
from puzzlesat.sat import SatSolver
from tests.support import shared_path

NO_TOUCH = Rules(no_self_touch=True)


def random_puzzle(rng: random.Random) -> Puzzle:
    height, width = rng.randint(3, 6), rng.randint(3, 6)
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    grid = [["."] * width for _ in range(height)]
    for k in range(rng.randint(1, 3)):
        for r, c in cells[2 * k:2 * k + 2]:
            grid[r][c] = "ABC"[k]
    return Puzzle.from_rows(["".join(row) for row in grid])


def survives(puzzle: Puzzle, answer, counter: list[int]) -> bool:
    """Whether the fed formula, with the deferred rows its models break, admits exactly the
    edges of ``answer`` (``counter[0]`` counts the rows given)."""
    enc = encode(puzzle, NO_TOUCH, defer_touch=True)
    assert enc.deferred is not None
    on = set(enc.edge_vars_of(answer))
    assumptions = [e if e in on else -e for e in enc.answer_vars]
    with SatSolver() as solver:
        enc.feed(solver)
        while solver.solve(assumptions):
            rows = enc.touch_clauses(solver.model())
            if not rows:
                return True
            counter[0] += len(rows)
            solver.add_clauses(rows)
        return False


@pytest.mark.parametrize("seed", range(3))
def test_answers_survive_exactly_when_they_do_not_touch(seed):
    """Every default-rules answer of small random boards, forced onto the fed formula: it
    survives (with the deferred rows its models break) exactly when it does not touch itself.
    (On boards this small the fed rows alone refute every answer that touches.)"""
    rng = random.Random(seed)
    checked = 0
    while checked < 100:
        puzzle = random_puzzle(rng)
        for answer in count(puzzle, rules=Rules(), limit=12).solutions:
            checked += 1
            assert survives(puzzle, answer, [0]) == (verify(puzzle, answer, NO_TOUCH) == [])


def test_a_published_puzzle_needs_deferred_rows():
    """janko #197 (17x17): a model of the fed formula has a path coming back beside itself
    round a region of whole paths; the rows of those edges are given, and the count agrees with
    the complete formula (its one answer blocked, nothing is left)."""
    puzzles = {p.name: p for p in parse_all(shared_path("numberlink", "thomasahle-numberlink", "puzzles", "janko").read_text(), source="janko")}
    puzzle = puzzles["janko#197"]
    result = count(puzzle, rules=NO_TOUCH, limit=2)
    assert result.complete and result.count == 1
    assert result.stats["touch_rows_given"] > 0
    enc = encode(puzzle, NO_TOUCH)
    with SatSolver(enc.clauses()) as solver:
        solver.add_clause([-e for e in enc.edge_vars_of(result.solutions[0])])
        assert solver.solve() is False


class Recorder:
    """Stands in for a solver and counts the clauses it is given."""

    def __init__(self) -> None:
        self.clauses = 0

    def add_clause(self, clause) -> None:
        self.clauses += 1

    def add_clause_lists(self, clauses) -> None:
        self.clauses += len(clauses)


def test_feed_leaves_out_exactly_the_deferred_rows():
    puzzle = Puzzle.from_rows(["A.B.C", ".....", "D...E", "..C..", "AB.DE"])
    full, deferred = encode(puzzle, NO_TOUCH), encode(puzzle, NO_TOUCH, defer_touch=True)
    assert full.clause_counts() == deferred.clause_counts()  # the formula is the same
    assert sorted(map(tuple, full.clauses())) == sorted(map(tuple, deferred.clauses()))
    assert deferred.deferred is not None and full.deferred is None
    left_out = sum(len(block) for name, block in full.blocks if name in deferred.deferred.names)
    assert left_out == deferred.deferred.num_rows > 0
    assert not any(name in deferred.deferred.names for name, _ in deferred.blocks)  # (made only when a model needs them)
    fed = Recorder()
    deferred.feed(fed)
    assert fed.clauses == deferred.num_clauses - left_out
    assert encode(puzzle, Rules(cover_all=False, no_self_touch=True), defer_touch=True).deferred is None


def test_feed_with_release_drops_the_blocks_and_keeps_the_sizes():
    puzzle = Puzzle.from_rows(["A.B.C", ".....", "D...E", "..C..", "AB.DE"])
    kept, dropped = encode(puzzle, NO_TOUCH, defer_touch=True), encode(puzzle, NO_TOUCH, defer_touch=True)
    fed_kept, fed_dropped = Recorder(), Recorder()
    kept.feed(fed_kept)
    dropped.feed(fed_dropped, release=True)
    assert fed_kept.clauses == fed_dropped.clauses > 0
    assert dropped.blocks == [] and dropped.clause_counts() == kept.clause_counts() and dropped.num_clauses == kept.num_clauses
    with pytest.raises(RuntimeError):
        list(dropped.clauses())
