"""Generate multi-layer (3-D) Numberlink puzzles: certified unique ones, and contest routing problems.

A generator draws a full answer first (paths on a stack of layers, each step to one of the four
neighbours on a layer or to the same place on the layer above or below), takes the paths' ends
as the puzzle, and checks the answer with :func:`~.verify.verify` under the stated rules before
it returns anything. Three methods (``METHODS``):

``split`` (the default; unique puzzles): the union-find partition of the one-layer generator
(:func:`..generate.grow_unionfind`) grown in 3-D; then, as the one-layer quality pipeline
absorbs small leftover areas, every short piece (a 2-cell link, or a cell union-find left
over) is joined to a piece whose end touches it (never into a link whose ends touch; under
no-self-touch rules never into one that runs beside itself); what still has fewer than 3
cells is left over: blocked cells under cover-all rules, empty ones otherwise (this halves
the blocked cells of union-find, e.g. a median of 5 instead of 11 on 8x8x2, at the cost
of more counts). Then the puzzle, re-read from its layered text, is
counted (:func:`~.solve.count`, limit 2); while it has a second answer, one of its links is
*split* in two at a step that the second answer does not take (both parts at least 3 cells),
which keeps the drawn answer and adds two endpoints where the answers part. A link that can
no longer be split so ends the draw. Only a puzzle the count proves unique is returned.

``unionfind``: the union-find partition alone, as on one layer (leftovers blocked under
cover-all rules); ``unique=True`` (the default) draws again until the count proves one unique,
``unique=False`` labels each puzzle with the count's verdict. Unique stacks are rare beyond
about 4x4x2 under cover-all rules (``docs/numberlink-search-and-generators.md``).

``routing`` (contest routing problems, as in the DA Symposium Algorithm Design Contest
2016-2018): may-leave-empty rules, no blocked cells, ``lines`` numbered pairs (default
:func:`target_lines`). Each line is drawn in turn: a random start among the cells no line
uses yet, a wanted length between ``min_length`` (default 3: no line's ends touch) and
:func:`longest_line` cells, and a random shortest path through the unused cells to a random
cell that far away (or as far as the unused cells reach, when that is at least
``min_length``). A shortest path never runs beside itself, so the answer holds under
no-self-touch rules too. Uniqueness is not asked of these (the contest does not); the drawn
answer proves each solvable and comes with it (``Generated.solution``); ``unique`` is None.

Every method is seeded and deterministic: the same arguments give the same puzzle (unless a
time limit cut a count short); puzzle ``i`` of a run with seed ``s`` uses
:func:`puzzlesat.seeds.puzzle_seed`. The result is the one-layer family's
:class:`..generate.Generated` holding multi-layer puzzles and answers.

This module holds the request check, the certificates and the verb; the answers are drawn by
:mod:`.drawing` (the board, union-find, joins and splits) and :mod:`.routes` (routing problems).

>>> made = generate(4, 4, 2, seed=1)
>>> made.unique, made.puzzle.size, made.method
(True, (4, 4, 2), 'split')
>>> from puzzlesat.numberlink.multilayer import count, verify
>>> verify(made.puzzle, made.solution), count(made.puzzle).unique
([], True)
>>> contest = generate(8, 8, 3, method="routing", rules=Rules(cover_all=False), lines=10, seed=2)
>>> len(contest.puzzle.pairs), contest.unique, min(contest.link_lengths()) >= 3
(10, None, True)
>>> generate(8, 8, 3, method="routing", rules=Rules(cover_all=False), lines=10, seed=2) == contest
True
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from ...errors import require_count, require_type, require_valid
from ...grid import is_whole_number
from ...results import CountResult
from ...sat import check_solver_name
from ...seeds import require_seed
from ...timing import Deadline
from ..generate import _check_conflicts, certify_conflicts, count_in_search
from ..generate import DEFAULT_MAX_TRIES, TIMED_OUT_STREAK, Generated, GenerationFailed, turned_down
from ..model import DEFAULT_RULES, Rules
from .drawing import (  # noqa: F401 (the private ones imported from here too)
    MIN_LENGTH, _cells, _clean, _join_short_pieces, _neighbours, _puzzle_from_links, _split_where_answers_differ,
    unionfind_links,
)
from .formats import format as format_text
from .formats import parse
from .model import MAX_CELLS, Puzzle, Solution
from .routes import (  # noqa: F401 (the private ones imported from here too)
    ROUTE_ATTEMPTS, _draw_unused, _random_shortest_path, longest_line, routing_links, target_lines,
)
from .solve import count
from .verify import verify

__all__ = ["METHODS", "generate", "check_request", "certify", "reread", "TEXT_FORMAT", "target_lines", "longest_line",
           "unionfind_links", "routing_links", "Generated", "GenerationFailed"]

METHODS = ("split", "unionfind", "routing")
# the text each method's puzzles are written in (and certified from): the contest's own format
# for routing problems, which have no blocked cells; the layered text, which has, for the others
TEXT_FORMAT = {"split": "layers", "unionfind": "layers", "routing": "adc"}


def check_request(width: int, height: int, layers: int, *, method: str = "split", rules: Rules = DEFAULT_RULES,
                  unique: bool | None = None, lines: int | None = None, min_length: int | None = None) -> tuple[bool, int, int]:
    """``(unique, lines, min_length)`` as the request resolves them (lines and min_length are 0
    outside the routing method), or ValueError / TypeError saying why it cannot be met, checked
    before any drawing.

    >>> check_request(8, 8, 3, method="routing", rules=Rules(cover_all=False))
    (False, 12, 3)
    >>> check_request(4, 4, 2, method="routing", rules=Rules(cover_all=False), lines=11)
    Traceback (most recent call last):
    ...
    ValueError: 11 lines of at least 3 cells need 33 cells, but a 4x4x2 stack has 32 cells and leaves at most 10 such lines
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if not all(is_whole_number(n) for n in (width, height, layers)):
        raise TypeError(f"width, height and layers must be whole numbers, not {width!r}, {height!r} and {layers!r}")
    if width < 2 or height < 2 or layers < 1:
        raise ValueError(f"stack {width}x{height}x{layers} is too small to generate (at least 2x2x1)")
    if width * height * layers > MAX_CELLS:
        raise ValueError(f"stack {width}x{height}x{layers} is larger than the {MAX_CELLS:,} cells a puzzle may have")
    require_type(rules, Rules, "rules", "e.g. Rules(cover_all=False)")
    if unique is not None and not isinstance(unique, bool):
        raise TypeError(f"unique must be True, False or None (the method's default), not {unique!r}")
    if method != "routing":
        for name, value in (("lines", lines), ("min_length", min_length)):
            if value is not None:
                raise ValueError(f"{name} shapes routing problems (method='routing'); the {method} method does not use it")
        return (True if unique is None else unique), 0, 0
    if rules.cover_all:
        raise ValueError("routing problems leave cells empty: generate them under may-leave-empty rules, "
                         "rules=Rules(cover_all=False) (--allow-empty)")
    if unique:
        raise ValueError("routing problems are not unique (the contest does not ask it, and with empty cells "
                         "a line can nearly always go another way): use method='split' for unique puzzles")
    cells = width * height * layers
    shortest = MIN_LENGTH if min_length is None else min_length
    if not is_whole_number(shortest):
        raise TypeError(f"min_length must be a whole number of cells, not {shortest!r}")
    reach = (width - 1) + (height - 1) + (layers - 1) + 1  # cells on a shortest path between opposite corners
    if not 2 <= shortest <= reach:
        raise ValueError(f"min_length must be 2..{reach} cells on a {width}x{height}x{layers} stack "
                         f"(the ends of a line of n cells lie n - 1 steps apart), not {shortest}")
    count_of_lines = target_lines(width, height, layers) if lines is None else lines
    if not is_whole_number(count_of_lines):
        raise TypeError(f"lines must be a whole number, not {count_of_lines!r}")
    if count_of_lines < 1:
        raise ValueError(f"lines must be 1 or more, not {count_of_lines}")
    if count_of_lines * shortest > cells:
        raise ValueError(f"{count_of_lines} lines of at least {shortest} cells need {count_of_lines * shortest} cells, "
                         f"but a {width}x{height}x{layers} stack has {cells} cells and leaves at most "
                         f"{cells // shortest} such lines")
    return False, count_of_lines, shortest


