"""The report's plots as hand-written SVG (no plotting library): a cactus plot (puzzles solved
against seconds per puzzle, one line per family) and seconds against board size. Seconds run
on a log scale, as they span orders of magnitude.

>>> svg = cactus({"numberlink": [0.01, 0.2, 0.03], "roller": [1.5]})
>>> svg.startswith("<svg") and svg.count("<polyline") == 2 and "numberlink" in svg
True
>>> scatter({"swap": [(9, 0.1, True), (16, 0.5, False)]}).count("<circle")
2
"""

from __future__ import annotations

import math
from html import escape
from typing import Iterable, Mapping

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 140, 28, 48  # margins: the legend sits on the right
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
FLOOR = 1e-3  # seconds: shorter times are drawn at this height (a log scale has no zero)


class _Axes:
    """Data to pixels: x linear from ``x_max``, y log10 seconds from ``y_low`` to ``y_high``."""

    def __init__(self, x_max: float, seconds: Iterable[float]) -> None:
        values = [max(FLOOR, s) for s in seconds] or [1.0]
        self.x_max = max(1.0, float(x_max))
        self.low = math.floor(math.log10(min(values)))
        self.high = max(self.low + 1, math.ceil(math.log10(max(values))))

    def x(self, value: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * value / self.x_max

    def y(self, seconds: float) -> float:
        share = (math.log10(max(FLOOR, seconds)) - self.low) / (self.high - self.low)
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * share

    def frame(self, title: str, x_label: str) -> list[str]:
        parts = [f'<text x="{WIDTH / 2:.0f}" y="18" text-anchor="middle" font-weight="bold">{escape(title)}</text>',
                 f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#333"/>',
                 f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#333"/>',
                 f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 10}" text-anchor="middle">{escape(x_label)}</text>',
                 f'<text x="14" y="{(TOP + HEIGHT - BOTTOM) / 2:.0f}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(TOP + HEIGHT - BOTTOM) / 2:.0f})">seconds (log)</text>']
        for power in range(self.low, self.high + 1):
            y = self.y(10.0 ** power)
            parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
            parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{10.0 ** power:g}</text>')
        for tick in _ticks(self.x_max):
            x = self.x(tick)
            parts.append(f'<line x1="{x:.1f}" y1="{HEIGHT - BOTTOM}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM + 4}" stroke="#333"/>')
            parts.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 17}" text-anchor="middle">{tick:g}</text>')
        return parts


def _ticks(top: float) -> list[float]:
    """About five round ticks from 0 to ``top``."""
    raw = top / 5
    step = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for factor in (1, 2, 5, 10):
        if raw <= step * factor:
            step *= factor
            break
    return [step * n for n in range(int(top // step) + 1)]


def _legend(names: Iterable[str]) -> list[str]:
    parts = []
    for n, name in enumerate(names):
        y = TOP + 10 + 20 * n
        colour = COLOURS[n % len(COLOURS)]
        parts.append(f'<rect x="{WIDTH - RIGHT + 12}" y="{y - 9}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 30}" y="{y + 1}">{escape(name)}</text>')
    return parts


def _svg(parts: list[str], label: str) -> str:
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
            f'font-family="sans-serif" font-size="12" role="img" aria-label="{escape(label)}">\n'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>\n{body}\n</svg>\n')


def cactus(seconds: Mapping[str, list[float]], *, title: str = "Cactus plot: puzzles solved within a time") -> str:
    """One line per family: its solved puzzles' seconds, sorted (x: puzzles solved, y: seconds)."""
    axes = _Axes(max((len(v) for v in seconds.values()), default=1), [s for v in seconds.values() for s in v])
    parts = axes.frame(title, "puzzles solved")
    for n, (name, times) in enumerate(seconds.items()):
        points = " ".join(f"{axes.x(i + 1):.1f},{axes.y(s):.1f}" for i, s in enumerate(sorted(times)))
        parts.append(f'<polyline fill="none" stroke="{COLOURS[n % len(COLOURS)]}" stroke-width="2" points="{points}">'
                     f'<title>{escape(name)}: {len(times)} solved</title></polyline>')
    return _svg(parts + _legend(seconds), title)


def scatter(points: Mapping[str, list[tuple[float, float, bool]]], *, title: str = "Seconds against board size") -> str:
    """A dot per puzzle (x: cells, y: seconds), one colour per family; hollow when not decided."""
    axes = _Axes(max((x for v in points.values() for x, _, _ in v), default=1), [s for v in points.values() for _, s, _ in v])
    parts = axes.frame(title, "cells on the board")
    for n, (name, dots) in enumerate(points.items()):
        colour = COLOURS[n % len(COLOURS)]
        for cells, seconds, decided in dots:
            fill = colour if decided else "none"
            parts.append(f'<circle cx="{axes.x(cells):.1f}" cy="{axes.y(seconds):.1f}" r="3" fill="{fill}" stroke="{colour}">'
                         f'<title>{escape(name)}: {cells:g} cells, {seconds:g} s</title></circle>')
    return _svg(parts + _legend(points), title)
