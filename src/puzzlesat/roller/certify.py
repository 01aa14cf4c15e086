"""Roller's certified claims (the family record's ``certify_claim``, ``export_formula`` and
``check_claim``; ``encodings/certificates.md``): "minimum K" and "unsolvable", as every
fewest-moves family (:mod:`puzzlesat.certify.fewest`, :mod:`puzzlesat.proofcheck.fewest`), with
Roller's bound and notation.

"Unsolvable" is finite up to (F - 1) * S moves (F floor cells, S stops): between two moves
that paint a new cell a shortest walk never stands on a stop twice. The prover counts the stops
with the family's :func:`~.model.slide`; the checker counts them again with its own few lines
(:func:`checked_bound`), so that it does not rest on the rule's code.

>>> from puzzlesat.roller.model import Level
>>> level = Level.from_rows(["#####", "#o..#", "#####"])
>>> bound(level), checked_bound(level)
(4, 4)
"""

from __future__ import annotations

from typing import Mapping

from ..certify import fewest
from ..proofcheck import fewest as fewest_check
from .model import MOVES, slide


def bound(level) -> int:
    """(F - 1) * S: no shortest walk painting every floor cell is longer."""
    stops, todo = {level.start}, [level.start]
    while todo:
        here = todo.pop()
        for direction in MOVES:
            stop, painted = slide(level, here, direction)
            if painted and stop not in stops:
                stops.add(stop)
                todo.append(stop)
    return (level.floor_count - 1) * len(stops)


def checked_bound(level) -> int:
    """:func:`bound` for the checker: the stops found by rolling the ball (the rule, written again)."""
    rows = level.rows
    floor = lambda r, c: 0 <= r < len(rows) and 0 <= c < len(rows[0]) and rows[r][c] == "."  # noqa: E731
    stops, todo = {tuple(level.start)}, [tuple(level.start)]
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


def prove(family, puzzle, claim: str | None, *, options: Mapping, time_limit: float | None, directory: str) -> dict:
    """Prove "minimum" or "unsolvable" (None: whichever holds) and write the certificate."""
    return fewest.prove(family, puzzle, claim, options=options, time_limit=time_limit, directory=directory,
                        bound_of=bound, joiner="")


formula = fewest.formula


def _replay(level, answer):
    from .verify import verify

    moves = answer or ""
    return len(moves), verify(level, moves)


def check(family, puzzle, manifest: Mapping):
    """For the checker: (the formula to refute or None, what else was checked); ValueError when
    the answer or the claim is wrong."""
    return fewest_check.check(family, puzzle, manifest, replay=_replay, finite_bound=checked_bound)
