"""Generate Numberlink puzzles whose uniqueness is certified by SAT from their text alone.

A generator draws a full answer first (a partition of the board into paths), takes its
endpoints as the puzzle, and keeps it when a fresh SAT count (limit 2) of the puzzle *as
re-read from its native text* finds exactly one answer. Two published methods:

``unionfind`` (the union-find partition of the "Number Link game" write-up): repeatedly pick a
random pair of adjacent squares that lie on no path, join them, and extend the path from its end
to a random neighbour that lies on no path and whose only neighbour on the current path is that
end, until it cannot grow; when no pair of free adjacent squares remains, the isolated leftovers
become blocked squares. Its puzzles are often not unique: without ``unique=True`` each is
labelled by the certificate (``Generated.unique``); with it, draws repeat until one is unique.

``quality`` (the puzzle-maker pipeline of puzzlemadness.co.uk, "How we make Numberlink
puzzles"): a blank grid; one random link with up to 6 turns; then repeatedly a link from a
dead-end cell (a free cell with at most one free neighbour; any free cell when none is left) by
a shortest path with the fewest turns to a random free cell reachable from it, with small
isolated free areas (3 cells or fewer) absorbed by extending a neighbouring link's end into them;
until the grid is covered. Links whose ends are adjacent are merged while the link count is above
the target; a candidate with a 2-cell link or a "loop" (a link whose two ends are adjacent) is
rejected, as is one whose link count lies outside the band (:func:`link_band`, by default
:func:`target_links` +-15 %); links are renumbered 1..K in reading order; only a SAT-certified
unique puzzle is returned. One addition to the published steps: merges and absorptions that
would make a link run beside itself are avoided, and a candidate whose drawn answer still does
is rejected before the certificate, because such a puzzle is almost never unique (in a sample of
400 10x10 candidates, 4 of 380 with such a link were unique, against 15 of 20 without); and a
new link's target is redrawn (up to 6 times) when the link would cut off a small area that no
link end could absorb without a loop or such a link. Together these raised the certified rate
more than ten-fold (``benchmarks/generators.py``). A second addition:
when the count finds a second answer, the candidate is not thrown away but *cut where the two
answers part* — one link split in two at a step the second answer does not take (both parts at
least 3 cells, neither a loop nor running beside itself, the link count staying in the band),
so that answer is gone — and counted again, until unique, out of time, or no such cut is left
(each count is a try): 220 unique 15x15 puzzles per minute against 41 drawing afresh, and
20x20 within a minute (``docs/numberlink-search-and-generators.md``).

Both are seeded and deterministic: the same arguments give the same puzzle (unless a time
limit cut a certificate short). Puzzle ``i`` of a pack with seed ``s`` uses :func:`puzzlesat.seeds.puzzle_seed`.

The candidates are drawn by :mod:`.unionfind` and :mod:`.quality` (over :mod:`.links`) and
certified by :mod:`.certifying`; this module holds the request's checks and the loop of draws.

>>> g = generate(6, 5, method="quality", seed=3)
>>> g.unique, g.puzzle.size, g.method
(True, (6, 5), 'quality')
>>> from puzzlesat.numberlink.verify import verify
>>> verify(g.puzzle, g.solution)
[]
>>> generate(6, 5, method="quality", seed=3).puzzle == g.puzzle
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import PuzzlesatError, require_count
from ..sat import check_solver_name
from ..seeds import require_seed
from ..timing import Deadline
from .certifying import _check_conflicts, _count_from_text, certify_conflicts, count_by_work, count_in_search, puzzle_text  # noqa: F401 (some imported from here too)
from .links import BAND, _neighbours, _puzzle_from_links, link_band, links_in_label_order  # noqa: F401 (some imported from here too)
from .model import DEFAULT_RULES, MAX_CELLS, Puzzle, Rules, Solution
from .quality import _quality_problem, _reject, _split_where_answers_differ, _steps, quality_links, turned_down  # noqa: F401 (some imported from here too)
from .unionfind import _FreePairs, grow_unionfind, unionfind_links  # noqa: F401 (some imported from here too)
from .verify import verify

METHODS = ("quality", "unionfind")
DEFAULT_MAX_TRIES = 10_000  # candidates drawn (each a try) before generate gives up


class GenerationFailed(PuzzlesatError):
    """No certified puzzle within the allowed tries or time."""

    def __init__(self, message: str, *, tries: int = 0) -> None:
        super().__init__(message)
        self.tries = tries


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with the answer it was built from.

    ``unique``: True when a fresh SAT count of the puzzle re-read from its text found exactly one
    answer, False when it found two, None when the count ran out of time (only possible without
    ``unique=True``). ``tries``: answers drawn (and certificates run) to get this one.
    The multi-layer generators (:mod:`.multilayer.generate`) return it too, holding multi-layer
    puzzles and answers; their routing problems are never counted (``unique`` None).
    """

    puzzle: Puzzle
    solution: Solution
    unique: bool | None
    tries: int
    seconds: float = field(compare=False)  # two runs of one request compare equal
    seed: int
    method: str

    def link_lengths(self) -> list[int]:
        """Cells per link, in label order."""
        return [len(cells) for _, cells in self.solution.paths]


