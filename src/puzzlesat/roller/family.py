"""The Roller family's record: what generic code (the command line, the pack writer, the
benchmarks, the generic tests) knows of Roller.

>>> FAMILY.name, FAMILY.objective.value, FAMILY.exact_methods, FAMILY.baselines
('roller', 'fewest-moves', ('flow', 'auto', 'time-indexed', 'astar'), ('dfs',))
>>> FAMILY.writable_formats() == tuple(f.name for f in FAMILY.formats)
True
>>> made = make((6, 5), seed=1, time_limit=None, options={"moves": "3-4"})
>>> made.facts, FAMILY.load(pack_entry(made), source="pack.roller", fmt=None, options={})[0].par
({'moves_count': 3, 'optimal': True}, 3)
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .. import values
from ..family import Family, Format, Generated, Method, Objective, Option
from . import certify, export, formats, writers
from .generate import DEFAULT_CERTIFY_LIMIT, MAX_TRIES, UNPROVEN_STREAK, generate
from .model import START_RULES
from .records import answer_of, answer_table, generated_record, load, passed, solve_record, verify_record
from .render import render
from .show import show, size_text
from .sniff import refusal, sniff

GENERATE_EXAMPLE = "example: puzzlesat generate roller --size 8x8 --count 5 --moves 6-12 --seed 1 --out pack.roller"

FORMAT_SUMMARIES = {
    "native": "puzzlesat's text: '#' wall, '.' floor, 'o' start; '# name:', '# par:', '# answer:' lines",
    "tmx": "TabTale Amaze! Tiled maps (XML; 0 wall, any other tile floor); no start stored (--start)",
    "starhermit": "starhermit's levels.json: rows, start [x, y], par, solution",
    "joseleite19": "joseleite19's grids: '#' wall, '.' floor, 'x' start",
    "nohtaray": "nohtaray's solver input: one grid with 'o' start, commentary after a blank line",
    "herbou": "herbou's levels-data.js: levels = [[[1,0,...]]], 0 road, 1 wall; start the first road cell",
    "mazepaint": "MazePaint maps: space-separated 0 floor / 1 wall; start fixed at (1, 1)",
    "rollersplat": "RollerSplat grids: 'W' wall, 'G' ground; start the first floor cell",
}


def _aliases(name: str) -> tuple[str, ...]:
    return tuple(alias for alias, target in formats.FORMAT_ALIASES.items() if target == name)


FORMATS = tuple(Format(name, FORMAT_SUMMARIES[name], _aliases(name), writes=name in writers.WRITERS) for name in formats.FORMATS)

METHODS = (
    Method("flow", "exact", "CP-SAT traversal counts, Euler balance and flow connectivity (the default)"),
    Method("auto", "exact", "A* for a few milliseconds (small levels), then the flow model"),
    Method("time-indexed", "exact", "SAT with the ball's position at each step, the horizon grown from a proven bound"),
    Method("astar", "exact", "A* over (stop, unpainted key cells) with the run-cover bound"),
    Method("dfs", "baseline", "the published depth-first search with its pruning rules; minimal only when it completes"),
)

OPTIONS = (
    Option("start", "--start", "the start of levels whose file stores none: bottom-left (TabTale TMX's default: leftmost "
           "column, bottom-most floor) or row-major (the first floor cell in reading order)",
           kind="choice", default=None, choices=START_RULES),
)


# -- generate's options: text to value, ValueError saying what is wrong ------------------------
def moves_range(text: str) -> tuple[int, int]:
    """``--moves N`` or ``LO-HI``: the proven minimum wanted.

    >>> moves_range("6-12"), moves_range("7")
    ((6, 12), (7, 7))
    >>> moves_range("5-2")
    Traceback (most recent call last):
    ...
    ValueError: moves must be N or LO-HI with LO <= HI and HI >= 3, not '5-2'
    """
    try:
        parts = [int(part) for part in str(text).split("-")]
    except ValueError:
        raise ValueError(f"moves must be N or LO-HI, e.g. 6-12, not {text!r}") from None
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2 or parts[0] > parts[1] or parts[1] < 3:
        raise ValueError(f"moves must be N or LO-HI with LO <= HI and HI >= 3, not {text!r}")
    return parts[0], parts[1]


GENERATE_OPTIONS = (
    Option("moves", "--moves", "proven minimum number of moves wanted (default: from the size)", kind="value", default=None,
           convert=moves_range, metavar="LO-HI"),
    Option("certify_limit", "--certify-limit", f"work per proof of one board's minimum, in CP-SAT's deterministic seconds with the default "
           f"method (default {DEFAULT_CERTIFY_LIMIT:g}); boards that run out are skipped, {UNPROVEN_STREAK} in a row end the level", kind="value",
           default=DEFAULT_CERTIFY_LIMIT, convert=values.seconds, metavar="S"),
    Option("min_floor", "--min-floor", "fewest floor cells (default: a third of the inner cells, at least 5 or all of them)",
           kind="value", default=None, convert=values.whole(0), metavar="N"),
    Option("max_tries", "--max-tries", f"boards drawn per level before giving up (default {MAX_TRIES})", kind="value",
           default=MAX_TRIES, convert=values.whole(1), metavar="N"),
    Option("method", "--method", "solver method used to certify (default: solve()'s default)", kind="choice", default=None,
           choices=tuple(m.name for m in METHODS if m.kind == "exact")),
)


def _generate_settings(options: Mapping[str, Any]) -> dict[str, Any]:
    """The keywords of :func:`~.generate.generate` from generate's options (text is converted)."""
    settings = {option.name: options.get(option.name, option.default) for option in GENERATE_OPTIONS}
    for option in GENERATE_OPTIONS:
        value = settings[option.name]
        if isinstance(value, str) and option.convert is not None:
            settings[option.name] = option.convert(value)
    return settings


