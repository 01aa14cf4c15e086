"""Result types shared by every family: one shape for solve, count and optimise.

>>> r = SolveResult(Status.SOLVED, solution="RD", timings=Timings(encode=0.1, solve=0.2),
...                 optimal=True, lower_bound=2)
>>> r.solved, r.optimal, round(r.timings.total, 2)
(True, True, 0.3)
>>> CountResult(count=1, complete=True, limit=2, solutions=("x",)).uniqueness
<Uniqueness.UNIQUE: 'unique'>
>>> print(Status.SOLVED, CountResult(count=2, complete=True, limit=2).uniqueness)
solved multiple
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Mapping, TypeVar

from .errors import require_count

A = TypeVar("A")


class Status(str, Enum):
    """Outcome of a solve: an answer, a proof that none exists, or ran out of time."""

    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    UNKNOWN = "unknown"

    def __str__(self) -> str:  # print(result.status) shows "solved"
        return self.value


class Uniqueness(str, Enum):
    """What a count says about the answers: exactly one, several, none, or not decided."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"

    def __str__(self) -> str:  # print(result.uniqueness) shows "unique"
        return self.value


@dataclass(frozen=True)
class Timings:
    """Seconds spent building the model and running the solver."""

    encode: float = 0.0
    solve: float = 0.0

    @property
    def total(self) -> float:
        return self.encode + self.solve

    def __add__(self, other: "Timings") -> "Timings":
        return Timings(self.encode + other.encode, self.solve + other.solve)


@dataclass(frozen=True)
class SolveResult(Generic[A]):
    """What a solver found.

    ``solution`` is set exactly when ``status`` is SOLVED, and has been checked by the family's
    independent ``verify`` before being returned. For optimisation families ``optimal`` is True
    only when minimality is *proven*; ``lower_bound`` is the best proven lower bound on the
    objective (equal to the answer's length when optimal).
    """

    status: Status
    solution: A | None = None
    timings: Timings = field(default=Timings(), compare=False)  # two runs of one solve compare equal
    optimal: bool = False
    lower_bound: int | None = None
    method: str = ""
    stats: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    def __repr__(self) -> str:
        """Status, method, the answer's size, what is proven and the seconds, not the answer.

        >>> SolveResult(Status.SOLVED, "DRU", Timings(0.5, 1.25), optimal=True, lower_bound=3, method="flow")
        SolveResult(solved, flow, 3 moves, optimal, lower bound 3, 1.75 s)
        >>> SolveResult(Status.UNKNOWN, lower_bound=9, method="search")
        SolveResult(unknown, search, lower bound 9, 0.00 s)
        """
        parts = [self.status.value, self.method or "no method"]
        if self.solution is not None:
            parts.append(_size(self.solution))
        if self.optimal:
            parts.append("optimal")
        if self.lower_bound is not None:
            parts.append(f"lower bound {self.lower_bound}")
        return f"SolveResult({', '.join(parts)}, {self.timings.total:.2f} s)"


@dataclass(frozen=True)
class CountResult(Generic[A]):
    """Answers counted up to ``limit``.

    ``count`` answers were found (all in ``solutions``). ``complete`` is True when the search
    finished: then the count is exact if below ``limit``, and at least ``limit`` otherwise.
    When the time limit ran out first, ``complete`` is False and the count is a lower bound.
    ``method`` names the counter as :class:`SolveResult` names the solver (``"sat-cadical195"``,
    ``"backtracking"``); ``stats`` say which steps decided.
    """

    count: int
    complete: bool
    limit: int
    solutions: tuple[A, ...] = ()
    timings: Timings = field(default=Timings(), compare=False)
    method: str = ""
    stats: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def uniqueness(self) -> Uniqueness:
        """Unique / multiple / none, or unknown when the search stopped before deciding (a count
        that reached ``limit`` 1 cannot tell one answer from several)."""
        if self.count >= 2:
            return Uniqueness.MULTIPLE
        if not self.complete or self.count >= self.limit:  # stopped by the limit: "at least count"
            return Uniqueness.UNKNOWN
        return Uniqueness.UNIQUE if self.count == 1 else Uniqueness.NONE

    @property
    def unique(self) -> bool | None:
        """True, False, or None when not decided (the JSON ``unique`` field)."""
        u = self.uniqueness
        if u is Uniqueness.UNKNOWN:
            return None
        return u is Uniqueness.UNIQUE

    def __repr__(self) -> str:
        """What the count says, the count against its limit, the method and the seconds.

        >>> CountResult(count=2, complete=True, limit=2, solutions=("x", "y"), method="sat-cadical195")
        CountResult(multiple, 2 of limit 2, complete, sat-cadical195, 0.00 s)
        """
        done = "complete" if self.complete else "stopped"
        return (f"CountResult({self.uniqueness.value}, {self.count} of limit {self.limit}, {done}, "
                f"{self.method or 'no method'}, {self.timings.total:.2f} s)")

    def __bool__(self) -> bool:
        # ``if is_unique(puzzle):`` would hold for every puzzle: say what to test instead
        raise TypeError("a CountResult has no truth value: test .unique (True, False or None) or .uniqueness")


