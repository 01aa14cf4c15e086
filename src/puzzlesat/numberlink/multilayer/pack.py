"""``puzzlesat generate numberlink --size WxHxL``: a pack of multi-layer puzzles, written as they are made.

The layered readers take one puzzle per file, as the contest sets hold them, so a pack is a
folder (``--out OUT``) laid out like an ADC set::

    OUT/pack.txt              the run: its first line names the settings, then one line per puzzle
    OUT/problems/Q0000.txt    puzzle 0: an ADC problem (routing), else the layered text after
                              a comment line naming the run and its rules (as pack.txt's first)
    OUT/answers/A0000.txt     its drawn answer, in the same format (ADC: LAYER blocks of line numbers)

``puzzlesat verify OUT/problems --answers OUT/answers`` (with ``--allow-empty --allow-multiple``
for routing problems) reads it back and checks every answer. Each puzzle's answer and problem
are written (each to a temporary name, then renamed) before its line is added to ``pack.txt``;
a rerun with the same settings checks that line, the seeds, the files (read back, the answer
verified) and continues from the next puzzle; files beyond the last line are written again.
Without ``--out`` each puzzle is printed after its ``# puzzle`` line (one puzzle so printed is
a file the readers take).

>>> import argparse, contextlib, io, os, tempfile
>>> folder = tempfile.TemporaryDirectory()
>>> args = argparse.Namespace(size=(5, 4, 2), count=2, method="routing", seed=1, out=folder.name, time_limit=None,
...     certify_limit=10.0, allow_multiple=False, band=None, target=None, max_tries=100, allow_empty=True,
...     no_self_touch=False, solver=None, lines=4, min_length=None)
>>> with contextlib.redirect_stderr(io.StringIO()):   # (the summary)
...     status = generate_pack(args)
>>> status, sorted(os.listdir(folder.name)), sorted(os.listdir(os.path.join(folder.name, "problems")))
(0, ['answers', 'pack.txt', 'problems'], ['Q0000.txt', 'Q0001.txt'])
>>> print(open(os.path.join(folder.name, "problems", "Q0000.txt")).read().splitlines()[0])
SIZE 5X4X2
>>> folder.cleanup()
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import time
from typing import Any, TextIO

from ...errors import ParseError
from ...progress import Progress
from ...textio import output_file_problem
from ...timing import Deadline
from ..generate import Generated, GenerationFailed, puzzle_seed, run_seeds
from .formats import format as format_text
from .formats import format_solution, parse_solution, read
from .generate import METHODS, TEXT_FORMAT, check_request, generate
from .model import Puzzle
from .verify import verify

PROBLEMS, ANSWERS, MANIFEST = "problems", "answers", "pack.txt"


def file_names(index: int) -> tuple[str, str]:
    """The problem and answer file of puzzle ``index`` (numbered as ADC sets are, Q/A, from 0).

    >>> file_names(7)
    ('Q0007.txt', 'A0007.txt')
    """
    return f"Q{index:04d}.txt", f"A{index:04d}.txt"


def _rules_text(args: argparse.Namespace) -> str:
    from ..cli import rules_from

    return str(rules_from(args))


def signature(args: argparse.Namespace, lines: int, min_length: int) -> str:
    """The first line of ``pack.txt``: the settings that decide the puzzles (a rerun with other
    settings is refused)."""
    width, height, layers = args.size
    parts = [f"# puzzlesat generate numberlink --size {width}x{height}x{layers} --method {args.method} --seed {args.seed}"]
    if args.method == "routing":
        parts.append(f"--lines {lines} --min-length {min_length}")
    if args.allow_multiple:
        parts.append("--allow-multiple")
    parts.append(f"(rules: {_rules_text(args)})")
    return " ".join(parts)


def _write_file(path: str, text: str) -> None:
    """``text`` to ``path`` whole or not at all (a temporary name, then renamed)."""
    temporary = path + ".part"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def _puzzle_line(index: int, made: Generated, *, named: bool) -> str:
    """The line of ``pack.txt`` for a puzzle (no timings: the same run writes the same bytes);
    ``named``: with the name of its problem file."""
    unique = {True: "unique", False: "NOT unique", None: "not counted"}[made.unique]
    lengths = " ".join(str(n) for n in made.link_lengths())
    name = f" {file_names(index)[0]}," if named else ""
    return f"# puzzle {index}:{name} seed {made.seed}, {unique}, {made.tries} tries, {len(made.puzzle.pairs)} lines, line lengths {lengths}\n"


def existing_puzzles(folder: str, first_line: str, args: argparse.Namespace) -> tuple[list[Puzzle], str | None]:
    """The puzzles a previous run with the same settings left in ``folder`` (or why it cannot
    be resumed): ``pack.txt`` must open with this run's first line and number its puzzles
    0..n-1 with the seeds this run gives them, and every listed problem must read back with
    an answer that passes ``verify`` under the run's rules."""
    from ..cli import pack_text, rules_from

    manifest = os.path.join(folder, MANIFEST)
    if os.path.exists(folder) and not os.path.isdir(folder):
        return [], f"{folder} is a file; a multi-layer pack is a folder (--out names the folder)"
    if not os.path.exists(folder) and output_file_problem(folder):  # (the folder is made; not its parents)
        return [], output_file_problem(folder)
    text, problem = pack_text(manifest, first_line, pack=folder)
    if problem:
        return [], problem
    if text is None:  # no pack.txt (or an empty one)
        if os.path.isdir(folder) and any(name != MANIFEST for name in os.listdir(folder)):
            return [], f"{folder} holds files but no {MANIFEST}: not a pack of this command; choose another --out"
        return [], None
    if not text.endswith("\n"):
        return [], f"{manifest} ends in the middle of a line; remove the incomplete last line to resume"
    marks = [(int(m.group(1)), m.group(2), int(m.group(3)))
             for m in re.finditer(r"^# puzzle (\d{1,18}): (\S+), seed (-?\d{1,40}),", text, flags=re.MULTILINE)]
    rules = rules_from(args)
    found = []
    for position, (index, name, seed) in enumerate(marks):
        if index != position:
            return [], f"{manifest}: puzzle lines are not numbered 0..{len(marks) - 1}"
        problem, answer = file_names(index)
        if name != problem:
            return [], f"{manifest}: puzzle {index} names {name}, not {problem}"
        if seed not in run_seeds(args.seed, index):
            return [], f"{manifest}: puzzle {index} has seed {seed}, not this run's {puzzle_seed(args.seed, index)}"
        try:
            puzzle = read(os.path.join(folder, PROBLEMS, problem), fmt=TEXT_FORMAT[args.method])[0]
            answer_path = os.path.join(folder, ANSWERS, answer)
            with open(answer_path, encoding="utf-8") as handle:
                solution = parse_solution(handle.read(), puzzle, fmt=TEXT_FORMAT[args.method], source=answer_path)
        except (OSError, ParseError) as exc:
            return [], f"cannot resume {folder}: puzzle {index}: {exc}"
        if verify(puzzle, solution, rules):
            return [], f"cannot resume {folder}: the answer {answer} breaks the rules: {verify(puzzle, solution, rules)[0]}"
        found.append(puzzle)
    return found, None


