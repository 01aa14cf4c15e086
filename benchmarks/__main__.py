"""Run every family benchmark under one time limit per method and write one report.

    python -m benchmarks --quick                 # a small run (seconds to a few minutes)
    python -m benchmarks --time-limit 60 --out benchmarks/results/full
    puzzlesat bench --quick                      # the same, from the command line tool (any folder)
    puzzlesat bench --quick --data ~/sets        # the public data sets in ~/sets (or $PUZZLESAT_SHARED_DATA)
    puzzlesat bench --quick -j 2                 # the rows' cases on 2 worker processes (batch engine)

Each module in ``MODULES`` exposes ``run(*, time_limit, quick=False)`` yielding rows (see
``benchmarks.ROW_KEYS``). Rows are appended to ``OUT/rows.jsonl`` as they come, flushed one by
one, so an interrupted run keeps every finished row; the Markdown report (``OUT/report.md``,
tables, and PNG plots when matplotlib is installed) is written at the end, also after Ctrl-C, and
can be rebuilt from the rows alone with ``python -m benchmarks.report OUT/rows.jsonl``.
A module that is not there (not written yet, or failing to import) is named in the output and
in the report; a module that fails mid-run keeps the rows it gave and the run goes on.

By default the modules run one after another, each in a process of its own (stopped at its
budget). With ``-j N`` every module's cases (``benchmarks.Case``; a module with none is one
case) run through the batch engine (:func:`puzzlesat.batch.run`) on N worker processes (0: one
per core; 1: in this process), each worker under ``--memory-limit``; rows keep their order, in
the output as in ``rows.jsonl``. There a budget bounds each job, not each module: a job is
stopped at twice its budget and 30 s more (the engine's backstop, and the rows of that job
are lost). Rows measured side by side share the cores: their seconds are slower than alone.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import queue
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from benchmarks import DATA_VARIABLE, ROW_KEYS, data_note, machine_gauge, provenance
from benchmarks._engine import EngineRows, ModuleFailed, ModuleMissing, load_module
from benchmarks.report import write_report
from puzzlesat.memory import limit_this_process
from puzzlesat.registry import families
from puzzlesat.cli.arguments import seconds_argument
from puzzlesat.cli.bench import NOT_BENCHMARKS, add_engine_arguments, data_folder_argument

# The benchmarks the report expects (a missing one is named as missing): one module per family of
# the registry, named after it, and the comparisons and generator measurements beside them; then
# any other module in this folder, found by its file name.
EXTRA = ("numberlink_vs_search", "generators", "roller_generate")
EXPECTED = tuple(family.name for family in families()) + EXTRA
MODULES = EXPECTED + tuple(sorted(
    path.stem for path in Path(__file__).resolve().parent.glob("*.py")
    if path.stem not in EXPECTED and path.stem not in NOT_BENCHMARKS and not path.stem.startswith("_")
))
ROOT = Path(__file__).resolve().parents[1]
# Rows and report go into a checkout's benchmarks/results/latest; installed from a wheel, into the
# current folder's puzzlesat-bench/ (never into site-packages).
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "latest" if (ROOT / "pyproject.toml").is_file() else Path("puzzlesat-bench")
DEFAULT_LIMIT = 10.0
QUICK_LIMIT = 2.0
QUICK_BUDGET = 420.0  # wall seconds per module in --quick (a module past it is stopped, its rows kept)


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


class BudgetSpent(Exception):
    """The module ran past its wall-clock budget and was stopped."""


def rows_in_process(name: str, *, time_limit: float, quick: bool, budget: float | None, **_: Any) -> Iterator[dict[str, Any]]:
    """The module's rows, run in this process (the budget is checked between rows only)."""
    module, why = load_module(name)
    if module is None:
        raise ModuleMissing(why)
    started = time.monotonic()
    try:
        for row in module.run(time_limit=time_limit, quick=quick):
            yield row
            if budget is not None and time.monotonic() - started > budget:
                raise BudgetSpent(f"stopped after its budget of {budget:g} s")
    except (BudgetSpent, KeyboardInterrupt):
        raise
    except Exception as exc:
        raise ModuleFailed(traceback.format_exception_only(type(exc), exc)[-1].strip()) from exc


