"""Certificates: a claim that rests on unsatisfiability, written so that anyone can check it.

A certificate is a directory (see :mod:`.tools`) that ``puzzlesat.proofcheck`` checks without
the solver. Which claims a family makes and what backs them is the family's own
(``Family.certify_claim`` and ``Family.export_formula``, in its ``certify.py``): Numberlink
``unique`` (the rules with the answer blocked are unsatisfiable) and ``unsolvable`` (the rules
are); Roller and Swap ``minimum`` (an answer of K moves, replayed by the family's checker, and no
plan of at most K - 1) and ``unsolvable`` (no plan up to a bound that makes the claim finite,
see :mod:`.fewest`).

>>> import os, tempfile
>>> from puzzlesat.numberlink.model import Puzzle
>>> with tempfile.TemporaryDirectory() as d:
...     record = certify(Puzzle.from_rows(["A.A", "B.B"]), family="numberlink", time_limit=10, directory=d)
...     record["claim"], sorted(os.listdir(d))
('unique', ['formula.cnf', 'manifest.json', 'proof.lrat'])
"""

from __future__ import annotations

import os
import time
from typing import Mapping

from ..family import Family
from ..registry import get_family


def family_of(puzzle) -> Family:
    """The family whose package defines the puzzle's type."""
    return get_family(type(puzzle).__module__.split(".")[1])


def _family(puzzle, family: str | None) -> Family:
    return get_family(family) if family else family_of(puzzle)


def certify(puzzle, claim: str | None = None, *, family: str | None = None, options: Mapping | None = None,
            time_limit: float | None = 60.0, directory: str) -> dict:
    """Prove ``claim`` about ``puzzle`` and write its certificate into ``directory``.

    ``claim``: "unique" or "unsolvable" (Numberlink), "minimum" or "unsolvable" (Roller, Swap),
    or None for whatever the puzzle turns out to have. ``family``: the family's name (found from
    the puzzle's type when None); ``options``: the family's options (its defaults when None).
    Returns a record: ``claim``, ``certificate`` (the directory, or None with ``reason``), and
    the facts (``answer``, ``moves``, ``bound``).
    """
    record = _family(puzzle, family)
    merged = {**record.defaults(), **dict(options or {})}
    if record.certify_claim is None:
        return {"claim": claim, "certificate": None, "reason": f"the {record.name} family certifies no claims"}
    started = time.perf_counter()
    result = record.certify_claim(record, puzzle, claim, options=merged, time_limit=time_limit, directory=directory)
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
    record = _family(puzzle, family)
    if record.export_formula is None:
        raise ValueError(f"the {record.name} family exports no formula")
    merged = {**record.defaults(), **dict(options or {})}
    return record.export_formula(record, puzzle, options=merged, moves=moves, exclude_answer=exclude_answer, time_limit=time_limit)


CERTIFICATE_FILES = ("manifest.json", "formula.cnf", "proof.lrat", "proof.drat")  # (an earlier run's, removed first)


def certify_record(record: Mapping, puzzle, *, family: str, options: Mapping | None, time_limit: float | None,
                   directory: str) -> dict:
    """The certificate of a solve or verify ``record``'s claim, written into ``directory``: the
    keys :func:`record_fields` names. A record without a verdict (unknown) certifies nothing; a
    refusal (a claim the family cannot certify, a bad option) is said in the reason, never raised.

    >>> import tempfile
    >>> from puzzlesat.numberlink.model import Puzzle
    >>> with tempfile.TemporaryDirectory() as d:
    ...     certify_record({"status": "solved"}, Puzzle.from_rows(["A.A"]), family="numberlink", options=None,
    ...                    time_limit=10, directory=d)["certificate_claim"]
    'unique'
    >>> certify_record({"status": "unknown"}, None, family="numberlink", options=None, time_limit=1, directory="-")
    {'certificate': None, 'certificate_claim': None, 'certificate_reason': 'no verdict to certify'}
    """
    from ..errors import PuzzlesatError
    from ..family import Objective

    if record.get("status") not in ("solved", "unsolvable"):
        return {"certificate": None, "certificate_claim": None, "certificate_reason": "no verdict to certify"}
    for name in CERTIFICATE_FILES:  # a certificate of an earlier run is not this run's
        if os.path.isfile(os.path.join(directory, name)):
            os.remove(os.path.join(directory, name))
    chosen = get_family(family)
    kept = {k: v for k, v in (options or {}).items() if k in chosen.defaults() or k == "method"}
    try:
        result = certify(puzzle, family=family, options=kept, time_limit=time_limit, directory=directory)
    except (PuzzlesatError, ValueError) as exc:
        result = {"claim": None, "certificate": None, "reason": str(exc)}
    if result.get("claim") is None:  # (refused before a claim was chosen: the one the verdict makes)
        unique = chosen.objective is Objective.UNIQUE
        result = {**result, "claim": "unsolvable" if record["status"] == "unsolvable" else "unique" if unique else "minimum"}
    return record_fields(result)


def record_fields(result: Mapping) -> dict:
    """The keys a solve / verify record takes from :func:`certify`'s result: ``certificate``
    (the directory or None), ``certificate_claim`` and ``certificate_reason`` (why none).

    >>> record_fields({"claim": "minimum", "certificate": None, "reason": "out of time"})
    {'certificate': None, 'certificate_claim': 'minimum', 'certificate_reason': 'out of time'}
    """
    return {"certificate": result.get("certificate"), "certificate_claim": result.get("claim"),
            "certificate_reason": result.get("reason")}
