"""What every family's certificates share: solving a formula with a proof-logging solver, and
writing a certificate's files. A certificate is a directory holding ``manifest.json`` (the
family, the puzzle's text, the options, the claim and its facts), ``formula.cnf`` (the
family's exported formula, with its comment lines) and ``proof.drat`` (CaDiCaL's DRAT proof,
through PySAT, that the formula is unsatisfiable).

>>> from pysat.formula import CNF
>>> solve_formula(CNF(from_clauses=[[1], [-1]]), proof=True, time_limit=5)[0]
False
>>> uncertified("unique", "out of time")
{'claim': 'unique', 'certificate': None, 'reason': 'out of time'}
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Mapping

from pysat.solvers import Solver

PROOF_SOLVER = "cadical195"  # PySAT's proof-logging CaDiCaL
MANIFEST = "manifest.json"
FORMULA = "formula.cnf"
PROOF = "proof.drat"


def left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (a ``time.perf_counter`` value), None for no deadline."""
    return None if deadline is None else max(0.01, deadline - time.perf_counter())


def solve_formula(cnf, *, proof: bool, time_limit: float | None) -> tuple[bool | None, list[int] | None, list[str] | None]:
    """Solve ``cnf`` with CaDiCaL: (satisfiable or None when out of time, a model, the DRAT proof
    lines when ``proof`` and unsatisfiable). PySAT's CaDiCaL ignores ``interrupt``, so a time
    limit is kept by solving in conflict-budgeted steps (the proof runs on across them)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    with Solver(name=PROOF_SOLVER, bootstrap_with=cnf.clauses, with_proof=proof) as solver:
        budget, started = 2000, time.perf_counter()
        while True:
            if deadline is None:
                verdict = solver.solve()
            else:
                solver.conf_budget(budget)
                verdict = solver.solve_limited()
            if verdict is True:
                return True, solver.get_model(), None
            if verdict is False:
                return False, None, solver.get_proof() if proof else None
            now = time.perf_counter()
            if now >= deadline:
                return None, None, None
            rate = solver.accum_stats().get("conflicts", 0) / max(now - started, 1e-3)
            budget = int(max(100, min(2 * budget, rate * (deadline - now))))


def uncertified(claim: str | None, reason: str, **facts: Any) -> dict:
    """The record of a claim no certificate backs: ``certificate`` null and why."""
    return {"claim": claim, "certificate": None, "reason": reason, **facts}


def write(directory: str, *, family: str, puzzle_text: str, fmt: str, options: Mapping, claim: str,
          cnf=None, proof: list[str] | None = None, facts: Mapping | None = None, seconds: Mapping | None = None) -> dict:
    """Write a certificate's files and return its record (``certificate``: the directory)."""
    os.makedirs(directory, exist_ok=True)
    manifest = {
        "certificate": "puzzlesat", "version": 1, "family": family, "format": fmt, "puzzle": puzzle_text,
        "options": dict(options), "claim": claim, **dict(facts or {}),
        "formula": None, "proof": None, "solver": None,
    }
    if cnf is not None:
        cnf.to_file(os.path.join(directory, FORMULA))
        manifest["formula"] = FORMULA
        manifest["sizes"] = {"variables": cnf.nv, "clauses": len(cnf.clauses)}
    if proof is not None:
        with open(os.path.join(directory, PROOF), "w") as out:
            out.write("\n".join(proof) + "\n")
        manifest["proof"], manifest["solver"] = PROOF, f"pysat {PROOF_SOLVER} (DRAT)"
        manifest["sizes"]["proof_lines"] = len(proof)
    manifest["seconds"] = {k: round(v, 3) for k, v in (seconds or {}).items()}
    with open(os.path.join(directory, MANIFEST), "w") as out:
        json.dump(manifest, out, indent=1)
        out.write("\n")
    return {"claim": claim, "certificate": str(directory), "reason": None, **dict(facts or {})}