# -- certificates --------------------------------------------------------------------------------
def reread(puzzle: Puzzle, method: str) -> Puzzle:
    """The puzzle written in the text its method's packs use (``TEXT_FORMAT``) and read back;
    AssertionError if that is not the same puzzle.

    >>> reread(Puzzle.from_layers([["1.", ".."], ["..", ".1"]]), "routing").pairs[0].end
    (1, 1, 1)
    """
    fmt = TEXT_FORMAT[method]
    again = parse(format_text(puzzle, fmt=fmt), fmt=fmt)
    if again != puzzle or again.grid().tolist() != puzzle.grid().tolist():
        raise AssertionError("a generated puzzle did not survive a round trip through its text")
    return again


def certify(puzzle: Puzzle, *, method: str = "split", rules: Rules = DEFAULT_RULES,
            time_limit: float | Deadline | None = None, solver: str | None = None,
            known: Solution | None = None) -> tuple[CountResult[Solution], Puzzle]:
    """Write the puzzle as its method's text, read it back (:func:`reread`), and count the
    answers of what was read (limit 2), from the ``known`` answer when one is given (the drawn
    answer: the count then only looks for a second one, see :func:`.solve.count`).

    Returns (the count, the puzzle as re-read); the count's ``unique`` is True / False (both
    answers in ``solutions``) or None when it ran out of time.

    >>> certify(Puzzle.from_layers([["1.", ".."], ["..", ".1"]]))[0].unique
    False
    """
    again = reread(puzzle, method)
    options = {"solver": solver} if solver else {}
    return count(again, rules=rules, limit=2, time_limit=time_limit, known=known, **options), again


