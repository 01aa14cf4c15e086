"""The Numberlink family record (``FAMILY``): what generic code (the command line, the pack
writer, the generic tests) needs of Numberlink, one layer and several.

>>> FAMILY.name, FAMILY.objective.value, FAMILY.exact_methods, FAMILY.baselines
('numberlink', 'unique', ('sat',), ('backtracking',))
>>> "layers" in FAMILY.format_names() and "puzz.link" in FAMILY.format_names()
True
>>> [option.flag for option in FAMILY.generate_options][:3]
['--method', '--certify-limit', '--allow-multiple']
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..errors import CannotExpress, ParseError
from .. import values
from ..family import Family, Format, Method, Objective, Option
from ..scene import Scene
from ..timing import Deadline
from ..sat.solver import check_solver_name
from . import certify, export, generated, records, show as show_module
from .formats import detect_format as _detect_one_layer
from .formats import format as _format_one_layer
from .model import Pair, Puzzle, Rules, Solution
from .multilayer.packing import PACK_FOLDER
from .multilayer import formats as layered_formats
from .multilayer.model import Pair as LayeredPair
from .multilayer.model import Puzzle as LayeredPuzzle

FORMATS = (
    Format("native", "rows of cells ('.' empty, '#' blocked, labels), an optional 'W H' line; blank lines between puzzles",
           ("nl", "numberlink")),
    Format("thomasahle", "thomasahle's files: a 'W H' line before every character grid, '0 0' at the end"),
    Format("mzucker", "mzucker's flow_solver: a square character grid, letters are colours"),
    Format("dailyprogrammer", "r/dailyprogrammer challenge #280: 'ncolours width height', then '(x, y) (x, y)' per colour",
           ("dp280",)),
    Format("adc", "DA Symposium Algorithm Design Contest problems: SIZE, LINE_NUM, LINE#k (one layer or several, with VIA lines)",
           ("dac",)),
    Format("puzzlink", "puzz.link / pzv.jp URLs, one per line: numlin (cells may stay empty) or arukone (every cell covered)",
           ("puzz.link", "pzprjs", "url", "numlin", "arukone")),
    Format("tokens", "imos / Copris / algorithms2012 token grids: 'W H' then rows of numbers, 0 or - blank",
           ("imos", "copris")),
    Format("layers", "multi-layer text: 'layer z' then its rows, for every layer of the stack", ("layered", "multilayer")),
)

METHODS = (
    Method("sat", "exact", "SAT (pysat, --solver picks the back-end): an answer, and a count that proves it unique"),
    Method("backtracking", "baseline", "depth-first search with forced moves and dead-end checks (one layer only)"),
)

def solver_name(text: str) -> str:
    """``--solver``: a SAT back-end this layer can drive (a ValueError naming the known ones).

    >>> solver_name("glucose4")
    'glucose4'
    """
    check_solver_name(text)
    return text


OPTIONS = (
    Option("allow_empty", "--allow-empty", "cells may stay empty (Nikoli / ADC rules)"),
    Option("no_self_touch", "--no-self-touch", "a path may not run beside itself"),
    Option("solver", "--solver", "SAT back-end by pysat name (default cadical195; Glucose heeds --time-limit only between its restarts)",
           kind="value", default=None, convert=solver_name, metavar="NAME"),
)


GENERATE_METHODS = ("quality", "unionfind", "split", "routing")  # one layer: the first two; several layers: the last three and unionfind

GENERATE_OPTIONS = (
    Option("method", "--method", "one layer: quality (puzzle-maker pipeline, default) or unionfind; several layers: split (default), "
           "unionfind, or routing (ADC-style routing problems, with --allow-empty)", kind="choice", default=None,
           choices=GENERATE_METHODS),
    Option("certify_limit", "--certify-limit", "work per SAT uniqueness count, in nominal seconds of 10,000 solver conflicts "
           "(default 10): work, not time, so a seed gives the same puzzle on any machine", kind="value", default=10.0,
           convert=values.seconds, metavar="S"),
    Option("allow_multiple", "--allow-multiple", "unionfind: keep puzzles that are not unique, labelled in their comment line"),
    Option("band", "--band", "quality: accepted link counts, target +- this fraction (default 0.15)", kind="value", default=None,
           convert=values.number(at_least=0), metavar="F"),
    Option("target", "--target", "quality: target link count (default sqrt(width*height); above 15x15 0.065 per cell)",
           kind="value", default=None, convert=values.number(above=0), metavar="N"),
    Option("max_tries", "--max-tries", "certificates allowed per puzzle before giving up (default 10000)", kind="value",
           default=10_000, convert=values.whole(1), metavar="N"),
    Option("lines", "--lines", "routing (WxHxL): numbered lines per problem (default round(sqrt(W*H) * L / 2))", kind="value",
           default=None, convert=values.whole(1), metavar="N"),
    Option("min_length", "--min-length", "routing (WxHxL): cells of the shortest line (default 3)", kind="value", default=None,
           convert=values.whole(1), metavar="N"),
)


SNIFF_PARSE_CHARS = 1_000_000  # texts up to this size are claimed only when they read; larger, by their format
_ROLLER_ALPHABET = frozenset("#.ox")
_SWAP_WORDS = re.compile(r"(?im)^[ \t]*(?:start|goal\b.*)[ \t]*$")


def sniff(text: str, path: str = "") -> bool:
    """Whether ``text`` is, without doubt, Numberlink (asked last: the family reads the most
    formats): it reads as puzzles (or as a file the reader refuses by name, such as an answer
    file), and it does not look like a damaged level of another family."""
    return refusal(text) is None


def refusal(text: str) -> str | None:
    """Why ``text`` is not Numberlink (for the error that no family reads it), or None.

    >>> refusal("A.A\\nx..\\n")
    "line 2: label 'x' occurs once (at 2:1; expected exactly 2)"
    >>> refusal("#####\\n#o.o#\\n#####")
    'a grid of only # . o x is a Roller level, not a Numberlink puzzle'
    >>> refusal("A.B\\nA.B") is None
    True
    """
    from ..errors import NotAPuzzle, ParseError

    body = [line.strip() for line in text[:200_000].splitlines() if line.strip() and not line.lstrip().startswith("//")]
    if not body:
        return "empty text"
    cells = set("".join(body))
    if cells <= _ROLLER_ALPHABET and "#" in cells and cells & {"o", "x"}:
        return "a grid of only # . o x is a Roller level, not a Numberlink puzzle"
    if cells <= {"#", "."}:
        return "a grid of only # and . has no labels to connect"
    if _SWAP_WORDS.search(text[:20_000]):
        return "a 'start' or 'goal' line belongs to a Swap level"
    if len(text) > SNIFF_PARSE_CHARS:  # (a huge input is read once, by load: the format of its opening lines decides here)
        return None if detect_format(text[:text.rfind("\n", 0, SNIFF_PARSE_CHARS) + 1] or text) is not None else "no Numberlink format recognised"
    try:
        items = load(text, source="", fmt=None, options={})
    except NotAPuzzle:
        return None
    except ParseError as error:
        return _said(error)
    errors = [item for item in items if isinstance(item, ParseError)]
    if not items or (len(errors) == len(items) and not any(isinstance(e, NotAPuzzle) for e in errors)):
        return _said(errors[0]) if errors else "no puzzle found"
    return None


def _said(error: Any) -> str:
    return f"line {error.line}: {error.message}" if error.line is not None else error.message


def canonical_format(fmt: str | None) -> str | None:
    """The format's own name for ``fmt`` (an alias or any case), None for None; ValueError for
    a name no Numberlink format answers to.

    >>> canonical_format("Puzz.Link"), canonical_format(None)
    ('puzzlink', None)
    """
    if fmt is None:
        return None
    wanted = fmt.strip().lower()
    for known in FORMATS:
        if wanted == known.name or wanted in known.aliases:
            return known.name
    raise ValueError(f"unknown format {fmt!r} for Numberlink; expected one of {', '.join(f.name for f in FORMATS)}")


def load(text: str, *, source: str, fmt: str | None, options: Mapping[str, Any], deadline: Deadline | None = None) -> list:
    """The puzzles of one input (:func:`.records.load`), ``fmt`` by any of its names (a name
    of none is a ParseError, as unreadable input is); ``deadline``: each puzzle's reading ends
    by it (the "read-deadline" capability)."""
    try:
        fmt = canonical_format(fmt)
    except ValueError as error:
        raise ParseError(str(error), source=source) from None
    return records.load(text, source=source, fmt=fmt, options=options, deadline=deadline)


def format_puzzle(puzzle: Puzzle | LayeredPuzzle, *, fmt: str = "native", rules: Rules | None = None) -> str:
    """The puzzle as text in any format the family reads, one layer or several: a stack of one
    layer (without vias) goes to the one-layer formats, a one-layer board to ``layers`` as a
    stack of one; ``adc`` writes either. What the format cannot hold raises
    :class:`~puzzlesat.errors.CannotExpress` (a ValueError) naming it.

    >>> print(format_puzzle(Puzzle.from_rows(["A.A"]), fmt="layers"), end="")
    layer 1
    A . A
    >>> format_puzzle(LayeredPuzzle.from_layers([["A.", "A."], ["..", ".."]]), fmt="puzzlink")
    Traceback (most recent call last):
    ...
    puzzlesat.errors.CannotExpress: a puzzlink file holds one layer; this puzzle has 2 layers
    """
    fmt = canonical_format(fmt) or "native"
    if isinstance(puzzle, LayeredPuzzle):
        if fmt in layered_formats.FORMATS:
            return layered_formats.format(puzzle, fmt=fmt)
        if puzzle.layers != 1 or puzzle.vias:
            what = f"{puzzle.layers} layers" if puzzle.layers != 1 else f"{len(puzzle.vias)} vias"
            raise CannotExpress(f"a {fmt} file holds one layer; this puzzle has {what}")
        flat = Puzzle(puzzle.width, puzzle.height, tuple(_flat_pair(pair) for pair in puzzle.pairs),
                      frozenset(cell[1:] for cell in puzzle.blocked), name=puzzle.name, stated_rules=puzzle.stated_rules)
        return _format_one_layer(flat, fmt=fmt, rules=rules)
    if fmt == "layers":  # a stack of one layer
        stack = LayeredPuzzle(puzzle.width, puzzle.height, 1,
                              tuple(LayeredPair(p.label, (0, *p.start), (0, *p.end)) for p in puzzle.pairs),
                              frozenset((0, *cell) for cell in puzzle.blocked), name=puzzle.name, stated_rules=puzzle.stated_rules)
        return layered_formats.format(stack, fmt="layers")
    return _format_one_layer(puzzle, fmt=fmt, rules=rules)


def _flat_pair(pair: LayeredPair) -> Pair:
    return Pair(pair.label, pair.start[1:], pair.end[1:])


def detect_format(text: str) -> str | None:
    """The format ``text`` is in (one layer or several), or None when it is none of them."""
    layered = layered_formats.layered_format(text)
    if layered is not None:
        return layered
    try:
        return _detect_one_layer(text)
    except ParseError:
        return None


def render(puzzle: Puzzle | LayeredPuzzle, answer: Solution | Any = None, *, title: str = "") -> Scene:
    """The puzzle drawn (with ``answer``'s paths when given); a stack layer by layer."""
    if isinstance(puzzle, LayeredPuzzle):
        from .multilayer.render import render as draw
    else:
        from .render import render as draw
    return draw(puzzle, answer, title=title or None)


def draw_note(draws: int, tries: int, rejected: Mapping[str, Any], band: tuple[int, int] | None = None) -> str:
    """What the draws of the puzzle being made gave (``make``'s ``on_try`` arguments; quality
    puzzles add the band of link counts accepted).

    >>> draw_note(4, 2, {"with no path drawn": 1})
    '4 draw(s) and 2 tries; turned down: 1 with no path drawn'
    """
    from .generate import turned_down

    return f"{draws} draw(s) and {tries} tries" + turned_down(dict(rejected), band)


GENERATE_EXAMPLE = "example: puzzlesat generate numberlink --size 10x10 --count 5 --method quality --seed 1 --out pack.txt"

FAMILY = Family(
    name="numberlink",
    summary="connect each pair of equal labels by a path; paths never cross (one layer, or a stack of layers)",
    extensions=(".nl",),
    objective=Objective.UNIQUE,
    formats=FORMATS,
    methods=METHODS,
    options=OPTIONS,
    generate_options=GENERATE_OPTIONS,
    sniff=sniff,
    refusal=refusal,
    load=load,
    format=format_puzzle,
    detect_format=detect_format,
    solve_record=records.solve_record,
    verify_record=records.verify_record,
    passed=records.passed,
    answer_of=records.answer_of,
    show=show_module.show,
    render=render,
    size_text=show_module.size_text,
    make=generated.make,
    pack_entry=generated.pack_entry,
    generated_record=generated.generated_record,
    export_cnf=export.family_export,
    certify_claim=certify.prove,
    export_formula=certify.formula,
    check_claim=certify.check,
    pack_folder=PACK_FOLDER,  # a stack of layers (WxHxL) goes one puzzle per file, as the ADC sets
    draw_note=draw_note,
    capabilities=frozenset({"count", "layers", "stated-answers", "answer-files", "url", "explain", "read-deadline"}),
    sniff_order=100,
    generate_example=GENERATE_EXAMPLE,
)
