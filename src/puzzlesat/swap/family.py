"""The Swap family's record for generic code (:class:`puzzlesat.family.Family`): its format,
methods, generate options and verbs; the command line, the pack writer and the generic tests
reach Swap only through ``FAMILY``.

>>> FAMILY.name, FAMILY.objective.value, FAMILY.format_names(), FAMILY.baselines
('swap', 'fewest-moves', ('native', 'swap'), ('astar',))
>>> [option.flag for option in FAMILY.generate_options]
['--difficulty', '--goal', '--moves', '--certify-limit', '--max-tries']
>>> moves_range("3-8"), moves_range("5")
((3, 8), (5, 5))
>>> FAMILY.sniff("start\\nT1R T1G\\ngoal\\nG R\\n"), FAMILY.sniff("A.B\\n...\\n")
(True, False)
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Optional

from .. import values
from ..family import Family, Format, Generated, Method, Objective, Option
from . import certify, export, formats, records, show
from .generate import DEFAULT_CERTIFY_LIMIT, SIZES
from .render import render

# -- converters of the generate options (ValueError says what is wrong) ---------------------------
def moves_range(text: str) -> tuple[int, int]:
    """``--moves LO-HI`` (or ``N``): the range of proven minima a generated level may have."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not match:
        raise ValueError(f"{text!r} is not N or LO-HI")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    if lo > hi:
        raise ValueError(f"range {text!r} is empty")
    return lo, hi


GENERATE_OPTIONS = (
    Option("difficulty", "--difficulty", "board size range (easy 2-3 ... expert 4-6 on each side; default expert)",
           kind="choice", default="expert", choices=tuple(SIZES)),
    Option("goal", "--goal", "goal kind (default match)", kind="choice", default="match", choices=("match", "cluster")),
    Option("moves", "--moves", "keep levels whose proven minimum lies in this range", kind="value", default=None,
           convert=moves_range, metavar="LO-HI"),
    Option("certify_limit", "--certify-limit",
           f"work per proof of one draw's minimum, in nominal seconds of 15,000 A* expansions (default "
           f"{DEFAULT_CERTIFY_LIMIT:g}): work, not time, so a seed gives the same level on any machine; draws that run out are skipped",
           kind="value", default=DEFAULT_CERTIFY_LIMIT, convert=values.seconds, metavar="S"),
    Option("max_tries", "--max-tries", "draws allowed per level before giving up (default 10000)", kind="value",
           default=10_000, convert=values.whole(1), metavar="N"),
)


def make(size: Optional[tuple[int, int]], *, seed: int, time_limit: Any = None, options: Mapping[str, Any] | None = None,
         on_try: Optional[Callable[[int, dict[str, Any]], None]] = None) -> Generated:
    """One certified level for the pack writer: ``size`` is ``(width, height)`` as ``--size WxH``
    gives it, or None for the difficulty's range; ``options`` the generate options by name (those
    left out take their defaults); ``on_try(tries, stats)`` is called after each draw with the
    draw counts (:func:`puzzlesat.swap.generate.draw_counts`). Raises ValueError for a request
    no level can meet and :class:`~puzzlesat.swap.generate.GenerationFailed` (its ``stats`` the
    counts) when no level was certified in time.

    >>> made = make((2, 1), seed=0, options={"difficulty": "easy"})
    >>> made.facts, made.tries >= 1
    ({'moves_count': 1, 'optimal': True}, True)
    """
    from .generate import generate

    chosen = {option.name: option.default for option in GENERATE_OPTIONS}
    chosen.update(options or {})
    width, height = size if size is not None else (None, None)
    made = generate(width=width, height=height, seed=seed, difficulty=chosen["difficulty"], goal=chosen["goal"],
                    moves=chosen["moves"], time_limit=time_limit, certify_time_limit=chosen["certify_limit"],
                    max_tries=chosen["max_tries"], on_try=on_try)
    return Generated(made.level, made.solution, made.seed, made.tries,
                     facts={"moves_count": made.min_moves, "optimal": True}, seconds=made.seconds)


def pack_entry(generated: Generated) -> str:
    """The level as a pack holds it: native text with its ``minimum`` and ``solution`` lines,
    which :func:`puzzlesat.swap.formats.parse` reads back. Its comments are left out: they name
    the seed, and the same level drawn from two seeds must give the same text (the pack's line
    above it says the seed).

    >>> "seed" in pack_entry(make((2, 1), seed=0, options={"difficulty": "easy"}))
    False
    """
    import dataclasses

    return formats.format(dataclasses.replace(generated.puzzle, comments=()))


def draw_note(tries: int, stats: Mapping[str, Any]) -> str:
    """What the draws for the level being made gave (``make``'s ``on_try`` arguments).

    >>> draw_note(3, {"out_of_range": 2, "below": 2, "most_below": 4})
    '3 draw(s), 2 outside the moves range: 2 below it, each solved in at most 4 moves'
    """
    from .generate import range_phrase

    where = range_phrase(dict(stats))
    return f"{tries} draw(s)" + (f", {stats['out_of_range']} outside the moves range: {where}" if where else "")


FAMILY = Family(
    name="swap",
    summary="chess-figure colour swaps (Galactic Monsters): the fewest swaps that reach the goal",
    extensions=(".swap",),
    objective=Objective.FEWEST_MOVES,
    formats=(Format("native", "the Swap level text: start grid, goal, optional minimum and solution lines",
                    aliases=("swap",)),),
    methods=(
        Method("exact", "exact", "the exact back-end suited to the level (search; CP-SAT past 256 distinct squares): a proven minimum"),
        Method("search", "exact", "partial-expansion A* with admissible bounds, told of shorter plans by beam searches"),
        Method("cpsat", "exact", "a bounded-horizon CP-SAT model grown from the lower bound"),
        Method("astar", "baseline", "the published game's four capped A* searches (an upper bound, never proven minimal)"),
    ),
    options=(),
    generate_options=GENERATE_OPTIONS,
    sniff=formats.sniff,
    refusal=formats.refusal,
    load=records.load,
    format=formats.format,
    detect_format=formats.detect_format,
    solve_record=records.solve_record,
    verify_record=records.verify_record,
    passed=records.passed,
    answer_of=records.answer_of,
    show=show.show,
    render=render,
    size_text=show.size_text,
    make=make,
    pack_entry=pack_entry,
    generated_record=records.generated_record,
    export_cnf=export.family_export,
    certify_claim=certify.prove,
    export_formula=certify.formula,
    check_claim=certify.check,
    capabilities=frozenset({"stated-answers"}),
    sniff_order=0,
    generate_example="example: puzzlesat generate swap --difficulty expert --goal match --moves 3-8 --count 20 --seed 1 --out pack.swap",
    draw_note=draw_note,
)
