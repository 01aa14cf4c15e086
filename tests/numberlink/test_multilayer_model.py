"""Multi-layer Numberlink model and checker: invariants, canonical forms, named violations."""

import pytest

from puzzlesat.errors import InvalidPuzzle
from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer import CODES, Pair, Puzzle, Solution, verify

# 3 columns, 2 rows, 2 layers: A climbs to the upper layer, B stays below
PUZZLE = Puzzle.from_layers([["A.B", "..B"], ["...", "A.."]])
GOOD = Solution.from_mapping({
    "A": [(0, 0, 0), (1, 0, 0), (1, 1, 0)],
    "B": [(0, 0, 2), (0, 1, 2)],
})
LEAVE_EMPTY = Rules(cover_all=False)


def test_sizes_labels_and_neighbours():
    assert (PUZZLE.width, PUZZLE.height, PUZZLE.layers, PUZZLE.size_text) == (3, 2, 2, "3x2x2")
    assert PUZZLE.labels == ("A", "B")
    assert PUZZLE.pair("A") == Pair("A", (0, 0, 0), (1, 1, 0))
    assert sorted(PUZZLE.neighbours((0, 1, 1))) == [(0, 0, 1), (0, 1, 0), (0, 1, 2), (1, 1, 1)]
    assert sorted(PUZZLE.neighbours((1, 0, 0))) == [(0, 0, 0), (1, 0, 1), (1, 1, 0)]
    assert len(list(PUZZLE.free_cells())) == 12
    assert PUZZLE.grid().shape == (2, 2, 3)


def test_equal_whatever_the_order_they_were_built_in():
    swapped = Puzzle(3, 2, 2, (Pair("B", (0, 1, 2), (0, 0, 2)), Pair("A", (1, 1, 0), (0, 0, 0))))
    assert swapped == PUZZLE and hash(swapped) == hash(PUZZLE)
    reversed_paths = Solution.from_mapping({label: cells[::-1] for label, cells in GOOD.paths})
    assert reversed_paths == GOOD


@pytest.mark.parametrize("build, message", [
    (lambda: Puzzle(0, 2, 2, ()), "at least 1x1x1"),
    (lambda: Puzzle(2000, 2000, 2, ()), "absurd"),
    (lambda: Puzzle(2, 2, 2, (Pair("A", (0, 0, 0), (2, 0, 0)),)), "off the 2x2x2 board"),
    (lambda: Puzzle(2, 2, 2, (Pair("A", (0, 0, 0), (1, 0, 0)), Pair("B", (1, 0, 0), (1, 1, 1)))), "holds both"),
    (lambda: Puzzle(2, 2, 2, (Pair("A", (0, 0, 0), (1, 0, 0)),), frozenset({(1, 0, 0)})), "blocked cell"),
    (lambda: Puzzle.from_layers([["A."], ["AA"]]), "occurs 3 times"),
    (lambda: Puzzle.from_layers([["A."], ["A"]]), "layer 2 is not 2x1"),
])
def test_invalid_puzzles_are_refused(build, message):
    with pytest.raises(InvalidPuzzle, match=message):
        build()


def test_cells_must_be_triples():
    with pytest.raises(TypeError, match="triple"):
        Pair("A", (0, 0), (1, 0, 0))
    with pytest.raises(TypeError, match="triples"):
        Solution.from_mapping({"A": [(0, 0)]})


def test_reading_a_drawn_answer():
    drawn = Solution.from_layers(PUZZLE, [["A.B", "..B"], ["A..", "A.."]])
    assert drawn == GOOD
    with pytest.raises(ValueError, match="'A' is not one simple path"):
        Solution.from_layers(PUZZLE, [["A.B", "..B"], ["...", "A.."]])
    with pytest.raises(ValueError, match="not 3x2x2"):
        Solution.from_layers(PUZZLE, [["A.B", "..B"]])


def test_a_valid_answer_has_no_violation():
    assert verify(PUZZLE, GOOD, LEAVE_EMPTY) == []
    assert [v.code for v in verify(PUZZLE, GOOD)] == ["uncovered"]


