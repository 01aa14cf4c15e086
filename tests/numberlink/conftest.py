"""The Numberlink tests exercise the SAT road: the compiled small-board search (which would
decide nearly every small test board before it) is switched off here, and tested against that
road in tests/numberlink/test_small_board.py, which turns it back on (a fixture of the same name)."""

from __future__ import annotations

import pytest

from puzzlesat.numberlink.engine import tuning


@pytest.fixture(autouse=True)
def sat_road(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "SMALL_BOARD_CELLS", 0)
