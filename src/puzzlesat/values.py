"""Option text to values, for the ``convert`` of a family's :class:`~puzzlesat.family.Option`:
each returns the value or raises a ValueError that says what was wanted (the command line
turns it into its error line).

>>> seconds("2.5"), whole(1)("7"), number(above=0)("1.5")
(2.5, 7, 1.5)
>>> whole(1)("0")
Traceback (most recent call last):
...
ValueError: '0' is not a whole number of 1 or more
"""

from __future__ import annotations

import math
from typing import Callable

from .errors import whole_number
from .timing import parse_seconds

seconds = parse_seconds  # a number of seconds, zero or more


def whole(minimum: int) -> Callable[[str], int]:
    """A converter of whole numbers of ``minimum`` or more."""
    def convert(text: str) -> int:
        return whole_number(str(text).strip(), minimum, f"a whole number of {minimum} or more")
    return convert


def number(*, above: float | None = None, at_least: float | None = None) -> Callable[[str], float]:
    """A converter of finite numbers above ``above`` (or of ``at_least`` or more)."""
    wanted = f"a number above {above:g}" if above is not None else f"a number of {at_least:g} or more"

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or (above is not None and value <= above) or (at_least is not None and value < at_least):
            raise ValueError(f"{text!r} is not {wanted}")
        return value
    return convert