@pytest.mark.parametrize("paths, code", [
    ({"A": [(0, 0, 0), (1, 0, 0), (1, 1, 0)]}, "missing-path"),
    ({**GOOD.as_dict(), "C": [(0, 1, 0), (0, 1, 1)]}, "unknown-label"),
    ({**GOOD.as_dict(), "A": [(0, 0, 0), (-1, 0, 0), (1, 1, 0)]}, "off-board"),
    ({**GOOD.as_dict(), "A": [(0, 0, 0), (1, 1, 0)]}, "not-connected"),       # a diagonal jump between layers
    ({**GOOD.as_dict(), "A": [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 0, 0), (1, 1, 0)]}, "branch"),
    ({**GOOD.as_dict(), "A": [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 2), (1, 1, 2), (1, 1, 1), (1, 1, 0)]}, "crossing"),
])
def test_each_broken_rule_is_named(paths, code):
    codes = [v.code for v in verify(PUZZLE, Solution.from_mapping(paths), LEAVE_EMPTY)]
    assert code in codes
    assert set(codes) <= set(CODES)


def test_blocked_cells_and_self_touch_across_layers():
    blocked = Puzzle(3, 2, 2, PUZZLE.pairs, frozenset({(1, 0, 1)}))
    detour = Solution.from_mapping({**GOOD.as_dict(), "A": [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0)]})
    assert [v.code for v in verify(blocked, detour, LEAVE_EMPTY)] == ["blocked-cell"]
    # A climbs back to the upper layer over its own start: it touches itself twice between
    # layers and once on the upper layer
    loop = Solution.from_mapping({**GOOD.as_dict(), "A": [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 0, 1), (1, 0, 0), (1, 1, 0)]})
    assert verify(PUZZLE, loop, LEAVE_EMPTY) == []
    touches = [v for v in verify(PUZZLE, loop, Rules(cover_all=False, no_self_touch=True))]
    assert {v.code for v in touches} == {"self-touch"}
    assert {frozenset(v.cells) for v in touches} == {
        frozenset({(0, 0, 0), (1, 0, 0)}), frozenset({(0, 1, 0), (1, 1, 0)}), frozenset({(1, 1, 1), (1, 1, 0)}),
    }


def test_long_paths_that_run_beside_themselves_are_read_back_from_their_drawing():
    # one path filling 12x12x4 (and a 24x24 board): the drawing is ambiguous wherever the path
    # runs beside itself, and the tracer must still find a path through all its cells
    from puzzlesat.numberlink import format_solution as format_flat, parse_solution as parse_flat, solve as solve_flat
    from puzzlesat.numberlink import verify as verify_flat
    from puzzlesat.numberlink.model import Puzzle as FlatPuzzle
    from puzzlesat.numberlink.multilayer import format_solution, parse_solution, solve

    stacked = Puzzle(12, 12, 4, (Pair("1", (0, 0, 0), (3, 11, 11)),))
    answer = solve(stacked, time_limit=60).solution
    for fmt in ("layers", "adc"):
        assert verify(stacked, parse_solution(format_solution(stacked, answer, fmt=fmt), stacked)) == []
    flat = FlatPuzzle.from_rows(["A" + "." * 23] + ["." * 24] * 22 + ["." * 22 + "A."])
    drawn = format_flat(flat, solve_flat(flat, time_limit=60).solution)
    assert verify_flat(flat, parse_flat(drawn, flat)) == []


def test_a_tracing_cut_short_says_so_instead_of_calling_the_answer_invalid():
    from puzzlesat.numberlink.model import Pair as FlatPair, TraceCapped, trace

    snake = {(r, c) for r in range(6) for c in range(6)}
    with pytest.raises(TraceCapped, match="not traced as one path within 3 steps"):
        trace(FlatPair("A", (0, 0), (5, 0)), snake, max_steps=3)
    assert len(trace(FlatPair("A", (0, 0), (5, 0)), snake)) == 36


@pytest.mark.parametrize("verb", ["solve", "count", "verify", "render", "format", "backtracking", "frontier"])
def test_a_one_layer_verb_given_a_stack_points_to_numberlink_multilayer(verb) -> None:
    from puzzlesat import numberlink
    from puzzlesat.numberlink import backtracking, frontier

    from puzzlesat.numberlink import multilayer

    stack = multilayer.parse("layer 1\n1 .\n. 1\n\nlayer 2\n. .\n. .\n")
    call = {
        "solve": lambda: numberlink.solve(stack),
        "count": lambda: numberlink.count(stack),
        "verify": lambda: numberlink.verify(stack, None),
        "render": lambda: numberlink.render(stack),
        "format": lambda: numberlink.format(stack),
        "backtracking": lambda: backtracking.solve(stack),
        "frontier": lambda: frontier.count_answers(stack),
    }[verb]
    with pytest.raises(TypeError, match=r"several layers has its own verbs in numberlink\.multilayer"):
        call()
