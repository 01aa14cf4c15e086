"""What every family's certificates share: solving a formula with a proof-logging solver, and
writing a certificate's files. A certificate is a directory holding ``manifest.json`` (the
family, the puzzle's text, the options, the claim and its facts), ``formula.cnf`` (the
family's formula, with its comment lines) and ``proof.lrat`` (CaDiCaL's LRAT proof, through
PySAT, that the formula is unsatisfiable, trimmed: :mod:`.lrat`).

>>> from pysat.formula import CNF
>>> solve_formula(CNF(from_clauses=[[1], [-1]]), proof=True, time_limit=5)
(False, None, ['3 0 1 2 0'])
>>> uncertified("unique", "out of time")
{'claim': 'unique', 'certificate': None, 'reason': 'out of time'}
"""

from __future__ import annotations

import json
import os
import time
from itertools import chain, groupby
from typing import Any, Mapping

import numpy as np

from .lrat import NAME as PROOF_SOLVER, ProofSolver
from .numtext import lines_text

MANIFEST = "manifest.json"
FORMULA = "formula.cnf"
PROOF = "proof.lrat"


def left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (a ``time.perf_counter`` value), None for no deadline."""
    return None if deadline is None else max(0.01, deadline - time.perf_counter())


def solve_formula(cnf, *, proof: bool, time_limit: float | None) -> tuple[bool | None, list[int] | None, list[str] | None]:
    """Solve ``cnf`` with CaDiCaL: (satisfiable or None when out of time, a model, the LRAT
    proof lines when ``proof`` and unsatisfiable: None when the trace could not be read)."""
    with ProofSolver() as solver:
        solver.add(cnf.clauses)
        verdict = solver.solve(time_limit=time_limit)
        if verdict is True:
            return True, solver.model(), None
        return verdict, None, solver.proof() if verdict is False and proof else None


def dimacs_text(nv: int, clauses: list[list[int]], comments: list[str]) -> str:
    """DIMACS text: the comment lines, ``p cnf``, one clause a line (runs of clauses of one
    length formatted at once: a formula of 20 000 clauses in a few milliseconds).

    >>> print(dimacs_text(2, [[1, -2], [2], []], ["c demo"]), end="")
    c demo
    p cnf 2 3
    1 -2 0
    2 0
    0
    """
    parts = ["".join(line + "\n" for line in comments), f"p cnf {nv} {len(clauses)}\n"]
    for width, run in groupby(clauses, len):
        run = list(run)
        parts.append((("%d " * width + "0\n") * len(run)) % tuple(chain.from_iterable(run)))
    return "".join(parts)


def dimacs_arrays(nv: int, lits: np.ndarray, starts: np.ndarray, comments: list[str]) -> str:
    """:func:`dimacs_text` of clauses given as one array of literals and where each clause
    starts (and the last ends), formatted at once (:mod:`.numtext`).

    >>> print(dimacs_arrays(2, np.array([1, -2, 2]), np.array([0, 2, 3, 3]), ["c demo"]), end="")
    c demo
    p cnf 2 3
    1 -2 0
    2 0
    0
    """
    count = starts.size - 1
    numbers = np.zeros(lits.size + count, dtype=np.int64)  # each clause and its 0
    lengths = np.diff(starts)
    numbers[np.arange(lits.size) + np.repeat(np.arange(count), lengths)] = lits
    head = "".join(line + "\n" for line in comments) + f"p cnf {nv} {count}\n"
    return head + lines_text(numbers, starts[1:] + np.arange(count))


UNREADABLE = "the solver's proof trace could not be read as LRAT"


def uncertified(claim: str | None, reason: str, **facts: Any) -> dict:
    """The record of a claim no certificate backs: ``certificate`` null and why."""
    return {"claim": claim, "certificate": None, "reason": reason, **facts}


def write(directory: str, *, family: str, puzzle_text: str, fmt: str, options: Mapping, claim: str,
          cnf=None, proof: list[str] | None = None, facts: Mapping | None = None, seconds: Mapping | None = None) -> dict:
    """Write a certificate's files and return its record (``certificate``: the directory)."""
    os.makedirs(directory, exist_ok=True)
    manifest = {
        "certificate": "puzzlesat", "version": 2, "family": family, "format": fmt, "puzzle": puzzle_text,
        "options": dict(options), "claim": claim, **dict(facts or {}),
        "formula": None, "proof": None, "solver": None,
    }
    if cnf is not None:
        with open(os.path.join(directory, FORMULA), "w") as out:  # (a formula that keeps its clauses as arrays: written from them)
            out.write(dimacs_arrays(cnf.nv, *cnf.arrays(), cnf.comments) if hasattr(cnf, "arrays") else dimacs_text(cnf.nv, cnf.clauses, cnf.comments))
        manifest["formula"] = FORMULA
        manifest["sizes"] = {"variables": cnf.nv, "clauses": cnf.arrays()[1].size - 1 if hasattr(cnf, "arrays") else len(cnf.clauses)}
    if proof is not None:
        with open(os.path.join(directory, PROOF), "w") as out:
            out.write("".join(line + "\n" for line in proof))
        manifest["proof"], manifest["proof_format"], manifest["solver"] = PROOF, "lrat", PROOF_SOLVER
        manifest["sizes"]["proof_lines"] = len(proof)
    manifest["seconds"] = {k: round(v, 3) for k, v in (seconds or {}).items()}
    with open(os.path.join(directory, MANIFEST), "w") as out:  # a key a line (json's indent is slow on long answers)
        out.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in manifest.items()) + "\n}\n")
    return {"claim": claim, "certificate": str(directory), "reason": None, **dict(facts or {})}
