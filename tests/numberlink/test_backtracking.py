"""The backtracking baseline against an independent brute-force enumerator, and its contracts."""

from __future__ import annotations

import random
import time

import pytest

from puzzlesat.numberlink import backtracking, backtracking_search
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status

ALL_RULES = (Rules(), Rules(cover_all=False), Rules(no_self_touch=True), Rules(cover_all=False, no_self_touch=True))


# -- an independent enumerator: every simple path per pair, then every disjoint combination ----
def _simple_paths(puzzle: Puzzle, pair: Pair, forbidden: set) -> list[tuple]:
    found = []

    def walk(path: list, seen: set) -> None:
        here = path[-1]
        if here == pair.end:
            found.append(tuple(path))
            return
        for n in puzzle.neighbours(here):
            if n not in seen and n not in forbidden:
                seen.add(n)
                path.append(n)
                walk(path, seen)
                path.pop()
                seen.discard(n)

    walk([pair.start], {pair.start})
    return found


def _touches_itself(path: tuple) -> bool:
    position = {cell: i for i, cell in enumerate(path)}
    for i, (r, c) in enumerate(path):
        for n in ((r + 1, c), (r, c + 1)):
            j = position.get(n)
            if j is not None and abs(i - j) != 1:
                return True
    return False


def brute_force_count(puzzle: Puzzle, rules: Rules) -> int:
    endpoints = set(puzzle.endpoints())
    options = []
    for pair in puzzle.pairs:
        paths = _simple_paths(puzzle, pair, endpoints - {pair.start, pair.end})
        if rules.no_self_touch:
            paths = [p for p in paths if not _touches_itself(p)]
        options.append(paths)
    free = set(puzzle.free_cells())
    total = 0

    def combine(i: int, used: frozenset) -> None:
        nonlocal total
        if i == len(options):
            total += (not rules.cover_all) or used == free
            return
        for path in options[i]:
            cells = frozenset(path)
            if not cells & used:
                combine(i + 1, used | cells)

    combine(0, frozenset())
    return total


def random_puzzle(rng: random.Random, width: int, height: int, pairs: int, blocked: int) -> Puzzle:
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    chosen = tuple(Pair(str(i + 1), cells[2 * i], cells[2 * i + 1]) for i in range(pairs))
    return Puzzle(width, height, chosen, frozenset(cells[2 * pairs: 2 * pairs + blocked]))


