"""Command-line adapter of the Numberlink family (used by :mod:`puzzlesat.cli`): the verbs of
:mod:`.records` and :mod:`.show` (the record keys are documented there), given the options
of an argparse Namespace, and the ``generate numberlink`` pack writer.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from ..errors import ParseError, count_argument
from ..results import Status
from ..seeds import seed_argument
from ..textio import output_file_problem
from ..timing import Deadline, seconds_argument
from . import formats, multilayer, records
from . import family as nl_family
from . import show as show_module
from .model import Puzzle, Rules, Solution
from .solve import count
from .verify import verify

AnyPuzzle = Puzzle | multilayer.Puzzle
AnySolution = Solution | multilayer.Solution

PALETTE = show_module.PALETTE
picture = show_module.picture
_grid = records.grid_of


def options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The family's options by name, from the command line's arguments."""
    return {"allow_empty": bool(getattr(args, "allow_empty", False)), "no_self_touch": bool(getattr(args, "no_self_touch", False)),
            "solver": getattr(args, "solver", None), "allow_multiple": bool(getattr(args, "allow_multiple", False)),
            "answers": getattr(args, "answers", None)}


def sniff(text: str, path: str) -> bool:
    """Numberlink reads the most formats, so it is the family of last resort."""
    return nl_family.sniff(text, path)


def load(text: str, source: str, args: argparse.Namespace) -> list[Puzzle | ParseError]:
    """The puzzles of one input (:func:`.records.load`)."""
    return nl_family.load(text, source=source, fmt=args.fmt, options=options_of(args))


def rules_from(args: argparse.Namespace) -> Rules:
    return records.rules_of(options_of(args))


def blank_record() -> dict[str, Any]:
    return {"unique": None, "answer": None, "grid": None, "paths": None}


def solve_record(puzzle: AnyPuzzle, args: argparse.Namespace) -> dict[str, Any]:
    return records.solve_record(puzzle, options=options_of(args), time_limit=args.time_limit)


def verify_record(puzzle: AnyPuzzle, args: argparse.Namespace, *, answer: str | None = None) -> dict[str, Any]:
    """The record of :func:`.records.verify_record`; ``answer`` names the stated answer's file
    (``verify --answers``), read here (devices refused, size capped)."""
    from ..cli import read_source

    options = options_of(args)
    if answer is None:
        return records.verify_record(puzzle, options=options, time_limit=args.time_limit)
    try:
        text = read_source(answer)
    except ParseError as error:
        record = records.verify_record(puzzle, options=options, time_limit=args.time_limit)
        record.pop("stated_answer_missing", None)
        record["stated_answer"] = {"source": answer, "valid": False, "same": None, "too_long": None,
                                   "violations": [str(error if error.source else error.with_source(answer))]}
        return record
    return records.verify_record(puzzle, options=options, time_limit=args.time_limit, answer=(answer, text))


passed = records.passed


def show(puzzle: AnyPuzzle | None, record: dict[str, Any], args: argparse.Namespace, verb: str, *, where: str, colour: bool) -> str:
    return show_module.show(puzzle, record, verb=verb, colour=colour, where=where)


# -- generate (owned by the generators' work) ---------------------------------------------------
GENERATE_EXAMPLE = """examples:
  puzzlesat generate numberlink --size 10x10 --count 5 --method quality --seed 1 --out pack.txt
  puzzlesat generate numberlink --size 12x10 --count 20 --method unionfind --allow-multiple --out uf.txt
  puzzlesat generate numberlink --size 6x6x2 --count 10 --seed 1 --out stack          (several layers: a folder)
  puzzlesat generate numberlink --size 16x16x4 --method routing --allow-empty --lines 40 --count 10 --out adc
The output is native text (one 'W H' grid per puzzle, '#' comment lines, blank lines between
puzzles) that 'puzzlesat verify' reads; puzzle i of a run uses seed S * 1000003 + i, and a
rerun with the same settings and --out continues the file instead of starting again.
With --size WxHxL (L layers) --out names a folder: pack.txt, problems/Q0000.txt, ... (ADC
problems for --method routing, else layered text) and answers/A0000.txt, ...; check it with
'puzzlesat verify OUT/problems --answers OUT/answers' (routing: add --allow-empty --allow-multiple)."""