def count_by_work(puzzle: Puzzle, *, rules: Rules = DEFAULT_RULES, conflicts: int = certify_conflicts(10.0),
                  time_limit: float | Deadline | None = None, solver: str | None = None,
                  known: Solution | None = None) -> CountResult[Solution] | None:
    """The answers of a stack counted up to 2 by work, not seconds, as on one layer
    (:func:`..generate.count_by_work`); under may-leave-empty rules with touching allowed,
    a second answer is the known one shrunk or with a detour, else a no-self-touch answer
    (:func:`.solve.count`'s reasoning).

    >>> count_by_work(Puzzle.from_layers([["1.", ".."], ["..", ".1"]])).unique
    False
    """
    from ...sat import DEFAULT_SOLVER
    from ..search import shrinks_to_no_touch as _shrinks_to_no_touch, strict as _strict
    from ..engine.probes import empty_cell_variant
    from .search import StackSearch

    _check_conflicts(conflicts)
    deadline = Deadline.of(time_limit)
    if known is not None and verify(puzzle, known, rules):
        raise ValueError("known is not an answer of this puzzle under these rules")
    shrink = _shrinks_to_no_touch(rules) and known is not None  # (the reasoning starts from an answer)
    if shrink:
        second, _ = empty_cell_variant(puzzle, known, grid=False)
        if second is not None:
            require_valid(verify(puzzle, second, rules), "the shrinking")
            return CountResult(2, True, 2, (known, second), method="shrink")
    search = StackSearch(puzzle, rules, solver or DEFAULT_SOLVER, deadline, formula_rules=_strict(rules) if shrink else rules)
    return count_in_search(search, conflicts=conflicts, deadline=deadline, known=known)


def _check_drawn(puzzle: Puzzle, solution: Solution, rules: Rules) -> None:
    # the drawing steps keep every rule by construction: a violation is a bug
    require_valid(verify(puzzle, solution, rules), "the multi-layer drawing")


