"""The benchmark runner's modules and their jobs for the batch engine (``python -m benchmarks
-j N``): a module's cases (``benchmarks.Case``) are a job each; a module with none is one job."""

from __future__ import annotations

import importlib
import sys
import traceback
from typing import Any, Iterable, Iterator

from benchmarks import case_name
from puzzlesat.batch import Job, run as run_jobs


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


class ModuleMissing(Exception):
    """The benchmark module is not there or cannot be imported."""


class ModuleFailed(Exception):
    """The benchmark module raised (or its process died) part way."""


def module_rows(name: str, time_limit: float, quick: bool) -> Iterator[dict[str, Any]]:
    """A module with no cases as one job of the batch engine: all its rows, what it prints sent
    to standard error (standard output is the table's)."""
    import contextlib

    module, why = load_module(name)
    if module is None:
        raise ModuleMissing(why)
    with contextlib.redirect_stdout(sys.stderr):
        yield from module.run(time_limit=time_limit, quick=quick)


def module_jobs(name: str, *, time_limit: float, quick: bool, budget: float | None) -> list[Job]:
    """The batch engine's jobs of one module: one per case (``row_cases()``), else one for it all."""
    module, why = load_module(name)
    if module is None:
        raise ModuleMissing(why)
    listed = getattr(module, "row_cases", None)
    if listed is None:
        return [Job.call(f"{__name__}:module_rows", {"name": name, "time_limit": time_limit, "quick": quick},
                         source=name, time_limit=budget)]
    try:
        cases = list(listed(time_limit=time_limit, quick=quick))
    except Exception as exc:
        raise ModuleFailed(f"listing its cases: {traceback.format_exception_only(type(exc), exc)[-1].strip()}") from exc
    return [Job.call("benchmarks:case_rows", {"function": case_name(function), "arguments": arguments}, source=name,
                     index=index, time_limit=budget) for index, (function, arguments) in enumerate(cases)]


class EngineRows:
    """Every module's jobs run through one batch engine run (``workers`` processes, each under
    ``memory_limit``), the records in job order; :meth:`source` gives a module's rows as
    :func:`rows_in_child` does, so the runner reads a module the same way either way."""

    def __init__(self, modules: Iterable[str], *, time_limit: float, quick: bool, budget: float | None,
                 workers: int, memory_limit: int | None) -> None:
        self.planned: dict[str, list[Job] | Exception] = {}
        for name in modules:
            try:
                self.planned[name] = module_jobs(name, time_limit=time_limit, quick=quick, budget=budget)
            except (ModuleMissing, ModuleFailed) as exc:
                self.planned[name] = exc
        self.seconds: dict[str, float] = {}  # a module's jobs' own seconds (they ran side by side)
        jobs = [job for planned in self.planned.values() if isinstance(planned, list) for job in planned]
        self.records = run_jobs(jobs, workers=workers, memory_limit=memory_limit)

    def source(self, name: str, **_: Any) -> Iterator[dict[str, Any]]:
        planned = self.planned[name]
        if isinstance(planned, Exception):
            raise planned
        failures = []
        for _job in planned:
            record = next(self.records)
            self.seconds[name] = self.seconds.get(name, 0.0) + float(record.get("seconds") or 0.0)
            yield from record.get("rows") or ()  # (none when its worker died)
            if record["status"] != "done":
                failures.append(record.get("error") or record.get("reason") or record["status"])
        if failures:
            raise ModuleFailed(f"{len(failures)} of its {len(planned)} jobs failed: {failures[0]}")

    def close(self) -> None:
        self.records.close()
