"""A DRAT proof checker, written plainly: forward checking with unit propagation over two
watched literals, lemma by lemma (RUP, and RAT on the lemma's first literal where RUP fails),
deletions applied as they come. It shares no code with any solver or encoder: it reads DIMACS
and DRAT text and nothing else.

A proof is accepted when every lemma is checked and the empty clause is derived (added, or
reached by unit propagation at the top level). As drat-trim does by default, a deletion of a
clause that is the reason of a top-level unit is ignored (deleting it would not weaken the
formula's consequences the checker relies on, and solvers emit such deletions).

>>> check(["1 2 0", "-1 2 0", "1 -2 0", "-1 -2 0"], ["2 0", "0"]).valid
True
>>> result = check(["1 2 0", "-1 2 0", "1 -2 0"], ["2 0", "0"])
>>> result.valid, result.reason
(False, 'lemma 2 (the empty clause) is neither RUP nor RAT')
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Outcome:
    """The verdict on one proof: ``valid``, a ``reason`` when not, and what was checked."""

    valid: bool
    reason: str
    lemmas: int
    deletions: int
    rat_lemmas: int


def parse_dimacs(lines: Iterable[str]) -> tuple[int, list[list[int]]]:
    """The variable count of the ``p cnf`` line and the clauses of a DIMACS text (comments
    skipped; a clause may span lines)."""
    nvars, clauses, current = 0, [], []
    for line in lines:
        line = line.strip()
        if not line or line[0] == "c":
            continue
        if line[0] == "p":
            parts = line.split()
            if len(parts) != 4 or parts[1] != "cnf":
                raise ValueError(f"bad header line {line!r}")
            nvars = int(parts[2])
            continue
        for token in line.split():
            lit = int(token)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if current:
        raise ValueError("the last clause is not closed by 0")
    return nvars, clauses


def parse_drat(lines: Iterable[str]) -> list[tuple[bool, list[int]]]:
    """The steps of a textual DRAT proof: (is a deletion, literals)."""
    steps = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line[0] == "c":
            continue
        deletion = line[0] == "d"
        tokens = line[1:].split() if deletion else line.split()
        lits = [int(t) for t in tokens]
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            raise ValueError(f"proof line {number} is not a clause ended by 0: {line!r}")
        steps.append((deletion, lits[:-1]))
    return steps


class _State:
    """Clauses, two watched literals each, and a trail of assignments (top level first).

    Arrays are indexed by the literal itself: Python's negative indices put ``-v`` at
    ``len - v``, so a list of ``2n + 1`` entries holds every literal of ``n`` variables."""

    def __init__(self, nvars: int) -> None:
        self.n = nvars
        self.value = [0] * (2 * nvars + 1)  # +1 true, -1 false, 0 unassigned (by literal)
        self.reason = [-1] * (2 * nvars + 1)  # the clause that made a literal true
        self.trail: list[int] = []
        self.head = 0
        self.clauses: list[list[int]] = []
        self.active: list[bool] = []
        self.watches: list[list[int]] = [[] for _ in range(2 * nvars + 1)]
        self.where: dict[tuple, list[int]] = {}  # sorted literals -> indices of active copies
        self.inconsistent = False

    def val(self, lit: int) -> int:
        return self.value[lit]

    def assign(self, lit: int, reason: int) -> None:
        self.value[lit] = 1
        self.value[-lit] = -1
        self.reason[lit] = reason
        self.trail.append(lit)

    def add(self, lits: list[int]) -> None:
        """Add a clause at the top level (watches set, a unit assigned, propagation run)."""
        lits = list(dict.fromkeys(lits))
        if any(-l in lits for l in lits):
            return  # a tautology constrains nothing
        index = len(self.clauses)
        self.clauses.append(lits)
        self.active.append(True)
        self.where.setdefault(tuple(sorted(lits)), []).append(index)
        if self.inconsistent:
            return
        value = self.value
        lits.sort(key=lambda l: -value[l])  # true, then unassigned, then false literals first
        if not lits or value[lits[0]] == -1:
            self.inconsistent = True
            return
        for lit in lits[:2]:
            self.watches[lit].append(index)
        if len(lits) == 1 or value[lits[1]] == -1:
            if value[lits[0]] == 0:
                self.assign(lits[0], index)
                if not self.propagate():
                    self.inconsistent = True

    def delete(self, lits: list[int]) -> bool:
        """Deactivate one copy of a clause; False when no such clause is active."""
        copies = self.where.get(tuple(sorted(set(lits))))
        if not copies:
            return False
        index = copies[-1]
        first = self.clauses[index][0] if self.clauses[index] else None
        if first is not None and self.value[first] == 1 and self.reason[first] == index:
            return True  # the reason of a top-level unit: kept (see the module's note)
        copies.pop()
        self.active[index] = False
        return True

    def propagate(self) -> bool:
        """Unit propagation from the trail's head; False on a conflict."""
        value, reason, clauses, active, watches, trail = self.value, self.reason, self.clauses, self.active, self.watches, self.trail
        while self.head < len(trail):
            false_lit = -trail[self.head]
            self.head += 1
            ws = watches[false_lit]
            if not ws:
                continue
            i = j = 0
            count = len(ws)
            while i < count:
                ci = ws[i]
                i += 1
                if not active[ci]:
                    continue  # dropped from this list for good
                c = clauses[ci]
                if c[0] == false_lit:
                    c[0], c[1] = c[1], false_lit
                first = c[0]
                fv = value[first]
                if fv == 1:
                    ws[j] = ci
                    j += 1
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if value[lit] != -1:
                        c[1], c[k] = lit, false_lit
                        watches[lit].append(ci)
                        break
                else:
                    ws[j] = ci
                    j += 1
                    if fv == -1:
                        ws[j:i] = []
                        return False
                    value[first] = 1
                    value[-first] = -1
                    reason[first] = ci
                    trail.append(first)
            del ws[j:]
        return True

    def implied(self, lits: list[int]) -> bool:
        """Whether assigning the negation of ``lits`` and propagating gives a conflict (RUP);
        every assignment made is undone."""
        if self.inconsistent:
            return True
        mark = len(self.trail)
        conflict = False
        for lit in lits:
            v = self.val(lit)
            if v == 1:
                conflict = True
                break
            if v == 0:
                self.assign(-lit, -1)
        if not conflict:
            conflict = not self.propagate()
        value, reason = self.value, self.reason
        for lit in self.trail[mark:]:
            value[lit] = value[-lit] = 0
            reason[lit] = -1
        del self.trail[mark:]
        self.head = mark
        return conflict

    def rat(self, lits: list[int]) -> bool:
        """Whether the clause is RAT on its first literal: every resolvent with an active clause
        holding the pivot's negation is RUP."""
        pivot = lits[0]
        for index, c in enumerate(self.clauses):
            if self.active[index] and -pivot in c:
                if not self.implied(lits + [l for l in c if l != -pivot]):
                    return False
        return True


