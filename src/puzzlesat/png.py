"""PNG pictures: the same :class:`~puzzlesat.scene.Scene` painted with matplotlib primitives.

matplotlib cannot read SVG, so instead of converting the SVG text this module draws each scene
shape with the matching matplotlib artist (rectangle, line, polygon, circle, text), in scene
order, on a canvas of the scene's size. matplotlib is the optional ``plot`` extra
(``pip install 'puzzlesat[plot]'``); without it :func:`write_png` raises a clear error.
"""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from .shapes import Arrow, Circle, Group, Line, Polygon, Polyline, Rect, Shape, Text, clean_text

if TYPE_CHECKING:  # (the scene imports this module to draw itself)
    from .scene import Scene

DPI = 100


class MissingMatplotlib(RuntimeError):
    """PNG output was asked for but matplotlib is not installed."""


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def write_png(scene: Scene, path: str | Path, *, scale: float = 1.0) -> Path:
    """Paint ``scene`` to a PNG file at ``scale`` pixels per scene unit."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingMatplotlib("PNG output needs matplotlib: pip install 'puzzlesat[plot]' (or write .svg)") from None
    pixels = (int(scene.width * scale), int(scene.height * scale))
    if min(pixels) < 2:  # (a long thin board shrunk to fit: matplotlib would say only "cannot write empty image")
        raise ValueError(f"the picture would be {pixels[0]}x{pixels[1]} pixels as PNG, too thin to draw: write .svg")
    figure = Figure(figsize=(scene.width * scale / DPI, scene.height * scale / DPI), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, scene.width)
    axes.set_ylim(scene.height, 0)
    axes.set_axis_off()
    if scene.background:
        figure.patch.set_facecolor(scene.background)
    painter = _Painter(axes, points_per_unit=scale * 72.0 / DPI)
    for shape in scene.shapes:
        painter.paint(shape)
    painter.flush()
    path = Path(path)
    figure.savefig(path, dpi=DPI, facecolor=scene.background or "none")
    return path


class _Painter:
    """Paints shapes in scene order. Runs of plain rectangles (a board's cells) and of lines
    (crosses on cells an answer misses) are drawn as one collection each: one matplotlib artist
    per cell takes minutes and gigabytes on a board of a million cells."""

    def __init__(self, axes, points_per_unit: float) -> None:
        self.axes = axes
        self.pt = points_per_unit
        self.z = 0
        self.run: list[Rect] | list[Line] = []  # shapes of one kind waiting to be drawn, in order
        self.colours: dict[tuple[str | None, float], tuple[float, float, float, float]] = {}

    def _next_z(self) -> int:
        self.z += 1
        return self.z

    def _rgba(self, colour: str | None, opacity: float) -> tuple[float, float, float, float]:
        key = (colour, opacity)
        if key not in self.colours:
            from matplotlib.colors import to_rgba

            self.colours[key] = to_rgba(colour or "none", opacity if colour and colour != "none" else None)
        return self.colours[key]

    def _join(self, shape: "Rect | Line") -> None:
        if self.run and type(self.run[0]) is not type(shape):
            self.flush()
        self.run.append(shape)  # type: ignore[arg-type]

    def flush(self) -> None:
        """Draw the waiting shapes as one collection (above everything painted before)."""
        if not self.run:
            return
        from matplotlib.collections import LineCollection, PolyCollection

        run, self.run = self.run, []
        if isinstance(run[0], Rect):
            self.axes.add_collection(PolyCollection(
                [((r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)) for r in run],
                closed=True, zorder=self._next_z(),
                facecolors=[self._rgba(r.fill, r.opacity) for r in run],
                edgecolors=[self._rgba(r.stroke, r.opacity) for r in run],
                linewidths=[r.stroke_width * self.pt if r.stroke else 0 for r in run],
            ))
        else:
            self.axes.add_collection(LineCollection(
                [((s.x1, s.y1), (s.x2, s.y2)) for s in run], capstyle="round", zorder=self._next_z(),
                colors=[self._rgba(s.stroke, s.opacity) for s in run],
                linewidths=[s.stroke_width * self.pt for s in run],
                linestyles=["--" if s.dashed else "-" for s in run],
            ))

    def paint(self, shape: Shape) -> None:
        from matplotlib import patches
        from matplotlib.lines import Line2D

        ax = self.axes
        if (isinstance(shape, Rect) and not shape.rounded) or isinstance(shape, Line):
            self._join(shape)
            return
        if not isinstance(shape, (Arrow, Group)):  # a group's shapes may join the waiting run
            self.flush()
        if isinstance(shape, Rect):  # rounded
            ax.add_patch(patches.FancyBboxPatch((shape.x, shape.y), shape.width, shape.height,
                                                boxstyle=f"round,pad=0,rounding_size={shape.rounded}",
                                                facecolor=shape.fill or "none", edgecolor=shape.stroke or "none",
                                                linewidth=shape.stroke_width * self.pt if shape.stroke else 0,
                                                alpha=shape.opacity, zorder=self._next_z()))
        elif isinstance(shape, Polyline):
            xs = [p[0] for p in shape.points]
            ys = [p[1] for p in shape.points]
            ax.add_line(Line2D(xs, ys, color=shape.stroke, linewidth=shape.stroke_width * self.pt, solid_capstyle="round",
                               solid_joinstyle="round", alpha=shape.opacity, zorder=self._next_z()))
        elif isinstance(shape, Polygon):
            ax.add_patch(patches.Polygon(list(shape.points), closed=True, facecolor=shape.fill or "none", edgecolor=shape.stroke or "none",
                                         linewidth=shape.stroke_width * self.pt if shape.stroke else 0, joinstyle="round",
                                         alpha=shape.opacity, zorder=self._next_z()))
        elif isinstance(shape, Circle):
            ax.add_patch(patches.Circle((shape.cx, shape.cy), shape.r, facecolor=shape.fill or "none", edgecolor=shape.stroke or "none",
                                        linewidth=shape.stroke_width * self.pt if shape.stroke else 0, alpha=shape.opacity,
                                        zorder=self._next_z()))
        elif isinstance(shape, Text):
            ha = {"start": "left", "end": "right"}.get(shape.anchor, "center")
            ax.text(shape.x, shape.y, clean_text(shape.text), fontsize=shape.size * self.pt, color=shape.fill, ha=ha, va="center_baseline",
                    fontweight="bold" if shape.bold else "normal", parse_math=False, zorder=self._next_z())
        elif isinstance(shape, Arrow):
            for part in shape.parts():
                self.paint(part)
        elif isinstance(shape, Group):
            for child in shape.children:
                self.paint(child)
        else:
            raise TypeError(f"not a scene shape: {shape!r}")
