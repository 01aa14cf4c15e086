"""Swap's certified claims (the family record's ``certify_claim``, ``export_formula`` and
``check_claim``; ``encodings/certificates.md``): "minimum K" and "unsolvable", as every
fewest-moves family (:mod:`puzzlesat.certify.fewest`, :mod:`puzzlesat.proofcheck.fewest`), with
Swap's bound and notation.

"Unsolvable" is finite up to the number of arrangements of the squares minus one (a shortest
plan never shows a board twice); the checker computes it from the level, not from the manifest.

>>> from puzzlesat.swap.model import Level
>>> bound(Level.from_rows(["T1R B1G", "T1G T1R"], goal=["R G", "R G"]))
11
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Mapping

from ..certify import fewest
from ..proofcheck import fewest as fewest_check


def bound(level) -> int:
    """The number of arrangements of the squares minus one: no shortest plan is longer."""
    kinds = Counter(str(sq) for row in level.start for sq in row if sq is not None)
    arrangements = math.factorial(sum(kinds.values()))
    for count in kinds.values():
        arrangements //= math.factorial(count)
    return arrangements - 1


def prove(family, puzzle, claim: str | None, *, options: Mapping, time_limit: float | None, directory: str) -> dict:
    """Prove "minimum" or "unsolvable" (None: whichever holds) and write the certificate."""
    return fewest.prove(family, puzzle, claim, options=options, time_limit=time_limit, directory=directory,
                        bound_of=bound, joiner=" ")


formula = fewest.formula


def _replay(level, answer):
    from .model import parse_moves
    from .verify import verify

    moves = list(parse_moves(answer or ""))
    return len(moves), verify(level, moves)


def check(family, puzzle, manifest: Mapping):
    """For the checker: (the formula to refute or None, what else was checked); ValueError when
    the answer or the claim is wrong."""
    return fewest_check.check(family, puzzle, manifest, replay=_replay, finite_bound=bound)
