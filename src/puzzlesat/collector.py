"""Python's cyclic garbage collector, paused while many small lists are made: it runs again and
again while tens of thousands of clause lists appear and scans every live object each time
(building a 40x20 Numberlink certificate formula: about half its time). Lists of ints hold no
cycles, so nothing is left for it to find.

>>> import gc
>>> with paused():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block (and on again after it when it was on before)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
