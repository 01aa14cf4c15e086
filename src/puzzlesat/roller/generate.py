"""Seeded Roller level generator: every level it emits is solvable and carries its proven minimum.

Rule reminder: the ball slides until a wall and paints what it passes; a level is good when one
walk from the start paints the whole floor. Difficulty is the proven minimum number of moves.

How a level is made (one *try*):

1. Carve: a W x H board of walls; the ball starts on a random inner cell and a walk of random
   slides carves floor, each slide reserving the cell after its end as wall so that the ball
   really stops there (see :func:`carve`); the outer border stays wall, as on every published
   level. The walk is an answer on the finished board, so every carved board is solvable; the
   number of slides adapts to the asked difficulty.
2. Keep the board only when it has at least ``min_floor`` floor cells (:func:`trim`, which
   walls off floor no reachable slide paints, is the general tool for boards made otherwise).
3. Certify: :func:`puzzlesat.roller.solve.solve` must return a *proven* minimum; unsolvable
   levels, unproven answers (time out) and minima outside ``moves`` are rejected and another
   try is made. Levels painted in at most 2 moves are trivial and always rejected, so is a
   floor below ``min_floor`` (default: a third of the inner cells, at least 5 or all of them).

The answer is checked by :func:`puzzlesat.roller.verify.verify` (solve does it too). The same
``seed`` gives the same level; ``tries`` says how many boards were made to find it. The first
board whose minimum falls in the range is taken, so minima lean to the lower part of a wide
range: ask for a narrow range (or an exact count) to steer the difficulty.
``python -m benchmarks.roller_generate`` measures the rate and re-proves every claim.

>>> from puzzlesat.roller.generate import carve
>>> import random
>>> level = carve(7, 5, steps=8, rng=random.Random(3))
>>> level.size, level.rows[0], level.is_floor(level.start)
((7, 5), '#######', True)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..errors import PuzzlesatError, require_count, require_valid
from ..grid import is_whole_number
from ..results import Status
from ..seeds import require_seed
from ..timing import Deadline
from .model import DELTAS, FLOOR, MOVES, WALL, Level, slide
from .verify import verify

MAX_AREA = 40 * 40  # the generator's board limit (the solver proves minima of real levels up to ~20x20 fast)
MAX_TRIES = 10_000  # boards drawn per level before giving up (generate --max-tries), as the other families draw
DEFAULT_CERTIFY_LIMIT = 10.0  # seconds per proof of one board's minimum (generate --certify-limit)
UNPROVEN_STREAK = 20  # boards in a row whose proof ran out of time: give up, and say so (as Swap does)


class GenerationFailed(PuzzlesatError):
    """No level met the request within the tries or the time allowed."""


@dataclass(frozen=True)
class GeneratedLevel:
    """A generated level with its proven-shortest answer (``min_moves`` = ``len(solution)``)."""

    level: Level
    solution: str
    min_moves: int
    seed: int
    tries: int
    seconds: float = field(compare=False)


def _moves_range(moves: int | tuple[int, int] | None, width: int, height: int) -> tuple[int, int]:
    if moves is None:
        inner = max(1, (width - 2) * (height - 2))
        lo = max(3, round(inner ** 0.5))
        return lo, max(lo, 2 * lo)
    if is_whole_number(moves):
        return moves, moves  # type: ignore[return-value]
    if not (isinstance(moves, tuple) and len(moves) == 2 and all(is_whole_number(n) for n in moves)):
        raise TypeError(f"moves must be a whole number or a (lo, hi) pair, not {moves!r}")
    return moves


def most_moves_needed(floor_count: int) -> int:
    """An upper bound on the minimum number of moves of any solvable level with this many floor
    cells: F (F - 1) / 2 for F floor cells (the argument is in ``encodings/roller.md``, section 11).

    In a shortest answer the moves that paint nothing new between two that do visit distinct
    stops, all of them painted; so after the k-th move that paints something, with at most
    F - (P - k) cells painted (P such moves, each painting a new cell, P <= F - 1), the ball
    makes at most that many moves until the next one. The bound is far above the minima of
    real levels; it only proves some requests impossible.

    >>> most_moves_needed(3), most_moves_needed(36)
    (3, 630)
    """
    return floor_count * (floor_count - 1) // 2


def carving_reach(width: int, height: int) -> int:
    """The most slides a carving walk of :func:`generate` makes on a W x H board (each walk is an
    answer of the level it carves, so no level this generator draws needs more moves)."""
    return 6 * (width - 2) * (height - 2)


def carve(width: int, height: int, *, steps: int, rng: random.Random) -> Level:
    """A walled board carved by a walk of ``steps`` slides from a random inner start cell.

    Each slide carves floor from the ball's cell in a random direction for a random length and
    *reserves* the cell after its end as wall (never carved later), so the ball really stops
    there: the walk (returned as the level's ``known_answer``) replays on the finished board and
    paints all of it, an upper bound on the minimum that the solver then improves and proves. A slide may cross earlier floor but never
    ends where the next cell is floor. The outer border stays wall.
    """
    floor: set[tuple[int, int]] = set()
    reserved: set[tuple[int, int]] = set()
    r, c = rng.randrange(1, height - 1), rng.randrange(1, width - 1)
    start = (r, c)
    floor.add(start)

    def inner(cell: tuple[int, int]) -> bool:
        return 0 < cell[0] < height - 1 and 0 < cell[1] < width - 1

    walk: list[str] = []
    for _ in range(steps * 8):
        if len(walk) >= steps:
            break
        direction = rng.choice(MOVES)
        dr, dc = DELTAS[direction]
        lengths = []
        length = 1
        while True:
            cell = (r + length * dr, c + length * dc)
            if not inner(cell) or cell in reserved:
                break
            after = (cell[0] + dr, cell[1] + dc)
            if not inner(after) or after in reserved or after not in floor:
                lengths.append(length)
            length += 1
        if not lengths:
            continue
        length = rng.choice(lengths)
        for step in range(1, length + 1):
            floor.add((r + step * dr, c + step * dc))
        r, c = r + length * dr, c + length * dc
        after = (r + dr, c + dc)
        if inner(after):
            reserved.add(after)
        walk.append(direction)
    rows = tuple("".join(FLOOR if (i, j) in floor else WALL for j in range(width)) for i in range(height))
    return Level(rows, start, known_answer="".join(walk))


def trim(level: Level) -> Level:
    """The level with every floor cell that no slide reachable from the start paints turned to wall.

    >>> trim(Level(("....", "#.#.", "...."), (0, 0))).rows   # (1, 1) is never painted
    ('....', '###.', '....')
    """
    seen = {level.start}
    frontier = [level.start]
    painted = {level.start}
    while frontier:
        cell = frontier.pop()
        for direction in MOVES:
            stop, cells = slide(level, cell, direction)
            painted.update(cells)
            if cells and stop not in seen:
                seen.add(stop)
                frontier.append(stop)
    rows = tuple("".join(FLOOR if (r, c) in painted else WALL for c in range(level.width)) for r in range(level.height))
    return Level(rows, level.start, name=level.name)


def generate(
    width: int,
    height: int,
    *,
    moves: int | tuple[int, int] | None = None,
    seed: int = 0,
    time_limit: float | Deadline | None = None,
    min_floor: int | None = None,
    max_tries: int = MAX_TRIES,
    method: str | None = None,
    certify_time_limit: float | None = DEFAULT_CERTIFY_LIMIT,
    name: str = "",
    on_try: Callable[[int, Sequence[int]], None] | None = None,
) -> GeneratedLevel:
    """A random W x H level (outer border wall) whose proven minimum lies in ``moves``.

    ``moves`` is ``(lo, hi)``, an exact count, or None (a range from the board size). Raises
    ValueError at once for a request no level of the size can meet (``lo`` above
    :func:`most_moves_needed` of the inner cells), and :class:`GenerationFailed` when
    ``time_limit`` seconds or ``max_tries`` boards pass without success, or at once when ``lo``
    is beyond what its carving walks reach (:func:`carving_reach`); ``certify_time_limit`` bounds
    each certification (an unproven level is rejected; after ``UNPROVEN_STREAK`` in a row,
    :class:`GenerationFailed` says the proofs run out of work). With the default method (flow)
    it bounds work, not time: CP-SAT's deterministic seconds, so the same seed gives the same
    level on any machine and load (``time_limit`` may end a generation, never change its
    level); other methods are bounded by the clock. ``on_try(tries, minima)``, when given, is
    called after each board drawn with the boards drawn so far and the proven minima of those
    certified (a list it must not change): ``generate roller`` shows them on its progress line.

    >>> generate(8, 8, moves=1000)
    Traceback (most recent call last):
    ...
    ValueError: no 8x8 level needs 1000 moves: its 36 inner cells (inside the wall border) are painted in at most 630 moves (F (F - 1) / 2 for F floor cells); ask for fewer moves or a larger board

    >>> made = generate(6, 5, moves=(3, 4), seed=1)
    >>> made.min_moves, len(made.solution), made.level.size, verify(made.level, made.solution)
    (3, 3, (6, 5), [])
    """
    from .solve import solve

    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (width, height)):
        raise TypeError(f"width and height must be whole numbers, not {width!r} and {height!r}")
    if width < 3 or height < 3:
        raise ValueError(f"a {width}x{height} board has no inner cells: use at least 3x3")
    if width * height > MAX_AREA:
        raise ValueError(f"a {width}x{height} board is larger than the generator's limit of {MAX_AREA} cells")
    lo, hi = _moves_range(moves, width, height)
    asked = f"{lo}" if lo == hi else f"{lo}-{hi}"
    if lo > hi:
        raise ValueError(f"moves range {lo}-{hi} is empty")
    if lo < 0:
        raise ValueError(f"moves must be 0 or more, not {lo}")
    if hi < 3:
        raise ValueError(f"levels painted in at most 2 moves are trivial: ask for at least 3 moves, not {asked}")
    if min(width, height) == 3:
        raise ValueError(f"a {width}x{height} board's inside is one cell wide, painted in at most 2 moves: "
                         "use at least 4 cells each way")
    lo = max(lo, 3)
    inner = (width - 2) * (height - 2)
    most = most_moves_needed(inner)
    if lo > most:
        raise ValueError(f"no {width}x{height} level needs {asked} moves: its {inner} inner cells (inside the wall border) "
                         f"are painted in at most {most} moves (F (F - 1) / 2 for F floor cells); "
                         "ask for fewer moves or a larger board")
    if min_floor is not None and not is_whole_number(min_floor):
        raise TypeError(f"min_floor must be a whole number of floor cells or None, not {min_floor!r}")
    if min_floor is not None and min_floor < 0:
        raise ValueError(f"min_floor must be 0 or more floor cells, not {min_floor}")
    floor_needed = min(inner, max(5, inner // 3)) if min_floor is None else min_floor  # 4x4: all 4 inner cells
    if floor_needed > inner:  # (only a min_floor given: the default is at most the inner cells)
        raise ValueError(f"min_floor {floor_needed} exceeds the {inner} inner cells of a {width}x{height} board: "
                         "use a larger board or a smaller min_floor")
    rng = random.Random(seed)
    deadline = Deadline.of(time_limit)
    certify_seconds = Deadline.of(certify_time_limit, name="certify_time_limit").time_limit  # (refused before any drawing)
    by_work = method in (None, "exact", "flow")  # (the flow model's work is counted: CP-SAT's deterministic time)
    require_count(max_tries, "max_tries")
    require_seed(seed)
    reach = carving_reach(width, height)
    if lo > reach:
        # possible, perhaps, but not for this generator: fail at once rather than after max_tries draws
        raise GenerationFailed(
            f"this generator cannot draw a {width}x{height} level needing {asked} moves: it carves each level with a walk "
            f"of at most {reach} slides, which paints it, so its levels need at most {reach} moves; "
            "ask for fewer moves or a larger board")
    started = time.perf_counter()
    target = (lo + hi) / 2
    steps = max(4, int(target * 2))
    minima: list[int] = []  # the proven minima of the levels drawn, for the failure message
    tries = unproven_streak = 0  # (boards in a row whose proof ran out of work, or time)
    while tries < max_tries and not deadline.expired():
        if unproven_streak >= UNPROVEN_STREAK:
            raise GenerationFailed(
                f"the proofs of {unproven_streak} {width}x{height} boards in a row ran out of "
                f"{'work' if by_work else 'time'} ({certify_time_limit:g} s {'of CP-SAT work ' if by_work else ''}each, "
                f"after {tries} tries in {time.perf_counter() - started:.1f}s): allow more time per proof or ask for smaller levels")
        tries += 1
        try:
            level = carve(width, height, steps=steps, rng=rng)
            walk = level.known_answer or ""
            if level.floor_count < floor_needed or len(walk) < lo:
                steps = min(steps + 1 + max(0, lo - len(walk)) // 2, reach)
                continue  # too small, or the carving walk already paints it in fewer moves than asked
            if by_work:  # (the clock may only end the generation: the loop's test)
                result = solve(level, time_limit=deadline, method=method, work_limit=certify_seconds)
            else:
                remaining = deadline.remaining()
                limit = certify_time_limit if remaining is None else min(remaining, certify_time_limit or remaining)
                result = solve(level, time_limit=limit, method=method)
            if result.status is not Status.SOLVED or not result.optimal or result.solution is None:
                # (not when the level's own time limit cut the proof short)
                out_of_work = certify_seconds is not None and not deadline.expired()
                unproven_streak = unproven_streak + 1 if out_of_work else 0
                continue  # the minimum is not proven within its work (or time)
            unproven_streak = 0
            answer = result.solution
            found = len(answer)
            minima.append(found)
            if found < lo:
                steps = min(steps + 1 + (lo - found) // 2, reach)
                continue
            if found > hi:
                steps = max(4, steps - 1 - (found - hi) // 2)
                continue
            require_valid(verify(level, answer), f"roller method {result.method!r}")  # (solve checks too)
            named = Level(level.rows, level.start, name=name, par=found, known_answer=answer)
            return GeneratedLevel(named, answer, found, seed, tries, time.perf_counter() - started)
        finally:
            if on_try is not None:
                on_try(tries, minima)
    drawn = (f"; the {len(minima)} levels proven had minima of {min(minima)}-{max(minima)} moves" if minima
             else "; no level drawn had its minimum proven")
    raise GenerationFailed(
        f"no {width}x{height} level with a proven minimum of {lo}-{hi} moves and at least {floor_needed} floor cells "
        f"after {tries} tries in {time.perf_counter() - started:.1f}s (seed {seed}){drawn}"
    )
