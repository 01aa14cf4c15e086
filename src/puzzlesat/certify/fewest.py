"""Certificates of a fewest-moves family's claims, for the family's ``certify.py`` to call with
its own bound and notation (nothing here knows a family).

"Minimum K": the answer of K moves comes from the family's own solver (its proven minimum,
``solve_record``), and the certificate is the exported "at most K - 1 moves" formula,
unsatisfiable. "Unsolvable" needs a bound that makes the claim finite (``bound_of``, the
family's: no shortest plan is longer); past :data:`MAX_BOUND` moves such a claim is not
certified, and the record says so.

>>> MAX_BOUND
300
"""

from __future__ import annotations

import time
from typing import Callable, Mapping

from ..errors import CannotExpress
from .tools import UNREADABLE, left, solve_formula, uncertified, write

MAX_BOUND = 300  # the largest move bound an "unsolvable" certificate is attempted for


def prove(family, puzzle, claim: str | None, *, options: Mapping, time_limit: float | None, directory: str,
          bound_of: Callable[..., int], joiner: str) -> dict:
    """Prove ``claim`` ("minimum", "unsolvable" or None: whichever holds) and write its
    certificate into ``directory``; ``joiner`` joins the record's moves into the answer text."""
    if claim not in (None, "minimum", "unsolvable"):
        raise ValueError(f"a {family.name} claim is 'minimum' or 'unsolvable', not {claim!r}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    started = time.perf_counter()
    try:
        family.export_cnf(puzzle, options=options, moves=0)  # refused formulas are refused first
    except CannotExpress as error:
        return uncertified(claim, str(error))
    record = family.solve_record(puzzle, options=options, time_limit=left(deadline))
    solved = time.perf_counter() - started
    text = family.format(puzzle, fmt="native")
    if record["status"] == "unsolvable":
        if claim == "minimum":
            return uncertified(claim, "the claim is false: the puzzle has no answer")
        bound = bound_of(puzzle)
        if bound > MAX_BOUND:
            return uncertified("unsolvable", f"not certified: the claim is finite only up to {bound} moves, past the {MAX_BOUND} attempted")
        cnf = family.export_cnf(puzzle, options=options, moves=bound)
        sat, _, proof = solve_formula(cnf, proof=True, time_limit=left(deadline))
        if sat is None:
            return uncertified("unsolvable", f"no verdict on {bound} moves within the time limit ({time_limit} s)")
        if sat:
            return uncertified("unsolvable", f"the exported formula has a plan of at most {bound} moves: the solver's verdict is wrong")
        if proof is None:
            return uncertified("unsolvable", UNREADABLE)
        return write(directory, family=family.name, puzzle_text=text, fmt="native", options={}, claim="unsolvable",
                     cnf=cnf, proof=proof, facts={"bound": bound}, seconds={"solve": solved, "prove": time.perf_counter() - started - solved})
    if record["status"] != "solved" or not record.get("optimal"):
        return uncertified(claim, "no proven minimum to certify: " + str(record.get("reason") or record["status"]))
    if claim == "unsolvable":
        return uncertified(claim, "the claim is false: the puzzle has an answer", moves=record["moves_count"])
    k = record["moves_count"]
    answer = joiner.join(record["moves"] or [])
    facts = {"moves": k, "answer": answer, "bound": k - 1 if k else None}
    if k == 0:  # nothing to prove: the start is the goal, as the replay shows
        return write(directory, family=family.name, puzzle_text=text, fmt="native", options={}, claim="minimum", facts=facts)
    cnf = family.export_cnf(puzzle, options=options, moves=k - 1)
    sat, _, proof = solve_formula(cnf, proof=True, time_limit=left(deadline))
    if sat is None:
        return uncertified("minimum", f"no verdict on {k - 1} moves within the time limit ({time_limit} s)", moves=k, answer=answer)
    if sat:
        return uncertified("minimum", f"the exported formula has a plan of {k - 1} moves: the solver's minimum is wrong", moves=k)
    if proof is None:
        return uncertified("minimum", UNREADABLE, moves=k, answer=answer)
    return write(directory, family=family.name, puzzle_text=text, fmt="native", options={}, claim="minimum", cnf=cnf,
                 proof=proof, facts=facts, seconds={"solve": solved, "prove": time.perf_counter() - started - solved})


def formula(family, puzzle, *, options: Mapping, moves: int | None, exclude_answer: bool, time_limit: float | None):
    """The formula "at most ``moves`` moves reach the goal"; ``moves`` None takes the family's
    proven minimum (ValueError when none is proven within ``time_limit``)."""
    if exclude_answer:
        raise ValueError(f"a {family.name} formula excludes no answer: give a smaller --moves instead")
    if moves is None:
        solved = family.solve_record(puzzle, options=options, time_limit=time_limit)
        if solved["status"] != "solved" or not solved.get("optimal"):
            raise ValueError(f"no proven minimum to take as the bound ({solved.get('reason') or solved['status']}): give --moves K")
        moves = solved["moves_count"]
    return family.export_cnf(puzzle, options=options, moves=moves)