def _board_size(text: str) -> tuple[int, ...]:
    """``WxH`` (one layer) or ``WxHxL`` (a stack of L layers)."""
    parts = text.lower().replace("*", "x").split("x")
    if len(parts) not in (2, 3) or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"size {text!r} is not WIDTHxHEIGHT (e.g. 10x10) or WIDTHxHEIGHTxLAYERS (e.g. 8x8x3)")
    width, height = int(parts[0]), int(parts[1])
    if not (2 <= width <= 200 and 2 <= height <= 200):
        raise argparse.ArgumentTypeError(f"size {text!r}: each side must be 2..200")
    if len(parts) == 3 and not 1 <= int(parts[2]) <= 100:
        raise argparse.ArgumentTypeError(f"size {text!r}: the layers must be 1..100")
    return (width, height) if len(parts) == 2 else (width, height, int(parts[2]))


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    from .generate import BAND, METHODS
    from .multilayer.generate import METHODS as LAYERED_METHODS

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--size", type=_board_size, default=(10, 10), metavar="WxH[xL]", help="board size (default 10x10); WxHxL: a stack of L layers (multi-layer)")
    parser.add_argument("--count", type=count_argument, default=1, help="puzzles to write (default 1)")
    parser.add_argument("--method", choices=sorted({*METHODS, *LAYERED_METHODS}), default=None,
                        help="one layer: quality (puzzle-maker pipeline, default) or unionfind; several layers: split (default), unionfind, "
                             "or routing (ADC-style routing problems, with --allow-empty)")
    parser.add_argument("--seed", type=seed_argument, default=0, help="run seed; puzzle i uses seed*1000003+i (default 0)")
    parser.add_argument("--out", default=None, metavar="PATH", help="append each puzzle to PATH as soon as it is certified (WxHxL: PATH is a folder of files); a rerun continues it (default: standard output)")
    parser.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds allowed per puzzle (default: no limit)")
    parser.add_argument("--certify-limit", type=seconds_argument, default=10.0, metavar="S", help="seconds per SAT uniqueness count (default 10)")
    parser.add_argument("--allow-multiple", action="store_true", help="unionfind: keep puzzles that are not unique, labelled in their comment line")
    parser.add_argument("--band", type=float, default=None, metavar="F", help=f"quality: accepted link counts, target +- this fraction (default {BAND})")
    parser.add_argument("--target", type=float, default=None, metavar="N", help="quality: target link count (default sqrt(width*height); above 15x15 0.065 per cell)")
    parser.add_argument("--max-tries", type=count_argument, default=10_000, metavar="N", help="certificates allowed per puzzle before giving up (default 10000)")
    parser.add_argument("--allow-empty", action="store_true", help="certify under may-leave-empty rules")
    parser.add_argument("--no-self-touch", action="store_true", help="certify under no-self-touch rules")
    parser.add_argument("--solver", default=None, help="SAT back-end by pysat name (default cadical195; Glucose heeds --time-limit only between its restarts)")
    parser.add_argument("--lines", type=count_argument, default=None, metavar="N", help="routing (WxHxL): numbered lines per problem (default round(sqrt(W*H) * L / 2))")
    parser.add_argument("--min-length", type=count_argument, default=None, metavar="N", help="routing (WxHxL): cells of the shortest line (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per new puzzle (the pack still goes to --out)")


