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
