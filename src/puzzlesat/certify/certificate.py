"""Certificates: a claim that rests on unsatisfiability, written so that anyone can check it.

A certificate is a directory holding ``manifest.json`` (the family, the puzzle's text in its
native format, the options, the claim and what backs it), ``formula.cnf`` (the family's
exported formula, with its comment lines) and ``proof.drat`` (a DRAT proof, from CaDiCaL through
PySAT, that the formula is unsatisfiable). ``puzzlesat.proofcheck`` checks it without the
solver. Claims: Numberlink ``unique`` (the rules with the answer blocked are unsatisfiable) and
``unsolvable`` (the rules are); Roller and Swap ``minimum`` (an answer of K moves, replayed by the
family's checker, and no plan of at most K - 1) and ``unsolvable`` (no plan up to a bound that
makes the claim finite, see :mod:`.claims`).

>>> import tempfile
>>> from puzzlesat.numberlink.model import Puzzle
>>> with tempfile.TemporaryDirectory() as d:
...     record = certify(Puzzle.from_rows(["A.A", "B.B"]), family="numberlink", time_limit=10, directory=d)
...     record["claim"], sorted(os.listdir(d))
('unique', ['formula.cnf', 'manifest.json', 'proof.drat'])
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any, Mapping

from pysat.solvers import Solver

from ..registry import get_family

PROOF_SOLVER = "cadical195"  # PySAT's proof-logging CaDiCaL
MANIFEST = "manifest.json"
FORMULA = "formula.cnf"
PROOF = "proof.drat"


def solve_formula(cnf, *, proof: bool, time_limit: float | None) -> tuple[bool | None, list[int] | None, list[str] | None]:
    """Solve ``cnf`` with CaDiCaL: (satisfiable or None when out of time, a model, the DRAT proof
    lines when ``proof`` and unsatisfiable)."""
    with Solver(name=PROOF_SOLVER, bootstrap_with=cnf.clauses, with_proof=proof) as solver:
        timer = threading.Timer(time_limit, solver.interrupt) if time_limit else None
        if timer:
            timer.start()
        try:
            verdict = solver.solve_limited(expect_interrupt=True) if timer else solver.solve()
        finally:
            if timer:
                timer.cancel()
        if verdict is True:
            return True, solver.get_model(), None
        if verdict is False:
            return False, None, solver.get_proof() if proof else None
        return None, None, None


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


def certify(puzzle, claim: str | None = None, *, family: str | None = None, options: Mapping | None = None,
            time_limit: float | None = 60.0, directory: str) -> dict:
    """Prove ``claim`` about ``puzzle`` and write its certificate into ``directory``.

    ``claim``: "unique" or "unsolvable" (Numberlink), "minimum" or "unsolvable" (Roller, Swap),
    or None for whatever the puzzle turns out to have. ``family``: the family's name (found from
    the puzzle's type when None); ``options``: the family's options (its defaults when None).
    Returns a record: ``claim``, ``certificate`` (the directory, or None with ``reason``), and
    the facts (``answer``, ``moves``, ``bound``).
    """
    from . import claims

    record_family = get_family(family) if family else claims.family_of(puzzle)
    merged = {**record_family.defaults(), **dict(options or {})}
    started = time.perf_counter()
    make = claims.CLAIMS[record_family.name]
    result = make(record_family, puzzle, claim, options=merged, time_limit=time_limit, directory=directory)
    result.setdefault("seconds", round(time.perf_counter() - started, 3))
    return result
