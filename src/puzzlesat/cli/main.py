"""The ``puzzlesat`` command, built from the registry of families: solve, verify, render,
convert, generate, bench and examples (export and check-proof: .certificates). Every family option comes from its ``Family.options``, the
``--method`` and ``--format`` values from its methods and formats, and ``generate FAMILY`` from
its ``generate_options``; nothing here names a family.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Sequence

from ..batch import StoreError
from ..errors import PuzzlesatError
from ..family import Family, Objective, Option
from ..memory import describe_memory, parse_bytes
from ..registry import families
from ..textio import MAX_INPUT_BYTES
from . import bench, certificates, commands
from .batching import add_batch_options, batch_problem
from .arguments import converter, count_argument, index_argument, joined_dash_values, seconds_argument, seed_argument, size_argument
from .convert import command_convert
from .generate import command_generate
from .report import add_report_arguments, command_report
from .output import clear_all

EXAMPLES = {
    "solve": "example: puzzlesat solve puzzle.txt --json",
    "verify": "example: puzzlesat verify examples/ --time-limit 10",
    "render": "example: puzzlesat render puzzle.txt --solution -o answer.svg",
    "convert": "example: puzzlesat convert puzzle.txt -o puzzle.out --to native",
    "bench": "example: puzzlesat bench --quick --out /tmp/bench --data ~/puzzle-sets",
    "examples": "example: puzzlesat examples my-examples && puzzlesat verify my-examples",
    "report": "example: puzzlesat verify examples/ --store results.sqlite && puzzlesat report results.sqlite --out report/results",
}


def add_option(group: argparse._ActionsContainer, option: Option) -> None:
    """One family option as a flag: its value stays None when not given (the family's
    default then applies), so a note can say when a given option was not used."""
    if option.kind == "flag":
        group.add_argument(option.flag, dest=option.name, action="store_true", default=None, help=option.help)
    elif option.kind == "choice":
        group.add_argument(option.flag, dest=option.name, choices=list(option.choices), default=None,
                           metavar=option.metavar, help=option.help)
    else:
        convert = converter(option.convert, option.name) if option.convert is not None else str
        group.add_argument(option.flag, dest=option.name, type=convert, default=None, metavar=option.metavar, help=option.help)


def add_family_options(p: argparse.ArgumentParser, which: str = "options") -> None:
    """Each family's options in a group of its own (an option two families share, once)."""
    taken: set[str] = set()
    for family in families():
        offered = [option for option in getattr(family, which) if option.flag not in taken]
        if not offered:
            continue
        group = p.add_argument_group(f"{family.name} {'rules and settings' if which == 'options' else 'generate settings'}")
        for option in offered:
            add_option(group, option)
            taken.add(option.flag)


input_bytes_argument = converter(lambda text: parse_bytes(text, what="input size"), "input size")


def add_common_options(p: argparse.ArgumentParser, *, json_lines: bool = True, methods: bool = True) -> None:
    p.add_argument("--family", choices=[f.name for f in families()], help="puzzle family (default: from the file ending or content)")
    p.add_argument("--format", dest="fmt", help="input format (default: detected); see each family's docs")
    p.add_argument("--index", type=index_argument, help="only the puzzle at this position in a multi-puzzle file (from 0)")
    p.add_argument("--max-input-bytes", type=input_bytes_argument, default=MAX_INPUT_BYTES, metavar="SIZE",
                   help=f"the most one input file may hold, e.g. 200M (default {describe_memory(MAX_INPUT_BYTES)}; "
                        "a larger file is an error naming the limit)")
    if methods:
        p.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds allowed per puzzle (then: unknown)")
        offered = "; ".join(f"{f.name}: {', '.join(m.name for m in f.methods)}" for f in families() if f.methods)
        p.add_argument("--method", default=None, help=f"solver method (default: each family's own); {offered}")
    if json_lines:
        p.add_argument("--json", action="store_true", help="print one JSON object per puzzle")
    add_family_options(p)


def add_explain_flag(p: argparse.ArgumentParser) -> None:
    """``--explain`` for the families whose records can list the steps that decided them
    (capability "explain"): their text output then prints each step and its time."""
    explained = [f.name for f in families() if "explain" in f.capabilities]
    if explained:
        p.add_argument("--explain", action="store_true",
                       help=f"print the steps that decided each verdict, with their outcomes and times ({', '.join(explained)})")


