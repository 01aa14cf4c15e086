"""What ``generate numberlink`` makes, for the family record: one certified puzzle
(:func:`make`, one layer or a stack), the text a pack holds of it (:func:`pack_entry`) and its
JSON record (:func:`generated_record`).
"""

from __future__ import annotations

from typing import Any, Callable

from ..family import Generated
from ..timing import Deadline
from . import formats, multilayer
from .records import Options, _paths, _size, answer_text, grid_of, rules_of


def make(size: tuple[int, ...] | None, *, seed: int, time_limit: float | Deadline | None, options: Options,
         on_try: Callable[..., None] | None = None) -> Generated:
    """One certified puzzle of ``size`` ((width, height), or (width, height, layers) for a stack;
    None: 10x10)
    drawn with ``seed``; ``options``: the generate options and the rules by name (method,
    certify_limit, allow_multiple, band, target, max_tries, lines, min_length, allow_empty,
    no_self_touch, solver). ValueError for a request that cannot be met, before any drawing;
    :class:`~.generate.GenerationFailed` when no puzzle came within the tries or time.

    >>> made = make((5, 5), seed=1, time_limit=None, options={"method": "unionfind", "allow_multiple": True})
    >>> made.facts["method"], made.facts["unique"] in (True, False), made.seed
    ('unionfind', True, 1)
    """
    from .generate import BAND, METHODS, check_request, generate

    size = (10, 10) if size is None else tuple(size)
    if len(size) not in (2, 3):
        raise ValueError(f"a Numberlink size is WIDTHxHEIGHT or WIDTHxHEIGHTxLAYERS, not {'x'.join(map(str, size))}")
    if not all(2 <= side <= 200 for side in size[:2]) or not 1 <= (size[2:] or (1,))[0] <= 100:
        raise ValueError(f"size {'x'.join(map(str, size))}: each side must be 2..200 and the layers 1..100")
    rules = rules_of(options)
    method = options.get("method")
    allow_multiple = bool(options.get("allow_multiple"))
    common = dict(seed=seed, rules=rules, time_limit=Deadline.of(time_limit), certify_time_limit=options.get("certify_limit", 10.0),
                  max_tries=options.get("max_tries") or 10_000, solver=options.get("solver"), on_try=on_try)
    if len(size) == 3:
        made = _make_stack(size, method or "split", options, allow_multiple, common)
    else:
        width, height = size
        method = method or "quality"
        if method not in METHODS or options.get("lines") is not None or options.get("min_length") is not None:
            what = f"--method {method} makes" if method not in METHODS else "--lines and --min-length shape"
            raise ValueError(f"{what} multi-layer puzzles: give --size WxHxL (L layers)")
        if method == "unionfind" and (options.get("band") is not None or options.get("target") is not None):
            raise ValueError("--band and --target shape quality puzzles (--method quality); unionfind does not use them")
        if allow_multiple and method == "quality":
            raise ValueError("--allow-multiple applies to --method unionfind (quality puzzles are always unique)")
        band = BAND if options.get("band") is None else options["band"]
        accepted = check_request(width, height, method=method, band=band, target=options.get("target"))
        if on_try is not None and method == "quality":  # the link counts accepted, for what a caller says of the draws
            told = on_try
            common["on_try"] = lambda draws, tries, rejected: told(draws, tries, rejected, accepted)
        made = generate(width, height, method=method, unique=not allow_multiple, band=band, target=options.get("target"), **common)
    facts = {"unique": made.unique, "method": made.method, "rules": str(rules), "link_lengths": made.link_lengths()}
    return Generated(made.puzzle, made.solution, made.seed, made.tries, facts, seconds=made.seconds)


