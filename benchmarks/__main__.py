"""Run every family benchmark under one time limit per method and write one report.

    python -m benchmarks --quick                 # a small run (seconds to a few minutes)
    python -m benchmarks --time-limit 60 --out benchmarks/results/full
    puzzlesat bench --quick                      # the same, from the command line tool

Each module in ``MODULES`` exposes ``run(*, time_limit, quick=False)`` yielding rows (see
``benchmarks.ROW_KEYS``). Rows are appended to ``OUT/rows.jsonl`` as they come, flushed one by
one, so an interrupted run keeps every finished row; the Markdown report (``OUT/report.md``,
tables, and PNG plots when matplotlib is installed) is written at the end, also after Ctrl-C, and
can be rebuilt from the rows alone with ``python -m benchmarks.report OUT/rows.jsonl``.
A module that is not there (not written yet, or failing to import) is named in the output and
in the report; a module that fails mid-run keeps the rows it gave and the run goes on.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Iterable, Sequence

from benchmarks import ROW_KEYS
from benchmarks.report import write_report

MODULES = ("numberlink", "numberlink_vs_search", "generators", "roller", "swap")
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "latest"
DEFAULT_LIMIT = 10.0
QUICK_LIMIT = 2.0


def load_module(name: str) -> tuple[Any | None, str | None]:
    """The benchmark module ``benchmarks.<name>`` and None, or None and why it is missing."""
    try:
        module = importlib.import_module(f"benchmarks.{name}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"benchmarks.{name}",):
            return None, "not written yet (no module)"
        return None, f"cannot import: {exc}"
    except Exception as exc:  # a module that breaks on import must not stop the others
        return None, f"cannot import: {type(exc).__name__}: {exc}"
    if not callable(getattr(module, "run", None)):
        return None, "has no run(*, time_limit, quick) function"
    return module, None


def normalise(row: dict[str, Any], module: str, time_limit: float) -> dict[str, Any]:
    """The row with every ROW_KEYS key present (missing ones None), its module and limit."""
    out = {key: row.get(key) for key in ROW_KEYS}
    out.update({key: value for key, value in row.items() if key not in out})
    out.setdefault("time_limit", time_limit)
    if out.get("time_limit") is None:
        out["time_limit"] = time_limit
    out["module"] = module
    out["verified"] = bool(out.get("verified"))
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "value") and isinstance(getattr(value, "value"), str):  # enums such as Status
        return value.value
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return str(value)


def run_all(
    modules: Iterable[str],
    *,
    time_limit: float,
    quick: bool,
    out: Path,
    echo=print,
) -> dict[str, Any]:
    """Run ``modules`` in turn, appending rows to ``out/rows.jsonl``; returns the run's notes
    (missing modules, failures, interruption), which the report prints."""
    out.mkdir(parents=True, exist_ok=True)
    rows_path = out / "rows.jsonl"
    notes: dict[str, Any] = {"time_limit": time_limit, "quick": quick, "missing": {}, "failed": {}, "interrupted": False,
                             "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "modules": []}
    with rows_path.open("w", encoding="utf-8") as sink:
        for name in modules:
            module, why = load_module(name)
            if module is None:
                notes["missing"][name] = why
                echo(f"[bench] benchmarks.{name}: MISSING ({why})")
                continue
            notes["modules"].append(name)
            echo(f"[bench] benchmarks.{name}: running (time limit {time_limit:g} s per method{', quick' if quick else ''})")
            started = time.perf_counter()
            count = 0
            try:
                for row in module.run(time_limit=time_limit, quick=quick):
                    row = normalise(dict(row), name, time_limit)
                    sink.write(json.dumps(_jsonable(row)) + "\n")
                    sink.flush()
                    count += 1
                    echo(f"  {row.get('family')}/{row.get('set')}/{row.get('instance')} {row.get('method')}: "
                         f"{row.get('status')} {_seconds(row.get('seconds'))}{'' if row['verified'] or row.get('status') != 'solved' else ' NOT VERIFIED'}")
            except KeyboardInterrupt:
                notes["interrupted"] = True
                echo(f"[bench] interrupted in benchmarks.{name} after {count} rows; writing the report of what finished")
                break
            except Exception as exc:
                detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
                notes["failed"][name] = f"{detail} (after {count} rows)"
                echo(f"[bench] benchmarks.{name}: FAILED after {count} rows: {detail}")
                continue
            echo(f"[bench] benchmarks.{name}: {count} rows in {time.perf_counter() - started:.1f} s")
    (out / "run.json").write_text(json.dumps(notes, indent=2) + "\n", encoding="utf-8")
    return notes


def _seconds(value: Any) -> str:
    return f"{value:.3f}s" if isinstance(value, (int, float)) else "-"


def build_parser(prog: str = "python -m benchmarks") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Run the family benchmarks under one time limit and write a Markdown report.",
                                     epilog="example: python -m benchmarks --quick --out /tmp/bench")
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help=f"a small run (default limit {QUICK_LIMIT:g} s)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help=f"seconds per instance and method (default {DEFAULT_LIMIT:g}, {QUICK_LIMIT:g} with --quick)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for rows.jsonl, report.md and plots (default %(default)s)")
    parser.add_argument("--only", nargs="+", choices=MODULES, metavar="MODULE", help=f"run only these modules ({', '.join(MODULES)})")


def run_from_args(args: argparse.Namespace) -> int:
    time_limit = args.time_limit if args.time_limit is not None else (QUICK_LIMIT if args.quick else DEFAULT_LIMIT)
    modules = args.only or MODULES
    out = Path(args.out) if args.out else DEFAULT_OUT
    notes = run_all(modules, time_limit=time_limit, quick=args.quick, out=out)
    report = write_report(out / "rows.jsonl", out, notes=notes)
    print(f"[bench] report: {report}")
    if notes["missing"]:
        print(f"[bench] missing modules: {', '.join(f'{k} ({v})' for k, v in notes['missing'].items())}")
    if notes["interrupted"]:
        return 130
    return 1 if notes["failed"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_args(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
