"""How each family's claims are proved: which formula, which bound, what the answer must show.

Numberlink: the answer comes from the family's solver (or, when it gives no verdict, from the
exported formula itself) and is checked by the family's ``verify``; "unique" is the exported
formula with that answer blocked, unsatisfiable; "unsolvable" the exported formula itself. Roller and Swap: the
answer of K moves comes from the family's own solver (its proven minimum), and "minimum K" is
the exported "at most K - 1 moves" formula, unsatisfiable. "Unsolvable" needs a bound that makes
it finite: Roller (F - 1) * S moves (F floor cells, S stops: between two moves that paint a new
cell a shortest walk never stands on a stop twice), Swap the number of arrangements of the
squares minus one (a shortest plan never shows a board twice). Past ``MAX_BOUND`` moves such a
claim is not certified, and the record says so.
"""

from __future__ import annotations

import math
import time
from collections import Counter

from ..errors import CannotExpress
from .certificate import solve_formula, uncertified, write

MAX_BOUND = 300  # the largest move bound an "unsolvable" certificate is attempted for


def family_of(puzzle):
    from ..registry import get_family

    name = type(puzzle).__module__.split(".")[1]
    return get_family(name)


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.01, deadline - time.perf_counter())


def _native(puzzle) -> str:
    """The format a puzzle's text is kept in: "native", or "layers" for a stack of layers."""
    return "layers" if hasattr(puzzle, "layers") else "native"


def _text(family, puzzle) -> str:
    return family.format(puzzle, fmt=_native(puzzle))


