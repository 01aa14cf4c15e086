"""The small types a Numberlink puzzle is made of: the rule options (:class:`Rules`), the rules a
source states beside a puzzle, and the labelled pairs of endpoints.

>>> str(Rules(cover_all=False, no_self_touch=True))
'may-leave-empty, no-self-touch'
>>> Pair("A", (0, 0), (2, 1)).label
'A'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..grid import Cell, as_cell


@dataclass(frozen=True)
class Rules:
    """Rule options. ``cover_all``: every free cell must lie on a path (Flow Free; default).
    ``no_self_touch``: a path may not run beside itself (no cell of a path orthogonally next to
    a non-consecutive cell of the same path)."""

    cover_all: bool = True
    no_self_touch: bool = False

    def __post_init__(self) -> None:
        for name in ("cover_all", "no_self_touch"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Rules.{name} must be True or False, not {getattr(self, name)!r}")

    def __str__(self) -> str:
        parts = ["cover-all" if self.cover_all else "may-leave-empty"]
        if self.no_self_touch:
            parts.append("no-self-touch")
        return ", ".join(parts)


DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class StatedRules:
    """The rules a puzzle's source asks for, kept beside the puzzle and never applied silently:
    ``by`` is "url" (a puzz.link URL's variety) or "pack" (the first line of a generated pack).
    Writing the puzzle to a format that states rules keeps them."""

    rules: Rules
    by: str


@dataclass(frozen=True)
class EndpointPair:
    """A label and its two endpoint cells, each made a cell by the class's ``as_cell`` (one
    layer: :class:`Pair`; a stack: :class:`.multilayer.cells.Pair`)."""

    label: str
    start: tuple[int, ...]
    end: tuple[int, ...]
    as_cell = staticmethod(as_cell)

    def __post_init__(self) -> None:
        if not isinstance(self.label, str):
            raise TypeError(f"a pair's label must be a str, not {type(self.label).__name__}")
        object.__setattr__(self, "label", str(self.label))  # a numpy str_ (a label read from an array) as a plain str
        object.__setattr__(self, "start", self.as_cell(self.start, f"the start of {self.label!r}"))
        object.__setattr__(self, "end", self.as_cell(self.end, f"the end of {self.label!r}"))


class Pair(EndpointPair):
    """A label and its two endpoint cells ``(row, column)``.

    >>> Pair("A", [0, 1], (2, 3))
    Pair(label='A', start=(0, 1), end=(2, 3))
    """

    start: Cell
    end: Cell