def rows_in_child(name: str, *, time_limit: float, quick: bool, budget: float | None,
                  memory_limit: int | None = None) -> Iterator[dict[str, Any]]:
    """The module's rows, run in a child process that is stopped when the budget is spent, so a
    module stuck inside one instance cannot hold up the others (rows come over a pipe as JSON)."""
    if importlib.util.find_spec(f"benchmarks.{name}") is None:
        raise ModuleMissing("not written yet (no module)")
    command = [sys.executable, "-m", "benchmarks", "--child", name, "--time-limit", repr(time_limit)] + (["--quick"] if quick else [])
    command += [] if memory_limit is None else ["--memory-limit", str(memory_limit)]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        assert child.stdout is not None
        with child.stdout:  # closed here, at the end of the child's output (it ends when the child is stopped too)
            for line in child.stdout:
                lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = None if budget is None else time.monotonic() + budget
    try:
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                raise BudgetSpent(f"stopped after its budget of {budget:g} s") from None
            if line is None:
                break
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "row" in message:
                yield message["row"]
            elif "missing" in message:
                raise ModuleMissing(message["missing"])
            elif "failed" in message:
                raise ModuleFailed(message["failed"])
        status = child.wait()
        if status != 0:
            raise ModuleFailed(f"its process exited with status {status}")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def child_main(name: str, time_limit: float, quick: bool, memory_limit: int | None = None) -> int:
    """``--child``: run one module and write its rows to stdout as JSON lines (everything the
    module prints goes to stderr instead), under ``memory_limit`` bytes."""
    limit_this_process(memory_limit)
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    with channel:
        module, why = load_module(name)
        if module is None:
            send({"missing": why})
            return 3
        try:
            for row in module.run(time_limit=time_limit, quick=quick):
                send({"row": _jsonable(dict(row))})
        except KeyboardInterrupt:  # Ctrl-C reaches the whole process group: the runner reports it
            return 130
        except Exception as exc:
            send({"failed": traceback.format_exception_only(type(exc), exc)[-1].strip()})
            return 1
        return 0