def check(formula: Iterable[str], proof: Iterable[str], *, time_limit: float | None = None) -> Outcome:
    """Check a DRAT ``proof`` (lines of text) of the unsatisfiability of ``formula`` (lines of
    DIMACS text), within ``time_limit`` seconds when given (past it: not valid, and why)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    nvars, clauses = parse_dimacs(formula)
    steps = parse_drat(proof)
    top = max([nvars] + [abs(l) for c in clauses for l in c] + [abs(l) for _, c in steps for l in c])
    state = _State(top)
    for clause in clauses:
        state.add(clause)
    lemmas = deletions = rats = 0
    for deletion, lits in steps:
        if state.inconsistent:
            break
        if deletion:
            deletions += 1
            state.delete(lits)  # deleting a clause that is not there weakens nothing
            continue
        lemmas += 1
        if deadline is not None and lemmas % 128 == 0 and time.perf_counter() > deadline:
            return Outcome(False, f"out of time ({time_limit:g} s) after {lemmas} of {sum(not d for d, _ in steps)} lemmas", lemmas, deletions, rats)
        if not state.implied(lits):
            if not lits or not state.rat(lits):
                what = "the empty clause" if not lits else " ".join(map(str, lits))
                return Outcome(False, f"lemma {lemmas} ({what}) is neither RUP nor RAT", lemmas, deletions, rats)
            rats += 1
        if not lits:
            state.inconsistent = True
            break
        state.add(lits)
    if not state.inconsistent:
        return Outcome(False, "the proof ends without deriving the empty clause", lemmas, deletions, rats)
    return Outcome(True, "the empty clause is derived", lemmas, deletions, rats)
