"""Legal moves: which swaps a board allows, and applying them.

A square at u reaches v when v = u + d * direction for one of its figure's directions and
1 <= d <= scope, v is on the board, and neither v nor any cell strictly between is a wall
(other squares in between do not block). The swap {u, v} is legal when the square at u reaches
v or the square at v reaches u; it exchanges the two contents completely.

Notation: a move ``r1,c1>r2,c2`` names the moving square first. :func:`legal_moves` lists each
legal swap once, written from a square that reaches the other cell (from the earlier cell in
row-major order when both do). :func:`is_legal` and the checker accept a legal swap written in
either order, since the effect is the same.

>>> from .model import board_from_rows
>>> board = board_from_rows(["T2R ### B1G", "Q1G T1R T2R"])
>>> [str(m) for m in legal_moves(board)]
['0,0>1,0', '0,2>1,1', '1,2>0,2', '1,0>1,1', '1,2>1,0', '1,1>1,2']
>>> reaches(board, (1, 2), (1, 0)), reaches(board, (0, 0), (0, 2))  # jumps squares, not walls
(True, False)
>>> is_legal(board, Move((1, 0), (1, 2))), reaches(board, (1, 0), (1, 2))  # only 1,2 reaches
(True, False)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from ..errors import require_type
from ..grid import Cell
from .model import FIGURE_DIRECTIONS, Board, Level, Move, MoveLike, apply_swap, as_board, parse_moves

Rays = tuple[tuple[Cell, ...], ...]


def _walls_of(board: Board) -> frozenset[Cell]:
    return frozenset((r, c) for r, row in enumerate(board) for c, sq in enumerate(row) if sq is None)


@lru_cache(maxsize=256)
def ray_table(rows: int, cols: int, walls: frozenset[Cell]) -> dict[tuple[Cell, str], Rays]:
    """For each non-wall cell and figure, the cells along each direction in order of distance,
    stopping before the first wall or the board's edge (a square of scope k reaches the first k
    cells of each ray). Walls never move, so one table serves every state of a level."""
    table: dict[tuple[Cell, str], Rays] = {}
    for r in range(rows):
        for c in range(cols):
            if (r, c) in walls:
                continue
            for figure, directions in FIGURE_DIRECTIONS.items():
                rays = []
                for dr, dc in directions:
                    ray = []
                    rr, cc = r + dr, c + dc
                    while 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in walls:
                        ray.append((rr, cc))
                        rr, cc = rr + dr, cc + dc
                    rays.append(tuple(ray))
                table[((r, c), figure)] = tuple(rays)
    return table


def rays_for(board: Board) -> dict[tuple[Cell, str], Rays]:
    return ray_table(len(board), len(board[0]), _walls_of(board))


def reachable(board: "Board | Level", cell: Cell) -> list[Cell]:
    """Cells the square at ``cell`` reaches (empty for a wall).

    Direction by direction, the nearest cells first, up to its scope; other squares are jumped,
    a wall ends the ray.

    >>> from .model import board_from_rows
    >>> board = board_from_rows(["T2R T1G ### T1R"])
    >>> reachable(board, (0, 0)), reachable(board, (0, 3)), reachable(board, (0, 2))
    ([(0, 1)], [], [])
    """
    board = as_board(board)
    if not (0 <= cell[0] < len(board) and 0 <= cell[1] < len(board[0])):
        return []  # off the board: nothing there reaches anywhere (as reaches() says False)
    sq = board[cell[0]][cell[1]]
    if sq is None:
        return []
    rays = rays_for(board)[(cell, sq.figure)]
    return [v for ray in rays for v in ray[: sq.scope]]


def reaches(board: "Board | Level", u: Cell, v: Cell) -> bool:
    """Whether the square at u can move to v (False when u is a wall or off the board).

    Not symmetric: a swap is legal when either end reaches the other (see :func:`is_legal`).

    >>> from .model import board_from_rows
    >>> board = board_from_rows(["T2R T1G T1R"])
    >>> reaches(board, (0, 0), (0, 2)), reaches(board, (0, 2), (0, 0))
    (True, False)
    """
    board = as_board(board)
    rows, cols = len(board), len(board[0])
    if not (0 <= u[0] < rows and 0 <= u[1] < cols and 0 <= v[0] < rows and 0 <= v[1] < cols):
        return False
    return v in reachable(board, u)


def legal_moves(board: Board | Level) -> list[Move]:
    """Every legal swap once, mover first, sorted. Accepts a board or a level (its start).

    The mover is a square that reaches the other cell (the earlier cell when both do).

    >>> from .model import board_from_rows
    >>> [str(m) for m in legal_moves(board_from_rows(["T1R B1G", "### T2R"]))]
    ['0,0>0,1', '1,1>0,1']
    """
    board = as_board(board)
    rays = rays_for(board)
    pairs: dict[tuple[Cell, Cell], Cell] = {}
    for r, row in enumerate(board):
        for c, sq in enumerate(row):
            if sq is None:
                continue
            u = (r, c)
            for ray in rays[(u, sq.figure)]:
                for v in ray[: sq.scope]:
                    key = (u, v) if u < v else (v, u)
                    if key not in pairs or u < pairs[key]:
                        pairs[key] = u
    moves = [Move(mover, b if mover == a else a) for (a, b), mover in pairs.items()]
    return sorted(moves, key=lambda m: (min(m.source, m.target), max(m.source, m.target)))


def swap_pairs(level: Level) -> list[tuple[Cell, Cell]]:
    """Every pair of cells that some square could ever swap (walls fixed, any figure and scope
    present in the level may stand on either cell): the candidate swaps of a search or model.

    Pairs are (earlier cell, later cell), sorted; a pair may be illegal on the start board.

    >>> from .model import Level
    >>> swap_pairs(Level.from_rows(["T1R B1G", "### T1R"], goal="cluster"))
    [((0, 0), (0, 1)), ((0, 0), (1, 1)), ((0, 1), (1, 1))]
    """
    require_type(level, Level, "level")
    board = level.start
    kinds = sorted({(sq.figure, sq.scope) for row in board for sq in row if sq is not None})
    rays = rays_for(board)
    pairs = set()
    for u in level.square_cells():
        for figure, scope in kinds:
            for ray in rays[(u, figure)]:
                for v in ray[:scope]:
                    pairs.add((u, v) if u < v else (v, u))
    return sorted(pairs)


def is_legal(board: "Board | Level", move: MoveLike) -> bool:
    """Whether the swap is legal, written in either order.

    ``move`` is a :class:`Move` or an ``r1,c1>r2,c2`` string.

    >>> from .model import board_from_rows
    >>> board = board_from_rows(["T1R B1G", "### T2R"])
    >>> is_legal(board, "0,0>0,1"), is_legal(board, "0,1>0,0"), is_legal(board, "0,0>1,1")
    (True, True, False)
    """
    board = as_board(board)
    (m,) = parse_moves([move])
    return reaches(board, m.source, m.target) or reaches(board, m.target, m.source)


def apply_move(board: "Board | Level", move: MoveLike, *, check: bool = True) -> Board:
    """The board after the swap; raises ValueError for an illegal move when ``check``.

    >>> from .model import board_from_rows, board_rows
    >>> board = board_from_rows(["T1R B1G", "### T2R"])
    >>> board_rows(apply_move(board, "1,1>0,1"))
    [['T1R', 'T2R'], ['###', 'B1G']]
    >>> apply_move(board, "0,0>1,1")
    Traceback (most recent call last):
    ...
    ValueError: illegal move 0,0>1,1: neither square can reach the other cell
    """
    board = as_board(board)
    (m,) = parse_moves([move])
    if check and not is_legal(board, m):
        raise ValueError(f"illegal move {m}: neither square can reach the other cell")
    return apply_swap(board, m.source, m.target)


def replay(board: Board | Level, moves: str | list[MoveLike] | tuple[MoveLike, ...]) -> list[Board]:
    """The boards after each move (the first entry is ``board`` itself, or a level's start);
    ValueError if illegal.

    >>> from .model import Level, board_rows
    >>> level = Level.from_rows(["T1R T1G", "T1G T1R"], goal=["R G", "R G"])
    >>> boards = replay(level, "1,0>1,1")
    >>> len(boards), board_rows(boards[-1])
    (2, [['T1R', 'T1G'], ['T1R', 'T1G']])
    """
    board = as_board(board)
    boards = [board]
    for move in parse_moves(moves):
        boards.append(apply_move(boards[-1], move))
    return boards


def mover_of(board: "Board | Level", move: MoveLike) -> Optional[Cell]:
    """The cell whose square makes the swap (the named source when it reaches, else the target
    when it reaches back, else None)."""
    board = as_board(board)
    (m,) = parse_moves([move])
    if reaches(board, m.source, m.target):
        return m.source
    if reaches(board, m.target, m.source):
        return m.target
    return None
