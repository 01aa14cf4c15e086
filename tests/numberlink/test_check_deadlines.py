"""The search-free checks honour the deadline (#45): with a deadline already passed they stop
at once without a reason (never a wrong one), and solve / count then answer "unknown" instead
of spending seconds in the checks of a huge board."""

from __future__ import annotations

from puzzlesat.numberlink import topology
from puzzlesat.numberlink.model import Pair, Puzzle, Rules
from puzzlesat.numberlink.multilayer import Puzzle as LayeredPuzzle
from puzzlesat.numberlink.multilayer.solve import contradiction as layered_contradiction
from puzzlesat.numberlink.solve import count, solve
from puzzlesat.results import Status
from puzzlesat.timing import Deadline

SPOKES = [Pair("a", (0, 0), (2, 2)), Pair("b", (0, 5), (2, 3)), Pair("c", (5, 0), (3, 3)), Pair("d", (5, 5), (3, 2))]
ISLAND = Puzzle(6, 6, tuple(SPOKES))  # spokes that reach their island out of order: no answer
ALTERNATING = Puzzle.from_rows(["A.B.", "....", "....", "B.A."])
COLOURS = Puzzle.from_rows(["A.B", "...", "A.B"])


class CountingDeadline(Deadline):
    """Expired from the start; counts how often the check looks at the clock."""

    def __init__(self) -> None:
        super().__init__(0.0)
        self.looks = 0

    def expired(self) -> bool:
        self.looks += 1
        return True


def _dominoes(size: int) -> Puzzle:
    """Many small islands of endpoints (the work of _islands grows with them)."""
    pairs = [Pair(f"L{r}_{c}", (r, c), (r + 1, c)) for r in range(1, size - 2, 2) for c in range(1, size - 1, 2)]
    return Puzzle(size, size, tuple(pairs))


def test_each_check_still_finds_its_reason_without_a_deadline_or_with_time_left() -> None:
    for deadline in (None, Deadline(3600.0)):
        assert "island" in topology.border_contradiction(ISLAND, deadline=deadline)
        assert "alternate" in topology.border_contradiction(ALTERNATING, deadline=deadline)
        assert "chessboard" in topology.colour_count_contradiction(COLOURS, Rules(), deadline=deadline)
        assert topology.contradiction(COLOURS, Rules(), deadline=deadline) is not None


def test_an_expired_deadline_stops_every_check_without_a_reason() -> None:
    expired = Deadline(0.0)
    assert topology.border_contradiction(ISLAND, deadline=expired) is None
    assert topology.border_contradiction(ALTERNATING, deadline=expired) is None
    assert topology.colour_count_contradiction(COLOURS, Rules(), deadline=expired) is None
    assert topology.contradiction(COLOURS, Rules(), deadline=expired) is None


def test_the_island_search_looks_at_the_clock_inside_its_loops() -> None:
    board = _dominoes(200)  # ~10,000 islands: the check would walk them all
    deadline = CountingDeadline()
    on_rim = topology._positions(topology._rim(board.height, board.width))
    try:
        topology._islands(board, on_rim, deadline)
    except topology._OutOfTime:
        pass
    else:
        raise AssertionError("_islands ran past an expired deadline")
    assert deadline.looks == 1  # stopped at its first look at the clock, not after walking every island


def test_solve_and_count_answer_unknown_when_the_checks_run_out_of_time() -> None:
    for rules in (Rules(), Rules(cover_all=False)):
        result = solve(ISLAND, rules=rules, time_limit=0.0)
        assert result.status == Status.UNKNOWN
        counted = count(ISLAND, rules=rules, time_limit=0.0)
        assert not counted.complete
    assert solve(ISLAND, rules=Rules(cover_all=False)).status == Status.UNSATISFIABLE


def test_the_multilayer_checks_honour_the_deadline() -> None:
    split = LayeredPuzzle.from_layers([["A.#.A"]])
    assert layered_contradiction(split) is not None
    assert layered_contradiction(split, deadline=Deadline(0.0)) is None
    assert layered_contradiction(split, deadline=Deadline(3600.0)) is not None
