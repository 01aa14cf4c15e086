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
from .model import DEFAULT_RULES, ONE_LAYER_HINT, Puzzle, Rules, Solution
from .verify import verify

EMPTY, OPEN, CLOSE = 0, 1, 2  # slot values; label i (0-based) is 3 + i
FIRST_LABEL = 3
DOWN, RIGHT = 1, 2  # bits of a cell's choice
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


_DEPTH_STEP = np.zeros(1 << 16, dtype=np.int8)
_DEPTH_STEP[OPEN], _DEPTH_STEP[CLOSE] = 1, -1


def _rows(array: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``array[index]`` along the first axis: ``np.take`` copies a row at a time, several times
    faster than fancy indexing on arrays of short rows; the frontier count gathers rows all the
    time (encodings/numberlink.md, "Notes from frontier.py")."""
    return np.take(array, index, axis=0)


def _partners(states: np.ndarray, positions: np.ndarray, partners_at=None) -> np.ndarray:
    """For each row of ``states`` the slot holding the other end of the piece whose end is at
    ``positions`` (a parenthesis in that row), found for the rows of each position at once by
    ``partners_at(rows, position)`` (:func:`_partners_at` for byte rows)."""
    partners_at = partners_at or _partners_at
    out = np.empty(len(states), dtype=np.int64)
    for position in np.flatnonzero(np.bincount(positions)):  # (the positions present, in order)
        rows = np.flatnonzero(positions == position)
        out[rows] = partners_at(_rows(states, rows) if len(rows) < len(states) else states, int(position))
    return out


def _partners_at(states: np.ndarray, position: int) -> np.ndarray:
    """:func:`_partners` with one ``position`` for all rows: a "(" is closed by the first slot
    to its right where the bracket depth counted from it falls to -1; a ")" is opened by the
    first slot to its left where the depth counted leftwards (")" up, "(" down) falls to -1."""
    out = np.empty(len(states), dtype=np.int64)
    opening = states[:, position] == OPEN
    if opening.any():
        depth = np.cumsum(_DEPTH_STEP[np.compress(opening, states[:, position + 1:], axis=0)], axis=1, dtype=np.int8)
        out[opening] = position + 1 + (depth == -1).argmax(axis=1)
    closing = ~opening
    if closing.any():
        depth = np.cumsum(-_DEPTH_STEP[np.compress(closing, states[:, :position], axis=0)[:, ::-1]], axis=1, dtype=np.int8)
        out[closing] = position - 1 - (depth == -1).argmax(axis=1)
    return out


def _crossing(layout: "_ByteRows | _PackedRows", states: np.ndarray, positions: int | np.ndarray, label_value: int,
              pair_keys: np.ndarray) -> np.ndarray:
    """For each row of ``states``: whether it has no completion because the two ends of the label of
    slot value ``label_value`` (one at slot ``positions`` or ``positions[row]``, the other elsewhere
    in the row) and those of another label whose two endpoints are both visited
    (``pair_keys[value]`` non-zero for those) alternate along the frontier, with no piece around any
    of these ends.

    Why: each such label hangs at two slots, to be joined by a chain of paths through the unvisited
    cells (below the frontier, whose slots lie along it in slot order) and pieces (above it). Close
    each chain by two arcs from its ends up over the visited cells; two closed curves cross an even
    number of times, and the two closing parts of alternating pairs cross once, so one chain must
    cross the other's closing arcs: it must use a piece whose two ends lie on either side of one of
    the four ends (the answer of thomasahle inputs4 #3 does this, swept in reverse: a path runs
    round another label's endpoint through the visited part). With every piece bracket counted, the
    row is dropped only when all the labels' ends in it lie outside every piece (bracket depth 0),
    so no such piece exists.

    The label's pair crosses another exactly when that label has one end strictly between its two
    ends, and then the XOR of the random keys over those slots is not zero (each pair wholly between
    cancels; a zero XOR by chance of the keys only keeps a dead row: the count stays exact). The
    count checks each label's pair once, at its second endpoint: a crossing made later, when a label
    is passed on along a piece, is left to die on its own (checking there too cost more than it
    saved on most boards; encodings/numberlink.md, "Notes from frontier.py")."""
    count = len(states)
    running = np.zeros(count, dtype=np.uint64)
    at_new = np.zeros(count, dtype=np.uint64)
    at_other = np.zeros(count, dtype=np.uint64)
    found = np.zeros(count, dtype=bool)
    depth = np.zeros(count, dtype=np.int16)
    inside_piece = np.zeros(count, dtype=bool)  # some end of these labels lies between a piece's ends
    for j in range(layout.slots):
        value = layout.slot(states, j).astype(np.intp)
        own = value == label_value
        key = np.where(own, np.uint64(0), _rows(pair_keys, value))
        inside_piece |= (depth > 0) & (own | (key != 0))
        at_new = np.where(positions == j, running, at_new)
        other = own & (positions != j)
        at_other = np.where(other, running, at_other)
        found |= other
        running ^= key
        depth += (value == OPEN).view(np.int8) - (value == CLOSE).view(np.int8)
    return found & (at_new != at_other) & ~inside_piece


def _uncrossed(layout: "_ByteRows | _PackedRows", states: np.ndarray, rows: np.ndarray, positions: int | np.ndarray,
               value: int, pair_keys: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``states`` (children of the parent ``rows``, label ``value`` at slot ``positions``)
    without those :func:`_crossing` drops (all kept when ``pair_keys`` is None)."""
    if pair_keys is None or not len(rows):
        return states, rows
    crossed = _crossing(layout, states, positions, value, pair_keys)
    if not crossed.any():
        return states, rows
    keep = np.flatnonzero(~crossed)
    return _rows(states, keep), _rows(rows, keep)


class _Children:
    """The children of one step, gathered group by group."""

    def __init__(self) -> None:
        self.states: list[np.ndarray] = []
        self.parents: list[np.ndarray] = []
        self.choices: list[np.ndarray] = []

    def add(self, states: np.ndarray, parents: np.ndarray, choice: int | np.ndarray) -> None:
        if len(parents):
            self.states.append(states)
            self.parents.append(parents)
            self.choices.append(np.broadcast_to(np.asarray(choice, dtype=np.uint8), parents.shape))


class _ByteRows:
    """Frontier states as rows of bytes, one per slot (16-bit values past 252 labels), label
    ``i`` as ``FIRST_LABEL + i``: any width, any number of labels. Rows are sorted by a 64-bit
    key where one fits (see :meth:`keys`), else compared as bytes."""

    def __init__(self, slots: int, labels: int) -> None:
        self.slots = slots
        self.dtype = np.uint8 if FIRST_LABEL + labels < 256 else np.uint16
        self.values = 1 << (8 * np.dtype(self.dtype).itemsize)  # (slot values below this)
        self.shift: int | None = 0  # (set per row: see keys)
        self.possible: frozenset[int] = frozenset()  # (set per row: the slot values that can occur)

    def start(self) -> np.ndarray:
        return np.zeros((1, self.slots), dtype=self.dtype)

    def code(self, label: int) -> int:
        return FIRST_LABEL + label

    def begin_row(self, states: np.ndarray, row_labels: np.ndarray) -> tuple[_ByteRows, np.ndarray]:
        """(the layout for this row, its states): the values that can occur in this row (those
        present now and the row's endpoint labels) set the key's label shift."""
        possible = np.union1d(np.unique(states), np.concatenate([[EMPTY, OPEN, CLOSE], FIRST_LABEL + row_labels]))
        self.shift = _label_shift(possible)
        self.possible = frozenset(possible.tolist())
        return self, states

    def holds(self, label: int) -> bool:
        """Whether some state may hold ``label`` in this row."""
        return FIRST_LABEL + label in self.possible

    def slot(self, states: np.ndarray, j: int) -> np.ndarray:
        return states[:, j]

    def with_pair(self, states: np.ndarray, c: int, down, right) -> np.ndarray:
        """``states`` (a fresh copy, changed in place) with slots ``c`` and ``c + 1`` set."""
        states[:, c] = down
        states[:, c + 1] = right
        return states

    def with_each(self, states: np.ndarray, positions: np.ndarray, values) -> np.ndarray:
        """``states`` (a fresh copy, changed in place) with each row's slot ``positions[row]`` set."""
        states[np.arange(len(states)), positions] = values
        return states

    def partners(self, states: np.ndarray, positions: np.ndarray) -> np.ndarray:
        return _partners(states, positions)

    def keys(self, states: np.ndarray) -> np.ndarray:
        """Sort keys, equal exactly for equal rows: up to 8 slots as bytes in a 64-bit word, up
        to 16 as half-bytes where the row has a shift (labels moved down by it so that every
        value is below 16; there is none when the labels in play span more than 13 values),
        else the rows as bytes."""
        count, slots = states.shape
        if states.dtype == np.uint8 and slots <= 8:
            padded = np.zeros((count, 8), dtype=np.uint8)
            padded[:, :slots] = states
            return padded.view(np.uint64).ravel()
        shift = self.shift
        if shift is not None and slots <= 16:
            padded = np.empty((count, 16), dtype=np.uint8)
            padded[:, :slots] = states if shift == 0 else states - (states >= FIRST_LABEL).astype(states.dtype) * states.dtype.type(shift)
            padded[:, slots:] = 0
            words = padded.view(np.uint64)
            return words[:, 0] | (words[:, 1] << np.uint64(4))  # two half-bytes per byte
        rows = np.ascontiguousarray(states)
        return rows.view(np.dtype((np.void, rows.dtype.itemsize * slots))).ravel()

    def next_row(self, states: np.ndarray) -> np.ndarray:
        """Every slot one place on (the last one is empty at the end of a row)."""
        return np.concatenate([np.zeros((len(states), 1), dtype=states.dtype), states[:, :-1]], axis=1)

    def finished(self, states: np.ndarray) -> np.ndarray:
        return np.all(states == EMPTY, axis=1)


PACKED_MAX_SLOTS = 16  # four bits per slot in one 64-bit word
_NIBBLE = np.uint64(15)
_NO_CODE = 255  # (a label no state holds: no slot value equals it)


class _PackedRows:
    """Frontier states packed in one 64-bit word each, four bits per slot (slot ``j`` in bits
    ``4j`` to ``4j + 3``), on boards of up to PACKED_MAX_SLOTS slots: gathering, sorting and
    comparing states then work on single words, faster than byte rows (encodings/numberlink.md,
    "Notes from frontier.py").
    The labels get the values 3..15 afresh at the start of each row: those some state holds and
    the row's endpoints, so a label keeps its value for the whole row and two labels in play
    never share one. When more than 13 are in play, the states are unpacked into byte rows
    for the rest of the count (:meth:`begin_row`)."""

    def __init__(self, slots: int, labels: int) -> None:
        assert slots <= PACKED_MAX_SLOTS
        self.slots, self.labels = slots, labels
        self.values = 16  # (slot values below this)
        self.codes: dict[int, int] = {}  # label index -> its value in this row
        self.mask = np.uint64((1 << (4 * slots)) - 1)

    def start(self) -> np.ndarray:
        return np.zeros(1, dtype=np.uint64)

    def code(self, label: int) -> int:
        return self.codes.get(label, _NO_CODE)

    def holds(self, label: int) -> bool:
        """Whether some state may hold ``label`` in this row."""
        return label in self.codes

    def begin_row(self, states: np.ndarray, row_labels: np.ndarray) -> tuple[_ByteRows | _PackedRows, np.ndarray]:
        """(the layout for this row, its states): the labels present and the row's own get
        values 3, 4, ... in this order (the states rewritten where a value changes), or, past 13
        labels, the states as byte rows."""
        present = np.uint64(0)
        for j in range(self.slots):
            present |= np.bitwise_or.reduce(np.uint64(1) << self.slot(states, j))
        label_of = {value: label for label, value in self.codes.items()}
        held = [label_of[value] for value in range(FIRST_LABEL, 16) if int(present) >> value & 1]
        in_play = list(dict.fromkeys(held + [int(label) for label in row_labels]))
        if FIRST_LABEL + len(in_play) > 16:
            return self._unpacked(states, row_labels)
        codes = {label: FIRST_LABEL + i for i, label in enumerate(in_play)}
        if any(self.codes[label] != codes[label] for label in held):
            table = np.arange(16, dtype=np.uint64)
            for label in held:
                table[self.codes[label]] = codes[label]
            states = self._translated(states, table)
        self.codes = codes
        return self, states

    def _translated(self, states: np.ndarray, table: np.ndarray) -> np.ndarray:
        """Every slot value ``v`` replaced by ``table[v]``."""
        out = np.zeros_like(states)
        for j in range(self.slots):
            out |= _rows(table, self.slot(states, j).astype(np.intp)) << np.uint64(4 * j)
        return out

    def _unpacked(self, states: np.ndarray, row_labels: np.ndarray) -> tuple[_ByteRows, np.ndarray]:
        """The byte layout for the row with endpoints ``row_labels`` and ``states`` as its rows
        (labels by their own numbers)."""
        rows = _ByteRows(self.slots, self.labels)
        table = np.arange(16, dtype=np.int64)
        for label, value in self.codes.items():
            table[value] = FIRST_LABEL + label
        out = np.empty((len(states), self.slots), dtype=rows.dtype)
        for j in range(self.slots):
            out[:, j] = _rows(table, self.slot(states, j).astype(np.intp))
        return rows.begin_row(out, row_labels)[0], out

    def slot(self, states: np.ndarray, j: int) -> np.ndarray:
        return (states >> np.uint64(4 * j)) & _NIBBLE

    def with_pair(self, states: np.ndarray, c: int, down, right) -> np.ndarray:
        shift = np.uint64(4 * c)
        kept = states & ~((_NIBBLE << shift) | (_NIBBLE << (shift + np.uint64(4))))
        return kept | (np.asarray(down, dtype=np.uint64) << shift) | (np.asarray(right, dtype=np.uint64) << (shift + np.uint64(4)))

    def with_each(self, states: np.ndarray, positions: np.ndarray, values) -> np.ndarray:
        shift = positions.astype(np.uint64) * np.uint64(4)
        return (states & ~(_NIBBLE << shift)) | (np.asarray(values, dtype=np.uint64) << shift)

    def partners(self, states: np.ndarray, positions: np.ndarray) -> np.ndarray:
        return _partners(states, positions, self._partners_at)

    def _partners_at(self, states: np.ndarray, position: int) -> np.ndarray:
        """As :func:`_partners_at`, the bracket depth counted slot by slot away from
        ``position`` (only the slots on that side are read)."""
        out = np.empty(len(states), dtype=np.int64)
        opening = self.slot(states, position) == OPEN
        for side, slots, up, down in ((opening, range(position + 1, self.slots), OPEN, CLOSE),
                                      (~opening, range(position - 1, -1, -1), CLOSE, OPEN)):
            sub = states[side]
            if not len(sub):
                continue
            depth = np.zeros(len(sub), dtype=np.int8)
            found = np.full(len(sub), -1, dtype=np.int64)
            for j in slots:
                value = self.slot(sub, j)
                depth += (value == up).view(np.int8) - (value == down).view(np.int8)
                found[(depth == -1) & (found < 0)] = j
                if j & 3 == 0 and found.min() >= 0:
                    break
            out[side] = found
        return out

    def keys(self, states: np.ndarray) -> np.ndarray:
        return states

    def next_row(self, states: np.ndarray) -> np.ndarray:
        return (states << np.uint64(4)) & self.mask

    def finished(self, states: np.ndarray) -> np.ndarray:
        return states == 0


def _layout(slots: int, labels: int) -> _ByteRows | _PackedRows:
    """Packed words where the slots fit in one, else byte rows."""
    return _PackedRows(slots, labels) if slots <= PACKED_MAX_SLOTS else _ByteRows(slots, labels)


def _step(layout: _ByteRows | _PackedRows, states: np.ndarray, c: int, kind: int, can_down: bool, can_right: bool,
          cover_all: bool, pair_keys: np.ndarray | None = None, second: bool = False) -> _Children:
    """Every legal choice at the cell whose left slot is ``c`` (its up slot is ``c + 1``).
    ``pair_keys`` (see :func:`_crossing`) marks the labels both of whose endpoints lie before
    this cell; when ``second`` (the cell is the second endpoint of its label), children whose
    label's pair crosses the pair of such a label are left out."""
    out = _Children()
    left, up = layout.slot(states, c), layout.slot(states, c + 1)
    none_in = (left == EMPTY) & (up == EMPTY)
    one_in = (left == EMPTY) != (up == EMPTY)
    two_in = (left != EMPTY) & (up != EMPTY)

    def with_slots(rows: np.ndarray, down_value, right_value) -> np.ndarray:
        return layout.with_pair(_rows(states, rows), c, down_value, right_value)

    def hand_on(rows: np.ndarray, value, checked: np.ndarray | None = None) -> None:
        """A path end arriving at a cell that continues it down or right (with ``checked``,
        the pair keys of :func:`_crossing`: children whose pairs cross left out)."""
        if can_down:
            out.add(*_uncrossed(layout, with_slots(rows, value, EMPTY), rows, c, value, checked), DOWN)
        if can_right:
            out.add(*_uncrossed(layout, with_slots(rows, EMPTY, value), rows, c + 1, value, checked), RIGHT)

    if kind == -1:  # blocked
        rows = np.flatnonzero(none_in)
        out.add(_rows(states, rows), rows, 0)
        return out
    if kind >= 0:  # an endpoint of label `kind`
        code = layout.code(kind)
        checked = pair_keys if second else None  # (its second endpoint: the label's two ends now hang)
        hand_on(np.flatnonzero(none_in), code, checked)
        arriving = left + up  # one of them is EMPTY
        rows = np.flatnonzero(one_in & (arriving == code))  # the label's path is complete
        out.add(with_slots(rows, EMPTY, EMPTY), rows, 0)
        rows = np.flatnonzero(one_in & (arriving < FIRST_LABEL))  # a piece takes the label
        if len(rows):
            position = np.where(_rows(left, rows) != EMPTY, c, c + 1)
            child = _rows(states, rows)
            ends = layout.partners(child, position)
            child = layout.with_pair(layout.with_each(child, ends, code), c, EMPTY, EMPTY)
            out.add(*_uncrossed(layout, child, rows, ends, code, checked), 0)
        return out
    # a free cell
    if can_down and can_right:
        rows = np.flatnonzero(none_in)
        out.add(with_slots(rows, OPEN, CLOSE), rows, DOWN | RIGHT)
    if not cover_all:
        rows = np.flatnonzero(none_in)
        out.add(_rows(states, rows), rows, 0)
    rows = np.flatnonzero(one_in)
    hand_on(rows, _rows(left + up, rows))
    rows = np.flatnonzero(two_in)
    _join(layout, states, c, rows, _rows(left, rows), _rows(up, rows), out)
    return out


def _join(layout: _ByteRows | _PackedRows, states: np.ndarray, c: int, rows: np.ndarray, a: np.ndarray, b: np.ndarray,
          out: _Children) -> None:
    """A free cell entered from the left and from above (``rows``, with the values ``a`` and
    ``b`` in those two slots): the two things meet there."""
    if not len(rows):
        return
    a_label, b_label = a >= FIRST_LABEL, b >= FIRST_LABEL
    # two labels: the same one completes its path, two different ones never meet
    same = rows[a_label & b_label & (a == b)]
    if len(same):
        out.add(layout.with_pair(_rows(states, same), c, EMPTY, EMPTY), same, 0)
    # a label and a piece: the piece's other end takes the label
    mixed = a_label != b_label
    if mixed.any():
        sub = rows[mixed]
        child = _rows(states, sub)
        label = np.where(a_label[mixed], a[mixed], b[mixed])
        piece_at = np.where(a_label[mixed], c + 1, c)
        child = layout.with_each(child, layout.partners(child, piece_at), label)
        out.add(layout.with_pair(child, c, EMPTY, EMPTY), sub, 0)
    # two pieces: "(" then ")" are the two ends of one piece (a stray cycle: never);
    # ")" "(" join two pieces whose outer ends already pair up; "((" / "))": the inner partner turns
    pieces = ~a_label & ~b_label
    join = rows[pieces & (a == CLOSE) & (b == OPEN)]
    if len(join):
        out.add(layout.with_pair(_rows(states, join), c, EMPTY, EMPTY), join, 0)
    for value in (OPEN, CLOSE):
        sub = rows[pieces & (a == value) & (b == value)]
        if not len(sub):
            continue
        child = _rows(states, sub)
        # "((": b's partner lies inside a's and becomes "("; "))": a's partner becomes ")"
        inner = layout.partners(child, np.full(len(sub), c + 1 if value == OPEN else c))
        child = layout.with_each(child, inner, value)
        out.add(layout.with_pair(child, c, EMPTY, EMPTY), sub, 0)


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


def _label_shift(values: np.ndarray) -> int | None:
    """How far to move the label values down so that all of ``values`` (the slot values that can
    occur) are below 16 with labels still from FIRST_LABEL up; None when they span too many."""
    labels = values[values >= FIRST_LABEL]
    if not len(labels) or labels.max() < 16:
        return 0
    if int(labels.max()) - int(labels.min()) > 15 - FIRST_LABEL:
        return None
    return int(labels.min()) - FIRST_LABEL


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
