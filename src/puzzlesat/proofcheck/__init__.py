"""The independent checker of certificates (:mod:`puzzlesat.certify` writes them).

:func:`check_certificate` reads a certificate's manifest, loads the puzzle from the text it
holds, re-derives the formula through the family's exporter (``Family.export_cnf``, not the
solver's code path) and compares it with the file clause by clause, checks the stated answer
with the family's checker, checks that the claim follows (the bound is K - 1 for a minimum of
K; an "unsolvable" bound is at least the one this module computes itself) and replays the DRAT
proof with :mod:`.drat`, a checker of its own that shares no code with any solver.

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
import math
import os
import time
from collections import Counter
from dataclasses import dataclass

from . import drat

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
    except (Refused, OSError, ValueError, KeyError, TypeError) as error:
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
    options = {**family.defaults(), **manifest.get("options", {})}
    loaded = family.load(manifest["puzzle"], source=None, fmt=manifest.get("format", "native"), options=options)
    if len(loaded) != 1 or isinstance(loaded[0], Exception):
        raise Refused(f"the manifest's puzzle text does not read as one puzzle: {loaded[0] if loaded else 'nothing'}")
    puzzle = loaded[0]
    claim = manifest["claim"]
    kept = manifest.get("options", {})
    if family.name == "numberlink":
        if claim == "unique":
            answer, said = _numberlink_answer(puzzle, manifest, kept)
            formula = family.export_cnf(puzzle, options=kept, exclude=answer)
            return _replay(directory, manifest, formula, f"{said}; no other answer", time_limit)
        if claim == "unsolvable":
            return _replay(directory, manifest, family.export_cnf(puzzle, options=kept), "no answer", time_limit)
        raise Refused(f"unknown Numberlink claim {claim!r}")
    if claim == "minimum":
        k = manifest["moves"]
        said = _replay_answer(family.name, puzzle, manifest.get("answer"), k)
        if k == 0:
            return said
        if manifest.get("bound") != k - 1:
            raise Refused(f"the claim is wrong: a minimum of {k} needs the bound {k - 1}, the manifest states {manifest.get('bound')}")
        formula = family.export_cnf(puzzle, options=kept, moves=k - 1)
        return _replay(directory, manifest, formula, f"{said}; no plan of at most {k - 1} moves", time_limit)
    if claim == "unsolvable":
        bound, needed = manifest["bound"], _finite_bound(family.name, puzzle)
        if bound < needed:
            raise Refused(f"the claim is wrong: 'unsolvable' needs no plan up to {needed} moves, the proof covers {bound}")
        return _replay(directory, manifest, family.export_cnf(puzzle, options=kept, moves=bound), f"no plan of at most {bound} moves", time_limit)
    raise Refused(f"unknown claim {claim!r}")


def _replay(directory: str, manifest: dict, formula, said: str, time_limit: float | None) -> str:
    if not manifest.get("formula") or not manifest.get("proof"):
        raise Refused("the claim rests on unsatisfiability but the certificate names no formula or no proof")
    for name in (manifest["formula"], manifest["proof"]):
        if not isinstance(name, str) or os.path.basename(name) != name:
            raise Refused(f"the certificate's files must lie in its directory, not {name!r}")
    with open(os.path.join(directory, manifest["formula"])) as source:
        lines = source.read().splitlines()
    nvars, clauses = drat.parse_dimacs(lines)
    if nvars != formula.nv or len(clauses) != len(formula.clauses):
        raise Refused(f"the formula file is not the puzzle's formula: {nvars} variables and {len(clauses)} clauses, "
                      f"the puzzle gives {formula.nv} and {len(formula.clauses)}")
    for number, (mine, theirs) in enumerate(zip(formula.clauses, clauses), 1):
        if list(mine) != theirs:
            raise Refused(f"the formula file is not the puzzle's formula: clause {number} reads {theirs}, the puzzle gives {list(mine)}")
    with open(os.path.join(directory, manifest["proof"])) as source:
        outcome = drat.check(lines, source.read().splitlines(), time_limit=time_limit)
    if not outcome.valid:
        raise Refused(f"the proof is refused: {outcome.reason}")
    return f"{said}: {outcome.reason}"


def _numberlink_answer(puzzle, manifest: dict, kept: dict):
    from ..numberlink.model import Puzzle, Rules, Solution
    from ..numberlink.multilayer.model import Solution as StackSolution
    from ..numberlink.multilayer.verify import verify as stack_verify
    from ..numberlink.verify import verify

    if not isinstance(puzzle, Puzzle):  # a stack of layers
        Solution, verify = StackSolution, stack_verify  # noqa: N806
    answer = Solution.from_mapping({label: [tuple(c) for c in cells] for label, cells in manifest["answer"].items()})
    rules = Rules(cover_all=not kept.get("allow_empty", False), no_self_touch=bool(kept.get("no_self_touch", False)))
    broken = verify(puzzle, answer, rules)
    if broken:
        raise Refused("the stated answer breaks the rules: " + "; ".join(map(str, broken)))
    return answer, "the stated answer is valid"


def _replay_answer(family: str, puzzle, answer, k: int) -> str:
    if family == "roller":
        from ..roller.verify import verify

        moves = answer or ""
        count = len(moves)
    else:
        from ..swap.model import parse_moves
        from ..swap.verify import verify

        moves = list(parse_moves(answer or ""))
        count = len(moves)
    if count != k:
        raise Refused(f"the claim is wrong: the stated answer has {count} moves, the claim says {k}")
    broken = verify(puzzle, moves)
    if broken:
        raise Refused("the stated answer does not replay: " + "; ".join(map(str, broken)))
    return f"an answer of {k} moves replays"


def _finite_bound(family: str, puzzle) -> int:
    """The move bound past which no shortest plan goes, computed here from the rules."""
    if family == "roller":  # (F - 1) * S, stops found by rolling the ball (the rule, written again)
        rows = puzzle.rows
        floor = lambda r, c: 0 <= r < len(rows) and 0 <= c < len(rows[0]) and rows[r][c] == "."  # noqa: E731
        stops, todo = {tuple(puzzle.start)}, [tuple(puzzle.start)]
        while todo:
            r0, c0 = todo.pop()
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                r, c = r0, c0
                while floor(r + dr, c + dc):
                    r, c = r + dr, c + dc
                if (r, c) not in stops:
                    stops.add((r, c))
                    todo.append((r, c))
        cells = sum(row.count(".") for row in rows)
        return (cells - 1) * len(stops)
    kinds = Counter(str(sq) for row in puzzle.start for sq in row if sq is not None)
    arrangements = math.factorial(sum(kinds.values()))
    for count in kinds.values():
        arrangements //= math.factorial(count)
    return arrangements - 1
