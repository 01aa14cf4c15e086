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

import pysolvers  # PySAT's compiled module: the C entry points of its solvers
from pysat.solvers import Cadical195

NAME = "pysat cadical195 (LRAT, trimmed)"


class ProofSolver:
    """CaDiCaL with an LRAT trace; clauses are added in the order a certificate's formula lists
    them. ``options``: CaDiCaL options set before the trace starts."""

    def __init__(self, options: dict | None = None) -> None:
        self._solver = Cadical195()
        self._solver.configure({**(options or {}), "lrat": 1, "binary": 0})
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
        return renumbered(self._trace.read().decode("ascii").splitlines(), self.added)

    def close(self) -> None:
        self._solver.delete()

    def __enter__(self) -> "ProofSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def renumbered(trace: list[str], originals: int) -> list[str] | None:
    """CaDiCaL's LRAT ``trace`` of a formula of ``originals`` clauses as a standard LRAT proof
    (originals 1..m), trimmed to the lemmas the last one (the empty clause) rests on.

    >>> renumbered(["3 1 0 1 2 0", "4 d 1 0", "5 0 3 4 0"], 3)  # the third original took number 4
    ['4 1 0 1 2 0', '5 0 4 3 0']
    """
    text: dict[str, str] = {}  # lemma number (as written) -> the rest of its line
    for line in trace:
        head, _, rest = line.partition(" ")
        if rest and rest[0] != "d":  # (a deletion line reads "number d ...")
            text[head] = rest
    if not text:
        return []
    order = list(map(int, text))
    first, top = order[0], originals + len(order)
    if order != sorted(order) or order[-1] > top:
        return None  # numbers out of order, or some number neither an original nor a lemma took
    last = next(reversed(text))
    lemmas: dict[str, tuple[list[str], list[str]]] = {}
    todo = [last]
    while todo:  # the lemmas the last one rests on, followed back through their hints
        i = todo.pop()
        if i in lemmas:
            continue
        tokens = text[i].split()
        end = tokens.index("0")
        hints = tokens[end + 1:-1]
        if "-" in "".join(hints):
            return None  # a RAT hint: not in this proof's language
        lemmas[i] = (tokens[:end], hints)
        todo += [h for h in hints if h in text and h not in lemmas]
    if lemmas[last][0]:
        return None  # the trace does not end with the empty clause
    # new numbers, as text: a lemma kept takes the next one after the originals; an original
    # added after the first lemma moves down by the lemmas before it (one added before keeps its own)
    new: dict[str, str] = {}
    lemma_ids = iter(order)
    below, upcoming = 0, next(lemma_ids)
    for old in range(first, order[-1] + 1):
        if old == upcoming:
            below += 1
            upcoming = next(lemma_ids, 0)
        else:
            new[str(old)] = str(old - below)
    kept = [i for i in text if i in lemmas]
    new.update(zip(kept, map(str, range(originals + 1, originals + 1 + len(kept)))))
    out = []
    for i in kept:
        lits, hints = lemmas[i]
        out.append(" ".join([new[i], *lits, "0", *[new.get(h, h) for h in hints], "0"]))
    return out
