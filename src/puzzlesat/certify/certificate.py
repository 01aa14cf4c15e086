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


def export_formula(puzzle, *, family: str | None = None, options: Mapping | None = None, moves: int | None = None,
                   exclude_answer: bool = False, time_limit: float | None = 60.0):
    """The puzzle's exported formula, as ``puzzlesat export`` writes it.

    Numberlink: the rules; with ``exclude_answer`` the first answer (found by solving the
    formula) is blocked, so the formula is unsatisfiable exactly when that answer is unique
    (ValueError when there is no answer to block). Roller and Swap: "at most ``moves``
    moves"; ``moves`` None takes the family's proven minimum (ValueError when none is proven
    within ``time_limit``).

    >>> from puzzlesat.swap.model import Level
    >>> cnf = export_formula(Level.from_rows(["T1R B1G", "T1G T1R"], goal=["R G", "R G"]), family="swap")
    >>> cnf.comments[0]
    'c swap 2x2 goal match: a plan of at most 1 swaps reaches the goal'
    """
    from . import claims

    record = get_family(family) if family else claims.family_of(puzzle)
    if record.export_cnf is None:
        raise ValueError(f"the {record.name} family exports no formula")
    merged = {**record.defaults(), **dict(options or {})}
    if record.name == "numberlink":
        if moves is not None:
            raise ValueError("Numberlink has no move bound")
        kept = {k: merged.get(k, False) for k in ("allow_empty", "no_self_touch")}
        cnf = record.export_cnf(puzzle, options=kept)
        if not exclude_answer:
            return cnf
        from ..numberlink.export import decode

        sat, model, _ = solve_formula(cnf, proof=False, time_limit=time_limit)
        if not sat:
            raise ValueError("no answer to exclude: " + ("the puzzle has none" if sat is False else "none found within the time limit"))
        return record.export_cnf(puzzle, options=kept, exclude=decode(puzzle, cnf, model))
    if exclude_answer:
        raise ValueError(f"a {record.name} formula excludes no answer: give a smaller --moves instead")
    if moves is None:
        solved = record.solve_record(puzzle, options=merged, time_limit=time_limit)
        if solved["status"] != "solved" or not solved.get("optimal"):
            raise ValueError(f"no proven minimum to take as the bound ({solved.get('reason') or solved['status']}): give --moves K")
        moves = solved["moves_count"]
    return record.export_cnf(puzzle, options=merged, moves=moves)


def record_fields(result: Mapping) -> dict:
    """The keys a solve / verify record takes from :func:`certify`'s result: ``certificate``
    (the directory or None), ``certificate_claim`` and ``certificate_reason`` (why none)."""
    return {"certificate": result.get("certificate"), "certificate_claim": result.get("claim"),
            "certificate_reason": result.get("reason")}
