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

import math
import random
import time
from typing import Any, Callable, Iterable, Iterator, Sequence

from ...errors import require_count, require_type, require_valid
from ...grid import is_whole_number
from ...results import CountResult
from ...sat import check_solver_name
from ...seeds import require_seed
from ...timing import Deadline
from .. import routing
from ..generate import _check_conflicts, certify_conflicts, count_in_search
from ..generate import (DEFAULT_MAX_TRIES, TIMED_OUT_STREAK, Generated, GenerationFailed, grow_unionfind, links_in_label_order,
                        turned_down)
from ..model import DEFAULT_RULES, Rules
from .formats import format as format_text
from .formats import parse
from .model import MAX_CELLS, STEPS, Cell, Pair, Puzzle, Solution, is_adjacent
from .solve import count
from .verify import verify

__all__ = ["METHODS", "generate", "check_request", "certify", "reread", "TEXT_FORMAT", "target_lines", "longest_line",
           "unionfind_links", "routing_links", "Generated", "GenerationFailed"]

METHODS = ("split", "unionfind", "routing")
MIN_LENGTH = 3  # cells of the shortest link a split leaves, and the routing method's default shortest line
ROUTE_ATTEMPTS = 20  # starts tried per line of a routing problem before the draw is given up
# the text each method's puzzles are written in (and certified from): the contest's own format
# for routing problems, which have no blocked cells; the layered text, which has, for the others
TEXT_FORMAT = {"split": "layers", "unionfind": "layers", "routing": "adc"}


def target_lines(width: int, height: int, layers: int) -> int:
    """The routing method's default number of lines: half the side of a layer per layer,
    ``round(sqrt(width * height) * layers / 2)``, at least 1; near the ADC 2018 problems' own
    counts on small boards (8 lines on 5x5x3, 16 on 8x8x4 against 20, 32 on 8x8x8 against 44
    and 49) and fewer than most of theirs on 72x72x8 (288 against 10 to 1,500).

    >>> target_lines(5, 5, 3), target_lines(8, 8, 4), target_lines(72, 72, 8)
    (8, 16, 288)
    """
    return max(1, round(math.sqrt(width * height) * layers / 2))


def longest_line(width: int, height: int, layers: int) -> int:
    """The longest line (in cells) the routing method aims for: half a layer's width and
    height, plus the layers, ``(width + height) // 2 + layers``; wanted lengths are drawn
    evenly between ``min_length`` and this.

    >>> longest_line(5, 5, 3), longest_line(72, 72, 8)
    (8, 80)
    """
    return (width + height) // 2 + layers


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


# -- the board --------------------------------------------------------------------------------
def _neighbours(cell: Cell, width: int, height: int, layers: int) -> Iterator[Cell]:
    """The cells one step from ``cell`` on the stack, in the order of ``STEPS``."""
    z, r, c = cell
    for dz, dr, dc in STEPS:
        nz, nr, nc = z + dz, r + dr, c + dc
        if 0 <= nz < layers and 0 <= nr < height and 0 <= nc < width:
            yield (nz, nr, nc)


def _cells(width: int, height: int, layers: int) -> list[Cell]:
    return [(z, r, c) for z in range(layers) for r in range(height) for c in range(width)]


def _puzzle_from_links(width: int, height: int, layers: int, links: Sequence[Sequence[Cell]],
                       blocked: frozenset[Cell]) -> tuple[Puzzle, Solution]:
    """Labels 1..K in reading order (layer first) of each link's first end."""
    oriented = links_in_label_order(links)
    pairs = tuple(Pair(str(i + 1), link[0], link[-1]) for i, link in enumerate(oriented))
    paths = tuple((str(i + 1), link) for i, link in enumerate(oriented))
    return Puzzle(width, height, layers, pairs, blocked), Solution(paths)


# -- union-find, and splitting where two answers part -------------------------------------------
def unionfind_links(width: int, height: int, layers: int, rng: random.Random, *,
                    deadline: Deadline | None = None) -> tuple[list[list[Cell]], frozenset[Cell]]:
    """One union-find partition of the stack (:func:`..generate.grow_unionfind`, steps on a
    layer and between layers): the paths and the cells on none; no paths at all when
    ``deadline`` passes first.

    >>> links, leftovers = unionfind_links(3, 3, 2, random.Random(0))
    >>> sum(map(len, links)) + len(leftovers)
    18
    """
    return grow_unionfind(_cells(width, height, layers), lambda cell: _neighbours(cell, width, height, layers),
                          rng, deadline=deadline)


def _clean(link: Sequence[Cell]) -> bool:
    """Runs nowhere beside itself, its ends included (cut short by :func:`..routing.shrink` it
    would lose cells otherwise)."""
    return routing.shrink(link) == tuple(link)


