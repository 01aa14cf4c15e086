"""Seeds derived from names: the same parts always give the same seed, on every machine and
Python (unlike ``hash``), so a pack's puzzles can be drawn again from their numbers alone.

>>> hashed_seed("roller", 1, 0) == hashed_seed("roller", 1, 0) != hashed_seed("roller", 1, 1)
True
>>> 0 <= hashed_seed("swap", 7, 3, 2) < 2 ** 48
True

Every family's pack draws puzzle ``index`` of a run with :func:`puzzle_seed`, and a resumed pack
accepts only the seeds of :func:`accepted_seeds`:

>>> puzzle_seed(0, 5), puzzle_seed(2, 0)
(5, 2000006)
>>> puzzle_seed(2, 0, 1) in accepted_seeds(2, 0), puzzle_seed(2, 0) in accepted_seeds(1, 0)
(True, False)

Seeds are whole numbers of 0 or more: Python's ``random.Random(-5)`` draws exactly what
``random.Random(5)`` draws, so a negative seed would repeat a positive one's puzzles.
:func:`require_seed` (the generators) and :func:`parse_seed` (a seed given as text) refuse one.
"""

from __future__ import annotations

import hashlib

from .errors import require_type


def hashed_seed(*parts: object) -> int:
    """A 48-bit seed from the parts, joined by "/" (e.g. family, pack seed, index, attempt)."""
    digest = hashlib.sha256("/".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:6], "big")


DUPLICATE_RETRIES = 20  # seeds a pack tries for one puzzle while each draw repeats an earlier puzzle
RUN_SPACING = 1_000_003  # a prime above any pack's count: run seeds S and S + 1 share no puzzle seed


def puzzle_seed(run_seed: int, index: int, attempt: int = 0) -> int:
    """The seed of puzzle ``index`` of a pack made with ``run_seed``: ``run_seed * 1000003 +
    index`` (easy to say in a help text); ``attempt`` > 0 gives further seeds, hashed from the
    three, when the puzzle drawn repeats an earlier one of the pack."""
    if attempt == 0:
        return run_seed * RUN_SPACING + index
    return hashed_seed("pack", run_seed, index, attempt)


def accepted_seeds(run_seed: int, index: int) -> frozenset[int]:
    """Every seed puzzle ``index`` of a run may have been drawn with (the first and those of the
    retries): how a resumed pack checks that a run with ``run_seed`` wrote it."""
    return frozenset(puzzle_seed(run_seed, index, attempt) for attempt in range(DUPLICATE_RETRIES))


NEGATIVE = "Python's random numbers are the same for -N and N, so a negative seed would repeat a positive seed's puzzles"


def require_seed(seed: object, name: str = "seed") -> int:
    """Raise a TypeError or ValueError that names the argument unless ``seed`` is a whole number
    of 0 or more.

    >>> require_seed(-5)
    Traceback (most recent call last):
    ...
    ValueError: seed must be 0 or more, not -5 (Python's random numbers are the same for -N and N, so a negative seed would repeat a positive seed's puzzles)
    """
    require_type(seed, int, name, "a whole number: the same seed gives the same result")
    if seed < 0:  # type: ignore[operator]
        raise ValueError(f"{name} must be 0 or more, not {seed} ({NEGATIVE})")
    return seed  # type: ignore[return-value]


def parse_seed(text: str) -> int:
    """A seed given as text (the command line's ``--seed``): a whole number of 0 or more, or a
    ValueError saying what is wrong.

    >>> parse_seed("7")
    7
    >>> parse_seed("-5")
    Traceback (most recent call last):
    ...
    ValueError: '-5' is not a seed of 0 or more (Python's random numbers are the same for -N and N, so a negative seed would repeat a positive seed's puzzles)
    """
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number of 0 or more") from None
    if value < 0:
        raise ValueError(f"{text!r} is not a seed of 0 or more ({NEGATIVE})")
    return value
