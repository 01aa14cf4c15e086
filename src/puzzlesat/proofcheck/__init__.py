"""The independent checker of certificates (:mod:`puzzlesat.certify` writes them).

:func:`check_certificate` reads a certificate's manifest, loads the puzzle from the text it
holds, asks the family's ``check_claim`` to check the stated answer with the family's checker and
that the claim follows (the bound is K - 1 for a minimum of K; an "unsolvable" bound is at
least the one the checker computes itself, see :mod:`.fewest`) and to re-derive the formula
through the family's exporter (not the solver's code path), compares that formula with the file
clause by clause, and replays the proof: LRAT with :mod:`.lrat` (the certificates written now),
DRAT with :mod:`.drat` (version 1 certificates), checkers of its own that share no code with any
solver.

>>> import tempfile
>>> from puzzlesat.certify import certify
>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#######", "#o....#", "#.###.#", "#.....#", "#######"])
>>> with tempfile.TemporaryDirectory() as d:
...     _ = certify(level, family="roller", time_limit=10, directory=d)
...     check = check_certificate(d)
>>> check.claim, check.confirmed, check.reason
('minimum 4', True, 'an answer of 4 moves replays; no plan of at most 3 moves: the empty clause is derived')
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from itertools import chain

import numpy as np

from . import drat, lrat

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict on one certificate: the claim, whether it is confirmed, and why (or why not)."""

    directory: str
    family: str | None
    claim: str | None
    confirmed: bool
    reason: str
    seconds: float = 0.0

    def as_record(self) -> dict:
        return {"directory": self.directory, "family": self.family, "claim": self.claim,
                "confirmed": self.confirmed, "reason": self.reason, "seconds": round(self.seconds, 3)}


class Refused(Exception):
    """A certificate that does not back its claim (the message says why)."""


def check_certificate(directory: str, *, time_limit: float | None = None) -> ClaimCheck:
    """Check the certificate in ``directory`` (see the module's docstring); ``time_limit``
    bounds the proof's replay (a replay cut short confirms nothing, and says so)."""
    started = time.perf_counter()
    family = claim = None
    try:
        with open(os.path.join(directory, MANIFEST)) as source:
            manifest = json.load(source)
        family, claim = manifest.get("family"), manifest.get("claim")
        if claim == "minimum":
            claim = f"minimum {manifest.get('moves')}"
        reason = _check(directory, manifest, time_limit)
        return ClaimCheck(str(directory), family, claim, True, reason, time.perf_counter() - started)
    except (Refused, OSError, ValueError, KeyError, TypeError, AttributeError, IndexError) as error:  # a malformed manifest too
        text = str(error) if isinstance(error, Refused) else f"{type(error).__name__}: {error}"
        return ClaimCheck(str(directory), family, claim, False, text, time.perf_counter() - started)


def check_tree(root: str, *, time_limit: float | None = None) -> list[ClaimCheck]:
    """Check every certificate at or below ``root`` (each directory holding a manifest);
    ``time_limit`` is per certificate."""
    found = sorted(path for path, _, files in os.walk(root) if MANIFEST in files)
    return [check_certificate(path, time_limit=time_limit) for path in found]


def _check(directory: str, manifest: dict, time_limit: float | None) -> str:
    from ..registry import get_family

    if manifest.get("certificate") != "puzzlesat":
        raise Refused("not a puzzlesat certificate manifest")
    family = get_family(manifest["family"])
    if family.check_claim is None:
        raise Refused(f"the {family.name} family certifies no claims")
    options = {**family.defaults(), **manifest.get("options", {})}
    loaded = family.load(manifest["puzzle"], source=None, fmt=manifest.get("format", "native"), options=options)
    if len(loaded) != 1 or isinstance(loaded[0], Exception):
        raise Refused(f"the manifest's puzzle text does not read as one puzzle: {loaded[0] if loaded else 'nothing'}")
    try:
        formula, said = family.check_claim(family, loaded[0], manifest)
    except ValueError as error:
        raise Refused(str(error)) from error
    if formula is None:  # nothing rests on unsatisfiability (a minimum of 0 moves)
        return said
    return _replay(directory, manifest, formula, said, time_limit)


