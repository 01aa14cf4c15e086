"""``probes``: a second answer next to the first by a local change, checked, with no SAT call:
a path that runs along itself in the same direction swaps its middle (``swap``), a drawn board's
window redrawn (``fill-window``), two paths that step side by side in two places trade the
stretches between them (``two-turns``); under may-leave-empty rules with touching allowed, an
answer that runs beside itself cut short there (``shrunk``), a step replaced by a detour through
empty cells (``detour``) or a corner moved across its 2x2 block (``corner-move``), which with
the corner and bump clauses of the later search find every second answer (encodings/numberlink.md,
"What each rule set runs (solve.py)"). On a stack of layers only the shrinking and the detour
run (the others read one grid); with the no-self-touch formula they find every second answer
there (the argument is in ``multilayer/solve.py``'s docstring).

>>> from ..model import Puzzle, Rules
>>> from .state import State
>>> from .first import FIRST
>>> state = State(Puzzle.from_rows(["...A", ".A..", "...."]), Rules(), solver="cadical195", limit=2, deadline=Deadline(None))
>>> str(state.step(FIRST)), str(state.step(PROBES)), state.decided_by   # (A must run beside itself)
('answer (touching-window)', 'answer', 'probes:swap')
"""

from __future__ import annotations

import time

from ...timing import Deadline
from .. import fill, routing
from ..model import Cell, Puzzle, Rules, Solution
from ..search import check_answer, shrinks_to_no_touch
from ..verify import verify
from .first import drawn_board, fill_budget
from .state import State
from .strategy import Outcome, one_layer

# (name in stats["local_variant"], name of the step) of each probe
KINDS = {"swap": "probes:swap", "fill-window": "probes:fill-window", "two turns": "probes:two-turns",
         "shrunk": "probes:shrunk", "detour": "probes:detour", "corner move": "probes:corner-move"}


class Probes:
    name = "probes"

    def applies(self, puzzle: Puzzle, rules: Rules) -> bool:
        return (rules.cover_all and not rules.no_self_touch and one_layer(puzzle)) or shrinks_to_no_touch(rules)

    def run(self, state: State, deadline: Deadline) -> Outcome:
        if state.limit < 2 or len(state.found) != 1:
            return Outcome.nothing()
        puzzle, rules, first = state.puzzle, state.rules, state.found[0]
        second, kind = None, ""
        if state.default_rules and state.one_layer:
            if (second := _swap_variant(puzzle, first, rules)) is not None:
                kind = "swap"
            elif (second := _drawn_variant(puzzle, first, rules, deadline)) is not None:
                kind = "fill-window"
            elif (second := _two_turn_variant(puzzle, first, rules)) is not None:
                kind = "two turns"
        elif state.shrink and state.limit == 2:
            second, kind = empty_cell_variant(puzzle, first, state.one_layer)
            if second is not None:
                state.check(second)
        if second is None:
            return Outcome.nothing()
        state.stats["local_variant"] = kind
        return Outcome.answer(second, by=KINDS[kind])


PROBES = Probes()


def _leaves_cells_empty(puzzle: Puzzle, solution: Solution) -> bool:
    return sum(len(cells) for _, cells in solution.paths) < int(puzzle.board.free.sum())


def empty_cell_variant(puzzle: Puzzle, solution: Solution, grid: bool = True) -> tuple[Solution | None, str]:
    """(May-leave-empty, touching allowed) a second answer that differs from ``solution`` only
    through its empty cells, and how it was made: ("shrunk", "detour" or, on one layer
    (``grid``), "corner move"), or (None, ""). (A bump, the third move of the normal form in
    encodings/numberlink.md, needs no test of its own: a straight ``a -> m -> d`` with the three
    cells beside it empty has a detour.)"""
    cut = shrunk(puzzle, solution)
    if cut != solution:
        return cut, "shrunk"
    if not _leaves_cells_empty(puzzle, solution):
        return None, ""  # (no detour, no corner move)
    detour = detour_variant(puzzle, solution)
    if detour is not None:
        return detour, "detour"
    moved = _corner_variant(puzzle, solution) if grid else None
    return (moved, "corner move") if moved is not None else (None, "")


def shrunk(puzzle: Puzzle, solution: Solution) -> Solution:
    """``solution`` with every path cut short wherever it runs beside itself
    (:func:`..routing.shrink`): under may-leave-empty rules an answer that does not touch
    itself, another answer when ``solution`` touches itself. With vias (a stack's ADC 2016
    problems) "beside" is where a path may step (``puzzle.neighbours``).

    >>> from ..model import Puzzle, Solution
    >>> puzzle = Puzzle.from_rows(["A.", "..", "A."])
    >>> shrunk(puzzle, Solution.from_mapping({"A": [(0, 0), (0, 1), (1, 1), (1, 0), (2, 0)]})).path("A")
    ((0, 0), (1, 0), (2, 0))
    """
    beside = puzzle.neighbours if len(puzzle.board.via_edges) else None
    return type(solution)(tuple((label, routing.shrink(cells, beside)) for label, cells in solution.paths))


