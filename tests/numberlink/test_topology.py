"""The search-free refutations (chessboard colours, pairs on the border, spokes around an
island) against independent counts: the brute-force enumerator and the frontier count."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlesat.numberlink import count, solve
from puzzlesat.numberlink.frontier import count_answers
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.topology import _boundary, _rim, border_contradiction, contradiction
from puzzlesat.results import Status
from tests.numberlink.test_counts import brute_force_answers

LOOSE = Rules(cover_all=False)  # the most answers: a puzzle without one here has none under any rules

CORNERS = ((0, 0), (0, 5), (5, 5), (5, 0))  # clockwise on the 6x6 board
CENTRE = ((2, 2), (2, 3), (3, 3), (3, 2))  # clockwise around the 2x2 island


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))), ids=str)
def test_spokes_refuted_exactly_when_no_answer(order: tuple[int, ...]) -> None:
    """Four pairs from the corners of a 6x6 board to a 2x2 island, in every assignment."""
    pairs = tuple(Pair("abcd"[i], CORNERS[i], CENTRE[order[i]]) for i in range(4))
    puzzle = Puzzle(6, 6, pairs)
    has_answer = count_answers(puzzle, LOOSE, limit=1).count > 0
    refuted = border_contradiction(puzzle) is not None
    assert refuted == (not has_answer)  # here the order is the whole story
    # keeping the cyclic order (a rotation of the island) is what leaves answers
    rotation = all((order[(i + 1) % 4] - order[i]) % 4 == 1 for i in range(4))
    assert has_answer == rotation


def test_pairs_on_the_border_that_alternate_are_refuted() -> None:
    puzzle = Puzzle.from_rows(["A..B", "....", "....", "B..A"])  # A on one diagonal, B on the other
    reason = contradiction(puzzle, LOOSE)
    assert reason is not None and "alternate" in reason
    assert brute_force_answers(puzzle, LOOSE) == []
    assert contradiction(Puzzle.from_rows(["A..A", "....", "....", "B..B"]), LOOSE) is None


def test_the_bracket_walk_finds_alternating_border_pairs_exactly_when_two_pairs_alternate() -> None:
    """The border check walks round once (linear); here against every two pairs compared."""
    from puzzlesat.numberlink.topology import _alternating_rim_pairs, _boundary, _positions

    rng = random.Random(11)
    for _ in range(400):
        h, w = rng.randint(2, 7), rng.randint(2, 7)
        rim = [(r, c) for r in range(h) for c in range(w) if r in (0, h - 1) or c in (0, w - 1)]
        rng.shuffle(rim)
        k = rng.randint(1, len(rim) // 2)
        pairs = tuple(Pair(f"p{i}", rim[2 * i], rim[2 * i + 1]) for i in range(k))
        puzzle = Puzzle(w, h, pairs)
        on_rim = _positions(_boundary(lambda cell: 0 <= cell[0] < h and 0 <= cell[1] < w, (0, 0)))
        alternate = {
            (p.label, q.label) for p, q in itertools.combinations(pairs, 2)
            if (min(on_rim[p.start], on_rim[p.end]) < on_rim[q.start] < max(on_rim[p.start], on_rim[p.end]))
            != (min(on_rim[p.start], on_rim[p.end]) < on_rim[q.end] < max(on_rim[p.start], on_rim[p.end]))
        }
        found = _alternating_rim_pairs(puzzle, on_rim)
        assert (found is not None) == bool(alternate)
        if found is not None:
            assert found in alternate or found[::-1] in alternate


def test_never_refutes_a_puzzle_that_has_answers() -> None:
    rng = random.Random(5)
    fired = 0
    for _ in range(300):
        h, w = rng.choice([(4, 4), (4, 5), (5, 5), (5, 6), (6, 6)])
        cells = [(r, c) for r in range(h) for c in range(w)]
        rng.shuffle(cells)
        k = rng.randint(2, 5)
        pairs = tuple(Pair(str(i), cells[2 * i], cells[2 * i + 1]) for i in range(k))
        blocked = frozenset(cells[2 * k : 2 * k + rng.randint(0, 3)])
        puzzle = Puzzle(w, h, pairs, blocked)
        for rules in (Rules(), LOOSE):
            if contradiction(puzzle, rules) is not None:
                fired += 1
                assert count_answers(puzzle, rules, limit=1).count == 0, (puzzle, rules)
    assert fired > 50


def test_solve_and_count_report_the_reason() -> None:
    pairs = (Pair("a", (0, 0), (2, 2)), Pair("b", (0, 5), (2, 3)), Pair("c", (5, 0), (3, 3)), Pair("d", (5, 5), (3, 2)))
    puzzle = Puzzle(6, 6, pairs)
    solved, counted = solve(puzzle, rules=LOOSE), count(puzzle, rules=LOOSE)
    assert solved.status is Status.UNSATISFIABLE and "island" in solved.stats["proof"]
    assert counted.complete and counted.count == 0


def test_huge_spoke_board_is_refuted_at_once() -> None:
    """thomasahle inputs6 #1 (1002 x 1002): the pairs from the two lower corners swap sides at
    the centre block (SAT had not refuted it in 60 s under default rules)."""
    pairs = (Pair("a", (0, 0), (500, 500)), Pair("b", (0, 1001), (500, 501)),
             Pair("d", (501, 500), (1001, 1001)), Pair("c", (501, 501), (1001, 0)))
    puzzle = Puzzle(1002, 1002, pairs)
    assert "island" in (contradiction(puzzle, Rules()) or "")
    consistent = Puzzle(1002, 1002, (pairs[0], pairs[1], Pair("c", (501, 500), (1001, 0)), Pair("d", (501, 501), (1001, 1001))))
    assert contradiction(consistent, Rules()) is None  # (inputs6 #0: it has answers)


def test_the_rim_read_off_directly_is_the_walked_boundary_of_the_board() -> None:
    """``_rim`` (the border written down) is exactly what walking the board's boundary gives,
    on square and non-square boards."""
    for height in range(2, 9):
        for width in (2, 3, 5, 8, 13):
            walked = _boundary(lambda cell: 0 <= cell[0] < height and 0 <= cell[1] < width, (0, 0))
            assert _rim(height, width) == walked, (height, width)
