"""A proof-logging solver for certificates: CaDiCaL 1.9.5 (PySAT's build) tracing an LRAT proof,
which :meth:`ProofSolver.proof` turns into a standard, trimmed LRAT proof of the clauses added.

CaDiCaL numbers clauses with one counter: each original clause takes the next number when it is
added, and each derived clause (a lemma) too, also the lemmas it derives while clauses are still
being added (a unit propagates at once) or between solves. So the original clauses hold exactly
the numbers that no lemma of the trace holds, in the order they were added. The proof written
numbers them 1..m as an LRAT checker expects, keeps only the lemmas the empty clause rests on
(followed back through their hints) and numbers those m + 1, m + 2, ... with no deletions (an
LRAT proof needs none: every step is checked by its own hints). See ``encodings/certificates.md``.

>>> s = ProofSolver()
>>> s.add([[1, 2], [-1, 2], [1, -2]])
>>> s.solve(time_limit=None), s.model()[:2]
(True, [1, 2])
>>> s.add([[-1, -2]])
>>> s.solve(time_limit=None)
False
>>> s.proof()  # lemma 5 is -2 (from clauses 3 and 4), 6 is 1, 7 the empty clause
['5 -2 0 3 4 0', '6 1 0 5 1 0', '7 0 6 5 2 0']
>>> s.close()
"""

from __future__ import annotations

import tempfile
import time
from collections import deque
from itertools import repeat

import numpy as np
import pysolvers  # PySAT's compiled module: the C entry points of its solvers
from pysat.solvers import Cadical195

from .numtext import lines_text

NAME = "pysat cadical195 (LRAT, trimmed)"


class ProofSolver:
    """CaDiCaL with an LRAT trace; clauses are added in the order a certificate's formula lists
    them. ``options``: CaDiCaL options set before the trace starts."""

    def __init__(self, options: dict | None = None) -> None:
        self._solver = Cadical195()
        self._solver.configure({**(options or {}), "lrat": 1, "binary": 1})  # (binary: half the bytes to write)
        self._trace = tempfile.TemporaryFile()
        # as PySAT's own with_proof does, so that its delete() closes the trace
        self._solver.prfile = self._trace
        self._solver.prfp = pysolvers.cadical195_tracepr(self._solver.cadical, self._trace)
        self.added = 0
        self.empty = False  # an empty clause was added: the formula is refuted on its face

    def add(self, clauses: list[list[int]]) -> None:
        """Add clauses (lists of ints), straight to the C entry point (PySAT's wrappers only
        record status)."""
        deque(map(pysolvers.cadical195_add_cl, repeat(self._solver.cadical), clauses), maxlen=0)
        self.added += len(clauses)
        self.empty = self.empty or not all(clauses)

    def solve(self, *, time_limit: float | None) -> bool | None:
        """True, False, or None when ``time_limit`` ran out. PySAT's CaDiCaL ignores
        ``interrupt``, so a limit is kept in conflict-budgeted steps (the trace runs on)."""
        if time_limit is None:
            return self._solver.solve()
        deadline = time.perf_counter() + time_limit
        budget, started = 2000, time.perf_counter()
        while True:
            self._solver.conf_budget(budget)
            verdict = self._solver.solve_limited()
            if verdict is not None:
                return verdict
            now = time.perf_counter()
            if now >= deadline:
                return None
            rate = self._solver.accum_stats().get("conflicts", 0) / max(now - started, 1e-3)
            budget = int(max(100, min(2 * budget, rate * (deadline - now))))

    def model(self) -> list[int]:
        return self._solver.get_model()

    def proof(self) -> list[str] | None:
        """After an unsatisfiable solve: the trimmed LRAT proof (lines), or None when the trace
        cannot be read as this module expects (numbers that do not add up, a RAT hint). A
        formula holding the empty clause needs no proof: [] (a checker sees that clause)."""
        if self.empty:
            return []
        pysolvers.flushpr(self._solver.prfp)
        self._trace.seek(0)
        return renumbered(self._trace.read(), self.added)

    def close(self) -> None:
        self._solver.delete()

    def __enter__(self) -> "ProofSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def renumbered(trace: bytes, originals: int) -> list[str] | None:
    """CaDiCaL's binary LRAT ``trace`` of a formula of ``originals`` clauses as a standard LRAT
    proof (originals 1..m, text lines), trimmed to the lemmas the last one (the empty clause)
    rests on; None when the trace does not read so.

    >>> trace = bytes([97, 6, 2, 0, 2, 4, 0, 100, 2, 0, 97, 10, 0, 6, 8, 0])  # a 3 1 0 1 2 0, d 1 0, a 5 0 3 4 0
    >>> renumbered(trace, 3)  # the third original took number 4
    ['4 1 0 1 2 0', '5 0 4 3 0']
    """
    records = _additions(_numbers(trace))
    if records is None:
        return None
    ids, lit_tokens, lit_owner, hint_tokens, hint_owner = records
    count = len(ids)
    if not count:
        return []
    top = originals + count
    if ids[0] < 1 or np.any(np.diff(ids) <= 0) or ids[-1] > top:
        return None  # numbers out of order, or some number neither an original nor a lemma took
    if np.any(hint_tokens & 1):
        return None  # a RAT hint (negative): not in this proof's language
    if np.any(lit_owner == count - 1):
        return None  # the trace does not end with the empty clause
    hints = hint_tokens >> 1
    at = np.searchsorted(ids, hints)
    is_lemma = ids[np.minimum(at, count - 1)] == hints
    kept = _needed(count, hint_owner, at, is_lemma)
    # new numbers: a lemma kept takes the next one after the originals; an original added after
    # the first lemma moves down by the lemmas before it (one added before keeps its own)
    new_lemma = np.cumsum(kept) + originals
    renamed = np.where(is_lemma, new_lemma[np.minimum(at, count - 1)], hints - at)
    keep_lits, keep_hints = kept[lit_owner], kept[hint_owner]
    lits = lit_tokens[keep_lits] >> 1
    lits = np.where(lit_tokens[keep_lits] & 1, -lits, lits)
    rank = new_lemma - originals - 1  # (a kept lemma's place among those kept)
    return _lines(new_lemma[kept], lits, rank[lit_owner[keep_lits]], renamed[keep_hints], rank[hint_owner[keep_hints]]).splitlines()


