"""The command line's argument converters: each wraps a library check that raises ValueError
(the library never imports argparse) and turns its message into argparse's error.

>>> count_argument("3"), index_argument("0"), seed_argument("7"), seconds_argument("2.5")
(3, 0, 7, 2.5)
>>> size_argument("8x6"), size_argument("5x4x2")
((8, 6), (5, 4, 2))
>>> seed_argument("-5")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '-5' is not a seed of 0 or more (Python's random numbers are the same for -N and N, so a negative seed would repeat a positive seed's puzzles)
"""

from __future__ import annotations

import argparse
import re
from functools import wraps
from typing import Any, Callable, Sequence

from ..errors import whole_number
from ..seeds import parse_seed
from ..timing import parse_seconds


def converter(check: Callable[[str], Any], name: str | None = None) -> Callable[[str], Any]:
    """``check`` as an argparse ``type=``: its ValueError becomes argparse's error message."""

    @wraps(check)
    def convert(text: str) -> Any:
        try:
            return check(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    if name:
        convert.__name__ = name  # (argparse names the type in some messages)
    return convert


def _count(text: str) -> int:
    return whole_number(text, 1, "a whole number of 1 or more")


def _index(text: str) -> int:
    return whole_number(text, 0, "a position from 0")


def parse_size(text: str) -> tuple[int, ...]:
    """``--size WxH`` or ``WxHxL`` (width, height, layers), each 1 or more; a family of rows
    alone may take one number.

    >>> parse_size("10x7"), parse_size("5")
    ((10, 7), (5,))
    >>> parse_size("10x")
    Traceback (most recent call last):
    ...
    ValueError: size '10x' is not WIDTHxHEIGHT (or WIDTHxHEIGHTxLAYERS), e.g. 8x8
    """
    if not re.fullmatch(r"\s*\d+\s*(?:[xX]\s*\d+\s*){0,2}", text):
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT (or WIDTHxHEIGHTxLAYERS), e.g. 8x8")
    numbers = tuple(int(part) for part in re.split(r"[xX]", text))
    if min(numbers) < 1:
        raise ValueError(f"size {text.strip()} has a side of 0")
    return numbers


count_argument = converter(_count, "count")
index_argument = converter(_index, "index")
seed_argument = converter(parse_seed, "seed")
seconds_argument = converter(parse_seconds, "seconds")
size_argument = converter(parse_size, "size")


def joined_dash_values(argv: Sequence[str], options: Sequence[str] = ("--size",)) -> list[str]:
    """``--size -3x5`` as ``--size=-3x5``: argparse takes a value starting with ``-`` (and not a
    plain negative number) for an option, and says only "expected one argument"; joined, the
    option's own check says what is wrong with the value. ``options``: the flags that take
    such values (``--size`` and the families' range options).

    >>> joined_dash_values(["generate", "toy", "--size", "-3x5", "--moves", "-2-4", "--seed", "-1"], ["--size", "--moves"])
    ['generate', 'toy', '--size=-3x5', '--moves=-2-4', '--seed', '-1']
    """
    out: list[str] = []
    for token in argv:
        if out and out[-1] in options and re.match(r"-\d", token) and not re.fullmatch(r"-\d+", token):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out
