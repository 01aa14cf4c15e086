"""The LRAT check of :mod:`.lrat`, done for every lemma at once with numpy: a proof the plain
checker would take in tens of milliseconds is taken in a few. It confirms a proof or gives up
(None), and the caller then runs the plain checker, which says why a proof is refused (or
confirms one written in a way this reading does not take: deletions, comments, a hint that
names a clause satisfied already).

A lemma's hints, under the lemma's negation, must each leave one literal not false (its unit,
made true), until one leaves none. So each literal of a hint clause other than its unit is
false: either in the lemma, or the negation of the unit of an earlier hint of the same lemma.
The units are found first (the one literal of a hint clause neither in the lemma nor negated
in an earlier hint clause of the lemma), then every literal is checked against the units so
found, for all lemmas together: one sort of the (lemma, variable, hint) triples.

>>> import numpy as np
>>> lits, starts = np.array([1, 2, -1, 2, 1, -2, -1, -2]), np.array([0, 2, 4, 6, 8])
>>> check(lits, starts, "5 2 0 1 2 0\\n6 0 5 3 4 0\\n").reason
'the empty clause is derived'
>>> check(lits, starts, "5 2 0 1 2 0\\n6 0 5 3 0\\n") is None  # refused here: the plain checker says why
True
"""

from __future__ import annotations

import warnings

import numpy as np

from .drat import Outcome

_NUMBERS = b"0123456789- \n"


def check(lits: np.ndarray, starts: np.ndarray, text: str) -> Outcome | None:
    """Check the LRAT proof ``text`` of the formula whose clause ``i`` (from 1) is
    ``lits[starts[i - 1]:starts[i]]``: an accepting Outcome, or None when not confirmed."""
    m = starts.size - 1
    numbers = _numbers(text)
    if numbers is None or m < 1 or np.any(np.diff(starts) == 0):
        return None
    tokens, line_last = numbers
    zeros = np.flatnonzero(tokens == 0)
    if zeros.size % 2 or not zeros.size or not np.array_equal(np.flatnonzero(line_last), zeros[1::2]):
        return None  # a line is not "id lits 0 hints 0"
    head = np.concatenate(([0], zeros[1:-1:2] + 1))
    mid, end = zeros[0::2], zeros[1::2]
    if np.any(mid == head):
        return None  # a line without its lemma's number
    empty = np.flatnonzero(mid == head + 1)
    if not empty.size:
        return None  # no empty clause
    count = int(empty[0]) + 1  # (lemmas after the first empty clause are not read)
    head, mid, end = head[:count], mid[:count], end[:count]
    ids = tokens[head]
    if ids[0] <= m or np.any(np.diff(ids) <= 0) or np.any(end == mid + 1):
        return None  # numbers out of order, or a lemma without hints
    lemma_at, lemma_owner = _spans(head + 1, mid)
    hint_at, hint_owner = _spans(mid + 1, end)
    hints = tokens[hint_at]
    # every clause (originals, then lemmas) as one array; a hint's clause by its place in it
    lemma_lits = tokens[lemma_at]
    every = np.concatenate((lits, lemma_lits))
    lemma_size = np.bincount(lemma_owner, minlength=count)
    first = np.concatenate((starts[:-1], lits.size + np.cumsum(lemma_size) - lemma_size))
    size = np.concatenate((np.diff(starts), lemma_size))
    place = np.searchsorted(ids, hints)
    named = np.minimum(place, count - 1)
    is_lemma = hints > m
    if np.any(hints <= 0) or np.any(is_lemma & ((ids[named] != hints) | (place >= hint_owner))):
        return None  # a RAT hint, or a hint naming no earlier clause
    clause = np.where(is_lemma, m + named, hints - 1)
    return _units_hold(every, first[clause], size[clause], hint_owner, lemma_lits, lemma_owner, count)