def _replay(directory: str, manifest: dict, formula, said: str, time_limit: float | None) -> str:
    if not manifest.get("formula") or not manifest.get("proof"):
        raise Refused("the claim rests on unsatisfiability but the certificate names no formula or no proof")
    for name in (manifest["formula"], manifest["proof"]):
        if not isinstance(name, str) or os.path.basename(name) != name:
            raise Refused(f"the certificate's files must lie in its directory, not {name!r}")
    with open(os.path.join(directory, manifest["formula"])) as source:
        text = source.read()
    arrays = _same_formula(text, formula)
    with open(os.path.join(directory, manifest["proof"])) as source:
        proof = source.read()
    proof_format = manifest.get("proof_format", "drat")
    if proof_format == "lrat":  # (the clauses as the file's numbers, read above: no list per clause)
        clauses = lrat.Flat(arrays[0].tolist(), arrays[1].tolist(), bool(np.any(np.diff(arrays[1]) == 0))) if arrays else formula.clauses
        outcome = lrat.check(clauses, proof, time_limit=time_limit)
    elif proof_format == "drat":
        outcome = drat.check(text.splitlines(), proof.splitlines(), time_limit=time_limit)
    else:
        raise Refused(f"unknown proof format {proof_format!r}")
    if not outcome.valid:
        raise Refused(f"the proof is refused: {outcome.reason}")
    return f"{said}: {outcome.reason}"


def _same_formula(text: str, formula):
    """Refuse unless the DIMACS ``text`` holds exactly ``formula``'s clauses (and its variable
    count), and return the file's clauses as arrays (the literals, where each clause starts) for
    the replay. Fast path: the clause part read as one array of numbers and compared with the
    clauses, in order, at once (taken as arrays from a formula that keeps them so); the slow path
    (any doubt) reads clause by clause, takes the same clauses in another order, and else says
    where the two differ."""
    header = re.search(r"^p cnf (\d+) (\d+)[ \t]*$", text, re.M)
    clauses = formula.clauses if not hasattr(formula, "arrays") else None
    count = len(clauses) if clauses is not None else formula.arrays()[1].size - 1
    if header and int(header[1]) == formula.nv and int(header[2]) == count and "c" not in text[header.end():]:
        try:
            found = np.fromstring(text[header.end():], dtype=np.int64, sep=" ")
        except ValueError:  # not numbers: the slow path says where
            found = None
        if found is not None:
            if clauses is None:  # (a formula that keeps its clauses as arrays)
                lits, starts = formula.arrays()
            else:
                lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=count)
                lits = np.fromiter(chain.from_iterable(clauses), dtype=np.int64, count=int(lengths.sum()))
                starts = np.concatenate(([0], np.cumsum(lengths)))
            ends = starts[1:] + np.arange(count)  # where each clause's 0 lies in the file
            if found.size == lits.size + count and not found[ends].any() and np.count_nonzero(found) == lits.size \
                    and np.array_equal(found[found != 0], lits):
                return lits, starts
    try:
        nvars, clauses = drat.parse_dimacs(text.splitlines())
    except ValueError as error:
        raise Refused(f"the formula file does not read as DIMACS: {error}") from error
    if nvars != formula.nv or len(clauses) != len(formula.clauses):
        raise Refused(f"the formula file is not the puzzle's formula: {nvars} variables and {len(clauses)} clauses, "
                      f"the puzzle gives {formula.nv} and {len(formula.clauses)}")
    if sorted(map(sorted, clauses)) == sorted(map(sorted, formula.clauses)):
        # the same clauses in another order (a certificate written before the formula's rows were
        # grouped by kind): the proof numbers the file's clauses, so the replay reads those
        lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
        return np.fromiter(chain.from_iterable(clauses), dtype=np.int64), np.concatenate(([0], np.cumsum(lengths)))
    for number, (mine, theirs) in enumerate(zip(formula.clauses, clauses), 1):
        if list(mine) != theirs:
            raise Refused(f"the formula file is not the puzzle's formula: clause {number} reads {theirs}, the puzzle gives {list(mine)}")
    return None
