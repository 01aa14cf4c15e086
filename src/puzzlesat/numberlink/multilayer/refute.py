"""Reasons a stack of layers has no answer that need no search, read on the stack's graph of
cells (:class:`~puzzlesat.numberlink.board.Board`: its edges are the steps a path may take, so
the via rules are in them). The one-layer checks of :mod:`..topology` are planar: these are
the ones that hold on any stack.
"""

from __future__ import annotations

import numpy as np

from ...errors import require_type
from ...timing import Deadline
from ..model import DEFAULT_RULES, Rules
from ..topology import CHECK_EVERY
from .model import Cell, Puzzle


def contradiction(puzzle: Puzzle, rules: Rules = DEFAULT_RULES, *, deadline: Deadline | None = None) -> str | None:
    """A reason ``puzzle`` has no answer under ``rules`` that needs no search, or None (also
    when ``deadline`` passes first: the caller's next step then answers "unknown").

    Each check is sound (it reports only when no answer exists):

    * an endpoint with no free neighbour has no path;
    * a path runs through inner cells (free cells that are not endpoints) between its two
      ends, so two ends that do not touch and whose inner neighbours lie in different
      connected parts of the inner cells cannot be joined;
    * cover-all: an inner cell with fewer than two free neighbours cannot be passed through;
      a connected part of inner cells beside no endpoint cannot be reached by any path;
    * cover-all, chessboard colours (``(layer + row + column) % 2``; every step changes it): a
      path whose end cells have colours ``c1, c2`` (+1 / -1) covers ``(c1 + c2) / 2`` more cells
      of colour +1 than -1, and the paths must cover the free cells' own difference.

    >>> contradiction(Puzzle.from_layers([["A.#.A"]]))
    "the ends of 'A' lie in different parts of the board: no path joins them"
    >>> contradiction(Puzzle.from_layers([["A.", ".A"], ["..", ".."]]))
    'chessboard colours: the free cells have 0 more of colour +1 than -1, but paths between these endpoints cover 1'
    >>> contradiction(Puzzle.from_layers([["A.", ".A"], ["..", ".."]]), Rules(cover_all=False)) is None
    True
    >>> contradiction(Puzzle.from_layers([["A.#.A"]]), deadline=Deadline(0.0)) is None
    True
    """
    require_type(puzzle, Puzzle, "puzzle", "a multi-layer puzzle (puzzlesat.numberlink.multilayer.Puzzle)")
    require_type(rules, Rules, "rules", "e.g. Rules(cover_all=False)")

    def late(step: int = 0) -> bool:  # (a look at the clock every CHECK_EVERY pairs)
        return deadline is not None and step % CHECK_EVERY == 0 and deadline.expired()

    if late():
        return None
    board = puzzle.board
    layers, height, width = puzzle.layers, puzzle.height, puzzle.width
    free = board.free
    inner = free & ~board.is_end
    for step, pair in enumerate(puzzle.pairs):
        if late(step):
            return None
        for cell in (pair.start, pair.end):
            if board.degree[board.flat(cell)] == 0:
                return f"endpoint {cell} of {pair.label!r} has no free neighbour"
    if puzzle.vias:
        proof = _via_count_contradiction(puzzle)
        if proof is not None:
            return proof

    if late():
        return None
    part = _parts(board, inner)
    # each cell's neighbours across its edges (-1: none), the edges being the steps a path may take
    ends_of = np.vstack([np.full((1, 2), -1, dtype=np.int64), board.edge_cells])[board.incident]
    across = np.where(board.incident > 0, ends_of.sum(axis=2) - np.arange(board.num_cells)[:, None], -1)

    def inner_parts(cell: int) -> set[int]:
        return {int(part[n]) for n in across[cell] if n >= 0 and inner[n]}

    for step, pair in enumerate(puzzle.pairs):
        if late(step):
            return None
        start, end = board.flat(pair.start), board.flat(pair.end)
        if end in across[start]:
            continue
        if not inner_parts(start) & inner_parts(end):
            return f"the ends of {pair.label!r} lie in different parts of the board: no path joins them"

    if not rules.cover_all or late():
        return None
    narrow = np.flatnonzero(inner & (board.degree < 2))
    if len(narrow):
        cell = tuple(int(i) for i in np.unravel_index(int(narrow[0]), (layers, height, width)))
        return f"free cell {cell} has fewer than two free neighbours, so no path can pass through it (cover-all)"
    if late():
        return None
    reached = set().union(*(inner_parts(int(cell)) for cell in np.flatnonzero(board.is_end)))
    lonely = np.flatnonzero(inner & ~np.isin(part, list(reached)))
    if len(lonely):
        cell = tuple(int(i) for i in np.unravel_index(int(lonely[0]), (layers, height, width)))
        return f"the free cells around {cell} are walled off from every endpoint, so no path can cover them (cover-all)"
    colour = np.where(np.indices((layers, height, width)).sum(axis=0).ravel() % 2 == 0, 1, -1)
    difference = int(colour[free].sum())

    def colour_of(cell: Cell) -> int:
        return 1 if sum(cell) % 2 == 0 else -1

    covered = sum((colour_of(pair.start) + colour_of(pair.end)) // 2 for pair in puzzle.pairs)
    if covered != difference:
        return (f"chessboard colours: the free cells have {difference} more of colour +1 than -1, "
                f"but paths between these endpoints cover {covered}")
    return None


def _via_count_contradiction(puzzle: Puzzle) -> str | None:
    """With vias: a path whose ends lie on layers ``z1 < z2`` passes exactly one via, one from
    layer z1 to layer z2, and every via is passed by one path; so for every pair of layers
    there must be as many such paths as vias.

    >>> from .model import Via
    >>> _via_count_contradiction(Puzzle.from_layers([["A.", ".."], ["..", ".A"]], vias=[Via("a", [(0, 0, 1), (1, 0, 1)]), Via("b", [(0, 1, 0), (1, 1, 0)])]))
    'layers 1 to 2: 1 line(s) change layer there but 2 via(s) join them (each line passes one via, each via one line)'
    """
    spans: dict[tuple[int, int], list[int]] = {}
    for pair in puzzle.pairs:
        low, high = sorted((pair.start[0], pair.end[0]))
        if low != high:
            spans.setdefault((low, high), [0, 0])[0] += 1
    for via in puzzle.vias:
        spans.setdefault(via.layer_span, [0, 0])[1] += 1
    for (low, high), (lines, vias) in sorted(spans.items()):
        if lines != vias:
            return (f"layers {low + 1} to {high + 1}: {lines} line(s) change layer there but {vias} via(s) join them "
                    "(each line passes one via, each via one line)")
    return None


def _parts(board, mask: np.ndarray) -> np.ndarray:
    """A connected-part number for every cell of ``mask`` (steps along the board's edges inside
    it; -1 outside): hooking each part's root to the smallest root beside it, then pointer
    jumping, until nothing changes (a few dozen numpy rounds even on snake-shaped parts)."""
    inside = mask[board.edge_cells].all(axis=1)
    u, v = board.edge_cells[inside, 0], board.edge_cells[inside, 1]
    parent = np.arange(board.num_cells, dtype=np.int64)
    while True:
        pu, pv = parent[u], parent[v]
        low = np.minimum(pu, pv)
        before = parent.copy()
        np.minimum.at(parent, pu, low)
        np.minimum.at(parent, pv, low)
        while True:  # pointer jumping: every cell points at its root
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        if np.array_equal(parent, before):
            break
    return np.where(mask, parent, -1)