def numberlink(family, puzzle, claim, *, options, time_limit, directory) -> dict:
    from ..numberlink.export import decode
    from ..numberlink.model import Puzzle, Rules

    if claim not in (None, "unique", "unsolvable"):
        raise ValueError(f"a Numberlink claim is 'unique' or 'unsolvable', not {claim!r}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    kept = {k: options.get(k, False) for k in ("allow_empty", "no_self_touch")}
    if getattr(puzzle, "vias", ()):
        return uncertified(claim, "a stack of layers with vias is not exported (its via rules are not encoded yet)")
    if isinstance(puzzle, Puzzle):
        from ..numberlink.verify import verify
    else:
        from ..numberlink.multilayer.verify import verify
    started = time.perf_counter()
    text = _text(family, puzzle)
    # the family's solver finds the answer fast (lazy cuts); the certificate rests on the
    # exported formula alone, and the answer on the family's checker
    record = family.solve_record(puzzle, options=options, time_limit=_left(deadline))
    answer = family.answer_of(puzzle, record) if record["status"] == "solved" else None
    if answer is None and record["status"] != "unsolvable":  # no verdict: the formula's own model
        cnf = family.export_cnf(puzzle, options=kept)
        sat, model, _ = solve_formula(cnf, proof=False, time_limit=_left(deadline))
        if sat is None:
            return uncertified(claim, f"no verdict within the time limit ({time_limit} s)")
        answer = decode(puzzle, cnf, model) if sat else None
    if answer is None:
        if claim == "unique":
            return uncertified(claim, "the claim is false: the puzzle has no answer")
        cnf = family.export_cnf(puzzle, options=kept)
        sat, model, proof = solve_formula(cnf, proof=True, time_limit=_left(deadline))
        if sat is None:
            return uncertified("unsolvable", f"no proof within the time limit ({time_limit} s)")
        if sat:
            return uncertified("unsolvable", "the exported formula has a model: the solver's verdict is wrong")
        return write(directory, family=family.name, puzzle_text=text, fmt=_native(puzzle), options=kept, claim="unsolvable",
                     cnf=cnf, proof=proof, seconds={"solve": time.perf_counter() - started})
    rules = Rules(cover_all=not kept["allow_empty"], no_self_touch=bool(kept["no_self_touch"]))
    broken = verify(puzzle, answer, rules)
    if broken:  # a wrong answer is never certified
        return uncertified(claim, "the answer breaks the rules: " + "; ".join(map(str, broken)))
    paths = {label: [list(c) for c in cells] for label, cells in answer.paths}
    if claim == "unsolvable":
        return uncertified(claim, "the claim is false: the puzzle has an answer", answer=paths)
    blocked = family.export_cnf(puzzle, options=kept, exclude=answer)
    sat, model, proof = solve_formula(blocked, proof=True, time_limit=_left(deadline))
    if sat is None:
        return uncertified("unique", f"no verdict on a second answer within the time limit ({time_limit} s)", answer=paths)
    if sat:
        return uncertified("unique", "not unique: the puzzle has a second answer", answer=paths,
                           second={label: [list(c) for c in cells] for label, cells in decode(puzzle, blocked, model).paths})
    return write(directory, family=family.name, puzzle_text=text, fmt=_native(puzzle), options=kept, claim="unique",
                 cnf=blocked, proof=proof, facts={"answer": paths}, seconds={"solve": time.perf_counter() - started})


def roller_bound(level) -> int:
    """(F - 1) * S: no shortest walk painting every floor cell is longer."""
    from ..roller.model import MOVES, slide

    stops, todo = {level.start}, [level.start]
    while todo:
        here = todo.pop()
        for direction in MOVES:
            stop, painted = slide(level, here, direction)
            if painted and stop not in stops:
                stops.add(stop)
                todo.append(stop)
    return (level.floor_count - 1) * len(stops)


def swap_bound(level) -> int:
    """The number of arrangements of the squares minus one: no shortest plan is longer."""
    kinds = Counter(str(sq) for row in level.start for sq in row if sq is not None)
    arrangements = math.factorial(sum(kinds.values()))
    for count in kinds.values():
        arrangements //= math.factorial(count)
    return arrangements - 1


def fewest_moves(family, puzzle, claim, *, options, time_limit, directory, bound_of, joiner: str) -> dict:
    if claim not in (None, "minimum", "unsolvable"):
        raise ValueError(f"a {family.name} claim is 'minimum' or 'unsolvable', not {claim!r}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    started = time.perf_counter()
    try:
        family.export_cnf(puzzle, options=options, moves=0)  # refused formulas are refused first
    except CannotExpress as error:
        return uncertified(claim, str(error))
    record = family.solve_record(puzzle, options=options, time_limit=_left(deadline))
    solved = time.perf_counter() - started
    text = _text(family, puzzle)
    if record["status"] == "unsolvable":
        if claim == "minimum":
            return uncertified(claim, "the claim is false: the puzzle has no answer")
        bound = bound_of(puzzle)
        if bound > MAX_BOUND:
            return uncertified("unsolvable", f"not certified: the claim is finite only up to {bound} moves, past the {MAX_BOUND} attempted")
        cnf = family.export_cnf(puzzle, options=options, moves=bound)
        sat, _, proof = solve_formula(cnf, proof=True, time_limit=_left(deadline))
        if sat is None:
            return uncertified("unsolvable", f"no verdict on {bound} moves within the time limit ({time_limit} s)")
        if sat:
            return uncertified("unsolvable", f"the exported formula has a plan of at most {bound} moves: the solver's verdict is wrong")
        return write(directory, family=family.name, puzzle_text=text, fmt=_native(puzzle), options={}, claim="unsolvable",
                     cnf=cnf, proof=proof, facts={"bound": bound}, seconds={"solve": solved, "prove": time.perf_counter() - started - solved})
    if record["status"] != "solved" or not record.get("optimal"):
        return uncertified(claim, "no proven minimum to certify: " + str(record.get("reason") or record["status"]))
    if claim == "unsolvable":
        return uncertified(claim, "the claim is false: the puzzle has an answer", moves=record["moves_count"])
    k = record["moves_count"]
    answer = joiner.join(record["moves"] or [])
    facts = {"moves": k, "answer": answer, "bound": k - 1 if k else None}
    if k == 0:  # nothing to prove: the start is the goal, as the replay shows
        return write(directory, family=family.name, puzzle_text=text, fmt=_native(puzzle), options={}, claim="minimum", facts=facts)
    cnf = family.export_cnf(puzzle, options=options, moves=k - 1)
    sat, _, proof = solve_formula(cnf, proof=True, time_limit=_left(deadline))
    if sat is None:
        return uncertified("minimum", f"no verdict on {k - 1} moves within the time limit ({time_limit} s)", moves=k, answer=answer)
    if sat:
        return uncertified("minimum", f"the exported formula has a plan of {k - 1} moves: the solver's minimum is wrong", moves=k)
    return write(directory, family=family.name, puzzle_text=text, fmt=_native(puzzle), options={}, claim="minimum", cnf=cnf,
                 proof=proof, facts=facts, seconds={"solve": solved, "prove": time.perf_counter() - started - solved})


def roller(family, puzzle, claim, **kw) -> dict:
    return fewest_moves(family, puzzle, claim, bound_of=roller_bound, joiner="", **kw)


def swap(family, puzzle, claim, **kw) -> dict:
    return fewest_moves(family, puzzle, claim, bound_of=swap_bound, joiner=" ", **kw)


CLAIMS = {"numberlink": numberlink, "roller": roller, "swap": swap}