# -- the verb ------------------------------------------------------------------------------------
def generate(
    width: int,
    height: int,
    layers: int,
    *,
    method: str = "split",
    seed: int = 0,
    unique: bool | None = None,
    rules: Rules = DEFAULT_RULES,
    lines: int | None = None,
    min_length: int | None = None,
    time_limit: float | Deadline | None = None,
    certify_time_limit: float | None = 10.0,
    max_tries: int = DEFAULT_MAX_TRIES,
    solver: str | None = None,
    on_try: Callable[[int, int, dict[str, Any]], None] | None = None,
    certify_work: int | None = None,
) -> Generated:
    """One puzzle on a stack of ``layers`` boards of ``width`` x ``height`` by ``method``
    ("split", "unionfind" or "routing"; module docstring).

    ``unique`` (None: the method's own, True for split and unionfind): with True only a
    puzzle whose answers a count of its re-read text proves unique under ``rules`` is
    returned; ``unique=False`` with unionfind labels the puzzle with the count's verdict
    (True, False, or None when it ran out of time); routing problems are never counted
    (``unique`` None) and need may-leave-empty ``rules``. ``lines`` and ``min_length`` shape
    routing problems (:func:`check_request` refuses what cannot fit). ``time_limit`` bounds
    the whole call (GenerationFailed when it runs out). Each count is bounded by work, not
    seconds (:func:`count_by_work`): ``certify_work`` conflicts per solver call, by default the
    nominal work of ``certify_time_limit`` seconds, so a seed gives the same puzzle on any
    machine and load (the clock may end a generation, never change its outcome). Raises GenerationFailed after ``max_tries`` counts (or drawn routing problems),
    saying why the candidates were turned down. ``on_try(draws, tries, rejected)``, when given,
    is called after each draw and each count with the draws and counts so far and the reasons
    candidates were turned down (a dict of counts it must not change), as on one layer:
    ``generate numberlink --size WxHxL`` shows them on its progress line.

    >>> made = generate(4, 3, 2, method="unionfind", seed=5, unique=False)
    >>> made.tries, made.unique in (True, False), verify(made.puzzle, made.solution)
    (1, True, [])
    """
    unique, lines, min_length = check_request(width, height, layers, method=method, rules=rules, unique=unique,
                                              lines=lines, min_length=min_length)
    require_count(max_tries, "max_tries")
    if solver is not None:
        check_solver_name(solver)  # before any drawing, not at the first count
    require_seed(seed)
    deadline = Deadline.of(time_limit)
    certify_seconds = Deadline.of(certify_time_limit, name="certify_time_limit").time_limit  # (refused here when no seconds)
    work = certify_conflicts(certify_seconds) if certify_work is None else _check_conflicts(certify_work, "certify_work")
    rng = random.Random(seed)
    started = time.perf_counter()
    size = f"{width}x{height}x{layers}"
    tries = draws = timed_out = 0
    rejected: dict[str, Any] = {}  # why candidates were turned down (..generate.turned_down)

    def reject(reason: str) -> None:
        rejected[reason] = rejected.get(reason, 0) + 1

    def why() -> str:
        return turned_down(rejected)

    def made(puzzle: Puzzle, solution: Solution, verdict: bool | None) -> Generated:
        return Generated(puzzle, solution, verdict, tries, time.perf_counter() - started, seed, method)

    while True:
        if on_try is not None and draws:
            on_try(draws, tries, rejected)
        if deadline.expired():
            raise GenerationFailed(f"no {size} puzzle within {deadline.time_limit} s ({draws} draws, {tries} tries{why()})", tries=tries)
        draws += 1
        if draws > max_tries * 100:
            raise GenerationFailed(f"no acceptable {size} candidate in {draws - 1} draws{why()}", tries=tries)
        if method == "routing":
            tries += 1
            drawn = routing_links(width, height, layers, lines, rng, min_length=min_length, deadline=deadline)
            if drawn is None:
                if tries >= max_tries and not deadline.expired():
                    raise GenerationFailed(f"no room for {lines} lines of at least {min_length} cells on {size} "
                                           f"in {tries} draws", tries=tries)
                continue
            puzzle, solution = _puzzle_from_links(width, height, layers, drawn, frozenset())
            _check_drawn(puzzle, solution, rules)
            return made(reread(puzzle, method), solution, None)
        links, leftovers = unionfind_links(width, height, layers, rng, deadline=deadline)
        if not links:
            reject("with no path drawn")
            continue
        if method == "split":
            joined = _join_short_pieces(links, leftovers, rng, rules, lambda cell: _neighbours(cell, width, height, layers),
                                        deadline)
            if joined is None:
                continue  # (out of time: the deadline check above says so)
            links, leftovers = joined
            if not links:
                reject("with no path drawn")
                continue
        blocked = leftovers if rules.cover_all else frozenset()
        while True:
            puzzle, solution = _puzzle_from_links(width, height, layers, links, blocked)
            if verify(puzzle, solution, rules):
                reject("with a drawn path that breaks the rules")
                break  # e.g. a union-find path whose ends touch, under no-self-touch rules: draw again
            tries += 1
            again = reread(puzzle, method)
            counted = count_by_work(again, rules=rules, conflicts=work, time_limit=deadline, solver=solver, known=solution)
            if counted is None:  # (the clock ends the generation; it never decides a try)
                raise GenerationFailed(f"no {size} puzzle within {deadline.time_limit} s: a count ran out of time "
                                       f"({draws} draws, {tries} tries{why()})", tries=tries)
            if unique and counted.unique is None:
                reject("whose count ran out of work")
            if on_try is not None:
                on_try(draws, tries, rejected)
            if counted.unique or not unique:
                return made(again, solution, counted.unique)
            timed_out = timed_out + 1 if counted.unique is None else 0
            if timed_out >= TIMED_OUT_STREAK:
                raise GenerationFailed(f"the uniqueness counts of {timed_out} {size} candidates in a row ran out of work "
                                       f"(undecided within {work} conflicts per solver call): allow more "
                                       f"(certify_time_limit or certify_work)", tries=tries)
            if tries >= max_tries:
                raise GenerationFailed(f"no certified unique {size} puzzle in {tries} tries{why()}", tries=tries)
            if method != "split" or counted.unique is None:
                if counted.unique is False:
                    reject("with a second answer")
                break
            other = next(answer for answer in counted.solutions if answer != solution)
            split = _split_where_answers_differ(links, other, rng)
            if split is None:
                reject("with a second answer no split removes")
                break
            links = split
