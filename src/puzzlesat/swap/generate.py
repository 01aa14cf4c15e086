"""The original Swap level generator, with every emitted level certified by the exact solver.

Rules reminder: a square (figure, scope, colour) swaps with a cell it reaches along its
figure's directions within its scope, jumping squares but not walls; the goal is a colour
matrix (*match*) or one orthogonal group per colour (*cluster*).

The draw follows the original game's generator (tables in ``specs/swap.md``):

1. size by difficulty, rows and columns drawn independently (easy 2-3, medium 2-4, hard 3-5,
   expert 4-6; as the original, ``round(uniform(lo, hi))``, so the end values are half as
   likely); ``width`` and ``height`` fix it instead (the Android game went to 6 x 7);
2. the number of colours by area A (A > 25: 2-6, > 20: 2-5, > 15: 2-4, > 8: 2-3, else 2), a
   random sample of R B Y G O M;
3. one of the 15 distributions (wall %, bishop %, queen %; towers the rest), all as shares of
   the A cells, rounded half up; no walls when A <= 6, 0 or 1 wall (even odds) when A < 9;
   where rounding overshoots A the larger of the bishop and queen counts gives way;
4. each square's scope: 1 (0.55), 2 (0.30), 3 (0.15);
5. the pieces shuffled, colours dealt in consecutive chunks of ceil(squares / colours) over the
   shuffled squares, shuffled again into the grid; at least 2 colours must be present;
6. the board is redrawn (same size, colours and distribution) until all non-wall cells are
   connected (8-neighbour for *match*, 4-neighbour for *cluster*; at most
   ``CONNECT_TRIES`` times, then everything is drawn anew);
7. *match*: the goal is the start shuffled with walls fixed, until the colour layout differs;
   *cluster*: the start is reshuffled (walls fixed) while it is already clustered.

Unlike the original (which regenerated when its capped A* failed), each draw is then solved by
the exact solver (:func:`puzzlesat.swap.solve.solve`): a draw proven unsolvable is rejected by
that proof, a draw whose proof ran out of work is skipped and counted, and a level is emitted
only with its proven minimum (and, when ``moves=(lo, hi)`` is asked, only if lo <= min <= hi).
With a range, two proofs save exact solves: a quick capped A* answer shorter than lo shows the
minimum is below the range, and a proof that ran out of work with a lower bound above hi shows
it is above; such draws count as out of range. Neither changes which level a seed gives.

Every proof is bounded by work, never by the clock (:func:`certify_work`: A* expansions, the
solve's ``work_limit``), so the same seed and options give the same level and the same stated
plan on any machine and load; the time limit may end a generation (GenerationFailed), never
change its level (encodings/swap.md, "Reproducible generation").

The draw is in :mod:`.draw`; this module certifies the draws and holds the counts of the
draws turned down.

>>> level = draw_level(random.Random(7), difficulty="easy", goal="match")
>>> 2 <= level.rows <= 3 and 2 <= level.cols <= 3 and level.goal.kind == "match"
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import PuzzlesatError, require_count, require_valid
from ..grid import is_whole_number
from ..results import Status
from ..seeds import require_seed
from ..timing import Deadline
from .astar import astar_solve
from .draw import DISTRIBUTIONS, PALETTE, SIZES, _check_draw, board_size, draw_level, draw_scope, piece_counts  # noqa: F401 (some imported from here too)
from .model import Level, Move
from .verify import verify
from .work import NOMINAL_EXPANSIONS_PER_SECOND


DEFAULT_CERTIFY_LIMIT = 60.0  # nominal seconds of work for the proof of each drawn level's minimum
UNKNOWN_STREAK = 20  # draws in a row whose proof ran out of work: give up, and say so
PREFILTER_CAP = 300  # expansions of the quick A* run that rejects draws below a moves range


class GenerationFailed(PuzzlesatError):
    """No level could be certified within the time limit or the number of draws allowed."""

    def __init__(self, message: str, stats: dict[str, Any]) -> None:
        super().__init__(message)
        self.stats = stats


@dataclass(frozen=True)
class GeneratedLevel:
    """A certified level: ``min_moves`` is its proven minimum, ``solution`` one shortest answer
    (verified); ``tries`` draws were made (``stats`` says why the others were dropped)."""

    level: Level
    solution: tuple[Move, ...]
    min_moves: int
    seed: int
    tries: int
    seconds: float = field(default=0.0, compare=False)
    stats: dict[str, Any] = field(default_factory=dict, compare=False)


# -- certification ----------------------------------------------------------------------------
def exact_solve(level: Level, *, time_limit: "Optional[float] | Deadline" = None, work_limit: Optional[int] = None):  # -> SolveResult
    """The family's exact solver (proven minimum) bounded by ``work_limit`` expansions;
    imported when first needed."""
    from .solve import solve

    return solve(level, time_limit=time_limit, work_limit=work_limit)


def certify_work(certify_time_limit: Optional[float]) -> Optional[int]:
    """The A* expansions one draw's proof may make for ``certify_time_limit`` nominal seconds
    (None: no limit). Work, not seconds, so that whether a proof ends does not depend on the
    machine's speed or load.

    >>> certify_work(60.0), certify_work(None)
    (900000, None)
    """
    if certify_time_limit is None:
        return None
    return max(1, round(certify_time_limit * NOMINAL_EXPANSIONS_PER_SECOND))


def generate(
    width: Optional[int] = None,
    height: Optional[int] = None,
    *,
    seed: int = 0,
    difficulty: str = "expert",
    goal: str = "match",
    moves: Optional[tuple[int, int]] = None,
    time_limit: Optional[float] = None,
    certify_time_limit: Optional[float] = DEFAULT_CERTIFY_LIMIT,
    max_tries: int = 10_000,
    on_try: Optional[Callable[[int, dict[str, Any]], None]] = None,
) -> GeneratedLevel:
    """One level drawn by the original generator and certified with its proven minimum.

    ``width`` (columns) and ``height`` (rows), both or neither, fix the board's size; without
    them the size is drawn from the ``difficulty``'s range.
    ``moves=(lo, hi)`` (or one number) keeps only levels whose proven minimum lies in [lo, hi]. Each draw's proof
    may do ``certify_time_limit`` nominal seconds of work (:func:`certify_work`; draws that run
    out are skipped and counted); ``time_limit`` bounds the whole call. Raises
    :class:`GenerationFailed` (with the counts) when no level is certified within ``time_limit``
    or ``max_tries`` draws. The same arguments give the same level and plan on any machine and
    load: the time limit may end the call, never change its level. ``on_try(tries, stats)``,
    when given, is called after each draw with the draws so far and the counts (a dict it must
    not change): ``generate swap`` shows them on its progress line.

    >>> made = generate(3, 2, difficulty="easy", moves=(2, 3), seed=1)
    >>> made.min_moves, (made.level.rows, made.level.cols), verify(made.level, made.solution)
    (2, (2, 3), [])
    """
    size = board_size(width, height)
    if is_whole_number(moves):
        moves = (moves, moves)  # type: ignore[assignment]
    if moves is not None and not (isinstance(moves, tuple) and len(moves) == 2 and all(is_whole_number(n) for n in moves)):
        raise TypeError(f"moves must be a whole number or a (lo, hi) pair, not {moves!r}")
    if moves is not None and moves[0] > moves[1]:
        raise ValueError(f"moves range {moves[0]}-{moves[1]} is empty")
    if moves is not None and moves[0] < 0:
        raise ValueError(f"moves must be 0 or more, not {moves[0]}")
    if moves is not None and moves[1] < 1:
        raise ValueError("a drawn level is never solved at the start (its goal differs), so ask for at least 1 move")
    _check_draw(difficulty, goal, size)
    if moves is not None:
        rows, cols = size if size is not None else (SIZES[difficulty][1], SIZES[difficulty][1])
        most = most_moves_needed(rows * cols)
        if moves[0] > most:
            board = f"{cols}x{rows}" if size is not None else f"{difficulty} (at most {cols}x{rows})"
            raise ValueError(f"no {board} level needs {moves[0]} moves: {rows * cols} cells hold at most "
                             f"{rows * cols}! arrangements of squares, and a shortest plan passes through each at most "
                             f"once, so at most {most} move{'s' if most != 1 else ''}; ask for fewer moves or a larger board")
    deadline = Deadline.of(time_limit)
    work = certify_work(Deadline.of(certify_time_limit, name="certify_time_limit").time_limit)  # (refused before any drawing)
    require_count(max_tries, "max_tries")
    require_seed(seed)
    rng = random.Random(seed)
    started = time.perf_counter()
    stats: dict[str, Any] = {**draw_counts(), "solve_seconds": 0.0}  # (draw_counts says what each holds)
    unknown_streak = counted_unknown = 0  # draws in a row whose proof ran out of time
    while stats["tries"] < max_tries:
        unknown_streak = unknown_streak + 1 if stats["unknown"] > counted_unknown else 0
        counted_unknown = stats["unknown"]
        if unknown_streak >= UNKNOWN_STREAK:
            raise GenerationFailed(f"the proofs of {unknown_streak} draws in a row ran out of work ({certify_time_limit:g} s of "
                                   f"nominal work, {work} expansions, each): allow more time per proof or ask for smaller "
                                   f"levels ({_summary(stats)})", stats)
        _check_time(deadline, stats)
        try:
            level = draw_level(rng, difficulty=difficulty, goal=goal, size=size)
            stats["tries"] += 1
            solve_started = time.perf_counter()
            bound = start_bound(level) if moves is not None else 0
            if moves is not None and bound > moves[1]:
                # the admissible bound at the start already proves the minimum is above the range
                _out_of_range(stats, above=bound)
                stats["solve_seconds"] += time.perf_counter() - solve_started
                continue
            if moves is not None:
                # a quick capped A* answer shorter than the range proves the minimum is below it
                quick = astar_solve(level, cap=PREFILTER_CAP, time_limit=deadline)
                _check_time(deadline, stats)  # (a run the clock cut short decides nothing)
                if quick.status is Status.SOLVED and len(quick.solution) < moves[0]:
                    _out_of_range(stats, below=len(quick.solution))
                    stats["solve_seconds"] += time.perf_counter() - solve_started
                    continue
            result = exact_solve(level, time_limit=deadline, work_limit=work)
            stats["solve_seconds"] += time.perf_counter() - solve_started
            _check_time(deadline, stats)
            if result.status is Status.UNSATISFIABLE:
                stats["unsolvable"] += 1
                continue
            if result.status is not Status.SOLVED or not result.optimal:
                if moves is not None and result.lower_bound is not None and result.lower_bound > moves[1]:
                    _out_of_range(stats, above=result.lower_bound)  # proven: the minimum is above the range
                else:
                    stats["unknown"] += 1
                continue
            solution = tuple(m if isinstance(m, Move) else Move.parse(m) for m in result.solution)
            require_valid(verify(level, solution), result.method or "the exact solver")
            minimum = len(solution)
            if moves is not None and not moves[0] <= minimum <= moves[1]:
                _out_of_range(stats, **({"below": minimum} if minimum < moves[0] else {"above": minimum}))
                continue
            stats["solve_seconds"] = round(stats["solve_seconds"], 4)
            certified = Level(
                level.start,
                level.goal,
                stated_minimum=minimum,
                stated_solution=solution,
                comments=(f"swap {difficulty} {goal}, seed {seed}, proven minimum {minimum}",),
            )
            return GeneratedLevel(certified, solution, minimum, seed, stats["tries"], time.perf_counter() - started, stats)
        finally:
            if on_try is not None:
                on_try(stats["tries"], stats)
    raise GenerationFailed(f"no level certified in {max_tries} draws ({_summary(stats)})", stats)


def _check_time(deadline: Deadline, stats: dict[str, Any]) -> None:
    """End the call once its time limit has passed: a proof the clock cut short would make the
    level depend on the machine's speed, so it is never taken as a verdict."""
    if deadline.expired():
        raise GenerationFailed(f"no level certified within {deadline.time_limit:g}s ({_summary(stats)})", stats)


