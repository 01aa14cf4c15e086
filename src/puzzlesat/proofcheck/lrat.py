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
from typing import Iterable, Sequence

from .drat import Outcome


class _Refused(Exception):
    pass


def _clause_text(lits: Sequence[int]) -> str:
    return " ".join(map(str, lits)) or "the empty clause"


def check(clauses: Sequence[Sequence[int]], proof: Iterable[str], *, time_limit: float | None = None) -> Outcome:
    """Check the LRAT ``proof`` (lines of text) of the unsatisfiability of ``clauses`` (the
    formula's clauses, numbered from 1), within ``time_limit`` seconds when given."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    m = len(clauses)
    if not all(clauses):
        return Outcome(True, "the formula holds the empty clause", 0, 0, 0)
    lemmas: dict[int, list[int]] = {}
    deleted: set[int] = set()  # original clauses deleted (lemmas deleted leave ``lemmas``)
    last = m
    count = deletions = 0
    try:
        for number, line in enumerate(proof, 1):
            tokens = line.split()
            if not tokens or tokens[0] == "c":
                continue
            if deadline is not None and number % 1024 == 0 and time.perf_counter() > deadline:
                return Outcome(False, f"out of time ({time_limit:g} s) after {count} lemmas", count, deletions, 0)
            if tokens[-1] != "0":
                raise _Refused(f"proof line {number} does not end with 0")
            if len(tokens) > 1 and tokens[1] == "d":
                deletions += 1
                for t in tokens[2:-1]:
                    if lemmas.pop(int(t), None) is None:
                        deleted.add(int(t))
                continue
            ident = int(tokens[0])
            if ident <= last:
                raise _Refused(f"proof line {number}: lemma {ident} does not come after clause {last}")
            end = tokens.index("0", 1)
            lits = list(map(int, tokens[1:end]))
            false = set(lits)  # the literals that are false: the lemma's, then those of the units found
            for h in map(int, tokens[end + 1:-1]):
                if 0 < h <= m and h not in deleted:
                    clause = clauses[h - 1]
                elif h > m and h in lemmas:
                    clause = lemmas[h]
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


def _bad_hint(ident: int, h: int, m: int) -> str:
    if h <= 0:
        return f"lemma {ident}: hint {h} asks for a RAT step, which this checker does not take"
    return f"lemma {ident}: hint {h} names no clause (none earlier, or deleted)"