def installed_versions() -> list[str]:
    """The versions that matter for what puzzlesat answers and how fast: its own, its solver
    libraries' and Python's, e.g. ``['puzzlesat 0.1.0', 'python-sat 1.9', ..., 'Python 3.11.7']``
    (a library missing is left out). ``puzzlesat --version`` prints them; each benchmark's
    ``.run.json`` records them."""
    from importlib import metadata
    from platform import python_version

    from .. import __version__

    found = [f"puzzlesat {__version__}"]
    for name in ("python-sat", "ortools", "networkx", "numpy", "scipy"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return [*found, f"Python {python_version()}"]


def add_generate_parser(gen: argparse._SubParsersAction, family: Family) -> None:
    gp = gen.add_parser(family.name, help=f"generate {family.name} puzzles", epilog=family.generate_example or None,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    layers = " (xLAYERS where the family stacks layers)" if "layers" in family.capabilities else ""
    gp.add_argument("--size", type=size_argument, default=None, metavar="WxH", help=f"board size, WIDTHxHEIGHT{layers}")
    gp.add_argument("--count", type=count_argument, default=1, help="puzzles to write (default 1)")
    gp.add_argument("--seed", type=seed_argument, default=0, help="pack seed: the same seed gives the same pack (default 0)")
    gp.add_argument("--out", default=None, help="the pack file (resumed when it exists with the same settings); default: standard output")
    gp.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds allowed per puzzle")
    gp.add_argument("--json", action="store_true", help="print one JSON record per puzzle")
    add_batch_options(gp, unordered=False)
    group = gp.add_argument_group(f"{family.name} settings")
    taken = {"size", "count", "seed", "out", "time_limit", "json", "jobs", "unordered", "store", "scheduler", "dask", "memory_limit"}
    for option in (*family.generate_options, *family.options):  # (its rules too: puzzles are made under them)
        if option.name in taken:
            continue
        taken.add(option.name)
        add_option(group, option)
        if option.kind != "flag" and option.default not in (None, False):
            gp.set_defaults(**{option.name: option.default})


def build_parser() -> argparse.ArgumentParser:
    names = ", ".join(f.name.capitalize() for f in families())
    parser = argparse.ArgumentParser(
        prog="puzzlesat",
        description=f"Solve, certify and generate grid logic puzzles ({names}) with SAT.",
        epilog="example: puzzlesat verify examples/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=", ".join(installed_versions()),
                        help="print puzzlesat's version and those of its solver libraries, then exit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("solve", help="solve puzzles and print the answers", epilog=EXAMPLES["solve"])
    p.add_argument("inputs", nargs="+", metavar="FILE_OR_URL")
    add_common_options(p)
    add_explain_flag(p)
    add_batch_options(p)
    certificates.add_proof_flag(p)
    p.set_defaults(run=commands.command_solve)

    p = sub.add_parser("verify", help="check puzzle sets: solvable, unique / proven minimum, seconds", epilog=EXAMPLES["verify"])
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (read recursively) or URLs")
    add_common_options(p)
    files = [f.name for f in families() if "answer-files" in f.capabilities]
    tables = [f.name for f in families() if f.answer_table is not None]
    p.add_argument("--answers", metavar="PATH", default=None,
                   help="check stated answers too: an answer file (for one puzzle file) or a folder of them, paired by name "
                        f"(the same name, or A04.txt for Q04.txt; {', '.join(files) or 'no family'}), or one file of answers "
                        f"to many puzzles by name ({', '.join(tables) or 'no family'})")
    if any(f.objective is Objective.UNIQUE for f in families()):
        unique = ", ".join(f.name for f in families() if f.objective is Objective.UNIQUE)
        p.add_argument("--allow-multiple", action="store_true",
                       help=f"unique-answer families ({unique}): a solved puzzle passes whether or not its answer is unique "
                            "(contest sets of routing problems); uniqueness is still decided and reported")
    add_explain_flag(p)
    add_batch_options(p)
    certificates.add_proof_flag(p)
    p.set_defaults(run=commands.command_verify)

    p = sub.add_parser("generate", help="generate certified puzzles",
                       epilog="example: puzzlesat generate FAMILY --size 8x8 --count 5 --seed 1 --out pack.txt")
    gen = p.add_subparsers(dest="family", required=True)
    for family in families():
        add_generate_parser(gen, family)
    p.set_defaults(run=command_generate)

    p = sub.add_parser("render", help="draw a puzzle (and its answer) as SVG or PNG", epilog=EXAMPLES["render"])
    p.add_argument("input", metavar="FILE_OR_URL")
    p.add_argument("-o", "--output", required=True, help="out.svg or out.png (PNG needs matplotlib)")
    p.add_argument("--solution", action="store_true", help="solve first and draw the answer")
    add_common_options(p, json_lines=False)
    p.set_defaults(run=commands.command_render)

    p = sub.add_parser("convert", help="write a puzzle file in another format of its family", epilog=EXAMPLES["convert"])
    p.add_argument("input", metavar="FILE_OR_URL")
    p.add_argument("-o", "--output", required=True, help="the file to write ('-': standard output)")
    writes = "; ".join(f"{f.name}: {', '.join(f.writable_formats())}" for f in families())
    p.add_argument("--to", required=True, metavar="FORMAT", help=f"the format to write ({writes})")
    add_common_options(p, json_lines=False, methods=False)
    p.set_defaults(run=command_convert)

    p = sub.add_parser("bench", help="run the benchmarks of every family and write a report with plots", epilog=EXAMPLES["bench"])
    p.add_argument("--quick", action="store_true", help="a small run (default limit 2 s)")
    p.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds per instance and method (default 10, 2 with --quick)")
    p.add_argument("--out", type=Path, default=None, help="folder for rows.jsonl, report.md and plots "
                   "(default benchmarks/results/latest in a checkout, else ./puzzlesat-bench)")
    p.add_argument("--data", type=bench.data_folder_argument, default=None, metavar="DIR",
                   help="the public data sets' folder (one folder per family inside); default $PUZZLESAT_SHARED_DATA, "
                   "else ../shared/data beside a checkout; absent sets are named in the report")
    modules = ", ".join(bench.benchmark_modules()) or "those of benchmarks/"
    p.add_argument("--only", nargs="+", metavar="MODULE", help=f"run only these benchmark modules ({modules})")
    p.add_argument("--module-budget", type=seconds_argument, default=None, metavar="S", help="wall seconds per module, then it is stopped and its rows kept (default: none; 420 with --quick)")
    p.add_argument("--in-process", action="store_true", help="run the modules in this process (no budget; for debugging)")
    bench.add_engine_arguments(p)
    p.set_defaults(run=bench.command_bench)

    p = sub.add_parser("examples", help="write the bundled example puzzles into a folder", epilog=EXAMPLES["examples"])
    p.add_argument("folder", type=Path, metavar="DIR", help="the folder to write them into (made if missing)")
    p.add_argument("--force", action="store_true", help="overwrite example files already in DIR")
    p.set_defaults(run=bench.command_examples)
    certificates.add_parsers(sub, add_common_options)

    p = sub.add_parser("report", help="a Markdown and HTML report (and CSV / JSON lines) of a results store", epilog=EXAMPLES["report"])
    add_report_arguments(p)
    p.set_defaults(run=command_report)
    return parser


def bad_option_value(args: argparse.Namespace) -> str | None:
    """A ``--format`` or ``--method`` value no family knows, said once before any puzzle is
    read (a family's own option values are checked by their converters)."""
    if getattr(args, "fmt", None) is not None and args.command in ("solve", "verify", "render", "convert", "export"):
        known = sorted({name for family in families() for name in family.format_names()})
        if args.fmt.strip().lower() not in known:
            return f"argument --format: unknown format {args.fmt!r} (one of {', '.join(known)})"
    if getattr(args, "method", None) is not None and args.command in ("solve", "verify", "render", "export"):
        if not any(args.method in (m.name for m in family.methods) for family in families()):
            offered = "; ".join(f"{f.name}: {', '.join(m.name for m in f.methods)}" for f in families() if f.methods)
            return f"argument --method: unknown method {args.method!r} ({offered})"
    return None


def _dash_value_flags() -> list[str]:
    """The flags whose values may start with "-" and are not numbers (``--size -3x5``)."""
    return ["--size", *(o.flag for f in families() for o in (*f.options, *f.generate_options) if o.kind == "value")]


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()  # imports every family's record
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    args = parser.parse_args(joined_dash_values(sys.argv[1:] if argv is None else argv, _dash_value_flags()))
    if getattr(args, "fmt", None):
        args.fmt = args.fmt.strip().lower()  # format names are lower case; --format ADC is adc
    problem = bad_option_value(args) or batch_problem(args)
    if problem:
        parser.error(problem)  # exit status 2, with the usage line
    commands.INTERRUPT.clear()
    previous = None  # (a SIGINT the process was started to ignore stays ignored)
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous = signal.signal(signal.SIGINT, commands.note_interrupt)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        clear_all()  # (not on the line of a progress bar)
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (PuzzlesatError, OSError, StoreError) as exc:  # e.g. an --out path that cannot be written, a --store that is no store
        if os.environ.get("PUZZLESAT_DEBUG"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
