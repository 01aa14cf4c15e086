"""The rows of a benchmark run and what the report counts of them: answered (verified, with the
proof its task asks for), an answer with its proof missing, PAR2, the instances every method
ran, method names and labels.

>>> row = {"status": "solved", "verified": True, "task": "solve", "seconds": 0.5, "time_limit": 10}
>>> answered(row), par2(row, 10.0), par2({**row, "status": "unknown"}, 10.0)
(True, 0.5, 20.0)
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Sequence


PROOF_OF_NONE = ("unsatisfiable", "unsolvable")


def load_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file; a torn last line (an interrupted run) is skipped."""
    rows = []
    path = Path(path)
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def proven(row: dict[str, Any]) -> bool:
    """Whether a solved row also carries the proof its task asks for: a proven minimum for a
    ``min-moves`` task (``optimal`` true), a decided uniqueness for ``solve+unique`` (``unique``
    true or false, not null)."""
    if row.get("task") == "min-moves":
        return row.get("optimal") is True
    if row.get("task") == "solve+unique" and "unique" in row:
        return row["unique"] is not None
    return True


def answered(row: dict[str, Any]) -> bool:
    """Solved with a verified answer and the proof its task asks for, or proven to have none."""
    status = row.get("status")
    if status in PROOF_OF_NONE:
        return True
    return status == "solved" and bool(row.get("verified")) and proven(row)


def unproven(row: dict[str, Any]) -> bool:
    """A verified answer without the proof its task asks for (a min-moves answer not proven
    minimal, i.e. an upper bound; or an answer whose uniqueness was not decided)."""
    return row.get("status") == "solved" and bool(row.get("verified")) and not proven(row)


def seconds_of(row: dict[str, Any]) -> float:
    value = row.get("seconds")
    if not isinstance(value, (int, float)):
        value = (row.get("encode_s") or 0) + (row.get("solve_s") or 0)
    return float(value)


def limit_of(row: dict[str, Any], default: float) -> float:
    value = row.get("time_limit")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else default


def par2(row: dict[str, Any], default_limit: float) -> float:
    """The row's seconds when answered, else twice its time limit.

    >>> par2({"status": "solved", "verified": True, "seconds": 1.5}, 10)
    1.5
    >>> par2({"status": "solved", "verified": False, "seconds": 1.5}, 10)
    20.0
    >>> par2({"status": "unknown", "seconds": 10.2, "time_limit": 5}, 10)
    10.0
    """
    return seconds_of(row) if answered(row) else 2.0 * limit_of(row, default_limit)


def common_instances(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The rows of the instances every method of their comparison (family, task, rules) has a
    row for, so that methods are compared on the same instances (in groups where methods share
    instances at all: each generator makes its own), and how many instances were left out.

    >>> rows = [{"instance": "a", "method": "x"}, {"instance": "a", "method": "y"}, {"instance": "b", "method": "x"}]
    >>> [(r["instance"], r["method"]) for r in common_instances(rows)[0]], common_instances(rows)[1]
    ([('a', 'x'), ('a', 'y')], 1)
    """
    def group(row: dict[str, Any]) -> tuple:
        return (row.get("family"), row.get("task"), row.get("rules"))

    methods: dict[tuple, set] = {}
    per_instance: dict[tuple, set] = {}
    for row in rows:
        methods.setdefault(group(row), set()).add(row.get("method"))
        per_instance.setdefault((*group(row), row.get("set"), row.get("instance")), set()).add(row.get("method"))
    shared = {key[:3] for key, found in per_instance.items() if len(found) > 1}  # groups whose methods share instances
    incomplete = {key for key, found in per_instance.items() if key[:3] in shared and found != methods[key[:3]]}
    kept = [row for row in rows if (*group(row), row.get("set"), row.get("instance")) not in incomplete]
    return kept, len(incomplete)


def method_name(row: dict[str, Any]) -> str:
    """The method, with the rule set when the row names one (Numberlink's rule options)."""
    method = str(row.get("method") or "?")
    if row.get("rules") not in (None, ""):
        method += f" ({row['rules']})"
    return method


def method_label(row: dict[str, Any], tasks_per_family: dict[str, set]) -> str:
    method = method_name(row)
    if len(tasks_per_family.get(row.get("family"), ())) > 1:
        return f"{method} [{row.get('task')}]"
    return method


def by_method(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows grouped by :func:`method_label` (the task named where a family has several).

    >>> sorted(by_method([{"family": "f", "task": "solve", "method": "sat"}]))
    ['sat']
    """
    tasks: dict[str, set] = {}
    for row in rows:
        tasks.setdefault(row.get("family"), set()).add(row.get("task"))
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(method_label(row, tasks), []).append(row)
    return groups


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def natural_key(text: str) -> list:
    """Sort key that puts "gen-5x5" before "gen-10x10".

    >>> sorted(["gen-10x10", "gen-5x5"], key=natural_key)
    ['gen-5x5', 'gen-10x10']
    """
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(text))]