def run_all(
    modules: Iterable[str],
    *,
    time_limit: float,
    quick: bool,
    out: Path,
    echo=print,
    isolate: bool = False,
    budget: float | None = None,
    workers: int | None = None,
    memory_limit: int | None = None,
) -> dict[str, Any]:
    """Run ``modules`` in turn (each in its own process when ``isolate``, stopped after
    ``budget`` seconds; or, with ``workers``, their cases through the batch engine:
    :class:`EngineRows`), appending rows to ``out/rows.jsonl`` as they come; returns the run's
    notes (missing modules, failures, budgets spent, interruption), which the report prints."""
    out.mkdir(parents=True, exist_ok=True)
    rows_path = out / "rows.jsonl"
    notes: dict[str, Any] = {"time_limit": time_limit, "quick": quick, "missing": {}, "failed": {}, "stopped": {},
                             "interrupted": False, "module_budget": budget, "empty": [],
                             "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "modules": [], **provenance(),
                             "gauge_start_s": machine_gauge(), "data": data_note(), "workers": workers}
    for family in notes["data"]["absent"]:
        echo(f"[bench] public {family} data absent under {notes['data']['folder']}: its sets are not measured "
             f"(give the folder with --data DIR or ${DATA_VARIABLE})")
    engine = None if workers is None else EngineRows(modules := list(modules), time_limit=time_limit, quick=quick,
                                                      budget=budget, workers=workers, memory_limit=memory_limit)
    source = engine.source if engine is not None else rows_in_child if isolate else rows_in_process
    with rows_path.open("w", encoding="utf-8") as sink, contextlib.closing(engine) if engine else contextlib.nullcontext():
        for name in modules:
            echo(f"[bench] benchmarks.{name}: starting (time limit {time_limit:g} s per method{', quick' if quick else ''}"
                 f"{f', budget {budget:g} s' if budget else ''})")
            started = time.perf_counter()
            count = 0
            try:
                for row in source(name, time_limit=time_limit, quick=quick, budget=budget, memory_limit=memory_limit):
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
            except ModuleMissing as exc:
                notes["missing"][name] = str(exc)
                echo(f"[bench] benchmarks.{name}: MISSING ({exc})")
                continue
            except BudgetSpent as exc:
                notes["stopped"][name] = f"{exc} (after {count} rows)"
                notes["modules"].append(name)
                echo(f"[bench] benchmarks.{name}: {exc}, {count} rows kept")
                continue
            except ModuleFailed as exc:
                notes["failed"][name] = f"{exc} (after {count} rows)"
                notes["modules"].append(name)
                echo(f"[bench] benchmarks.{name}: FAILED after {count} rows: {exc}")
                continue
            notes["modules"].append(name)
            if not count:  # (a family's public data sets absent: the module says so on the console)
                notes["empty"].append(name)
            spent = f"{time.perf_counter() - started:.1f} s" if engine is None else f"{engine.seconds.get(name, 0.0):.1f} s of its jobs"
            echo(f"[bench] benchmarks.{name}: {count} rows in {spent}")
    notes["gauge_end_s"] = machine_gauge()
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
    parser.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S",
                        help=f"seconds per instance and method (default {DEFAULT_LIMIT:g}, {QUICK_LIMIT:g} with --quick)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for rows.jsonl, report.md and plots (default %(default)s)")
    parser.add_argument("--only", nargs="+", choices=MODULES, metavar="MODULE", help=f"run only these modules ({', '.join(MODULES)})")
    parser.add_argument("--module-budget", type=seconds_argument, default=None, metavar="S",
                        help=f"wall seconds per module before it is stopped, its rows kept (default: none; {QUICK_BUDGET:g} with --quick)")
    parser.add_argument("--in-process", action="store_true", help="run modules in this process (no budget enforcement; for debugging)")
    add_engine_arguments(parser)
    parser.add_argument("--data", type=data_folder_argument, default=None, metavar="DIR", help=DATA_HELP)


DATA_HELP = (f"the public data sets' folder (one folder per family inside: numberlink/, roller/); default ${DATA_VARIABLE}, "
             "else ../shared/data beside a checkout; absent sets are named in the report")


def run_from_args(args: argparse.Namespace) -> int:
    time_limit = args.time_limit if args.time_limit is not None else (QUICK_LIMIT if args.quick else DEFAULT_LIMIT)
    modules = args.only or MODULES
    out = Path(args.out) if args.out else DEFAULT_OUT
    budget = getattr(args, "module_budget", None)
    if getattr(args, "data", None) is not None:  # (read by the modules, in this process and in their own)
        os.environ[DATA_VARIABLE] = str(args.data)
    if budget is None and args.quick:
        budget = QUICK_BUDGET
    notes = run_all(modules, time_limit=time_limit, quick=args.quick, out=out, isolate=not getattr(args, "in_process", False),
                    budget=budget, workers=getattr(args, "jobs", None), memory_limit=getattr(args, "memory_limit", None))
    report = write_report(out / "rows.jsonl", out, notes=notes)
    print(f"[bench] report: {report}")
    if notes["missing"]:
        print(f"[bench] missing modules: {', '.join(f'{k} ({v})' for k, v in notes['missing'].items())}")
    for name, why in notes.get("stopped", {}).items():
        print(f"[bench] stopped at its budget: {name} ({why})")
    if notes["interrupted"]:
        return 130
    return 1 if notes["failed"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"]:
        child = argparse.ArgumentParser(prog="python -m benchmarks --child")
        child.add_argument("--child", required=True)
        child.add_argument("--time-limit", type=seconds_argument, required=True)
        child.add_argument("--quick", action="store_true")
        child.add_argument("--memory-limit", type=int, default=None)
        options = child.parse_args(argv)
        return child_main(options.child, options.time_limit, options.quick, options.memory_limit)
    return run_from_args(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
