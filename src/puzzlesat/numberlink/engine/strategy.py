"""The Strategy protocol of the Numberlink engine, and the Outcome a strategy's run gives.

A strategy has a ``name`` (the steps of ``--explain`` and ``stats["decided_by"]`` use it),
``applies(puzzle, rules)`` (whether it can help on this board under these rules at all) and
``run(state, deadline) -> Outcome``. An outcome is one of:

* ``Outcome.unique()``: no answer exists beside those found (the count is complete; "unique"
  once one answer is found);
* ``Outcome.none()``: the puzzle has no answer at all;
* ``Outcome.answer(solution)``: a new answer, already verified (a second one once one is found);
* ``Outcome.nothing()``: nothing found and nothing proven; the pipeline goes on;
* ``Outcome.unknown()``: a complete search ran out of time (or of its formula): the pipeline
  ends undecided.

``detail`` says how (``"time limit"``); ``by`` names the step when a strategy has several ways
to decide (``"probes:swap"``; in the race, ``"frontier"`` or ``"global-sat"``), else the
strategy's name does: that name is the step's in ``stats["steps"]`` and, when the step
decided, ``stats["decided_by"]``.

>>> Outcome.answer("sol", detail="swap").word, Outcome.unique().decides, Outcome.nothing().decides
('answer', True, False)
>>> str(Outcome.unknown("time limit"))
'unknown (time limit)'

A strategy that reads the board as one grid of rows and columns (topology, fill, windows, the
frontier count, the probes other than the shrinking and the detour) says so in ``applies`` with
:func:`one_layer`; the others serve one layer and a stack of layers alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ...timing import Deadline
    from ..model import Puzzle, Rules
    from .state import State

ANSWER, UNIQUE, NONE, NOTHING, UNKNOWN = "answer", "unique", "none", "nothing", "unknown"


@dataclass(frozen=True)
class Outcome:
    """What one run of a strategy gave (see the module's docstring)."""

    word: str
    solution: Any = None
    detail: str = ""
    by: str = ""  # the name the step goes by, when not the strategy's own ("probes:swap", "global-sat" in the race)

    @classmethod
    def answer(cls, solution: Any, *, detail: str = "", by: str = "") -> "Outcome":
        return cls(ANSWER, solution, detail, by)

    @classmethod
    def unique(cls, detail: str = "", *, by: str = "") -> "Outcome":
        return cls(UNIQUE, None, detail, by)

    @classmethod
    def none(cls, detail: str = "", *, by: str = "") -> "Outcome":
        return cls(NONE, None, detail, by)

    @classmethod
    def nothing(cls, detail: str = "", *, by: str = "") -> "Outcome":
        return cls(NOTHING, None, detail, by)

    @classmethod
    def unknown(cls, detail: str = "", *, by: str = "") -> "Outcome":
        return cls(UNKNOWN, None, detail, by)

    @property
    def decides(self) -> bool:
        """Whether the outcome says something: an answer, or that no more exist."""
        return self.word in (ANSWER, UNIQUE, NONE)

    @property
    def ends(self) -> bool:
        """Whether the pipeline stops after it undecided (a complete search ran out of time)."""
        return self.word == UNKNOWN

    def __str__(self) -> str:
        return f"{self.word} ({self.detail})" if self.detail else self.word


def one_layer(puzzle: Any) -> bool:
    """Whether ``puzzle``'s board is one layer of rows and columns (not a stack of layers,
    ``Board.layered``): what the strategies that read a grid need.

    >>> from ..model import Puzzle
    >>> from ..multilayer.model import Puzzle as Stack
    >>> one_layer(Puzzle.from_rows(["A.A"])), one_layer(Stack.from_layers([["A.A"]]))
    (True, False)
    """
    return not puzzle.board.layered


class Strategy(Protocol):
    """One step of the pipeline (see the module's docstring)."""

    name: str

    def applies(self, puzzle: "Puzzle", rules: "Rules") -> bool:
        ...

    def run(self, state: "State", deadline: "Deadline") -> Outcome:
        ...


class Portfolio(Protocol):
    """A step made of strategies run together or in turn (the deciders with the windows beside
    them; the enumeration past two answers): ``run_steps(state)`` runs them, each recorded as a
    step of its own (``state.step``), until one decides."""

    name: str

    def applies(self, puzzle: "Puzzle", rules: "Rules") -> bool:
        ...

    def run_steps(self, state: "State") -> None:
        ...
