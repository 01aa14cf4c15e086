"""A PNG of a large Roller board is painted with a few matplotlib artists, not one per cell: one
patch per cell took 400 s and 10 GB for a 1000x1000 board (the largest the reader accepts)."""

from __future__ import annotations

import pytest

from puzzlesat.roller import render
from puzzlesat.roller.model import Level

matplotlib = pytest.importorskip("matplotlib")


def test_a_large_board_is_painted_with_few_artists(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    side = 60
    rows = ["#" * side] + ["#" + "." * (side - 2) + "#" for _ in range(side - 2)] + ["#" * side]
    level = Level(tuple(rows), (1, 1))
    painted = []
    savefig = Figure.savefig

    def record(figure, *args, **kwargs):
        painted.append(figure)
        return savefig(figure, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", record)
    path = render(level, "DR").save(tmp_path / "room.png")
    assert path.stat().st_size > 0
    (axes,) = painted[0].axes
    artists = len(axes.patches) + len(axes.collections) + len(axes.lines) + len(axes.texts)
    assert artists < 100, artists  # (side - 2) ** 2 = 3364 floor cells, each a rectangle twice
