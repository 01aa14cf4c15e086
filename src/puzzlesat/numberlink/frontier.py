"""Exact answer counting by dynamic programming over a moving frontier (touching allowed).

Rules as everywhere in the family, with paths allowed to run beside themselves: connect the
two cells of every label by an orthogonal path; paths never share a cell or enter blocked
cells; under cover-all rules every free cell lies on a path. This is an independent exact method
beside SAT (no SAT layer): it decides uniqueness where the SAT proof is hard (fast on boards
up to about 15 cells across, hopeless from about 20), and it checks the SAT answers in the tests.

Cells are visited in reading order along the longer side (the board is transposed when it is
wider than tall), so the frontier is one cell row of the shorter side plus one cell. The
frontier state records, for each of its ``S = side + 1`` slots (the edges leaving the visited
cells towards unvisited ones), what hangs there: nothing, a label (a path grown from one of
that label's endpoints), or one end of a path piece with no endpoint yet, written as a
parenthesis ``(`` / ``)``: such pieces never cross (the visited part is planar), so their two
ends nest like brackets and need no names. A cell's choice (edge down, edge right, both,
neither) must give it degree 2 (free), 1 (endpoint) or 0 (blocked; may-leave-empty: free cells
also 0), and where it joins two things they must fit: two different labels never meet, a piece
never closes on itself (no stray cycles), a label meeting a piece passes its label to the
piece's other end. At a label's second endpoint, a state where the label's two hanging ends
and those of another label alternate along the frontier, with no piece around them, is dropped
(:func:`_crossing`): both pairs must be joined below the frontier, and the paths would cross.
All states of one step are arrays (numpy), merged when equal, with the number of ways to reach
each, capped at ``limit``, and one way kept for reading an answer back. A state is one 64-bit
word (four bits per slot) where the frontier's side is at most 15 cells and at most 13 labels
are in play, else a row of bytes (:class:`_PackedRows`, :class:`_ByteRows`).

With a reference answer each state also carries "differs from the reference so far"; a state
that does not differ is unique (the reference's own prefix), so this costs one state per step,
and a final differing state is a second answer, read back and verified.

The states' arrays are in :mod:`.frontier_rows`, the children of one step in :mod:`.frontier_step`;
this module runs the count and reads an answer back.

>>> from puzzlesat.numberlink.model import Puzzle, Rules
>>> p = Puzzle.from_rows(["A.B", "...", ".AB"])
>>> count_answers(p).count
2
>>> count_answers(p, rules=Rules(cover_all=False), limit=10).count
5
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import require_type, require_valid
from ..results import check_count_limit
from ..timing import Deadline
from .frontier_rows import FIRST_LABEL, PACKED_MAX_SLOTS, _ByteRows, _PackedRows, _rows
from .frontier_step import DOWN, RIGHT, _crossing, _step  # noqa: F401 (some imported from here too)
from .model import DEFAULT_RULES, ONE_LAYER_HINT, Puzzle, Rules, Solution
from .verify import verify


MAX_SIDE = 40  # the frontier runs along the shorter side; longer is hopeless anyway
DEFAULT_MAX_STATES = 10_000_000  # children in one step (about 1 GB of arrays while the step is built)
DEFAULT_MAX_STORED = 150_000_000  # states kept over all steps for reading an answer back (4 bytes each)
CHOICE_SHIFT = 30  # a stored state: its parent's row, and its choice in the top two bits


@dataclass(frozen=True)
class FrontierCount:
    """``status``: "complete" (``count`` is exact, capped at the limit asked), "unknown" (time
    or state limit). ``answers``: up to two verified answers, differing from the reference when
    one was given. ``max_states`` and ``total_states`` measure the work."""

    status: str
    count: int
    answers: tuple[Solution, ...] = ()
    max_states: int = 0
    total_states: int = 0
    stats: dict = field(default_factory=dict, compare=False)


class _Board:
    """The puzzle in frontier coordinates (transposed when wider than tall; turned half a turn
    when ``reverse``, so that the frontier sweeps from the opposite corner)."""

    def __init__(self, puzzle: Puzzle, reverse: bool = False) -> None:
        self.puzzle = puzzle
        self.transposed = puzzle.width > puzzle.height
        self.reverse = reverse
        self.height, self.width = (puzzle.width, puzzle.height) if self.transposed else (puzzle.height, puzzle.width)
        # labels numbered in the order the frontier meets them, so the labels in play at one
        # time have nearby numbers (see _label_shift)
        self.labels = tuple(sorted(puzzle.labels, key=lambda label: min(map(self.local, (puzzle.pair(label).start, puzzle.pair(label).end)))))
        self.kind = np.full((self.height, self.width), -2, dtype=np.int64)  # -2 free, -1 blocked, else label index
        for cell in puzzle.blocked:
            self.kind[self.local(cell)] = -1
        for i, label in enumerate(self.labels):
            pair = puzzle.pair(label)
            self.kind[self.local(pair.start)] = i
            self.kind[self.local(pair.end)] = i

    def local(self, cell: tuple[int, int]) -> tuple[int, int]:
        """A puzzle cell in frontier coordinates."""
        r, c = (cell[1], cell[0]) if self.transposed else (cell[0], cell[1])
        return (self.height - 1 - r, self.width - 1 - c) if self.reverse else (r, c)

    def original(self, cell: tuple[int, int]) -> tuple[int, int]:
        """A frontier cell in puzzle coordinates (the inverse of :meth:`local`)."""
        r, c = (self.height - 1 - cell[0], self.width - 1 - cell[1]) if self.reverse else (cell[0], cell[1])
        return (c, r) if self.transposed else (r, c)


    def open(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width and self.kind[r, c] != -1

    def choices_of(self, solution: Solution) -> np.ndarray:
        """Each cell's (down, right) edges in ``solution`` as choice bits."""
        choice = np.zeros((self.height, self.width), dtype=np.uint8)
        for _, cells in solution.paths:
            for a, b in zip(cells, cells[1:]):
                (r1, c1), (r2, c2) = sorted((self.local(a), self.local(b)))
                choice[r1, c1] |= DOWN if r2 == r1 + 1 else RIGHT
        return choice

    def solution_of(self, choice: np.ndarray) -> Solution:
        """The paths drawn by the choice bits (assumed an answer; verified by the caller)."""
        neighbours: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for r, c in zip(*np.nonzero(choice)):
            for bit, other in ((DOWN, (r + 1, c)), (RIGHT, (r, c + 1))):
                if choice[r, c] & bit:
                    a, b = self.original((int(r), int(c))), self.original((int(other[0]), int(other[1])))
                    neighbours.setdefault(a, []).append(b)
                    neighbours.setdefault(b, []).append(a)
        paths = []
        for label in self.labels:
            pair = self.puzzle.pair(label)
            cells = [pair.start]
            previous = None
            while cells[-1] != pair.end and len(cells) <= self.height * self.width:
                step = [n for n in neighbours.get(cells[-1], []) if n != previous]
                if not step:
                    break
                previous = cells[-1]
                cells.append(step[0])
            paths.append((label, tuple(cells)))
        return Solution(tuple(paths))