def generate_pack(args: argparse.Namespace) -> int:
    """Write ``args.count`` multi-layer puzzles (``args.size`` is ``(width, height, layers)``):
    exit 0 when all are written, 1 when one could not be made, 2 for a bad request or a folder
    that cannot be resumed, 130 on Ctrl-C (every finished puzzle kept)."""
    from ..cli import PackDraws, PackTally, generated_record, made_for_pack, pack_summary, rules_from

    width, height, layers = args.size
    size = f"{width}x{height}x{layers}"
    problem = _refusal(args)
    if problem is None:
        try:
            unique, lines, min_length = check_request(width, height, layers, method=args.method, rules=rules_from(args),
                                                      unique=False if args.allow_multiple else None,
                                                      lines=args.lines, min_length=args.min_length)
        except (ValueError, TypeError) as exc:
            problem = str(exc)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    first_line = signature(args, lines, min_length)
    existing: list[Puzzle] = []
    if args.out:
        existing, problem = existing_puzzles(args.out, first_line, args)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    fmt = TEXT_FORMAT[args.method]
    start = len(existing)
    seen = {format_text(puzzle, fmt=fmt) for puzzle in existing}  # a pack never holds one puzzle twice
    options: dict[str, Any] = dict(method=args.method, rules=rules_from(args), unique=unique,
                                   time_limit=args.time_limit, certify_time_limit=args.certify_limit, max_tries=args.max_tries,
                                   solver=args.solver)
    if args.method == "routing":
        options.update(lines=lines, min_length=min_length)
    progress = Progress(args.count, label=f"generate numberlink {size}")
    progress.done = min(start, args.count)
    tally = PackTally()
    status = 0
    started = time.perf_counter()
    json_lines = getattr(args, "json", False)
    manifest: TextIO = io.StringIO() if json_lines else sys.stdout  # (without --out: the puzzles, unless JSON is asked)
    drawing = PackDraws(progress)
    try:
        fresh = start == 0 and not (args.out and os.path.exists(os.path.join(args.out, MANIFEST))
                                    and os.path.getsize(os.path.join(args.out, MANIFEST)) > 0)
        if args.out:
            for part in (PROBLEMS, ANSWERS):
                os.makedirs(os.path.join(args.out, part), exist_ok=True)
                for name in os.listdir(os.path.join(args.out, part)):
                    if name.endswith(".part"):  # left by a run stopped while it wrote a file
                        os.remove(os.path.join(args.out, part, name))
            manifest = open(os.path.join(args.out, MANIFEST), "a", encoding="utf-8")
        if fresh:  # (a run stopped before its first puzzle left the line)
            manifest.write(first_line + "\n")
            manifest.flush()
        for index in range(start, args.count):
            drawing.start(index)
            options["time_limit"] = Deadline.of(args.time_limit)  # one for the puzzle, repeats redrawn included
            try:
                made = made_for_pack(lambda seed: generate(width, height, layers, seed=seed, on_try=drawing.tried, **options),
                                     lambda made: format_text(made.puzzle, fmt=fmt), seen, args.seed, index)
            except GenerationFailed as exc:
                progress.close()
                print(f"error: puzzle {index}: {exc}", file=sys.stderr)
                tally.tries += exc.tries
                status = 1
                break
            text = format_text(made.puzzle, fmt=fmt)
            seen.add(text)
            if args.out:
                problem_name, answer_name = file_names(index)
                _write_file(os.path.join(args.out, ANSWERS, answer_name), format_solution(made.puzzle, made.solution, fmt=fmt))
                # a layered problem opens with the run's line, so that verify can name the rules
                # it was made under (ADC problems stay as the contest tools read them)
                _write_file(os.path.join(args.out, PROBLEMS, problem_name), text if fmt == "adc" else f"{first_line}\n{text}")
                manifest.write(_puzzle_line(index, made, named=True))
            else:
                manifest.write(_puzzle_line(index, made, named=False) + text + "\n")
            manifest.flush()
            if json_lines:
                print(json.dumps(generated_record(made, index=index, out=args.out)), flush=True)
            tally.add(made)
            progress.advance(note=f"{made.tries} tries")
    except KeyboardInterrupt:
        progress.close()
        print(f"interrupted: {start + tally.made} puzzle(s) kept" + (f" in {args.out}" if args.out else "") + drawing.unfinished(),
              file=sys.stderr)
        return 130
    except OSError as exc:
        progress.close()
        print(f"error: cannot write the pack: {exc}", file=sys.stderr)
        return 2
    finally:
        if args.out and manifest is not sys.stdout:
            manifest.close()
    progress.close()
    summary = pack_summary(args, size, tally, start=start, seconds=time.perf_counter() - started, unit="line")
    if args.out:
        flags = " --allow-empty --allow-multiple" if args.method == "routing" else _rule_flags(args)
        summary += f"\ncheck: puzzlesat verify {os.path.join(args.out, PROBLEMS)} --answers {os.path.join(args.out, ANSWERS)}{flags}"
    print(summary, file=sys.stderr)  # (as the one-layer pack and generate roller and swap)
    return status


def _rule_flags(args: argparse.Namespace) -> str:
    flags = (" --allow-empty" if args.allow_empty else "") + (" --no-self-touch" if args.no_self_touch else "")
    return flags + (" --allow-multiple" if args.allow_multiple else "")


def _refusal(args: argparse.Namespace) -> str | None:
    """Options the multi-layer methods do not take, said before any drawing."""
    if args.method not in METHODS:
        return f"--method {args.method} makes one-layer puzzles; stacks (WxHxL) are made by {', '.join(METHODS)}"
    if args.band is not None or args.target is not None:
        return "--band and --target shape one-layer quality puzzles; multi-layer stacks (WxHxL) do not use them"
    if args.allow_multiple and args.method != "unionfind":
        what = "routing problems are never counted" if args.method == "routing" else "split puzzles are always unique"
        return f"--allow-multiple applies to --method unionfind ({what})"
    return None


__all__ = ["generate_pack", "existing_puzzles", "signature", "file_names"]