def _generate_signature(args: argparse.Namespace) -> str:
    width, height = args.size
    parts = [f"# puzzlesat generate numberlink --size {width}x{height} --method {args.method} --seed {args.seed}"]
    if args.allow_multiple:
        parts.append("--allow-multiple")
    if args.method == "quality" and (args.band != 0.15 or args.target is not None):
        parts.append(f"--band {args.band:g}" + (f" --target {args.target:g}" if args.target is not None else ""))
    parts.append(f"(rules: {rules_from(args)})")
    return " ".join(parts)


def _generate_options(args: argparse.Namespace) -> dict[str, Any]:
    """The generator's arguments for one puzzle of a pack: its own deadline of ``--time-limit``,
    shared by the further seeds tried when a draw repeats an earlier puzzle."""
    return dict(
        method=args.method, unique=not args.allow_multiple, rules=rules_from(args), time_limit=Deadline.of(args.time_limit),
        certify_time_limit=args.certify_limit, band=args.band, target=args.target, max_tries=args.max_tries, solver=args.solver,
    )


def generated_record(made: Any, *, index: int, out: str | None) -> dict[str, Any]:
    """The JSON object ``generate numberlink --json`` prints for a new puzzle (``made``: a
    :class:`.generate.Generated`, one layer or several), with the keys of ``solve --json`` where
    they mean the same (``grid``, ``paths``: the answer it was drawn from) and of ``generate
    roller --json`` (``seed``, ``tries``, ``seconds``); ``puzzle`` is the board as rows of cell
    strings (a label, "." or "#"; for a stack, layers of rows).

    >>> from puzzlesat.numberlink.generate import generate
    >>> record = generated_record(generate(3, 3, method="unionfind", seed=2, unique=False), index=0, out=None)
    >>> record["puzzle"], record["grid"], record["unique"]
    ([['.', '.', '.'], ['1', '#', '.'], ['#', '1', '.']], [['1', '1', '1'], ['1', '#', '1'], ['#', '1', '1']], True)
    """
    puzzle, solution = made.puzzle, made.solution
    record: dict[str, Any] = {"family": "numberlink", "source": out, "index": index, "width": puzzle.width, "height": puzzle.height}
    if isinstance(puzzle, multilayer.Puzzle):
        record["layers"] = puzzle.layers
    record.update(
        puzzle=puzzle.grid().tolist(), grid=_grid(puzzle, solution),
        paths={label: [list(cell) for cell in cells] for label, cells in solution.paths},
        unique=made.unique, method=made.method, seed=made.seed, tries=made.tries,
        link_lengths=made.link_lengths(), seconds=round(made.seconds, 4),
    )
    return record


def _puzzle_block(index: int, made: Any) -> str:
    from .generate import puzzle_text

    unique = {True: "unique", False: "NOT unique", None: "uniqueness unknown"}[made.unique]
    lengths = " ".join(str(n) for n in made.link_lengths())
    head = f"# puzzle {index}: seed {made.seed}, {unique}, {made.tries} tries, link lengths {lengths}"  # no timings: the same run, the same bytes
    return f"{head}\n{puzzle_text(made.puzzle)}\n\n"


def pack_text(path: str, first_line: str, *, pack: str) -> tuple[str | None, str | None]:
    """A pack's record file for a rerun (the pack file itself, or a multi-layer pack folder's
    ``pack.txt``; ``pack`` is what ``--out`` named): ``(text, None)`` when it opens with this run's
    ``first_line``, ``(None, None)`` when it is absent or empty, ``(None, why not)`` otherwise."""
    import os

    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None, None
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"cannot resume {path}: {exc}"
    found = text.split("\n", 1)[0]
    if found != first_line:
        differs = "its first line" if pack == path else f"the first line of {os.path.basename(path)}"
        return None, (f"{pack} was not written by a run with these settings ({differs} is {found[:200]!r};"
                      f" this run's: {first_line!r}); choose another --out")
    return text, None


