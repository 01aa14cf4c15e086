"""The may-leave-empty router (``numberlink.routing``) on one layer and on several: whatever it
returns is an answer (checked by the family's checker, which knows nothing of routing), its
shrunk paths are an answer that does not touch itself, it gives up honestly (walled-in pairs,
time), and the contest problems it is for are routed by ``solve``."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from puzzlesat.numberlink import formats, multilayer
from puzzlesat.numberlink.model import Puzzle, Rules, Solution
from puzzlesat.numberlink.routing import route, shrink
from puzzlesat.numberlink.solve import count, solve
from puzzlesat.numberlink.verify import verify
from puzzlesat.results import Status, Uniqueness
from tests.support import shared_path

MAY_LEAVE_EMPTY = Rules(cover_all=False)
STRICT = Rules(cover_all=False, no_self_touch=True)


def _pairs(puzzle) -> list:
    return [(pair.label, pair.start, pair.end) for pair in puzzle.pairs]


def _random_board(rng: random.Random, height: int, width: int, labels: int, blocked: int) -> Puzzle | None:
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    rows = [["."] * width for _ in range(height)]
    for i in range(labels):
        for r, c in cells[2 * i: 2 * i + 2]:
            rows[r][c] = chr(ord("A") + i)
    for r, c in cells[2 * labels: 2 * labels + blocked]:
        rows[r][c] = "#"
    return Puzzle.from_rows(rows)


def test_every_route_found_is_an_answer_and_shrinks_to_one_without_touching() -> None:
    rng = random.Random(12)
    routed = 0
    for _ in range(300):
        height, width = rng.randint(2, 7), rng.randint(2, 7)
        labels = rng.randint(1, max(1, height * width // 6))
        puzzle = _random_board(rng, height, width, labels, rng.randint(0, height * width // 5))
        paths = route(puzzle.free_mask(), _pairs(puzzle), stop=time.perf_counter() + 5)
        if paths is None:
            continue
        routed += 1
        answer = Solution.from_mapping(paths)
        assert verify(puzzle, answer, MAY_LEAVE_EMPTY) == [], str(puzzle)
        strict = Solution.from_mapping({label: shrink(cells) for label, cells in paths.items()})
        assert verify(puzzle, strict, STRICT) == [], str(puzzle)
    assert routed > 150  # most random boards with this much room are routable


def test_routes_through_several_layers() -> None:
    puzzle = multilayer.Puzzle.from_layers([["A.#", "###", "B.."], ["..#", "#.#", "A.B"]])
    paths = route(puzzle.free_mask(), _pairs(puzzle), stop=time.perf_counter() + 5)
    answer = multilayer.Solution(tuple((label, tuple(cells)) for label, cells in paths.items()))
    assert multilayer.verify(puzzle, answer, MAY_LEAVE_EMPTY) == []
    assert any(a[0] != b[0] for a, b in zip(paths["A"], paths["A"][1:]))  # A changes layer


def test_gives_up_when_walled_in_or_out_of_time() -> None:
    walled = Puzzle.from_rows(["A#.", "B#A", "..B"])  # A's first end is shut in by B's end and walls
    assert route(walled.free_mask(), _pairs(walled), stop=time.perf_counter() + 5) is None
    crossing = Puzzle.from_rows(["A.B", "...", "B.A"])
    assert route(crossing.free_mask(), _pairs(crossing), stop=time.perf_counter() + 5) is None  # 400 rounds, no answer
    open_board = Puzzle.from_rows(["A...", "....", "...A"])
    assert route(open_board.free_mask(), _pairs(open_board), stop=time.perf_counter() - 1) is None


def test_shrink_keeps_the_ends_and_cuts_every_touch() -> None:
    snake = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert shrink(snake) == ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2))
    assert shrink([(0, 0), (0, 1)]) == ((0, 0), (0, 1))
    assert shrink(((1, 0, 0), (0, 0, 0), (0, 0, 1), (1, 0, 1))) == ((1, 0, 0), (1, 0, 1))


def test_no_self_touch_may_leave_empty_takes_the_shrunk_route() -> None:
    """Under may-leave-empty no-self-touch rules ``solve`` routes too; the answer it returns
    does not touch itself."""
    puzzle = Puzzle.from_rows(["A.......", "........", "........", ".......A", "B......B"])
    result = solve(puzzle, rules=STRICT, time_limit=10)
    assert result.status is Status.SOLVED and verify(puzzle, result.solution, STRICT) == []


@pytest.mark.parametrize("name", ["Q2.txt", "Q12.txt"])
def test_single_layer_contest_problems_are_routed(name: str) -> None:
    """ADC 2018's single-layer Q2 (50x50, 320 lines) and Q12 (40x40, 219 lines): the SAT search
    took 12 s and 5 s; the router answers in a fraction of a second, and the shrunk answer or
    a detour shows at once that the answer is not unique."""
    path = shared_path("numberlink", "dasadc-github-io-ADC2017-2018", "adc2018", "Questions", name)
    puzzle = formats.parse_all(path.read_bytes(), source=str(path))[0]
    result = solve(puzzle, rules=MAY_LEAVE_EMPTY, time_limit=30)
    assert result.status is Status.SOLVED and result.method == "route"
    assert verify(puzzle, result.solution, MAY_LEAVE_EMPTY) == []
    counted = count(puzzle, rules=MAY_LEAVE_EMPTY, limit=2, time_limit=30)
    assert counted.uniqueness is Uniqueness.MULTIPLE and counted.stats["first_answer"] == "route"



def test_the_router_reads_the_clock_while_it_sets_up_a_large_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its neighbour lists take seconds on a board of millions of cells, so it reads the clock
    between chunks of them: with its time already up it gives up at the first look, and when
    the clock passes its stop during the set-up (it jumps) it gives up at the next look, before
    routing anything."""
    from puzzlesat.numberlink import routing
    from tests.clock import jump_clock_after

    free = np.ones((1500, 1500), dtype=bool)
    assert route(free, [("A", (0, 0), (1499, 1499))], stop=time.perf_counter() - 1.0) is None
    clock = jump_clock_after(monkeypatch, reads=1, modules=(routing,))
    assert route(free, [("A", (0, 0), (1499, 1499))], stop=time.perf_counter() + 60) is None
    assert clock.count == 2 and free.size > 2 * routing.SETUP_CHUNK  # (one chunk set up, then the jump seen)
