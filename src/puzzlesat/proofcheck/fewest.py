"""The checker's part for a fewest-moves family's claims, which the family's ``check_claim``
calls with its own replay and finite bound (nothing here knows a family).

"minimum K": the stated answer has K moves and replays (the family's ``verify``), the bound is
K - 1, and the formula "at most K - 1 moves" (re-derived by the family's exporter) is what the
proof refutes. "unsolvable": the certificate's bound is at least ``finite_bound`` (computed by
the checker, not read from the manifest), and the formula "at most bound moves" is refuted.

>>> check(None, None, {"claim": "minimum", "moves": 0, "answer": ""}, replay=lambda p, a: (0, []), finite_bound=None)
(None, 'an answer of 0 moves replays')
"""

from __future__ import annotations

from typing import Callable, Mapping


def check(family, puzzle, manifest: Mapping, *, replay: Callable, finite_bound: Callable):
    """(the formula the claim says is unsatisfiable, or None when nothing rests on one; what
    else was checked); ValueError saying why when the answer or the claim is wrong.
    ``replay(puzzle, answer_text) -> (moves, violations)``; ``finite_bound(puzzle) -> int``."""
    kept = manifest.get("options", {})
    claim = manifest["claim"]
    if claim == "minimum":
        k = manifest["moves"]
        count, broken = replay(puzzle, manifest.get("answer"))
        if count != k:
            raise ValueError(f"the claim is wrong: the stated answer has {count} moves, the claim says {k}")
        if broken:
            raise ValueError("the stated answer does not replay: " + "; ".join(map(str, broken)))
        said = f"an answer of {k} moves replays"
        if k == 0:
            return None, said
        if manifest.get("bound") != k - 1:
            raise ValueError(f"the claim is wrong: a minimum of {k} needs the bound {k - 1}, the manifest states {manifest.get('bound')}")
        return family.export_cnf(puzzle, options=kept, moves=k - 1), f"{said}; no plan of at most {k - 1} moves"
    if claim == "unsolvable":
        bound, needed = manifest["bound"], finite_bound(puzzle)
        if bound < needed:
            raise ValueError(f"the claim is wrong: 'unsolvable' needs no plan up to {needed} moves, the proof covers {bound}")
        return family.export_cnf(puzzle, options=kept, moves=bound), f"no plan of at most {bound} moves"
    raise ValueError(f"unknown claim {claim!r}")