def test_counts_match_brute_force_on_random_tiny_boards() -> None:
    rng = random.Random(20261121)
    checked = with_answers = 0
    for _ in range(400):
        width, height = rng.randint(1, 4), rng.randint(1, 4)
        pairs = rng.randint(0, min(3, width * height // 2))
        blocked = rng.randint(0, min(2, width * height - 2 * pairs))
        puzzle = random_puzzle(rng, width, height, pairs, blocked)
        for rules in ALL_RULES:
            expected = brute_force_count(puzzle, rules)
            answers = list(backtracking.solutions(puzzle, rules=rules))
            assert len(answers) == expected, (str(puzzle), rules)
            assert len(set(answers)) == len(answers), "an answer was produced twice"
            for answer in answers:
                assert verify(puzzle, answer, rules) == []
            checked += 1
            with_answers += expected > 0
    assert checked == 1600 and with_answers > 300  # the sample is not all-unsolvable


def test_counts_match_brute_force_on_5x5_boards_with_more_pairs() -> None:
    rng = random.Random(7)
    for _ in range(40):
        width, height = rng.randint(3, 5), rng.randint(3, 5)
        puzzle = random_puzzle(rng, width, height, rng.randint(2, 5), rng.randint(0, 2))
        for rules in (Rules(), Rules(no_self_touch=True), Rules(cover_all=False, no_self_touch=True)):
            assert backtracking.count(puzzle, rules=rules, limit=10**6).count == brute_force_count(puzzle, rules)


def test_solve_and_count_contracts() -> None:
    unique = Puzzle.from_rows(["A..", "..A"])
    result = backtracking.solve(unique)
    assert result.status is Status.SOLVED and result.method == "backtracking"
    assert verify(unique, result.solution) == []
    counted = backtracking.count(unique, limit=2)
    assert (counted.count, counted.complete, counted.unique, counted.method) == (1, True, True, "backtracking")
    assert backtracking.is_unique(unique).unique is True
    assert backtracking.is_unique(unique).uniqueness.value == "unique"

    several = Puzzle.from_rows(["A.B", "...", ".AB"])
    counted = backtracking.count(several, limit=2)
    assert (counted.count, counted.complete, counted.unique) == (2, True, False)
    assert backtracking.count(several, limit=1).count == 1

    impossible = Puzzle.from_rows(["A.B", "...", "A.B"])  # parity: 9 cells, two odd-length paths
    assert backtracking.solve(impossible).status is Status.UNSATISFIABLE
    assert backtracking.count(impossible).uniqueness.value == "none"
    with pytest.raises(ValueError):
        backtracking.count(unique, limit=0)


def test_non_square_board_and_blocked_cells() -> None:
    puzzle = Puzzle.from_rows(["A....#", "#B...A", "....B."])
    for rules in ALL_RULES:
        assert backtracking.count(puzzle, rules=rules, limit=50).count == brute_force_count(puzzle, rules)


def test_no_self_touch_forbids_a_path_running_beside_itself() -> None:
    # The only cover-all answer here is a U whose ends lie side by side.
    puzzle = Puzzle.from_rows(["A.", "A."])
    assert backtracking.count(puzzle).count == 1
    assert backtracking.count(puzzle, rules=Rules(no_self_touch=True)).count == 0


def test_time_limit_answers_unknown_promptly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search looks at its deadline as it goes: when the clock passes a long limit after the
    search has started (it jumps instead of being waited for), counting stops incomplete,
    solving answers unknown (or with the answer it had), and the answers' generator raises
    SearchTimeout."""
    from tests.clock import jump_clock_after

    # An empty 14x14 board with two far-apart pairs: the may-leave-empty search is enormous.
    puzzle = Puzzle(14, 14, (Pair("1", (0, 0), (13, 13)), Pair("2", (0, 13), (13, 0))))
    with monkeypatch.context() as patch:
        clock = jump_clock_after(patch, reads=50)
        result = backtracking.count(puzzle, rules=Rules(cover_all=False), limit=10**9, time_limit=60)
    assert clock.jumped and result.stats["nodes"] > 0
    assert not result.complete and result.uniqueness.value in ("multiple", "unknown")
    with monkeypatch.context() as patch:
        clock = jump_clock_after(patch, reads=50)
        solved = backtracking.solve(Puzzle(30, 30, (Pair("1", (0, 0), (29, 28)),)), time_limit=60)
    assert solved.status in (Status.UNKNOWN, Status.SOLVED)
    assert clock.jumped or solved.status is Status.SOLVED
    with monkeypatch.context() as patch:
        clock = jump_clock_after(patch, reads=50)
        with pytest.raises(backtracking.SearchTimeout):
            for _ in backtracking.solutions(puzzle, rules=Rules(cover_all=False), time_limit=60):
                pass


def test_time_limit_stops_the_set_up_of_a_large_board(monkeypatch: pytest.MonkeyPatch) -> None:
    # The set-up of a 1002 x 1002 board took 3 to 8 s and ignored the deadline, so a limit of
    # 0 or 0.5 s answered after seconds. Past the deadline the set-up now stops at once:
    # its last step, the labelling of the free regions, is never reached.
    def labelled(self: object) -> None:
        raise AssertionError("the set-up went on past the deadline")

    monkeypatch.setattr(backtracking._Search, "_relabel", labelled)
    puzzle = Puzzle(200, 200, (Pair("1", (0, 0), (199, 198)),))
    solved = backtracking.solve(puzzle, time_limit=0)
    assert solved.status is Status.UNKNOWN and solved.solution is None and solved.stats == {"nodes": 0}
    counted = backtracking.count(puzzle, time_limit=0)
    assert counted.count == 0 and not counted.complete and counted.uniqueness.value == "unknown"
    assert backtracking.is_unique(puzzle, time_limit=0).unique is None
    with pytest.raises(backtracking.SearchTimeout):
        for _ in backtracking.solutions(puzzle, time_limit=0):
            pass


def test_imports_nothing_from_the_sat_layer() -> None:
    source = "".join(open(module.__file__, encoding="utf-8").read() for module in (backtracking, backtracking_search))
    imports = [line.split() for line in source.splitlines() if line.startswith(("from ", "import "))]
    modules = {words[1] for words in imports}
    assert modules <= {"__future__", "typing", "..errors", "..results", "..timing", "..grid", ".model", ".verify", ".backtracking_search"}, modules
