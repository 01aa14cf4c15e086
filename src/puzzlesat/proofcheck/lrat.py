"""An LRAT proof checker, written plainly: each lemma names the clauses (hints) that, under the
lemma's negation, become unit one after another until one is false; the checker follows the
hints and nothing else, so a proof is checked in time linear in its size. It shares no code with
any solver or encoder: it takes the formula's clauses and the proof's text.

A proof is accepted when every lemma up to the empty clause is checked. Lemma numbers follow the
formula's clauses (1..m) and increase; a hint names an original clause or an earlier lemma that
was not deleted. Only RUP steps are read (positive hints): a RAT step (a negative hint) is refused.

>>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
>>> check(formula, ["5 2 0 1 2 0", "6 0 5 3 4 0"]).valid
True
>>> outcome = check(formula[:3], ["4 2 0 1 2 0", "5 0 4 3 0"])
>>> outcome.valid, outcome.reason
(False, 'lemma 5 (the empty clause): its hints end with no clause made false')
"""

from __future__ import annotations

import time
import warnings
from typing import Iterable, Iterator, NamedTuple, Sequence

import numpy as np

from .drat import Outcome


class _Refused(Exception):
    pass


def _clause_text(lits: Sequence[int]) -> str:
    return " ".join(map(str, lits)) or "the empty clause"


class Flat(NamedTuple):
    """A formula's clauses as one list of literals, where each clause starts in it (and the
    last ends), and whether one is empty: :func:`check` reads a hinted clause from them, and
    no list per clause is made."""

    lits: list[int]
    starts: list[int]
    empty: bool


def check(clauses: Sequence[Sequence[int]] | Flat, proof: Iterable[str] | str, *, time_limit: float | None = None) -> Outcome:
    """Check the LRAT ``proof`` (lines of text, or the whole text) of the unsatisfiability of
    ``clauses`` (the formula's clauses, numbered from 1), within ``time_limit`` seconds when given.

    >>> check(Flat([1, 2, -1, 2, 1, -2, -1, -2], [0, 2, 4, 6, 8], False), "5 2 0 1 2 0\\n6 0 5 3 4 0\\n").reason
    'the empty clause is derived'
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    flat, starts = (clauses.lits, clauses.starts) if isinstance(clauses, Flat) else (None, None)
    m = len(starts) - 1 if flat is not None else len(clauses)
    if clauses.empty if flat is not None else not all(clauses):
        return Outcome(True, "the formula holds the empty clause", 0, 0, 0)
    lemmas: dict[int, list[int]] = {}
    deleted: set[int] = set()  # original clauses deleted (lemmas deleted leave ``lemmas``)
    last = m
    count = deletions = 0
    steps = (isinstance(proof, str) and _numbered_steps(proof)) or _steps(proof.splitlines() if isinstance(proof, str) else proof)
    try:
        for number, ident, lits, hints in steps:
            if deadline is not None and number % 1024 == 0 and time.perf_counter() > deadline:
                return Outcome(False, f"out of time ({time_limit:g} s) after {count} lemmas", count, deletions, 0)
            if lits is None:  # a deletion: ``hints`` are the clauses deleted
                deletions += 1
                for t in hints:
                    if lemmas.pop(t, None) is None:
                        deleted.add(t)
                continue
            if ident <= last:
                raise _Refused(f"proof line {number}: lemma {ident} does not come after clause {last}")
            false = set(lits)  # the literals that are false: the lemma's, then those of the units found
            for h in hints:
                if h > m:
                    clause = lemmas.get(h)
                    if clause is None:
                        raise _Refused(_bad_hint(ident, h, m))
                elif h > 0 and h not in deleted:
                    clause = clauses[h - 1] if flat is None else flat[starts[h - 1]:starts[h]]
                else:
                    raise _Refused(_bad_hint(ident, h, m))
                unit = 0
                for lit in clause:
                    if lit not in false:
                        if unit:
                            raise _Refused(f"lemma {ident} ({_clause_text(lits)}): hint {h} ({_clause_text(clause)}) is not unit")
                        unit = lit
                if not unit:
                    break  # a false clause: the lemma holds
                false.add(-unit)
            else:
                raise _Refused(f"lemma {ident} ({_clause_text(lits)}): its hints end with no clause made false")
            count += 1
            lemmas[ident] = lits
            last = ident
            if not lits:
                return Outcome(True, "the empty clause is derived", count, deletions, 0)
    except _Refused as refused:
        return Outcome(False, str(refused), count, deletions, 0)
    except ValueError as error:
        return Outcome(False, f"the proof does not read as LRAT: {error}", count, deletions, 0)
    return Outcome(False, "the proof ends without deriving the empty clause", count, deletions, 0)


def _steps(lines: Iterable[str]) -> Iterator[tuple[int, int, list[int] | None, list[int]]]:
    """(line number, lemma number, its literals, its hints) per line; a deletion has literals
    None and the clauses deleted as hints. ValueError or _Refused for a line that does not read."""
    for number, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens or tokens[0] == "c":
            continue
        if tokens[-1] != "0":
            raise _Refused(f"proof line {number} does not end with 0")
        if len(tokens) > 1 and tokens[1] == "d":
            yield number, int(tokens[0]), None, list(map(int, tokens[2:-1]))
            continue
        end = tokens.index("0", 1)
        yield number, int(tokens[0]), list(map(int, tokens[1:end])), list(map(int, tokens[end + 1:-1]))


def _numbered_steps(text: str) -> list | None:
    """:func:`_steps` of a proof text made of numbers alone, a lemma a line (as certificates
    write it), read all at once; None for any other text (it is then read line by line)."""
    if text.translate(_NOT_NUMBERS) or not text.endswith("\n") or "\n\n" in text or text.startswith("\n"):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tokens = np.fromstring(text, dtype=np.int64, sep=" ")
    chars = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    blank = (chars == 32) | (chars == 10)
    last = np.flatnonzero(~blank[:-1] & blank[1:])  # the last character of each number
    if tokens.size != last.size or (tokens.size and np.abs(tokens).max() >= 2 ** 62):
        return None  # (something that is no number; a number past int64, which numpy would clip)
    zeros = np.flatnonzero(tokens == 0)
    if not zeros.size or zeros.size % 2 or not np.array_equal(np.flatnonzero(chars[last + 1] == 10), zeros[1::2]):
        return None  # a line that is not "number literals 0 hints 0"
    heads = np.concatenate(([0], zeros[1:-1:2] + 1))
    if np.any(zeros[0::2] == heads):
        return None
    t = tokens.tolist()
    bounds = zip(heads.tolist(), zeros[0::2].tolist(), zeros[1::2].tolist())
    return [(number, t[h], t[h + 1:a], t[a + 1:b]) for number, (h, a, b) in enumerate(bounds, 1)]


_NOT_NUMBERS = str.maketrans("", "", "0123456789- \n")


def _bad_hint(ident: int, h: int, m: int) -> str:
    if h <= 0:
        return f"lemma {ident}: hint {h} asks for a RAT step, which this checker does not take"
    return f"lemma {ident}: hint {h} names no clause (none earlier, or deleted)"