def _size(answer: object) -> str:
    """An answer's size in a word: its paths (an answer made of paths) or its moves."""
    paths = getattr(answer, "paths", None)
    if paths is not None:
        return f"{len(paths)} paths"
    try:
        return f"{len(answer)} moves"  # type: ignore[arg-type]
    except TypeError:
        return f"a {type(answer).__name__}"


def solve_result_hint(value: object) -> str:
    """For a TypeError about an answer argument: a hint when ``value`` is a whole SolveResult."""
    return " (a SolveResult's moves are its .solution)" if isinstance(value, SolveResult) else ""


def solution_hint(value: object) -> str:
    """For a TypeError about a ``solution`` argument (Numberlink's verbs): what to pass instead.

    >>> solution_hint(None)
    'a result with no answer has solution None'
    >>> solution_hint(SolveResult(Status.SOLVED, solution="x"))
    "a SolveResult's answer is its .solution"
    """
    if isinstance(value, SolveResult):
        return "a SolveResult's answer is its .solution"
    return "a result with no answer has solution None"


def check_count_limit(limit: object) -> int:
    """``limit`` for the counting verbs: a whole number of answers, 1 or more.

    >>> check_count_limit(2)
    2
    >>> check_count_limit(0)
    Traceback (most recent call last):
    ...
    ValueError: limit must be 1 or more answers, not 0
    """
    return require_count(limit, "limit", "answers")


def stated_phrase(stated: int, verdict: str | None, *, status: str, moves_count: int | None,
                  optimal: bool | None, lower_bound: int | None) -> str:
    """How a file's stated move count compares with ours, for the human output of ``verify``
    (``verdict`` is the record's "equal", "better", "worse" or None).

    >>> stated_phrase(3, "worse", status="solved", moves_count=4, optimal=True, lower_bound=4)
    'stated 3 is below the proven minimum 4'
    >>> stated_phrase(9, "better", status="solved", moves_count=7, optimal=True, lower_bound=7)
    'stated 9 is not the minimum: proven minimum 7'
    """
    if verdict == "equal":
        return f"stated {stated}: equal"
    if verdict == "better":  # a valid shorter answer: the stated count is not the minimum
        if optimal:
            return f"stated {stated} is not the minimum: proven minimum {moves_count}"
        return f"stated {stated} is not the minimum: ours has {moves_count} (not proven minimal)"
    if verdict == "worse":
        if status == "unsolvable":
            return f"stated {stated}, but the level is proven unsolvable"
        if optimal:
            return f"stated {stated} is below the proven minimum {moves_count}"
        return f"stated {stated} is below the proven lower bound {lower_bound}"
    if moves_count is not None and status == "solved":
        return f"stated {stated}: ours is longer but not proven minimal"
    return f"stated {stated}: not compared"


def stated_minimum_match(status: str, count: int | None, stated: int | None, *, optimal: bool = True,
                         lower_bound: int | None = None) -> str | None:
    """How an answer of ``count`` moves compares with the move count a file states: "equal",
    "better" (fewer moves), "worse" (the stated count is below a proven minimum or lower bound,
    or the puzzle is proven unsolvable); None when it states none, or nothing proven bears on
    it (a longer answer not proven minimal says nothing).

    >>> stated_minimum_match("solved", 3, 4), stated_minimum_match("solved", 5, 4, optimal=False)
    ('better', None)
    >>> stated_minimum_match("unknown", None, 3, lower_bound=4), stated_minimum_match("unsolvable", None, 3)
    ('worse', 'worse')
    """
    if stated is None:
        return None
    if lower_bound is not None and lower_bound > stated:
        return "worse"
    if status not in ("solved", "unsolvable"):
        return None
    if status == "unsolvable" or count is None:
        return "worse"
    if count == stated:
        return "equal"
    if count < stated:
        return "better"
    return "worse" if optimal else None


def no_answer_text(record: Mapping[str, Any]) -> str:
    """A fewest-moves record without an answer, in words: why it is unsolvable, or why unknown
    and the lower bound proven so far.

    >>> no_answer_text({"status": "unknown", "reason": None, "lower_bound": 7})
    'unknown (time limit), lower bound 7'
    >>> no_answer_text({"status": "unsolvable", "reason": "two floors never meet"})
    'unsolvable: two floors never meet'
    """
    if record["status"] == "unsolvable":
        return "unsolvable" + (f": {record['reason']}" if record.get("reason") else "")
    bound = f", lower bound {record['lower_bound']}" if record.get("lower_bound") is not None else ""
    return f"unknown ({record.get('reason') or 'time limit'})" + bound


# the shared keys of docs/record.schema.json that a record without an answer holds as null
SHARED_RECORD_KEYS = ("objective", "size", "name", "rules", "method", "answer", "moves", "moves_count", "unique", "optimal",
                      "lower_bound", "solved_by", "reason", "stated_minimum", "stated_minimum_match", "stated_answer")


def blank_record(objective: str | None) -> dict[str, Any]:
    """The shared keys of a record whose puzzle was not solved (an error, a skipped file, a job
    stopped by its memory limit): null, but for the family's ``objective``.

    >>> blank_record("unique")["objective"], blank_record("unique")["answer"]
    ('unique', None)
    """
    return {**{key: None for key in SHARED_RECORD_KEYS}, "objective": objective}