def _corner_variant(puzzle: Puzzle, solution: Solution) -> Solution | None:
    """(May-leave-empty, touching allowed) the answer with one corner of a path moved across
    its 2x2 block: a path turning at ``b`` (``a -> b -> c``) may turn at the block's fourth
    cell ``e`` instead when ``e`` is empty (``a -> e -> c``: same length, still simple, and
    touching is allowed). None when no corner can move. With the detours and the formula
    without corner moves this finds a second answer whenever there is one
    (encodings/numberlink.md).

    >>> from ..model import Puzzle, Solution
    >>> puzzle = Puzzle.from_rows(["A.", ".A"])
    >>> moved = _corner_variant(puzzle, Solution.from_mapping({"A": [(0, 0), (0, 1), (1, 1)]}))
    >>> moved.as_dict()["A"]
    ((0, 0), (1, 0), (1, 1))
    """
    used = {cell for _, cells in solution.paths for cell in cells}
    for label, cells in solution.paths:
        for i in range(1, len(cells) - 1):
            (ar, ac), (br, bc), (cr, cc) = cells[i - 1], cells[i], cells[i + 1]
            if ar == cr or ac == cc:
                continue  # straight on: no corner
            moved = (ar + cr - br, ac + cc - bc)
            if puzzle.is_free(moved) and moved not in used:
                path = cells[:i] + (moved,) + cells[i + 1:]
                return type(solution).from_mapping({**solution.as_dict(), label: path})
    return None


def detour_variant(puzzle: Puzzle, solution: Solution) -> Solution | None:
    """(May-leave-empty) the answer with one step a->b of a path replaced by a detour through
    empty cells from a neighbour of a to a neighbour of b, if any exists. Together with the
    no-self-touch answers this finds every answer (encodings/numberlink.md). Boards of several
    layers use it too: it needs only ``puzzle.neighbours`` and ``free_cells``."""
    used = {cell for _, cells in solution.paths for cell in cells}

    def around(cell: Cell) -> list[Cell]:
        return [n for n in puzzle.neighbours(cell) if n not in used]

    region: dict[Cell, int] = {}  # connected regions of empty cells
    for cell in puzzle.free_cells():
        if cell in used or cell in region:
            continue
        region[cell] = len(region)
        name, stack = region[cell], [cell]
        while stack:
            for n in around(stack.pop()):
                if n not in region:
                    region[n] = name
                    stack.append(n)
    paths = solution.as_dict()
    for label, cells in solution.paths:
        for i in range(len(cells) - 1):
            a, b = cells[i], cells[i + 1]
            targets = {region[n] for n in around(b)}
            starts = [n for n in around(a) if region[n] in targets]
            if not starts:
                continue
            goal = set(around(b))
            parent: dict[Cell, Cell | None] = {starts[0]: None}
            queue = [starts[0]]
            for cell in queue:  # breadth-first through the empty region
                if cell in goal:
                    detour = [cell]
                    while parent[detour[-1]] is not None:
                        detour.append(parent[detour[-1]])
                        assert detour[-1] is not None
                    path = cells[: i + 1] + tuple(reversed(detour)) + cells[i + 1 :]
                    return type(solution).from_mapping({**paths, label: path})
                for n in around(cell):
                    if n not in parent:
                        parent[n] = cell
                        queue.append(n)
    return None


def _swap_variant(puzzle: Puzzle, solution: Solution, rules: Rules) -> Solution | None:
    """A second answer by a local swap, if one exists: a path that takes steps a->b and later
    c->d with a, c and b, d adjacent can take a->c, its middle reversed, then b->d."""
    paths = solution.as_dict()
    for label, cells in solution.paths:
        position = {cell: i for i, cell in enumerate(cells)}
        n = len(cells)
        for i in range(n - 1):
            (ar, ac), (br, bc) = cells[i], cells[i + 1]
            dr, dc = br - ar, bc - ac
            for sr, sc in ((dc, dr), (-dc, -dr)):
                j = position.get((ar + sr, ac + sc))
                if j is not None and i + 1 < j < n - 1 and cells[j + 1] == (br + sr, bc + sc):
                    path = cells[: i + 1] + cells[i + 1 : j + 1][::-1] + cells[j + 1 :]
                    variant = Solution.from_mapping({**paths, label: path})
                    if not verify(puzzle, variant, rules):
                        return variant
    return None


