"""Benchmarks: one module per family (``python -m benchmarks.<module>``), each printing a table
and writing JSON rows; ``python -m benchmarks`` runs them all (see benchmarks/__main__.py).

Every family module exposes ``run(*, time_limit, quick=False) -> Iterator[dict]`` yielding one
row per (instance, method) as soon as it is measured, with at least the keys of ``ROW_KEYS``.
A module may also list its work as cases (``row_cases(*, time_limit, quick) -> Iterator[Case]``,
each a module-level function and its keyword arguments, giving a row or a list of rows; its
``run`` is then :func:`rows_of` them): ``puzzlesat bench -j N`` runs those cases through the
batch engine, N at a time (a module with no ``row_cases`` is one job there).
Their ``--json PATH`` writes those rows as JSON lines through :class:`RowWriter`. Ctrl-C ends a
module's run: it prints the table of the rows measured so far and exits with ``INTERRUPTED``
(130, as the ``puzzlesat`` commands do), so a script that runs it can tell a cut-short run.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

DATA_VARIABLE = "PUZZLESAT_SHARED_DATA"  # where the public data sets are (``bench --data DIR`` sets it)
DATA_FAMILIES = ("numberlink", "roller")  # the families whose benchmarks read public sets (Swap's are generated)
INTERRUPTED = 130  # exit status of a run cut short by Ctrl-C (after its partial table)
JSON_HELP = "write the rows to PATH as JSON lines, each as soon as it is measured (a new file per run)"
GAUGE_ADDITIONS = 1_000_000  # the machine gauge's loop


def machine_gauge(repeats: int = 3) -> float:
    """Seconds this machine takes now for a fixed plain-Python loop of ``GAUGE_ADDITIONS``
    additions (the best of ``repeats``; lower is faster). Every benchmark run records it at its
    start and end, beside its rows, because on a shared machine the same code runs at very
    different speeds from day to day (on ours, the code that ran the janko set in 1.23 s on the
    day it was written took 2.96-4.27 s on a later one): compare runs only with their gauges.

    >>> 0 < machine_gauge(1) < 60
    True
    """
    import time

    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        total = 0
        for i in range(GAUGE_ADDITIONS):
            total += i
        best = min(best, time.perf_counter() - start)
    return round(best, 3)


def gauge_line(start: float, end: float | None) -> str:
    """The printed line of a run's machine gauge (:func:`machine_gauge`).

    >>> gauge_line(0.112, 0.118)
    'machine gauge: 0.112 s at the start, 0.118 s at the end (1 M plain-Python additions; lower is faster)'
    """
    at_end = "" if end is None else f", {end:g} s at the end"
    return f"machine gauge: {start:g} s at the start{at_end} ({GAUGE_ADDITIONS // 1_000_000:g} M plain-Python additions; lower is faster)"


def json_path(text: str) -> Path:
    """``--json PATH``: refused before any work when the file could not be written.

    >>> json_path("/no/such/folder/rows.jsonl")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: cannot write /no/such/folder/rows.jsonl: no folder /no/such/folder
    """
    from puzzlesat.textio import output_file_problem

    problem = "the path is empty" if not text.strip() else output_file_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return Path(text)

def data_folder() -> Path:
    """The public data sets' folder: ``$PUZZLESAT_SHARED_DATA``, or else ``../shared/data``
    beside a source checkout (one folder per family inside, e.g. ``numberlink/``).

    >>> os.environ[DATA_VARIABLE] = "/srv/sets"; str(data_folder())
    '/srv/sets'
    >>> del os.environ[DATA_VARIABLE]
    """
    default = Path(__file__).resolve().parents[1].parent / "shared" / "data"
    return Path(os.environ.get(DATA_VARIABLE) or default)


def data_note() -> dict[str, Any]:
    """What a run's report says of the public data: the folder, whether it was given (``--data``
    or ``$PUZZLESAT_SHARED_DATA``) or is the default, and which families' sets are present and
    absent in it (an absent family's benchmarks measure its generated sets only).

    >>> os.environ[DATA_VARIABLE] = "/no/such/folder"; data_note()["absent"]
    ['numberlink', 'roller']
    >>> del os.environ[DATA_VARIABLE]
    """
    folder = data_folder()
    present = [family for family in DATA_FAMILIES if (folder / family).is_dir()]
    return {"folder": str(folder), "given": bool(os.environ.get(DATA_VARIABLE)), "present": present,
            "absent": [f for f in DATA_FAMILIES if f not in present]}


Case = tuple[Callable[..., Any], dict[str, Any]]  # function(**arguments) gives a row, or a list of rows


def rows_of(cases: Iterable[Case]) -> Iterator[dict[str, Any]]:
    """A module's rows from its cases, measured here one after another.

    >>> list(rows_of([(dict, {"instance": "a"}), (lambda **kw: [kw, kw], {"instance": "b"})]))
    [{'instance': 'a'}, {'instance': 'b'}, {'instance': 'b'}]
    """
    for function, arguments in cases:
        given = function(**arguments)
        yield from [given] if isinstance(given, dict) else given


def case_rows(function: str, arguments: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One case where a batch worker runs it (``function``: ``"module:name"``), what it prints
    sent to standard error, as a module run by ``python -m benchmarks`` does (standard output is
    the table's).

    >>> list(case_rows("builtins:dict", {"instance": "a"}))
    [{'instance': 'a'}]
    """
    import contextlib
    import importlib
    import sys

    module, _, name = function.partition(":")
    with contextlib.redirect_stdout(sys.stderr):
        yield from rows_of([(getattr(importlib.import_module(module), name), arguments)])


def case_name(function: Callable[..., Any]) -> str:
    """``"module:name"`` of a case's function, as a worker imports it.

    >>> case_name(rows_of)
    'benchmarks:rows_of'
    """
    return f"{function.__module__}:{function.__qualname__}"


ROW_KEYS = (
    "family",     # "numberlink" | "roller" | "swap"
    "set",        # data set name, e.g. "janko", "tabtale-bottom-left", "generated-10x10"
    "instance",   # instance name within the set
    "size",       # "WxH"
    "cells",      # number of cells (W*H), for plots against size
    "method",     # e.g. "sat-cadical195", "backtracking", "cpsat-flow", "dfs", "astar"
    "task",       # "solve", "solve+unique", "min-moves"
    "status",     # "solved" | "unsatisfiable" | "unknown" | "error"
    "encode_s",   # seconds building the model (0 for search)
    "solve_s",    # seconds solving
    "seconds",    # total wall seconds for this row
    "verified",   # True when the answer passed the family's verify (False when no answer)
    "time_limit", # seconds allowed for this row (PAR2 counts twice this when it is not answered)
)


class RowWriter:
    """A benchmark run's ``--json`` file: one JSON object per line, written and flushed as each
    row is measured, so an interrupted run keeps every finished row. The file is started afresh
    (rows of an earlier run are not mixed in); with no path it writes nothing. Beside it,
    ``PATH.run.json`` records when and with what code (:func:`provenance`) the rows were made,
    and the machine gauge (:func:`machine_gauge`) at the start and, once closed, at the end of
    the run; :meth:`gauge_line` prints them.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "rows.jsonl")
    >>> with RowWriter(path) as rows:
    ...     rows.write({"instance": "a", "seconds": 0.5})
    >>> open(path).read()
    '{"instance": "a", "seconds": 0.5}\\n'
    """

    def __init__(self, path: str | Path | None) -> None:
        self._file = open(path, "w", encoding="utf-8") if path else None
        self.gauge_start = machine_gauge()
        self.gauge_end: float | None = None
        self._run_path: Path | None = None
        self._run: dict[str, Any] = {}
        if path and os.path.isfile(path):  # beside the rows (not beside /dev/stdout), what they were measured with
            import time

            self._run_path = Path(f"{path}.run.json")
            self._run = {"started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "command": command_line(),
                         **provenance(), "gauge_start_s": self.gauge_start}
            self._write_run()

    def _write_run(self) -> None:
        if self._run_path is not None:
            self._run_path.write_text(json.dumps(self._run, indent=1) + "\n", encoding="utf-8")

    def write(self, row: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(row) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        if self.gauge_end is None:
            self.gauge_end = machine_gauge()
            self._run["gauge_end_s"] = self.gauge_end
            self._write_run()

    def gauge_line(self) -> str:
        return gauge_line(self.gauge_start, self.gauge_end)

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def command_line() -> str:
    """This run's command as it is typed again: ``python -m benchmarks.numberlink --quick``, not
    the script's path (which does not run as a script: its imports need the checkout's root)."""
    import shlex
    import sys

    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    program = ["python", "-m", spec.name.removesuffix(".__main__")] if spec is not None and spec.name else sys.argv[:1]
    return shlex.join(program + sys.argv[1:])


def load_solver_libraries() -> None:
    """Import what the solvers otherwise load on their first call (OR-Tools for CP-SAT, SciPy for
    Swap's assignment bound), so that no timed row pays for it: the first Roller flow row of a
    run took 0.13 s more, and the first Swap level 0.25 s more, all of it in its ``encode_s``."""
    import puzzlesat.sat.cpsat  # noqa: F401
    from puzzlesat.swap import bounds

    bounds.scipy_assignment()


def provenance() -> dict[str, str]:
    """What a measurement was taken with: the code's git commit ("-dirty" with uncommitted
    changes; "unknown" outside a checkout) and the versions that matter for speed."""
    import subprocess

    from puzzlesat.cli import installed_versions

    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True, timeout=10).stdout.strip()
        commit = (commit + ("-dirty" if dirty else "")) or "unknown"
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    return {"commit": commit, "versions": ", ".join(installed_versions())}


def print_rows(rows: Iterable[dict[str, Any]], *, json_out: Path | None, line: Callable[[dict[str, Any]], str],
               table: Callable[[list[dict[str, Any]]], str]) -> int:
    """A module's command-line run: each row checked for ``ROW_KEYS``, written to ``json_out``
    and said on standard error (``line``) as it comes; then the table and the machine gauge.
    Ctrl-C ends it with the table of the rows so far and :data:`INTERRUPTED`."""
    import sys

    kept: list[dict[str, Any]] = []
    sink = RowWriter(json_out)
    interrupted = False
    try:
        for row in rows:
            missing = [key for key in ROW_KEYS if key not in row]
            assert not missing, f"row lacks {missing}"
            kept.append(row)
            sink.write(row)
            print(line(row), file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the table covers the rows measured so far", file=sys.stderr)
    finally:
        sink.close()
    if kept:
        print(table(kept))
    print(sink.gauge_line())
    return INTERRUPTED if interrupted else 0
