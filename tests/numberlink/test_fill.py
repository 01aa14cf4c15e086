"""Answers drawn without a formula (``numberlink.fill``): routing, filling, repairing in windows,
and second answers in windows. Whatever they return must pass the family's checker (which
knows nothing of them) and, for a second answer, differ from the first; on small boards their
verdicts are held against the brute-force enumerator; large boards under default rules go this
way in ``solve`` and ``count``."""

from __future__ import annotations

import random

import pytest

from puzzlesat.numberlink import fill
from puzzlesat.numberlink.generate import unionfind_links
from puzzlesat.numberlink.model import Pair, Puzzle, Rules, Solution
from puzzlesat.numberlink.routing import route
from puzzlesat.numberlink.engine.first import _drawn_first
from puzzlesat.numberlink.engine.tuning import FILL_MIN_CELLS
from puzzlesat.numberlink.solve import count, solve
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status, Uniqueness
from puzzlesat.timing import Deadline
from tests.numberlink.test_counts import brute_force_answers

DEFAULT = Rules()
MAY_LEAVE_EMPTY = Rules(cover_all=False)
FOREVER = float("inf")


def _random_path_puzzles(count_: int, seed: int = 0, sizes: tuple[tuple[int, int], ...] = ((4, 4), (5, 4), (5, 5), (6, 5), (5, 6), (6, 6))) -> list[Puzzle]:
    """Boards whose pairs are the ends of random non-crossing paths."""
    puzzles = []
    for n in range(seed, seed + count_):
        width, height = sizes[n % len(sizes)]
        links, blocked = unionfind_links(width, height, random.Random(n))
        puzzles.append(Puzzle(width, height, tuple(Pair(str(i + 1), link[0], link[-1]) for i, link in enumerate(links)), blocked))
    return puzzles


def _random_open_puzzles(count_: int, seed: int, sizes: tuple[tuple[int, int], ...]) -> list[Puzzle]:
    """Boards of 1-3 pairs with random ends and no blocked cell: much room, many answers."""
    rng = random.Random(seed)
    puzzles = []
    for _ in range(count_):
        height, width = rng.choice(sizes)
        cells = [(r, c) for r in range(height) for c in range(width)]
        rng.shuffle(cells)
        pairs = rng.randint(1, 3)
        puzzles.append(Puzzle(width, height, tuple(Pair("ABC"[k], cells[2 * k], cells[2 * k + 1]) for k in range(pairs))))
    return puzzles


OPEN_SIZES = ((5, 5), (5, 6), (6, 5), (6, 6), (6, 7), (7, 7))
SMALL_SIZES = ((3, 4), (4, 3), (4, 4))


def _routed(puzzle: Puzzle) -> dict:
    return route(puzzle.free_mask(), [(pair.label, pair.start, pair.end) for pair in puzzle.pairs], FOREVER)


def test_filling_keeps_paths_valid_and_names_exactly_the_cells_left_empty() -> None:
    left_some = routed_ = 0
    for puzzle in _random_path_puzzles(100) + _random_open_puzzles(100, 1, OPEN_SIZES):
        routed = _routed(puzzle)
        if routed is None:  # (the router gave up: nothing to fill)
            continue
        routed_ += 1
        grown, empty = fill.fill(puzzle, routed, FOREVER)
        solution = Solution.from_mapping(grown)
        assert verify(puzzle, solution, MAY_LEAVE_EMPTY) == []  # simple paths, no cell shared
        on_path = {cell for cells in grown.values() for cell in cells}
        assert empty == sorted(set(puzzle.free_cells()) - on_path)
        assert all(len(grown[label]) >= len(routed[label]) for label in routed)
        left_some += bool(empty)
    assert routed_ >= 100 and left_some >= 10, (routed_, left_some)  # (so that repairs have work to do)


@pytest.mark.slow
def test_every_drawn_answer_is_an_answer_and_repairs_are_needed_and_made() -> None:
    drawn = repaired = 0
    for puzzle in _random_path_puzzles(50, seed=1000) + _random_open_puzzles(150, 2, OPEN_SIZES):
        answer = fill.route_and_fill(puzzle, FOREVER)
        if answer is None:
            continue
        _, empty = fill.fill(puzzle, _routed(puzzle), FOREVER)  # (the router is deterministic)
        assert verify(puzzle, answer, DEFAULT) == []
        drawn += 1
        repaired += bool(empty)
    assert drawn >= 100 and repaired >= 10, (drawn, repaired)


