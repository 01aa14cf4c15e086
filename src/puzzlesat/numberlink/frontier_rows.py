"""The frontier states of :mod:`.frontier` as numpy arrays: one row of bytes a state
(:class:`_ByteRows`), or one 64-bit word of four bits a slot where the frontier is short and few
labels are in play (:class:`_PackedRows`); with the bracket partners of the path pieces that hang
on the frontier.
"""

from __future__ import annotations

import numpy as np


EMPTY, OPEN, CLOSE = 0, 1, 2  # slot values; label i (0-based) is 3 + i
FIRST_LABEL = 3


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


def _label_shift(values: np.ndarray) -> int | None:
    """How far to move the label values down so that all of ``values`` (the slot values that can
    occur) are below 16 with labels still from FIRST_LABEL up; None when they span too many."""
    labels = values[values >= FIRST_LABEL]
    if not len(labels) or labels.max() < 16:
        return 0
    if int(labels.max()) - int(labels.min()) > 15 - FIRST_LABEL:
        return None
    return int(labels.min()) - FIRST_LABEL