def make(size: Sequence[int] | None, *, seed: int, time_limit: Any = None, options: Mapping[str, Any] | None = None,
         on_try: Callable[[int, Sequence[int]], None] | None = None) -> Generated:
    """One generated level of ``size`` (width, height; None: 8x8), certified with its proven
    minimum (``options``: generate's options by name, plus ``name``, the level's name in a pack)."""
    options = options or {}
    size = (8, 8) if size is None else size
    if len(size) != 2:
        raise ValueError(f"a Roller size is WIDTHxHEIGHT, not {'x'.join(str(n) for n in size)}")
    settings = _generate_settings(options)
    width, height = size
    made = generate(width, height, moves=settings["moves"], seed=seed, time_limit=time_limit, min_floor=settings["min_floor"],
                    max_tries=settings["max_tries"], method=settings["method"], certify_time_limit=settings["certify_limit"],
                    name=str(options.get("name", "")), on_try=on_try)
    return Generated(made.level, made.solution, made.seed, made.tries, {"moves_count": made.min_moves, "optimal": True},
                     made.seconds)


def pack_entry(generated: Generated) -> str:
    """The level as a pack holds it: native text with its proven minimum (``# par:``) and answer
    (``# answer:``), which :func:`~.records.load` reads back as the stated minimum and answer."""
    level = generated.puzzle
    if level.par is None:
        from .model import Level

        level = Level(level.rows, level.start, name=level.name, par=len(generated.answer), known_answer=generated.answer)
    return formats.format(level)


def draw_note(tries: int, minima: Sequence[int]) -> str:
    """What the boards drawn for the level being made gave (``make``'s ``on_try`` arguments).

    >>> draw_note(2, [7, 12])
    '2 board(s), proven minima 7-12 moves'
    """
    return f"{tries} board(s)" + (f", proven minima {min(minima)}-{max(minima)} moves" if minima else "")


FAMILY = Family(
    name="roller",
    summary="Roller (Amaze!, Roller Splat!): a ball slides until it hits a wall, painting the floor; "
            "paint it all in the fewest moves",
    extensions=(".roller",),
    objective=Objective.FEWEST_MOVES,
    formats=FORMATS,
    methods=METHODS,
    options=OPTIONS,
    generate_options=GENERATE_OPTIONS,
    sniff=sniff,
    refusal=refusal,
    load=load,
    format=formats.format,
    detect_format=formats.detect_format,
    solve_record=solve_record,
    verify_record=verify_record,
    passed=passed,
    answer_of=answer_of,
    show=show,
    render=render,
    size_text=size_text,
    make=make,
    pack_entry=pack_entry,
    generated_record=generated_record,
    export_cnf=export.family_export,
    certify_claim=certify.prove,
    export_formula=certify.formula,
    check_claim=certify.check,
    answer_table=answer_table,
    capabilities=frozenset({"answer-table", "stated-answers"}),
    sniff_order=10,
    generate_example=GENERATE_EXAMPLE,
    draw_note=draw_note,
)
