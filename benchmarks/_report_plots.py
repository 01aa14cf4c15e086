"""The plots of a benchmark report (PNG, when matplotlib is installed): a cactus plot per family and
time against board size.

>>> median_line([(4, 1.0), (4, 3.0), (9, 2.0)])
([4, 9], [2.0, 2.0])
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks._report_rows import answered, by_method as rows_by_method, limit_of, seconds_of


NOT_PLOTTED = ("generate",)  # tasks shown in the tables but not on the solver plots


FLOOR_SECONDS = 1e-4  # plotted times are at least this (log axes cannot show 0)


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def median_line(points: list[tuple[float, float]], *, bins: int = 8) -> tuple[list[float], list[float]]:
    """Median seconds per board size; with many distinct sizes, per logarithmic size bin
    (plotted at the bin's geometric mean size), so the line shows the trend, not the noise.

    >>> median_line([(25, 1.0), (25, 3.0), (100, 5.0)])
    ([25, 100], [2.0, 5.0])
    """
    sizes = sorted({cells for cells, _ in points})
    if len(sizes) <= bins:
        groups = {size: [s for c, s in points if c == size] for size in sizes}
        return sizes, [statistics.median(groups[size]) for size in sizes]
    low, high = math.log(sizes[0]), math.log(sizes[-1])
    width = (high - low) / bins or 1.0
    binned: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for cells, seconds in points:
        binned[min(bins - 1, int((math.log(cells) - low) / width))].append((cells, seconds))
    xs, ys = [], []
    for key in sorted(binned):
        group = binned[key]
        xs.append(math.exp(statistics.fmean(math.log(c) for c, _ in group)))
        ys.append(statistics.median(s for _, s in group))
    return xs, ys


def _new_plot():
    """A figure with one axes, drawn off screen (matplotlib from the ``plot`` extra)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 4.2), dpi=110)
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot(1, 1, 1)


def _save_plot(figure, ax, path: Path) -> Path:
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    figure.savefig(path)
    return path


def plot_family(rows: list[dict[str, Any]], family: str, out: Path, default_limit: float) -> list[Path]:
    """Cactus plot and time-against-size plot of one family as PNG files; returns their paths."""
    rows = [r for r in rows if r.get("task") not in NOT_PLOTTED]  # generators are not solvers: tables only
    if not rows:
        return []
    by_method = rows_by_method(rows)
    limit = max((limit_of(r, default_limit) for r in rows), default=default_limit)
    written = []

    figure, ax = _new_plot()
    for label, group in sorted(by_method.items()):
        times = sorted(max(FLOOR_SECONDS, seconds_of(r)) for r in group if answered(r))
        if times:
            ax.step(range(1, len(times) + 1), times, where="post", marker=".", markersize=4, label=f"{label} ({len(times)}/{len(group)})")
    ax.axhline(limit, color="grey", linestyle=":", linewidth=1, label=f"time limit {limit:g} s")
    ax.set_yscale("log")
    ax.set_xlabel("instances answered (solved and verified, or proven none)")
    ax.set_ylabel("seconds per instance")
    ax.set_title(f"{family}: cactus plot (lower and further right is better)")
    written.append(_save_plot(figure, ax, out / f"{family}-cactus.png"))

    sized = [r for r in rows if isinstance(r.get("cells"), (int, float)) and r.get("cells")]
    if sized:
        figure, ax = _new_plot()
        colours = {}
        for i, (label, group) in enumerate(sorted(by_method.items())):
            colour = f"C{i % 10}"
            colours[label] = colour
            done = [(r["cells"], max(FLOOR_SECONDS, seconds_of(r))) for r in group if answered(r) and r.get("cells")]
            missed = [(r["cells"], limit_of(r, default_limit)) for r in group if not answered(r) and r.get("cells")]
            if done:
                ax.scatter(*zip(*done), s=10, color=colour, alpha=0.6, label=label)
            if done or missed:  # the median counts a row not answered at the time limit
                xs, ys = median_line(done + missed)
                ax.plot(xs, ys, color=colour, linewidth=1.2)
            if missed:
                ax.scatter(*zip(*missed), s=22, color=colour, marker="x", label=f"{label}: not answered")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("board size (cells)")
        ax.set_ylabel("seconds (x = not answered; lines: median)")
        ax.set_title(f"{family}: time against size")
        written.append(_save_plot(figure, ax, out / f"{family}-size.png"))
    return written