def most_moves_needed(cells: int) -> int:
    """An upper bound on the minimum number of moves of any solvable level of ``cells`` cells:
    its squares take at most ``cells!`` arrangements, and a shortest plan never comes back to
    one, so it makes at most ``cells! - 1`` moves. Far above real minima, but proven: only
    requests it rules out are refused.

    >>> most_moves_needed(2), most_moves_needed(6)
    (1, 719)
    """
    return math.factorial(cells) - 1


def start_bound(level: Level) -> int:
    """The exact search's admissible lower bound at the level's start (cheap: no search)."""
    from .bounds import lower_bound
    from .compiled import Task

    return lower_bound(Task.from_level(level))


def draw_counts() -> dict[str, Any]:
    """Fresh counts of draws, as :func:`generate` keeps them in its stats (and ``generate swap``
    over a whole pack): ``out_of_range`` = ``below`` + ``above``; ``most_below``, the most moves
    any draw below the range needs (its minimum, or a quick answer's length); ``least_above``,
    the fewest any draw above it needs."""
    return {"tries": 0, "unsolvable": 0, "unknown": 0, "out_of_range": 0, "below": 0, "above": 0,
            "most_below": None, "least_above": None}


def add_draw_counts(totals: dict[str, Any], stats: dict[str, Any]) -> None:
    """Add one generate call's counts (its stats) to ``totals`` (:func:`draw_counts`), the
    extremes of the out-of-range draws too.

    >>> totals = draw_counts()
    >>> add_draw_counts(totals, {**draw_counts(), "tries": 3, "below": 1, "out_of_range": 1, "most_below": 4})
    >>> totals["tries"], totals["most_below"], totals["least_above"]
    (3, 4, None)
    """
    for key in totals:
        value = stats.get(key)
        if key == "most_below" and value is not None:
            totals[key] = value if totals[key] is None else max(totals[key], value)
        elif key == "least_above" and value is not None:
            totals[key] = value if totals[key] is None else min(totals[key], value)
        elif key not in ("most_below", "least_above"):
            totals[key] += value or 0