def _join_short_pieces(links: list[list[Cell]], leftovers: frozenset[Cell], rng: random.Random, rules: Rules,
                       neighbours: Callable[[Cell], Iterable[Cell]], deadline: Deadline | None = None,
                       ) -> tuple[list[list[Cell]], frozenset[Cell]] | None:
    """Join every short piece (a 2-cell link, or a leftover cell) to a piece whose end touches
    one of its ends, where that makes no loop (ends side by side) and, under no-self-touch
    rules, no link beside itself; short pieces are taken in random order, each joined at a
    random one of its joins, in rounds until a round joins none. The pieces of fewer than 3
    cells that remain are returned as leftover cells; None when ``deadline`` passes first.

    >>> line = lambda cell: [(0, 0, cell[2] + d) for d in (-1, 1) if 0 <= cell[2] + d < 4]
    >>> _join_short_pieces([[(0, 0, 0), (0, 0, 1), (0, 0, 2)]], frozenset({(0, 0, 3)}), random.Random(0), Rules(), line)
    ([[(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)]], frozenset())
    """
    pieces = dict(enumerate([list(link) for link in links] + [[cell] for cell in sorted(leftovers)]))
    end_of = {piece[end]: k for k, piece in pieces.items() for end in (0, -1)}  # an end cell -> its piece
    next_key = len(pieces)
    joined_any = True
    while joined_any:
        joined_any = False
        short = [k for k, piece in pieces.items() if len(piece) <= 2]
        rng.shuffle(short)
        for k in short:
            if deadline is not None and deadline.expired():
                return None
            if k not in pieces:
                continue  # already joined to another short piece this round
            piece = pieces[k]
            options = []
            for piece_end in (0, -1)[:len(piece)]:
                for cell in neighbours(piece[piece_end]):
                    j = end_of.get(cell)
                    if j is None or j == k:
                        continue
                    other = pieces[j]
                    joined = (other if other[-1] == cell else other[::-1]) + (piece if piece_end == 0 else piece[::-1])
                    if is_adjacent(joined[0], joined[-1]) or (rules.no_self_touch and not _clean(joined)):
                        continue
                    options.append((j, joined))
            if not options:
                continue
            j, joined = rng.choice(options)
            for gone in (k, j):
                for end in (0, -1):
                    end_of.pop(pieces[gone][end], None)
                del pieces[gone]
            pieces[next_key] = joined
            end_of[joined[0]] = end_of[joined[-1]] = next_key
            next_key += 1
            joined_any = True
    kept = [piece for _, piece in sorted(pieces.items())]
    left = frozenset(cell for piece in kept if len(piece) < 3 for cell in piece)
    return [piece for piece in kept if len(piece) >= 3], left


def _split_where_answers_differ(links: Sequence[Sequence[Cell]], other: Solution, rng: random.Random) -> list[list[Cell]] | None:
    """The links with one of them cut in two at a step that ``other`` (another answer) does not
    take, both parts at least ``MIN_LENGTH`` cells; None when no step qualifies."""
    taken = {frozenset(step) for _, cells in other.paths for step in zip(cells, cells[1:])}
    options = [(k, i) for k, link in enumerate(links) for i in range(MIN_LENGTH - 1, len(link) - MIN_LENGTH)
               if frozenset((link[i], link[i + 1])) not in taken]
    if not options:
        return None
    k, i = rng.choice(options)
    cut = links[k]
    return [list(link) for j, link in enumerate(links) if j != k] + [list(cut[:i + 1]), list(cut[i + 1:])]


# -- routing problems ------------------------------------------------------------------------------
def routing_links(width: int, height: int, layers: int, lines: int, rng: random.Random, *, min_length: int = MIN_LENGTH,
                  deadline: Deadline | None = None) -> list[list[Cell]] | None:
    """The lines of one routing problem, drawn in turn (module docstring), or None when a line
    found no room in ``ROUTE_ATTEMPTS`` starts or ``deadline`` passed first.

    >>> links = routing_links(6, 6, 2, 5, random.Random(3))
    >>> len(links), min(map(len, links)) >= 3, len({cell for link in links for cell in link}) == sum(map(len, links))
    (5, True, True)
    """
    size = width * height * layers
    cells = _cells(width, height, layers)
    around = [[(z * height + r) * width + c for z, r, c in _neighbours(cell, width, height, layers)] for cell in cells]
    used = [False] * size
    unused = list(range(size))  # with some used cells too: they are dropped when drawn
    longest = max(min_length, longest_line(width, height, layers))
    links = []
    for _ in range(lines):
        for _ in range(ROUTE_ATTEMPTS):
            if deadline is not None and deadline.expired():
                return None
            start = _draw_unused(unused, used, rng)
            if start is None:
                return None
            path = _random_shortest_path(start, rng.randint(min_length, longest), min_length, around, used, rng)
            if path is not None:
                break
        else:
            return None
        for i in path:
            used[i] = True
        links.append([cells[i] for i in path])
    return links


def _draw_unused(pool: list[int], used: list[bool], rng: random.Random) -> int | None:
    """A random cell of ``pool`` that is not ``used`` (used ones met on the way are taken out of
    the pool, so a draw costs little however full the stack), or None when none is left."""
    while pool:
        k = rng.randrange(len(pool))
        cell = pool[k]
        if not used[cell]:
            return cell
        pool[k] = pool[-1]
        pool.pop()
    return None


def _random_shortest_path(start: int, wanted: int, min_length: int, around: list[list[int]], used: list[bool],
                          rng: random.Random) -> list[int] | None:
    """A random shortest path through unused cells from ``start`` to a random cell ``wanted -
    1`` steps away (or as far as they reach, when that is at least ``min_length - 1`` steps),
    walked back from there by random steps that each come one closer; None when nothing is far
    enough."""
    distance = {start: 0}
    rings = [[start]]
    while len(rings) < wanted and rings[-1]:
        ring = []
        for cell in rings[-1]:
            for n in around[cell]:
                if not used[n] and n not in distance:
                    distance[n] = len(rings)
                    ring.append(n)
        rings.append(ring)
    if not rings[-1]:
        rings.pop()
    if len(rings) < min_length:
        return None
    path = [rng.choice(rings[-1])]
    while distance[path[-1]] > 0:
        closer = [n for n in around[path[-1]] if distance.get(n, -1) == distance[path[-1]] - 1]
        path.append(rng.choice(closer))
    return path[::-1]


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
