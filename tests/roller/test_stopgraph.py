"""The stop graph: moves, key cells (sound reduction) and the exact feasibility check."""

from __future__ import annotations

import random


from puzzlesat.roller.model import Level, slide
from puzzlesat.roller.stopgraph import StopGraph, max_bipartite_matching, two_sat_satisfiable
from tests.roller.random_levels import brute_force_minimum, random_level, small_graph_level
from tests.support import shared_path


def test_moves_are_the_slides_of_the_rule():
    level = Level.from_rows(["o..#.", ".#...", "....."])
    graph = StopGraph.of(level)
    assert graph.start == (0, 0)
    for move in graph.moves:
        head, painted = slide(level, move.tail, move.direction)
        assert head == move.head and frozenset(painted) == move.painted and painted
    # every stop but the start is where some slide ends
    heads = {m.head for m in graph.moves}
    assert set(graph.stops) == heads | {graph.start}
    assert graph.graph.number_of_edges() == len(graph.moves)


def test_key_cells_have_a_witness_for_every_dropped_cell():
    rng = random.Random(7)
    for _ in range(200):
        graph = StopGraph.of(random_level(rng))
        keys = set(graph.key_cells)
        assert graph.start not in keys
        for c in graph.floor_cells - keys - {graph.start}:
            witnesses = [d for d in keys if graph.painting_moves[d] <= graph.painting_moves[c]]
            assert witnesses, c


def test_key_cells_are_those_of_the_plain_definition():
    # in order of fewest painting moves, a cell is kept unless a kept cell's moves all paint it too
    from puzzlesat.roller.generate import carve

    rng = random.Random(11)
    for n in range(150):
        level = random_level(rng) if n % 2 else carve(rng.randint(4, 20), rng.randint(4, 20), steps=rng.randint(2, 80), rng=rng)
        graph = StopGraph.of(level)
        kept: list = []
        for c in sorted(graph.floor_cells - {graph.start}, key=lambda c: (len(graph.painting_moves[c]), c)):
            moves = graph.painting_moves[c]
            if not moves or not any(graph.painting_moves[d] <= moves for d in kept):
                kept.append(c)
        assert graph.key_cells == tuple(sorted(kept))


def test_key_cells_drop_cells_of_a_corridor():
    # A corridor painted only by sliding through it: one key cell stands for all of it.
    graph = StopGraph.of(Level.from_rows(["o....."]))
    assert graph.key_cells == ((0, 5),) or len(graph.key_cells) == 1


def test_feasibility_agrees_with_brute_force_on_random_levels():
    rng = random.Random(11)
    unsolvable = 0
    for _ in range(300):
        level, graph = small_graph_level(rng)
        verdict = graph.feasibility()
        truth = brute_force_minimum(level)
        assert verdict.solvable == (truth is not None), (str(level), verdict)
        if not verdict.solvable:
            unsolvable += 1
            assert verdict.reason and verdict.cells
    assert unsolvable > 20  # the sample exercises both answers


def test_feasibility_names_cells_that_cannot_be_painted():
    # (0, 2) can be reached only by ... nothing: the ball at (1,0) never enters column 2 alone.
    level = Level.from_rows(["#.#", "o..", "###"])
    verdict = StopGraph.of(level).feasibility()
    assert not verdict.solvable and (0, 1) in verdict.cells and "never be painted" in verdict.reason


def test_feasibility_detects_two_dead_ends():
    # From the start the ball can go into either of two one-way pockets, not both.
    rows = ["o..##",
            "##.##",
            ".#.#.",
            ".....",
            ".###."]
    verdict = StopGraph.of(Level.from_rows(rows)).feasibility()
    assert not verdict.solvable
    assert "no walk" in verdict.reason and len(verdict.cells) >= 2


def _nohtaray_blocks(text: str):
    blocks, current = [], []
    for line in text.splitlines():
        if line and set(line) <= set("#.o"):
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def test_nohtaray_examples():
    text = shared_path("roller", "nohtaray-amaze-solver", "_in.example.txt").read_text(encoding="utf-8")
    blocks = [b for b in _nohtaray_blocks(text) if any("o" in row for row in b)]
    expected = [True, False, True, True, False, True, True]  # as annotated in the file
    assert len(blocks) == len(expected)
    for rows, solvable in zip(blocks, expected):
        level = Level.from_rows(rows)
        assert StopGraph.of(level).feasibility().solvable == solvable, rows
        assert (brute_force_minimum(level) is not None) == solvable or level.floor_count > 40


def test_run_lower_bound_is_admissible():
    rng = random.Random(3)
    for _ in range(150):
        level, graph = small_graph_level(rng)
        truth = brute_force_minimum(level)
        if truth is not None:
            assert graph.run_lower_bound(graph.key_cells) <= truth


def test_helpers():
    assert max_bipartite_matching([(0, 5), (1, 5), (2, 6)]) == 2
    assert not two_sat_satisfiable([((1, True),), ((1, False),)])
    assert two_sat_satisfiable([((1, True), (2, True))])
