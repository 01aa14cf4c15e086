"""SAT against the backtracking baseline on random small boards: the two independent solvers must
agree on solvable-or-not and on count(limit=2), and every answer either returns must verify.
The larger-scale comparison lives in ``python -m benchmarks.numberlink_vs_search``."""

from __future__ import annotations

import importlib
import random
from collections import Counter

import pytest

from puzzlesat.numberlink import backtracking
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.solve import count as sat_count
from puzzlesat.numberlink.solve import solve as sat_solve
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status

gen = importlib.import_module("puzzlesat.numberlink.generate")

RULE_SETS = (Rules(), Rules(cover_all=False), Rules(no_self_touch=True), Rules(cover_all=False, no_self_touch=True))


def random_placement(rng: random.Random, width: int, height: int) -> Puzzle:
    """Pairs and blocked cells dropped at random (mostly unsolvable under cover-all)."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    pairs = rng.randint(1, max(1, min(5, width * height // 3)))
    blocked = rng.choice([0, 0, rng.randint(1, max(1, width * height // 6))])
    chosen = tuple(Pair(str(i + 1), cells[2 * i], cells[2 * i + 1]) for i in range(pairs))
    return Puzzle(width, height, chosen, frozenset(cells[2 * pairs: 2 * pairs + blocked]))


def from_partition(rng: random.Random, width: int, height: int) -> Puzzle:
    """The endpoints of a random union-find partition (solvable under cover-all), sometimes
    with its leftovers left free instead of blocked, and sometimes with one pair moved."""
    links, blocked = gen.unionfind_links(width, height, rng)
    links = [link for link in links if len(link) >= 2]
    if rng.random() < 0.3:
        blocked = frozenset()
    puzzle, _ = gen._puzzle_from_links(width, height, links, blocked)
    if rng.random() < 0.2 and puzzle.pairs:
        taken = set(puzzle.endpoints()) | puzzle.blocked
        spare = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
        if spare:
            pairs = list(puzzle.pairs)
            pairs[0] = Pair(pairs[0].label, pairs[0].start, rng.choice(spare))
            puzzle = Puzzle(width, height, tuple(pairs), puzzle.blocked)
    return puzzle


def instances(n: int, seed: int):
    rng = random.Random(seed)
    for i in range(n):
        width, height = rng.randint(2, 7), rng.randint(2, 7)
        if width * height > 30 and rng.random() < 0.6:  # keep most boards small enough for a quick test
            width, height = rng.randint(2, 5), rng.randint(2, 5)
        puzzle = random_placement(rng, width, height) if i % 2 else from_partition(rng, width, height)
        yield puzzle, RULE_SETS[rng.randrange(len(RULE_SETS))]


@pytest.mark.slow
def test_sat_and_backtracking_agree_on_1200_random_small_boards() -> None:
    outcomes = Counter()
    sizes = set()
    for puzzle, rules in instances(1200, seed=2026):
        sat = sat_count(puzzle, rules=rules, limit=2, time_limit=20)
        search = backtracking.count(puzzle, rules=rules, limit=2, time_limit=20)
        assert sat.complete and search.complete, (str(puzzle), rules)
        assert sat.count == search.count, f"SAT {sat.count} vs search {search.count} under {rules}:\n{puzzle}"
        for answer in sat.solutions + search.solutions:
            assert verify(puzzle, answer, rules) == []
        outcomes[(rules, sat.count)] += 1
        sizes.add(puzzle.size)
    # the sample covers every rule set with none, one and several answers, on many board shapes
    for rules in RULE_SETS:
        assert all(outcomes[(rules, k)] > 0 for k in (0, 1, 2)), (rules, outcomes)
    assert len(sizes) >= 30 and any(w == 7 or h == 7 for w, h in sizes)


def test_solve_agrees_on_solvable_or_not_with_blocked_cells() -> None:
    rng = random.Random(99)
    for _ in range(100):
        puzzle = random_placement(rng, rng.randint(3, 6), rng.randint(3, 6))
        if not puzzle.blocked:
            continue
        for rules in (Rules(), Rules(cover_all=False)):
            a = sat_solve(puzzle, rules=rules)
            b = backtracking.solve(puzzle, rules=rules)
            assert a.status == b.status and a.status is not Status.UNKNOWN
            if a.solved:
                assert verify(puzzle, a.solution, rules) == [] and verify(puzzle, b.solution, rules) == []