def _side_by_side(solution: Solution) -> dict[tuple[str, str, bool], list[tuple[int, int]]]:
    """Where two paths step side by side, in 2x2 blocks: for each pair of labels ``p < q``
    and whether they step the same way there, the (i, j) with ``p``'s step ``i -> i+1``
    beside ``q``'s step ``j -> j+1`` (cell indices along each path), in ``p``'s order."""
    owner: dict[Cell, tuple[str, int]] = {}
    for label, cells in solution.paths:
        for k, cell in enumerate(cells):
            owner[cell] = (label, k)
    blocks: dict[tuple[str, str, bool], list[tuple[int, int]]] = {}
    for label, cells in solution.paths:
        for i in range(len(cells) - 1):
            (ar, ac), (br, bc) = cells[i], cells[i + 1]
            dr, dc = br - ar, bc - ac
            for sr, sc in ((dc, dr), (-dc, -dr)):
                beside_a = owner.get((ar + sr, ac + sc))
                if beside_a is None or beside_a[0] <= label:
                    continue
                beside_b = owner.get((br + sr, bc + sc))
                if beside_b is None or beside_b[0] != beside_a[0]:
                    continue
                other, j = beside_a
                if beside_b[1] == j + 1:
                    blocks.setdefault((label, other, True), []).append((i, j))
                elif beside_b[1] == j - 1:
                    blocks.setdefault((label, other, False), []).append((i, j - 1))
    return blocks


def _two_turn_variant(puzzle: Puzzle, solution: Solution, rules: Rules) -> Solution | None:
    """A second answer by turning two 2x2 blocks, if one exists. Where a path ``p`` steps
    ``a -> b`` beside a step ``c -> d`` of another path ``q`` (``a`` beside ``c``), the block's
    other two sides ``a-c`` and ``b-d`` may be taken instead: every cell keeps its number of
    path neighbours, but ``p``'s ends are now joined to ``q``'s. A second such turn, on the same
    two paths, joins them back when the two paths trade the stretches between the blocks:
    stepping the opposite way at both blocks, each takes the other's stretch as it is
    (``p = P[..i1] + Q[j1+1..j2] + P[i2+1..]``, ``q = Q[..j1] + P[i1+1..i2] + Q[j2+1..]``);
    stepping the same way at both, ``q`` must meet them in the opposite order, and each takes
    the other's stretch reversed. Every cell stays covered, so only touching can make the
    result wrong: it is returned only when it passes :func:`verify` under ``rules``.

    On published puzzles under default rules this finds most second answers at once
    (encodings/numberlink.md, "Notes from solve.py").

    >>> from ..model import Puzzle, Solution
    >>> puzzle = Puzzle.from_rows(["...A", ".AB.", "B..."])
    >>> first = Solution.from_rows(puzzle, ["BBBA", "BABA", "BAAA"])
    >>> print("\\n".join("".join(row) for row in _two_turn_variant(puzzle, first, Rules()).to_rows(puzzle)))
    AAAA
    AABB
    BBBB
    """
    paths = solution.as_dict()
    for (p, q, same_way), blocks in _side_by_side(solution).items():
        P, Q = paths[p], paths[q]
        for k, (i1, j1) in enumerate(blocks):
            for i2, j2 in blocks[k + 1:]:
                if i1 == i2 or j1 == j2 or (j2 < j1) != same_way:
                    continue
                if same_way:
                    new_p = P[:i1 + 1] + Q[j2 + 1:j1 + 1][::-1] + P[i2 + 1:]
                    new_q = Q[:j2 + 1] + P[i1 + 1:i2 + 1][::-1] + Q[j1 + 1:]
                else:
                    new_p = P[:i1 + 1] + Q[j1 + 1:j2 + 1] + P[i2 + 1:]
                    new_q = Q[:j1 + 1] + P[i1 + 1:i2 + 1] + Q[j2 + 1:]
                variant = Solution.from_mapping({**paths, p: new_p, q: new_q})
                if not verify(puzzle, variant, rules):
                    return variant
    return None


def _drawn_variant(puzzle: Puzzle, answer: Solution, rules: Rules, deadline: Deadline) -> Solution | None:
    """Default rules on a board of more than FILL_MIN_CELLS cells: a second answer that differs
    from ``answer`` inside one small window (:func:`..fill.window_variant`, no formula), verified;
    None otherwise."""
    if not drawn_board(puzzle, rules):
        return None
    variant = fill.window_variant(puzzle, answer, stop=time.perf_counter() + fill_budget(deadline))
    if variant is not None:
        check_answer(puzzle, variant, rules)
    return variant
