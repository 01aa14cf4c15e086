"""Benchmarks: one module per family (``python -m benchmarks.<module>``), each printing a table
and writing JSON rows; ``python -m benchmarks`` runs them all (see benchmarks/__main__.py).

Every family module exposes ``run(*, time_limit, quick=False) -> Iterator[dict]`` yielding one
row per (instance, method) as soon as it is measured, with at least the keys of ``ROW_KEYS``.
"""

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