def _out_of_range(stats: dict[str, Any], *, below: int | None = None, above: int | None = None) -> None:
    """Count a draw whose minimum is proven outside the moves range: ``below`` moves suffice for
    it (its minimum, or a shorter answer's length), or it needs at least ``above``."""
    stats["out_of_range"] += 1
    if below is not None:
        stats["below"] += 1
        stats["most_below"] = below if stats["most_below"] is None else max(stats["most_below"], below)
    if above is not None:
        stats["above"] += 1
        stats["least_above"] = above if stats["least_above"] is None else min(stats["least_above"], above)


def range_phrase(stats: dict[str, Any]) -> str:
    """Where the draws outside the moves range fell, for a summary: ``29 below it, each solved in
    at most 14 moves, and 1 above it, each needing at least 9``; empty when none did.

    >>> stats = {"out_of_range": 0, "below": 0, "above": 0, "most_below": None, "least_above": None}
    >>> _out_of_range(stats, below=3); _out_of_range(stats, below=14); _out_of_range(stats, above=9)
    >>> range_phrase(stats)
    '2 below it, each solved in at most 14 moves, and 1 above it, each needing at least 9'
    """
    parts = []
    if stats.get("below"):
        parts.append(f"{stats['below']} below it, each solved in at most {stats['most_below']} moves")
    if stats.get("above"):
        parts.append(f"{stats['above']} above it, each needing at least {stats['least_above']}")
    return ", and ".join(parts)


def _summary(stats: dict[str, Any]) -> str:
    where = range_phrase(stats)
    return (f"{stats['tries']} draws: {stats['unsolvable']} unsolvable, {stats['unknown']} unknown, "
            f"{stats['out_of_range']} out of range" + (f": {where}" if where else ""))