def test_no_answer_is_drawn_where_there_is_none() -> None:
    for rows in (["A.B", "...", "B.A"], ["A.A", "..."], ["AB.", "...", ".BA"], ["A..", ".#.", "..A"]):
        puzzle = Puzzle.from_rows(rows)
        assert not brute_force_answers(puzzle, DEFAULT), rows
        assert fill.route_and_fill(puzzle, FOREVER) is None, rows


def test_a_window_puzzle_spliced_with_its_own_answer_gives_the_paths_back() -> None:
    """And spliced with another answer of the window, the path index follows the change."""
    from puzzlesat.numberlink.frontier import count_answers

    changed = 0
    for puzzle in _random_path_puzzles(40, seed=3000) + _random_open_puzzles(40, 5, OPEN_SIZES):
        answer = fill.route_and_fill(puzzle, FOREVER)
        if answer is None:
            continue
        paths = answer.as_dict()
        for top, left, size in ((0, 0, 3), (1, 2, 3), (2, 1, 4), (0, 0, 10)):
            index = fill.PathIndex(puzzle, paths)
            sub, runs = fill.window_puzzle(puzzle, index, top, left, size)
            here = Solution.from_mapping({name: [(r - top, c - left) for r, c in paths[label][i:j + 1]]
                                          for name, (label, i, j) in runs.items()})
            assert verify(sub, here, DEFAULT) == []
            assert Solution.from_mapping(fill.splice(paths, runs, here, top, left)) == answer
            other = count_answers(sub, DEFAULT, limit=1, reference=here)
            if other.answers:
                new_paths = fill.splice(paths, runs, other.answers[0], top, left, index)
                assert verify(puzzle, Solution.from_mapping(new_paths), DEFAULT) == []
                fresh = fill.PathIndex(puzzle, new_paths)
                assert (index.owner == fresh.owner).all() and (index.position == fresh.position).all()
                changed += 1
    assert changed >= 20, changed


def test_window_variants_agree_with_the_enumerator() -> None:
    """A variant is another answer; on a board with a single answer there is none. A window
    holding the whole board finds one exactly when the board has several answers; a smaller
    window may miss them."""
    found = 0
    for puzzle in _random_path_puzzles(60, 4000, SMALL_SIZES) + _random_open_puzzles(200, 3, SMALL_SIZES):
        answer = fill.route_and_fill(puzzle, FOREVER)
        if answer is None:
            continue
        several = len(brute_force_answers(puzzle, DEFAULT)) >= 2
        whole = fill.window_variant(puzzle, answer, FOREVER, size=4)  # (boards of at most 4x4 here)
        assert (whole is not None) == several
        for variant in (whole, fill.window_variant(puzzle, answer, FOREVER, size=3)):
            if variant is not None:
                found += 1
                assert variant != answer and verify(puzzle, variant, DEFAULT) == []
    assert found >= 45, found


def _large_open_board() -> Puzzle:
    side = 201  # 40,401 cells: just over FILL_MIN_CELLS (one more black cell than white: A's ends
    # are both black, B's and C's one of each)
    assert side * side > FILL_MIN_CELLS
    return Puzzle(side, side, (Pair("A", (0, 0), (100, 100)), Pair("B", (0, 200), (199, 200)), Pair("C", (200, 0), (101, 100))))


def test_large_boards_under_default_rules_are_drawn_and_have_window_variants() -> None:
    puzzle = _large_open_board()
    result = count(puzzle, time_limit=60)
    assert result.uniqueness is Uniqueness.MULTIPLE
    assert result.stats["first_answer"] == "route-fill" and result.stats["local_variant"] == "fill-window"
    first, second = result.solutions
    assert first != second and verify(puzzle, first) == [] and verify(puzzle, second) == []
    solved = solve(puzzle, time_limit=60)
    assert solved.status is Status.SOLVED and solved.stats["first_answer"] == "route-fill"
    # other rule sets, and smaller boards, take the formula as before
    for rules in (Rules(no_self_touch=True), MAY_LEAVE_EMPTY):
        assert _drawn_first(puzzle, rules, Deadline(None)) is None
    small = Puzzle.from_rows(["A...", "....", "...A"])
    assert _drawn_first(small, DEFAULT, Deadline(None)) is None
    assert solve(small).stats.get("first_answer") != "route-fill"


def test_filling_never_takes_another_pairs_endpoint() -> None:
    puzzle = Puzzle.from_rows(["A.A", "B.B", "..."])
    grown, empty = fill.fill(puzzle, {"A": [(0, 0), (0, 1), (0, 2)]}, FOREVER)  # (B not routed)
    assert grown == {"A": [(0, 0), (0, 1), (0, 2)]} and empty == [(1, 1), (2, 0), (2, 1), (2, 2)]
