"""The Board's arrays against the Puzzle's own queries, on random boards with blocked cells."""

from __future__ import annotations

import random

import numpy as np

from puzzlesat.numberlink.model import Pair, Puzzle


def _random_puzzle(rng: random.Random) -> Puzzle:
    height, width = rng.randint(1, 7), rng.randint(1, 7)
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    pairs = rng.randint(0, min(4, len(cells) // 2))
    ends, rest = cells[:2 * pairs], cells[2 * pairs:]
    blocked = rest[:rng.randint(0, len(rest))]
    return Puzzle(width, height, tuple(Pair(f"L{k}", ends[2 * k], ends[2 * k + 1]) for k in range(pairs)), frozenset(blocked))


def test_board_arrays_describe_the_puzzle() -> None:
    rng = random.Random(3)
    for _ in range(300):
        puzzle = _random_puzzle(rng)
        board = puzzle.board
        assert board is puzzle.board  # (built once)
        width = puzzle.width
        assert board.free_grid().tolist() == puzzle.free_mask().tolist()
        code = {cell: k for k, pair in enumerate(puzzle.pairs) for cell in (pair.start, pair.end)}
        assert board.code.tolist() == [code.get(divmod(i, width), -1) for i in range(board.num_cells)]
        assert [divmod(int(i), width) for i in board.starts] == [pair.start for pair in puzzle.pairs]
        assert [divmod(int(i), width) for i in board.ends] == [pair.end for pair in puzzle.pairs]
        # every edge joins two free neighbours, each pair of free neighbours once, left or top first
        joined = {(divmod(int(a), width), divmod(int(b), width)) for a, b in board.edge_cells}
        expected = {(cell, other) for cell in puzzle.free_cells() for other in puzzle.neighbours(cell) if cell < other}
        assert joined == expected and len(joined) == board.num_edges
        horizontal = board.edge_cells[:, 1] - board.edge_cells[:, 0] == 1
        assert not np.any(np.diff(horizontal.astype(int)) > 0)  # (horizontal edges first)
        # incident: the edge to the cell above, below, left and right (0 where none)
        for index in range(board.num_cells):
            r, c = divmod(index, width)
            for edge, (dr, dc) in zip(board.incident[index].tolist(), ((-1, 0), (1, 0), (0, -1), (0, 1))):
                other = (r + dr, c + dc)
                if edge:
                    assert set(board.edge_cells[edge - 1].tolist()) == {index, other[0] * width + other[1]}
                else:
                    assert not (puzzle.is_free((r, c)) and puzzle.is_free(other))
            assert board.degree[index] == (len(list(puzzle.neighbours((r, c)))) if puzzle.is_free((r, c)) else 0)


def _random_stack(rng: random.Random):
    """A random stack of 1-3 layers with blocked cells, 0-3 pairs and, half the time, vias."""
    from puzzlesat.numberlink.multilayer.model import Pair as StackPair, Puzzle as Stack, Via

    layers, height, width = rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 4)
    cells = [(z, r, c) for z in range(layers) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    vias, taken = [], set()
    if layers > 1 and rng.random() < 0.5:
        for name in "ab"[:rng.randint(1, 2)]:
            r, c = rng.randrange(height), rng.randrange(width)
            low = rng.randrange(layers - 1)
            span = [(z, r, c) for z in range(low, rng.randint(low + 1, layers - 1) + 1)]
            if not taken & set(span):
                vias.append(Via(name, span))
                taken |= set(span)
    rest = [cell for cell in cells if cell not in taken]
    pairs = rng.randint(0, min(3, len(rest) // 2))
    ends, rest = rest[:2 * pairs], rest[2 * pairs:]
    blocked = rest[:rng.randint(0, len(rest) // 2)]
    return Stack(width, height, layers, tuple(StackPair(f"L{k}", ends[2 * k], ends[2 * k + 1]) for k in range(pairs)),
                 frozenset(blocked), vias=tuple(vias))


def test_a_stack_board_is_the_graph_of_the_steps_its_puzzle_allows() -> None:
    """Edges are exactly the pairs of free cells ``Puzzle.is_step`` joins (vias included), each
    once; incident, degree, squares, cell numbers and codes agree with the puzzle's queries."""
    rng = random.Random(7)
    with_vias = 0
    for _ in range(300):
        puzzle = _random_stack(rng)
        board = puzzle.board
        with_vias += bool(puzzle.vias)
        cells = [(z, r, c) for z in range(puzzle.layers) for r in range(puzzle.height) for c in range(puzzle.width)]
        assert board.layered and board.shape == (puzzle.layers, puzzle.height, puzzle.width)
        assert board.cells(range(board.num_cells)) == cells
        assert [board.flat(cell) for cell in cells] == list(range(board.num_cells))
        assert board.free.tolist() == [puzzle.is_free(cell) for cell in cells]
        code = {cell: k for k, pair in enumerate(puzzle.pairs) for cell in (pair.start, pair.end)}
        assert board.code.tolist() == [code.get(cell, -1) for cell in cells]
        joined = [tuple(board.cells(list(edge))) for edge in board.edge_cells.tolist()]
        expected = {(a, b) for a in cells for b in cells if a < b and puzzle.is_free(a) and puzzle.is_free(b) and puzzle.is_step(a, b)}
        assert set(joined) == expected and len(joined) == len(expected)
        around = {i: sorted(int(e) for e in row if e) for i, row in enumerate(board.incident)}
        for i, cell in enumerate(cells):
            mine = [k + 1 for k, edge in enumerate(joined) if cell in edge]
            assert around[i] == mine and board.degree[i] == len(mine)
        # via edges: the steps between layers inside a via
        assert sorted(board.via_edges.tolist()) == ([k + 1 for k, (a, b) in enumerate(joined) if a[0] != b[0]] if puzzle.vias else [])
        # unit squares: four free cells two by two in some plane, all four sides edges
        edge_set = set(joined)
        count = 0
        for a in cells:
            for d1, d2 in (((0, 1, 0), (0, 0, 1)), ((1, 0, 0), (0, 0, 1)), ((1, 0, 0), (0, 1, 0))):
                corner = [tuple(a[k] + i * d1[k] + j * d2[k] for k in range(3)) for i in (0, 1) for j in (0, 1)]
                sides = [(corner[0], corner[1]), (corner[2], corner[3]), (corner[0], corner[2]), (corner[1], corner[3])]
                count += all(side in edge_set for side in sides)
        assert len(board.squares()) == count
        assert all(len(set().union(*(board.cells(list(board.edge_cells[e - 1])) for e in square))) == 4 for square in board.squares().tolist())
    assert with_vias >= 50