TIMED_OUT_STREAK = 50  # candidates in a row whose uniqueness count ran out of time: give up, and say so


def check_request(width: int, height: int, *, method: str = "quality", band: float = BAND,
                  target: float | None = None) -> tuple[int, int]:
    """The accepted link counts of a request, or ValueError / TypeError saying why it cannot be
    met (checked before any drawing, so an impossible request fails at once).

    >>> check_request(10, 10)
    (8, 12)
    >>> check_request(5, 5, target=1000)
    Traceback (most recent call last):
    ...
    ValueError: the band asks for at least 850 links, but a 5x5 board holds at most 8 links of 3 cells or more
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (width, height)):
        raise TypeError(f"width and height must be whole numbers, not {width!r} and {height!r}")
    if width < 2 or height < 2:
        raise ValueError(f"board {width}x{height} is too small to generate (at least 2x2)")
    if width * height > MAX_CELLS:
        raise ValueError(f"board {width}x{height} is larger than the {MAX_CELLS} cells a puzzle may have")
    if method == "quality" and width * height < 9:
        raise ValueError("the quality method needs at least 9 cells (links of 3 cells or more)")
    if not (math.isfinite(band) and band >= 0):
        raise ValueError(f"band must be a fraction of zero or more, not {band!r}")
    if target is not None and not (math.isfinite(target) and target > 0):
        raise ValueError(f"target must be a positive number of links, not {target!r}")
    low_high = link_band(width, height, band=band, target=target)
    most = width * height // 3
    if method == "quality" and low_high[0] > most:
        raise ValueError(f"the band asks for at least {low_high[0]} links, but a {width}x{height} board holds at most "
                         f"{most} links of 3 cells or more")
    return low_high


def generate(
    width: int,
    height: int,
    *,
    method: str = "quality",
    seed: int = 0,
    unique: bool = True,
    rules: Rules = DEFAULT_RULES,
    time_limit: float | Deadline | None = None,
    certify_time_limit: float | None = 10.0,
    band: float = BAND,
    target: float | None = None,
    max_tries: int = DEFAULT_MAX_TRIES,
    solver: str | None = None,
    on_try: Callable[[int, int, dict[str, Any]], None] | None = None,
    certify_work: int | None = None,
) -> Generated:
    """One puzzle of ``width`` x ``height`` by ``method`` ("quality" or "unionfind").

    ``unique=True`` (the default) returns only a puzzle that SAT certifies unique under ``rules``
    from its text; the quality method always requires it. ``time_limit`` bounds the whole call
    (GenerationFailed when it runs out). Each uniqueness count is :func:`count_by_work`: at most
    ``certify_work`` conflicts per solver call decide it (by default the nominal work of
    ``certify_time_limit`` seconds, :func:`certify_conflicts`; a count undecided within them
    counts as a failed try, or labels the puzzle ``unique=None`` when uniqueness is not
    required), so the same arguments give the same puzzle on any machine and load: the clock
    (``time_limit``) may end a generation, never change its outcome. ``band``/``target`` set the quality method's accepted link counts
    (:func:`link_band`). Raises GenerationFailed after ``max_tries`` certificates (or 100 times
    as many draws), saying why the candidates drawn were turned down. ``on_try(draws, tries,
    rejected)``, when given, is called after each draw with the draws and certificates so far and
    the reasons candidates were turned down (a dict of counts it must not change; ``links``: the
    fewest and most links a quality candidate had): ``generate numberlink`` shows them on its
    progress line.

    >>> g = generate(5, 5, method="unionfind", seed=1, unique=False)
    >>> g.method, g.tries, g.unique in (True, False)
    ('unionfind', 1, True)
    """
    low_high = check_request(width, height, method=method, band=band, target=target)
    require_count(max_tries, "max_tries")
    certify_seconds = Deadline.of(certify_time_limit, name="certify_time_limit").time_limit  # (refused before any drawing)
    work = certify_conflicts(certify_seconds) if certify_work is None else _check_conflicts(certify_work, "certify_work")
    if solver is not None:
        check_solver_name(solver)  # before any drawing, not at the first certificate
    require_seed(seed)
    deadline = Deadline.of(time_limit)
    rng = random.Random(seed)
    started = time.perf_counter()
    tries = 0
    draws = timed_out = 0
    rejected: dict[str, Any] = {}  # why candidates were turned down (turned_down)
    while True:
        if on_try is not None and draws:
            on_try(draws, tries, rejected)
        if deadline.expired():
            raise GenerationFailed(f"no certified {width}x{height} puzzle within {deadline.time_limit} s "
                                   f"({draws} draws, {tries} tries{turned_down(rejected, low_high)})", tries=tries)
        draws += 1
        if draws > max_tries * 100:
            raise GenerationFailed(f"no acceptable {width}x{height} candidate in {draws - 1} draws"
                                   f"{turned_down(rejected, low_high)}", tries=tries)
        if method == "unionfind":
            links, blocked = unionfind_links(width, height, rng, deadline=deadline)
            if not links:
                _reject(rejected, "with no path drawn")
                continue
        else:
            candidate = quality_links(width, height, rng, target=target, deadline=deadline)
            problem = "with a leftover area no link absorbs" if candidate is None else _quality_problem(candidate, low_high)
            if candidate is not None:
                most_least = rejected.get("links", (len(candidate), len(candidate)))
                rejected["links"] = (min(most_least[0], len(candidate)), max(most_least[1], len(candidate)))
            if problem is not None:
                _reject(rejected, problem)
                continue
            links, blocked = candidate, frozenset()
        puzzle, solution = _puzzle_from_links(width, height, links, blocked)
        if verify(puzzle, solution, rules):
            _reject(rejected, "with a drawn path that breaks the rules")
            continue  # e.g. a drawn path that runs beside itself under no-self-touch rules
        while True:  # certify; a quality candidate with a second answer is cut where the two part
            tries += 1
            counted, reread = _count_from_text(puzzle, rules=rules, time_limit=deadline, solver=solver, work=work, known=solution)
            if counted is None:  # (the clock ends the generation; it never decides a try)
                raise GenerationFailed(f"no certified {width}x{height} puzzle within {deadline.time_limit} s: a uniqueness "
                                       f"count ran out of time ({draws} draws, {tries} tries)", tries=tries)
            if on_try is not None:
                on_try(draws, tries, rejected)
            is_unique = counted.unique
            if is_unique or not (unique or method == "quality"):
                return Generated(reread, solution, is_unique, tries, time.perf_counter() - started, seed, method)
            timed_out = timed_out + 1 if is_unique is None else 0
            if timed_out >= TIMED_OUT_STREAK:
                raise GenerationFailed(f"the uniqueness counts of {timed_out} {width}x{height} candidates in a row ran out of work "
                                       f"(undecided within {work} conflicts per solver call): allow more work (certify_time_limit or certify_work)", tries=tries)
            if tries >= max_tries:
                raise GenerationFailed(f"no certified unique {width}x{height} puzzle in {tries} tries", tries=tries)
            if method != "quality" or is_unique is None or deadline.expired():
                break
            drawn = _steps(links)  # (the count may have found the drawn answer second)
            other = next(answer for answer in counted.solutions if _steps(cells for _, cells in answer.paths) != drawn)
            links = _split_where_answers_differ(links, other, rng, low_high[1])
            if links is None:
                break
            puzzle, solution = _puzzle_from_links(width, height, links, blocked)
            if verify(puzzle, solution, rules):  # pragma: no cover (the parts are checked as drawn links are)
                break
