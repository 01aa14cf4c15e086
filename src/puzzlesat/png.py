"""PNG pictures: the same :class:`~puzzlesat.scene.Scene` painted with matplotlib primitives.

matplotlib cannot read SVG, so instead of converting the SVG text this module draws each scene
shape with the matching matplotlib artist (rectangle, line, polygon, circle, text), in scene
order, on a canvas of the scene's size. matplotlib is the optional ``plot`` extra
(``pip install 'puzzlesat[plot]'``); without it :func:`write_png` raises a clear error.
"""

from __future__ import annotations

from pathlib import Path

from .scene import Arrow, Circle, Group, Line, Polygon, Polyline, Rect, Scene, Shape, Text, clean_text

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
    path = Path(path)
    figure.savefig(path, dpi=DPI, facecolor=scene.background or "none")
    return path


class _Painter:
    def __init__(self, axes, points_per_unit: float) -> None:
        self.axes = axes
        self.pt = points_per_unit
        self.z = 0

    def _next_z(self) -> int:
        self.z += 1
        return self.z

    def paint(self, shape: Shape) -> None:
        from matplotlib import patches
        from matplotlib.lines import Line2D

        ax = self.axes
        if isinstance(shape, Rect):
            style = dict(facecolor=shape.fill or "none", edgecolor=shape.stroke or "none",
                         linewidth=shape.stroke_width * self.pt if shape.stroke else 0, alpha=shape.opacity, zorder=self._next_z())
            if shape.rounded:
                patch = patches.FancyBboxPatch((shape.x, shape.y), shape.width, shape.height,
                                               boxstyle=f"round,pad=0,rounding_size={shape.rounded}", **style)
            else:
                patch = patches.Rectangle((shape.x, shape.y), shape.width, shape.height, **style)
            ax.add_patch(patch)
        elif isinstance(shape, Line):
            ax.add_line(Line2D([shape.x1, shape.x2], [shape.y1, shape.y2], color=shape.stroke, linewidth=shape.stroke_width * self.pt,
                               linestyle="--" if shape.dashed else "-", solid_capstyle="round", dash_capstyle="round",
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