def _numbers(trace: bytes) -> np.ndarray:
    """The numbers of a binary LRAT trace, each as written (7 bits a byte, least significant
    first, the high bit set on all but the last byte); the letters ``a`` and ``d`` read as
    the one-byte numbers 97 and 100."""
    raw = np.frombuffer(trace, dtype=np.uint8)
    if not raw.size:
        return np.zeros(0, dtype=np.int64)
    ends = np.flatnonzero(raw < 128)
    if not ends.size or ends[-1] != raw.size - 1:
        return np.zeros(1, dtype=np.int64)  # (a number cut short: no record reads)
    length = np.diff(ends, prepend=-1)
    value = raw[ends].astype(np.int64)
    for k in range(1, int(length.max())):  # the bytes below the last, from the top down
        more = length > k
        value = np.where(more, (value << 7) | (raw[np.where(more, ends - k, 0)] & 127), value)
    return value


def _additions(numbers: np.ndarray):
    """The addition records of a binary LRAT trace (``a id lits 0 hints 0``; deletions ``d ids
    0`` skipped): (ids, the literals' numbers as written and their record, the hints' likewise),
    or None when the records do not read."""
    zeros = np.flatnonzero(numbers == 0)
    size, found = numbers.size, zeros.size
    if not size:
        return np.zeros(0, dtype=np.int64), *[np.zeros(0, dtype=np.int64)] * 4
    after = numbers[np.minimum(zeros + 1, size - 1)].tolist()  # the number after each zero
    first_zero, marker, i = [], int(numbers[0]), 0
    while True:  # a record ends at its second zero (an addition) or its first (a deletion)
        if marker == 97:
            first_zero.append(i)
            i += 2
        elif marker == 100:
            i += 1
        else:
            return None
        if i >= found:
            break
        marker = after[i - 1]
    if i != found or zeros[-1] != size - 1:
        return None
    which = np.array(first_zero, dtype=np.int64)
    head = np.where(which > 0, zeros[np.maximum(which - 1, 0)] + 1, 0)  # the record's letter
    mid, end = zeros[which], zeros[which + 1]
    if np.any(mid < head + 2) or np.any(numbers[head + 1] & 1):
        return None  # a record without its number, or a negative one
    ids = numbers[head + 1] >> 1
    lit_at, lit_owner = _spans(head + 2, mid)
    hint_at, hint_owner = _spans(mid + 1, end)
    return ids, numbers[lit_at], lit_owner, numbers[hint_at], hint_owner


def _spans(starts: np.ndarray, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions start..stop-1 of each span, concatenated, and the span each belongs to."""
    lengths = stops - starts
    owner = np.repeat(np.arange(lengths.size), lengths)
    offsets = np.cumsum(lengths) - lengths
    return np.arange(int(lengths.sum())) - offsets[owner] + starts[owner], owner


def _needed(count: int, hint_owner: np.ndarray, at: np.ndarray, is_lemma: np.ndarray) -> np.ndarray:
    """Which lemmas the last one rests on, followed back through the hints that name lemmas."""
    owners, targets = hint_owner[is_lemma], at[is_lemma]
    bounds = np.searchsorted(owners, np.arange(count + 1)).tolist()
    targets = targets.tolist()
    kept = [False] * count
    kept[-1] = True
    todo = [count - 1]
    while todo:
        k = todo.pop()
        for t in targets[bounds[k]:bounds[k + 1]]:
            if not kept[t]:
                kept[t] = True
                todo.append(t)
    return np.array(kept, dtype=bool)


def _lines(ids, lits, lit_owner, hints, hint_owner) -> str:
    """LRAT text: per lemma ``id lits 0 hints 0``."""
    count = ids.size
    nlits = np.bincount(lit_owner, minlength=count)
    nhints = np.bincount(hint_owner, minlength=count)
    width = nlits + nhints + 3
    ends = np.cumsum(width)
    start = ends - width
    out = np.zeros(int(ends[-1]) if count else 0, dtype=np.int64)
    out[start] = ids
    rank = np.arange(lits.size) - (np.cumsum(nlits) - nlits)[lit_owner]
    out[start[lit_owner] + 1 + rank] = lits
    rank = np.arange(hints.size) - (np.cumsum(nhints) - nhints)[hint_owner]
    out[(start + 2 + nlits)[hint_owner] + rank] = hints
    return lines_text(out, ends - 1)