def _units_hold(every, clause_first, clause_size, hint_owner, lemma_lits, lemma_owner, count) -> Outcome | None:
    """Whether each lemma's hints make units one after another until one clause is false."""
    n_hints = clause_first.size
    at, hint = _spans(clause_first, clause_first + clause_size)
    lit = every[at]
    variables = int(max(np.abs(lit).max(), np.abs(lemma_lits).max(initial=0))) + 1
    if float(count) * variables * (n_hints + 1) * 2 >= 2.0 ** 62:
        return None  # (too large to pack in one number)
    # (lemma, variable, step, sign) packed in one number: step 0 for the lemma's own literals,
    # q + 1 for hint q; sorted, each (lemma, variable) is a run, its steps in order
    owner = np.concatenate((lemma_owner, hint_owner[hint]))
    step = np.concatenate((np.zeros(lemma_lits.size, dtype=np.int64), hint + 1))
    signed = np.concatenate((lemma_lits, lit))
    key = np.sort(((owner * variables + np.abs(signed)) * (n_hints + 1) + step) * 2 + (signed < 0))
    negative = (key & 1).astype(bool)
    step = (key >> 1) % (n_hints + 1)
    group = (key >> 1) // (n_hints + 1)
    run_start = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    run = np.cumsum(np.concatenate(([False], group[1:] != group[:-1])))
    in_lemma = step == 0
    never = n_hints + 2

    def first(mask):  # per run and sign: the first step among ``mask``
        return [np.minimum.reduceat(np.where(mask & (negative == s), step, never), run_start)[run] for s in (False, True)]

    held = [np.maximum.reduceat(in_lemma & (negative == s), run_start)[run] for s in (False, True)]
    own = np.where(negative, held[1], held[0])  # the literal itself is in the lemma: false
    hinted = first(~in_lemma)
    negated = np.where(negative, hinted[0], hinted[1]) < step  # its negation is in an earlier hint
    open_ = ~in_lemma & ~own & ~negated  # the one literal per hint that becomes its unit
    left = np.bincount(step[open_] - 1, minlength=n_hints)
    bounds = np.searchsorted(hint_owner, np.arange(count))
    stop = np.minimum.reduceat(np.where(left != 1, np.arange(n_hints), n_hints), bounds)
    if np.any(stop >= n_hints) or np.any(hint_owner[np.minimum(stop, n_hints - 1)] != np.arange(count)) \
            or np.any(left[np.minimum(stop, n_hints - 1)] != 0):
        return None  # some lemma has a hint with two literals open, or no hint left none
    live = ~in_lemma & (step - 1 <= stop[group // variables])  # hints up to the false clause
    unit = live & open_
    units = first(unit)
    false = own | (np.where(negative, units[0], units[1]) < step)
    if not np.all(false | unit | ~live):
        return None
    return Outcome(True, "the empty clause is derived", count, 0, 0)


def _numbers(text: str):
    """The proof's numbers, and which of them ends a line; None when it holds anything but
    numbers, spaces and line breaks."""
    raw = text.encode("ascii", errors="replace") if isinstance(text, str) else bytes(text)
    if raw.translate(None, _NUMBERS) or not raw.strip():
        return None
    raw = raw if raw.endswith(b"\n") else raw + b"\n"
    chars = np.frombuffer(raw, dtype=np.uint8)
    blank = (chars == 32) | (chars == 10)
    last = np.flatnonzero(~blank[:-1] & blank[1:])  # the last character of each number
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tokens = np.fromstring(raw, dtype=np.int64, sep=" ")
        except ValueError:
            return None
    if tokens.size != last.size:
        return None  # something that is no number ("-", "1-2")
    return tokens, chars[last + 1] == 10


def _spans(starts: np.ndarray, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions start..stop-1 of each span, concatenated, and the span each belongs to."""
    lengths = stops - starts
    owner = np.repeat(np.arange(lengths.size), lengths)
    offsets = np.cumsum(lengths) - lengths
    return np.arange(int(lengths.sum())) - offsets[owner] + starts[owner], owner