def _layout(slots: int, labels: int) -> _ByteRows | _PackedRows:
    """Packed words where the slots fit in one, else byte rows."""
    return _PackedRows(slots, labels) if slots <= PACKED_MAX_SLOTS else _ByteRows(slots, labels)


def _merge(keys: np.ndarray, flags: np.ndarray, ways: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Rows whose ``keys`` (see the layouts' ``keys``) and flags are equal merged: the index of
    one representative row of each group and the group's summed ways (None when ``ways`` is
    None). The representatives come in key order, so the next step's children come in runs
    that are nearly sorted already.

    The flag is not in the key: a group ends where the key or the flag changes, so a row whose
    flag differs from its equal neighbours splits their group in two. With a reference answer
    only one row per step has the flag unset, so at most one duplicate is left (counts stay
    exact: each copy carries its own ways). The sort is stable: children come in runs that are
    already ordered, which a stable sort exploits."""
    order = np.argsort(keys, kind="stable")
    ordered, ordered_flags = _rows(keys, order), _rows(flags, order)
    starts = np.flatnonzero(np.concatenate([[True], (ordered[1:] != ordered[:-1]) | (ordered_flags[1:] != ordered_flags[:-1])]))
    if ways is None:  # (every way counts as one: the limit is 1)
        return _rows(order, starts), None
    return _rows(order, starts), np.add.reduceat(_rows(ways, order), starts)


def _pair_keys(layout: _ByteRows | _PackedRows, labels: np.ndarray, label_keys: np.ndarray) -> np.ndarray | None:
    """A key per slot value in this row (:func:`_crossing`): each of ``labels`` (both endpoints
    visited) that some state may hold in this row its random key, every other value 0; None
    when there is no such label."""
    labels = [int(label) for label in labels if layout.holds(int(label))]
    if not labels:
        return None
    table = np.zeros(layout.values, dtype=np.uint64)
    for label in labels:
        table[layout.code(label)] = label_keys[label]
    return table


def count_answers(
    puzzle: Puzzle,
    rules: Rules = DEFAULT_RULES,
    *,
    limit: int = 2,
    reference: Solution | None = None,
    time_limit: "float | Deadline | None" = None,
    max_states: int = DEFAULT_MAX_STATES,
    max_stored: int = DEFAULT_MAX_STORED,
    reverse: bool = False,
) -> FrontierCount:
    """Count the answers of ``puzzle`` (paths may touch themselves), capped at ``limit``.

    With ``reference`` (an answer), the count is of the answers other than it (so 0 proves it
    unique) and an answer returned differs from it. ``status`` is "unknown" when the time limit,
    ``max_states`` (children in one step) runs out. Past ``max_stored`` states over all steps
    the ways back are dropped and counting goes on: the count stays exact, but no answer is
    read back (``answers`` empty, ``stats["read_back"]`` False). ``reverse`` sweeps from the
    opposite corner (the board turned half a turn): the same count, but the states per step
    can differ a lot, either way (encodings/numberlink.md, "Notes from frontier.py").

    >>> from puzzlesat.numberlink.model import Puzzle
    >>> p = Puzzle.from_rows(["...B", ".A..", "..BA"])
    >>> only = count_answers(p)
    >>> only.count, count_answers(p, reference=only.answers[0]).count
    (1, 0)
    """
    require_type(puzzle, Puzzle, "puzzle", ONE_LAYER_HINT)
    require_type(rules, Rules, "rules")
    check_count_limit(limit)
    if rules.no_self_touch:
        raise ValueError("the frontier counter allows touching (no-self-touch rules: use solve.count)")
    deadline = Deadline.of(time_limit)
    board = _Board(puzzle, reverse)
    if board.width > MAX_SIDE:
        return FrontierCount("unknown", 0, stats={"reason": f"shorter side {board.width} > {MAX_SIDE}"})
    layout = _layout(board.width + 1, len(board.labels))
    reference_choice = board.choices_of(reference) if reference is not None else None
    states = layout.start()
    counts = np.ones(1, dtype=np.int64)
    differs = np.zeros(1, dtype=bool)
    history: list[np.ndarray] | None = []  # per cell: each state's parent row | choice << CHOICE_SHIFT
    max_seen, total = 1, 0
    kind = board.kind
    label_keys = np.random.default_rng(len(board.labels)).integers(1, 1 << 63, size=len(board.labels), dtype=np.uint64)
    passed = np.zeros(len(board.labels), dtype=np.int64)  # endpoints of each label visited so far
    for r in range(board.height):
        layout, states = layout.begin_row(states, kind[r][kind[r] >= 0])
        pair_keys = _pair_keys(layout, np.flatnonzero(passed == 2), label_keys)
        for c in range(board.width):
            if deadline.expired():
                return FrontierCount("unknown", 0, max_states=max_seen, total_states=total, stats={"reason": "time limit"})
            here = int(kind[r, c])
            children = _step(layout, states, c, here, board.open(r + 1, c), board.open(r, c + 1), rules.cover_all,
                             pair_keys, here >= 0 and passed[here] == 1)
            if here >= 0:
                passed[here] += 1
                if passed[here] == 2:
                    pair_keys = _pair_keys(layout, np.flatnonzero(passed == 2), label_keys)
            if not children.parents:
                return FrontierCount("complete", 0, max_states=max_seen, total_states=total)
            child = np.concatenate(children.states)
            parent = np.concatenate(children.parents)
            choice = np.concatenate(children.choices)
            below = int(kind[r + 1, c]) if r + 1 < board.height else -1
            if below >= 0:  # a path entering an endpoint from above must be that label's (or a piece)
                entering = layout.slot(child, c)
                keep = np.flatnonzero((entering < FIRST_LABEL) | (entering == layout.code(below)))
                child, parent, choice = _rows(child, keep), _rows(parent, keep), _rows(choice, keep)
            if not len(child):
                return FrontierCount("complete", 0, max_states=max_seen, total_states=total)
            flag = _rows(differs, parent)
            if reference_choice is not None:
                flag = flag | (choice != reference_choice[r, c])
            if len(child) > min(max_states, 1 << CHOICE_SHIFT):
                return FrontierCount("unknown", 0, max_states=len(child), total_states=total, stats={"reason": "state limit"})
            first, merged = _merge(layout.keys(child), flag, _rows(counts, parent) if limit > 1 else None)
            states, differs = _rows(child, first), _rows(flag, first)
            counts = np.minimum(merged, limit).astype(np.int64) if merged is not None else np.ones(len(first), dtype=np.int64)
            if history is not None:
                history.append(_rows(parent, first).astype(np.uint32) | (_rows(choice, first).astype(np.uint32) << np.uint32(CHOICE_SHIFT)))
            max_seen = max(max_seen, len(first))
            total += len(first)
            if total > max_stored:
                history = None  # (memory: counting goes on without the ways back)
        states = layout.next_row(states)
    wanted = differs if reference is not None else np.ones(len(states), dtype=bool)
    finals = np.flatnonzero(wanted & layout.finished(states))
    found = int(min(counts[finals].sum(), limit)) if len(finals) else 0
    answers = tuple(_read_back(board, history, int(row), puzzle, rules) for row in finals[:1]) if history is not None else ()
    return FrontierCount("complete", found, answers, max_states=max_seen, total_states=total, stats={"read_back": history is not None})


def _read_back(board: _Board, history: list[np.ndarray], row: int, puzzle: Puzzle, rules: Rules) -> Solution:
    """The answer that reaches final state ``row``, verified (a failure is a bug: UnverifiedAnswer)."""
    choice = np.zeros((board.height, board.width), dtype=np.uint8)
    for index in range(len(history) - 1, -1, -1):
        stored = int(history[index][row])
        choice[divmod(index, board.width)] = stored >> CHOICE_SHIFT
        row = stored & ((1 << CHOICE_SHIFT) - 1)
    solution = board.solution_of(choice)
    require_valid(verify(puzzle, solution, rules), "the frontier count")
    return solution