def _existing_puzzles(path: str, signature: str, run_seed: int) -> tuple[list[Puzzle], str | None]:
    """The puzzles a previous run with the same settings left in ``path`` (or an error): the
    first line must be this run's signature, the puzzle comments numbered 0..n-1 with the seeds
    this run gives them, and the file must parse as n puzzles."""
    import re

    from ..errors import ParseError
    from .generate import puzzle_seed, run_seeds

    text, problem = pack_text(path, signature, pack=path)
    if text is None:
        return [], problem
    marks = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(r"^# puzzle (\d{1,18}): seed (-?\d{1,40}),", text, flags=re.MULTILINE)]
    indices = [index for index, _ in marks]
    if indices != list(range(len(indices))):
        return [], f"{path}: puzzle comments are not numbered 0..{len(indices) - 1}"
    for index, seed in marks:
        if seed not in run_seeds(run_seed, index):
            return [], f"{path}: puzzle {index} has seed {seed}, not this run's {puzzle_seed(run_seed, index)}"
    if not indices:
        return [], None
    if not text.endswith("\n"):  # (a grid whose rows all came is whole: an editor may drop the blank line after it)
        return [], f"{path} ends in the middle of a puzzle; remove the incomplete last block to resume"
    try:
        found = formats.parse_all(text, fmt="native", source=path)
    except ParseError as exc:
        return [], f"cannot resume {path}: {exc}"
    if len(found) != len(indices):
        return [], f"{path} holds {len(found)} puzzles but {len(indices)} puzzle comments"
    return found, None


def _ends_with_blank_line(path: str) -> bool:
    with open(path, "rb") as handle:
        handle.seek(max(0, handle.seek(0, 2) - 2))
        return handle.read() == b"\n\n"


def _histogram(lengths: dict[int, int]) -> str:
    if not lengths:
        return "  (none)"
    top = max(lengths.values())
    rows = []
    for length in sorted(lengths):
        bar = "#" * max(1, round(40 * lengths[length] / top))
        rows.append(f"  {length:4d} cells {lengths[length]:6d} {bar}")
    return "\n".join(rows)


def generate(args: argparse.Namespace) -> int:
    """``puzzlesat generate numberlink``: certified puzzles, each written as soon as it is made."""
    import io
    import json
    import os
    import sys
    import time

    from ..progress import Progress
    from .generate import BAND, METHODS, GenerationFailed, check_request, puzzle_text
    from .generate import generate as make

    if len(args.size) == 3:  # a stack of layers: a folder of ADC-style files
        from .multilayer.pack import generate_pack

        args.method = args.method or "split"
        return generate_pack(args)
    args.method = args.method or "quality"
    if args.method not in METHODS or args.lines is not None or args.min_length is not None:
        what = f"--method {args.method} makes" if args.method not in METHODS else "--lines and --min-length shape"
        print(f"error: {what} multi-layer puzzles: give --size WxHxL (L layers)", file=sys.stderr)
        return 2
    if args.method == "unionfind" and (args.band is not None or args.target is not None):
        print("error: --band and --target shape quality puzzles (--method quality); unionfind does not use them", file=sys.stderr)
        return 2
    if args.band is None:
        args.band = BAND
    width, height = args.size
    try:
        band = check_request(width, height, method=args.method, band=args.band, target=args.target)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.allow_multiple and args.method == "quality":
        print("error: --allow-multiple applies to --method unionfind (quality puzzles are always unique)", file=sys.stderr)
        return 2
    signature = _generate_signature(args)
    existing: list[Puzzle] = []
    if args.out:
        problem = output_file_problem(args.out)  # (as generate roller and swap check it)
        if problem is None:
            existing, problem = _existing_puzzles(args.out, signature, args.seed)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    start = len(existing)
    seen = {puzzle_text(puzzle) for puzzle in existing}  # a pack never holds one puzzle twice
    out = open(args.out, "a", encoding="utf-8") if args.out else (io.StringIO() if args.json else sys.stdout)
    if existing and not _ends_with_blank_line(args.out):
        out.write("\n")  # (the blank line that ends a puzzle, dropped by an editor)
    progress = Progress(args.count, label=f"generate numberlink {width}x{height}")
    progress.done = min(start, args.count)
    tally = PackTally()
    started = time.perf_counter()
    status = 0
    drawing = PackDraws(progress)
    try:
        if start == 0 and not (args.out and os.path.getsize(args.out) > 0):  # (a run stopped before its first puzzle left the line)
            out.write(signature + "\n")
            out.flush()
        for index in range(start, args.count):
            drawing.start(index)
            try:
                options = _generate_options(args)
                made = made_for_pack(lambda seed: make(width, height, seed=seed, on_try=drawing.tried, **options),
                                     lambda made: puzzle_text(made.puzzle), seen, args.seed, index)
            except GenerationFailed as exc:
                progress.close()
                print(f"error: puzzle {index}: {exc}", file=sys.stderr)
                tally.tries += exc.tries
                status = 1
                break
            seen.add(puzzle_text(made.puzzle))
            out.write(_puzzle_block(index, made))
            out.flush()
            if args.json:
                print(json.dumps(generated_record(made, index=index, out=args.out)), flush=True)
            tally.add(made)
            progress.advance(note=f"{made.tries} tries")
    except KeyboardInterrupt:
        progress.close()
        print(f"interrupted: {start + tally.made} puzzle(s) kept" + (f" in {args.out}" if args.out else "") + drawing.unfinished(band),
              file=sys.stderr)
        return 130
    finally:
        if args.out:
            out.close()
    progress.close()
    summary = pack_summary(args, f"{width}x{height}", tally, start=start, seconds=time.perf_counter() - started, unit="link")
    print(summary, file=sys.stderr)  # (as generate roller and swap: standard output holds only puzzles or JSON lines)
    return status


