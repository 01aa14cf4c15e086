"""Numberlink's certified claims (the family record's ``certify_claim``, ``export_formula`` and
``check_claim``; ``encodings/certificates.md``).

A certificate's formula is the rules without "no stray cycle" (:mod:`.relaxed`), which one
proof-logging solver solves: each model that breaks the rules (a stray cycle, a path beside
itself where those rows were left out) is excluded by an addition every answer satisfies, and
solving goes on; the first model that keeps the rules is the answer (checked by the family's
``verify``), which is then blocked, and solving goes on until no model is left. "Unique" is the
formula with the answer blocked, unsatisfiable; "unsolvable" the formula without. The manifest
lists the additions in order, so that the checker re-derives the same formula. Only the rule
options the formula depends on (``allow_empty``, ``no_self_touch``) go into a certificate.

>>> from puzzlesat.numberlink.model import Puzzle
>>> rule_options({"allow_empty": True, "solver": "glucose4"})
{'allow_empty': True, 'no_self_touch': False}
>>> text_format(Puzzle.from_rows(["A.A"]))
'native'
"""

from __future__ import annotations

import time
from typing import Mapping

from ..certify.lrat import ProofSolver
from ..collector import paused
from ..certify.tools import UNREADABLE, left, solve_formula, uncertified, write
from .export import decode
from .model import Puzzle, Rules, Solution
from .relaxed import Formula


def rule_options(options: Mapping) -> dict:
    """The options the exported formula depends on, as a certificate keeps them."""
    return {k: bool(options.get(k, False)) for k in ("allow_empty", "no_self_touch")}


def text_format(puzzle) -> str:
    """The format a certificate keeps the puzzle's text in: "native", "layers" for a stack."""
    return "layers" if hasattr(puzzle, "layers") else "native"


def _rules(kept: Mapping) -> Rules:
    return Rules(cover_all=not kept.get("allow_empty", False), no_self_touch=bool(kept.get("no_self_touch", False)))


def _verify(puzzle):
    if isinstance(puzzle, Puzzle):
        from .verify import verify
    else:
        from .multilayer.verify import verify
    return verify


def _paths(answer) -> dict:
    return {label: [list(c) for c in cells] for label, cells in answer.paths}


def prove(family, puzzle, claim: str | None, *, options: Mapping, time_limit: float | None, directory: str) -> dict:
    """Prove "unique" or "unsolvable" (None: whichever holds) and write the certificate."""
    if claim not in (None, "unique", "unsolvable"):
        raise ValueError(f"a Numberlink claim is 'unique' or 'unsolvable', not {claim!r}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    kept = rule_options(options)
    started = time.perf_counter()
    rules = _rules(kept)
    formula = Formula(puzzle, rules)
    answer = None
    with ProofSolver() as solver:
        with paused():  # (a block's lists live while it is added)
            for rows in formula.pieces():
                solver.add(rows)
        while True:
            sat = solver.solve(time_limit=left(deadline))
            if sat is None:
                facts = {"answer": _paths(answer)} if answer is not None else {}
                return uncertified(claim, f"no verdict within the time limit ({time_limit} s)", **facts)
            if not sat:
                break
            found, repairs = formula.examine(solver.model())
            for item in repairs:  # the model breaks the rules: exclude it, and solve on
                solver.add(formula.add(item))
            if repairs:
                continue
            broken = _verify(puzzle)(puzzle, found, rules)
            if broken:  # a wrong answer is never certified (nor taken for a second answer)
                return uncertified(claim, "the certificate formula has a model that breaks the rules: " + "; ".join(map(str, broken)))
            if answer is not None:
                return uncertified("unique", "not unique: the puzzle has a second answer", answer=_paths(answer), second=_paths(found))
            if claim == "unsolvable":
                return uncertified(claim, "the claim is false: the puzzle has an answer", answer=_paths(found))
            answer = found
            solver.add(formula.add(("answer", answer)))
        proof = solver.proof()
    if answer is None and claim == "unique":
        return uncertified(claim, "the claim is false: the puzzle has no answer")
    if proof is None:
        return uncertified(claim or ("unique" if answer else "unsolvable"), UNREADABLE)
    facts = {"answer": _paths(answer)} if answer is not None else {}
    facts["additions"] = [_addition_fact(item) for item in formula.additions]
    return write(directory, family=family.name, puzzle_text=family.format(puzzle, fmt=text_format(puzzle)), fmt=text_format(puzzle),
                 options=kept, claim="unique" if answer is not None else "unsolvable", cnf=formula, proof=proof, facts=facts,
                 seconds={"solve": time.perf_counter() - started})


def _addition_fact(item: tuple) -> list:
    """An addition as the manifest keeps it (the answer blocked is the manifest's answer)."""
    if item[0] == "answer":
        return ["answer"]
    if item[0] == "touch":
        return ["touch", [list(c) for c in item[1]]]
    return ["cycle", [list(c) for c in item[1]], None if item[2] is None else [[list(c) for c in e] for e in item[2]]]


def formula(family, puzzle, *, options: Mapping, moves: int | None, exclude_answer: bool, time_limit: float | None):
    """The rules as one formula; with ``exclude_answer`` the first answer (the formula's own
    first model) blocked, so that it is unsatisfiable exactly when that answer is unique."""
    if moves is not None:
        raise ValueError("Numberlink has no move bound")
    kept = rule_options(options)
    cnf = family.export_cnf(puzzle, options=kept)
    if not exclude_answer:
        return cnf
    sat, model, _ = solve_formula(cnf, proof=False, time_limit=time_limit)
    if not sat:
        raise ValueError("no answer to exclude: " + ("the puzzle has none" if sat is False else "none found within the time limit"))
    return family.export_cnf(puzzle, options=kept, exclude=decode(puzzle, cnf, model))


def check(family, puzzle, manifest: Mapping):
    """For the checker: (the formula the claim says is unsatisfiable, what else was checked);
    ValueError when the stated answer, the claim or an addition is wrong. The answer is checked
    by the family's ``verify``; the formula is re-derived (:mod:`.relaxed`, not the solver's
    code path) with the manifest's additions, each checked to hold for every answer."""
    kept = manifest.get("options", {})
    claim = manifest["claim"]
    if claim not in ("unique", "unsolvable"):
        raise ValueError(f"unknown Numberlink claim {claim!r}")
    answer = None
    if claim == "unique":
        if isinstance(puzzle, Puzzle):
            answer = Solution.from_mapping({label: [tuple(c) for c in cells] for label, cells in manifest["answer"].items()})
        else:  # a stack of layers
            from .multilayer.model import Solution as StackSolution

            answer = StackSolution.from_mapping({label: [tuple(c) for c in cells] for label, cells in manifest["answer"].items()})
        broken = _verify(puzzle)(puzzle, answer, _rules(kept))
        if broken:
            raise ValueError("the stated answer breaks the rules: " + "; ".join(map(str, broken)))
    formula = Formula(puzzle, _rules(kept))
    blocked = 0
    for item in manifest.get("additions", []):
        if item[0] == "answer":
            if answer is None:
                raise ValueError("the formula blocks an answer, but the claim states none")
            blocked += 1
            formula.add(("answer", answer))
        else:
            try:
                formula.add(tuple(item))
            except (TypeError, IndexError, KeyError) as error:
                raise ValueError(f"an addition does not read as one: {item!r:.80}") from error
    if blocked != (claim == "unique"):
        raise ValueError("a claim 'unique' blocks its answer once, 'unsolvable' blocks none: the additions do not")
    return formula, ("the stated answer is valid; no other answer" if claim == "unique" else "no answer")
