"""Numberlink's certified claims (the family record's ``certify_claim``, ``export_formula`` and
``check_claim``; ``encodings/certificates.md``).

The answer comes from the family's solver (or, when it gives no verdict, from the exported
formula itself) and is checked by the family's ``verify``; "unique" is the exported formula with
that answer blocked, unsatisfiable; "unsolvable" the exported formula itself. Only the rule
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

from ..certify.tools import left, solve_formula, uncertified, write
from .export import decode
from .model import Puzzle, Rules, Solution


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
    if getattr(puzzle, "vias", ()):
        return uncertified(claim, "a stack of layers with vias is not exported (its via rules are not encoded yet)")
    started = time.perf_counter()
    text = family.format(puzzle, fmt=text_format(puzzle))
    # the family's solver finds the answer fast (lazy cuts); the certificate rests on the
    # exported formula alone, and the answer on the family's checker
    record = family.solve_record(puzzle, options=options, time_limit=left(deadline))
    answer = family.answer_of(puzzle, record) if record["status"] == "solved" else None
    if answer is None and record["status"] != "unsolvable":  # no verdict: the formula's own model
        cnf = family.export_cnf(puzzle, options=kept)
        sat, model, _ = solve_formula(cnf, proof=False, time_limit=left(deadline))
        if sat is None:
            return uncertified(claim, f"no verdict within the time limit ({time_limit} s)")
        answer = decode(puzzle, cnf, model) if sat else None
    if answer is None:
        if claim == "unique":
            return uncertified(claim, "the claim is false: the puzzle has no answer")
        cnf = family.export_cnf(puzzle, options=kept)
        sat, model, proof = solve_formula(cnf, proof=True, time_limit=left(deadline))
        if sat is None:
            return uncertified("unsolvable", f"no proof within the time limit ({time_limit} s)")
        if sat:
            return uncertified("unsolvable", "the exported formula has a model: the solver's verdict is wrong")
        return write(directory, family=family.name, puzzle_text=text, fmt=text_format(puzzle), options=kept, claim="unsolvable",
                     cnf=cnf, proof=proof, seconds={"solve": time.perf_counter() - started})
    broken = _verify(puzzle)(puzzle, answer, _rules(kept))
    if broken:  # a wrong answer is never certified
        return uncertified(claim, "the answer breaks the rules: " + "; ".join(map(str, broken)))
    if claim == "unsolvable":
        return uncertified(claim, "the claim is false: the puzzle has an answer", answer=_paths(answer))
    blocked = family.export_cnf(puzzle, options=kept, exclude=answer)
    sat, model, proof = solve_formula(blocked, proof=True, time_limit=left(deadline))
    if sat is None:
        return uncertified("unique", f"no verdict on a second answer within the time limit ({time_limit} s)", answer=_paths(answer))
    if sat:
        return uncertified("unique", "not unique: the puzzle has a second answer", answer=_paths(answer),
                           second=_paths(decode(puzzle, blocked, model)))
    return write(directory, family=family.name, puzzle_text=text, fmt=text_format(puzzle), options=kept, claim="unique",
                 cnf=blocked, proof=proof, facts={"answer": _paths(answer)}, seconds={"solve": time.perf_counter() - started})


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
    ValueError when the stated answer or the claim is wrong. The answer is checked by the
    family's ``verify``, the formula re-derived by its exporter (not the solver's code path)."""
    kept = manifest.get("options", {})
    claim = manifest["claim"]
    if claim == "unique":
        if isinstance(puzzle, Puzzle):
            answer = Solution.from_mapping({label: [tuple(c) for c in cells] for label, cells in manifest["answer"].items()})
        else:  # a stack of layers
            from .multilayer.model import Solution as StackSolution

            answer = StackSolution.from_mapping({label: [tuple(c) for c in cells] for label, cells in manifest["answer"].items()})
        broken = _verify(puzzle)(puzzle, answer, _rules(kept))
        if broken:
            raise ValueError("the stated answer breaks the rules: " + "; ".join(map(str, broken)))
        return family.export_cnf(puzzle, options=kept, exclude=answer), "the stated answer is valid; no other answer"
    if claim == "unsolvable":
        return family.export_cnf(puzzle, options=kept), "no answer"
    raise ValueError(f"unknown Numberlink claim {claim!r}")
