"""benchmarks/robustness.py measures its cases and says whether each met its target."""

from __future__ import annotations

from benchmarks import ROW_KEYS
from benchmarks import robustness


def test_the_cheap_cases_are_measured_and_meet_their_targets() -> None:
    rows = [robustness.measure(case, time_limit=1.0) for case in ("read-dev-zero-swap", "checks-expired-deadline-40")]
    for row in rows:
        assert not [key for key in ROW_KEYS if key not in row]
        assert row["met"] is True, row
    assert rows[0]["status"] == "refused" and "device" in rows[0]["error"]
    assert rows[1]["status"] == "stopped" and rows[1]["cells"] == 1600
    assert "read-dev-zero-swap" in robustness.table(rows)


def test_every_reader_and_both_bombs_are_cases() -> None:
    names = robustness.cases(100)
    assert {"tmx-zlib-bomb", "tmx-gzip-bomb", "solve-deadline-100"} <= set(names)
    assert sum(name.startswith("read-dev-zero-") for name in names) == len(robustness.READERS) == 5