def made_for_pack(make: Callable[[int], Any], text_of: Callable[[Any], str], seen: set[str], run_seed: int, index: int) -> Any:
    """Puzzle ``index`` of a pack (one layer or several): ``make(seed)`` with its seed
    (:func:`.generate.puzzle_seed`), or with further seeds while its text (``text_of``) is one
    of ``seen``, the pack's earlier puzzles; GenerationFailed after ``DUPLICATE_RETRIES`` seeds."""
    from .generate import DUPLICATE_RETRIES, GenerationFailed, puzzle_seed

    for attempt in range(DUPLICATE_RETRIES):
        made = make(puzzle_seed(run_seed, index, attempt))
        if text_of(made) not in seen:
            return made
    raise GenerationFailed(f"only repeats of earlier puzzles of the pack after {DUPLICATE_RETRIES} seeds", tries=made.tries)


class PackDraws:
    """The draws of the puzzle a ``generate numberlink`` pack is making (one layer or several):
    shown on the progress line of a terminal (the generators' ``on_try``), and said on Ctrl-C."""

    def __init__(self, progress: Any) -> None:
        self.progress = progress
        self.start(0)

    def start(self, index: int) -> None:
        self.index, self.draws, self.tries = index, 0, 0
        self.rejected: dict[str, Any] = {}

    def tried(self, draws: int, tries: int, rejected: dict[str, Any]) -> None:
        self.draws, self.tries, self.rejected = draws, tries, rejected
        self.progress.advance(0, note=f"#{self.index}: {draws} draws, {tries} tries")

    def unfinished(self, band: tuple[int, int] | None = None) -> str:
        """What the puzzle being made had drawn, for the Ctrl-C line (empty before any draw).

        >>> import types
        >>> draws = PackDraws(types.SimpleNamespace(advance=lambda done, note: None))
        >>> draws.start(3); draws.tried(4, 2, {"with no path drawn": 1}); draws.unfinished()
        '; puzzle 3 had made 4 draw(s) and 2 tries; turned down: 1 with no path drawn'
        """
        from .generate import turned_down

        if not self.draws:
            return ""
        return f"; puzzle {self.index} had made {self.draws} draw(s) and {self.tries} tries" + turned_down(self.rejected, band)


