"""Seeds derived from names: the same parts always give the same seed, on every machine and
Python (unlike ``hash``), so a pack's levels can be drawn again from their names alone.

>>> hashed_seed("roller", 1, 0) == hashed_seed("roller", 1, 0) != hashed_seed("roller", 1, 1)
True
>>> 0 <= hashed_seed("swap", 7, 3, 2) < 2 ** 48
True

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
