"""Shared pieces of the batch tests: the example set as jobs, the records the command line
makes for it, records compared without their timings, and a family that misbehaves on cue."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from puzzlesat.batch import Job, jobs_from_text
from puzzlesat.registry import get_family

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# (the two examples that take a second or more: the time-limit tests use them)
SLOW = {("roller/hard.roller", 0), ("swap/expert-match.swap", 1)}
TIMING_KEYS = {"seconds", "encode_seconds", "solve_seconds", "stats"}


def example_files() -> list[Path]:
    return sorted(path for path in EXAMPLES.glob("*/*.*") if path.suffix != ".md")


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def example_jobs(*, slow: bool = False, time_limit: float | None = None) -> list[Job]:
    """A verify job for every example puzzle (the slow ones only when asked)."""
    jobs = []
    for path in example_files():
        for job in jobs_from_text(path.read_text(), verb="verify", source=relative(path), time_limit=time_limit):
            if slow == ((str(path.relative_to(EXAMPLES)), job.index) in SLOW):
                jobs.append(job)
    return jobs


@lru_cache(maxsize=1)
def cli_records() -> tuple[dict[str, Any], ...]:
    """What ``puzzlesat verify --json`` prints for the example files, one record a puzzle."""
    files = [relative(path) for path in example_files()]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-m", "puzzlesat", "verify", *files, "--json"], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=120)
    return tuple(json.loads(line) for line in out.stdout.splitlines() if line.startswith("{"))


@lru_cache(maxsize=1)
def local_records() -> tuple[dict[str, Any], ...]:
    """The example set run by the engine in this process, one worker (made once per session)."""
    from puzzlesat.batch import run

    return tuple(run(example_jobs(), workers=1))


def untimed(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in TIMING_KEYS}


def where(record: dict[str, Any]) -> tuple[str, int]:
    return record["source"], record["index"]


# -- a family that dies on cue: numberlink's record, but a puzzle named "die" kills its process --
def _dying_solve(puzzle: Any, *, options: Any, time_limit: Any) -> dict[str, Any]:
    if len(puzzle.pairs) == 3:  # the cue: a board of three pairs
        os.kill(os.getpid(), signal.SIGKILL)
    return get_family("numberlink").solve_record(puzzle, options=options, time_limit=time_limit)


def dying_family() -> Any:
    return dataclasses.replace(get_family("numberlink"), name="dying", solve_record=_dying_solve)


def may_work_beside(n: int) -> bool:
    """A call job's row: whether its solver could start a helper process beside it (``n`` only
    makes the jobs' keys differ)."""
    from puzzlesat.child import may_work_beside as allowed

    return allowed()
