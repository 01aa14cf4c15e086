"""Benchmarks: one module per family (``python -m benchmarks.<module>``), each printing a table
and writing JSON rows; ``python -m benchmarks`` runs them all (see benchmarks/__main__.py).

Every family module exposes ``run(*, time_limit, quick=False) -> Iterator[dict]`` yielding one
row per (instance, method) as soon as it is measured, with at least the keys of ``ROW_KEYS``.
Their ``--json PATH`` writes those rows as JSON lines through :class:`RowWriter`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

JSON_HELP = "write the rows to PATH as JSON lines, each as soon as it is measured (a new file per run)"

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
)


class RowWriter:
    """A benchmark run's ``--json`` file: one JSON object per line, written and flushed as each
    row is measured, so an interrupted run keeps every finished row. The file is started afresh
    (rows of an earlier run are not mixed in); with no path it writes nothing.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "rows.jsonl")
    >>> with RowWriter(path) as rows:
    ...     rows.write({"instance": "a", "seconds": 0.5})
    >>> open(path).read()
    '{"instance": "a", "seconds": 0.5}\\n'
    """

    def __init__(self, path: str | Path | None) -> None:
        self._file = open(path, "w", encoding="utf-8") if path else None

    def write(self, row: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(row) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