class PackTally:
    """What a ``generate numberlink`` run has made so far (one layer or several): puzzles,
    tries (a failed puzzle's too), uniqueness verdicts and a histogram of path lengths."""

    def __init__(self) -> None:
        self.made = self.tries = 0
        self.verdicts = {True: 0, False: 0, None: 0}
        self.lengths: dict[int, int] = {}

    def add(self, made: Any) -> None:
        """A puzzle written to the pack (a ``Generated``)."""
        self.made += 1
        self.tries += made.tries
        self.verdicts[made.unique] += 1
        for n in made.link_lengths():
            self.lengths[n] = self.lengths.get(n, 0) + 1


def pack_summary(args: argparse.Namespace, size: str, tally: PackTally, *, start: int, seconds: float, unit: str) -> str:
    """The lines a ``generate numberlink`` run ends with: puzzles, tries, seconds and rate, the
    verdicts under ``--allow-multiple``, and a histogram of path lengths (``unit``: "link" or
    "line")."""
    where = f" to {args.out}" if args.out else ""
    resumed = f" ({start} already there)" if start else ""
    rate = f", {60 * tally.made / seconds:.1f} per minute" if seconds > 0 and tally.made else ""
    summary = [f"{tally.made} puzzle(s) written{where}{resumed}: {args.method} {size}, {tally.tries} tries, {seconds:.2f} s{rate}"]
    if args.allow_multiple:
        verdicts = tally.verdicts
        summary.append(f"unique: {verdicts[True]}, not unique: {verdicts[False]}, unknown: {verdicts[None]}")
    summary.append(f"{unit} lengths (cells per {unit}):")
    summary.append(_histogram(tally.lengths))
    return "\n".join(summary)


# -- render (owned by the rendering work) -------------------------------------------------------
def render(puzzle: AnyPuzzle, args: argparse.Namespace) -> int:
    """``puzzlesat render``: draw the puzzle, or with ``--solution`` its verified answer, to
    ``args.output`` (.svg or .png); the caption then says whether that answer is unique, in the
    words of ``verify`` ("solved, multiple answers"). A multi-layer puzzle is drawn layer by
    layer, side by side (:mod:`puzzlesat.numberlink.multilayer.render`). Exit 0 when drawn as
    asked, 1 when no answer was found (the puzzle alone is drawn), 2 when the file could not be
    written."""
    import sys

    from ..scene import cli_caption, save_for_cli

    if isinstance(puzzle, multilayer.Puzzle):
        from .multilayer.render import render as draw
        counter, size = multilayer.count, puzzle.size_text
    else:
        from .render import render as draw
        counter, size = count, f"{puzzle.width}x{puzzle.height}"

    title = cli_caption(args.input, args.index, "", size)
    solution = None
    status = 0
    if args.solution:
        options = {"solver": args.solver} if args.solver else {}
        rules = rules_from(args)
        result = counter(puzzle, rules=rules, limit=2, time_limit=args.time_limit, **options)  # (as solve and verify do)
        if result.solutions:
            solution = result.solutions[0]
            title += f", solved, {show_module.uniqueness_text(result.unique)}"
        else:
            found = "unsolvable" if result.complete else f"{Status.UNKNOWN.value} (time limit)"
            proof = (result.stats or {}).get("proof")  # why, as solve says it (and roller's render)
            print(f"no answer drawn: {found} under {rules} rules" + (f": {proof}" if proof else ""), file=sys.stderr)
            status = 1
        stated = puzzle.stated_rules
        if stated is not None and stated.by == "url":
            note = show_module.rules_note({"rules": str(rules), "stated_rules": str(stated.rules), "stated_rules_by": "url"})
            if note:
                print(f"note: {note}", file=sys.stderr)
    written = save_for_cli(draw(puzzle, solution, title=title), args.output)
    return written or status