def _make_stack(size: tuple[int, ...], method: str, options: Options, allow_multiple: bool, common: dict[str, Any]) -> Any:
    from .multilayer.generate import METHODS, check_request, generate

    width, height, layers = size
    if method not in METHODS:
        raise ValueError(f"--method {method} makes one-layer puzzles; stacks (WxHxL) are made by {', '.join(METHODS)}")
    if options.get("band") is not None or options.get("target") is not None:
        raise ValueError("--band and --target shape one-layer quality puzzles; multi-layer stacks (WxHxL) do not use them")
    if allow_multiple and method != "unionfind":
        what = "routing problems are never counted" if method == "routing" else "split puzzles are always unique"
        raise ValueError(f"--allow-multiple applies to --method unionfind ({what})")
    unique, lines, min_length = check_request(width, height, layers, method=method, rules=common["rules"],
                                              unique=False if allow_multiple else None,
                                              lines=options.get("lines"), min_length=options.get("min_length"))
    shape = dict(lines=lines, min_length=min_length) if method == "routing" else {}
    return generate(width, height, layers, method=method, unique=unique, **shape, **common)


def text_format(generated: Generated) -> str:
    """The format a generated puzzle and its answer are written in: native on one layer; on a
    stack its method's (ADC problems for routing, else layered text)."""
    if isinstance(generated.puzzle, multilayer.Puzzle):
        from .multilayer.generate import TEXT_FORMAT

        return TEXT_FORMAT.get(generated.facts.get("method", "split"), "layers")
    return "native"


def pack_entry(generated: Generated) -> str:
    """The puzzle as a pack holds it: a comment line with what is known of its answer, then its
    text (native with its size line on one layer; a stack in its method's format), which
    :func:`~.records.load` reads back.

    >>> print(pack_entry(make((3, 3), seed=2, time_limit=None, options={"method": "unionfind", "allow_multiple": True})), end="")
    # unique, link lengths 7
    3 3
    . . .
    1 # .
    # 1 .
    """
    from .generate import puzzle_text

    unique = {True: "unique", False: "NOT unique", None: "uniqueness unknown"}[generated.facts.get("unique")]
    if isinstance(generated.puzzle, multilayer.Puzzle):
        unique = unique if generated.facts.get("unique") is not None else "not counted"
        text = multilayer.format(generated.puzzle, fmt=text_format(generated))
        what = f"{len(generated.puzzle.pairs)} lines, line lengths"
    else:
        text = puzzle_text(generated.puzzle)
        what = "link lengths"
    lengths = " ".join(str(n) for n in generated.facts.get("link_lengths", ()))
    return f"# {unique}, {what} {lengths}\n{text.rstrip(chr(10))}\n"


def generated_record(generated: Generated) -> dict[str, Any]:
    """The record of ``generate --json`` for one puzzle: ``puzzle`` (its text in the pack's
    format, :func:`text_format`), ``answer`` (the answer it was drawn from, in the same format),
    ``unique``, ``seed``, ``tries``, and the extras ``grid``, ``paths``, ``link_lengths``."""
    puzzle, solution = generated.puzzle, generated.answer
    fmt = text_format(generated)
    text = multilayer.format(puzzle, fmt=fmt) if isinstance(puzzle, multilayer.Puzzle) else formats.format(puzzle, fmt=fmt)
    record: dict[str, Any] = {
        "status": "generated", "objective": "unique", "size": _size(puzzle), "name": puzzle.name or None,
        "rules": generated.facts.get("rules"), "method": generated.facts.get("method"), "seed": generated.seed,
        "tries": generated.tries, "puzzle": text, "answer": answer_text(puzzle, solution, fmt), "moves": None,
        "moves_count": None, "unique": generated.facts.get("unique"), "optimal": None, "lower_bound": None,
        "grid": grid_of(puzzle, solution), "paths": _paths(solution), "link_lengths": list(generated.facts.get("link_lengths", ())),
        "seconds": round(generated.seconds, 4),
    }
    if isinstance(puzzle, multilayer.Puzzle):
        record["layers"] = puzzle.layers
    return record
