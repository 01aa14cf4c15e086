"""A clause-only formula builder for exported encodings: variables named by structured keys,
each with a sentence a reader of the DIMACS file can decode a model with.

Exported formulas never touch a solver: :meth:`Builder.cnf` returns a ``pysat.formula.CNF``
whose comment lines say what each variable means (``c var 3 edge (0,0)-(0,1)``) and which
variables are the answer (``c answer 1 2 3``), so "is there another answer" is a question about
those variables alone.

>>> b = Builder("demo")
>>> x, y = b.var(("x",), "x holds"), b.var(("y",), "y holds")
>>> b.add([x, y]); b.add([-x, -y])
>>> cnf = b.cnf(answer=[x, y])
>>> cnf.nv, cnf.clauses
(2, [[1, 2], [-1, -2]])
>>> cnf.comments
['c demo', 'c var 1 x holds', 'c var 2 y holds', 'c answer 1 2']
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool


class Builder:
    """Named variables and clauses; ``cnf()`` freezes them into a commented CNF."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.pool = IDPool()
        self.meaning: dict[int, str] = {}
        self.clauses: list[list[int]] = []
        self.notes: list[str] = []

    def var(self, key: Hashable, meaning: str) -> int:
        """The variable of ``key``, created (with its meaning) on first use."""
        v = self.pool.id(key)
        self.meaning.setdefault(v, meaning)
        return v

    def get(self, key: Hashable) -> int | None:
        """The variable of ``key`` if it was created, else None."""
        return self.pool.obj2id.get(key)

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def note(self, text: str) -> None:
        """A comment line for the file's header (the claim, the rules, the bound)."""
        self.notes.append(text)

    def less_than(self, guard: int, low: list[int], high: list[int], key: Hashable, what: str) -> None:
        """``guard`` -> the number whose bits are ``low`` is below the one whose bits are ``high``
        (most significant first): some bit ``i`` is 0 in ``low`` and 1 in ``high``, and the bits
        above it agree; one variable ``(key, i)`` per such bit, meaning "``what``, decided at bit i"."""
        firsts = []
        for i in range(len(low)):
            g = self.var((key, i), f"{what}, decided at bit {i}")
            firsts.append(g)
            self.add([-g, -low[i]])
            self.add([-g, high[i]])
            for j in range(i):
                self.add([-g, -low[j], high[j]])
                self.add([-g, low[j], -high[j]])
        self.add([-guard] + firsts)

    def at_most_one(self, lits: list[int], what: str) -> None:
        """At most one of ``lits``: pairwise up to 6 literals, else a sequential counter whose
        auxiliary variables are named ``aux (what)``."""
        if len(lits) <= 6:
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    self.clauses.append([-lits[i], -lits[j]])
            return
        enc = CardEnc.atmost(lits, bound=1, vpool=self.pool, encoding=EncType.seqcounter)
        for v in range(1, self.pool.top + 1):
            self.meaning.setdefault(v, f"aux at-most-one ({what})")
        self.clauses.extend(enc.clauses)

    def cnf(self, *, answer: Iterable[int]) -> CNF:
        """The formula with its comment lines (title, notes, each variable, the answer variables)."""
        cnf = CNF()  # (from_clauses would deep-copy every clause: seconds on a large board)
        cnf.clauses = self.clauses
        cnf.nv = self.pool.top  # every literal, auxiliary ones included, comes from the pool
        cnf.comments = [f"c {self.title}"] + [f"c {n}" for n in self.notes]
        cnf.comments += [f"c var {v} {self.meaning.get(v, 'aux')}" for v in range(1, cnf.nv + 1)]
        cnf.comments.append("c answer " + " ".join(str(v) for v in answer))
        return cnf


def answer_variables(cnf: CNF) -> list[int]:
    """The answer variables an exported CNF names in its ``c answer`` line.

    >>> b = Builder("t"); v = b.var("v", "v"); b.add([v])
    >>> answer_variables(b.cnf(answer=[v]))
    [1]
    """
    for line in cnf.comments:
        if line.startswith("c answer ") and line[9:10].isdigit():
            return [int(t) for t in line.split()[2:]]
    return []


def bounded_export(export_cnf: Callable[..., CNF]) -> Callable[..., CNF]:
    """A fewest-moves family's ``Family.export_cnf`` from its ``export_cnf(puzzle, *, moves)``:
    the bound K ("at most K moves reach the goal") is required, and there is no answer to
    exclude (a shorter answer is asked for by lowering the bound).

    >>> export = bounded_export(lambda puzzle, *, moves: CNF(from_clauses=[[1]] * moves))
    >>> len(export("level", moves=2).clauses)
    2
    >>> export("level")
    Traceback (most recent call last):
    ...
    ValueError: give the bound: the largest number of moves (the formula says 'at most K moves reach the goal')
    """
    def family_export(puzzle: Any, *, options: Any = None, moves: int | None = None, exclude: Any = None) -> CNF:
        if moves is None:
            raise ValueError("give the bound: the largest number of moves (the formula says 'at most K moves reach the goal')")
        if exclude is not None:
            raise ValueError("a fewest-moves family excludes no answer: lower the bound instead")
        return export_cnf(puzzle, moves=int(moves))
    return family_export
